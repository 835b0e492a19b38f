"""Study 4 — ties and sample size on real setups (Levtsov & Ustalov 2025 × Peyrard et al. 2021).

On the paired chapter's real setups: how far BT rankings from sampled comparisons stray from the setup's own BT
ranking (all its instances), for numbers of comparisons per system pair around the paper's 12·m·ln m and under the
three tie policies (half a win each, dropped, a win for the later system); the paper's tie-probability sweep (each
sampled comparison turned into a tie with a probability) on the same setups; and what the setups' real ties cost.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, sweeps
from ...agreement import order_changes, rank_changes
from ...validation import check_count, check_rng

POLICIES = ("half", "drop", "loss")
POLICY_LABELS = {"half": "a tie is half a win", "drop": "ties dropped", "loss": "a tie is a win for the later system"}
KEYS = ["collection", "dataset", "metric"]


def reference(matches: comparisons.Comparisons, ties: str) -> np.ndarray:
    """The setup's own BT strengths: every instance once, ties as ``ties``."""
    return bt.fit(comparisons.win_matrix(matches, ties)).strengths[0]


def outcome_shares(matrix: pd.DataFrame) -> tuple[comparisons.Comparisons, np.ndarray]:
    """(the counted comparisons of every system pair: left wins, tie, right wins; their shares over the setup's
    instances, pairs x 3), pairs in :func:`analysis.comparisons.from_scores` order (left = the earlier column)."""
    m = sweeps.matches(matrix)
    k, n = len(m.systems), m.n_units
    left, right = np.triu_indices(k, 1)
    outcome = m.outcome.reshape(n, len(left))
    shares = np.stack([(outcome == v).mean(axis=0) for v in (1, 0, -1)], axis=1)
    one = np.ones(len(left))
    return comparisons.counted(m.systems, np.column_stack([left, right]), one, one, one), shares


def sampled_counts(shares: np.ndarray, rng, n_trials: int, size: int, tie_probability: float = 0.0,
                   n_instances: int | None = None) -> np.ndarray:
    """(trials x 3·pairs) outcome counts of ``size`` comparisons per pair, each turned into a tie with
    ``tie_probability``, by the paper's rule: drawn with replacement from the setup's instances, or, when ``size``
    reaches ``n_instances``, every instance once in every trial. The fast equivalent of
    :func:`analysis.sweeps.sampled_counts` with ``cap`` (one multinomial draw per pair and trial; the tests compare
    the two)."""
    gen = check_rng(rng)
    n_trials, size = check_count(n_trials, "n_trials"), check_count(size, "size")
    q = float(tie_probability)
    if n_instances is not None and size >= check_count(n_instances, "n_instances"):
        exact = np.rint(shares * n_instances).astype(np.int64)
        counts = np.broadcast_to(exact, (n_trials, *exact.shape)).copy()
        if q > 0:
            tied = gen.binomial(counts[:, :, [0, 2]], q)
            counts[:, :, [0, 2]] -= tied
            counts[:, :, 1] += tied.sum(axis=2)
        return counts.reshape(n_trials, -1).astype(float)
    probs = shares * np.array([1 - q, 1.0, 1 - q]) + np.array([0.0, q, 0.0]) * (1 - shares[:, [1]])
    probs = probs / probs.sum(axis=1, keepdims=True)
    counts = gen.multinomial(size, probs, size=(n_trials, len(probs)))
    return counts.reshape(n_trials, -1).astype(float)


def _misplaced(matrix: pd.DataFrame, points, n_trials: int, rng, policies):
    """For each policy and each (comparisons per pair, tie probability) of ``points``: the number of systems out of
    place in BT rankings of ``n_trials`` draws of :func:`sampled_counts`, against the setup's own ranking (same
    policy)."""
    gen = check_rng(rng)
    m = sweeps.matches(matrix)
    counted, shares = outcome_shares(matrix)
    for ties in policies:
        ref = reference(m, ties)
        for size, p in points:
            counts = sampled_counts(shares, gen, n_trials, size, p, len(matrix))
            strengths = bt.fit(comparisons.win_matrices(counted, ties, weights=counts)).strengths
            yield ties, size, p, rank_changes(strengths, ref)


def setup_curves(matrix: pd.DataFrame, sizes, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """For each policy and size (and 12·m·ln m): the mean share of systems out of place against the setup's own
    ranking, and the share of trials with any system out of place; ``every_instance`` where the size reaches the
    setup's instances, so that each trial takes every instance once (the paper's rule)."""
    k = matrix.shape[1]
    marker = sweeps.sample_size(k, 10**9)
    points = [(size, 0.0) for size in sorted({*map(int, sizes), marker})]
    return pd.DataFrame([{"ties": ties, "comparisons": size, "at_marker": size == marker,
                          "every_instance": size >= len(matrix), "misplaced_share": changes.mean() / k,
                          "any_misplaced": float((changes > 0).mean())}
                         for ties, size, _, changes in _misplaced(matrix, points, n_trials, rng, policies)])


def setup_tie_sweep(matrix: pd.DataFrame, probabilities, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """Fig. 1 of the paper on one setup: 12·m·ln m comparisons per pair, each turned into a tie with each
    probability (every instance once where the setup has no more instances than that, the paper's rule); per policy
    the mean share of systems out of place against the setup's own ranking (same policy)."""
    k = matrix.shape[1]
    points = [(sweeps.sample_size(k, 10**9), float(p)) for p in probabilities]
    return pd.DataFrame([{"ties": ties, "tie_probability": p, "misplaced_share": changes.mean() / k}
                         for ties, _, p, changes in _misplaced(matrix, points, n_trials, rng, policies)])


def real_tie_cost(matrix: pd.DataFrame) -> dict:
    """The setup's tie rate and how much its ranking moves with the tie policy: the share of system pairs BT on all
    instances orders differently with ties dropped, and with ties as wins for the later system, than with ties as
    half wins."""
    m, k = sweeps.matches(matrix), matrix.shape[1]
    half = pd.Series(reference(m, "half"))
    moved = {f"pairs_moved_{ties}": order_changes(half, pd.Series(reference(m, ties))) / (k * (k - 1) / 2)
             for ties in ("drop", "loss")}
    return {"tie_rate": float((m.outcome == 0).mean()), "systems": k, "instances": matrix.shape[0], **moved}


def study(setups, sizes, probabilities, n_trials: int, rng) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(curves, tie sweeps, real tie costs) for every setup, each row with the setup's keys."""
    gen = check_rng(rng)
    curves, sweep, cost = [], [], []
    for key, matrix in setups:
        head = dict(zip(KEYS, key))
        curves.append(setup_curves(matrix, sizes, n_trials, gen).assign(**head, systems=matrix.shape[1]))
        sweep.append(setup_tie_sweep(matrix, probabilities, n_trials, gen).assign(**head))
        cost.append(head | real_tie_cost(matrix))
    return pd.concat(curves, ignore_index=True), pd.concat(sweep, ignore_index=True), pd.DataFrame(cost)


def marker_summary(curves: pd.DataFrame, costs: pd.DataFrame, level: float = 0.1) -> pd.DataFrame:
    """Per policy at 12·m·ln m comparisons per pair: setups, how many of them take every instance once (so they
    match the setup's own ranking), the mean share of systems out of place, the share of setups where it is at most
    ``level`` (the stability level of :func:`analysis.sweeps.settling_point`), and Spearman's ρ across setups between
    the real tie rate and the misplaced share."""
    at = curves[curves["at_marker"]].merge(costs[[*KEYS, "tie_rate"]], on=KEYS)
    rows = []
    for ties, part in at.groupby("ties", sort=False):  # in the policies' order
        rho = stats.spearmanr(part["tie_rate"], part["misplaced_share"]).statistic if len(part) > 2 else np.nan
        rows.append({"ties": ties, "setups": len(part), "every_instance": int(part["every_instance"].sum()),
                     "misplaced_share": part["misplaced_share"].mean(),
                     "stable_share": float((part["misplaced_share"] <= level).mean()), "rho_tie_rate": rho})
    return pd.DataFrame(rows)


def ties_values(marker: pd.DataFrame, costs: pd.DataFrame, sweep: pd.DataFrame) -> dict:
    """Study 4's values for the claims registry (``data/published/claims/synthesis.toml``); the injected ties are
    read at the smallest tie probability above 0."""
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


POLICY_COLORS = {"half": "#1b9e77", "drop": "#7570b3", "loss": "#d95f02"}
POLICY_SHORT = {"half": "tie = half a win", "drop": "ties dropped", "loss": "tie = win for later system"}
#: each policy's line and marker, so that curves lying on top of each other stay visible: the one drawn last
#: (dashed, hollow markers) leaves the one below it showing through
POLICY_STYLE = {"half": {"linestyle": "-", "marker": "o", "ms": 6, "lw": 2.4},
                "drop": {"linestyle": "--", "marker": "s", "ms": 5, "lw": 1.6, "mfc": "white"},
                "loss": {"linestyle": ":", "marker": "^", "ms": 5, "lw": 1.8}}


def plot_ties(curves: pd.DataFrame, sweep: pd.DataFrame) -> plt.Figure:
    """(a) misplaced systems against comparisons per pair, per tie policy (mean over setups; dots: each setup at its
    12·m·ln m); (b) the tie-probability sweep at 12·m·ln m. Each policy has its own line style and marker
    (:data:`POLICY_STYLE`): half and dropped ties often give nearly the same curve."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.6))
    grid = curves[~curves["at_marker"] | curves.duplicated([*KEYS, "ties", "comparisons"], keep=False)]
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
