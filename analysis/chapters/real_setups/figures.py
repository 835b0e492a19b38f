"""Chapter 02's figures: Table 3 as heat maps and as a scatter against the paper, Fig. 4's three panels, Fig. 5's BT
probability matrices and Fig. 6's agreement matrices."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ...agreement import pair_label, pair_name
from ...plotting import dodged_errorbars
from .published import TABLE3_DATASETS, TABLE3_GROUPS, _data_kind
from .setups import KEYS, MEASURES, TABLE1_PAIRS, TABLE3_PAIRS

TASK_SHORT = {"summarization": "summ.", "translation": "MT", "captioning": "caption.", "dialogue": "dialogue"}
PAIR_COLORS = {"mean_median": "#DD8452", "mean_bt": "#4C72B0", "median_bt": "#55A868"}


def metric_label(metric: str) -> str:
    """The paper's spelling of a metric: ``BLEU_1`` -> ``BLEU-1``, ``ROUGE_WE_2`` -> ``ROUGE-WE-2``."""
    return {"Chrfpp": "chrF++"}.get(metric, metric.replace("_", "-"))


# -- Table 3 --------------------------------------------------------------------------------------------------------

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


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

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


# -- Fig. 5 ---------------------------------------------------------------------------------------------------------

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


# -- Fig. 6 ---------------------------------------------------------------------------------------------------------

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
