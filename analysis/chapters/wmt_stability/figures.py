"""Figs. 1-5 (matplotlib / seaborn)."""

from __future__ import annotations

import numpy as np
import pandas as pd

STYLE_COLORS = {"SR-DC": "#4C72B0", "SR+DC": "#DD8452"}
HERE = {"SR-DC": "here, 2018", "SR+DC": "here, 2021-22 to-English"}
DIVISOR_TICKS = [1.25, 1.5, 2.0, 4.0, 10.0]


def plot_fig1(fractions: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), sharey=True)
    for ax, measure in zip(axes, ("rank", "cluster", "both")):
        for (style, source), rows in fractions[fractions["measure"] == measure].groupby(["style", "source"]):
            rows = rows.sort_values("divisor")
            ax.plot([DIVISOR_TICKS.index(d) if d in DIVISOR_TICKS else np.nan for d in rows["divisor"]],
                    rows["fraction"], marker="o" if source == "here" else "s",
                    linestyle="-" if source == "here" else "--", color=STYLE_COLORS[style],
                    alpha=1.0 if source == "here" else 0.6,
                    label=f"{style}, {HERE[style] if source == 'here' else 'paper, 2018-20'} ({rows['pairs'].iloc[0]} pairs)")
        ax.set_xticks(list(range(len(DIVISOR_TICKS))), [f"{d:g}" for d in DIVISOR_TICKS])
        ax.set_xlabel("divisor of REF and HUMAN raw scores")
        ax.set_title(f"Δ{measure}")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("fraction of language pairs changed")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def plot_trajectories(panels: dict):
    """Figs. 2-3: one panel per pair; rank (top = best) per setting, significance lines marked with a black x."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 5.6), squeeze=False)
    for ax, (title, t) in zip(axes[0], panels.items()):
        settings = list(dict.fromkeys(t["setting"]))
        x = {s: k for k, s in enumerate(settings)}
        first = t[t["setting"] == "original"].sort_values("rank")
        palette = plt.get_cmap("tab20")(np.linspace(0, 1, 20))
        for k, system in enumerate(first["system"]):
            rows = t[t["system"] == system]
            ax.plot([x[s] for s in rows["setting"]], rows["rank"], marker="o", markersize=3, linewidth=1.2,
                    color=palette[k % 20])
            ax.annotate(system, (-0.1, rows["rank"].iloc[0]), ha="right", va="center", fontsize=7)
            ax.annotate(system, (len(settings) - 0.9, rows["rank"].iloc[-1]), ha="left", va="center", fontsize=7)
        lines = t[t["line_below"]]
        ax.scatter([x[s] for s in lines["setting"]], lines["rank"] + 0.5, marker="x", color="black", s=30, zorder=3)
        ax.set_xticks(range(len(settings)), settings, rotation=30)
        ax.set_xlabel("HUMAN and REF raw scores divided by d (d-n)")
        ax.set_xlim(-2.6, len(settings) + 1.6)
        ax.invert_yaxis()
        ax.set_yticks([])
        ax.set_ylabel("rank (top = best)")
        ax.set_title(title, fontsize=10)
        for side in ("left", "right", "top"):
            ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig


def plot_fig4(panels: dict):
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, len(panels), figsize=(7.2 * len(panels), 6.4), squeeze=False)
    for ax, (title, share) in zip(axes[0], panels.items()):
        sns.heatmap(share * 100, ax=ax, vmin=0, vmax=100, cmap="viridis", annot=True, fmt=".0f",
                    annot_kws={"fontsize": 6}, cbar_kws={"label": "% of the row system's HITs"}, square=True)
        ax.set_title(title, fontsize=10)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    return fig


def plot_fig5(matrix: pd.DataFrame, title: str):
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, ax = plt.subplots(figsize=(7, 7.5))
    ax.set_facecolor("#e6e6e6")  # not judged: light grey, distinct from any score
    ax.grid(False)
    sns.heatmap(matrix, ax=ax, cmap="viridis", vmin=0, vmax=100, yticklabels=False,
                cbar_kws={"label": "mean raw score of the document's judged segments (grey: not judged)"})
    ax.set_ylabel(f"{len(matrix)} test documents, best first")
    ax.set_xlabel("system, best first (mean over documents)")
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return fig
