"""Chapter 02's claim values: the tidy table (``key, detail, value, holds``) that the claims registry
(``data/published/claims/paired.toml``) reads for the paper's §5 totals, Tables 1, 3 and 4, Fig. 4's text, Fig. 6 /
App. D and App. F (Peyrard et al. 2021, abstract, §5, §7, Appendices A.3, C, D, F, H).

Each function turns one part of the chapter's saved tables into rows; a row holds either a number (``value``) or
the result of a stated test (``holds``). A test that finds no data to test is recorded as not holding (with a
``detail`` saying so), never left out, so that every record has a value under every profile.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agreement import pair_label, pair_name
from ...data import published
from .published import TABLE3_EXACT, published_table4
from .setups import MEASURES, TABLE1_PAIRS, TASKS

#: Half a unit of the last printed digit: Tables 1 and 4 print whole percents, Table 3 and Fig. 6 two decimals.
PERCENT_ROUNDING = 0.005
COLUMNS = ["key", "detail", "value", "holds"]


def _rows(rows: list[tuple]) -> pd.DataFrame:
    """``(key, detail, value, holds)`` tuples as the tidy table (``value`` NaN or ``holds`` None when unused)."""
    return pd.DataFrame(rows, columns=COLUMNS)


def _nothing(key: str) -> tuple:
    return (key, "nothing to test in this run", np.nan, False)


# -- §5 and Appendix A.3 --------------------------------------------------------------------------------------------

def section5_values(section5: pd.DataFrame, inventory: pd.DataFrame) -> pd.DataFrame:
    """§5's totals and the abstract's tasks and metrics, counted on ours (``section5`` = the chapter's totals
    table with rows "ours", "Appendix A.3's list", "Appendix A.3 + WMT19 lt-en"; ``inventory`` = one row per
    setup): keys ``section5`` (setups, system pairs, test instances, tasks, the paper's metrics we have),
    ``appA3-list`` and ``appA3-lt-en`` (the three totals of each reading of Appendix A.3)."""
    names = published.item("paired", "metrics")
    ours = section5.loc["ours"]
    tasks = {TASKS.get(c) for c in inventory.collection} & set(names["tasks"])
    rows = [("section5", k, float(ours[k]), None) for k in ("setups", "system_pairs", "test_instances")]
    rows.append(("section5", "tasks", float(len(tasks)), None))
    rows.append(("section5", "the paper's metrics among ours", float(len(set(names["names"])
                                                                          & set(inventory.metric))), None))
    for key, row in (("appA3-list", "Appendix A.3's list"), ("appA3-lt-en", "Appendix A.3 + WMT19 lt-en")):
        rows += [(key, k, float(section5.loc[row, k]), None) for k in ("setups", "system_pairs", "test_instances")]
    return _rows(rows)


#: Appendix A.3's collections whose data is a stand-in here, and the collection standing in for each
A3_STAND_INS = {"CNN/DM": "CNNDM", "MSCOCO": "COCO"}


def appa3_values(paper_a3: pd.DataFrame, ours_a3: pd.DataFrame) -> pd.DataFrame:
    """Appendix A.3's per-dataset sizes against ours (both in :func:`.published.paper_inventory`'s columns): one row
    per dataset the paper lists, ``value`` our number of test instances and ``holds`` whether our instances and
    systems are the paper's. Key ``appA3-sizes`` for the paper's own data (TAC, dialogue, WMT; TAC08 is our TAC
    "08", TC our "tc"), ``appA3-sizes-stand-in`` for the collections of :data:`A3_STAND_INS` (their one dataset
    here); a dataset missing from this run does not hold."""
    ours = ours_a3.assign(key=ours_a3.collection.astype(str) + "/" + ours_a3.dataset.astype(str).str.lower())
    rows = []
    for r in paper_a3.itertuples():
        if r.collection in A3_STAND_INS:
            key, found = "appA3-sizes-stand-in", ours[ours.collection == A3_STAND_INS[r.collection]]
        else:
            name = str(r.dataset).removeprefix("TAC") if r.collection == "TAC" else str(r.dataset)
            key, found = "appA3-sizes", ours[ours.key == f"{r.collection}/{name.lower()}"]
        detail = f"{r.collection} {r.dataset}: {r.instances:,} instances, {r.systems} systems"
        if len(found) != 1:
            rows.append((key, detail + " (not in this run)", np.nan, False))
            continue
        got = found.iloc[0]
        rows.append((key, detail, float(got.instances),
                     bool(int(got.instances) == int(r.instances) and int(got.systems) == int(r.systems))))
    return _rows(rows)


# -- Tables 1 and 4, App. H -----------------------------------------------------------------------------------------

def _in_interval(paper_percent: float, row: pd.Series, measure: str) -> bool:
    """Whether the paper's whole percent lies in our 95% interval widened by the printed rounding."""
    p = paper_percent / 100
    return bool(row[f"{measure}_low"] - PERCENT_ROUNDING <= p <= row[f"{measure}_high"] + PERCENT_ROUNDING)


#: the columns of :func:`interval_values`' table: a value with its 95% interval, and the test it was read for
INTERVAL_COLUMNS = ["key", "detail", "value", "low", "high", "holds"]


def interval_values(ours: pd.DataFrame) -> pd.DataFrame:
    """Tables 1 and 4 and App. H against ours (``ours`` = :func:`.experiments.summarise` under the paper's tie
    handling, one row per pair), each value beside its 95% bootstrap interval over setups (``low``, ``high``), so
    the pages show "8% [7%, 9%]": keys ``table1-in-interval`` and ``table4-in-interval`` (per cell of Table 1 and
    of Table 4's other rows: the paper's value within our 95% interval ± the rounding) and ``appH-paired`` (MEAN
    and MEDIAN vs. Elo and TrueSkill: Disagree interval above MEAN vs. MEDIAN's)."""
    paper = published_table4()
    rows = []
    for pair in paper.index:
        key = "table1-in-interval" if pair in TABLE1_PAIRS else "table4-in-interval"
        row = ours.loc[pair_name(pair)]
        rows += [(key, f"{pair_label(pair)}, {MEASURES[m]}", row[m], row[f"{m}_low"], row[f"{m}_high"],
                  _in_interval(paper.loc[[pair], m].iloc[0], row, m)) for m in MEASURES]
    mm = ours.loc["mean_median"]
    for other in ("mean", "median"):
        for paired in ("elo", "trueskill"):
            row = ours.loc[f"{other}_{paired}"]
            rows.append(("appH-paired", f"{pair_label((other, paired))} above MEAN vs. MEDIAN", row.disagree,
                         row.disagree_low, row.disagree_high, bool(row.disagree_low > mm.disagree_high)))
    return pd.DataFrame(rows, columns=INTERVAL_COLUMNS)


def table_values(ours: pd.DataFrame, fig4: pd.DataFrame) -> pd.DataFrame:
    """Table 1's other readings (``ours`` = :func:`.experiments.summarise` under the paper's tie handling, one row
    per pair; the cells with their intervals are :func:`interval_values`): keys ``abstract-sota`` (the mean ≠ SotA
    of Table 1's three pairs) and ``mean-median-closest`` (MEAN vs. MEDIAN's Disagree minus the smaller of MEAN vs.
    BT's and MEDIAN vs. BT's, on the full setups and on Fig. 4's sub-samples)."""
    rows = [("abstract-sota", "mean of Table 1's three ≠ SotA", float(np.mean(
        [ours.loc[pair_name(p), "top1"] for p in TABLE1_PAIRS])), None)]
    full = ours.loc["mean_median", "disagree"] - ours.loc[["mean_bt", "median_bt"], "disagree"].min()
    rows.append(("mean-median-closest", "full setups (Table 1)", float(full), None))
    if len(fig4):
        means = {p: fig4[f"{p}_disagree"].mean() for p in ("mean_median", "mean_bt", "median_bt")}
        rows.append(("mean-median-closest", "sub-samples (Fig. 4)",
                     float(means["mean_median"] - min(means["mean_bt"], means["median_bt"])), None))
    return _rows(rows)


# -- Table 3 --------------------------------------------------------------------------------------------------------

def table3_values(side: pd.DataFrame) -> pd.DataFrame:
    """Every Table 3 cell we have (:func:`.published.table3_side_by_side`, the sub-sample reading) against the
    paper's: ``holds`` = |ours − paper| within the printed rounding plus two standard deviations of the draws' noise.
    Keys: ``table3-exact-disagree`` and ``table3-exact-top`` (TAC, TC, PC: Disagree; ≠ SotA and ≠ Top-3) and
    ``table3-other`` (the datasets whose scores are recomputed or stand-ins)."""
    frame = side.dropna(subset=["ours"])
    exact = frame.dataset.isin(TABLE3_EXACT)
    keys = np.where(~exact, "table3-other",
                    np.where(frame.measure == "disagree", "table3-exact-disagree", "table3-exact-top"))
    close = (frame.ours - frame.paper).abs() <= PERCENT_ROUNDING + 2 * frame.noise_sd
    rows = [(k, f"{r.dataset} {r.metric_group} {MEASURES[r.measure]} {pair_label(tuple(r.pair.split('_')))}",
             r.ours, bool(c)) for k, r, c in zip(keys, frame.itertuples(), close)]
    for key in ("table3-exact-disagree", "table3-exact-top", "table3-other"):
        if key not in set(keys):
            rows.append(_nothing(key))
    return _rows(rows)


#: the block of Table 3 whose MEAN vs. BT and MEDIAN vs. BT columns look exchanged in print: its printed Mean/BT
#: cells lie above its Med/BT cells in all three measures, the other way round from the paper's other TAC blocks
EXCHANGED_BLOCK = ("TAC08", "ROUGE-WE")


def tac_med_above_mean(side: pd.DataFrame) -> pd.Series:
    """The paper's TAC blocks of Table 3 (dataset, metric family) other than :data:`EXCHANGED_BLOCK`: whether the
    printed Med/BT cell is at least the Mean/BT cell in all three measures (``side`` holds the paper's cells)."""
    tac = side[side.dataset.str.startswith("TAC") & side.pair.isin(["mean_bt", "median_bt"])]
    tac = tac[~((tac.dataset == EXCHANGED_BLOCK[0]) & (tac.metric_group == EXCHANGED_BLOCK[1]))]
    wide = tac.pivot_table(index=["dataset", "metric_group", "measure"], columns="pair", values="paper")
    return (wide.median_bt >= wide.mean_bt).groupby(level=[0, 1]).all()


def table3_exchanged_values(side: pd.DataFrame) -> pd.DataFrame:
    """Table 3's :data:`EXCHANGED_BLOCK` read two ways (``side`` as for :func:`table3_values`, the sub-sample
    reading), each cell tested as :func:`table3_values` tests it: key ``table3-rouge-we-as-printed`` (ours for each
    pair against the paper's cell for that pair) and ``table3-rouge-we-exchanged`` (against the paper's cell of the
    other pair, its Mean/BT and Med/BT columns read exchanged); ``table3-tac-med-above-mean``: of the paper's other
    TAC blocks (dataset, metric family), those whose printed Med/BT cells are at least their Mean/BT cells in all
    three measures (the count; ``detail`` says of how many), the evidence for the second reading."""
    dataset, group = EXCHANGED_BLOCK
    block = side[(side.dataset == dataset) & (side.metric_group == group) & side.pair.isin(["mean_bt", "median_bt"])]
    other_pair = {"mean_bt": "median_bt", "median_bt": "mean_bt"}
    printed = block.set_index(["measure", "pair"]).paper
    rows = []
    for key, exchanged in (("table3-rouge-we-as-printed", False), ("table3-rouge-we-exchanged", True)):
        for r in block.itertuples():
            paper = printed[(r.measure, other_pair[r.pair])] if exchanged else r.paper
            label = f"{r.dataset} {r.metric_group} {MEASURES[r.measure]} {pair_label(tuple(r.pair.split('_')))}"
            rows.append((key, f"{label} against the paper's {paper:.2f}", r.ours, bool(
                pd.notna(r.ours) and abs(r.ours - paper) <= PERCENT_ROUNDING + 2 * r.noise_sd)))
    above = tac_med_above_mean(side)
    rows.append(("table3-tac-med-above-mean", f"of the paper's {len(above)} other TAC blocks",
                 float(above.sum()), None))
    return _rows(rows)


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def fig4_values(ranks: pd.DataFrame, by_task: pd.DataFrame, by_size: pd.DataFrame,
                bt_eval_size: pd.DataFrame, by_metric: pd.DataFrame | None = None) -> pd.DataFrame:
    """§5's reading of Fig. 4. ``ranks`` = :func:`.experiments.metric_ranks` (TAC and dialogue, where every
    metric was computed); ``by_task``, ``by_size`` and ``bt_eval_size`` = :func:`.experiments.fig4_summaries`'
    tables (the last from BT-eval's draws). Keys: ``fig4a-bleu`` (BLEU's rank in the top quarter, vs. BT),
    ``fig4a-bert-mover`` (BERTScore's and MoverScore's ranks in the lower half), ``fig4a-mean-median-stable`` (the
    range of MEAN vs. MEDIAN over metrics below the other pairs'), ``fig4b-tasks`` (per pair: translation and
    summarization below dialogue and captioning), ``fig4c-agree-more`` (disagreement at the largest size minus at
    the smallest) and ``fig4c-floor`` (MEAN vs. BT and MEDIAN vs. BT at the largest size). With ``by_metric``
    (:func:`.experiments.fig4_summaries`' per-metric table, with 95% intervals over setups) also
    ``fig4a-mean-median-overlap`` (MEAN vs. MEDIAN's intervals over the metrics share a value: the highest lower end
    minus the lowest upper end, at most 0). Also ``fig4c-floor-high`` (the upper end of the 95% interval at the
    largest size, both readings) and
    ``fig4c-mean-median-floor`` (MEAN vs. MEDIAN at the largest size, the lower end of its interval)."""
    rows = []
    n = len(ranks)
    for pair in ("mean_bt", "median_bt"):
        rank = ranks[f"{pair} rank"].get("BLEU")
        rows.append(("fig4a-bleu", f"BLEU, {pair_label(tuple(pair.split('_')))}: rank of {n}",
                     np.nan if rank is None else float(rank), rank is not None and bool(rank <= n / 4)))
    for metric in ("BERTScore", "MoverScore"):
        for pair in ("mean_median", "mean_bt", "median_bt"):
            rank = ranks[f"{pair} rank"].get(metric)
            rows.append(("fig4a-bert-mover", f"{metric}, {pair_label(tuple(pair.split('_')))}: rank of {n}",
                         np.nan if rank is None else float(rank), rank is not None and bool(rank > n / 2)))
    spread = {p: ranks[p].max() - ranks[p].min() for p in ("mean_median", "mean_bt", "median_bt")} if n else {}
    rows.append(("fig4a-mean-median-stable", "range over metrics, MEAN vs. MEDIAN",
                 spread.get("mean_median", np.nan),
                 bool(n and spread["mean_median"] < min(spread["mean_bt"], spread["median_bt"]))))
    if by_metric is not None:
        mm = by_metric[by_metric.pair == "mean_median"]
        rows.append(("fig4a-mean-median-overlap", "MEAN vs. MEDIAN: the highest lower end of a metric's 95% interval "
                     "minus the lowest upper end", float(mm.low.max() - mm.high.min()) if len(mm) else np.nan,
                     bool(len(mm) and mm.low.max() <= mm.high.min())))
    wide = by_task.pivot(index="task", columns="pair", values="disagree")
    for pair in (pair_name(p) for p in TABLE1_PAIRS):
        low = wide[pair].reindex(["translation", "summarization"]).max() if pair in wide else np.nan
        high = wide[pair].reindex(["dialogue", "captioning"]).min() if pair in wide else np.nan
        rows.append(("fig4b-tasks", f"{pair_label(tuple(pair.split('_')))}: MT and summarization below dialogue and "
                     "captioning", high - low, bool(low < high)))
    sizes = by_size.pivot(index="size", columns="pair", values="disagree").sort_index()
    for pair in (pair_name(p) for p in TABLE1_PAIRS):
        change = sizes[pair].iloc[-1] - sizes[pair].iloc[0] if pair in sizes else np.nan
        rows.append(("fig4c-agree-more", f"{pair_label(tuple(pair.split('_')))}, size {sizes.index[-1]:g} minus "
                     f"{sizes.index[0]:g}", float(change), None))
    for label, frame in (("sub-samples", by_size), ("BT-eval's draws", bt_eval_size)):
        last = frame[frame["size"] == frame["size"].max()].set_index("pair").disagree
        for pair in ("mean_bt", "median_bt"):
            rows.append(("fig4c-floor", f"{label}, {pair_label(tuple(pair.split('_')))}, size "
                         f"{frame['size'].max():g}", float(last.get(pair, np.nan)), None))
    for label, frame in (("sub-samples", by_size), ("BT-eval's draws", bt_eval_size)):
        last = frame[frame["size"] == frame["size"].max()].set_index("pair")
        for pair in ("mean_bt", "median_bt"):
            rows.append(("fig4c-floor-high", f"{label}, {pair_label(tuple(pair.split('_')))}, size "
                         f"{frame['size'].max():g}: upper end of the 95% interval",
                         float(last["high"].get(pair, np.nan)), None))
    last = by_size[by_size["size"] == by_size["size"].max()].set_index("pair")
    rows.append(("fig4c-mean-median-floor", f"MEAN vs. MEDIAN, size {by_size['size'].max():g}: lower end of the 95% "
                 "interval", float(last["low"].get("mean_median", np.nan)), None))
    return _rows(rows)


# -- Fig. 6 / Appendix D --------------------------------------------------------------------------------------------

def fig6_cells(per_pair: pd.DataFrame, matrix: pd.DataFrame, paper: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Fig. 6 cell by cell: ours, the paper's, the number of system pairs the share is over (all pairs on the
    diagonal, the pairs test i finds significant elsewhere) and ``close`` = |ours − paper| within the printed
    rounding plus two binomial standard errors of a share of that many pairs whose true value is the paper's."""
    significant = per_pair[list(matrix.columns)] < alpha
    rows = []
    for i in matrix.index:
        for j in matrix.columns:
            n = len(significant) if i == j else int(significant[i].sum())
            ours, theirs = matrix.loc[i, j], paper.loc[i, j]
            se = np.sqrt(theirs * (1 - theirs) / n) if n else np.nan
            rows.append({"given": i, "also": j, "ours": ours, "paper": theirs, "pairs": n,
                         "close": bool(abs(ours - theirs) <= PERCENT_ROUNDING + 2 * se)})
    return pd.DataFrame(rows)


def fig6_values(cells: pd.DataFrame) -> pd.DataFrame:
    """Keys ``fig6-cell`` (every cell: ``close``), ``appD-text`` (the diagonal against the shares §5's text prints,
    with the same tolerance), ``appD-text-both`` (the same counting the paper's own sampling noise too: its share is
    a draw of as many pairs, so two binomial standard errors of a difference of two shares), ``appD-more-than-mood``
    (the sign test's and Wilcoxon's share minus Mood's, beyond two standard errors of that difference) and ``appD-order`` (the t-test finds significance most often and Mood's test least:
    the largest and the smallest diagonal cell) from :func:`fig6_cells`."""
    rows = [("fig6-cell", f"{r.given} → {r.also}" if r.given != r.also else f"{r.given} (diagonal)", r.ours, r.close)
            for r in cells.itertuples()]
    diagonal = cells[cells.given == cells.also].set_index("given")
    text = published.item("paired", "section5_significance")
    for test, share in zip(text["tests"], text["share"]):
        row = diagonal.loc[test]
        se = np.sqrt(share * (1 - share) / row.pairs) if row.pairs else np.nan
        rows.append(("appD-text", f"{test} (§5: {share:.0%})", row.ours,
                     bool(abs(row.ours - share) <= PERCENT_ROUNDING + 2 * se)))
        # the paper's share is itself a draw of as many pairs, drawn the same way: the difference of two such shares
        rows.append(("appD-text-both", f"{test} (§5: {share:.0%})", row.ours,
                     bool(abs(row.ours - share) <= PERCENT_ROUNDING + 2 * np.sqrt(2) * se)))
    for test in ("sign", "Wilcoxon"):
        if test in diagonal.index and "Mood" in diagonal.index and diagonal.loc[test].pairs:
            a, b, n = diagonal.loc[test].ours, diagonal.loc["Mood"].ours, diagonal.loc[test].pairs
            se = np.sqrt((a * (1 - a) + b * (1 - b)) / n)
            rows.append(("appD-more-than-mood", f"{test} minus Mood", float(a - b), bool(a - b > 2 * se)))
        else:
            rows.append(("appD-more-than-mood", f"{test} minus Mood (nothing to test in this run)", np.nan, False))
    diagonal = diagonal.ours
    rows.append(("appD-order", "the t-test finds significance most often", diagonal.get("t-test", np.nan),
                 bool(len(diagonal) and diagonal.idxmax() == "t-test")))
    rows.append(("appD-order", "Mood's test finds it least often", diagonal.get("Mood", np.nan),
                 bool(len(diagonal) and diagonal.idxmin() == "Mood")))
    return _rows(rows)


# -- Appendix F -----------------------------------------------------------------------------------------------------

def iia_values(iia: pd.DataFrame, full: pd.DataFrame | None = None) -> pd.DataFrame:
    """App. F's search (one row per setup and test-set size, :func:`.experiments.iia_search`): key
    ``appF-over-10`` (violations, reversed or tied, in test sets of more than 10 instances) and ``appF-share`` (the
    share of (pair, third system) combinations of the full setups that are violations). With ``full``
    (:func:`.experiments.iia_full_reversals`, one row per setup) also the reading on the full test sets of more than
    10 instances, reversals only: ``appF-full-reversed`` (the reversed combinations) and ``appF-full-reversed-matter``
    (those whose pair the sign test separates or that include the best system)."""
    big = iia[iia.n_instances > 10]
    full_sizes = iia[iia["size"].astype(str) == "full"]
    combos = 3 * full_sizes.triples.sum()
    rows = [
        ("appF-over-10", "violations in test sets of more than 10 instances", float((big.reversed + big.tied).sum()),
         None),
        ("appF-over-10", "setups with more than 10 instances and a violation", float(
            big[big["size"].astype(str) == "full"].pipe(lambda f: ((f.reversed + f.tied) > 0).sum())), None),
        ("appF-share", "violations per (pair, third system), full setups",
         float((full_sizes.reversed + full_sizes.tied).sum() / combos) if combos else np.nan, None),
    ]
    if full is not None:
        over = full[full.n_instances > 10]
        rows += [("appF-full-reversed", "reversed (pair, third system) combinations, full test sets of more than 10 "
                  "instances", float(over.reversed.sum()), None),
                 ("appF-full-reversed-matter", "of these, with a pair the sign test separates or the best system",
                  float(over.either.sum()), None)]
    return _rows(rows)
