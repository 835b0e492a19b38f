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


def source_text(scores: pd.DataFrame, path, lower_is_better: bool = False) -> str:
    """What was read, in words: systems × instances, from the shipped example or the reader's own file."""
    where = "the shipped example" if Path(path).as_posix().endswith(EXAMPLE) else "your file"
    return (f"**{scores.shape[1]} systems × {scores.shape[0]:,} test instances** read from {where}"
            + (" (scores negated: lower was better)." if lower_is_better else "."))


def disagreement_text(comparison: Comparison) -> str:
    """One sentence on how often the mechanisms pick a different best system on this data."""
    d = comparison.disagreement
    best = {m: comparison.systems[m].idxmax() for m in MECHANISMS}
    differing = int(d["top1_differs"].sum())
    names = ", ".join(f"{MECHANISM_LABELS[m]}: {s}" for m, s in best.items())
    return (f"The best system by each mechanism — {names}. {differing} of {len(d)} pairs of mechanisms disagree on "
            f"the best system and {int(d['top3_differs'].sum())} on the top-3 set; on average they order "
            f"{d['disagree'].mean():.0%} of the system pairs differently.")


def decimals(values) -> int:
    """Decimals that give the largest of ``values`` three significant digits (Elo ~1500: 0; BT ~0.2: 3)."""
    largest = float(np.nanmax(np.abs(np.asarray(values, dtype=float)))) if len(values) else 0.0
    return int(np.clip(2 - np.floor(np.log10(largest)), 0, 6)) if largest > 0 else 3


def ranking_table(comparison: Comparison) -> pd.DataFrame:
    """One row per system, sorted by BT: each mechanism's score with its interval (three significant digits for the
    mechanism's largest score), and the rank under each."""
    systems = comparison.systems.sort_values("bt", ascending=False)
    table = pd.DataFrame(index=systems.index)
    for name in MECHANISMS:
        est, low, high = (systems[c] for c in (name, f"{name}_low", f"{name}_high"))
        k = decimals(est)
        table[MECHANISM_LABELS[name]] = [f"{e:.{k}f} [{lo:.{k}f}, {hi:.{k}f}]" for e, lo, hi in zip(est, low, high)]
    ranks = systems[[f"{m}_rank" for m in MECHANISMS]].astype(int)
    table["ranks (MEAN/MEDIAN/BT/Elo/TS)"] = ranks.astype(str).agg("/".join, axis=1)
    return table


def disagreement_view(comparison: Comparison) -> pd.DataFrame:
    """The paired paper's Table 1 measures per pair of mechanisms, in words."""
    d = comparison.disagreement

    def yes(flags):
        return flags.map({True: "yes", False: "no"})

    return pd.DataFrame({"system pairs ordered differently": d["disagree"], "different best system": yes(d["top1_differs"]),
                         "different top-3 set": yes(d["top3_differs"])}, index=d.index)


def stability_summary(comparison: Comparison) -> pd.DataFrame:
    """Per mechanism: which system was removed (best, worst) and how many pairs of the others changed order."""
    s = comparison.stability.copy()
    s["result"] = [f"{r.system}: {r.pairs_reordered} of {r.pairs} pairs reordered" for r in s.itertuples()]
    out = s.pivot(index="mechanism", columns="removed", values="result").reindex(list(MECHANISMS))
    return out.rename(index=MECHANISM_LABELS, columns={"best": "remove the best", "worst": "remove the worst"})


# -- figures: laid out for the book's text column, whatever the number of systems -------------------------------------

#: the longest system name a figure prints (longer ones are cut, with an ellipsis; the tables keep them whole)
LABEL_CHARS = 18
#: the widest a figure may be, in inches (the book shows 768 px; 9.3 in at 150 dpi is the widest it shows at 55%)
MAX_WIDTH = 9.0


def short_name(name, limit: int = LABEL_CHARS) -> str:
    """A system name for a tick label: at most ``limit`` characters, cut with an ellipsis."""
    name = str(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def plot_mechanisms(comparison: Comparison) -> plt.Figure:
    """One row per mechanism (MEAN, MEDIAN, BT, Elo, TrueSkill), systems along x in BT order (best first): each
    system's score and its 95% bootstrap interval. The rows keep their height whatever the number of systems; the
    width grows with it up to :data:`MAX_WIDTH`, and system names are shortened and turned when there are many."""
    systems = comparison.systems.sort_values("bt", ascending=False)
    n = len(systems)
    width = float(np.clip(1.6 + 0.42 * n, 6.0, MAX_WIDTH))
    fig, axes = plt.subplots(len(MECHANISMS), 1, figsize=(width, 1.25 * len(MECHANISMS) + 1.2), sharex=True)
    x = np.arange(n)
    for ax, name in zip(axes, MECHANISMS):
        # an interval as a segment: a percentile interval need not contain the estimate (Elo and TrueSkill replay
        # resampled games in another order than the file's)
        ax.vlines(x, systems[f"{name}_low"], systems[f"{name}_high"], color=MECHANISM_COLORS[name], lw=1.8)
        ax.plot(x, systems[name], "o", ms=5, color=MECHANISM_COLORS[name])
        ax.set_ylabel(MECHANISM_LABELS[name], fontsize=10)
        ax.tick_params(axis="y", labelsize=9)
        ax.margins(x=0.5 / max(n, 1) + 0.02, y=0.15)
    turn = 0 if n <= 6 and max(len(short_name(s)) for s in systems.index) <= 10 else 60
    axes[-1].set_xticks(x, [short_name(s) for s in systems.index], rotation=turn, ha="right" if turn else "center",
                        rotation_mode="anchor", fontsize=9)
    axes[-1].set_xlabel("system (best first by BT)")
    fig.align_ylabels(axes)
    fig.tight_layout(h_pad=0.6)
    return fig


def plot_prob(comparison: Comparison, alpha: float = 0.05) -> plt.Figure:
    """P(row beats column) on the test instances (ties as half), * sign test, † Wilcoxon, p < alpha. The cells print
    their share while that stays legible (up to 10 systems), and only the test marks beyond; the figure's side
    grows with the number of systems up to :data:`MAX_WIDTH`."""
    order = comparison.systems.sort_values("bt", ascending=False).index
    prob = comparison.prob.loc[order, order]
    marks = comparison.marked_prob(alpha).loc[order, order]
    n = len(order)
    if n > 10:
        marks = marks.map(lambda v: v.lstrip("0123456789."))
    side = float(np.clip(1.2 + 0.62 * n, 3.5, MAX_WIDTH - 1.8))
    fig, ax = plt.subplots(figsize=(side + 1.8, side + 0.6))
    names = [short_name(s) for s in order]
    sns.heatmap(prob.astype(float).set_axis(names).set_axis(names, axis=1), annot=marks, fmt="", cmap="vlag",
                center=0.5, vmin=0, vmax=1, ax=ax, annot_kws={"fontsize": 9 if n <= 10 else 8}, square=True,
                cbar_kws={"label": "share of instances the row system wins", "shrink": 0.8})
    ax.set(xlabel="", ylabel="")
    ax.set_title(f"* sign test, † Wilcoxon: p < {alpha:g}", fontsize=10)
    ax.tick_params(labelsize=9)
    ax.tick_params(axis="y", labelrotation=0)
    if n > 6:
        ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    ax.grid(False)
    fig.tight_layout()
    return fig


def mechanisms_caption(comparison: Comparison) -> str:
    """The caption of :func:`plot_mechanisms`, with the resamples behind its intervals."""
    s = comparison.settings
    return (f"Each mechanism's score for each of the {len(comparison.systems)} systems with its 95% percentile-bootstrap "
            f"interval over the {s.get('n_instances', 0):,} test instances ({s.get('n_resamples', 0):,} resamples for "
            f"MEAN, MEDIAN and BT, {s.get('n_resamples_sequential', 0):,} for Elo and TrueSkill); systems in BT's "
            "order, best first.\n\n"
            "The scales differ: MEAN and MEDIAN are in the score's units, BT strengths sum to 1, Elo and TrueSkill "
            "are ratings. Names longer than a tick label allows are shortened; the table above has them whole.")


def pairwise_caption(comparison: Comparison, alpha: float = 0.05) -> str:
    """The caption of :func:`plot_prob`, with the number of pairs each test finds significant."""
    sign = int(np.triu(comparison.sign_p.to_numpy() < alpha, 1).sum())
    wilcoxon = int(np.triu(comparison.wilcoxon_p.to_numpy() < alpha, 1).sum())
    n = len(comparison.systems)
    pairs = n * (n - 1) // 2
    return (f"For each pair of the {n} systems, the share of test instances on which the row system scores higher "
            f"(a tie counts half); * marks the pairs the sign test finds different at p < {alpha:g} ({sign} of "
            f"{pairs}), † those Wilcoxon's signed-rank test does ({wilcoxon} of {pairs}). Systems in BT's order, best "
            "first.\n\nThe paired paper's Fig. 5 draws the same pairwise view with BT's modelled probabilities "
            "{cite:p}`peyrard2021better`; here the observed shares.")
