"""Figs. 1-5 and the Sec. 5.1 shares (matplotlib / seaborn), laid out for the book's text column: one pair per
figure (Figs. 2-5), panels no wider than the column allows, no title that repeats the caption."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .views import PACKAGE_SHORT

#: the years of the paper's pairs per style (Table 2): SR-DC 2018-20, SR+DC 2019-20
PAPER_YEARS = {"SR-DC": "paper, 2018–20", "SR+DC": "paper, 2019–20"}
STYLE_COLORS = {"SR-DC": "#4C72B0", "SR+DC": "#DD8452"}
HERE = {"SR-DC": "here, 2018", "SR+DC": "here, 2021-22 to-English"}
DIVISOR_TICKS = [1.25, 1.5, 2.0, 4.0, 10.0]
#: the systems' colours in Figs. 2-3: tab20's dark shades first, then its light ones, so that systems next to each
#: other in the ranking never get two shades of one hue
TRAJECTORY_COLORS = [k for k in range(0, 20, 2)] + [k for k in range(1, 20, 2)]


def plot_fig1(fractions: pd.DataFrame):
    """Fig. 1: per measure (Δrank, Δcluster, Δboth) the share of pairs changed against the divisor, ours (solid)
    and the paper's (dashed); three narrow panels side by side, one x label and the legend below them."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(7.6, 3.5), sharey=True)
    for ax, measure in zip(axes, ("rank", "cluster", "both")):
        for (style, source), rows in fractions[fractions["measure"] == measure].groupby(["style", "source"]):
            rows = rows.sort_values("divisor")
            ax.plot([DIVISOR_TICKS.index(d) if d in DIVISOR_TICKS else np.nan for d in rows["divisor"]],
                    rows["fraction"], marker="o" if source == "here" else "s",
                    linestyle="-" if source == "here" else "--", color=STYLE_COLORS[style],
                    alpha=1.0 if source == "here" else 0.6,
                    label=f"{style}, {HERE[style] if source == 'here' else PAPER_YEARS[style]} ({rows['pairs'].iloc[0]} pairs)")
        ax.set_xticks(list(range(len(DIVISOR_TICKS))), [f"{d:g}" for d in DIVISOR_TICKS])
        ax.set_title(f"Δ{measure}")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("share of pairs changed")
    axes[1].set_xlabel("HUMAN and REF raw scores divided by")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig


def setting_label(setting: str) -> str:
    """A setting of :func:`~.experiments.trajectories` as a tick label: ``d-1.25`` → ``÷1.25``."""
    return "÷" + setting.removeprefix("d-") if setting.startswith("d-") else setting


def plot_trajectory(t: pd.DataFrame):
    """Figs. 2-3 for one pair: the rank of each MT system (top = best) on the original data and after each division,
    its name at both ends of its line, a black x where a significance line falls below a rank. The height grows
    with the number of systems; the names stand outside the axes."""
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys(t["setting"]))
    x = {s: k for k, s in enumerate(settings)}
    first = t[t["setting"] == "original"].sort_values("rank")
    label_in = 0.068 * max(len(s) for s in first["system"]) + 0.2  # a name's width at 9 pt, in inches
    fig, ax = plt.subplots(figsize=(4.4 + 2 * label_in, 0.9 + 0.26 * len(first)))  # 9 pt names, 0.26 in apart
    palette = plt.get_cmap("tab20")(np.linspace(0, 1, 20))[TRAJECTORY_COLORS]
    for k, system in enumerate(first["system"]):
        rows = t[t["system"] == system]
        ax.plot([x[s] for s in rows["setting"]], rows["rank"], marker="o", markersize=3.5, linewidth=1.5,
                color=palette[k % 20])
        for end, offset, align in ((0, -6, "right"), (-1, 6, "left")):
            ax.annotate(system, (x[rows["setting"].iloc[end]], rows["rank"].iloc[end]), xytext=(offset, 0),
                        textcoords="offset points", ha=align, va="center", fontsize=9, color="#222222")
    lines = t[t["line_below"]]
    ax.scatter([x[s] for s in lines["setting"]], lines["rank"] + 0.5, marker="x", color="black", s=30, zorder=3,
               linewidths=1.5)
    ax.set_xticks(range(len(settings)), [setting_label(s) for s in settings])
    ax.tick_params(axis="x", labelsize=10)
    ax.set_xlabel("HUMAN and REF raw scores divided by")
    ax.set_xlim(-0.25, len(settings) - 0.75)
    ax.set_ylim(len(first) + 0.7, 0.3)
    ax.set_yticks([])
    ax.grid(axis="y", visible=False)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig


def plot_cooccurrence(share: pd.DataFrame):
    """Fig. 4 for one pair: of the HITs holding the row system, the percentage also holding the column system. Every
    cell prints its value, so there is no colour bar: its width goes to the cells, which keeps a three-digit value
    (9 pt, about 10 px tall digits in the book's column for 14 systems) clear of its neighbours."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    n = len(share)
    fig, ax = plt.subplots(figsize=(1.2 + 0.4 * n, 1.6 + 0.4 * n))
    sns.heatmap(share * 100, ax=ax, vmin=0, vmax=100, cmap="viridis", annot=True, fmt=".0f",
                annot_kws={"fontsize": 9}, cbar=False, square=True)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.tick_params(labelsize=9)
    ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    fig.tight_layout()
    return fig


def plot_fig5(matrix: pd.DataFrame):
    """Fig. 5: mean raw score per (test document, system), documents and systems best first; grey = not judged."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    ax.set_facecolor("#e6e6e6")  # not judged: light grey, distinct from any score
    ax.grid(False)
    sns.heatmap(matrix, ax=ax, cmap="viridis", vmin=0, vmax=100, yticklabels=False,
                cbar_kws={"label": "mean raw score (grey: not judged)"})
    ax.set_ylabel(f"{len(matrix)} test documents, best first")
    ax.set_xlabel("system, best first (mean over documents)")
    ax.tick_params(axis="x", labelsize=9)
    ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    fig.tight_layout()
    return fig


def plot_ref_shares(composition: pd.DataFrame):
    """Sec. 5.1 per pair: the share of workers who judged a REF item, of those who judged a ranked HUMAN system's
    output (where one is ranked), and the paper's share for the 2018 pairs it prints; pairs grouped by package."""
    import matplotlib.pyplot as plt

    rows = composition.reset_index(drop=True)
    y = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.22 * len(rows)))
    ax.scatter(rows["workers_saw_ref"], y, color="#4C72B0", s=28, label="here: saw a REF item", zorder=3)
    human = rows["workers_saw_human"] > 0
    ax.scatter(rows.loc[human, "workers_saw_human"], y[human], color="#DD8452", marker="^", s=32, zorder=3,
               label="here: saw a HUMAN system")
    paper = rows["paper_workers_saw_ref"].notna()
    ax.scatter(rows.loc[paper, "paper_workers_saw_ref"], y[paper], color="black", marker="x", s=40, zorder=4,
               label="paper: saw a REF item")
    labels = [f"{p} {PACKAGE_SHORT.get(c, c)}" for c, p in zip(rows["collection"], rows["pair"])]
    ax.set_yticks(y, labels)
    ax.tick_params(axis="y", labelsize=9)
    for k in np.flatnonzero(rows["collection"].to_numpy()[1:] != rows["collection"].to_numpy()[:-1]):
        ax.axhline(k + 0.5, color="grey", linewidth=0.8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-0.03, 1.03)
    ax.xaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("share of the pair's workers")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06 - 1.0 / len(rows)), ncol=2, fontsize=9, frameon=False)
    fig.tight_layout()
    return fig
