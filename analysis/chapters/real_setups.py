"""Chapter ``02_real_setups``: the paired paper's analyses of real evaluation setups (Peyrard et al. 2021, §5,
Tables 1, 3, 4, Figs. 4-6, Appendices C, D, F, H).

A *setup* is one (collection, dataset, metric) score matrix of the ``paired_setups`` table. This module turns the
table into per-setup disagreement rows (Tables 1, 3, 4; Fig. 4), significance-test agreement (Fig. 6 / App. D) and
the independence-of-irrelevant-alternatives search (App. F), and draws their figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from scipy import stats

from .. import aggregate
from ..agreement import (
    agreement_matrix,
    compare_aggregators,
    iia_violations,
    measure_column,
    mechanism_pairs,
    pair_name,
    top_k_differs,
)
from ..data import published
from ..pairwise import PAIRED_TESTS, TestResult, bootstrap_summary, paired_sign_counts, sign_test
from ..plotting import dodged_errorbars
from ..validation import check_pair, check_rng
from .common import SEED, Param, pair_label

CHAPTER = "02_real_setups"
PARAMETERS = {
    "seed": SEED,
    "collections": Param("str", many=True, optional=True),
    "n_resamples": Param("int", low=1),
    "subsample_sizes": Param("int", low=2, many=True),
    "n_subsamples": Param("int", low=1),
    "sig_max_pairs": Param("int", low=1, optional=True),
    "table3_fraction": Param("number", low=0, high=1, low_open=True),
    "table3_draws": Param("int", low=1),
    "fig4_paper_draws": Param("int", low=1),
    "sig_paper_draws": Param("int", low=1),
    "sig_paper_pairs": Param("int", low=1),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "iia_sizes": Param("int", low=3, many=True),
    "fig5_setup": Param("str", many=True, length=3),
}
MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
PAPER = ("mean", "median", "bt")
#: Table 1's pairs, in its order; also Fig. 4's.
TABLE1_PAIRS = (("mean", "median"), ("mean", "bt"), ("median", "bt"))
#: Table 3's pairs, in its column order.
TABLE3_PAIRS = (("mean", "bt"), ("median", "bt"), ("mean", "median"))
MEASURES = {"disagree": "Disagree", "top1": "≠ SotA", "top3": "≠ Top-3"}
#: The task of each collection (Fig. 4b).
TASKS = {
    "TAC": "summarization",
    "CNNDM": "summarization",
    "WMT17": "translation",
    "WMT18": "translation",
    "WMT19": "translation",
    "COCO": "captioning",
    "Dialogue": "dialogue",
}
TASK_SHORT = {"summarization": "summ.", "translation": "MT", "captioning": "caption.", "dialogue": "dialogue"}
KEYS = ["collection", "dataset", "metric"]
PAIR_COLORS = {"mean_median": "#DD8452", "mean_bt": "#4C72B0", "median_bt": "#55A868"}


# -- setups ---------------------------------------------------------------------------------------------------------

def iter_setups(table: pd.DataFrame, collections=None) -> Iterator[tuple[tuple[str, str, str], pd.DataFrame]]:
    """Yield ``((collection, dataset, metric), score matrix)`` for every setup, in the table's order, with systems in
    the source's column order (which Elo, TrueSkill and the paper's tie rule depend on)."""
    missing = set(KEYS + ["instance", "system", "score"]) - set(table.columns)
    if missing:
        raise ValueError(f"the table lacks columns {sorted(missing)}; expected the paired_setups schema")
    if collections is not None:
        table = table[table["collection"].isin(list(collections))]
    for key, group in table.groupby(KEYS, sort=False, observed=True):
        systems = pd.unique(group["system"])
        matrix = group.pivot(index="instance", columns="system", values="score")[systems]
        if matrix.isna().any().any():
            raise ValueError(f"setup {key} is not a complete score matrix (some system lacks some instance)")
        yield key, matrix.rename_axis(index=None, columns=None)


def subsample(matrix: pd.DataFrame, size: int, rng) -> pd.DataFrame:
    """``size`` test instances drawn without replacement, kept in their original order."""
    gen = check_rng(rng)
    if not 1 <= size <= len(matrix):
        raise ValueError(f"cannot draw {size} of {len(matrix)} test instances")
    rows = np.sort(gen.choice(len(matrix), size=size, replace=False))
    return matrix.iloc[rows].reset_index(drop=True)


def inventory(setups) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per setup with its size, a summary per collection with a total row)."""
    frame = pd.DataFrame([dict(zip(KEYS, k)) | {"instances": m.shape[0], "systems": m.shape[1]} for k, m in setups])
    summary = frame.groupby("collection", sort=False).agg(
        setups=("metric", "size"), datasets=("dataset", "nunique"), metrics=("metric", "nunique"),
        instances=("instances", "median"), systems=("systems", "median"))
    summary.loc["total"] = [len(frame), frame[["collection", "dataset"]].drop_duplicates().shape[0],
                            frame.metric.nunique(), frame.instances.median(), frame.systems.median()]
    return frame, summary


def paper_inventory() -> pd.DataFrame:
    """The paper's datasets as Appendix A.3 lists them: collection, dataset, instances, systems, metrics."""
    return published.frame("paired", "appendix_a3")


def section5_totals(datasets: pd.DataFrame) -> pd.Series:
    """§5's three totals counted as BT-eval's notebook counts them, from one row per dataset (``instances``,
    ``systems``, ``metrics``): setups = Σ metrics, system pairs = Σ metrics · C(systems, 2), test instances =
    Σ instances (each dataset once, not once per metric)."""
    pairs = datasets.systems * (datasets.systems - 1) // 2
    return pd.Series({"setups": int(datasets.metrics.sum()), "system_pairs": int((datasets.metrics * pairs).sum()),
                      "test_instances": int(datasets.instances.sum())})


def dataset_inventory(inventory_frame: pd.DataFrame) -> pd.DataFrame:
    """Our setups per dataset, in :func:`paper_inventory`'s columns."""
    return inventory_frame.groupby(["collection", "dataset"], sort=False).agg(
        instances=("instances", "first"), systems=("systems", "first"), metrics=("metric", "size")).reset_index()


def n_system_pairs(inventory_frame: pd.DataFrame) -> int:
    return int((inventory_frame.systems * (inventory_frame.systems - 1) // 2).sum())


# -- Tables 1, 3, 4 -------------------------------------------------------------------------------------------------

def aggregators(policy: str, names=MECHANISMS) -> dict:
    """The mechanisms of Tables 1/4 under one tie policy (:func:`analysis.aggregate.mechanisms`)."""
    return aggregate.mechanisms(policy, names)


def disagreement_rows(setups, policy: str, names=MECHANISMS) -> pd.DataFrame:
    """One row per setup: the keys, ``n_instances``, ``n_systems`` and ``<a>_<b>_disagree/top1/top3`` for every pair
    of mechanisms in ``names`` order (:func:`analysis.agreement.compare_aggregators`)."""
    fns = aggregators(policy, names)
    rows = [pd.concat([pd.Series(dict(zip(KEYS, key))), *_compared(matrix, fns)]) for key, matrix in setups]
    return pd.DataFrame(rows).astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})


def _compared(matrix: pd.DataFrame, fns: dict) -> tuple[pd.Series, pd.Series]:
    """:func:`compare_aggregators` on one matrix, and whether BT had no finite fit on it (``bt_degenerate``)."""
    with aggregate.degenerate_fits() as degenerate:
        row = compare_aggregators(matrix, fns, k=3)
    return row, pd.Series({"bt_degenerate": bool(degenerate)})


def degenerate_note(frames: dict[str, pd.DataFrame]) -> str:
    """A sentence: in how many rows of each frame (labelled, e.g. ``{"setups under ties='loss'": rows}``) BT had no
    finite maximum-likelihood fit, naming the setups when there are few, and what that does to the tables."""
    counts = []
    for label, frame in frames.items():
        hit = frame[frame["bt_degenerate"]]
        named = ""
        if 0 < len(hit) <= 6 and set(KEYS) <= set(frame.columns):
            named = " (" + ", ".join(" ".join(map(str, key)) for key in hit[KEYS].itertuples(index=False)) + ")"
        counts.append(f"{len(hit):,} of {len(frame):,} {label}{named}")
    if not any(frame["bt_degenerate"].any() for frame in frames.values()):
        return "BT has a finite maximum-likelihood fit in all " + " and ".join(
            f"{len(f):,} {label}" for label, f in frames.items()) + "."
    return ("BT has no finite maximum-likelihood fit in " + "; and in ".join(counts) + ". There a group of systems "
            "never loses (or never wins) against the rest, so its strengths grow (or shrink) without bound and "
            "their size is set by the fit's stopping rule; the group's place in the ranking, which is all the "
            "disagreement measures use, is still right.")


def summarise(per_setup: pd.DataFrame, pairs, *, rng, n_resamples: int = 1000) -> pd.DataFrame:
    """Table 1/4: mean over setups (unweighted) of each measure with a 95% bootstrap interval over setups, one row
    per pair (labelled ``a_b``). Setups where ``disagree`` is undefined (a constant aggregate) are left out of that
    column's mean only; a measure undefined everywhere is NaN."""
    columns = [measure_column(pair, m) for pair in pairs for m in MEASURES]
    long = bootstrap_summary(per_setup, columns, rng=rng, n_resamples=n_resamples).set_index("column")
    long = long.reindex(columns)  # a measure undefined in every setup stays NaN
    rows = []
    for pair in pairs:
        row = {"pair": pair_name(pair)}
        for m in MEASURES:
            est, low, high = long.loc[measure_column(pair, m), ["estimate", "low", "high"]]
            row[m], row[f"{m}_low"], row[f"{m}_high"] = est, low, high
        rows.append(row)
    return pd.DataFrame(rows).set_index("pair")


def published_table4() -> pd.DataFrame:
    """The paper's Table 4 (its first three rows are Table 1), in %, indexed by pair tuples."""
    t4 = published.item("paired", "table4")
    return pd.DataFrame([r["values"] for r in t4["rows"]], index=[tuple(r["pair"]) for r in t4["rows"]],
                        columns=t4["columns"])


def side_by_side(ours: dict[str, pd.DataFrame], pairs) -> pd.DataFrame:
    """Per pair: the paper's percentage next to each of ours (``{column label: summarise() frame}``, as mean and
    95% interval)."""
    paper = published_table4()
    rows = {}
    for pair in pairs:
        row = {}
        for measure, name in MEASURES.items():
            row[(name, "paper")] = f"{paper.loc[[pair], measure].iloc[0]}%"
            for label, summary in ours.items():
                o = summary.loc[pair_name(pair)]
                row[(name, label)] = (f"{100 * o[measure]:.0f}% ({100 * o[f'{measure}_low']:.0f}–"
                                                 f"{100 * o[f'{measure}_high']:.0f})")
        rows[pair_label(pair)] = row
    return pd.DataFrame(rows).T


# -- Table 3 --------------------------------------------------------------------------------------------------------

#: Table 3's rows in its order, and the row of each (collection, dataset): TAC and Dialogue per dataset, the other
#: collections as a whole.
TABLE3_DATASETS = ("TAC08", "TAC09", "TAC11", "CNN/DM", "WMT17", "WMT18", "WMT19", "TC", "PC", "MSCOCO")
#: Table 3's rows whose score matrices are the paper's own (the others are recomputed or stand-ins).
TABLE3_EXACT = ("TAC08", "TAC09", "TAC11", "TC", "PC")
#: Table 3's metric columns and the metrics of ours each averages. The paper prints one column per metric family;
#: the grain of its TAC and dialogue cells (≠ SotA and ≠ Top-3 are multiples of 1/90 under ROUGE, 1/60 under
#: ROUGE-WE, 1/30 elsewhere) shows ROUGE averaging three metrics and ROUGE-WE two, each over 30 draws.
TABLE3_GROUPS = {
    "BLEU": ("BLEU", "BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4"),
    "ROUGE": ("ROUGE_1", "ROUGE_2", "ROUGE_L"),
    "ROUGE-WE": ("ROUGE_WE_1", "ROUGE_WE_2"),
    "MoverScore": ("MoverScore",),
    "BERTScore": ("BERTScore",),
}
#: The paper's Table 3 reading (BT-eval's ``global_impact_subsampling``, "to mimic the 20% use of a dataset for test
#: set"): each cell averages test sets of 20% of a setup's instances, drawn 30 times per setup.
TABLE3_FRACTION = 0.2
TABLE3_PAPER_DRAWS = 30


def table3_dataset(collection: str, dataset: str) -> str:
    """Table 3's row name for a setup: ``("TAC", "08")`` -> ``"TAC08"``, ``("COCO", ...)`` -> ``"MSCOCO"``."""
    return {"TAC": f"TAC{dataset}", "Dialogue": dataset.upper(), "CNNDM": "CNN/DM",
            "COCO": "MSCOCO"}.get(collection, collection)


def _metric_group(metric: str) -> str | None:
    return next((g for g, members in TABLE3_GROUPS.items() if metric in members), None)


def fraction_subsamples(setups, fraction: float, n_draws: int, rng, policy: str = "loss") -> pd.DataFrame:
    """``n_draws`` test sets of ``round(fraction * n)`` instances drawn without replacement from every setup (as
    pandas' ``sample(frac=...)``), each compared by MEAN, MEDIAN and BT: one row per draw, as
    :func:`subsampled_disagreement`."""
    gen = check_rng(rng)
    drawn = []
    for key, matrix in setups:
        size = _fraction_size(matrix, fraction)
        drawn += [(key, size, draw, subsample(matrix, size, gen)) for draw in range(n_draws)]
    return _compare_draws(drawn, policy)


def _fraction_size(matrix: pd.DataFrame, fraction: float) -> int:
    """The number of test instances pandas' ``sample(frac=fraction)`` draws (BT-eval's sub-samples), at least 2."""
    return max(2, round(fraction * len(matrix)))


def per_setup_draw_means(draws: pd.DataFrame) -> pd.DataFrame:
    """The mean of every measure over each setup's draws (NaN draws skipped), one row per setup, with
    ``bt_degenerate`` = the share of draws where BT had no finite fit and ``draws`` = their number."""
    measures = [c for c in draws.columns if c.endswith(tuple(MEASURES)) and c != "n_instances"]
    grouped = draws.groupby(KEYS, sort=False, observed=True)
    means = grouped[measures + ["bt_degenerate"]].mean()
    return means.assign(draws=grouped.size(), n_instances=grouped["n_instances"].first(),
                        n_systems=grouped["n_systems"].first()).reset_index()


def published_table3() -> pd.DataFrame:
    """The paper's Table 3, one row per printed cell (423): dataset, metric_group, measure, pair, paper."""
    t3 = published.item("paired", "table3")
    pairs = [pair_name(tuple(p)) for p in t3["pairs"]]
    rows = []
    for dataset in t3["datasets"]:
        for measure in t3["measures"]:
            values = t3["values"][dataset][measure]
            if len(values) != len(t3["metric_groups"]) * len(pairs):
                raise ValueError(f"published table3 {dataset} {measure}: {len(values)} values, expected 15")
            for i, value in enumerate(values):
                if not np.isnan(value):
                    rows.append((dataset, t3["metric_groups"][i // len(pairs)], measure, pairs[i % len(pairs)], value))
    return pd.DataFrame(rows, columns=["dataset", "metric_group", "measure", "pair", "paper"])


def _table3_cells(per_setup: pd.DataFrame, value: str = "mean") -> pd.DataFrame:
    """Long Table 3 from per-setup rows: one row per (dataset, metric_group, measure, pair) with the mean over the
    cell's setups (``value="mean"``) or the cell's number of setups (``"setups"``)."""
    frame = per_setup.assign(dataset=[table3_dataset(c, d) for c, d in zip(per_setup.collection, per_setup.dataset)],
                             metric_group=per_setup.metric.map(_metric_group)).dropna(subset=["metric_group"])
    columns = [measure_column(p, m) for p in TABLE3_PAIRS for m in MEASURES]
    cells = frame.groupby(["dataset", "metric_group"])[columns]
    wide = cells.mean() if value == "mean" else cells.count()
    long = wide.stack().rename(value).reset_index()
    split = long.pop("level_2").str.rsplit("_", n=1, expand=True)
    return long.assign(pair=split[0], measure=split[1])


def table3_side_by_side(draws: pd.DataFrame, full: pd.DataFrame, paper_draws: int = TABLE3_PAPER_DRAWS
                        ) -> pd.DataFrame:
    """Every published Table 3 cell next to ours (one row per cell, in the paper's order).

    ``ours`` is the paper's reading: the cell's setups averaged over sub-sampled test sets (``draws``, one row per
    draw from :func:`fraction_subsamples`); ``ours_full`` is the same cell on the full test sets (``full``, one row
    per setup). ``noise_sd`` is the standard deviation that ``ours − paper`` has from the draws alone, when both
    come from the same data: each cell is a mean over its S setups of a mean over D draws, so its variance is
    Σ var_s / (S² D), with D = our draws per setup plus ``paper_draws`` for the paper's figure. ``setups`` counts
    ours in the cell (0: no such metric or dataset here)."""
    keys = ["dataset", "metric_group", "measure", "pair"]
    columns = [measure_column(p, m) for p in TABLE3_PAIRS for m in MEASURES]
    grouped = draws.groupby(KEYS, sort=False, observed=True)
    var = grouped[columns].var(ddof=1).reset_index()
    n_draws = grouped.size().to_numpy()
    frame = per_setup_draw_means(draws)
    out = published_table3()
    out = out.merge(_table3_cells(frame), on=keys, how="left").rename(columns={"mean": "ours"})
    out = out.merge(_table3_cells(full), on=keys, how="left").rename(columns={"mean": "ours_full"})
    setups = _table3_cells(frame, "setups")
    # the variance of a cell's mean: Σ_s var_s (1/D_ours + 1/D_paper) / S², from per-setup draw variances
    var[columns] = var[columns].mul(1 / n_draws + 1 / paper_draws, axis=0)
    summed = _table3_cells(var).rename(columns={"mean": "var"})
    out = out.merge(setups, on=keys, how="left").merge(summed, on=keys, how="left")
    out["setups"] = out["setups"].fillna(0).astype(int)
    out["noise_sd"] = np.sqrt(out.pop("var") / out["setups"].where(out["setups"] > 0))
    return out


def _data_kind(datasets: pd.Series) -> np.ndarray:
    return np.where(datasets.isin(TABLE3_EXACT), "exact (TAC, TC, PC)", "other (WMT, CNN/DM, COCO)")


def table3_agreement(side: pd.DataFrame, tolerance: float = 0.02) -> pd.DataFrame:
    """How close each reading of Table 3 comes to the paper, per kind of data and measure: cells compared, cells
    within ``tolerance``, cells within two standard deviations of the draws' noise (sub-sample reading) and the
    mean absolute difference."""
    frame = side.dropna(subset=["ours"]).assign(data=lambda f: _data_kind(f.dataset))
    rows = {}
    for (data, measure), g in frame.groupby(["data", "measure"], sort=False):
        sub, full = (g.ours - g.paper).abs(), (g.ours_full - g.paper).abs()
        rows[(data, MEASURES[measure])] = {
            ("", "cells"): len(g),
            ("20% sub-samples", f"within {tolerance}"): int((sub <= tolerance + 1e-12).sum()),
            ("20% sub-samples", "within 2 noise sd"): int((sub <= 2 * g.noise_sd).sum()),
            ("20% sub-samples", "mean |diff|"): sub.mean(),
            ("full test sets", f"within {tolerance}"): int((full <= tolerance + 1e-12).sum()),
            ("full test sets", "mean |diff|"): full.mean(),
        }
    return pd.DataFrame(rows).T.rename_axis(["data", "measure"])


def table3_swaps(side: pd.DataFrame, tolerance: float = 0.02) -> list[tuple[str, str]]:
    """Exact-data cells where the paper's Mean/BT and Med/BT columns look exchanged: the disagreement of each lies
    within ``tolerance`` of ours for the other pair, but further than ``tolerance`` and than two noise standard
    deviations from ours for its own."""
    found = []
    disagree = side[(side.measure == "disagree") & side.dataset.isin(TABLE3_EXACT)]
    for (dataset, group), g in disagree.groupby(["dataset", "metric_group"], sort=False):
        g = g.set_index("pair")
        paper, ours = g.paper, g.ours
        own = max(abs(paper["mean_bt"] - ours["mean_bt"]), abs(paper["median_bt"] - ours["median_bt"]))
        other = max(abs(paper["mean_bt"] - ours["median_bt"]), abs(paper["median_bt"] - ours["mean_bt"]))
        noise = 2 * g.loc[["mean_bt", "median_bt"], "noise_sd"].max()
        if other <= tolerance < own and own > noise:
            found.append((dataset, group))
    return found


def _mean_bt_least_elsewhere(side: pd.DataFrame, dataset: str, group: str) -> bool:
    """Whether, in the paper's TAC Disagree cells other than (dataset, group), MEAN vs. BT is always the smallest."""
    tac = side[side.dataset.str.startswith("TAC") & (side.measure == "disagree")
               & ~((side.dataset == dataset) & (side.metric_group == group))]
    wide = tac.pivot_table(index=["dataset", "metric_group"], columns="pair", values="paper")
    return bool((wide["mean_bt"] < wide[["median_bt", "mean_median"]].min(axis=1)).all())


def table3_notes(side: pd.DataFrame) -> str:
    """The chapter's reading of the side-by-side Table 3, every number computed from ``side``."""
    exact = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna()]
    dis = exact[exact.measure == "disagree"]
    counts = table3_agreement(side).loc[("exact (TAC, TC, PC)", MEASURES["disagree"])]
    within, within_full = int(counts[("20% sub-samples", "within 0.02")]), int(counts[("full test sets", "within 0.02")])
    swaps = table3_swaps(side)
    single = exact[(exact.measure == "top1") & exact.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    text = [f"On the paper's own score matrices (TAC, TC, PC), {within} of {len(dis)} *Disagree* cells of the "
            f"sub-sample reading lie within 0.02 of the published ones, against {within_full} on the full test sets, "
            "which sit lower almost everywhere (larger test sets disagree less; Fig. 4). ≠ SotA and ≠ Top-3 are "
            "shares of 30 draws in the paper, so they carry the draws' noise (a standard deviation of "
            f"{single.noise_sd.median():.2f} in the difference for a single metric's ≠ SotA, the median over cells); "
            "the table above counts how many lie within two standard deviations of it."]
    for dataset, group in swaps:
        cells = side[(side.dataset == dataset) & (side.metric_group == group)].set_index(["measure", "pair"])
        pairs_text = [f"{MEASURES[m]} {cells.loc[(m, 'mean_bt'), 'paper']:.2f} / "
                      f"{cells.loc[(m, 'median_bt'), 'paper']:.2f} against our {cells.loc[(m, 'mean_bt'), 'ours']:.2f}"
                      f" / {cells.loc[(m, 'median_bt'), 'ours']:.2f}" for m in MEASURES]
        text.append(f"**{dataset} {group}: the paper's Mean/BT and Med/BT columns look exchanged** — "
                    + "; ".join(pairs_text) + " (Mean/BT / Med/BT)."
                    + (" In every other TAC cell of the paper MEAN vs. BT disagrees least of the three pairs; read the "
                       "other way round, this one does too." if _mean_bt_least_elsewhere(side, dataset, group) else ""))
    loose = dis[((dis.ours - dis.paper).abs() > 2 * dis.noise_sd) & ((dis.ours - dis.paper).abs() > 0.02)]
    loose = loose[~loose.set_index(["dataset", "metric_group"]).index.isin(swaps)]
    if len(loose):
        text.append("*Disagree* cells further from the paper than the draws explain: " + ", ".join(
            f"{r.dataset} {r.metric_group} {pair_label(tuple(r.pair.split('_')))} ({r.paper:.2f} vs. {r.ours:.2f})"
            for r in loose.itertuples()) + ". " + (
            "Dialogue cells rest on 4–5 systems, so each draw's disagreement is a coarse fraction and ties are "
            "frequent; " if loose.dataset.isin(["TC", "PC"]).any() else "")
            + "we cannot tell more without the paper's own draws.")
    text.append("The other rows are not the paper's data: WMT has the paper's system outputs with recomputed "
                "metrics (its *Disagree* cells still come close), CNN/DM and COCO are stand-ins with other systems "
                "(REALSumm's 24, COCO's 9 against the paper's 12), so their cells are shown but not expected to match.")
    return "\n\n".join(text)


def _table3_label(ours: float, paper: float) -> str:
    paper_text = "–" if np.isnan(paper) else f"{paper:.2f}"
    if np.isnan(ours):
        return "" if np.isnan(paper) else f"no data\n({paper_text})"
    return f"{ours:.2f}\n({paper_text})"


def plot_table3(side: pd.DataFrame, measure: str = "disagree") -> plt.Figure:
    """Table 3 as heat maps, one per pair of mechanisms: colour = ours (the sub-sample reading), each cell labelled
    with ours over the paper's value; a cell we cannot compute is grey and says so."""
    fig, axes = plt.subplots(len(TABLE3_PAIRS), 1, figsize=(9, 6 * len(TABLE3_PAIRS)), sharex=True)
    part = side[side.measure == measure]
    vmax = float(np.nanmax(part[["ours", "paper"]].to_numpy()))
    for ax, pair in zip(axes, TABLE3_PAIRS):
        cells = part[part.pair == pair_name(pair)]
        grid = cells.pivot(index="dataset", columns="metric_group", values="ours").reindex(
            index=list(TABLE3_DATASETS), columns=list(TABLE3_GROUPS))
        paper = cells.pivot(index="dataset", columns="metric_group", values="paper").reindex_like(grid)
        labels = [[_table3_label(o, p) for o, p in zip(ours_row, paper_row)]
                  for ours_row, paper_row in zip(grid.to_numpy(), paper.to_numpy())]
        ax.set_facecolor("#d9d9d9")
        sns.heatmap(grid, ax=ax, annot=labels, fmt="", cmap="rocket_r", vmin=0, vmax=vmax,
                    cbar_kws={"label": f"{MEASURES[measure]} (ours)"}, annot_kws={"fontsize": 10}, linewidths=0.5,
                    linecolor="white")
        # seaborn leaves NaN cells unlabelled: write "no data (paper's value)" there
        for (i, j), label in np.ndenumerate(np.asarray(labels, dtype=object)):
            if np.isnan(grid.iat[i, j]) and label:
                ax.text(j + 0.5, i + 0.5, label, ha="center", va="center", fontsize=9, color="0.35")
        ax.set_title(f"{pair_label(pair)}")
        ax.grid(False)
        ax.set_xlabel("")
        ax.set_ylabel("")
        ax.tick_params(axis="y", rotation=0)
    fig.suptitle(f"Table 3, {MEASURES[measure]}: ours on 20% sub-samples\n(the paper's value in brackets; "
                 "grey: no such metric in our data)", fontsize=12)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    return fig


def plot_table3_scatter(side: pd.DataFrame) -> plt.Figure:
    """Every Table 3 cell: the paper's value against ours (sub-sample reading), one panel per measure, the paper's
    exact data (TAC, TC, PC) apart from the stand-ins."""
    frame = side.dropna(subset=["ours"]).assign(data=lambda f: _data_kind(f.dataset))
    fig, axes = plt.subplots(1, len(MEASURES), figsize=(15, 4.8))
    for ax, (measure, name) in zip(axes, MEASURES.items()):
        part = frame[frame.measure == measure]
        sns.scatterplot(part, x="paper", y="ours", hue="data", style="data", ax=ax, s=28, alpha=0.8,
                        legend=ax is axes[0], hue_order=sorted(frame.data.unique()))
        top = float(max(part.paper.max(), part.ours.max(), 0.05)) * 1.05
        ax.plot([0, top], [0, top], color="grey", lw=1, ls="--")
        ax.set(xlim=(0, top), ylim=(0, top), title=name, xlabel="the paper's Table 3", ylabel="ours (20% sub-samples)")
    axes[0].legend(title="", fontsize=9, loc="upper left")
    fig.tight_layout()
    return fig


def tie_break_sensitivity(setups, policy: str = "loss", names=PAPER) -> pd.DataFrame:
    """How often a ≠ SotA / ≠ Top-3 result depends on how ties at the top-k boundary are cut: per setup and pair,
    whether ``top_k_differs`` changes between cutting ties by the earlier and by the later column."""
    fns = aggregators(policy, names)
    rows = []
    for key, matrix in setups:
        with aggregate.degenerate_fits():  # the same setups' degenerate fits are counted by disagreement_rows
            results = {name: np.asarray(fn(matrix), dtype=float) for name, fn in fns.items()}
        k3 = min(3, matrix.shape[1])
        row = dict(zip(KEYS, key))
        for pair in mechanism_pairs(names):
            x, y = results[pair[0]], results[pair[1]]
            for measure, k in (("top1", 1), ("top3", k3)):
                row[measure_column(pair, measure)] = (top_k_differs(x, y, k, "first")
                                                      != top_k_differs(x, y, k, "last"))
        rows.append(row)
    return pd.DataFrame(rows)


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def subsampled_disagreement(setups, sizes, n_subsamples: int, rng, policy: str = "loss") -> pd.DataFrame:
    """Fig. 4's data: test sets of each size in ``sizes`` drawn without replacement from every setup large enough
    (``n_subsamples`` times, once when the size is the whole setup), each compared by MEAN, MEDIAN and BT. One row
    per draw: its disagreement row, the setup's keys, ``size``, ``draw`` and ``task``."""
    gen = check_rng(rng)
    drawn = []
    for key, matrix in setups:
        for size in sizes:
            if size > len(matrix):
                continue
            for draw in range(1 if size == len(matrix) else n_subsamples):
                drawn.append((key, size, draw, subsample(matrix, size, gen)))
    return _compare_draws(drawn, policy)


def _compare_draws(drawn, policy: str) -> pd.DataFrame:
    """MEAN, MEDIAN and BT compared on each drawn ``(key, size, draw, matrix)``: one row per draw with the setup's
    keys, ``size``, ``draw`` and ``task``."""
    if not drawn:
        return pd.DataFrame()
    fns = aggregators(policy, PAPER)
    frame = pd.DataFrame([pd.concat(_compared(m, fns)) for *_, m in drawn]).astype(
        {"n_instances": int, "n_systems": int, "bt_degenerate": bool})
    frame = frame.assign(collection=[d[0][0] for d in drawn], dataset=[d[0][1] for d in drawn],
                         metric=[d[0][2] for d in drawn], size=[d[1] for d in drawn], draw=[d[2] for d in drawn])
    frame["task"] = frame.collection.map(TASKS)
    return frame


def paper_size_draws(setups, sizes, n_draws: int, rng, policy: str = "loss") -> pd.DataFrame:
    """Fig. 4(c) as BT-eval's code draws it (``impact_data_size``): for each size, ``n_draws`` times a dataset
    uniformly, one of its metrics uniformly, and ``min(size, instances)`` test instances — a setup smaller than the
    size enters whole. One row per draw, as :func:`subsampled_disagreement`."""
    gen = check_rng(rng)
    pick = _dataset_then_metric(setups)
    drawn = []
    for size in sizes:
        for draw in range(n_draws):
            key, matrix = pick(gen)
            drawn.append((key, size, draw, subsample(matrix, min(size, len(matrix)), gen)))
    return _compare_draws(drawn, policy)


def fig4_summaries(fig4: pd.DataFrame, *, rng, n_resamples: int) -> dict[str, pd.DataFrame]:
    """Mean disagreement with a 95% bootstrap interval per metric, task and size, for each of Table 1's pairs."""
    gen = check_rng(rng)
    columns = {measure_column(p, "disagree"): pair_name(p) for p in TABLE1_PAIRS}
    out = {}
    for by in ("metric", "task", "size"):
        s = bootstrap_summary(fig4, list(columns), by=by, rng=gen, n_resamples=n_resamples)
        out[by] = pd.DataFrame({by: s[by], "pair": s["column"].map(columns), "disagree": s["estimate"],
                                "low": s["low"], "high": s["high"], "n": s["n"]})
    return out


def metric_label(metric: str) -> str:
    """The paper's spelling of a metric: ``BLEU_1`` -> ``BLEU-1``, ``ROUGE_WE_2`` -> ``ROUGE-WE-2``."""
    return {"Chrfpp": "chrF++"}.get(metric, metric.replace("_", "-"))


def plot_fig4(summaries: dict[str, pd.DataFrame], fig4: pd.DataFrame, paper_sizes: pd.DataFrame | None = None
              ) -> plt.Figure:
    """Fig. 4's three panels, each bar labelled with the number of setups behind it; ``paper_sizes`` (the
    :func:`fig4_summaries`-style size summary of :func:`paper_size_draws`) adds BT-eval's own size curve to (c)."""
    fig = plt.figure(figsize=(12, 9.5))
    grid = fig.add_gridspec(2, 2, width_ratios=[1, 1.3], height_ratios=[1.15, 1])
    top = fig.add_subplot(grid[0, :])
    axes = [top, fig.add_subplot(grid[1, 0], sharey=top), fig.add_subplot(grid[1, 1], sharey=top)]
    labels = {pair_name(p): pair_label(p) for p in TABLE1_PAIRS}
    setups_per = {by: fig4.groupby(by)[KEYS].apply(lambda g: len(g.drop_duplicates())) for by in ("metric", "task",
                                                                                                    "size")}
    for ax, (by, title, xlabel) in zip(axes, (("metric", "(a) per metric", "metric"),
                                              ("task", "(b) per task", "task"),
                                              ("size", "(c) per test-set size", "test instances drawn"))):
        frame = summaries[by]
        frame = frame.assign(order=frame.pair.map({p: i for i, p in enumerate(labels)})).sort_values(
            ["order"], kind="stable")
        values = dodged_errorbars(ax, frame, x=by, hue="pair", y="disagree", colors=PAIR_COLORS, labels=labels,
                                  kind="bar", width=0.66)
        if by == "metric":
            ax.set_xticks(range(len(values)), [f"{metric_label(v)} ({setups_per[by][v]})" for v in values],
                          rotation=50, ha="right", rotation_mode="anchor")
        else:
            names = [f"{v:g}" if by == "size" else TASK_SHORT.get(v, v) for v in values]
            ax.set_xticks(range(len(values)), [f"{n}\n({setups_per[by][v]})" for n, v in zip(names, values)])
        ax.set_title(title)
        ax.set_xlabel(f"{xlabel} (setups behind each bar)")
    if paper_sizes is not None:
        sizes = list(dict.fromkeys(summaries["size"]["size"]))
        for pair, part in paper_sizes.groupby("pair", sort=False):
            part = part[part["size"].isin(sizes)]
            axes[2].plot([sizes.index(s) for s in part["size"]], part.disagree, "--o", ms=3, lw=1,
                         color=PAIR_COLORS[pair])
        axes[2].plot([], [], "--o", ms=3, lw=1, color="grey", label="BT-eval's draws (a setup smaller than\n"
                     "the size enters whole)")
        axes[2].legend(fontsize=8, loc="upper right")
    for ax in axes[:2]:
        ax.set_ylabel("share of system pairs ordered differently")
    axes[0].legend(fontsize=9, loc="upper left")
    fig.tight_layout()
    return fig


def metric_ranks(fig4: pd.DataFrame, collections=("TAC", "Dialogue")) -> pd.DataFrame:
    """Fig. 4(a) on the collections where every metric was computed (TAC and dialogue have all 13), so that metrics
    are compared on the same data: mean disagreement per metric and pair, and its rank (1 = most affected)."""
    part = fig4[fig4.collection.isin(list(collections))]
    means = part.groupby("metric")[[measure_column(p, "disagree") for p in TABLE1_PAIRS]].mean()
    means.columns = [pair_name(p) for p in TABLE1_PAIRS]
    ranks = means.rank(ascending=False, method="min").astype(int).add_suffix(" rank")
    return means.join(ranks)


# -- Fig. 5 ---------------------------------------------------------------------------------------------------------

def pick_setup(setups, wanted) -> tuple[tuple[str, str, str], pd.DataFrame]:
    """The setup ``wanted`` = (collection, dataset, metric) if present, else the first WMT setup, else the first."""
    available = dict(setups)
    key = tuple(wanted)
    if key not in available:
        wmt = [k for k in available if k[0].startswith("WMT")]
        key = wmt[0] if wmt else sorted(available)[0]
    return key, available[key]


def bt_probability_matrix(matrix: pd.DataFrame, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fig. 5: P(row beats column) as BT models it, lambda_row / (lambda_row + lambda_column) (``ties="half"``),
    systems sorted by strength, diagonal empty; and "*" marks where the sign test rejects P = 1/2 at ``alpha``."""
    strength = aggregate.bradley_terry(matrix, ties="half")
    order = strength.sort_values(ascending=False).index
    prob = pd.DataFrame({b: strength[order] / (strength[order] + strength[b]) for b in order}, index=order)
    marks = pd.DataFrame("", index=order, columns=order)
    for a in order:
        for b in order:
            if a != b and sign_test(matrix[a], matrix[b]).pvalue < alpha:
                marks.loc[a, b] = "*"
    return prob.mask(np.eye(len(order), dtype=bool)), marks


def plot_fig5(panels: list, alpha: float) -> plt.Figure:
    """One heat map per ``(key, prob, marks)`` of :func:`bt_probability_matrix`: BT's modelled probability that the
    row system beats the column system (not an observed win rate), * where the sign test rejects P = 1/2."""
    n = max(len(prob) for _, prob, _ in panels)
    fig, axes = plt.subplots(len(panels), 1, figsize=(0.62 * n + 4, (0.48 * n + 2.2) * len(panels)), squeeze=False)
    for ax, (key, prob, marks) in zip(axes[:, 0], panels):
        annot = prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}") + marks
        sns.heatmap(prob, annot=annot, fmt="", cmap="vlag", center=0.5, vmin=0, vmax=1, ax=ax,
                    annot_kws={"fontsize": 8.5}, square=True, cbar_kws={"label": "BT's modelled P(row beats column)", "shrink": 0.8})
        ax.set_title(f"{key[0]} {key[1]}, {metric_label(key[2])}", fontsize=11)
        ax.set_xlabel("column system")
        ax.set_ylabel("row system")
        ax.grid(False)
    fig.suptitle(f"BT pairwise probabilities λ_row / (λ_row + λ_column), systems by BT strength;\n"
                 f"* sign test p < {alpha} (ties dropped)", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


# -- Fig. 6 / Appendix D --------------------------------------------------------------------------------------------

def significance_agreement(setups, *, rng, max_pairs: int | None = 100, alpha: float = 0.05):
    """Fig. 6 / App. D: p-values of the four tests for system pairs of every setup.

    Returns (per_pair, matrix): ``per_pair`` has one row per (setup, system pair) with a p-value column per test;
    ``matrix.loc[i, j]`` = P(test j significant | test i significant), the diagonal the share significant for test i.
    At most ``max_pairs`` random system pairs per setup (None: all). Tests: :data:`analysis.pairwise.PAIRED_TESTS`.
    """
    gen = check_rng(rng)
    chosen = []
    for key, matrix in setups:
        pairs = list(combinations(range(matrix.shape[1]), 2))
        if max_pairs is not None and len(pairs) > max_pairs:
            pick = np.sort(gen.choice(len(pairs), size=max_pairs, replace=False))
            pairs = [pairs[i] for i in pick]
        chosen += [(key, matrix, i, j) for i, j in pairs]
    return _tested_pairs(chosen, PAIRED_TESTS, alpha)


def _tested_pairs(chosen, tests: dict, alpha: float):
    rows = []
    for key, matrix, i, j in chosen:
        values = matrix.to_numpy()
        row = dict(zip(KEYS, key)) | {"system_a": matrix.columns[i], "system_b": matrix.columns[j]}
        for name, test in tests.items():
            row[name] = test(values[:, i], values[:, j]).pvalue
        rows.append(row)
    per_pair = pd.DataFrame(rows)
    return per_pair, agreement_matrix(per_pair[list(tests)] < alpha)


def _dataset_then_metric(setups):
    """A function ``pick(gen)`` that draws a setup as BT-eval's notebook does: a dataset uniformly, then one of its
    metrics uniformly."""
    by_dataset: dict[tuple, list] = {}
    for key, matrix in setups:
        by_dataset.setdefault(key[:2], []).append((key, matrix))
    groups = list(by_dataset.values())

    def pick(gen):
        candidates = groups[gen.integers(len(groups))]
        return candidates[gen.integers(len(candidates))]
    return pick


def bt_eval_sign_test(a, b) -> TestResult:
    """The sign test as BT-eval's Fig. 6 code runs it: the system BT prefers with the paper's tie rule (a tie is a
    win for ``b``, the later column, so ``a`` is preferred iff its wins ≥ ``b``'s wins + ties) counts its strict
    wins k among all n instances, ties kept in n; two-sided binomial test of k ~ Bin(n, 1/2). Unlike the textbook
    test (ties dropped), many ties make it reject even when the preferred system never loses."""
    x, y = check_pair(a, b)
    wins_a, ties, wins_b = paired_sign_counts(x, y)
    k = wins_a if wins_a >= wins_b + ties else wins_b
    return TestResult(float(k), float(stats.binomtest(k, len(x), 0.5).pvalue))


#: Fig. 6's tests as BT-eval's code runs them: scipy's defaults and :func:`bt_eval_sign_test`.
BT_EVAL_TESTS = dict(PAIRED_TESTS, sign=bt_eval_sign_test)


def paper_significance_draws(setups, *, n_draws: int, fraction: float, n_pairs: int, rng, alpha: float = 0.05):
    """Fig. 6 as BT-eval's code draws it: ``n_draws`` times a dataset uniformly, one of its metrics uniformly and
    ``fraction`` of its test instances; every system pair of every draw is pooled (so datasets with many systems,
    TAC's 50-58, weigh most), and ``n_pairs`` of the pooled pairs are tested, drawn uniformly without replacement
    (an unbiased estimate of the pooled matrix at a fraction of the cost). Tests: :data:`BT_EVAL_TESTS`."""
    gen = check_rng(rng)
    pick = _dataset_then_metric(setups)
    pooled = []
    for _ in range(n_draws):
        key, matrix = pick(gen)
        drawn = subsample(matrix, _fraction_size(matrix, fraction), gen)
        pooled += [(key, drawn, i, j) for i, j in combinations(range(drawn.shape[1]), 2)]
    if n_pairs < len(pooled):
        pooled = [pooled[i] for i in np.sort(gen.choice(len(pooled), size=n_pairs, replace=False))]
    return _tested_pairs(pooled, BT_EVAL_TESTS, alpha)


def published_fig6() -> pd.DataFrame:
    fig6 = published.item("paired", "fig6")
    return pd.DataFrame(fig6["matrix"], index=fig6["tests"], columns=fig6["tests"])


def plot_fig6(panels: dict[str, pd.DataFrame]) -> plt.Figure:
    """One heat map per {title: agreement matrix}."""
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.5))
    for ax, (title, frame) in zip(np.atleast_1d(axes), panels.items()):
        sns.heatmap(frame.astype(float), annot=True, fmt=".2f", vmin=0, vmax=1, cmap="mako_r", ax=ax, cbar=False)
        ax.set_title(title)
        ax.set_xlabel("test j")
        ax.set_ylabel("test i")
        ax.grid(False)
    fig.tight_layout()
    return fig


# -- Appendix F -----------------------------------------------------------------------------------------------------

def iia_search(setups, sizes, rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. F on every setup, in full and on one sub-sample per size in ``sizes`` (when smaller than the setup).

    Returns (per setup and size: triples, reversed and tied counts; every violation found on the full setups)."""
    gen = check_rng(rng)
    rows, found_full = [], []
    for key, matrix in setups:
        variants = [("full", matrix)] + [(s, subsample(matrix, s, gen)) for s in sizes if s < len(matrix)]
        for size, m in variants:
            found = iia_violations(m)
            n = m.shape[1]
            rows.append(dict(zip(KEYS, key)) | {
                "size": size, "n_instances": len(m), "triples": n * (n - 1) * (n - 2) // 6,
                "reversed": int((found.kind == "reversed").sum()), "tied": int((found.kind == "tied").sum())})
            if size == "full" and len(found):
                found_full.append(found.assign(**dict(zip(KEYS, key))))
    examples = pd.concat(found_full, ignore_index=True) if found_full else pd.DataFrame()
    return pd.DataFrame(rows), examples


def iia_by_size(iia: pd.DataFrame) -> pd.DataFrame:
    """Violations summed per test-set size, with the share of (pair, third system) combinations reversed."""
    size = iia["size"].astype(str)
    table = iia.assign(size=size).groupby("size", sort=False)[["triples", "reversed", "tied"]].sum()
    table["setups"] = iia.groupby(size, sort=False).size()
    table["share reversed"] = table.reversed / (3 * table.triples)
    return table


def reversal_winner_shares(examples: pd.DataFrame) -> pd.Series:
    """For each reversal found, the share of the pair's comparisons its winner wins when alone."""
    if examples.empty:
        return pd.Series(dtype=float)
    return examples.loc[examples.kind == "reversed", "winner_share"]


def iia_by_collection(iia: pd.DataFrame) -> pd.DataFrame:
    return iia[iia["size"] == "full"].groupby("collection", sort=False)[["triples", "reversed", "tied"]].sum()


def text_claims(*, section5: pd.DataFrame, ranks: pd.DataFrame, fig4_size: pd.DataFrame,
                fig4_paper_size: pd.DataFrame, sig_paper: pd.DataFrame, sig_full: pd.DataFrame,
                iia: pd.DataFrame) -> pd.DataFrame:
    """The paper's text claims next to our numbers, one row each: where, the paper says, ours, verdict."""
    rows = []
    a3, with_lt = section5.loc["Appendix A.3's list"], section5.loc["Appendix A.3 + WMT19 lt-en"]
    exact = (with_lt == section5.loc["the paper's §5"]).all()
    rows.append(("§5", "296 setups, 73,471 system pairs, 91,197 test instances",
                 f"Appendix A.3's list counts {a3.setups:,}, {a3.system_pairs:,}, {a3.test_instances:,}; with WMT19 "
                 f"lt-en {with_lt.setups:,}, {with_lt.system_pairs:,}, {with_lt.test_instances:,}",
                 "reproduced: lt-en was in the paper's data, its appendix list omits it" if exact else "not reproduced"))
    n = len(ranks)

    def rank_text(metric):
        return f"{metric}: {ranks.loc[metric, 'mean_bt rank']} and {ranks.loc[metric, 'median_bt rank']}"
    if {"BLEU", "BERTScore", "MoverScore"} <= set(ranks.index):
        bleu_top = max(ranks.loc["BLEU", ["mean_bt rank", "median_bt rank"]]) <= 3
        rows.append(("Fig. 4(a)", "BLEU variants are the most affected, particularly MEAN or MEDIAN vs. BT",
                     f"rank of {n} on TAC and dialogue (1 = most affected), MEAN vs. BT and MEDIAN vs. BT: "
                     + rank_text("BLEU"),
                     "reproduced" if bleu_top else "not reproduced on the paper's own data; BLEU-1…4 exist only on "
                     "WMT and COCO here, where metric and task cannot be told apart"))
        low = all(ranks.loc[m, c] > n / 2 for m in ("BERTScore", "MoverScore") for c in ("mean_bt rank",
                                                                                           "median_bt rank"))
        rows.append(("Fig. 4(a)", "BERTScore and MoverScore seem less affected",
                     "; ".join(rank_text(m) for m in ("BERTScore", "MoverScore")),
                     "reproduced" if low else "partly: not in the lower half for every comparison"))
    large = fig4_paper_size[fig4_paper_size["size"] >= 500]
    if len(large):
        level = large.groupby("pair").disagree.max()
        floor = all(level.get(p, 0) >= 0.10 for p in ("mean_bt", "median_bt"))
        rows.append(("Fig. 4(c)", "MEAN vs. BT and MEDIAN vs. BT do not decrease below 10% with more instances",
                     f"BT-eval's draws, sizes ≥ 500: MEAN vs. BT {level.get('mean_bt', np.nan):.0%}, MEDIAN vs. BT "
                     f"{level.get('median_bt', np.nan):.0%} at most; our bars at {fig4_size['size'].max():g}: "
                     + ", ".join(f"{pair_label(tuple(p.split('_')))} {v:.0%}" for p, v in fig4_size.loc[
                         fig4_size["size"] == fig4_size["size"].max()].set_index("pair").disagree.items()),
                     "reproduced" if floor else "a floor as the paper says, but under 10% here"))
    diag = {name: sig_paper.loc[name, name] for name in sig_paper.index}
    rows.append(("§5 / App. D", "the t-test finds significance most often (41%); Mood 21%, sign 35%, Wilcoxon 40%",
                 ", ".join(f"{k} {v:.0%}" for k, v in diag.items()) + " (BT-eval's draws); full test sets: "
                 + ", ".join(f"{name} {sig_full.loc[name, name]:.0%}" for name in sig_full.index),
                 ("reproduced with BT-eval's draws" if max(diag, key=diag.get) == "t-test" else
                  "not reproduced") + "; on full test sets the tests find far more, Wilcoxon as often as the t-test"))
    rows.append(("App. D", "when Mood's test is significant, the sign test is too 89% of the time",
                 f"{sig_paper.loc['Mood', 'sign']:.0%} (BT-eval's draws and sign test), "
                 f"{sig_full.loc['Mood', 'sign']:.0%} (full test sets, textbook sign test)",
                 "close with BT-eval's sign test, which keeps ties in n; the textbook test drops them"))
    full = iia[(iia["size"] == "full") & (iia.n_instances > 10)]
    rows.append(("App. F", "no violation of independence of irrelevant alternatives with more than 10 test instances",
                 f"{int(full.reversed.sum()):,} reversals in {int((full.reversed > 0).sum())} of {len(full)} setups "
                 "with more than 10 instances",
                 "not reproduced; we cannot tell why: the paper's search is not in BT-eval, ours is checked against "
                 "direct BT fits"))
    return pd.DataFrame(rows, columns=["where", "the paper says", "ours", "verdict"])


def tie_break_counts(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per pair: the number of setups whose ≠ SotA and ≠ Top-3 result depends on the tie cut, out of all setups."""
    pairs = [p for p in TABLE1_PAIRS if measure_column(p, "top1") in sensitivity]
    return pd.DataFrame({
        MEASURES[m]: [int(sensitivity[measure_column(p, m)].sum()) for p in pairs] for m in ("top1", "top3")
    }, index=[pair_label(p) for p in pairs]).assign(setups=len(sensitivity))
