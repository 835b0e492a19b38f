"""The synthesis chapter's figures: one per study."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...plotting import MECHANISM_COLORS, MECHANISM_LABELS
from .ties import POLICIES
from .wmt_pairs import EXPERIMENT_LABELS

#: label offsets (points) and alignment: Elo and TrueSkill often sit close together, so Elo's label goes below-left
LABEL_AT = {"elo": ((-6, -13), "right"), "trueskill": ((6, 4), "left"), "median": ((6, -13), "left")}
POLICY_COLORS = {"half": "#1b9e77", "drop": "#7570b3", "loss": "#d95f02"}
POLICY_SHORT = {"half": "tie = half a win", "drop": "ties dropped", "loss": "tie = win for later system"}
#: each policy's line and marker, so that curves lying on top of each other stay visible: the one drawn last
#: (dashed, hollow markers) leaves the one below it showing through
POLICY_STYLE = {"half": {"linestyle": "-", "marker": "o", "ms": 6, "lw": 2.4},
                "drop": {"linestyle": "--", "marker": "s", "ms": 5, "lw": 1.6, "mfc": "white"},
                "loss": {"linestyle": ":", "marker": "^", "ms": 5, "lw": 1.8}}


def plot_tradeoff(table: pd.DataFrame) -> plt.Figure:
    """(a) reordering after removing a system against τ to the latent ranking; (b) against the τ lost to outliers."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.6), sharex=True)
    for ax, column, title in ((axes[0], "tau_clean", "(a) agreement with the truth"),
                              (axes[1], "tau_drop", "(b) τ lost to adversarial outliers")):
        for row in table.itertuples():
            ax.scatter(row.reordered_any, getattr(row, column), s=60, color=MECHANISM_COLORS[row.mechanism],
                       marker="s" if row.scores_alone else "o", zorder=3)
            offset, align = LABEL_AT.get(row.mechanism, ((6, 4), "left"))
            ax.annotate(MECHANISM_LABELS[row.mechanism], (row.reordered_any, getattr(row, column)),
                        xytext=offset, textcoords="offset points", fontsize=10, ha=align)
        ax.margins(y=0.15)
        ax.set_title(title, fontsize=11)
        ax.set_xlabel("setups reordered by removing\nthe best or the worst system")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("Kendall τ to the latent ranking\n(simulation, no outliers)")
    axes[1].set_ylabel("τ without − τ with outliers\n(lower is more robust)")
    axes[0].set_xlim(-0.05, 1.0)
    fig.tight_layout()
    return fig


def plot_wmt(summary: pd.DataFrame) -> plt.Figure:
    """Share of language pairs (draws for the null) whose remaining order changes, per perturbation and mechanism."""
    experiments = [e for e in EXPERIMENT_LABELS if e in set(summary["experiment"])]
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    x = np.arange(len(experiments))
    colors = {"z": "#888888", "bt": MECHANISM_COLORS["bt"]}
    labels = {"z": "z-score means (official)", "bt": "BT on paired preferences"}
    for k, mech in enumerate(("z", "bt")):
        values = summary.set_index(["experiment", "mechanism"])["reordered"]
        heights = [values.get((e, mech), np.nan) for e in experiments]
        ax.bar(x + (k - 0.5) * 0.38, heights, width=0.38, color=colors[mech], label=labels[mech])
    ax.set_xticks(x, [EXPERIMENT_LABELS[e].replace(" removed", "\nremoved").replace(" (null)", "\n(null)")
                      for e in experiments], fontsize=10)
    ax.set_ylabel("share of rankings whose\nremaining order changes")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=10, loc="upper right", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    ax.xaxis.grid(False)
    fig.tight_layout()
    return fig


def plot_favoritism(summary: pd.DataFrame) -> plt.Figure:
    """Per mechanism: share of pairs the rater's ranking flips, among pairs with low and with high |Φ|."""
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    x = np.arange(len(summary))
    ax.bar(x - 0.19, summary["flipped_low_phi"], width=0.38, color="#bbbbbb", label="|Φ| at most the median")
    ax.bar(x + 0.19, summary["flipped_high_phi"], width=0.38, color="#444444", label="|Φ| above the median")
    ax.set_xticks(x, [MECHANISM_LABELS[m] for m in summary["mechanism"]], fontsize=10)
    ax.set_ylabel("system pairs the rater's\nranking orders differently")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=10, frameon=False, loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    ax.xaxis.grid(False)
    fig.tight_layout()
    return fig


def plot_ties(curves: pd.DataFrame, sweep: pd.DataFrame) -> plt.Figure:
    """(a) misplaced systems against comparisons per pair, per tie policy (mean over setups; dots: each setup at its
    12·m·ln m); (b) the tie-probability sweep at 12·m·ln m. Each policy has its own line style and marker
    (:data:`POLICY_STYLE`): half and dropped ties often give nearly the same curve."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.6))
    grid = curves[~curves["at_marker"] | curves.duplicated(["collection", "dataset", "metric", "ties", "comparisons"],
                                                           keep=False)]
    for ties in POLICIES:
        style = {"color": POLICY_COLORS[ties], **POLICY_STYLE[ties]}
        mean = grid[grid.ties == ties].groupby("comparisons")["misplaced_share"].mean()
        axes[0].plot(mean.index, mean.values, label=POLICY_SHORT[ties], **style)
        s = sweep[sweep.ties == ties].groupby("tie_probability")["misplaced_share"].mean()
        axes[1].plot(s.index, s.values, **style)
    at = curves[curves["at_marker"] & (curves["ties"] == "half")]
    axes[0].scatter(at["comparisons"], at["misplaced_share"], s=12, color="black", zorder=3,
                    label="each setup at 12·m·ln m")
    axes[0].set_xscale("log")
    axes[0].set_xlabel("comparisons per system pair")
    axes[0].set_title("(a) sample size", fontsize=11)
    axes[1].set_xlabel("probability a comparison is a tie")
    axes[1].set_title("(b) injected ties, 12·m·ln m", fontsize=11)
    for ax in axes:
        ax.set_ylabel("share of systems out of place")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    return fig
