"""The comparison's two figures, laid out for the book's text column whatever the number of systems (chapter
``09_your_own_scores`` shows them), and the files of ``python -m analysis compare --out``: the tables as CSV and the
figures as PNG and SVG."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

from ..plotting import MECHANISM_COLORS
from . import report
from .core import Comparison

#: the longest system name a figure prints (longer ones are cut, with an ellipsis; the tables keep them whole)
LABEL_CHARS = 18
#: the widest a figure may be, in inches (the book shows 768 px; 9.3 in at 150 dpi is the widest it shows at 55%)
MAX_WIDTH = 9.0


def short_name(name, limit: int = LABEL_CHARS) -> str:
    """A system name for a tick label: at most ``limit`` characters, cut with an ellipsis."""
    name = str(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def drawable(text: str) -> bool:
    """Whether the figure font (or its fallbacks) has a glyph for every character of ``text``."""
    return all(ord(ch) in _charmap() for ch in text)


def _charmap() -> set:
    global _CHARS
    if _CHARS is None:
        from matplotlib import font_manager
        from matplotlib.ft2font import FT2Font

        _CHARS = set()
        for family in plt.rcParams["font.sans-serif"][:6] + ["DejaVu Sans"]:
            try:
                path = font_manager.findfont(family, fallback_to_default=False)
            except ValueError:
                continue
            _CHARS |= set(FT2Font(path).get_charmap())
    return _CHARS


_CHARS = None


def tick_labels(order) -> list[str]:
    """Tick labels for systems in table order: the short name, or "#k" (its row in the table) for a name with a
    character no installed font can draw (CJK or emoji on a machine without such fonts)."""
    return [short_name(s) if drawable(short_name(s)) else f"#{k + 1}" for k, s in enumerate(order)]


def plot_mechanisms(comparison: Comparison) -> plt.Figure:
    """One row per mechanism (MEAN, MEDIAN, BT, Elo, TrueSkill), systems along x in BT order (best first): each
    system's score and its 95% bootstrap interval. The rows keep their height whatever the number of systems; the
    width grows with it up to :data:`MAX_WIDTH`, and system names are shortened and turned when there are many."""
    systems = comparison.systems.sort_values("bt", ascending=False)
    n = len(systems)
    width = float(np.clip(1.6 + 0.42 * n, 6.0, MAX_WIDTH))
    shown = report.present(comparison)
    fig, axes = plt.subplots(len(shown), 1, figsize=(width, 1.25 * len(shown) + 1.2), sharex=True)
    x = np.arange(n)
    for ax, name in zip(axes, shown):
        # every interval contains its estimate (Elo and TrueSkill: both averaged over random game orders)
        color = MECHANISM_COLORS.get(name, "#4C72B0")
        ax.vlines(x, systems[f"{name}_low"], systems[f"{name}_high"], color=color, lw=1.8)
        ax.plot(x, systems[name], "o", ms=5, color=color)
        ax.set_ylabel(report.LABELS[name], fontsize=10)
        ax.tick_params(axis="y", labelsize=9)
        ax.margins(x=0.5 / max(n, 1) + 0.02, y=0.15)
    labels = tick_labels(systems.index)
    turn = 0 if n <= 6 and max(len(s) for s in labels) <= 10 else 60
    axes[-1].set_xticks(x, labels, rotation=turn, ha="right" if turn else "center",
                        rotation_mode="anchor", fontsize=9)
    axes[-1].set_xlabel("system (best first by BT)")
    fig.align_ylabels(axes)
    fig.tight_layout(h_pad=0.6)
    return fig


def plot_prob(comparison: Comparison, alpha: float | None = None) -> plt.Figure:
    """P(row beats column) on the test instances (ties as half), * sign test, † Wilcoxon, p < alpha. The cells print
    their share while that stays legible (up to 10 systems), and only the test marks beyond; the figure's side
    grows with the number of systems up to :data:`MAX_WIDTH`."""
    alpha = comparison.settings.get("alpha", 0.05) if alpha is None else alpha
    order = comparison.systems.sort_values("bt", ascending=False).index
    prob = comparison.prob.loc[order, order]
    marks = comparison.marked_prob(alpha).loc[order, order]
    n = len(order)
    if n > 10:
        marks = marks.map(lambda v: v.lstrip("0123456789."))
    side = float(np.clip(1.2 + 0.62 * n, 3.5, MAX_WIDTH - 1.8))
    fig, ax = plt.subplots(figsize=(side + 1.8, side + 0.6))
    names = tick_labels(order)
    sns.heatmap(prob.astype(float).set_axis(names).set_axis(names, axis=1), annot=marks, fmt="", cmap="vlag",
                center=0.5, vmin=0, vmax=1, ax=ax, annot_kws={"fontsize": 9 if n <= 10 else 8}, square=True,
                cbar_kws={"label": "share of instances the row system wins", "shrink": 0.8})
    ax.set(xlabel="", ylabel="")
    ax.set_title(f"* sign test, † Wilcoxon: adjusted p < {alpha:g}", fontsize=10)
    ax.tick_params(labelsize=9)
    ax.tick_params(axis="y", labelrotation=0)
    if n > 6:
        ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    ax.grid(False)
    fig.tight_layout()
    return fig


def report_files(result: Comparison) -> dict:
    """The files of ``--out``: ``{file name: write(path)}``, the tables as CSV and the two figures as PNG and SVG
    (each writer names its format, so that it can fill a temporary file whose name ends in ``.part``). The command
    writes them together or not at all (:func:`analysis.files.write_together`)."""
    import matplotlib

    from ..plotting import set_theme
    from . import FRAMES

    matplotlib.use("Agg")
    frames = {name: getattr(result, name) for name in FRAMES}
    files = {f"{name}.csv": (lambda path, frame=frame: frame.to_csv(path, lineterminator="\n"))
             for name, frame in frames.items()}
    set_theme()
    for name, fig in (("mechanisms", plot_mechanisms(result)),
                      ("pairwise", plot_prob(result, result.settings.get("alpha", 0.05)))):
        files[f"{name}.png"] = lambda path, fig=fig: fig.savefig(path, format="png", metadata={"Software": None})
        files[f"{name}.svg"] = lambda path, fig=fig: fig.savefig(path, format="svg",
                                                                  metadata={"Date": None, "Creator": None})
    return files
