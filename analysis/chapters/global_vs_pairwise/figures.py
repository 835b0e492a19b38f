"""Every figure of the chapter: Figs. 1-4 and the llmfao panels (matplotlib, imported when a figure is drawn)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def _sweep(ax, sweep: pd.DataFrame, x: str, mean: str, level: float, label: str) -> None:
    """A tie sweep's middle 95% of trials (band), its mean (line) and the paper's threshold ``level`` (dotted)."""
    ax.fill_between(sweep[x], sweep["spearman_low"], sweep["spearman_high"], alpha=0.25, label="95% of trials")
    ax.plot(sweep[x], sweep["spearman_mean"], label=mean)
    ax.axhline(level, color="grey", linestyle=":", label=label)


def plot_tie_sweep(sweep: pd.DataFrame, level: float):
    """Fig. 1: BT against the mean-chrF ranking as matches turn into ties; ``level`` the paper's threshold."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.1))
    _sweep(ax, sweep, "tie_probability", "mean over trials", level, f"{level:g} (the paper's threshold)")
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=0.8, label="p = 0.5 (half the matches tied)")
    ax.set_xlabel("probability that a match is turned into a tie")
    ax.set_ylabel("Spearman: BT vs mean chrF ranking")
    ax.set_ylim(-1.05, 1.05)
    ax.legend(loc="lower left", fontsize=10)
    fig.tight_layout()
    return fig


def plot_stability(curves: dict):
    """Fig. 2, one panel per dataset (title -> (curve, 12·m·ln m)), one legend below them."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(curves), figsize=(7.4, 3.2), sharex=True, squeeze=False)
    for ax, (title, (curve, marker)) in zip(axes[0], curves.items()):
        ax.plot(curve["comparisons"], curve["changes_mean"], label="mean over trials")
        ax.plot(curve["comparisons"], curve["changes_p95"], linestyle=":", label="95th percentile")
        ax.axvline(marker, color="red", linewidth=1, label="12·m·ln m (value in each title)")
        ax.set_title(title.replace(", ", ",\n", 1) + f"\n12·m·ln m = {marker}", fontsize=10)
        ax.set_xticks([0, 500, 1000])
    axes[0, 0].set_ylabel("models off their\nreference position")
    axes[0, len(curves) // 2].set_xlabel("comparisons per model pair")
    fig.legend(*axes[0, 0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=10, frameon=False,
               handlelength=1.6, columnspacing=1.2)
    fig.tight_layout(rect=(0, 0.09, 1, 1))
    return fig


def plot_detection(curve: pd.DataFrame):
    """Fig. 3: one colour per number of matches, solid pairwise (BT), dashed global; the legend below."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(7, 3.5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    handles = []
    for colour, (n, part) in zip(colours, curve.groupby("matches")):
        ax.plot(part["difference"], part["pairwise"], color=colour)
        ax.plot(part["difference"], part["global"], color=colour, linestyle="--")
        handles.append(Line2D([], [], color=colour, label=f"{n:,} matches"))
    handles += [Line2D([], [], color="black", label="pairwise (BT)"),
                Line2D([], [], color="black", linestyle="--", label="global (mean)")]
    ax.set_xlabel("difference 1 − f (B's decision values are f times A's)")
    ax.set_ylabel("probability of the correct order")
    ax.set_ylim(0.45, 1.02)
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=9, frameon=False,
               handlelength=1.6, columnspacing=1.2)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig

#: Fig. 4 rebuilt from its caption and Secs. 5-8 (the figure itself is an image the text copy does not hold):
#: (question, outcome of "yes"; "no" leads to the next question)
FLOWCHART = (
    ("Is the quality measure hard to define\n(\"uneasy\", e.g. text generation)?",
     "pairwise comparisons\n(BT on 12·m·ln m matches per pair)"),
    ("Do some models give more confident\ndecision values (0/1, another scale)?",
     "global scores\n(accuracy, ROC AUC, F1)"),
    ("Are the models close, with many ties\n(scores relatively consistent)?", "global scores\n(they need less data)"),
)
FLOWCHART_END = "pairwise comparisons\n(scores vary widely, no model over-confident)"


def plot_flowchart():
    """Fig. 4 redrawn: questions top to bottom, "yes" right to its outcome, "no" down to the next question."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.4, 4.5))
    ax.set_axis_off()
    ax.set(xlim=(0, 10), ylim=(0, 10))
    question, outcome, start = ({"boxstyle": "round,pad=0.45", "facecolor": face, "edgecolor": edge} for face, edge
                                in (("#dbe9f6", "#31688e"), ("#f3f3f3", "#555555"), ("white", "#31688e")))
    arrow = {"arrowstyle": "-|>", "color": "#333333", "shrinkA": 6, "shrinkB": 6, "lw": 1.2}  # clear of the pads
    ys = np.linspace(7.6, 2.7, len(FLOWCHART))
    previous = ax.text(3.0, 9.5, "Comparing models on one test set", ha="center", va="center", fontsize=10,
                       weight="bold", bbox=start)

    def link(source, target, label=None, side="down"):
        """An arrow from ``source``'s edge to ``target``'s, labelled beside its middle."""
        a, b = ((0.5, 0), (0.5, 1)) if side == "down" else ((1, 0.5), (0, 0.5))
        ax.annotate("", xy=b, xycoords=target, xytext=a, textcoords=source, arrowprops=arrow)
        if label:
            ax.annotate(label, xy=(0.5, 0) if side == "down" else (1, 0.5), xycoords=source, fontsize=9,
                        xytext=(8, -18) if side == "down" else (14, 6), textcoords="offset points")

    for k, (y, (text, side)) in enumerate(zip(ys, FLOWCHART)):
        box = ax.text(3.0, y, text, ha="center", va="center", fontsize=9.5, bbox=question)
        link(previous, box, "no" if k else None)
        link(box, ax.text(8.2, y, side, ha="center", va="center", fontsize=9.5, bbox=outcome), "yes", side="right")
        previous = box
    link(previous, ax.text(3.0, 2 * ys[-1] - ys[-2], FLOWCHART_END, ha="center", va="center", fontsize=9.5,
                           bbox=outcome), "no")
    fig.tight_layout()
    return fig


def plot_llmfao(sweep: pd.DataFrame, curve: pd.DataFrame, level: float):
    """Beyond the paper: Fig. 1's tie sweep (a) and the split halves (b) on llmfao, ``level`` as in Fig. 1."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(2, 1, figsize=(7, 7.5))
    _sweep(left, sweep, "tie_share", "mean", level, f"{level:g}")
    left.set_xlabel(f"share of ties (the data's own {sweep['tie_share'].min():.0%}, plus synthetic)")
    left.set_ylabel("Spearman with BT on the other half")
    left.set_title("(a) ties added to one half of the judgments", fontsize=10)
    left.legend(fontsize=10, loc="lower left")
    right.plot(curve["judgments"], curve["spearman_mean"], marker="o", label="mean Spearman")
    right.plot(curve["judgments"], curve["spearman_low"], linestyle=":", label="2.5% percentile")
    right.set_xlabel("judgments in each of two disjoint random subsets")
    right.set_ylabel("Spearman between the two BT rankings")
    right.set_title("(b) rankings from two disjoint subsets", fontsize=10)
    right.legend(fontsize=10, loc="lower right")
    fig.tight_layout()
    return fig
