"""Table 3 (Peyrard et al. 2021, §5): the three comparisons per dataset and metric family, read as the paper's code
draws them (each cell averages test sets of 20% of a setup's instances) and on the full test sets, beside every
printed cell; its heat map and scatter, claim values and the page's numbers."""

from __future__ import annotations

from itertools import product

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ...agreement import measure_column, pair_name
from ...data import published
from ...validation import check_rng
from .setups import KEYS, MEASURES, PERCENT_ROUNDING, claim_rows, compare_draws, fraction_size, pair_title, subsample

#: Table 3's pairs, in its column order, with its short column headers.
TABLE3_PAIRS = (("mean", "bt"), ("median", "bt"), ("mean", "median"))
TABLE3_SHORT = {"mean_bt": "Mean/BT", "median_bt": "Med/BT", "mean_median": "Mean/Med"}
#: Table 3's rows in its order: TAC and Dialogue per dataset, the other collections as a whole.
TABLE3_DATASETS = ("TAC08", "TAC09", "TAC11", "CNN/DM", "WMT17", "WMT18", "WMT19", "TC", "PC", "MSCOCO")
#: Table 3's rows whose score matrices are the paper's own (the others are recomputed or stand-ins).
TABLE3_EXACT = ("TAC08", "TAC09", "TAC11", "TC", "PC")
#: Table 3's metric families and the metrics each averages: its cells' grain (:func:`table3_grain`; 1/90 under
#: ROUGE, 1/60 under ROUGE-WE, 1/30 elsewhere) shows ROUGE averaging three metrics and ROUGE-WE two, over 30 draws.
TABLE3_GROUPS = {
    "BLEU": ("BLEU", "BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4"),
    "ROUGE": ("ROUGE_1", "ROUGE_2", "ROUGE_L"),
    "ROUGE-WE": ("ROUGE_WE_1", "ROUGE_WE_2"),
    "MoverScore": ("MoverScore",),
    "BERTScore": ("BERTScore",),
}
#: Draws per setup in the paper's reading (BT-eval's ``global_impact_subsampling``, "to mimic the 20% use of a
#: dataset for test set"): each cell averages test sets of 20% of a setup's instances.
TABLE3_PAPER_DRAWS = 30
#: The block whose Mean/BT and Med/BT columns look exchanged in print: Mean/BT above Med/BT, unlike other TAC blocks.
EXCHANGED_BLOCK = ("TAC08", "ROUGE-WE")
CELL = ["dataset", "metric_group", "measure", "pair"]


def fraction_subsamples(setups, fraction: float, n_draws: int, rng) -> pd.DataFrame:
    """Table 3's draws, a row each: ``n_draws`` test sets of ``fraction`` of each setup (BT-eval's ``sample(frac)``)."""
    gen = check_rng(rng)
    return compare_draws([(key, size, draw, subsample(matrix, size, gen)) for key, matrix in setups
                          for size in [fraction_size(len(matrix), fraction)] for draw in range(n_draws)])


def per_setup_draw_means(draws: pd.DataFrame) -> pd.DataFrame:
    """The mean of every measure over each setup's draws (NaN skipped), one row per setup, with ``draws``; its
    ``bt_degenerate`` is the share of draws where BT had no finite fit."""
    measures = [c for c in draws.columns if c.endswith(tuple(MEASURES)) and c != "n_instances"]
    grouped = draws.groupby(KEYS, sort=False, observed=True)
    means = grouped[measures + ["bt_degenerate"]].mean()
    return means.assign(draws=grouped.size(), n_instances=grouped["n_instances"].first(),
                        n_systems=grouped["n_systems"].first()).reset_index()


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
    return pd.DataFrame(rows, columns=CELL + ["paper"])


def _cells(per_setup: pd.DataFrame, name: str, count: bool = False) -> pd.DataFrame:
    """Long Table 3 from per-setup rows: per cell, the mean over its setups (or with ``count``, their number)."""
    group_of = {metric: group for group, members in TABLE3_GROUPS.items() for metric in members}
    c, d = per_setup.collection, per_setup.dataset  # Table 3's rows: TAC08, TC, CNN/DM, WMT17, ...
    rows = c.replace({"CNNDM": "CNN/DM", "COCO": "MSCOCO"}).mask(c == "TAC", "TAC" + d)
    rows = rows.mask(c == "Dialogue", d.str.upper())
    frame = per_setup.assign(dataset=rows, metric_group=per_setup.metric.map(group_of)).dropna(subset=["metric_group"])
    cells = frame.groupby(["dataset", "metric_group"])[[measure_column(p, m) for p in TABLE3_PAIRS for m in MEASURES]]
    long = (cells.count() if count else cells.mean()).stack().rename(name).reset_index()
    split = long.pop("level_2").str.rsplit("_", n=1, expand=True)
    return long.assign(pair=split[0], measure=split[1])


def table3_side_by_side(draws: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Every published cell beside ``ours`` (its setups' mean over their ``draws``), ``ours_full`` and ``setups``;
    ``noise_sd``, the SD of ``ours − paper`` from the draws alone: √(Σ_s var_s (1/D + 1/D_paper)) / S, S setups."""
    grouped = draws.groupby(KEYS, sort=False, observed=True)
    columns = [measure_column(p, m) for p in TABLE3_PAIRS for m in MEASURES]
    var = grouped[columns].var(ddof=1).mul(1 / grouped.size() + 1 / TABLE3_PAPER_DRAWS, axis=0).reset_index()
    means = per_setup_draw_means(draws)
    out = published_table3()
    for cells in (_cells(means, "ours"), _cells(full, "ours_full"), _cells(means, "setups", count=True),
                  _cells(var, "var")):
        out = out.merge(cells, on=CELL, how="left")
    out["setups"] = out["setups"].fillna(0).astype(int)
    out["noise_sd"] = np.sqrt(out.pop("var") / out["setups"].where(out["setups"] > 0))
    return out


def table3_grain(tolerance: float = 0.0051) -> pd.DataFrame:
    """How many of the paper's ≠ SotA and ≠ Top-3 cells on its own data are multiples of 1/d to two decimals, per
    column group and d, and the chance that a two-decimal value in [0, 1] is."""
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


def grain_numbers(grain: pd.DataFrame) -> dict:
    """For the page: :func:`table3_grain`'s cells fitting, cells and chance per column group and multiple."""
    rows = grain.set_index(["columns", "multiple of"])

    def cell(columns: str, multiple: int, column: str):
        return rows.loc[(columns, multiple), column].item()

    single = "BLEU, MoverScore, BERTScore"
    return {
        "grain-single-30-fitting": cell(single, 30, "fitting"), "grain-single-30-cells": cell(single, 30, "cells"),
        "grain-single-30-chance": cell(single, 30, "chance"),
        "grain-rouge-30-fitting": cell("ROUGE", 30, "fitting"), "grain-rouge-30-cells": cell("ROUGE", 30, "cells"),
        "grain-rouge-30-chance": cell("ROUGE", 30, "chance"),
        "grain-rouge-90-fitting": cell("ROUGE", 90, "fitting"), "grain-rouge-90-cells": cell("ROUGE", 90, "cells"),
        "grain-rouge-90-chance": cell("ROUGE", 90, "chance"),
        "grain-rouge-we-30-fitting": cell("ROUGE-WE", 30, "fitting"),
        "grain-rouge-we-30-cells": cell("ROUGE-WE", 30, "cells"),
        "grain-rouge-we-30-chance": cell("ROUGE-WE", 30, "chance"),
        "grain-rouge-we-60-fitting": cell("ROUGE-WE", 60, "fitting"),
        "grain-rouge-we-60-cells": cell("ROUGE-WE", 60, "cells"),
        "grain-rouge-we-60-chance": cell("ROUGE-WE", 60, "chance"),
    }


def data_kind(datasets: pd.Series) -> np.ndarray:
    return np.where(datasets.isin(TABLE3_EXACT), "exact (TAC, TC, PC)", "other (WMT, CNN/DM, COCO)")


def table3_agreement(side: pd.DataFrame, tolerance: float = 0.02) -> pd.DataFrame:
    """How close each reading comes to the paper, per kind of data and measure: cells within ``tolerance``, within
    two standard deviations of the draws' noise (the sub-sample reading) and the mean absolute difference."""
    frame = side.dropna(subset=["ours"])
    sub, full = (frame.ours - frame.paper).abs(), (frame.ours_full - frame.paper).abs()
    cells = pd.DataFrame({("", "cells"): 1.0, ("20% sub-samples", f"within {tolerance}"): sub <= tolerance + 1e-12,
                          ("20% sub-samples", "within 2 SD of the draws' noise"): sub <= 2 * frame.noise_sd,
                          ("20% sub-samples", "mean absolute difference"): sub,
                          ("full test sets", f"within {tolerance}"): full <= tolerance + 1e-12,
                          ("full test sets", "mean absolute difference"): full})
    grouped = cells.groupby([data_kind(frame.dataset), frame.measure.map(MEASURES)], sort=False)
    counts = grouped.agg(lambda v: v.mean() if v.name[1] == "mean absolute difference" else v.sum())
    return counts.astype(float).rename_axis(["data", "measure"])


def table3_swaps(side: pd.DataFrame, tolerance: float = 0.02) -> list[tuple[str, str]]:
    """The exact-data (dataset, metric family) blocks whose Mean/BT and Med/BT columns look exchanged: each Disagree is
    within ``tolerance`` of ours for the other pair, but further than it and two noise SDs from ours for its own."""
    disagree = side[(side.measure == "disagree") & side.dataset.isin(TABLE3_EXACT)]
    g = disagree.set_index(["dataset", "metric_group", "pair"])[["paper", "ours", "noise_sd"]].unstack(sort=False)
    paper, ours = g["paper"], g["ours"]
    own = np.maximum((paper.mean_bt - ours.mean_bt).abs(), (paper.median_bt - ours.median_bt).abs())
    other = np.maximum((paper.mean_bt - ours.median_bt).abs(), (paper.median_bt - ours.mean_bt).abs())
    noise = 2 * g["noise_sd"][["mean_bt", "median_bt"]].max(axis=1)
    return list(g.index[(other <= tolerance) & (tolerance < own) & (own > noise)])


def plot_table3(side: pd.DataFrame, measure: str = "disagree") -> plt.Figure:
    """Table 3 in the paper's layout as one heat map: colour = ours (the sub-sample reading), labelled with ours
    over the paper's value; a cell we lack is grey, "—"."""
    part = side[side.measure == measure]
    columns = pd.MultiIndex.from_product([list(TABLE3_GROUPS), [pair_name(p) for p in TABLE3_PAIRS]])
    wide = {value: part.pivot_table(index="dataset", columns=["metric_group", "pair"], values=value,
                                    dropna=False).reindex(index=list(TABLE3_DATASETS), columns=columns)
            for value in ("ours", "paper")}
    ours, paper = (wide[v].map("{:.2f}".format).where(wide[v].notna(), dash) for v, dash in (("ours", "—"),
                                                                                             ("paper", "–")))
    labels = (ours + "\n(" + paper + ")").where(wide["ours"].notna() | wide["paper"].notna(), "").to_numpy()
    vmax = float(np.nanmax(part[["ours", "paper"]].to_numpy()))
    fig, ax = plt.subplots(figsize=(9.2, 5.8))
    ax.set_facecolor("#d9d9d9")
    grid = wide["ours"].set_axis(range(len(columns)), axis=1)
    sns.heatmap(grid, ax=ax, annot=labels, fmt="", cmap="rocket_r", vmin=0, vmax=vmax, linewidths=0.5,
                linecolor="white", annot_kws={"fontsize": 8},
                cbar_kws={"label": f"{MEASURES[measure]}, ours", "shrink": 0.7, "pad": 0.02})
    for (i, j), label in np.ndenumerate(labels):  # seaborn leaves NaN cells unlabelled
        if np.isnan(grid.iat[i, j]) and label:
            ax.text(j + 0.5, i + 0.5, label, ha="center", va="center", fontsize=8, color="0.3")
    ax.set_xticks(np.arange(len(columns)) + 0.5, [TABLE3_SHORT[p] for _, p in columns], rotation=90, fontsize=9)
    ax.tick_params(axis="y", rotation=0)
    n_pairs = len(TABLE3_PAIRS)
    for k, group in enumerate(TABLE3_GROUPS):
        ax.text((k + 0.5) * n_pairs, -0.25, group, ha="center", va="bottom", fontsize=10)
        if k:
            ax.axvline(k * n_pairs, color="white", lw=4)
    ax.set(xlabel="", ylabel="")
    ax.grid(False)
    return fig


def plot_table3_scatter(side: pd.DataFrame) -> plt.Figure:
    """Every Table 3 cell, the paper's value against ours (the sub-sample reading), a panel per measure."""
    frame = side.dropna(subset=["ours"]).assign(data=lambda f: data_kind(f.dataset))
    fig, axes = plt.subplots(1, len(MEASURES), figsize=(8.4, 3.3))
    kinds = sorted(frame.data.unique())
    for ax, (measure, name) in zip(axes, MEASURES.items()):
        part = frame[frame.measure == measure]
        sns.scatterplot(part, x="paper", y="ours", hue="data", style="data", ax=ax, s=30, alpha=0.8,
                        legend=ax is axes[0], hue_order=kinds, style_order=kinds, clip_on=False)
        top = float(max(part.paper.max(), part.ours.max(), 0.05)) * 1.05
        pad = 0.03 * top  # points at 0 or at the top stay whole
        ax.plot([0, top], [0, top], color="grey", lw=1, ls="--")
        ax.set(xlim=(-pad, top + pad), ylim=(-pad, top + pad), title=name, xlabel="the paper's Table 3",
               ylabel="ours (20% sub-samples)" if ax is axes[0] else "")
        ax.set_aspect("equal")
    handles, labels = axes[0].get_legend_handles_labels()
    axes[0].get_legend().remove()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=len(labels), frameon=False,
               markerscale=1.5)
    fig.tight_layout()
    return fig


def _cell_label(r) -> str:
    return f"{r.dataset} {r.metric_group} {MEASURES[r.measure]} {pair_title(r.pair)}"


def table3_values(side: pd.DataFrame) -> pd.DataFrame:
    """Claim values: every cell we have against the paper's, within its rounding plus two SD of the draws' noise;
    the cells of :data:`EXCHANGED_BLOCK`'s two columns read two ways are left to :func:`table3_exchanged_values`, so
    that no printed cell is counted twice as printed."""
    frame = side.dropna(subset=["ours"])
    frame = frame[~((frame.dataset == EXCHANGED_BLOCK[0]) & (frame.metric_group == EXCHANGED_BLOCK[1])
                    & frame.pair.isin(["mean_bt", "median_bt"]))]
    keys = np.where(~frame.dataset.isin(TABLE3_EXACT), "table3-other",
                    np.where(frame.measure == "disagree", "table3-exact-disagree", "table3-exact-top"))
    close = (frame.ours - frame.paper).abs() <= PERCENT_ROUNDING + 2 * frame.noise_sd
    rows = [(k, _cell_label(r), r.ours, bool(c)) for k, r, c in zip(keys, frame.itertuples(), close)]
    rows += [(key, "nothing to test in this run", np.nan, False)
             for key in ("table3-exact-disagree", "table3-exact-top", "table3-other") if key not in set(keys)]
    return claim_rows(rows)


def tac_med_above_mean(side: pd.DataFrame) -> pd.Series:
    """Per TAC block of the paper (dataset, metric family) but :data:`EXCHANGED_BLOCK`: whether the printed Med/BT
    cell is at least the Mean/BT cell in all three measures."""
    tac = side[side.dataset.str.startswith("TAC") & side.pair.isin(["mean_bt", "median_bt"])]
    tac = tac[~((tac.dataset == EXCHANGED_BLOCK[0]) & (tac.metric_group == EXCHANGED_BLOCK[1]))]
    wide = tac.pivot_table(index=["dataset", "metric_group", "measure"], columns="pair", values="paper")
    return (wide.median_bt >= wide.mean_bt).groupby(level=[0, 1]).all()


def table3_exchanged_values(side: pd.DataFrame) -> pd.DataFrame:
    """Claim values: :data:`EXCHANGED_BLOCK` read as printed and with its two columns exchanged, each cell tested
    as :func:`table3_values` tests it, and the evidence for the second reading (:func:`tac_med_above_mean`)."""
    dataset, group = EXCHANGED_BLOCK
    block = side[(side.dataset == dataset) & (side.metric_group == group) & side.pair.isin(["mean_bt", "median_bt"])]
    other = zip(block.measure, block.pair.map({"mean_bt": "median_bt", "median_bt": "mean_bt"}))
    exchanged = block.set_index(["measure", "pair"]).paper.loc[list(other)]
    rows = [(key, f"{_cell_label(r)} against the paper's {paper:.2f}", r.ours,
             bool(abs(r.ours - paper) <= PERCENT_ROUNDING + 2 * r.noise_sd))
            for key, printed in (("table3-rouge-we-as-printed", block.paper), ("table3-rouge-we-exchanged", exchanged))
            for r, paper in zip(block.itertuples(), printed)]
    above = tac_med_above_mean(side)
    rows.append(("table3-tac-med-above-mean", f"of the paper's {len(above)} other TAC blocks",
                 float(above.sum()), None))
    return claim_rows(rows)


def table3_numbers(side: pd.DataFrame, inventory: pd.DataFrame) -> dict:
    """The numbers the page's text on Table 3 glues (``inventory`` = our setups); the noise is the median SD of a
    single metric's ≠ SotA difference."""
    exact = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna()]
    dis = exact[exact.measure == "disagree"]
    counts = table3_agreement(side).reindex([("exact (TAC, TC, PC)", MEASURES["disagree"])]).iloc[0].fillna(0)
    single = exact[(exact.measure == "top1") & exact.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    swaps = table3_swaps(side)
    wmt = side[side.dataset.str.startswith("WMT") & side.ours.notna() & (side.measure == "disagree")]
    systems = inventory.groupby("collection").systems.max()
    paper_systems = published.frame("paired", "appendix_a3").set_index("dataset").systems
    tac = side[side.dataset.str.startswith("TAC") & (side.measure == "disagree")]
    tac = tac[~tac.set_index(["dataset", "metric_group"]).index.isin(swaps)]
    wide = tac.pivot_table(index=["dataset", "metric_group"], columns="pair", values="paper")
    return {
        "t3-cells": len(dis), "t3-within": int(counts[("20% sub-samples", "within 0.02")]),
        "t3-within-full": int(counts[("full test sets", "within 0.02")]),
        "t3-lower": int((dis.ours_full < dis.ours).sum()), "t3-noise-sd": float(single.noise_sd.median()),
        "t3-swaps": len(swaps), "t3-far": len(table3_far_cells(side)), "t3-tac-other": len(wide),
        "t3-tac-mean-bt-least": int((wide["mean_bt"] < wide[["median_bt", "mean_median"]].min(axis=1)).sum()),
        "t3-dialogue-min": int(paper_systems[["TC", "PC"]].min()),
        "t3-dialogue-max": int(paper_systems[["TC", "PC"]].max()),
        "t3-wmt-near": int(((wmt.ours - wmt.paper).abs() <= 0.02 + 1e-12).sum()), "t3-wmt-cells": len(wmt),
        "t3-cnndm-systems": int(systems.get("CNNDM", 0)), "t3-coco-systems": int(systems.get("COCO", 0)),
        "t3-paper-cnndm-systems": int(paper_systems["CNN/DM"]), "t3-paper-coco-systems": int(paper_systems["MSCOCO"]),
    }


def table3_swaps_view(side: pd.DataFrame) -> pd.DataFrame:
    """The blocks of :func:`table3_swaps`, a row per measure, and whether MEAN vs. BT disagrees least read exchanged."""
    rows = []
    for dataset, group in table3_swaps(side):
        cells = side[(side.dataset == dataset) & (side.metric_group == group)].set_index(["measure", "pair"])
        paper = cells.xs("disagree").paper
        least = "yes" if paper["median_bt"] < min(paper["mean_bt"], paper["mean_median"]) else "no"
        rows += [[dataset, group, name, *(cells.loc[(measure, pair), value] for value in ("paper", "ours")
                                          for pair in ("mean_bt", "median_bt")), least]
                 for measure, name in MEASURES.items()]
    return pd.DataFrame(rows, columns=["dataset", "metrics", "measure", "paper MEAN vs. BT", "paper MEDIAN vs. BT",
                                       "ours MEAN vs. BT", "ours MEDIAN vs. BT", "MEAN vs. BT least, read exchanged"])


def table3_far_cells(side: pd.DataFrame) -> pd.DataFrame:
    """The paper's own-data Disagree cells further from ours than the draws explain (more than 0.02 and more than two
    noise standard deviations), the exchanged-looking blocks aside."""
    dis = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna() & (side.measure == "disagree")]
    gap = (dis.ours - dis.paper).abs()
    far = dis[(gap > 2 * dis.noise_sd) & (gap > 0.02)]
    far = far[~far.set_index(["dataset", "metric_group"]).index.isin(table3_swaps(side))]
    return pd.DataFrame({"dataset": far.dataset, "metrics": far.metric_group,
                         "mechanisms": [pair_title(p) for p in far.pair],
                         "paper": far.paper, "ours": far.ours}).reset_index(drop=True)
