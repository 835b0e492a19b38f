"""WMT's direct-assessment (DA) scoring procedure (Knowles 2021, Sec. 2; Graham et al. 2016).

1. Each worker's raw 0-100 scores are standardised with the mean and standard deviation (ddof = 1, as R's ``sd``)
   of *all* the worker's scores, including REF, BAD_REF and REPEAT items (Knowles 2021, Eq. 1).
2. Only SYSTEM and REPEAT items count towards a system; their scores are first averaged per (system, segment) so
   that a segment judged several times does not weigh more (the official scripts key segments by system and
   segment id; the published document ids are per-HIT instances and are not part of the key).
3. A system's score is the mean of its segment scores.

The input is a frame of judgments with the columns of the ``wmt_judgments`` table (``worker``, ``system``,
``segment``, ``item_type`` and the score column); :func:`system_scores` reproduces the official system z scores from
the published per-judgment z to floating-point precision (tests/test_wmt.py).
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
from scipy import special

from .validation import check_number, real_array

#: item types that count towards a system's score; REF and BAD_REF are quality control only
SCORED_TYPES = ("SYSTEM", "REPEAT")


def _require(judgments: pd.DataFrame, columns: list[str]) -> None:
    if not isinstance(judgments, pd.DataFrame):
        raise TypeError("judgments must be a pandas DataFrame")
    missing = [c for c in columns if c not in judgments.columns]
    if missing:
        raise ValueError(f"judgments lack the column(s) {missing}")
    if judgments.empty:
        raise ValueError("judgments are empty")


def z_scores(values, group, keep=None, pool=None, weights=None) -> np.ndarray:
    """The one WMT standardisation (Knowles 2021, Eq. 1): per-group z (ddof = 1) of ``values`` (float array),
    mean and sd over the rows that are both kept and in the pool (each counted ``weights`` times; default: every
    row, once), for every kept row; NaN elsewhere and for groups without two distinct kept values (WMT drops a
    worker whose sd is 0). ``group``: integer codes from 0."""
    values = np.asarray(values, dtype=float)
    group = np.asarray(group)
    keep = np.ones(len(values), bool) if keep is None else np.asarray(keep, bool)
    pool = np.ones(len(values), bool) if pool is None else np.asarray(pool, bool)
    w = (keep & pool).astype(float) if weights is None else (keep & pool) * weights
    return _standardise(values, group.astype(np.int64, copy=False), np.asarray(w, dtype=float), keep,
                        int(group.max()) + 1)


@numba.njit(cache=True, error_model="numpy")
def _standardise(values, group, w, keep, size):  # pragma: no cover (compiled)
    """:func:`z_scores` with its row weights ``w``, bit for bit numpy's ``bincount`` sums and elementwise steps: per
    group, mean = sum(w * value) / sum(w) and sd = sqrt(sum(w * dev * dev) / (sum(w) - 1)) over the rows with
    w > 0, each sum added row after row from 0; NaN for rows not kept and groups whose sd is not above
    1e-9 * max(1, |mean|)."""
    n = len(values)
    count = np.zeros(size)
    total = np.zeros(size)
    for i in range(n):
        count[group[i]] += w[i]
        total[group[i]] += w[i] * (values[i] if w[i] > 0 else 0.0)
    mean = total / count
    squares = np.zeros(size)
    for i in range(n):
        dev = values[i] - mean[group[i]] if w[i] > 0 else 0.0
        squares[group[i]] += w[i] * dev * dev
    sd = np.sqrt(squares / (count - 1))
    good = np.empty(size, np.bool_)
    for g in range(size):
        magnitude = abs(mean[g])
        floor = magnitude if (np.isnan(magnitude) or magnitude > 1.0) else 1.0  # np.maximum(1.0, |mean|)
        good[g] = sd[g] > 1e-9 * floor
    out = np.empty(n)
    for i in range(n):
        g = group[i]
        out[i] = (values[i] - mean[g]) / sd[g] if keep[i] and good[g] else np.nan
    return out


def standardise(judgments: pd.DataFrame, value: str = "raw", by: str | list[str] = "worker") -> pd.Series:
    """Per-worker z of ``value`` over all of the worker's items (Knowles 2021, Eq. 1; ddof = 1).

    The organisers' scripts standardise each language pair's file on its own, so a worker who judged two pairs has
    one mean and sd per pair: pass ``by=["worker", "pair"]`` to reproduce them (the Facebook-Wikipedia package has
    such a worker). A worker with a single judgment or constant scores has no defined z; that is an error, not a
    silent NaN. Computed by :func:`z_scores`.
    """
    keys = [by] if isinstance(by, str) else list(by)
    _require(judgments, [value, *keys])
    scores = judgments[value]
    if scores.isna().any():
        raise ValueError(f"{value} has missing values; standardise only judgments whose {value} is known")
    codes = judgments.groupby(keys, sort=False, observed=True, dropna=False).ngroup().to_numpy()
    if judgments[keys].isna().any().any():
        raise ValueError(f"{keys} have missing values; every judgment needs its worker")
    z = z_scores(scores.to_numpy(dtype=float), codes)
    if np.isnan(z).any():
        bad = judgments.loc[np.isnan(z), keys].drop_duplicates().head(5).to_numpy().tolist()
        raise ValueError(f"worker(s) {bad} have fewer than two judgments or constant scores: z is undefined")
    return pd.Series(z, index=judgments.index, name=value)


def segment_scores(judgments: pd.DataFrame, value: str = "z") -> pd.DataFrame:
    """Mean ``value`` and judgment count per (system, segment) over SYSTEM and REPEAT items; the ``value`` column
    must hold real numbers (not booleans, strings or complex numbers) and there must be such items."""
    _require(judgments, ["system", "segment", "item_type", value])
    dtype = judgments[value].dtype
    if (not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype)
            or pd.api.types.is_complex_dtype(dtype)):
        raise ValueError(f"judgments column {value!r} must hold real numbers, got dtype {dtype}")
    kept = judgments[judgments["item_type"].isin(SCORED_TYPES)]
    if kept.empty:
        types = sorted(map(str, judgments["item_type"].unique()))[:5]
        raise ValueError(f"judgments have no {' or '.join(SCORED_TYPES)} items (column 'item_type' holds {types})")
    if kept[value].isna().any():
        raise ValueError(f"{value} has missing values among SYSTEM/REPEAT judgments")
    grouped = kept.groupby(["system", "segment"], sort=False, observed=True)[value]
    return grouped.agg(score="mean", n="size").reset_index()


def system_scores(judgments: pd.DataFrame, value: str = "z") -> pd.DataFrame:
    """Official-style system scores: the mean of the segment means; best first.

    Returns a frame indexed by system with ``score``, ``n_segments`` and ``n_judgments``.
    """
    segments = segment_scores(judgments, value)
    out = segments.groupby("system", sort=False, observed=True).agg(
        score=("score", "mean"), n_segments=("score", "size"), n_judgments=("n", "sum"))
    return out.sort_values("score", ascending=False, kind="stable")


# -- significance clusters (Knowles 2021, Sec. 3 and footnote 4) -----------------------------------------------------

#: Mann-Whitney / Wilcoxon rank-sum p-value variants, both the normal approximation with tie and continuity correction:
#: ``"scipy<1.7"``: scipy's old default (``alternative=None``), a one-sided p in the direction of the observed
#: difference, i.e. half the two-sided p (what Knowles 2021's code used); ``"greater"``: the one-sided p that the row
#: system is better (R's ``wilcox.test(x, y, alternative="greater")`` for samples this large).
RANK_SUM_VARIANTS = ("scipy<1.7", "greater")


def rank_sum_pvalues(groups, scores, n_groups: int, variant: str = "greater", weights=None) -> np.ndarray:
    """Wilcoxon rank-sum p-values for every ordered pair of groups at once: ``p[i, j]`` for "i is better than j".

    ``groups`` (integer codes in ``[0, n_groups)``) and ``scores`` are parallel arrays, one value per observation
    (in WMT, one per (system, segment) average). Instead of one test per pair, the counts of each distinct value per
    group (an ``n_groups x n_values`` matrix N) give all Mann-Whitney U statistics at once,
    ``U[i, j] = N_i . (N_j below + N_j equal / 2)``, and all tie corrections from ``sum (t^3 - t)`` expanded in the
    per-value counts; equal to ``scipy.stats.mannwhitneyu(method="asymptotic")`` pair by pair (tests/test_wmt.py).
    The products over values are sums over observations in their order, in one compiled pass (:func:`_u_and_cross`,
    bit for bit the numpy gather and ``bincount`` it replaced), not BLAS matrix products. ``weights``: a frequency
    weight per observation (an observation counted w times, e.g. a bootstrap resample's multiplicity; None = 1).
    Groups without observations get NaN.
    """
    if variant not in RANK_SUM_VARIANTS:
        raise ValueError(f"variant must be one of {list(RANK_SUM_VARIANTS)}, got {variant!r}")
    groups = np.asarray(groups)
    scores = np.asarray(scores, dtype=float)
    if groups.shape != scores.shape or groups.ndim != 1:
        raise ValueError("groups and scores must be 1-d arrays of the same length")
    if not np.isfinite(scores).all():
        raise ValueError("scores must be finite")
    if len(groups) and (groups.min() < 0 or groups.max() >= n_groups):
        raise ValueError(f"group codes must lie in [0, {n_groups})")
    w = np.ones(len(groups)) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != scores.shape or not (np.isfinite(w).all() and (w >= 0).all()):
        raise ValueError("weights must be finite, non-negative and one per observation")
    k = n_groups
    inverse, n_values = _unique_inverse(scores)
    observed = groups * n_values + inverse  # (group, value) of each observation in the group-major matrix
    flat = np.bincount(observed, w, minlength=k * n_values)
    counts = flat.reshape(k, n_values)
    counts_t = np.bincount(inverse * k + groups, w, minlength=n_values * k).reshape(n_values, k)  # value-major
    u, cross = _u_and_cross(groups.astype(np.int64, copy=False), inverse.astype(np.int64, copy=False), w, counts_t)
    n = counts.sum(axis=1)
    n_i, n_j = n[:, None], n[None, :]
    cubed = np.zeros_like(flat)  # the matrix is mostly zeros (a value is rarely in two groups): cube only the others
    cubed[observed] = flat[observed] ** 3
    cubes = cubed.reshape(k, n_values).sum(axis=1)
    ties = cubes[:, None] + cubes[None, :] + 3 * cross + 3 * cross.T - n_i - n_j
    total = n_i + n_j
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(n_i * n_j / 12 * ((total + 1) - ties / (total * (total - 1))))
        mean = n_i * n_j / 2
        if variant == "greater":
            p = special.ndtr(-((u - mean - 0.5) / sd))  # the normal survival function (scipy.stats.norm.sf)
        else:
            big = np.maximum(u, u.T)
            p = np.minimum(2 * special.ndtr(-((big - mean - 0.5) / sd)), 1.0) / 2
    p[(n_i == 0) | (n_j == 0)] = np.nan
    np.fill_diagonal(p, np.nan)
    return p


def _unique_inverse(scores: np.ndarray) -> tuple[np.ndarray, int]:
    """``np.unique(scores, return_inverse=True)``'s inverse and the number of distinct values."""
    if not len(scores):
        return np.zeros(0, np.intp), 0
    order = scores.argsort()
    ordered = scores[order]
    new = np.empty(len(scores), bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(scores), np.intp)
    inverse[order] = np.cumsum(new) - 1
    return inverse, int(inverse[order[-1]]) + 1


@numba.njit(cache=True)
def _u_and_cross(groups, inverse, w, counts_t):  # pragma: no cover (compiled)
    """U[i, j] = sum over observations o of group i of w[o] * (below[j, v] + counts[j, v] / 2) and the ties' cross
    term C[i, j] = sum over o of (w[o] * counts[i, v]) * counts[j, v] (v = o's value; below = the cumulative count
    of values under v), each added observation after observation from 0 as numpy's gather and ``bincount`` over
    observations did, with the same roundings: bit for bit its result."""
    n_values, k = counts_t.shape
    per_value = np.empty((n_values, k))
    for j in range(k):
        running = 0.0
        for v in range(n_values):
            c = counts_t[v, j]
            running = c if v == 0 else running + c  # np.cumsum
            per_value[v, j] = (running - c) + c / 2
    u = np.zeros((k, k))
    cross = np.zeros((k, k))
    for o in range(len(groups)):
        g = groups[o]
        v = inverse[o]
        weight = w[o]
        factor = weight * counts_t[v, g]
        for j in range(k):
            u[g, j] += per_value[v, j] * weight
            cross[g, j] += counts_t[v, j] * factor
    return u, cross

def significance_lines(pvalues: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Where WMT draws a line, for systems in ranking order (best first): after position i iff system i is
    significantly better (p < alpha) than *every* system below it (Knowles 2021, footnote 4).

    ``pvalues[i, j]`` is the p-value of "i better than j" in that order; returns ``len - 1`` booleans.
    """
    alpha = check_number(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    p = real_array(pvalues, "pvalues")
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError("pvalues must be a square matrix")
    upper = np.triu(np.ones_like(p, dtype=bool), 1)
    if np.isnan(p[upper]).any():
        raise ValueError("pvalues has missing entries above the diagonal")
    outside = p[upper][(p[upper] < 0) | (p[upper] > 1)]
    if outside.size:
        raise ValueError(f"pvalues must lie in [0, 1]; got {outside[:3].tolist()} above the diagonal")
    worst = np.where(upper, p, -np.inf).max(axis=1)
    return worst[:-1] < alpha


def clusters_from_lines(lines) -> np.ndarray:
    """Cluster number of each position (0 = top cluster) from the lines between consecutive positions."""
    return np.concatenate([[0], np.cumsum(np.asarray(lines, dtype=int))])


def ranking_changes(order_a, clusters_a, order_b, clusters_b) -> tuple[bool, bool]:
    """Knowles 2021's Δrank and Δcluster between two rankings of the same systems (Sec. 5.2; her
    ``compare_rankings.py``): Δrank = the order of systems differs, ignoring lines; Δcluster = the clusters differ
    as sets of systems (number, composition or order of the clusters), ignoring the order within a cluster."""
    order_a, order_b = list(order_a), list(order_b)
    if sorted(order_a) != sorted(order_b) or len(set(order_a)) != len(order_a):
        raise ValueError("the two rankings must hold the same systems, each once")

    def as_sets(order, clusters):
        members = {}  # cluster -> its systems; the clusters in order of their numbers, each sorted
        for system, cluster in zip(order, np.asarray(clusters).tolist()):
            members.setdefault(cluster, []).append(system)
        return [sorted(members[c]) for c in sorted(members)]

    return order_a != order_b, as_sets(order_a, clusters_a) != as_sets(order_b, clusters_b)


def ranking_effect_sizes(order_a, clusters_a, order_b, clusters_b) -> dict:
    """How far two rankings of the same systems differ, beside :func:`ranking_changes`' yes/no flags:
    ``discordant`` = the Kendall-tau distance (system pairs ordered differently), ``tau_distance`` = that over all
    pairs (0 = same order, 1 = reversed), and ``reversals`` = significant reversals, system pairs that one ranking
    puts in strictly ordered clusters one way and the other the other way (a swap inside a cluster is a tie by
    WMT's own rules, so it is no reversal)."""
    order_a, order_b = list(order_a), list(order_b)
    if sorted(order_a) != sorted(order_b) or len(set(order_a)) != len(order_a):
        raise ValueError("the two rankings must hold the same systems, each once")
    k = len(order_a)
    at_b = {s: i for i, s in enumerate(order_b)}
    rank_a = np.arange(k)
    rank_b = np.array([at_b[s] for s in order_a])
    cluster_a = np.asarray(clusters_a)
    cluster_b = np.asarray(clusters_b)[rank_b]
    upper = ~np.tri(k, dtype=bool)  # above the diagonal
    discordant = (np.sign(rank_a[:, None] - rank_a[None, :]) != np.sign(rank_b[:, None] - rank_b[None, :])) & upper
    da = np.sign(cluster_a[:, None] - cluster_a[None, :])
    db = np.sign(cluster_b[:, None] - cluster_b[None, :])
    reversals = (da * db < 0) & upper
    n_pairs = k * (k - 1) // 2
    return {"discordant": int(discordant.sum()), "tau_distance": discordant.sum() / n_pairs if n_pairs else 0.0,
            "reversals": int(reversals.sum())}
