"""Chapter 02's claim values: the tidy rows (``key, detail, value, holds``) that the claims registry
(``data/published/claims/paired.toml``) reads for the paper's §5 totals, Tables 1, 3 and 4, Fig. 4's text, Fig. 6 /
App. D and App. F (Peyrard et al. 2021, abstract, §5, §7, Appendices A.3, C, D, F, H).

A row holds a number (``value``), the outcome of a stated test (``holds``) or both. A test that finds no data to
test is recorded as not holding (its ``detail`` says so), never left out, so every record has a value under every
profile.
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


def _pair(name: str) -> str:
    """``"mean_bt"`` -> ``"MEAN vs. BT"``."""
    return pair_label(tuple(name.split("_")))


# -- §5 and Appendix A.3 --------------------------------------------------------------------------------------------

def section5_values(section5: pd.DataFrame, inventory: pd.DataFrame) -> pd.DataFrame:
    """§5's totals, tasks and metrics counted on ours (``section5`` = the chapter's totals table, ``inventory`` =
    one row per setup), and the totals of each reading of Appendix A.3 (keys ``appA3-list``, ``appA3-lt-en``)."""
    names = published.item("paired", "metrics")
    totals = ("setups", "system_pairs", "test_instances")
    tasks = {TASKS.get(c) for c in inventory.collection} & set(names["tasks"])
    rows = [("section5", k, float(section5.loc["ours", k]), None) for k in totals]
    rows += [("section5", "tasks", float(len(tasks)), None),
             ("section5", "the paper's metrics among ours", float(len(set(names["names"]) & set(inventory.metric))),
              None)]
    for key, row in (("appA3-list", "Appendix A.3's list"), ("appA3-lt-en", "Appendix A.3 + WMT19 lt-en")):
        rows += [(key, k, float(section5.loc[row, k]), None) for k in totals]
    return _rows(rows)


#: Appendix A.3's collections whose data is a stand-in here, and the collection standing in for each
A3_STAND_INS = {"CNN/DM": "CNNDM", "MSCOCO": "COCO"}


def appa3_values(paper_a3: pd.DataFrame, ours_a3: pd.DataFrame) -> pd.DataFrame:
    """Appendix A.3's per-dataset sizes against ours (both in :func:`.setups.dataset_inventory`'s columns): one row
    per dataset the paper lists, ``value`` our test instances and ``holds`` whether our instances and systems are the
    paper's. Key ``appA3-sizes`` for the paper's own data (TAC08 is our TAC "08"), ``appA3-sizes-stand-in`` for
    :data:`A3_STAND_INS`; a dataset missing from this run does not hold."""
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


def interval_values(ours: pd.DataFrame) -> pd.DataFrame:
    """Tables 1 and 4 and App. H against ours (``ours`` = :func:`.experiments.summarise` under the paper's tie
    handling), each value with its 95% bootstrap interval over setups (``low``, ``high``): keys
    ``table1-in-interval`` and ``table4-in-interval`` (the paper's cell within our interval ± the rounding) and
    ``appH-paired`` (MEAN and MEDIAN vs. Elo and TrueSkill: Disagree interval above MEAN vs. MEDIAN's)."""
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
    return pd.DataFrame(rows, columns=["key", "detail", "value", "low", "high", "holds"])


def table_values(ours: pd.DataFrame, fig4: pd.DataFrame) -> pd.DataFrame:
    """Table 1's other readings (``ours`` as for :func:`interval_values`): ``abstract-sota`` (the mean ≠ SotA of
    Table 1's three pairs) and ``mean-median-closest`` (MEAN vs. MEDIAN's Disagree minus the smaller of MEAN vs.
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

def _cell(r) -> str:
    """A Table 3 cell (a row of :func:`.published.table3_side_by_side`) as the details name it."""
    return f"{r.dataset} {r.metric_group} {MEASURES[r.measure]} {_pair(r.pair)}"


def table3_values(side: pd.DataFrame) -> pd.DataFrame:
    """Every Table 3 cell we have (:func:`.published.table3_side_by_side`, the sub-sample reading) against the
    paper's: ``holds`` = |ours − paper| within the printed rounding plus two standard deviations of the draws' noise.
    Keys ``table3-exact-disagree`` and ``table3-exact-top`` (TAC, TC, PC) and ``table3-other``."""
    frame = side.dropna(subset=["ours"])
    keys = np.where(~frame.dataset.isin(TABLE3_EXACT), "table3-other",
                    np.where(frame.measure == "disagree", "table3-exact-disagree", "table3-exact-top"))
    close = (frame.ours - frame.paper).abs() <= PERCENT_ROUNDING + 2 * frame.noise_sd
    rows = [(k, _cell(r), r.ours, bool(c)) for k, r, c in zip(keys, frame.itertuples(), close)]
    rows += [(key, "nothing to test in this run", np.nan, False)
             for key in ("table3-exact-disagree", "table3-exact-top", "table3-other") if key not in set(keys)]
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
    """Table 3's :data:`EXCHANGED_BLOCK` read two ways, each cell tested as :func:`table3_values` tests it: key
    ``table3-rouge-we-as-printed`` (ours against the paper's cell for the same pair) and
    ``table3-rouge-we-exchanged`` (against the other pair's); and the evidence for the second reading,
    ``table3-tac-med-above-mean`` (the count of :func:`tac_med_above_mean`)."""
    dataset, group = EXCHANGED_BLOCK
    block = side[(side.dataset == dataset) & (side.metric_group == group) & side.pair.isin(["mean_bt", "median_bt"])]
    other_pair = {"mean_bt": "median_bt", "median_bt": "mean_bt"}
    printed = block.set_index(["measure", "pair"]).paper
    rows = []
    for key, exchanged in (("table3-rouge-we-as-printed", False), ("table3-rouge-we-exchanged", True)):
        for r in block.itertuples():
            paper = printed[(r.measure, other_pair[r.pair])] if exchanged else r.paper
            rows.append((key, f"{_cell(r)} against the paper's {paper:.2f}", r.ours, bool(
                pd.notna(r.ours) and abs(r.ours - paper) <= PERCENT_ROUNDING + 2 * r.noise_sd)))
    above = tac_med_above_mean(side)
    rows.append(("table3-tac-med-above-mean", f"of the paper's {len(above)} other TAC blocks",
                 float(above.sum()), None))
    return _rows(rows)


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def fig4_values(ranks: pd.DataFrame, by_task: pd.DataFrame, by_size: pd.DataFrame,
                bt_eval_size: pd.DataFrame, by_metric: pd.DataFrame | None = None) -> pd.DataFrame:
    """§5's reading of Fig. 4. ``ranks`` = :func:`.experiments.metric_ranks` (TAC and dialogue, where every metric
    was computed); the other tables are :func:`.experiments.fig4_summaries`' (``bt_eval_size`` from BT-eval's
    draws). Keys ``fig4a-bleu`` (BLEU's rank in the top quarter vs. BT), ``fig4a-bert-mover`` (BERTScore and
    MoverScore in the lower half), ``fig4a-mean-median-stable`` (MEAN vs. MEDIAN's range over metrics below the
    other pairs'), with ``by_metric`` ``fig4a-mean-median-overlap`` (the highest lower end of its metrics' 95%
    intervals minus the lowest upper end, at most 0), ``fig4b-tasks`` (MT and summarization below dialogue and
    captioning), ``fig4c-agree-more`` (the largest size minus the smallest), ``fig4c-floor``, ``fig4c-floor-high``
    and ``fig4c-mean-median-floor`` (the largest size: the value, its interval's upper and lower end)."""
    n = len(ranks)
    pairs = [pair_name(p) for p in TABLE1_PAIRS]
    rows = []
    for key, metrics, on, holds in (("fig4a-bleu", ["BLEU"], pairs[1:], lambda r: r <= n / 4),
                                    ("fig4a-bert-mover", ["BERTScore", "MoverScore"], pairs, lambda r: r > n / 2)):
        for metric in metrics:
            for pair in on:
                rank = float(ranks[f"{pair} rank"].get(metric, np.nan))
                rows.append((key, f"{metric}, {_pair(pair)}: rank of {n}", rank, bool(holds(rank))))
    spread = ranks[pairs].max() - ranks[pairs].min()
    rows.append(("fig4a-mean-median-stable", "range over metrics, MEAN vs. MEDIAN", spread["mean_median"],
                 bool(spread["mean_median"] < min(spread["mean_bt"], spread["median_bt"]))))
    if by_metric is not None:
        mm = by_metric[by_metric.pair == "mean_median"]
        rows.append(("fig4a-mean-median-overlap", "MEAN vs. MEDIAN: the highest lower end of a metric's 95% interval "
                     "minus the lowest upper end", float(mm.low.max() - mm.high.min()) if len(mm) else np.nan,
                     bool(len(mm) and mm.low.max() <= mm.high.min())))
    wide = by_task.pivot(index="task", columns="pair", values="disagree").reindex(columns=pairs)
    low, high = wide.reindex(["translation", "summarization"]).max(), wide.reindex(["dialogue", "captioning"]).min()
    rows += [("fig4b-tasks", f"{_pair(pair)}: MT and summarization below dialogue and captioning",
              high[pair] - low[pair], bool(low[pair] < high[pair])) for pair in pairs]
    sizes = by_size.pivot(index="size", columns="pair", values="disagree").sort_index().reindex(columns=pairs)
    rows += [("fig4c-agree-more", f"{_pair(pair)}, size {sizes.index[-1]:g} minus {sizes.index[0]:g}",
              float(sizes[pair].iloc[-1] - sizes[pair].iloc[0]), None) for pair in pairs]
    for key, column, what in (("fig4c-floor", "disagree", ""),
                              ("fig4c-floor-high", "high", ": upper end of the 95% interval")):
        for label, frame in (("sub-samples", by_size), ("BT-eval's draws", bt_eval_size)):
            largest = frame["size"].max()
            last = frame[frame["size"] == largest].set_index("pair")[column]
            rows += [(key, f"{label}, {_pair(pair)}, size {largest:g}{what}", float(last.get(pair, np.nan)), None)
                     for pair in ("mean_bt", "median_bt")]
    largest = by_size["size"].max()
    last = by_size[by_size["size"] == largest].set_index("pair")
    rows.append(("fig4c-mean-median-floor", f"MEAN vs. MEDIAN, size {largest:g}: lower end of the 95% interval",
                 float(last["low"].get("mean_median", np.nan)), None))
    return _rows(rows)


# -- Fig. 6 / Appendix D --------------------------------------------------------------------------------------------

def fig6_cells(per_pair: pd.DataFrame, matrix: pd.DataFrame, paper: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Fig. 6 cell by cell: ours, the paper's, the number of system pairs the share is over (all pairs on the
    diagonal, the pairs test i finds significant elsewhere) and ``close`` = |ours − paper| within the printed
    rounding plus two binomial standard errors of a share of that many pairs whose true value is the paper's."""
    ours = matrix.stack()
    cells = ours.rename_axis(["given", "also"]).rename("ours").reset_index()
    cells["paper"] = [paper.loc[i, j] for i, j in ours.index]
    significant = (per_pair[list(matrix.columns)] < alpha).sum()
    cells["pairs"] = np.where(cells.given == cells.also, len(per_pair), significant[cells.given].to_numpy())
    se = np.sqrt(cells.paper * (1 - cells.paper) / cells.pairs.where(cells.pairs > 0))
    cells["close"] = (cells.ours - cells.paper).abs() <= PERCENT_ROUNDING + 2 * se
    return cells


def fig6_values(cells: pd.DataFrame) -> pd.DataFrame:
    """From :func:`fig6_cells`: keys ``fig6-cell`` (every cell: ``close``), ``appD-text`` (the diagonal against the
    shares §5's text prints, with the same tolerance), ``appD-text-both`` (counting the paper's own sampling noise
    too), ``appD-more-than-mood`` (the sign test's and Wilcoxon's share minus Mood's, beyond two standard errors of
    the difference) and ``appD-order`` (the t-test finds significance most often, Mood's test least)."""
    rows = [("fig6-cell", f"{r.given} → {r.also}" if r.given != r.also else f"{r.given} (diagonal)", r.ours, r.close)
            for r in cells.itertuples()]
    diagonal = cells[cells.given == cells.also].set_index("given")
    text = published.item("paired", "section5_significance")
    for test, share in zip(text["tests"], text["share"]):
        row = diagonal.loc[test]
        se = np.sqrt(share * (1 - share) / row.pairs) if row.pairs else np.nan
        gap = abs(row.ours - share)
        # the paper's share is itself a draw of as many pairs, drawn the same way: the difference of two such shares
        rows += [("appD-text", f"{test} (§5: {share:.0%})", row.ours, bool(gap <= PERCENT_ROUNDING + 2 * se)),
                 ("appD-text-both", f"{test} (§5: {share:.0%})", row.ours,
                  bool(gap <= PERCENT_ROUNDING + 2 * np.sqrt(2) * se))]
    for test in ("sign", "Wilcoxon"):
        if diagonal.loc[test].pairs:
            a, b, n = diagonal.loc[test].ours, diagonal.loc["Mood"].ours, diagonal.loc[test].pairs
            se = np.sqrt((a * (1 - a) + b * (1 - b)) / n)
            rows.append(("appD-more-than-mood", f"{test} minus Mood", float(a - b), bool(a - b > 2 * se)))
        else:
            rows.append(("appD-more-than-mood", f"{test} minus Mood (nothing to test in this run)", np.nan, False))
    diagonal = diagonal.ours
    rows.append(("appD-order", "the t-test finds significance most often", diagonal["t-test"],
                 bool(diagonal.idxmax() == "t-test")))
    rows.append(("appD-order", "Mood's test finds it least often", diagonal["Mood"], bool(diagonal.idxmin() == "Mood")))
    return _rows(rows)


# -- Appendix F -----------------------------------------------------------------------------------------------------

def iia_values(iia: pd.DataFrame, full: pd.DataFrame | None = None) -> pd.DataFrame:
    """App. F's search (one row per setup and test-set size, :func:`.experiments.iia_search`): ``appF-over-10``
    (violations, reversed or tied, in test sets of more than 10 instances) and ``appF-share`` (the share of (pair,
    third system) combinations of the full setups that are violations). With ``full``
    (:func:`.experiments.iia_full_reversals`) also the reversals on the full test sets of more than 10 instances
    (``appF-full-reversed``) and those whose pair the sign test separates or includes the best system
    (``appF-full-reversed-matter``)."""
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
