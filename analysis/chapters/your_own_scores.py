"""Chapter ``09_your_own_scores`` and ``python -m analysis compare``: the comparison of one user's score file
(:mod:`analysis.compare`) as readable tables and figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ..compare import MECHANISMS, Comparison
from ..data.scorefiles import read_scores
from ..paths import repo_root
from ..plotting import MECHANISM_COLORS, MECHANISM_LABELS
from .common import SEED, Param

CHAPTER = "09_your_own_scores"
#: this chapter's code is meant to be copied: the book shows it (every other chapter hides its code behind a toggle)
SHOW_CODE = True
PARAMETERS = {
    "scores_path": Param("str"),
    "format": Param("str", choices=("auto", "long", "wide", "mtme")),
    "where": Param("dict", optional=True),
    "align": Param("str", choices=("exact", "intersect")),
    "lower_is_better": Param("bool"),
    "ties": Param("str", choices=("half", "loss")),
    "seed": SEED,
    "n_resamples": Param("int", low=1, quick=200),
    "n_resamples_sequential": Param("int", low=1, quick=20),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
}
#: The example shipped with the repository (see examples/README.md for its provenance).
EXAMPLE = "examples/topicalchat_chrfpp.csv"


def load(path, fmt: str = "auto", *, where=None, align: str = "exact", lower_is_better: bool = False) -> pd.DataFrame:
    """:func:`~analysis.data.scorefiles.read_scores`, with a relative ``path`` read from the repository root."""
    path = Path(path)
    if not path.is_absolute():
        path = repo_root() / path
    return read_scores(path, fmt, where=where, align=align, lower_is_better=lower_is_better)


def disagreement_text(comparison: Comparison) -> str:
    """One sentence on how often the mechanisms pick a different best system on this data."""
    d = comparison.disagreement
    best = {m: comparison.systems[m].idxmax() for m in MECHANISMS}
    differing = int(d["top1_differs"].sum())
    names = ", ".join(f"{MECHANISM_LABELS[m]}: {s}" for m, s in best.items())
    return (f"The best system by each mechanism — {names}. {differing} of {len(d)} pairs of mechanisms disagree on "
            f"the best system and {int(d['top3_differs'].sum())} on the top-3 set; on average they order "
            f"{d['disagree'].mean():.0%} of the system pairs differently.")


def ranking_table(comparison: Comparison, digits: int = 3) -> pd.DataFrame:
    """One row per system, sorted by BT: each mechanism's score with its interval, and the rank under each."""
    systems = comparison.systems.sort_values("bt", ascending=False)
    table = pd.DataFrame(index=systems.index)
    for name in MECHANISMS:
        est, low, high = (systems[c].round(digits) for c in (name, f"{name}_low", f"{name}_high"))
        table[MECHANISM_LABELS[name]] = [f"{e:g} [{lo:g}, {hi:g}]" for e, lo, hi in zip(est, low, high)]
    ranks = systems[[f"{m}_rank" for m in MECHANISMS]].astype(int)
    table["ranks (MEAN/MEDIAN/BT/Elo/TS)"] = ranks.astype(str).agg("/".join, axis=1)
    return table


def stability_summary(comparison: Comparison) -> pd.DataFrame:
    """Per mechanism: which system was removed (best, worst) and how many pairs of the others changed order."""
    s = comparison.stability.copy()
    s["result"] = [f"{r.system}: {r.pairs_reordered} of {r.pairs} pairs reordered" for r in s.itertuples()]
    out = s.pivot(index="mechanism", columns="removed", values="result").reindex(list(MECHANISMS))
    return out.rename(index=MECHANISM_LABELS, columns={"best": "remove the best", "worst": "remove the worst"})


def plot_mechanisms(comparison: Comparison) -> plt.Figure:
    """One panel per mechanism: each system's score with its 95% interval, systems in BT order."""
    systems = comparison.systems.sort_values("bt")
    fig, axes = plt.subplots(1, len(MECHANISMS), figsize=(3.1 * len(MECHANISMS), 1.8 + 0.4 * len(systems)),
                             sharey=True)
    y = np.arange(len(systems))
    for ax, name in zip(axes, MECHANISMS):
        # an interval as a segment: a percentile interval need not contain the estimate (Elo and TrueSkill replay
        # resampled games in another order than the file's)
        ax.hlines(y, systems[f"{name}_low"], systems[f"{name}_high"], color=MECHANISM_COLORS[name], lw=1.5)
        ax.plot(systems[name], y, "o", ms=5, color=MECHANISM_COLORS[name])
        ax.set_title(MECHANISM_LABELS[name])
        ax.set_yticks(y, systems.index)
    axes[0].set_ylabel("system (sorted by BT)")
    fig.suptitle("Each mechanism's score with its 95% bootstrap interval over test instances")
    fig.tight_layout()
    return fig


def plot_prob(comparison: Comparison, alpha: float = 0.05) -> plt.Figure:
    """P(row beats column) on the test instances (ties as half), * sign test, † Wilcoxon, p < alpha."""
    order = comparison.systems.sort_values("bt", ascending=False).index
    prob = comparison.prob.loc[order, order]
    annot = comparison.marked_prob(alpha).loc[order, order]
    n = len(order)
    fig, ax = plt.subplots(figsize=(3 + 0.8 * n, 2 + 0.6 * n))
    sns.heatmap(prob.astype(float), annot=annot, fmt="", cmap="vlag", center=0.5, vmin=0, vmax=1, ax=ax,
                annot_kws={"fontsize": 9}, cbar_kws={"label": "share of instances the row system wins"})
    ax.set(title=f"P(row > column), ties as half\n* sign test, † Wilcoxon: p < {alpha}", xlabel="", ylabel="")
    ax.grid(False)
    return fig
