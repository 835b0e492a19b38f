"""Chapter ``04_favoritism``'s figures: Fig. 4 (sign accuracies and mean |Φ| per rater), Fig. 5 (Φ against
agreement and accuracy), Fig. 6 (Φ per system), the win-graph drawing and the case figures built on it (Fig. 1 and
Figs. 8-13), and beyond the paper the observed against the no-favoritism |Φ|."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ... import favi
from .experiments import DATASETS, dataset_label, setting_table

COLORS = {"sample": "#DD8452", "system": "#4C72B0", "favi": "#55A868", "null": "#8C8C8C"}


# -- Fig. 4 --------------------------------------------------------------------------------------------------------

def plot_fig4(summary: pd.DataFrame) -> plt.Figure:
    """Fig. 4: per dataset (a panel; machine translation on top) and rater, sample-level (orange) and system-level
    (blue) sign accuracy and mean |Φ| ± sd (green band); grey dashes: the mean |Φ| of a metric with the same
    errors and no favoritism (beyond the paper)."""
    datasets = list(dict.fromkeys(summary["dataset"]))
    domains = list(dict.fromkeys(summary["domain"]))
    rows = [[d for d in datasets if summary.loc[summary["dataset"] == d, "domain"].iloc[0] == domains[0]],
            [d for d in datasets if summary.loc[summary["dataset"] == d, "domain"].iloc[0] != domains[0]]]
    rows = [r for r in rows if r]
    widths = {d: max(3, int(summary["dataset"].eq(d).sum())) for d in datasets}
    span = max(sum(widths[d] for d in r) for r in rows)
    top = min(2.05, max(1.05, float((summary["mean_abs_favi"] + summary["sd_abs_favi"]).max()) + 0.05))
    fig = plt.figure(figsize=(2.0 + 0.62 * span, 4.3 * len(rows)))
    grid = fig.add_gridspec(len(rows), span, hspace=0.9, wspace=2.5)
    axes = []
    for r, row in enumerate(rows):
        start = 0
        for dataset in row:
            ax = fig.add_subplot(grid[r, start:start + widths[dataset]])
            start += widths[dataset]
            axes.append(ax)
            part = summary[summary["dataset"] == dataset]
            x = np.arange(len(part))
            ax.plot(x, part["sample_accuracy"], "o-", color=COLORS["sample"], label="sample-level sign accuracy")
            ax.plot(x, part["system_accuracy"], "s-", color=COLORS["system"], label="system-level sign accuracy")
            ax.plot(x, part["mean_abs_favi"], "^-", color=COLORS["favi"], label="mean |Φ| (band: ± sd over pairs)")
            ax.fill_between(x, part["mean_abs_favi"] - part["sd_abs_favi"],
                            part["mean_abs_favi"] + part["sd_abs_favi"], color=COLORS["favi"], alpha=0.2, lw=0)
            ax.plot(x, part["null_mean_abs_favi"], "_--", color=COLORS["null"], ms=10,
                    label="mean |Φ| expected without favoritism")
            ax.set_xticks(x, part["rater"], rotation=60, ha="right", fontsize=8)
            aspect = part["aspect"].iloc[0]
            ax.set_title(dataset_label(dataset) + ("" if aspect in ("MQM", "USR_Overall") else f" ({aspect})"),
                         fontsize=10)
            ax.set_xlim(-0.5, len(part) - 0.5)
            ax.set_ylim(0, top)
    for ax in axes:
        if ax.get_subplotspec().colspan.start == 0:
            ax.set_ylabel("accuracy / mean |Φ|")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, bbox_to_anchor=(0.5, 0.97), frameon=False, fontsize=9)
    return fig


# -- Fig. 5 --------------------------------------------------------------------------------------------------------

def plot_fig5(pairs: pd.DataFrame) -> plt.Figure:
    """Fig. 5: (a) |Φ| of pairs whose margin signs agree (1) or not (0); (b) Φ against sample-level accuracy,
    coloured by system-level agreement."""
    defined = pairs[pairs["total_error"] > 0].assign(abs_favi=lambda f: f["favi"].abs(),
                                                     agrees=lambda f: f["system_sign_agrees"].astype(int))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    sns.boxplot(data=defined, x="agrees", y="abs_favi", ax=left, color="#a6c8e0", fliersize=2)
    counts = defined["agrees"].value_counts()
    left.set_xticks([0, 1], [f"0: signs differ\n({counts.get(0, 0)} pairs)", f"1: signs agree\n({counts.get(1, 0)} pairs)"])
    left.set_xlabel("system-level sign agreement of the pair")
    left.set_ylabel("|Φ|")
    left.set_title("(a) |Φ| by system-level agreement", fontsize=10)
    for agrees, color in ((1, COLORS["system"]), (0, "#C44E52")):
        part = defined[defined["agrees"] == agrees]
        right.scatter(part["sample_accuracy"], part["favi"], s=8, alpha=0.5, color=color,
                      label="signs agree" if agrees else "signs differ")
    right.axhline(0, color="black", lw=0.6)
    right.set_xlabel("sample-level sign accuracy of the pair")
    right.set_ylabel("Φ (positive: favours the lexicographically first system)")
    right.set_title("(b) Φ vs. sample-level accuracy", fontsize=10)
    right.legend(fontsize=8, markerscale=2)
    fig.tight_layout()
    return fig


# -- Fig. 6 and the case figures (Fig. 1, Figs. 8-13) ------------------------------------------------------------------

def plot_one_vs_all(ax, table: pd.DataFrame, title: str = "") -> None:
    """Fig. 6: each system's Φ against every other system (positive: the metric favours it), systems sorted by
    their median Φ, most favoured on top."""
    long = favi.one_vs_all(table).dropna(subset=["favi"])
    order = long.groupby("system")["favi"].median().sort_values(ascending=False).index.tolist()
    sns.boxplot(data=long, y="system", x="favi", order=order, ax=ax, color="#b5d9b0", fliersize=2, orient="h")
    ax.axvline(0, color="black", lw=0.7)
    ax.set_xlabel("Φ (positive: favoured by the metric)")
    ax.set_ylabel("")
    ax.tick_params(axis="y", labelsize=8)
    ax.set_title(title, fontsize=10)


def plot_fig6(pairs: pd.DataFrame, cases: list[tuple[str, str, str]]) -> plt.Figure:
    fig, axes = plt.subplots(1, len(cases), figsize=(5.6 * len(cases), 5.2), squeeze=False)
    for ax, (dataset, aspect, rater) in zip(axes[0], cases):
        plot_one_vs_all(ax, setting_table(pairs, dataset, aspect, rater), f"{rater} on {dataset_label(dataset)}")
    fig.tight_layout()
    return fig


def draw_win_graph(ax, graph, reference=None, title: str = "") -> None:
    """A win graph drawn top-down in layers (:func:`analysis.favi.graph_layers`); with a ``reference`` graph (the
    humans'), edges that contradict or are absent from its transitive closure are drawn in red."""
    import networkx as nx

    layers = favi.graph_layers(graph)
    pos = {}
    for row, members in enumerate(layers):
        for k, node in enumerate(members):
            pos[node] = ((k - (len(members) - 1) / 2) * 2.4, -row)
    closure = nx.transitive_closure(reference) if reference is not None else None
    colors = ["#C44E52" if closure is not None and not closure.has_edge(u, v) else "#555555"
              for u, v in graph.edges]
    nx.draw_networkx_edges(graph, pos, ax=ax, edge_color=colors, arrows=True, arrowsize=10, width=1.0,
                           node_size=1400, connectionstyle="arc3,rad=0.06")
    for node, (x, y) in pos.items():
        ax.text(x, y, str(node), ha="center", va="center", fontsize=7,
                bbox={"boxstyle": "round,pad=0.3", "fc": "#eef3fa", "ec": "#4C72B0", "lw": 0.8})
    width = max((len(m) for m in layers), default=1)
    ax.set_xlim(-1.2 * width - 0.6, 1.2 * width + 0.6)
    ax.set_ylim(-len(layers) + 0.5, 0.6)
    ax.set_axis_off()
    ax.set_title(title + (" (contains a cycle: no edge removed)" if graph.graph.get("cyclic") else ""), fontsize=10)


def plot_case(table: pd.DataFrame, *, rater: str, aspect: str, dataset: str, alpha: float = 0.05,
              ties: str = "drop") -> plt.Figure:
    """The paper's case figures (Fig. 1 and Figs. 8-13): (a) the humans' win graph, (b) the metric's (red: an
    edge the humans' graph does not imply), (c) the per-system Φ box plots."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    human, metric = favi.win_graph(outcomes, "human"), favi.win_graph(outcomes, "metric")
    layers = max(len(favi.graph_layers(human)), len(favi.graph_layers(metric)))
    fig, axes = plt.subplots(1, 3, figsize=(17, max(4.0, 0.75 * layers + 1.5)),
                             gridspec_kw={"width_ratios": [1.15, 1.15, 0.8]})
    draw_win_graph(axes[0], human, title=f"(a) humans ({aspect})")
    draw_win_graph(axes[1], metric, reference=human, title=f"(b) {rater}")
    plot_one_vs_all(axes[2], table, f"(c) Φ per system ({rater})")
    accuracy = favi.sign_accuracies(table)
    fig.suptitle(f"{dataset_label(dataset)}: sign test at {1 - alpha:.0%}, ties {ties}; verdicts agree on "
                 f"{favi.graph_agreement(outcomes):.1%} of pairs; system-level sign accuracy {accuracy.system:.3f}, "
                 f"sample-level {accuracy.sample:.3f}, mean |Φ| {table['favi'].abs().mean():.3f}", fontsize=10)
    fig.tight_layout()
    return fig


# -- beyond the paper: how much of |Φ| is noise ----------------------------------------------------------------------

def plot_noise(summary: pd.DataFrame) -> plt.Figure:
    """Observed mean |Φ| per setting against the mean |Φ| of a metric with the same errors and no favoritism."""
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    palette = dict(zip(DATASETS, sns.color_palette("colorblind", len(DATASETS))))
    for dataset, part in summary.groupby("dataset", sort=False):
        ax.scatter(part["null_mean_abs_favi"], part["mean_abs_favi"], s=22, color=palette[dataset],
                   label=dataset_label(dataset))
    top = float(np.nanmax(summary[["null_mean_abs_favi", "mean_abs_favi"]].to_numpy())) * 1.05
    ax.plot([0, top], [0, top], color="black", lw=0.8, ls="--", label="no favoritism beyond noise")
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("mean |Φ| expected without favoritism (sign-flip null)")
    ax.set_ylabel("observed mean |Φ|")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
