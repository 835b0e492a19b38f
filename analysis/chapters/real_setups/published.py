"""Chapter 02's published values: the paper's Appendix A.3 inventory, Tables 3 and 4 and Fig. 6 read from
``data/published/paired``, and our numbers set beside them (Tables 1/4 side by side, every Table 3 cell with the
draws' noise, how close each reading comes)."""

from __future__ import annotations

from itertools import product

import numpy as np
import pandas as pd

from ...agreement import measure_column, pair_label, pair_name
from ...data import published
from .experiments import per_setup_draw_means
from .setups import KEYS, MEASURES, TABLE3_PAIRS

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
#: set"): each cell averages test sets of 20% of a setup's instances (the ``table3_fraction`` parameter), drawn 30
#: times per setup.
TABLE3_PAPER_DRAWS = 30


# -- Appendix A.3, Tables 1, 4 --------------------------------------------------------------------------------------

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
        rows[pair_label(pair)] = row = {}
        for measure, name in MEASURES.items():
            row[(name, "paper")] = f"{paper.loc[[pair], measure].iloc[0]}%"
            for label, summary in ours.items():
                est, low, high = 100 * summary.loc[pair_name(pair), [measure, f"{measure}_low", f"{measure}_high"]]
                row[(name, label)] = f"{est:.0f}% ({low:.0f}–{high:.0f})"
    return pd.DataFrame(rows).T


def side_by_side_long(ours: dict[str, pd.DataFrame], pairs) -> pd.DataFrame:
    """Tables 1/4 for the page: a row per (pair of mechanisms, measure), the paper's percentage and each of ours
    (``{column label: summarise() frame}``) as "mean% (95% interval)" in columns, so that a few readings fit the text
    column; the same cells as :func:`side_by_side`."""
    wide = side_by_side(ours, pairs)
    rows = {(pair, measure): wide.loc[pair, measure] for pair in wide.index for measure in MEASURES.values()}
    table = pd.DataFrame(rows).T
    table.index.names = ["mechanisms", "measure"]
    return table[["paper", *ours]]


# -- Table 3 --------------------------------------------------------------------------------------------------------

def table3_dataset(collection: str, dataset: str) -> str:
    """Table 3's row name for a setup: ``("TAC", "08")`` -> ``"TAC08"``, ``("COCO", ...)`` -> ``"MSCOCO"``."""
    return {"TAC": f"TAC{dataset}", "Dialogue": dataset.upper(), "CNNDM": "CNN/DM",
            "COCO": "MSCOCO"}.get(collection, collection)


def _metric_group(metric: str) -> str | None:
    return next((g for g, members in TABLE3_GROUPS.items() if metric in members), None)


def published_table3() -> pd.DataFrame:
    """The paper's Table 3, one row per printed cell (423): dataset, metric_group, measure, pair, paper."""
    t3 = published.item("paired", "table3")
    columns = list(product(t3["metric_groups"], [pair_name(tuple(p)) for p in t3["pairs"]]))
    for dataset, measure in product(t3["datasets"], t3["measures"]):
        if len(t3["values"][dataset][measure]) != len(columns):
            raise ValueError(f"published table3 {dataset} {measure}: {len(t3['values'][dataset][measure])} values, "
                             f"expected {len(columns)}")
    rows = [(dataset, group, measure, pair, value) for dataset, measure in product(t3["datasets"], t3["measures"])
            for (group, pair), value in zip(columns, t3["values"][dataset][measure]) if not np.isnan(value)]
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


def table3_grain(tolerance: float = 0.0051) -> pd.DataFrame:
    """How the paper's ≠ SotA and ≠ Top-3 cells on its own data (TAC, TC, PC) fit multiples of 1/d: per column
    group and d, the cells, those within ``tolerance`` of a multiple (to two printed decimals) and the chance that
    a two-decimal value in [0, 1] does."""
    t3 = published_table3()
    t3 = t3[t3.dataset.isin(TABLE3_EXACT) & t3.measure.isin(["top1", "top3"])]
    grid = np.arange(101) / 100
    rows = []
    for label, groups, d in (("BLEU, MoverScore, BERTScore", ["BLEU", "MoverScore", "BERTScore"], 30),
                             ("ROUGE", ["ROUGE"], 30), ("ROUGE", ["ROUGE"], 90), ("ROUGE-WE", ["ROUGE-WE"], 30),
                             ("ROUGE-WE", ["ROUGE-WE"], 60)):
        cells = t3[t3.metric_group.isin(groups)].paper.to_numpy()
        rows.append({"columns": label, "multiple of": d, "cells": len(cells),
                     "fitting": int((np.abs(np.round(cells * d) / d - cells) <= tolerance).sum()),
                     "chance": float((np.abs(np.round(grid * d) / d - grid) <= tolerance).mean())})
    return pd.DataFrame(rows)


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
            ("20% sub-samples", "within 2 SD of the draws' noise"): int((sub <= 2 * g.noise_sd).sum()),
            ("20% sub-samples", "mean absolute difference"): sub.mean(),
            ("full test sets", f"within {tolerance}"): int((full <= tolerance + 1e-12).sum()),
            ("full test sets", "mean absolute difference"): full.mean(),
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


# -- Fig. 6 ---------------------------------------------------------------------------------------------------------

def published_fig6() -> pd.DataFrame:
    fig6 = published.item("paired", "fig6")
    return pd.DataFrame(fig6["matrix"], index=fig6["tests"], columns=fig6["tests"])
