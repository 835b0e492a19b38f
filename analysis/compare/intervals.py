"""The bootstrap behind every interval of :func:`analysis.compare.compare`: resamples of the data's units (test
instances of a score file, judgments of a judgment file), drawn block by block so that memory stays bounded
whatever the number of units; percentile or BCa intervals; rank intervals and statistically tied groups.

One stream of resamples serves every mechanism: MEAN, MEDIAN (and the adjusted mean of an incomplete file), BT and
the P matrix use all ``n_resamples``; Elo and TrueSkill, which replay every game, the first
``n_resamples_sequential`` (each replayed in a random order of its games, :mod:`.sequential`).
"""

from __future__ import annotations

import time

import numpy as np
from scipy import stats

from .. import bt

#: elements per block of resampled values (bounds the memory of the vectorised bootstrap)
BLOCK = 1 << 23
#: groups of units in the grouped jackknife that gives BCa's acceleration
JACKKNIFE_GROUPS = 100
METHODS = ("percentile", "bca")
#: every BT fit of ``compare`` is solved to the maximum-likelihood estimate (:func:`analysis.bt.fit`'s rule "mle"),
#: as evalica, choix, arena-rank and statsmodels solve it (bt.fit's default, written out here)
BT_RULE = "mle"


def index_blocks(gen: np.random.Generator, n_units: int, n_resamples: int, n_systems: int):
    """Yield (first resample, (k x n_units) unit indices) blocks; together they are ``gen.integers(0, n_units,
    size=(n_resamples, n_units))`` (the stream does not depend on the block size: tested). A block holds about
    :data:`BLOCK` elements of the largest per-resample array (unit counts, or a systems x systems win matrix)."""
    step = max(1, BLOCK // max(1, n_units, n_systems * n_systems))
    for start in range(0, n_resamples, step):
        k = min(step, n_resamples - start)
        yield start, gen.integers(0, n_units, size=(k, n_units))


class Progress:
    """``report(done)`` tells ``say`` how far the bootstrap is, at most every :attr:`every` seconds (a long run
    shows it is alive; a short one prints nothing)."""

    every = 10.0

    def __init__(self, say, total: int):
        self.say, self.total, self.clock = say, total, time.perf_counter
        self.last = self.clock()

    def __call__(self, done: int) -> None:
        now = self.clock()
        if now - self.last >= self.every and done < self.total:
            self.last = now
            self.say(f"bootstrap: {done:,} of {self.total:,} resamples")


def counts(idx: np.ndarray, n_units: int) -> np.ndarray:
    """(k x n_units) multiplicity of each unit in each resample of a block of indices."""
    k = len(idx)
    flat = (np.arange(k)[:, None] * n_units + idx).ravel()
    return np.bincount(flat, minlength=k * n_units).reshape(k, n_units).astype(float)


def bt_stack(credit, weights: np.ndarray, n_systems: int) -> np.ndarray:
    """(k x systems x systems) win matrices of k trials of unit weights (``credit``: units x systems², sparse)."""
    flat = np.asarray((credit.T @ weights.T).T)
    return np.ascontiguousarray(flat).reshape(-1, n_systems, n_systems)


def bt_strengths(stack: np.ndarray) -> np.ndarray:
    """BT strengths of every trial; a trial whose comparison graph falls apart (possible in a resample of sparse
    data) is NaN, so that it drops out of the interval rather than stopping the run."""
    try:
        return bt.fit(stack, rule=BT_RULE).strengths
    except ValueError:
        return np.vstack([_one(w) for w in stack])


def _one(wins: np.ndarray) -> np.ndarray:
    try:
        return bt.fit(wins, rule=BT_RULE).strengths[0]
    except ValueError:
        return np.full(len(wins), np.nan)


def prob_from_wins(stack: np.ndarray) -> np.ndarray:
    """P(row beats column) = wins / (wins + losses) of each trial's win matrix (ties already credited)."""
    games = stack + stack.transpose(0, 2, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(games > 0, stack / games, np.nan)


def interval(draws: np.ndarray, estimate: np.ndarray, confidence: float, method: str = "percentile",
             jackknife: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) per column of ``draws`` (resamples x systems, NaN resamples ignored): the percentile interval,
    or BCa (Efron 1987) with the bias from the share of draws below the estimate and the acceleration from
    ``jackknife`` (groups x systems, leave-one-group-out estimates). No draws: NaN."""
    if method not in METHODS:
        raise ValueError(f"unknown interval method {method!r}; expected one of {list(METHODS)}")
    draws = np.asarray(draws, dtype=float)
    s = draws.shape[1] if draws.ndim == 2 else 0
    if not len(draws):
        return np.full(s, np.nan), np.full(s, np.nan)
    alpha = (1 - confidence) / 2
    if method == "percentile" or jackknife is None:
        return tuple(nan_quantiles(draws, [alpha, 1 - alpha]))
    low, high = np.empty(s), np.empty(s)
    for j in range(s):
        d = draws[:, j][~np.isnan(draws[:, j])]
        if not len(d) or np.ptp(d) == 0:
            low[j] = high[j] = d[0] if len(d) else np.nan
            continue
        share = (np.mean(d < estimate[j]) + 0.5 * np.mean(d == estimate[j]))
        z0 = stats.norm.ppf(np.clip(share, 1 / (2 * len(d)), 1 - 1 / (2 * len(d))))
        jk = jackknife[:, j]
        dev = np.nanmean(jk) - jk
        denom = 6 * np.nansum(dev**2) ** 1.5
        a = np.nansum(dev**3) / denom if denom > 0 else 0.0
        qs = []
        for z in stats.norm.ppf([alpha, 1 - alpha]):
            qs.append(stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))
        low[j], high[j] = np.quantile(d, qs)
    return low, high


def jackknife_groups(n_units: int) -> np.ndarray:
    """(groups x units) 0/1 weights: each row leaves out one of :data:`JACKKNIFE_GROUPS` contiguous groups."""
    g = min(JACKKNIFE_GROUPS, n_units)
    group = np.arange(n_units) * g // n_units
    return (group[None, :] != np.arange(g)[:, None]).astype(float)


def contain(estimate: np.ndarray, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The interval widened to its estimate where the resamples missed it (a biased or very skewed bootstrap
    distribution), with a flag per system saying where that happened."""
    widened = (estimate < low) | (estimate > high)
    return np.fmin(low, estimate), np.fmax(high, estimate), widened


def rank_draws(draws: np.ndarray) -> np.ndarray:
    """Each resample's rank of each system (1 = best; ties share the best rank); NaN resamples stay NaN."""
    from scipy.stats import rankdata

    ranks = rankdata(-draws, axis=1, method="min").astype(float)
    ranks[np.isnan(draws).any(axis=1)] = np.nan
    return ranks


def tied_groups(order, significant) -> list[int]:
    """Statistically tied groups in the order ``order`` (best first): a new group starts at a system that every
    system of the current group beats significantly (``significant[a, b]``: a significantly better than b), as
    WMT's clusters. Returns the group number (1 = top) of each system of ``order``."""
    groups, current, number = [], [], 1
    for system in order:
        if current and all(significant[a][system] for a in current):
            number += 1
            current = []
        current.append(system)
        groups.append(number)
    return groups


def resampled_means(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(k x systems) mean of each system over its scored units, each unit counted as often as ``weights`` (k x
    units) says: equal to the mean of the resampled rows, without gathering them."""
    present = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (weights @ np.where(present, values, 0.0)) / (weights @ present)


def resampled_medians(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(k x systems) median of each system over the resampled units ``idx`` (k x units) it is scored on: equal to
    ``np.nanmedian(values[idx], axis=1)``, by a partial sort per system (a full sort where scores are missing)."""
    k, n = idx.shape
    out = np.empty((k, values.shape[1]))
    for j in range(values.shape[1]):
        col = values[:, j]
        missing = np.isnan(col)
        if not missing.any():
            middle = [(n - 1) // 2, n // 2]
            part = np.partition(col[idx], middle, axis=1)
            out[:, j] = (part[:, middle[0]] + part[:, middle[1]]) / 2
            continue
        drawn = np.where(missing, np.inf, col)[idx]
        drawn.sort(axis=1)
        count = (~missing)[idx].sum(axis=1)
        lower, upper = np.maximum((count - 1) // 2, 0), np.maximum(count // 2, 0)
        pick = np.take_along_axis
        value = (pick(drawn, lower[:, None], axis=1)[:, 0] + pick(drawn, np.minimum(upper, n - 1)[:, None],
                                                                   axis=1)[:, 0]) / 2
        out[:, j] = np.where(count > 0, value, np.nan)
    return out


def weighted_medians(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(k x systems) median of each system over its scored units counted by ``weights``: equal to ``np.median`` of
    the rows repeated as often as their weights say (the mean of the two middle values for an even count), from
    one sort per system and one cumulative count per trial (for the jackknife's few 0/1 trials)."""
    counts = weights.astype(np.int32)
    out = np.empty((len(weights), values.shape[1]))
    for j in range(values.shape[1]):
        col = values[:, j]
        keep = np.flatnonzero(~np.isnan(col))
        order = keep[np.argsort(col[keep], kind="stable")]
        sorted_values = col[order]
        cum = np.cumsum(counts[:, order], axis=1, dtype=np.int32)
        for r in range(len(cum)):
            total = int(cum[r, -1])
            if total == 0:
                out[r, j] = np.nan
                continue
            lower, upper = np.searchsorted(cum[r], [(total + 1) // 2, total // 2 + 1])
            out[r, j] = (sorted_values[lower] + sorted_values[upper]) / 2
    return out


def nan_quantiles(draws: np.ndarray, qs) -> np.ndarray:
    """``np.nanquantile(draws, qs, axis=0)`` (linear interpolation) for any trailing shape, from one sort instead
    of one call per column; all-NaN columns give NaN."""
    draws = np.asarray(draws, dtype=float)
    ordered = np.sort(draws, axis=0)  # NaN last
    valid = (~np.isnan(draws)).sum(axis=0)
    out = []
    for q in qs:
        pos = q * np.maximum(valid - 1, 0)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, np.maximum(valid - 1, 0))
        a = np.take_along_axis(ordered, lo[None], axis=0)[0]
        b = np.take_along_axis(ordered, hi[None], axis=0)[0]
        value = a + (b - a) * (pos - lo)
        out.append(np.where(valid > 0, value, np.nan))
    return np.array(out)


def bootstrap_bt(values: np.ndarray, idx: np.ndarray, ties: str) -> np.ndarray:
    """BT strengths on the resamples ``idx`` (k x instances) of a score matrix: each resample's instance counts
    weight the per-instance comparisons, and the resamples are fitted as one stack (equal, bit for bit, to fitting
    each resampled matrix alone: tested in ``tests/test_bt.py``)."""
    from .evidence import credit_matrix, instance_comparisons

    credit = credit_matrix(instance_comparisons(values, [str(i) for i in range(values.shape[1])]), ties)
    return bt.fit(bt_stack(credit, counts(idx, len(values)), values.shape[1]), rule=BT_RULE).strengths
