"""Global scores vs pairwise Bradley-Terry rankings (Levtsov & Ustalov 2025, Secs. 3-4 and 7): matches from
per-instance outputs, the paper's sampling of 12·m·log(m) comparisons per model pair, Bradley-Terry with ties as half
wins, and many sampled trials fitted at once.

A *match* between models i and j on a test instance is decided by a per-instance quality (higher is better: the
decision value of the gold class, minus an edit distance, a chrF...): i wins, j wins, or a tie when the two are
equal (Sec. 3, the function g). :func:`matches` computes every pair's outcome on every instance once; a trial draws
``sample_size`` instances per pair with replacement (all instances, in order, if there are fewer), optionally turns
each drawn match into a tie with a given probability (Fig. 1), and counts its outcomes; the counts become win
matrices with ties as half wins (:func:`analysis.comparisons.win_matrices`), all fitted as one stack by
:func:`analysis.bt.fit`. Judgment lists (llmfao) are comparisons too, resampled within each model pair.
"""

from __future__ import annotations

import math

import numba
import numpy as np
import pandas as pd
from sklearn.metrics import average_precision_score

from . import bt, comparisons
from .agreement import rank_changes
from .comparisons import Comparisons
from .validation import check_count, check_number, check_rng, check_scores

#: measures for which a smaller value is better (distances and errors); every other measure is higher-is-better
LOWER_IS_BETTER = ("ed", "wer", "mae")

#: the paper's multiplier of m·log(m) (footnote 3: "a multiplier of 12 gave the best performance")
MULTIPLIER = 12


def matches(quality: pd.DataFrame) -> Comparisons:
    """Matches from an (instances x models) frame of per-instance quality, higher is better (Sec. 3's g): every
    model pair's outcome on every instance, one unit per instance (:func:`analysis.comparisons.from_scores`).
    Model names must be unique, also as text (``1`` and ``"1"`` would be one model compared with itself)."""
    if not isinstance(quality, pd.DataFrame):
        raise TypeError("quality must be a pandas DataFrame (rows: instances, columns: models)")
    if quality.shape[1] < 2 or quality.shape[0] < 1:
        raise ValueError(f"need at least two models and one instance, got shape {quality.shape}")
    values = check_scores(quality, name="quality", allow_missing=True)  # real numbers: no bool, str, complex, inf
    if np.isnan(values).any():
        bad = quality.columns[np.isnan(values).any(axis=0)].tolist()
        raise ValueError(f"quality has missing or infinite values for models {bad}")
    return comparisons.from_scores(quality, by_instance=True)


def _outcome_grid(m: Comparisons) -> tuple[np.ndarray, np.ndarray]:
    """(pairs (P x 2), outcomes (instances x P)) of matches made by :func:`matches`."""
    n = m.n_units
    p = len(m) // n if n else 0
    k = len(m.systems)
    i, j = np.triu_indices(k, 1)
    layout = (n > 0 and p == len(i) and len(m) == n * p and (m.weight == 1).all()
              and (m.unit == np.repeat(np.arange(n), p)).all()
              and (m.left.reshape(n, p) == i).all() and (m.right.reshape(n, p) == j).all())
    if not layout:
        raise ValueError("expected matches of every model pair on every instance, once each (sweeps.matches(quality)); "
                         "judgment lists and counted comparisons are resampled with pair_bootstrap_weights or weights")
    return np.column_stack([i, j]), m.outcome.reshape(n, p)


def sample_size(n_models: int, available: int, multiplier: float = MULTIPLIER) -> int:
    """Comparisons drawn per model pair: multiplier·m·ln(m) rounded down (the paper says neither the base of the log
    nor the rounding; the natural log and flooring are assumed), or ``available`` if that is smaller."""
    n_models = check_count(n_models, "n_models", minimum=2)
    available = check_count(available, "available", minimum=1)
    check_number(multiplier, "multiplier", low=0, low_open=True)
    return min(int(multiplier * n_models * math.log(n_models)), available)


def sampled_counts(m: Comparisons, rng, n_trials: int, size: int | None = None, tie_probability: float = 0.0,
                   cap: bool = True, method: str = "draws") -> tuple[Comparisons, np.ndarray]:
    """Each trial's sampled matches as counts: the counted comparisons (three rows per model pair: left wins, tie,
    right wins) and their (trials x 3·pairs) counts, from ``size`` matches per pair drawn with replacement (default
    :func:`sample_size`); with ``cap``, a ``size`` of at least the number of instances means every instance once,
    in every trial (the paper's rule); without, ``size`` draws with replacement whatever the number of instances
    (Fig. 2). ``tie_probability``: each drawn match becomes a tie with this probability.
    ``method``: ``"draws"`` draws each comparison's instance (the trials' exact sequence of matches); ``"multinomial"``
    draws each pair's counts at once from its outcome shares (equal in distribution, and much faster for many
    comparisons per pair: the synthesis chapter's sweeps)."""
    gen = check_rng(rng)
    n_trials = check_count(n_trials, "n_trials")
    check_number(tie_probability, "tie_probability", low=0, high=1)
    if method not in ("draws", "multinomial"):
        raise ValueError(f"method must be 'draws' or 'multinomial', got {method!r}")
    pairs, outcome = _outcome_grid(m)
    k = len(m.systems)
    n = m.n_units
    size = sample_size(k, n) if size is None else check_count(size, "size")
    n_pairs = len(pairs)
    one = np.ones(n_pairs)
    if method == "multinomial":
        shares = np.stack([(outcome == v).mean(axis=0) for v in (1, 0, -1)], axis=1)
        counts = _multinomial_counts(shares, gen, n_trials, size, float(tie_probability), n if cap else None)
        return comparisons.counted(m.systems, pairs, one, one, one), counts
    columns = np.arange(n_pairs)
    counts = np.zeros((n_trials, n_pairs, 3))
    step = max(1, 4_000_000 // max(1, n_pairs * (min(size, n) if cap else size)))
    for start in range(0, n_trials, step):
        t = min(step, n_trials - start)
        if cap and size >= n:
            drawn = np.broadcast_to(outcome.T[None], (t, n_pairs, n))
        else:
            idx = gen.integers(0, n, size=(t, n_pairs, size))
            if tie_probability == 0:  # count the drawn outcomes without gathering them
                _tally_draws(idx, outcome, counts[start:start + t])
                continue
            drawn = outcome[idx, columns[None, :, None]]
        if tie_probability > 0:
            drawn = np.where(gen.random(drawn.shape) < tie_probability, 0, drawn)
        _tally(drawn, counts[start:start + t])
    return comparisons.counted(m.systems, pairs, one, one, one), counts.reshape(n_trials, 3 * n_pairs)


def _multinomial_counts(shares: np.ndarray, gen, n_trials: int, size: int, q: float,
                        n_instances: int | None) -> np.ndarray:
    """(trials x 3·pairs) counts of ``size`` comparisons per pair drawn at once from the (left wins, tie, right
    wins) ``shares`` of each pair, each a tie with probability ``q``; every instance once when ``size`` reaches
    ``n_instances`` (the paper's rule)."""
    if n_instances is not None and size >= n_instances:
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


@numba.njit(cache=True)
def _tally(drawn, out):  # pragma: no cover (compiled)
    """``out[t, p]`` = how many of ``drawn[t, p, :]`` are 1, 0 and -1 (left wins, ties, right wins)."""
    for t in range(drawn.shape[0]):
        for p in range(drawn.shape[1]):
            won = tied = lost = 0
            for k in range(drawn.shape[2]):
                v = drawn[t, p, k]
                won += v == 1
                tied += v == 0
                lost += v == -1
            out[t, p, 0], out[t, p, 1], out[t, p, 2] = won, tied, lost


@numba.njit(cache=True)
def _tally_draws(idx, outcome, out):  # pragma: no cover (compiled)
    """:func:`_tally` of the outcomes ``outcome[idx[t, p, k], p]``."""
    for t in range(idx.shape[0]):
        for p in range(idx.shape[1]):
            won = tied = lost = 0
            for k in range(idx.shape[2]):
                v = outcome[idx[t, p, k], p]
                won += v == 1
                tied += v == 0
                lost += v == -1
            out[t, p, 0], out[t, p, 1], out[t, p, 2] = won, tied, lost


def win_matrices(m: Comparisons, rng, n_trials: int, size: int | None = None, tie_probability: float = 0.0,
                 cap: bool = True) -> np.ndarray:
    """(trials x models x models) win matrices, ties as half wins, of :func:`sampled_counts`' trials."""
    counted, counts = sampled_counts(m, rng, n_trials, size, tie_probability, cap)
    return comparisons.win_matrices(counted, "half", weights=counts)


def bradley_terry_trials(m: Comparisons, rng, n_trials: int, size: int | None = None, tie_probability: float = 0.0,
                         tol: float = bt.TOL, cap: bool = True) -> np.ndarray:
    """(trials x models) BT strengths of ``n_trials`` sampled match sets (:func:`win_matrices`), fitted as one
    stack by :func:`analysis.bt.fit`."""
    return bt.fit(win_matrices(m, rng, n_trials, size, tie_probability, cap), tol=tol).strengths


def bradley_terry_interval(m: Comparisons, rng, n_trials: int = 1000, confidence: float = 0.95,
                           size: int | None = None) -> pd.DataFrame:
    """The paper's BT interval (Sec. 6): percentiles of the strengths over ``n_trials`` sampled match sets of
    :func:`sample_size` per pair, next to the strengths from every instance; one row per model."""
    check_number(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    draws = bradley_terry_trials(m, rng, n_trials, size)
    tail = (1 - confidence) / 2 * 100
    full = bt.fit(comparisons.win_matrix(m), systems=m.systems).series()
    return pd.DataFrame({"bt": full, "bt_low": np.percentile(draws, tail, axis=0),
                         "bt_high": np.percentile(draws, 100 - tail, axis=0)}, index=list(m.systems))


def stability_curve(m: Comparisons, sizes, rng, n_trials: int = 100, reference_size: int = 100_000,
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


def pair_bootstrap_weights(j: Comparisons, rng, n_trials: int) -> np.ndarray:
    """(trials x judgments) bootstrap counts resampled within each model pair: every compared pair keeps its number
    of judgments, drawn with replacement from its own (the graph of compared pairs stays the same)."""
    gen = check_rng(rng)
    n_trials = check_count(n_trials, "n_trials")
    if not (j.unit == np.arange(j.n_units)).all() or not (j.weight == 1).all():
        raise ValueError("pair bootstrap weights need one unit per judgment, each counted once "
                         "(comparisons.from_judgments without weights)")
    a, b = np.minimum(j.left, j.right), np.maximum(j.left, j.right)
    pair = np.unique(a * len(j.systems) + b, return_inverse=True)[1]
    order = np.argsort(pair, kind="stable")  # the judgments grouped by pair
    counts = np.bincount(pair)
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot_pair = pair[order]
    # slot k draws uniformly among its pair's judgments: order[first + floor(u * count)], u uniform; the trials'
    # uniforms are one (trials x judgments) draw, taken a block of trials at a time (the same numbers)
    out = np.empty((n_trials, len(j)))
    first, count = start[slot_pair], counts[slot_pair].astype(np.float64)
    block = max(1, (1 << 17) // len(j))
    u = np.empty((min(block, n_trials), len(j)))
    for begin in range(0, n_trials, block):
        part = out[begin:begin + block]
        gen.random(out=u[:len(part)])
        _bootstrap_counts(u[:len(part)], order, first, count, part)
    return out


@numba.njit(cache=True)
def _bootstrap_counts(u, order, first, count, out):  # pragma: no cover (compiled)
    """``out[t, i]``: how often judgment i is drawn when slot k of trial t takes judgment
    ``order[first[k] + int(u[t, k] * count[k])]``; counted by slot (a pair's slots are adjacent), then put in
    judgment order."""
    n_trials, n = u.shape
    drawn = np.empty(n)
    for t in range(n_trials):
        drawn[:] = 0.0
        for k in range(n):
            drawn[first[k] + np.int64(u[t, k] * count[k])] += 1.0
        for k in range(n):
            out[t, order[k]] = drawn[k]


# -- the paper's average precision of originals over their copies (Tables 4-6) and Fig. 2's settling point -------------


def copies_ap(measures: pd.DataFrame, originals, lower_is_better=LOWER_IS_BETTER) -> pd.Series:
    """Per measure (column of ``measures``, one row per model): the average precision of ranking the models by it,
    the ``originals`` relevant — 1 when every original is above every copy (Tables 4-6). Measures in
    ``lower_is_better`` are negated first."""
    relevant = measures.index.isin(list(originals))
    if relevant.all() or not relevant.any():
        raise ValueError("copies_ap needs both originals and copies among the models")
    return pd.Series({c: average_precision_score(relevant, -measures[c] if c in lower_is_better else measures[c])
                      for c in measures.columns}, name="ap")


def lowest_ap(relevant: int, total: int) -> float:
    """The smallest average precision possible: all ``relevant`` items ranked below the others."""
    return float(np.mean([(i + 1) / (total - relevant + i + 1) for i in range(relevant)]))


def settling_point(curve: pd.DataFrame, level: float = 0.1) -> float:
    """The fewest comparisons per pair from which the mean number of misplaced models stays at or below ``level``
    (NaN if it never does on the grid)."""
    above = curve["changes_mean"].to_numpy() > level
    if above[-1]:
        return np.nan
    last_above = np.flatnonzero(above)
    return float(curve["comparisons"].iloc[last_above[-1] + 1] if len(last_above) else curve["comparisons"].iloc[0])
