"""Global scores vs pairwise Bradley-Terry rankings (Levtsov & Ustalov 2025, Secs. 3-4 and 7): matches from
per-instance outputs, the paper's sampling of 12·m·log(m) comparisons per model pair, Bradley-Terry with ties as half
wins, and many sampled trials fitted at once.

A *match* between models i and j on a test instance is decided by a per-instance quality (higher is better: the
decision value of the gold class, minus an edit distance, a chrF...): i wins, j wins, or a tie when the two are
equal (Sec. 3, the function g). :func:`matches` computes every pair's outcome on every instance once; a trial draws
``sample_size`` instances per pair with replacement (all instances, in order, if there are fewer), optionally turns
each drawn match into a tie with a given probability (Fig. 1), and counts wins + ties / 2 into a win matrix; a stack
of such matrices is fitted by :func:`analysis.aggregate.fit_bradley_terry_batch`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .aggregate import fit_bradley_terry, fit_bradley_terry_batch
from .validation import check_count, check_number, check_rng

#: the paper's multiplier of m·log(m) (footnote 3: "a multiplier of 12 gave the best performance")
MULTIPLIER = 12


@dataclass(frozen=True)
class Matches:
    """Every model pair's outcome on every instance: ``outcome[t, p]`` is +1 if ``pairs[p][0]`` wins on instance t,
    -1 if ``pairs[p][1]`` wins, 0 for a tie."""

    models: tuple[str, ...]
    pairs: np.ndarray  # (P, 2) model indices, i < j
    outcome: np.ndarray  # (instances, P) int8

    @property
    def n_instances(self) -> int:
        return self.outcome.shape[0]

    def tie_share(self) -> float:
        return float((self.outcome == 0).mean())


def matches(quality: pd.DataFrame) -> Matches:
    """Matches from an (instances x models) frame of per-instance quality, higher is better (Sec. 3's g)."""
    if not isinstance(quality, pd.DataFrame):
        raise TypeError("quality must be a pandas DataFrame (rows: instances, columns: models)")
    if quality.shape[1] < 2 or quality.shape[0] < 1:
        raise ValueError(f"need at least two models and one instance, got shape {quality.shape}")
    values = quality.to_numpy(dtype=float)
    if not np.isfinite(values).all():
        bad = quality.columns[~np.isfinite(values).all(axis=0)].tolist()
        raise ValueError(f"quality has missing or infinite values for models {bad}")
    i, j = np.triu_indices(values.shape[1], 1)
    outcome = np.sign(values[:, i] - values[:, j]).astype(np.int8)
    return Matches(tuple(map(str, quality.columns)), np.column_stack([i, j]), outcome)


def sample_size(n_models: int, available: int, multiplier: float = MULTIPLIER) -> int:
    """Comparisons drawn per model pair: multiplier·m·ln(m) rounded down (the paper says neither the base of the log
    nor the rounding; the natural log and flooring are assumed), or ``available`` if that is smaller."""
    n_models = check_count(n_models, "n_models", minimum=2)
    available = check_count(available, "available", minimum=1)
    check_number(multiplier, "multiplier", low=0, low_open=True)
    return min(int(multiplier * n_models * math.log(n_models)), available)


def win_matrices(m: Matches, rng, n_trials: int, size: int | None = None, tie_probability: float = 0.0,
                 cap: bool = True) -> np.ndarray:
    """(trials x models x models) win matrices, ties as half wins, from ``size`` matches per pair drawn with
    replacement (default :func:`sample_size`); with ``cap``, a ``size`` of at least the number of instances means
    every instance once, in every trial (the paper's rule); without, ``size`` draws with replacement whatever the
    number of instances (Fig. 2). ``tie_probability``: each drawn match becomes a tie with this probability."""
    gen = check_rng(rng)
    n_trials = check_count(n_trials, "n_trials")
    check_number(tie_probability, "tie_probability", low=0, high=1)
    k = len(m.models)
    n = m.n_instances
    size = sample_size(k, n) if size is None else check_count(size, "size")
    n_pairs = len(m.pairs)
    columns = np.arange(n_pairs)
    out = np.zeros((n_trials, k, k))
    step = max(1, 4_000_000 // max(1, n_pairs * (min(size, n) if cap else size)))
    for start in range(0, n_trials, step):
        t = min(step, n_trials - start)
        if cap and size >= n:
            drawn = np.broadcast_to(m.outcome.T[None], (t, n_pairs, n))
        else:
            idx = gen.integers(0, n, size=(t, n_pairs, size))
            drawn = m.outcome[idx, columns[None, :, None]]
        if tie_probability > 0:
            drawn = np.where(gen.random(drawn.shape) < tie_probability, 0, drawn)
        wins = (drawn == 1).sum(axis=2) + 0.5 * (drawn == 0).sum(axis=2)
        losses = (drawn == -1).sum(axis=2) + 0.5 * (drawn == 0).sum(axis=2)
        block = out[start:start + t]
        block[:, m.pairs[:, 0], m.pairs[:, 1]] = wins
        block[:, m.pairs[:, 1], m.pairs[:, 0]] = losses
    return out


def bradley_terry_all(m: Matches, tol: float = 1e-9) -> pd.Series:
    """BT strengths (sum 1) from every instance's matches, ties as half wins."""
    wins = win_matrices(m, 0, 1, size=m.n_instances)[0]
    strength, _ = fit_bradley_terry(wins, tol=tol, names=m.models)
    return pd.Series(strength, index=list(m.models), name="bt")


def bradley_terry_trials(m: Matches, rng, n_trials: int, size: int | None = None, tie_probability: float = 0.0,
                         tol: float = 1e-9, cap: bool = True) -> np.ndarray:
    """(trials x models) BT strengths of ``n_trials`` sampled match sets (:func:`win_matrices`), fitted as one
    stack."""
    strength, _ = fit_bradley_terry_batch(win_matrices(m, rng, n_trials, size, tie_probability, cap), tol=tol)
    return strength


def bradley_terry_interval(m: Matches, rng, n_trials: int = 1000, confidence: float = 0.95,
                           size: int | None = None) -> pd.DataFrame:
    """The paper's BT interval (Sec. 6): percentiles of the strengths over ``n_trials`` sampled match sets of
    :func:`sample_size` per pair, next to the strengths from every instance; one row per model."""
    check_number(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    draws = bradley_terry_trials(m, rng, n_trials, size)
    tail = (1 - confidence) / 2 * 100
    return pd.DataFrame({"bt": bradley_terry_all(m), "bt_low": np.percentile(draws, tail, axis=0),
                         "bt_high": np.percentile(draws, 100 - tail, axis=0)}, index=list(m.models))


def rank_changes(strengths: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per row of ``strengths`` (trials x models): how many models sit at another position than in the ranking by
    ``reference`` (ties in a row broken by model order)."""
    order = np.argsort(-np.asarray(reference, float), kind="stable")
    rows = np.argsort(-np.asarray(strengths, float), axis=1, kind="stable")
    return (rows != order[None, :]).sum(axis=1)


def stability_curve(m: Matches, sizes, rng, n_trials: int = 100, reference_size: int = 100_000) -> pd.DataFrame:
    """Sec. 7, Fig. 2: for each number of comparisons per pair, ``n_trials`` sampled match sets and the mean (and
    95th percentile) number of models whose BT position differs from the BT ranking on ``reference_size``
    comparisons per pair (all drawn with replacement, so sizes may exceed the instances)."""
    gen = check_rng(rng)
    reference = bradley_terry_trials(m, gen, 1, size=check_count(reference_size, "reference_size"), cap=False)[0]
    rows = []
    for size in sizes:
        draws = bradley_terry_trials(m, gen, n_trials, size=check_count(size, "size"), cap=False)
        changes = rank_changes(draws, reference)
        rows.append({"comparisons": int(size), "changes_mean": float(changes.mean()),
                     "changes_p95": float(np.percentile(changes, 95)), "changed_share": float((changes > 0).mean())})
    return pd.DataFrame(rows)
