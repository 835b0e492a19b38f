"""Sec. 5.3, Figs. 2-3: ranking trajectories as the HUMAN and REF raw scores are divided."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws
from .packages import PACKAGE_SHORT, check_rows

#: the systems' colours: tab20's dark shades first, then its light ones, so that systems next to each other in the
#: ranking never get two shades of one hue
TRAJECTORY_COLORS = [k for k in range(0, 20, 2)] + [k for k in range(1, 20, 2)]


def trajectories(pj: ws.PairJudgments, raw, divisors, *, variant, alpha) -> pd.DataFrame:
    """The ranking of the original data and after each division, per (setting, system); HUMAN systems are left out
    of the ranking and clusters, as in the paper's figures."""
    humans = [s for s, h in zip(pj.systems, pj.human) if h]
    rows = []
    for label, d in [("original", 1.0)] + [(f"d-{d:g}", d) for d in divisors]:
        r = ws.perturbed_ranking(pj, divide=d, raw=raw, cluster_exclude=humans, variant=variant, alpha=alpha,
                                 unknown_raw="keep_z")
        below = np.append(np.diff(r.clusters) > 0, False)
        rows += [{"setting": label, "system": s, "rank": k + 1, "z": z, "line_below": b}
                 for k, (s, z, b) in enumerate(zip(r.systems, r.scores, below))]
    return pd.DataFrame(rows)


def most_affected(per_pair_trajectories: dict) -> pd.Series:
    """Per pair: how many (system, divisor) ranks differ from the original ranking, largest first."""
    wide = {k: t.pivot(index="system", columns="setting", values="rank") for k, t in per_pair_trajectories.items()}
    moved = {k: int(w.drop(columns="original").ne(w["original"], axis=0).to_numpy().sum()) for k, w in wide.items()}
    return pd.Series(moved).sort_values(ascending=False, kind="stable")


def trajectory_figures(moved: pd.Series, info: pd.DataFrame) -> dict:
    """{role: pair}: the two SR+DC pairs whose ranks move most (:func:`most_affected`) in the roles of the paper's
    Figs. 2 and 3 (``fig2``, ``fig3``), then the SR-DC pair that moves most (``contrast``)."""
    style = info.loc[list(moved.index), "style"].to_numpy()
    plus, minus = moved.index[style == "SR+DC"], moved.index[style == "SR-DC"]
    figures = dict(zip(("fig2", "fig3"), plus))
    if len(minus):
        figures["contrast"] = minus[0]
    return figures


def _partition(rows: pd.DataFrame) -> tuple:
    """The clusters of one setting's ranking as a tuple of system sets."""
    rows = rows.sort_values("rank")
    cluster = np.concatenate([[0], np.cumsum(rows["line_below"].to_numpy()[:-1])])
    return tuple(frozenset(rows["system"][cluster == c]) for c in np.unique(cluster))


def trajectory_summary(per_pair_trajectories: dict, info: pd.DataFrame, shown=()) -> pd.DataFrame:
    """``wmt_trajectory_summary.csv``: per pair, the (system, divisor) ranks and the divisions' clusters that differ
    from the original ones."""
    moved = most_affected(per_pair_trajectories)
    rows = []
    for key, t in per_pair_trajectories.items():
        settings = list(dict.fromkeys(t["setting"]))
        original = _partition(t[t["setting"] == "original"])
        other = sum(_partition(t[t["setting"] == s]) != original for s in settings[1:])
        rows.append({"collection": key[0], "pair": key[1], "style": info.loc[key, "style"],
                     "divisions": len(settings) - 1, "ranks_moved": int(moved[key]),
                     "divisions_with_other_clusters": int(other), "shown": key in set(shown)})
    return pd.DataFrame(rows)


def reshuffle_checks(summary: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5.3: in each SR+DC pair shown, dividing moves some ranks and changes the clusters under some divisor."""
    rows = summary[summary["shown"] & (summary["style"] == "SR+DC")]
    return check_rows("fig23_sr_plus_reshuffle", {
        f"{r.collection} {r.pair}": r.ranks_moved > 0 and r.divisions_with_other_clusters > 0
        for r in rows.itertuples(index=False)})


def moved_view(moved: pd.Series) -> pd.DataFrame:
    """The eight pairs :func:`most_affected` puts first, by package (short name) and pair."""
    head = moved.head(8)
    return pd.DataFrame({"package": [PACKAGE_SHORT.get(c, c) for c, _ in head.index],
                         "pair": [p for _, p in head.index], "ranks moved over all divisions": head.to_numpy()})


def setting_label(setting: str) -> str:
    """``d-1.25`` → ``÷1.25``."""
    return "÷" + setting.removeprefix("d-") if setting.startswith("d-") else setting


def plot_trajectory(t: pd.DataFrame):
    """Figs. 2-3 for one pair (:func:`trajectories`): each MT system's rank per setting, named at both ends, an x
    where a significance line falls."""
    import matplotlib.pyplot as plt

    settings = list(dict.fromkeys(t["setting"]))
    x = {s: k for k, s in enumerate(settings)}
    first = t[t["setting"] == "original"].sort_values("rank")
    label_in = 0.068 * max(len(s) for s in first["system"]) + 0.2  # a name's width at 9 pt, in inches
    fig, ax = plt.subplots(figsize=(4.4 + 2 * label_in, 0.9 + 0.26 * len(first)))  # 9 pt names, 0.26 in apart
    palette = plt.get_cmap("tab20")(np.linspace(0, 1, 20))[TRAJECTORY_COLORS]
    for k, system in enumerate(first["system"]):
        rows = t[t["system"] == system]
        ax.plot([x[s] for s in rows["setting"]], rows["rank"], marker="o", markersize=3.5, linewidth=1.5,
                color=palette[k % 20])
        for end, offset, align in ((0, -6, "right"), (-1, 6, "left")):
            ax.annotate(system, (x[rows["setting"].iloc[end]], rows["rank"].iloc[end]), xytext=(offset, 0),
                        textcoords="offset points", ha=align, va="center", fontsize=9, color="#222222")
    lines = t[t["line_below"]]
    ax.scatter([x[s] for s in lines["setting"]], lines["rank"] + 0.5, marker="x", color="black", s=30, zorder=3,
               linewidths=1.5)
    ax.set_xticks(range(len(settings)), [setting_label(s) for s in settings])
    ax.tick_params(axis="x", labelsize=10)
    ax.set_xlabel("HUMAN and REF raw scores divided by")
    ax.set_xlim(-0.25, len(settings) - 0.75)
    ax.set_ylim(len(first) + 0.7, 0.3)
    ax.set_yticks([])
    ax.grid(axis="y", visible=False)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig
