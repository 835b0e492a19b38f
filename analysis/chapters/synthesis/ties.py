"""Study 4 — ties and sample size on real setups (Levtsov & Ustalov 2025 × Peyrard et al. 2021).

On the paired chapter's real setups: how far BT rankings from sampled comparisons stray from the setup's own BT
ranking (all its instances), for numbers of comparisons per system pair around the paper's 12·m·ln m and under the
three tie policies (half a win each, dropped, a win for the later system); the paper's tie-probability sweep (each
sampled comparison turned into a tie with a probability) on the same setups; and what the setups' real ties cost.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, sweeps
from ...agreement import rank_changes
from ...validation import check_count, check_rng

POLICIES = ("half", "drop", "loss")
POLICY_LABELS = {"half": "a tie is half a win", "drop": "ties dropped", "loss": "a tie is a win for the later system"}


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
    ``tie_probability``, by the paper's rule (:func:`analysis.sweeps.sampled_counts` with ``cap``): drawn with
    replacement from the setup's instances, or, when ``size`` reaches ``n_instances``, every instance once in every
    trial. A draw is one multinomial per pair and trial (the same distribution as drawing instances one by one,
    which :func:`analysis.sweeps.sampled_counts` does: its fast equivalent, checked against it in the tests); every
    instance once is the setup's own counts, with each decided comparison turned into a tie by a binomial draw."""
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


def sampled(counted, shares, rng, n_trials: int, size: int, ties: str, tie_probability: float = 0.0,
            n_instances: int | None = None) -> np.ndarray:
    """(trials x systems) BT strengths of ``n_trials`` draws of :func:`sampled_counts`, ties as ``ties``."""
    counts = sampled_counts(shares, rng, n_trials, size, tie_probability, n_instances)
    return bt.fit(comparisons.win_matrices(counted, ties, weights=counts)).strengths


def tie_rate(matches) -> float:
    """Share of the setup's comparisons (system pair × instance) that are ties."""
    return float((matches.outcome == 0).mean())


def setup_curves(matrix: pd.DataFrame, sizes, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """For each policy and size (and 12·m·ln m): the mean share of systems out of place against the setup's own
    ranking, and the share of trials with any system out of place; ``every_instance`` where the size reaches the
    setup's instances, so that each trial takes every instance once (the paper's rule)."""
    gen = check_rng(rng)
    m = sweeps.matches(matrix)
    counted, shares = outcome_shares(matrix)
    k, n = matrix.shape[1], matrix.shape[0]
    marker = sweeps.sample_size(k, 10**9)
    rows = []
    for ties in policies:
        ref = reference(m, ties)
        for size in sorted({*map(int, sizes), marker}):
            changes = rank_changes(sampled(counted, shares, gen, n_trials, size, ties, n_instances=n), ref)
            rows.append({"ties": ties, "comparisons": size, "at_marker": size == marker, "every_instance": size >= n,
                         "misplaced_share": changes.mean() / k, "any_misplaced": float((changes > 0).mean())})
    return pd.DataFrame(rows)


def setup_tie_sweep(matrix: pd.DataFrame, probabilities, n_trials: int, rng, policies=POLICIES) -> pd.DataFrame:
    """Fig. 1 of the paper on one setup: 12·m·ln m comparisons per pair, each turned into a tie with each
    probability (every instance once where the setup has no more instances than that, the paper's rule); per policy
    the mean share of systems out of place against the setup's own ranking (same policy)."""
    gen = check_rng(rng)
    m = sweeps.matches(matrix)
    counted, shares = outcome_shares(matrix)
    k, n = matrix.shape[1], matrix.shape[0]
    size = sweeps.sample_size(k, 10**9)
    rows = []
    for ties in policies:
        ref = reference(m, ties)
        for p in probabilities:
            changes = rank_changes(sampled(counted, shares, gen, n_trials, size, ties, float(p), n), ref)
            rows.append({"ties": ties, "tie_probability": float(p), "misplaced_share": changes.mean() / k})
    return pd.DataFrame(rows)


def real_tie_cost(matrix: pd.DataFrame) -> dict:
    """The setup's tie rate and how much its ranking moves with the tie policy: the share of system pairs BT on all
    instances orders differently with ties dropped, and with ties as wins for the later system, than with ties as
    half wins."""
    m = sweeps.matches(matrix)
    half = reference(m, "half")
    out = {"tie_rate": tie_rate(m), "systems": matrix.shape[1], "instances": matrix.shape[0]}
    k = matrix.shape[1]
    for ties in ("drop", "loss"):
        other = reference(m, ties)
        differs = np.sign(np.subtract.outer(half, half)) != np.sign(np.subtract.outer(other, other))
        out[f"pairs_moved_{ties}"] = float(np.triu(differs, 1).sum() / (k * (k - 1) / 2))
    return out


def study(setups, sizes, probabilities, n_trials: int, rng) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(curves, tie sweeps, real tie costs) for every setup, each row with the setup's keys."""
    gen = check_rng(rng)
    curves, sweep, cost = [], [], []
    for key, matrix in setups:
        head = dict(zip(["collection", "dataset", "metric"], key))
        curves.append(setup_curves(matrix, sizes, n_trials, gen).assign(**head, systems=matrix.shape[1]))
        sweep.append(setup_tie_sweep(matrix, probabilities, n_trials, gen).assign(**head))
        cost.append(head | real_tie_cost(matrix))
    return pd.concat(curves, ignore_index=True), pd.concat(sweep, ignore_index=True), pd.DataFrame(cost)


def marker_summary(curves: pd.DataFrame, costs: pd.DataFrame, level: float = 0.1) -> pd.DataFrame:
    """Per policy at 12·m·ln m comparisons per pair: setups, how many of them have no more instances than that (so
    that every trial takes each instance once and matches the setup's own ranking), the mean share of systems out of
    place, the share of setups where it is at most ``level`` (the stability level of
    :func:`analysis.sweeps.settling_point`), and Spearman's ρ across setups between the real tie rate and the
    misplaced share."""
    at = curves[curves["at_marker"]].merge(costs[["collection", "dataset", "metric", "tie_rate"]],
                                           on=["collection", "dataset", "metric"])
    rows = []
    for ties in POLICIES:
        part = at[at["ties"] == ties]
        if part.empty:
            continue
        rho = stats.spearmanr(part["tie_rate"], part["misplaced_share"]).statistic if len(part) > 2 else np.nan
        rows.append({"ties": ties, "setups": len(part), "every_instance": int(part["every_instance"].sum()),
                     "misplaced_share": part["misplaced_share"].mean(),
                     "stable_share": float((part["misplaced_share"] <= level).mean()), "rho_tie_rate": rho})
    return pd.DataFrame(rows)
