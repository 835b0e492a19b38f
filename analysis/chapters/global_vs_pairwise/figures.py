"""Every figure of the chapter: Fig. 1's tie sweep, Fig. 2's stability panels, Fig. 3's detection curves, Fig. 4's
flowchart and the llmfao panels (matplotlib, imported when a figure is drawn)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def plot_tie_sweep(sweep: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(sweep["tie_probability"], sweep["spearman_low"], sweep["spearman_high"], alpha=0.25,
                    label="95% of trials")
    ax.plot(sweep["tie_probability"], sweep["spearman_mean"], label="mean over trials")
    ax.axhline(0.8, color="grey", linestyle=":", label="0.8 (the paper's threshold)")
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("probability that a match is turned into a tie")
    ax.set_ylabel("Spearman: BT vs mean chrF ranking")
    ax.set_ylim(-1.05, 1.05)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig


def plot_stability(curves: dict):
    """Fig. 2, one panel per dataset: ``curves`` maps a panel title to (stability curve, 12·m·ln m)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(curves), 1, figsize=(7, 2.8 * len(curves)), sharex=True, squeeze=False)
    for ax, (title, (curve, marker)) in zip(axes[:, 0], curves.items()):
        ax.plot(curve["comparisons"], curve["changes_mean"], label="mean over trials")
        ax.plot(curve["comparisons"], curve["changes_p95"], linestyle=":", label="95th percentile")
        ax.axvline(marker, color="red", linewidth=1, label=f"12·m·ln m = {marker}")
        ax.set_title(title, fontsize=10)
        ax.set_ylabel("models off their\nreference position")
        ax.legend(fontsize=7)
    axes[-1, 0].set_xlabel("comparisons per model pair")
    fig.tight_layout()
    return fig


def plot_detection(curve: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for colour, (n, part) in zip(colours, curve.groupby("matches")):
        ax.plot(part["difference"], part["pairwise"], color=colour, label=f"pairwise (BT), {n} matches")
        ax.plot(part["difference"], part["global"], color=colour, linestyle="--", label=f"global (mean), {n}")
    ax.set_xlabel("1 - f: B's decision values are f times A's in distribution (mean gap (1 - f)/2)")
    ax.set_ylabel("probability of the correct order")
    ax.set_ylim(0.45, 1.02)
    ax.legend(fontsize=7, ncol=2, loc="lower right")
    fig.tight_layout()
    return fig


# -- Fig. 4: the paper's decision flowchart ---------------------------------------------------------------------------

#: Fig. 4 rebuilt from its caption and Secs. 5-8 (the figure itself is an image the text copy does not hold):
#: (question, answer leading to the next question, outcome of the other answer)
FLOWCHART = (
    ("Is the quality measure hard to define\n(\"uneasy\", e.g. text generation)?", "no",
     "pairwise comparisons\n(BT on 12·m·ln m matches per pair)"),
    ("Do some models give more confident\ndecision values (0/1, another scale)?", "no",
     "global scores\n(accuracy, ROC AUC, F1)"),
    ("Are the models close, with many ties\n(scores relatively consistent)?", "no",
     "global scores\n(they need less data)"),
)
FLOWCHART_END = "pairwise comparisons\n(scores vary widely, no model over-confident)"


def plot_flowchart():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.4))
    ax.set_axis_off()
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    question = {"boxstyle": "round,pad=0.5", "facecolor": "#dbe9f6", "edgecolor": "#31688e"}
    outcome = {"boxstyle": "round,pad=0.5", "facecolor": "#f3f3f3", "edgecolor": "#555555"}
    arrow = {"arrowstyle": "-|>", "color": "#333333", "shrinkA": 0, "shrinkB": 0}
    ys = np.linspace(8.4, 3.4, len(FLOWCHART))
    ax.text(2.6, 9.8, "Comparing models on one test set", ha="center", va="center", fontsize=10, weight="bold")
    ax.annotate("", xy=(2.6, ys[0] + 0.75), xytext=(2.6, 9.45), arrowprops=arrow)
    for y, (text, down, side) in zip(ys, FLOWCHART):
        ax.text(2.6, y, text, ha="center", va="center", fontsize=9, bbox=question)
        ax.text(7.7, y, side, ha="center", va="center", fontsize=8.5, bbox=outcome)
        ax.annotate("", xy=(5.9, y), xytext=(5.0, y), arrowprops=arrow)
        ax.text(5.45, y + 0.25, "yes", ha="center", fontsize=8)
        ax.annotate("", xy=(2.6, y - 1.75), xytext=(2.6, y - 0.75), arrowprops=arrow)
        ax.text(2.75, y - 1.25, down, va="center", fontsize=8)
    ax.text(2.6, ys[-1] - 2.5, FLOWCHART_END, ha="center", va="center", fontsize=8.5, bbox=outcome)
    fig.tight_layout()
    return fig


# -- llmfao (beyond the paper) ----------------------------------------------------------------------------------------


def plot_llmfao(sweep: pd.DataFrame, curve: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(2, 1, figsize=(7, 7.5))
    left.fill_between(sweep["tie_share"], sweep["spearman_low"], sweep["spearman_high"], alpha=0.25,
                      label="95% of trials")
    left.plot(sweep["tie_share"], sweep["spearman_mean"], label="mean")
    left.axhline(0.8, color="grey", linestyle=":", label="0.8")
    left.set_xlabel(f"share of ties (the data's own {sweep['tie_share'].min():.0%}, plus synthetic)")
    left.set_ylabel("Spearman with BT on all judgments")
    left.set_title("Fig. 1 on llmfao: adding ties", fontsize=10)
    left.legend(fontsize=8, loc="lower left")
    right.plot(curve["judgments"], curve["spearman_mean"], marker="o", label="mean Spearman")
    right.plot(curve["judgments"], curve["spearman_low"], linestyle=":", label="2.5% percentile")
    right.set_xlabel("judgments in each of two disjoint random subsets")
    right.set_ylabel("Spearman between the two BT rankings")
    right.set_title("Stability on llmfao: split halves", fontsize=10)
    right.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig
