"""Chapter 02's figures: Table 3 as heat maps and as a scatter against the paper, Fig. 4's three panels, Fig. 5's BT
probability matrices and Fig. 6's agreement matrices."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ...agreement import pair_label, pair_name
from ...plotting import dodged_errorbars
from ..common import metric_label
from .published import TABLE3_DATASETS, TABLE3_GROUPS, _data_kind
from .setups import KEYS, MEASURES, TABLE1_PAIRS, TABLE3_PAIRS

TASK_SHORT = {"summarization": "summ.", "translation": "MT", "captioning": "caption.", "dialogue": "dialogue"}
PAIR_COLORS = {"mean_median": "#DD8452", "mean_bt": "#4C72B0", "median_bt": "#55A868"}


# -- Table 3 --------------------------------------------------------------------------------------------------------

#: the paper's short column headers of Table 3 (its pairs of mechanisms)
TABLE3_SHORT = {"mean_bt": "Mean/BT", "median_bt": "Med/BT", "mean_median": "Mean/Med"}


def _table3_label(ours: float, paper: float) -> str:
    paper_text = "–" if np.isnan(paper) else f"{paper:.2f}"
    if np.isnan(ours):
        return "" if np.isnan(paper) else f"—\n({paper_text})"
    return f"{ours:.2f}\n({paper_text})"


def plot_table3(side: pd.DataFrame, measure: str = "disagree") -> plt.Figure:
    """Table 3 in the paper's layout, as one heat map: a row per dataset, a column per metric family and pair of
    mechanisms (the families side by side, as the paper's column groups). Colour = ours (the sub-sample reading);
    each cell labelled with ours over the paper's value in brackets; a cell we cannot compute is grey, "—"."""
    part = side[side.measure == measure]
    columns = pd.MultiIndex.from_product([list(TABLE3_GROUPS), [pair_name(p) for p in TABLE3_PAIRS]])
    wide = {value: part.pivot_table(index="dataset", columns=["metric_group", "pair"], values=value,
                                    dropna=False).reindex(index=list(TABLE3_DATASETS), columns=columns)
            for value in ("ours", "paper")}
    labels = np.vectorize(_table3_label, otypes=[object])(wide["ours"].to_numpy(), wide["paper"].to_numpy())
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
    """Every Table 3 cell: the paper's value against ours (sub-sample reading), one panel per measure, the paper's
    exact data (TAC, TC, PC) apart from the stand-ins; one legend under the panels."""
    frame = side.dropna(subset=["ours"]).assign(data=lambda f: _data_kind(f.dataset))
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


# -- Tables 1 and 4 -------------------------------------------------------------------------------------------------

def plot_table4(ours: dict[str, pd.DataFrame], paper: pd.DataFrame, pairs) -> plt.Figure:
    """Table 4 (its first three rows are Table 1) as a dot plot, one panel per measure and a row per pair of
    mechanisms: the paper's percentage (black cross) and ours under each reading in ``ours`` (``{label:
    summarise() frame}``, a dot with its 95% bootstrap interval)."""
    fig, axes = plt.subplots(1, len(MEASURES), figsize=(8.4, 0.36 * len(pairs) + 1.6), sharey=True)
    markers, colors = ["o", "s", "D"], sns.color_palette("colorblind")
    step = 0.5 / max(1, len(ours))
    ys = np.arange(len(pairs))[::-1]
    for ax, (measure, name) in zip(axes, MEASURES.items()):
        for k, (label, frame) in enumerate(ours.items()):
            rows = frame.loc[[pair_name(p) for p in pairs]]
            y = ys + (k - (len(ours) - 1) / 2) * step
            ax.errorbar(100 * rows[measure], y, xerr=[100 * (rows[measure] - rows[f"{measure}_low"]),
                                                      100 * (rows[f"{measure}_high"] - rows[measure])],
                        fmt=markers[k % 3], ms=4, color=colors[k], capsize=2, lw=1, label=label)
        ax.plot([paper.loc[[p], measure].iloc[0] for p in pairs], ys, "x", color="black", ms=7, mew=1.6,
                label="the paper")
        ax.set(title=name, xlabel="% (setups)" if measure != "disagree" else "% (system pairs)")
        ax.set_xlim(left=0)
    axes[0].set_yticks(ys, [pair_label(p) for p in pairs])
    axes[0].set_ylim(-0.6, len(pairs) - 0.4)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles[-1:] + handles[:-1], labels[-1:] + labels[:-1], loc="upper center", bbox_to_anchor=(0.5, 0.02),
               ncol=len(labels), frameon=False, columnspacing=1.2, handletextpad=0.3)
    fig.tight_layout()
    return fig


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def plot_fig4(summaries: dict[str, pd.DataFrame], fig4: pd.DataFrame, paper_sizes: pd.DataFrame) -> plt.Figure:
    """Fig. 4's three panels, (a) across the top and (b), (c) below, each bar labelled with the number of setups
    behind it, and in (c) BT-eval's own size curve (``paper_sizes``, the :func:`fig4_summaries`-style size summary
    of :func:`paper_size_draws`). One legend above the panels."""
    fig = plt.figure(figsize=(8.4, 7.4))
    grid = fig.add_gridspec(2, 2, width_ratios=[1, 1.25], height_ratios=[1.2, 1])
    top = fig.add_subplot(grid[0, :])
    axes = [top, fig.add_subplot(grid[1, 0], sharey=top), fig.add_subplot(grid[1, 1], sharey=top)]
    labels = {pair_name(p): pair_label(p) for p in TABLE1_PAIRS}
    setups_per = {by: fig4.drop_duplicates([by, *KEYS])[by].value_counts() for by in ("metric", "task", "size")}
    for ax, (by, title, xlabel) in zip(axes, (("metric", "(a) per metric", "metric"),
                                              ("task", "(b) per task", "task"),
                                              ("size", "(c) per test-set size", "test instances drawn"))):
        frame = summaries[by].sort_values("pair", key=lambda p: p.map(list(labels).index), kind="stable")
        values = dodged_errorbars(ax, frame, x=by, hue="pair", y="disagree", colors=PAIR_COLORS, labels=labels,
                                  kind="bar", width=0.7)
        if by == "metric":
            ax.set_xticks(range(len(values)), [f"{metric_label(v)} ({setups_per[by][v]})" for v in values],
                          rotation=50, ha="right", rotation_mode="anchor")
        else:
            names = [f"{v:g}" if by == "size" else TASK_SHORT.get(v, v) for v in values]
            ax.set_xticks(range(len(values)), [f"{n}\n({setups_per[by][v]})" for n, v in zip(names, values)])
        ax.set_title(title)
        ax.set_xlabel(f"{xlabel} (setups)")
        ax.set_xlim(-0.6, len(values) - 0.4)
    sizes = list(dict.fromkeys(summaries["size"]["size"]))
    for pair, part in paper_sizes[paper_sizes["size"].isin(sizes)].groupby("pair", sort=False):
        axes[2].plot([sizes.index(s) for s in part["size"]], part.disagree, "--o", ms=3, lw=1, color=PAIR_COLORS[pair])
    axes[2].plot([], [], "--o", ms=3, lw=1, color="grey", label="(c) BT-eval's draws")
    for ax in axes[:2]:
        ax.set_ylabel("pairs ordered differently")
    plt.setp(axes[2].get_yticklabels(), visible=False)
    legend = {}
    for ax in (axes[0], axes[2]):
        legend |= {label: handle for handle, label in zip(*ax.get_legend_handles_labels()) if label not in legend}
    fig.legend(list(legend.values()), list(legend), loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(legend),
               frameon=False, fontsize=10, columnspacing=1.2, handlelength=1.6)
    fig.tight_layout(h_pad=1.0)
    return fig


# -- Fig. 5 ---------------------------------------------------------------------------------------------------------

def short_system_names(names) -> dict[str, str]:
    """System names without WMT's trailing submission numbers (``uedin.6749`` -> ``uedin``), for axis labels; a
    name is kept whole when shortening would make two alike."""
    short = {name: re.sub(r"\.\d+$", "", str(name)) for name in names}
    counts = pd.Series(list(short.values())).value_counts()
    return {name: s if counts[s] == 1 else str(name) for name, s in short.items()}


def plot_fig5(prob: pd.DataFrame, marks: pd.DataFrame) -> plt.Figure:
    """One setup's BT probability matrix (:func:`bt_probability_matrix`): BT's modelled probability that the row
    system beats the column system (not an observed win rate), * where the sign test rejects P = 1/2; systems by
    BT strength, named without submission numbers (:func:`short_system_names`). Only the upper triangle is drawn:
    the lower one is 1 minus it, so the stronger system of each pair is the row."""
    n = len(prob)
    names = short_system_names(prob.index)
    cell = min(0.6, 6.2 / n)
    fig, ax = plt.subplots(figsize=(cell * n + 2.4, cell * n + 1.6))
    annot = prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}") + marks
    font = 8.5 if n > 10 else 10
    # the last row and the first column would hold nothing above the diagonal
    shown, annot = prob.rename(index=names, columns=names).iloc[:-1, 1:], annot.iloc[:-1, 1:]
    below = np.tril(np.ones((n - 1, n - 1), dtype=bool), k=-1)
    # ordered by strength, so every drawn probability is at least 1/2
    sns.heatmap(shown, annot=annot, fmt="", cmap="Reds", vmin=0.5, vmax=1, ax=ax, annot_kws={"fontsize": font},
                square=True, mask=below,
                cbar_kws={"label": "BT's P(row beats column)", "shrink": 0.6, "pad": 0.02})
    ax.tick_params(labelsize=9)
    ax.tick_params(axis="y", rotation=0)
    ax.set_xlabel("column system")
    ax.set_ylabel("row system")
    ax.grid(False)
    return fig


# -- Fig. 6 ---------------------------------------------------------------------------------------------------------

def plot_fig6(panels: dict[str, pd.DataFrame]) -> plt.Figure:
    """One heat map per {title: agreement matrix}, side by side with one shared row axis."""
    fig, axes = plt.subplots(1, len(panels), figsize=(2.75 * len(panels) + 0.6, 3.3), sharey=True)
    for ax, (title, frame) in zip(np.atleast_1d(axes), panels.items()):
        sns.heatmap(frame.astype(float), annot=True, fmt=".2f", vmin=0, vmax=1, cmap="mako_r", ax=ax, cbar=False,
                    square=True, annot_kws={"fontsize": 10})
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("test j")
        ax.set_ylabel("test i" if ax is np.atleast_1d(axes)[0] else "")
        ax.tick_params(axis="x", rotation=45, labelsize=9)
        ax.tick_params(axis="y", rotation=0, labelsize=9)
        ax.grid(False)
    fig.tight_layout()
    return fig
