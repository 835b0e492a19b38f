"""Chapter 00's figures: Fig. 1 (the scores of A, B, C and their aggregates) and Fig. 2 (three pairings with
identical marginals), Peyrard et al. 2021, §1 and §3.1. Both are laid out for the book's text column (about 8 in
wide at most, text of 10 pt or more); their captions are beside them in the notebook."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from mpl_toolkits.axes_grid1 import make_axes_locatable

#: the names of the aggregates on Fig. 1's bar chart, in :func:`.experiments.fig1_aggregates`' column order
FIG1_AGGREGATES = {"mean": "MEAN", "median": "MEDIAN", "bt": "BT\n(rescaled)"}


def plot_fig1(scores: pd.DataFrame, aggregates: pd.DataFrame) -> plt.Figure:
    """Fig. 1: (a) each system's score per test instance, (b) MEAN, MEDIAN and BT per system, BT rescaled so that
    its largest strength equals the largest mean (strengths have no unit of their own). One legend for both."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.3), gridspec_kw={"width_ratios": [1.35, 1]})
    palette = dict(zip(scores.columns, sns.color_palette("colorblind", len(scores.columns))))
    for system in scores:
        axes[0].plot(scores.index, scores[system], marker="o", lw=1.5, label=system, color=palette[system])
    axes[0].set(xlabel="test instance", ylabel="evaluation score", title="(a) scores", xticks=scores.index)
    ranked = aggregates[list(FIG1_AGGREGATES)].copy()
    ranked["bt"] = ranked["bt"] / ranked["bt"].max() * ranked["mean"].max()  # BT on the score scale, for display
    ranked.columns = list(FIG1_AGGREGATES.values())
    ranked.T.plot.bar(ax=axes[1], color=[palette[s] for s in ranked.index], rot=0, legend=False)
    axes[1].set(title="(b) aggregates", ylabel="aggregate")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, title="system", loc="center left", bbox_to_anchor=(1.0, 0.55), frameon=False)
    fig.tight_layout()
    return fig


def plot_fig2(pairings: dict[str, tuple[np.ndarray, np.ndarray]], summary: pd.DataFrame) -> plt.Figure:
    """Fig. 2: one panel per pairing, instances at (score of A, score of B), marginal densities on the sides, means
    (open markers on the top and right edges) and medians (filled, bottom and left), the diagonal, and the
    half-plane BT prefers shaded in the colour of the system it prefers.
    The means and medians are in the chapter's table, not on the axes."""
    fig = plt.figure(figsize=(8.4, 3.2))
    grid = fig.add_gridspec(1, len(pairings), wspace=0.3, bottom=0.22)
    colors = {"A": sns.color_palette("colorblind")[2], "B": sns.color_palette("colorblind")[0]}
    lo, hi = -0.05, 1.05
    for k, (title, (xa, xb)) in enumerate(pairings.items()):
        ax = fig.add_subplot(grid[0, k])
        ax.set_aspect("equal", adjustable="box")
        divider = make_axes_locatable(ax)
        ax_top = divider.append_axes("top", 0.45, pad=0.04, sharex=ax)
        ax_right = divider.append_axes("right", 0.45, pad=0.04, sharey=ax)
        p_b = summary.loc[title, "P(B > A)"]
        if p_b > 0.5:
            ax.fill_between([lo, hi], [lo, hi], hi, color=colors["B"], alpha=0.12, lw=0)
        else:
            ax.fill_between([lo, hi], lo, [lo, hi], color=colors["A"], alpha=0.12, lw=0)
        ax.scatter(xa, xb, s=2, alpha=0.35, color="0.25", rasterized=True)
        ax.plot([lo, hi], [lo, hi], color="black", lw=1)
        # the means and medians nearly coincide here: each is a marker on its own edge (means on the top and right
        # edges, medians on the bottom and left ones), so neither can hide the other
        for stat, marker_a, marker_b, at_a, at_b, face in (("mean", "v", "<", hi, hi, "white"),
                                                           ("median", "^", ">", lo, lo, None)):
            ax.plot(summary.loc[title, f"{stat} A"], at_a, marker=marker_a, ms=8, mec=colors["A"], mew=1.6,
                    color=face or colors["A"], clip_on=False, zorder=5)
            ax.plot(at_b, summary.loc[title, f"{stat} B"], marker=marker_b, ms=8, mec=colors["B"], mew=1.6,
                    color=face or colors["B"], clip_on=False, zorder=5)
        sns.kdeplot(x=xa, ax=ax_top, color=colors["A"], fill=True, bw_adjust=0.6)
        sns.kdeplot(y=xb, ax=ax_right, color=colors["B"], fill=True, bw_adjust=0.6)
        ax_top.axis("off")
        ax_right.axis("off")
        ax.set(xlim=(lo, hi), ylim=(lo, hi), xticks=[0, 0.5, 1], yticks=[0, 0.5, 1], xlabel="score of A",
               ylabel="score of B" if k == 0 else "")
        ax_top.set_title(f"{title.removesuffix(' pairing')}: P(B > A) = {p_b:.2f}\nBT prefers "
                         f"{'B' if p_b > 0.5 else 'A'}", fontsize=10)
    handles = [
        plt.Line2D([], [], ls="", marker="v", ms=8, mec="0.3", mew=1.6, color="white",
                   label="means (top and right edges)"),
        plt.Line2D([], [], ls="", marker="^", ms=8, mec="0.3", color="0.3", label="medians (bottom and left edges)"),
        plt.Line2D([], [], color="black", label="$X_A = X_B$"),
        plt.Rectangle((0, 0), 1, 1, color=colors["B"], alpha=0.25, lw=0, label="half-plane where B wins more"),
        plt.Rectangle((0, 0), 1, 1, color=colors["A"], alpha=0.25, lw=0, label="half-plane where A wins more"),
    ]
    fig.legend(handles=handles, loc="upper center", ncol=2, frameon=False, bbox_to_anchor=(0.5, 0.1),
               fontsize=10)
    return fig
