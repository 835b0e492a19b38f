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


def stability_curve(m: Matches, sizes, rng, n_trials: int = 100, reference_size: int = 100_000,
                    tie_probability: float = 0.0) -> pd.DataFrame:
    """Sec. 7, Fig. 2: for each number of comparisons per pair, ``n_trials`` sampled match sets and the mean (and
    95th percentile) number of models whose BT position differs from the BT ranking on ``reference_size``
    comparisons per pair (all drawn with replacement, so sizes may exceed the instances). With
    ``tie_probability``, each sampled match (not the reference's) is turned into a tie with that probability: how
    many comparisons BT needs when ties dilute them (Sec. 7, "Draws in Comparisons")."""
    gen = check_rng(rng)
    reference = bradley_terry_trials(m, gen, 1, size=check_count(reference_size, "reference_size"), cap=False)[0]
    rows = []
    for size in sizes:
        draws = bradley_terry_trials(m, gen, n_trials, size=check_count(size, "size"), cap=False,
                                     tie_probability=tie_probability)
        changes = rank_changes(draws, reference)
        rows.append({"comparisons": int(size), "changes_mean": float(changes.mean()),
                     "changes_p95": float(np.percentile(changes, 95)), "changed_share": float((changes > 0).mean())})
    return pd.DataFrame(rows)


# -- judgment lists: pairs compared a varying number of times (llmfao) ------------------------------------------------


@dataclass(frozen=True)
class Judgments:
    """Pairwise judgments as a list, for data where each pair is compared a different number of times (not every
    pair on every instance, as :class:`Matches` assumes): judgment k compares ``left[k]`` with ``right[k]`` and
    ``outcome[k]`` is +1 if left wins, -1 if right wins, 0 for a tie."""

    models: tuple[str, ...]
    left: np.ndarray
    right: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.outcome)

    def tie_share(self) -> float:
        return float((self.outcome == 0).mean())

    def pair_counts(self) -> pd.Series:
        """Judgments per unordered model pair (pairs never compared are absent)."""
        a, b = np.minimum(self.left, self.right), np.maximum(self.left, self.right)
        return pd.Series(1, index=pd.MultiIndex.from_arrays([a, b])).groupby(level=[0, 1]).size()


def judgments(left, right, winner) -> Judgments:
    """:class:`Judgments` from three equal-length sequences: the two models' names and ``winner`` in
    {"left", "right", "tie"}."""
    left, right, winner = (np.asarray(x, dtype=object) for x in (left, right, winner))
    if not len(left) == len(right) == len(winner) or not len(left):
        raise ValueError("left, right and winner must be non-empty and of equal length")
    bad = set(winner) - {"left", "right", "tie"}
    if bad:
        raise ValueError(f"winner must be 'left', 'right' or 'tie', got {sorted(map(str, bad))}")
    if (left == right).any():
        raise ValueError(f"{int((left == right).sum())} judgments compare a model with itself")
    models = tuple(sorted(set(map(str, left)) | set(map(str, right))))
    code = {m: k for k, m in enumerate(models)}
    outcome = np.select([winner == "left", winner == "right"], [1, -1], 0).astype(np.int8)
    return Judgments(models, np.array([code[str(m)] for m in left]), np.array([code[str(m)] for m in right]),
                     outcome)


def judgment_win_matrices(j: Judgments, weights: np.ndarray, tie_mask: np.ndarray | None = None) -> np.ndarray:
    """(trials x models x models) win matrices, ties as half wins: ``weights`` (trials x judgments) says how often
    each judgment counts in each trial (bootstrap counts, a 0/1 subsample); ``tie_mask`` (same shape, boolean)
    turns judgments into ties (Fig. 1's synthetic ties)."""
    from scipy import sparse

    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 2 or weights.shape[1] != len(j):
        raise ValueError(f"weights must be (trials x {len(j)} judgments), got shape {weights.shape}")
    k = len(j.models)
    rows = np.arange(len(j))
    winner = np.where(j.outcome >= 0, j.left, j.right)
    loser = np.where(j.outcome >= 0, j.right, j.left)
    decided = j.outcome != 0
    shape = (len(j), k * k)
    as_decided = sparse.csr_matrix((np.where(decided, 1.0, 0.5), (rows, winner * k + loser)), shape=shape)
    as_decided = as_decided + sparse.csr_matrix((np.where(decided, 0.0, 0.5), (rows, loser * k + winner)),
                                                shape=shape)
    as_tie = sparse.csr_matrix((np.full(len(j), 0.5), (rows, j.left * k + j.right)), shape=shape) + \
        sparse.csr_matrix((np.full(len(j), 0.5), (rows, j.right * k + j.left)), shape=shape)
    if tie_mask is None:
        flat = (as_decided.T @ weights.T).T
    else:
        tie_mask = np.asarray(tie_mask, dtype=bool)
        if tie_mask.shape != weights.shape:
            raise ValueError(f"tie_mask must have the shape of weights {weights.shape}, got {tie_mask.shape}")
        flat = (as_decided.T @ (weights * ~tie_mask).T).T + (as_tie.T @ (weights * tie_mask).T).T
    return np.asarray(flat).reshape(-1, k, k)


def pair_bootstrap_weights(j: Judgments, rng, n_trials: int) -> np.ndarray:
    """(trials x judgments) bootstrap counts resampled within each model pair: every compared pair keeps its number
    of judgments, drawn with replacement from its own (the graph of compared pairs stays the same)."""
    gen = check_rng(rng)
    n_trials = check_count(n_trials, "n_trials")
    a, b = np.minimum(j.left, j.right), np.maximum(j.left, j.right)
    pair = np.unique(a * len(j.models) + b, return_inverse=True)[1]
    order = np.argsort(pair, kind="stable")
    counts = np.bincount(pair)
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot_pair = pair[order]
    drawn = order[start[slot_pair][None, :] + (gen.random((n_trials, len(j))) * counts[slot_pair][None, :])
                  .astype(np.int64)]
    out = np.zeros((n_trials, len(j)))
    np.add.at(out, (np.arange(n_trials)[:, None], drawn), 1.0)
    return out


def connected(wins: np.ndarray, strong: bool = False) -> np.ndarray:
    """Per trial of a (trials x models x models) stack: whether every model is linked to every other through
    compared pairs (else Bradley-Terry has no common scale, :func:`~analysis.aggregate.fit_bradley_terry_batch`
    refuses the stack); with ``strong``, through chains of wins in both directions — the condition for a finite
    maximum-likelihood estimate (no model or group of models that never loses or never wins)."""
    from scipy.sparse.csgraph import connected_components

    if strong:
        return np.array([connected_components(w > 0, directed=True, connection="strong")[0] == 1 for w in wins])
    games = (wins + wins.transpose(0, 2, 1)) > 0
    return np.array([connected_components(g, directed=False)[0] == 1 for g in games])
