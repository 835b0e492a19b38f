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

import numpy as np
import pandas as pd
from scipy import stats

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
    size = group.max() + 1
    count = np.bincount(group, w, size)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(group, w * np.where(w > 0, values, 0.0), size) / count
        dev = np.where(w > 0, values - mean[group], 0.0)
        sd = np.sqrt(np.bincount(group, w * dev * dev, size) / (count - 1))
        z = (values - mean[group]) / sd[group]
    bad = ~(sd > 1e-9 * np.maximum(1.0, np.abs(mean)))
    return np.where(keep & ~bad[group], z, np.nan)


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
    The products over values are sums over observations (a gather and a ``bincount``), not BLAS matrix products,
    which are slow for these thin matrices on a busy machine. ``weights``: a frequency weight per observation (an
    observation counted w times, e.g. a bootstrap resample's multiplicity; None = 1). Groups without observations get
    NaN.
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
    values, inverse = np.unique(scores, return_inverse=True)
    flat = np.bincount(groups * len(values) + inverse, w, minlength=n_groups * len(values))
    counts = flat.reshape(n_groups, len(values))
    below = np.cumsum(counts, axis=1) - counts
    k = n_groups
    cells = (groups[:, None] * k + np.arange(k)[None, :]).ravel()

    def over_observations(per_value: np.ndarray, factor: np.ndarray) -> np.ndarray:
        """M[i, j] = sum over observations o of group i of factor[o] * per_value[j, value(o)] (row o of the
        gathered values, as in a ``bincount`` over observations in their order)."""
        gathered = np.ascontiguousarray(per_value.T)[inverse]
        gathered *= factor[:, None]
        return np.bincount(cells, gathered.ravel(), k * k).reshape(k, k)

    u = over_observations(below + counts / 2, w)
    n = counts.sum(axis=1)
    n_i, n_j = n[:, None], n[None, :]
    cubed = np.zeros_like(flat)  # the matrix is mostly zeros (a value is rarely in two groups): cube only the others
    occupied = np.flatnonzero(flat)
    cubed[occupied] = flat[occupied] ** 3
    cubes = cubed.reshape(n_groups, len(values)).sum(axis=1)
    cross = over_observations(counts, w * counts[groups, inverse])  # sum_v N_i(v)^2 N_j(v)
    ties = cubes[:, None] + cubes[None, :] + 3 * cross + 3 * cross.T - n_i - n_j
    total = n_i + n_j
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(n_i * n_j / 12 * ((total + 1) - ties / (total * (total - 1))))
        mean = n_i * n_j / 2
        if variant == "greater":
            p = stats.norm.sf((u - mean - 0.5) / sd)
        else:
            big = np.maximum(u, u.T)
            p = np.minimum(2 * stats.norm.sf((big - mean - 0.5) / sd), 1.0) / 2
    p[(n_i == 0) | (n_j == 0)] = np.nan
    np.fill_diagonal(p, np.nan)
    return p


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
        clusters = np.asarray(clusters)
        return [sorted(np.asarray(order)[clusters == c]) for c in np.unique(clusters)]

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
    upper = np.triu(np.ones((k, k), bool), 1)
    discordant = (np.sign(rank_a[:, None] - rank_a[None, :]) != np.sign(rank_b[:, None] - rank_b[None, :])) & upper
    da = np.sign(cluster_a[:, None] - cluster_a[None, :])
    db = np.sign(cluster_b[:, None] - cluster_b[None, :])
    reversals = (da * db < 0) & upper
    n_pairs = k * (k - 1) // 2
    return {"discordant": int(discordant.sum()), "tau_distance": discordant.sum() / n_pairs if n_pairs else 0.0,
            "reversals": int(reversals.sum())}
