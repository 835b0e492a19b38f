"""Chapter 00's figures: Fig. 1 (the scores of A, B, C and their aggregates) and Fig. 2 (three pairings with
identical marginals), Peyrard et al. 2021, §1 and §3.1."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from mpl_toolkits.axes_grid1 import make_axes_locatable


def plot_fig1(scores: pd.DataFrame, aggregates: pd.DataFrame) -> plt.Figure:
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.5, 1]})
    palette = dict(zip(scores.columns, sns.color_palette("colorblind", len(scores.columns))))
    for system in scores:
        axes[0].plot(scores.index, scores[system], marker="o", lw=1.5, label=system, color=palette[system])
    axes[0].set(xlabel="test instance", ylabel="evaluation score", title="Fig. 1: scores of A, B, C",
                xticks=scores.index)
    axes[0].legend(title="system", loc="upper left")
    ranked = aggregates.copy()
    ranked["bt"] = ranked["bt"] / ranked["bt"].max() * ranked["mean"].max()  # BT on the score scale, for display
    ranked.columns = ["MEAN", "MEDIAN", "BT (rescaled)"]
    ranked.T.plot.bar(ax=axes[1], color=[palette[s] for s in ranked.index], rot=0)
    axes[1].set(title="Aggregates (BT rescaled: max = 10)", ylabel="aggregate")
    axes[1].legend(title="system", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig



def plot_fig2(pairings: dict[str, tuple[np.ndarray, np.ndarray]], summary: pd.DataFrame) -> plt.Figure:
    """Fig. 2: one panel per pairing, instances at (score of A, score of B), marginal densities on the sides, means
    (dashed) and medians (dotted), the diagonal, and the half-plane BT prefers shaded."""
    fig = plt.figure(figsize=(15, 5.2))
    grid = fig.add_gridspec(1, 3, wspace=0.35)
    colors = {"A": sns.color_palette("colorblind")[2], "B": sns.color_palette("colorblind")[0]}
    lo, hi = -0.05, 1.05
    for k, (title, (xa, xb)) in enumerate(pairings.items()):
        ax = fig.add_subplot(grid[0, k])
        divider = make_axes_locatable(ax)
        ax_top = divider.append_axes("top", 0.7, pad=0.05, sharex=ax)
        ax_right = divider.append_axes("right", 0.7, pad=0.05, sharey=ax)
        p_b = summary.loc[title, "P(B > A)"]
        if p_b > 0.5:
            ax.fill_between([lo, hi], [lo, hi], hi, color=colors["B"], alpha=0.12, lw=0)
        else:
            ax.fill_between([lo, hi], lo, [lo, hi], color=colors["A"], alpha=0.12, lw=0)
        ax.scatter(xa, xb, s=4, alpha=0.35, color="0.25", rasterized=True)
        ax.plot([lo, hi], [lo, hi], color="black", lw=1)
        for stat, style in (("mean", "--"), ("median", ":")):
            ax.axvline(summary.loc[title, f"{stat} A"], color=colors["A"], ls=style, lw=1.6 if stat == "mean" else 2.4)
            ax.axhline(summary.loc[title, f"{stat} B"], color=colors["B"], ls=style, lw=1.6 if stat == "mean" else 2.4)
        # the medians can sit on the means: mark them on the axes too, so both stay visible
        ax.plot(summary.loc[title, "median A"], lo, marker="^", ms=11, color=colors["A"], mec="black", clip_on=False,
                zorder=5)
        ax.plot(lo, summary.loc[title, "median B"], marker=">", ms=11, color=colors["B"], mec="black", clip_on=False,
                zorder=5)
        sns.kdeplot(x=xa, ax=ax_top, color=colors["A"], fill=True, bw_adjust=0.6)
        sns.kdeplot(y=xb, ax=ax_right, color=colors["B"], fill=True, bw_adjust=0.6)
        ax_top.axis("off")
        ax_right.axis("off")
        stats_of = {s: f"mean {summary.loc[title, f'mean {s}']:.2f}, median {summary.loc[title, f'median {s}']:.2f}"
                    for s in "AB"}
        ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel=f"score of A ({stats_of['A']})",
               ylabel=f"score of B ({stats_of['B']})")
        ax_top.set_title(f"{title}\nP(B > A) = {p_b:.2f}: BT prefers {'B' if p_b > 0.5 else 'A'}", fontsize=11)
    handles = [
        plt.Line2D([], [], color="0.3", ls="--", lw=1.6, label="means"),
        plt.Line2D([], [], color="0.3", ls=":", lw=2.4, marker="^", ms=9, mec="black", label="medians (also ▲ ► on the axes)"),
        plt.Line2D([], [], color="black", label="$X_A = X_B$"),
        plt.Rectangle((0, 0), 1, 1, color="0.5", alpha=0.25, label="half-plane of the system BT prefers"),
    ]
    fig.legend(handles=handles, loc="lower center", ncol=4, frameon=False, bbox_to_anchor=(0.5, -0.1),
               columnspacing=2.5, fontsize=11)
    return fig


