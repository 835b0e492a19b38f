"""Chapter ``04_favoritism``'s figures — Figs. 4-6, the case figures (Fig. 1, Figs. 8-13: two win graphs, drawn by
:mod:`.wingraphs`, and the per-system Φ) and beyond the paper the observed against the no-favoritism |Φ| — laid out
for the book's text column (at most ~9.5 in wide, text of at least 8 pt); and the settings' names in words."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from ... import favi
from ..common import metric_label
from .experiments import DATASETS, dataset_label, setting_table
from .wingraphs import FONT, NOT_IMPLIED, draw_win_graph, layout_win_graph, text_size

COLORS = {"sample": "#DD8452", "system": "#4C72B0", "favi": "#55A868", "null": "#8C8C8C"}
#: the widest figure the book shows without shrinking it below 55% of its width (inches at 150 dpi)
MAX_WIDTH = 9.1


# -- Fig. 4 --------------------------------------------------------------------------------------------------------

def fig4_columns(counts: list[int]) -> int:
    """Where Fig. 4's panels (one per dataset, ``counts[k]`` raters each, in order) are split into a left and a
    right column of the figure: the number of datasets on the left that makes the taller column shortest (each panel
    costs its raters plus two rows for its title and axis). One dataset: one column."""
    if len(counts) < 2:
        return len(counts)
    cost = [c + 2 for c in counts]
    return min(range(1, len(counts)), key=lambda k: (max(sum(cost[:k]), sum(cost[k:])), k))


def plot_fig4(summary: pd.DataFrame) -> plt.Figure:
    """Fig. 4 as rows: per dataset (a panel) and automatic rater (a row), on the left the sample-level (orange
    circle) and system-level (blue square) sign accuracy on their 0-1 axis, on the right mean |Φ| (green triangle)
    with ± its sd over pairs (green bar) on its own axis; grey ticks: the mean |Φ| of a metric with the same errors
    and no favoritism (beyond the paper). The paper draws the same values as lines over the metrics of each domain.
    Panels are laid out in inches, in two columns (:func:`fig4_columns`), each with its own tick labels."""
    datasets = list(dict.fromkeys(summary["dataset"]))
    counts = [int(summary["dataset"].eq(d).sum()) for d in datasets]
    split = fig4_columns(counts)
    columns = [datasets[:split], datasets[split:]] if split < len(datasets) else [datasets]
    row, title_h, gap, axis_h, legend_h, between = 0.24, 0.3, 0.16, 0.48, 0.65, 0.32
    labels_w = max(text_size(metric_label(r), FONT)[0] for r in summary["rater"]) + 0.15
    column_w = (MAX_WIDTH - 0.1) / len(columns) if len(columns) == 2 else 6.0
    inner = column_w - labels_w - 0.3 - between
    accuracy_w, favi_w = 0.45 * inner, 0.55 * inner
    heights = [sum(title_h + row * counts[datasets.index(d)] + 0.1 + axis_h + gap for d in col) for col in columns]
    width, height = column_w * len(columns), legend_h + max(heights)
    top = min(2.05, max(1.05, float((summary["mean_abs_favi"] + summary["sd_abs_favi"]).max()) + 0.05))
    fig = plt.figure(figsize=(width, height))
    for c, col in enumerate(columns):
        y = height - legend_h
        for dataset in col:
            h = row * counts[datasets.index(dataset)] + 0.1
            y -= title_h + h
            left = c * column_w + labels_w
            accuracy = fig.add_axes([left / width, y / height, accuracy_w / width, h / height])
            spread = fig.add_axes([(left + accuracy_w + between) / width, y / height, favi_w / width, h / height],
                                  sharey=accuracy)
            y -= axis_h + gap
            _fig4_panel(accuracy, spread, summary[summary["dataset"] == dataset], top)
    handles = [Line2D([], [], marker="o", ls="", color=COLORS["sample"], label="sample-level sign accuracy"),
               Line2D([], [], marker="s", ls="", color=COLORS["system"], label="system-level sign accuracy"),
               Line2D([], [], marker="^", ls="-", color=COLORS["favi"], label="mean |Φ| ± sd over pairs"),
               Line2D([], [], marker="|", ls="", ms=10, mew=2, color=COLORS["null"],
                      label="mean |Φ| without favoritism")]
    fig.legend(handles=handles, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.0), frameon=False,
               fontsize=FONT)
    return fig


#: the tie shares of :func:`plot_fig4_ties`: column, label, colour, marker
TIE_SERIES = (("humans", "humans tie", "#8C8C8C", "o"), ("metric", "metric ties", "#8172B3", "s"),
              ("both", "both tie (a matching tie)", "#000000", "x"))


def plot_fig4_ties(page: pd.DataFrame) -> plt.Figure:
    """Fig. 4's settings with their ties (``page``: :func:`.tables.fig4_ties_page`, one row per setting): (a) how
    often the humans, the metric and both tie; (b) sample-level accuracy without credit for matching ties (open
    circle) and with it, as Def. 11 counts (filled), joined by a line: the gap is the matching ties' credit."""
    names = list(page.index)
    y = np.arange(len(names))[::-1].astype(float)
    labels_w = max(text_size(n, FONT)[0] for n in names) + 0.2
    width, height = 8.4, 0.26 * len(names) + 1.6
    fig, (a, b) = plt.subplots(1, 2, figsize=(width, height), sharey=True,
                               gridspec_kw={"left": labels_w / width, "right": 0.98, "wspace": 0.08,
                                            "bottom": 1.15 / height, "top": 1 - 0.35 / height})
    for column, label, colour, marker in TIE_SERIES:
        a.plot(page[("ties", column)].to_numpy(), y, marker, color=colour, ms=5, ls="", label=label)
    without = page[("sample-level accuracy", "without tie credit")].to_numpy()
    with_credit = page[("sample-level accuracy", "Def. 11")].to_numpy()
    b.hlines(y, without, with_credit, color=COLORS["sample"], lw=1.5)
    b.plot(without, y, "o", mfc="white", mec=COLORS["sample"], ms=5, ls="", label="without tie credit")
    b.plot(with_credit, y, "o", color=COLORS["sample"], ms=5, ls="", label="with it (Def. 11)")
    a.set_yticks(y, names, fontsize=FONT)
    for ax, title, xlabel in ((a, "(a) ties", "share of comparisons"),
                              (b, "(b) sample-level sign accuracy", "accuracy")):
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.7, len(names) - 0.3)
        ax.set_title(title, fontsize=FONT + 1)
        ax.set_xlabel(xlabel, fontsize=FONT)
        ax.tick_params(axis="x", labelsize=FONT)
    handles = a.get_legend_handles_labels()[0] + b.get_legend_handles_labels()[0]
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, fontsize=FONT)
    return fig


def _fig4_panel(accuracy, spread, part: pd.DataFrame, top: float) -> None:
    """One dataset of :func:`plot_fig4`: a row per rater, first rater on top; the two sign accuracies on the left
    axis (0 to 1), mean |Φ| with its sd and the no-favoritism tick on the right one (0 to ``top``)."""
    y = np.arange(len(part))[::-1].astype(float)
    low = np.clip(part["mean_abs_favi"] - part["sd_abs_favi"], 0, None)
    spread.hlines(y, low, part["mean_abs_favi"] + part["sd_abs_favi"], color=COLORS["favi"], lw=2.5, alpha=0.35)
    spread.plot(part["null_mean_abs_favi"], y, "|", color=COLORS["null"], ms=7, mew=2)
    spread.plot(part["mean_abs_favi"], y, "^", color=COLORS["favi"], ms=5)
    # the two accuracies a little apart, so that close values stay visible
    accuracy.plot(part["system_accuracy"], y + 0.12, "s", color=COLORS["system"], ms=5)
    accuracy.plot(part["sample_accuracy"], y - 0.12, "o", color=COLORS["sample"], ms=5)
    accuracy.set_yticks(y, [metric_label(r) for r in part["rater"]], fontsize=FONT)
    accuracy.set_ylim(-0.6, len(part) - 0.4)
    accuracy.set_xlim(0, 1)
    accuracy.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])
    spread.set_xlim(0, top)
    ticks = [t for t in (0, 0.5, 1, 1.5, 2) if t <= top]
    spread.set_xticks(ticks, [f"{t:g}" for t in ticks])
    spread.tick_params(axis="y", left=False, labelleft=False)
    for ax, label in ((accuracy, "sign accuracy"), (spread, "mean |Φ|")):
        ax.tick_params(axis="x", labelsize=FONT, pad=2)
        ax.set_xlabel(label, fontsize=FONT, labelpad=1)
    aspect = part["aspect"].iloc[0]
    accuracy.set_title(dataset_label(part["dataset"].iloc[0])
                       + ("" if aspect in ("MQM", "USR_Overall") else f", {aspect_label(aspect)}"),
                       fontsize=FONT + 1, loc="left", pad=3)


def setting_name(dataset: str, rater: str) -> str:
    """``rater`` on ``dataset`` in words: "COMET-22 on WMT22 zh-en" (the rater as
    :func:`~analysis.chapters.common.metric_label` writes it: ROUGE_L → ROUGE-L)."""
    return f"{metric_label(rater)} on {dataset_label(dataset)}"


def setting_index(frame: pd.DataFrame) -> pd.Index:
    """The settings of ``frame``'s rows in words (:func:`setting_name`), as a row index."""
    return pd.Index(list(map(setting_name, frame["dataset"], frame["rater"])), name="setting")


def aspect_label(aspect: str) -> str:
    """A human rating's name for a reader: expert_consistency → experts' consistency, USR_Overall → overall."""
    if aspect.startswith("expert_"):
        return f"experts' {aspect.removeprefix('expert_')}"
    return {"USR_Overall": "overall"}.get(aspect, aspect.replace("_", " "))


# -- Fig. 5 --------------------------------------------------------------------------------------------------------

def plot_fig5(pairs: pd.DataFrame) -> plt.Figure:
    """Fig. 5, the paper's two panels side by side (the paper stacks them): (a) |Φ| of pairs whose margin signs agree
    (1) or not (0); (b) Φ against sample-level accuracy, coloured by the pair's system-level agreement."""
    defined = pairs[pairs["total_error"] > 0].assign(abs_favi=lambda f: f["favi"].abs(),
                                                     agrees=lambda f: f["system_sign_agrees"].astype(int))
    fig, (upper, lower) = plt.subplots(1, 2, figsize=(MAX_WIDTH, 4.2), gridspec_kw={"width_ratios": [1, 1.15]})
    sns.boxplot(data=defined, y="agrees", x="abs_favi", ax=upper, color="#a6c8e0", fliersize=2, orient="h",
                order=[0, 1])
    counts = defined["agrees"].value_counts()
    upper.set_yticks([0, 1], [f"0: signs differ\n({counts.get(0, 0):,} pairs)",
                              f"1: signs agree\n({counts.get(1, 0):,} pairs)"])
    upper.set_ylabel("")
    upper.set_xlabel("|Φ| of the pair")
    upper.set_title("(a) |Φ| by system-level sign agreement", fontsize=FONT + 2, loc="left")
    for agrees, color in ((1, COLORS["system"]), (0, NOT_IMPLIED)):
        part = defined[defined["agrees"] == agrees]
        lower.scatter(part["sample_accuracy"], part["favi"], s=8, alpha=0.5, color=color,
                      label="signs agree" if agrees else "signs differ")
    lower.axhline(0, color="black", lw=0.6)
    lower.set_xlabel("sample-level sign accuracy of the pair")
    lower.set_ylabel("Φ (+: favours the first system)")
    lower.set_title("(b) Φ against sample-level accuracy", fontsize=FONT + 2, loc="left")
    lower.legend(fontsize=FONT, markerscale=2, loc="lower center", bbox_to_anchor=(0.5, 1.07), ncol=2,
                 frameon=False, borderaxespad=0)
    fig.tight_layout(w_pad=2.5)
    return fig


# -- Fig. 6 and the case figures (Fig. 1, Figs. 8-13) ------------------------------------------------------------------

def plot_one_vs_all(ax, table: pd.DataFrame, title: str = "") -> None:
    """Fig. 6: each system's Φ against every other system (positive: the metric favours it), systems sorted by
    their median Φ, most favoured on top."""
    long = favi.one_vs_all(table).dropna(subset=["favi"])
    order = long.groupby("system")["favi"].median().sort_values(ascending=False).index.tolist()
    sns.boxplot(data=long, y="system", x="favi", order=order, ax=ax, color="#b5d9b0", fliersize=2, orient="h")
    ax.axvline(0, color="black", lw=0.7)
    ax.set_xlabel("Φ (+: favoured by the metric)", fontsize=FONT)
    ax.set_ylabel("")
    ax.tick_params(labelsize=FONT)
    ax.set_title(title, fontsize=FONT + 1, loc="left")


def plot_fig6(pairs: pd.DataFrame, cases: list[tuple[str, str, str]]) -> plt.Figure:
    """Fig. 6 for each case, one panel per row on a shared Φ axis."""
    tables = [setting_table(pairs, *case) for case in cases]
    systems = [len(set(t["system_a"]) | set(t["system_b"])) for t in tables]
    fig, axes = plt.subplots(len(cases), 1, figsize=(6.4, sum(0.27 * n + 0.9 for n in systems)), squeeze=False,
                             sharex=True, gridspec_kw={"height_ratios": systems})
    for ax, table, (dataset, _, rater) in zip(axes[:, 0], tables, cases):
        plot_one_vs_all(ax, table, setting_name(dataset, rater))
    for ax in axes[:-1, 0]:
        ax.set_xlabel("")
    fig.tight_layout()
    return fig


def plot_case(table: pd.DataFrame, *, rater: str, aspect: str, alpha: float = 0.05, ties: str = "drop",
              per_system: bool = True) -> plt.Figure:
    """The paper's case figures (Fig. 1 and Figs. 8-13): (a) the humans' win graph, (b) the metric's (red and
    dashed: a win the humans' graph does not imply), side by side when they fit and one under the other otherwise;
    with ``per_system``, (c) the per-system Φ box plots to their right (below them when there is no room). The
    numbers of the paper's figure titles are in the caption (:func:`.experiments.case_numbers`)."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    human = favi.win_graph(outcomes, "human")
    graphs = [(human, None, f"(a) humans: {aspect_label(aspect)}"),
              (favi.win_graph(outcomes, "metric"), human, f"(b) {metric_label(rater)}")]
    layouts = [layout_win_graph(g) for g, _, _ in graphs]
    title_h, sep = 0.32, 0.4
    labels_w = max(text_size(str(n), FONT)[0] for n in human.nodes) + 0.2
    panel_w = labels_w + 2.4 if per_system else 0.0
    pair_w = sum(lay.width for lay in layouts) + sep
    right = per_system and max(lay.width for lay in layouts) + sep + panel_w <= MAX_WIDTH
    beside = sep + panel_w if right else 0.0  # the room the box plots take to the right of the graphs
    side = pair_w + beside <= MAX_WIDTH
    graphs_w = pair_w if side else max(lay.width for lay in layouts)
    graphs_h = (max(lay.height for lay in layouts) + title_h if side
                else sum(lay.height + title_h for lay in layouts) + 0.15)
    box_h = 0.27 * len(human) + 0.4
    if right:  # as tall as the graphs beside it, up to 0.4 in per system
        box_h = max(box_h, min(0.4 * len(human), graphs_h - title_h - 0.6))
    width = max(6.4, graphs_w + beside)
    legend_h = 0.4 if width >= 7.4 else 0.6
    below = box_h + title_h + 0.6 if per_system and not right else 0.0
    height = legend_h + max(graphs_h, box_h + title_h + 0.6 if right else 0.0) + below
    fig = plt.figure(figsize=(width, height))

    def axes(left, bottom, w, h):  # inches from the figure's lower left corner
        return fig.add_axes([left / width, bottom / height, w / width, h / height])

    left0 = (width - graphs_w - beside) / 2
    for k, ((graph, reference, title), lay) in enumerate(zip(graphs, layouts)):
        if side:
            left = left0 + k * (layouts[0].width + sep) + (0 if k else (layouts[0].width - lay.width) / 2)
            top = height - legend_h
        else:
            left = left0 + (graphs_w - lay.width) / 2
            top = height - legend_h - sum(la.height + title_h + 0.15 for la in layouts[:k])
        draw_win_graph(axes(left, top - title_h - lay.height, lay.width, lay.height), graph, reference=reference,
                       title=title, layout=lay)
    handles = [Line2D([], [], color="#555555", label="A → B: A wins significantly more often"),
               Line2D([], [], color=NOT_IMPLIED, ls="--", label="a metric's win the humans' graph does not imply")]
    fig.legend(handles=handles, loc="upper center", ncol=2 if width >= 7.4 else 1, bbox_to_anchor=(0.5, 1.0),
               frameon=False, fontsize=FONT, handlelength=2.5)
    if per_system:
        if right:
            left, bottom = left0 + graphs_w + sep + labels_w, height - legend_h - title_h - box_h
        else:
            left, bottom = (width - panel_w) / 2 + labels_w, 0.6
        ax = axes(left, bottom, panel_w - labels_w, box_h)
        plot_one_vs_all(ax, table, "(c) Φ of each system against\nevery other" if right else
                        "(c) Φ of each system against every other")
    return fig


# -- beyond the paper: how much of |Φ| is noise ----------------------------------------------------------------------

def plot_noise(summary: pd.DataFrame) -> plt.Figure:
    """Observed mean |Φ| per setting against the mean |Φ| of a metric with the same errors and no favoritism."""
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    palette = dict(zip(DATASETS, sns.color_palette("colorblind", len(DATASETS))))
    markers = dict(zip(DATASETS, "osD^vP"))  # colour and shape: SummEval's and PersonaChat's colours are close
    for dataset, part in summary.groupby("dataset", sort=False):
        ax.scatter(part["null_mean_abs_favi"], part["mean_abs_favi"], s=24, color=palette[dataset],
                   marker=markers[dataset], label=dataset_label(dataset))
    right = float(np.nanmax(summary["null_mean_abs_favi"])) * 1.1
    top = float(np.nanmax(summary["mean_abs_favi"])) * 1.05
    ax.plot([0, right], [0, right], color="black", lw=0.8, ls="--", label="observed = expected")
    ax.set_xlim(0, right)
    ax.set_ylim(0, top)
    ax.set_xlabel("mean |Φ| expected without favoritism")
    ax.set_ylabel("observed mean |Φ|")
    ax.legend(fontsize=FONT, loc="upper left")
    fig.tight_layout()
    return fig
