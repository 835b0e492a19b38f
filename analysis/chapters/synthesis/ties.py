"""Study 4 — ties and sample size on real setups (Levtsov & Ustalov 2025 × Peyrard et al. 2021).

On the paired chapter's real setups, per tie policy: how far BT rankings from sampled comparisons stray from the
setup's own BT ranking, around 12·m·ln m comparisons per pair and in the paper's tie-probability sweep (its Fig. 1),
and what the setups' real ties cost."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, sweeps
from ...agreement import order_changes, rank_changes
from ...comparisons import TIE_SHORT
from ...validation import check_rng

POLICIES = ("half", "drop", "loss")
KEYS = ["collection", "dataset", "metric"]


def reference(matches: comparisons.Comparisons, ties: str) -> np.ndarray:
    """The setup's own BT strengths: every instance once, ties as ``ties``."""
    return bt.fit(comparisons.win_matrix(matches, ties)).strengths[0]


def _misplaced(matrix: pd.DataFrame, points, n_trials: int, rng, policies) -> pd.DataFrame:
    """Per policy and (comparisons per pair, tie probability) of ``points``: the mean share of systems out of place
    in the BT rankings of ``n_trials`` draws (against the setup's own under the policy) and of trials with any."""
    gen = check_rng(rng)
    m, k = sweeps.matches(matrix), matrix.shape[1]
    rows = []
    for ties in policies:
        ref = reference(m, ties)
        for size, p in points:
            counted, counts = sweeps.sampled_counts(m, gen, n_trials, size, p, cap=True, method="multinomial")
            changes = rank_changes(bt.fit(comparisons.win_matrices(counted, ties, weights=counts)).strengths, ref)
            rows.append((ties, size, p, changes.mean() / k, float((changes > 0).mean())))
    return pd.DataFrame(rows, columns=["ties", "comparisons", "tie_probability", "misplaced_share", "any_misplaced"])


def setup_curves(matrix: pd.DataFrame, sizes, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """:func:`_misplaced` per size (and 12·m·ln m); ``every_instance``: the size reaches the instances, so each
    trial takes each once (the paper's rule)."""
    marker = sweeps.sample_size(matrix.shape[1], 10**9)
    t = _misplaced(matrix, [(size, 0.0) for size in sorted({*map(int, sizes), marker})], n_trials, rng, policies)
    return t.assign(at_marker=t["comparisons"] == marker, every_instance=t["comparisons"] >= len(matrix))[
        ["ties", "comparisons", "at_marker", "every_instance", "misplaced_share", "any_misplaced"]]


def setup_tie_sweep(matrix: pd.DataFrame, probabilities, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """The paper's Fig. 1 on one setup: per policy and tie probability, the mean share of systems out of place at
    12·m·ln m comparisons per pair."""
    points = [(sweeps.sample_size(matrix.shape[1], 10**9), float(p)) for p in probabilities]
    return _misplaced(matrix, points, n_trials, rng, policies)[["ties", "tie_probability", "misplaced_share"]]


def real_tie_cost(matrix: pd.DataFrame) -> dict:
    """The setup's tie rate and the share of system pairs BT orders differently with ties dropped, or given to the
    later system, than halved."""
    m, k = sweeps.matches(matrix), matrix.shape[1]
    half = pd.Series(reference(m, "half"))
    moved = {f"pairs_moved_{ties}": order_changes(half, pd.Series(reference(m, ties))) / (k * (k - 1) / 2)
             for ties in ("drop", "loss")}
    return {"tie_rate": float((m.outcome == 0).mean()), "systems": k, "instances": matrix.shape[0], **moved}


def study(setups, sizes, probabilities, n_trials: int, rng) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(curves, tie sweeps, real tie costs) for every setup, with the setup's keys."""
    gen = check_rng(rng)
    curves, sweep, cost = zip(*[(setup_curves(matrix, sizes, n_trials, gen).assign(**head, systems=matrix.shape[1]),
                                 setup_tie_sweep(matrix, probabilities, n_trials, gen).assign(**head),
                                 head | real_tie_cost(matrix))
                                for key, matrix in setups for head in [dict(zip(KEYS, key))]])
    return pd.concat(curves, ignore_index=True), pd.concat(sweep, ignore_index=True), pd.DataFrame(list(cost))


def marker_summary(curves: pd.DataFrame, costs: pd.DataFrame, level: float = 0.1) -> pd.DataFrame:
    """Per policy at 12·m·ln m, over setups: the misplaced share, the share of setups with at most ``level`` misplaced
    (:func:`analysis.sweeps.settling_point`'s level) and Spearman's ρ between real tie rate and misplaced share."""
    at = curves[curves["at_marker"]].merge(costs[[*KEYS, "tie_rate"]], on=KEYS)
    by_policy = at.groupby("ties", sort=False)  # in the policies' order
    out = by_policy.agg(setups=("misplaced_share", "size"), every_instance=("every_instance", "sum"),
                        misplaced_share=("misplaced_share", "mean"),
                        stable_share=("misplaced_share", lambda s: float((s <= level).mean())))
    out["rho_tie_rate"] = [stats.spearmanr(p["tie_rate"], p["misplaced_share"]).statistic if len(p) > 2 else np.nan
                           for _, p in by_policy]
    return out.reset_index()


def ties_values(marker: pd.DataFrame, costs: pd.DataFrame, sweep: pd.DataFrame) -> dict:
    """Study 4's claim values; the injected ties are read at the smallest tie probability above 0."""
    m = marker.set_index("ties")
    by_p = sweep.groupby(["ties", "tie_probability"])["misplaced_share"].mean()
    positive = sweep.loc[sweep["tie_probability"] > 0, "tie_probability"]
    low = positive.min() if len(positive) else 0.0
    drop, loss = costs["pairs_moved_drop"].mean(), costs["pairs_moved_loss"].mean()
    return {"stable_share_half": m.loc["half", "stable_share"], "misplaced_half": m.loc["half", "misplaced_share"],
            "misplaced_drop": m.loc["drop", "misplaced_share"], "rho_tie_rate_half": m.loc["half", "rho_tie_rate"],
            "pairs_moved_drop": drop, "pairs_moved_loss": loss,
            "loss_injected_excess": by_p[("loss", low)] - by_p[("half", low)],
            "half_injected_cost": by_p[("half", low)] - by_p.get(("half", 0.0), np.nan),
            "loss_moves_more_than_drop": (loss - drop, loss > drop), "injected_probability": float(low)}


#: curves on top of each other stay visible: the one drawn later (dashed, hollow markers) shows the one below
POLICY_STYLE = {"half": {"color": "#1b9e77", "linestyle": "-", "marker": "o", "ms": 6, "lw": 2.4},
                "drop": {"color": "#7570b3", "linestyle": "--", "marker": "s", "ms": 5, "lw": 1.6, "mfc": "white"},
                "loss": {"color": "#d95f02", "linestyle": ":", "marker": "^", "ms": 5, "lw": 1.8}}


def plot_ties(curves: pd.DataFrame, sweep: pd.DataFrame) -> plt.Figure:
    """Systems out of place per tie policy (mean over setups) (a) against comparisons per pair (dots: each setup at
    12·m·ln m), (b) against the tie probability at 12·m·ln m."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.6))
    grid = curves[~curves["at_marker"] | curves.duplicated([*KEYS, "ties", "comparisons"], keep=False)]
    for ties in POLICIES:
        mean = grid[grid.ties == ties].groupby("comparisons")["misplaced_share"].mean()
        axes[0].plot(mean.index, mean.values, label=TIE_SHORT[ties], **POLICY_STYLE[ties])
        s = sweep[sweep.ties == ties].groupby("tie_probability")["misplaced_share"].mean()
        axes[1].plot(s.index, s.values, **POLICY_STYLE[ties])
    at = curves[curves["at_marker"] & (curves["ties"] == "half")]
    axes[0].scatter(at["comparisons"], at["misplaced_share"], s=12, color="black", zorder=3,
                    label="each setup at 12·m·ln m")
    axes[0].set(xscale="log", xlabel="comparisons per system pair")
    axes[0].set_title("(a) sample size", fontsize=11)
    axes[1].set_xlabel("probability a comparison is a tie")
    axes[1].set_title("(b) injected ties, 12·m·ln m", fontsize=11)
    for ax in axes:
        ax.set(ylabel="share of systems out of place", ylim=(0, 1))
        ax.grid(alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=2, fontsize=10, frameon=False)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    return fig
