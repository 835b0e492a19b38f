"""How much two aggregation mechanisms disagree on one evaluation setup (Peyrard et al. 2021, §5, Table 1).

Three measures, as in Table 1: the share of system pairs ordered differently (a rescaling of Kendall's tau), whether
the state-of-the-art (top-1) system differs, and whether the top-3 *sets* differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .aggregate import AGGREGATORS
from .validation import check_scores


def _as_vector(x, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    return arr


def _aligned(a, b) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(a, pd.Series) and isinstance(b, pd.Series):
        if not a.index.equals(b.index):
            if set(a.index) != set(b.index):
                raise ValueError("the two score vectors are indexed by different systems")
            b = b.reindex(a.index)
    x, y = _as_vector(a, "a"), _as_vector(b, "b")
    if len(x) != len(y):
        raise ValueError(f"score vectors must have the same length, got {len(x)} and {len(y)}")
    if len(x) < 2:
        raise ValueError("need at least two systems to compare rankings")
    return x, y


def disagreement(a, b) -> float:
    """(1 - Kendall tau_b) / 2 between two score vectors over the same systems.

    0 means the same order, 1 the reversed order; without ties it is exactly the share of system pairs ordered
    differently. Series are aligned on their index. A constant vector has no order, so tau is undefined: ValueError.
    """
    x, y = _aligned(a, b)
    if np.all(x == x[0]) or np.all(y == y[0]):
        raise ValueError("disagreement is undefined when one score vector is constant (it ranks no pair)")
    tau = stats.kendalltau(x, y).statistic
    return float((1.0 - tau) / 2.0)


def top_k(scores, k: int) -> list[int]:
    """Positions of the k highest scores. Ties are broken by position: the earlier system (column) ranks higher."""
    x = _as_vector(scores, "scores")
    if not 1 <= k <= len(x):
        raise ValueError(f"k must be between 1 and the number of systems ({len(x)}), got {k}")
    order = np.argsort(-x, kind="stable")
    return sorted(order[:k].tolist())


def top_k_differs(a, b, k: int) -> bool:
    """True when the top-k *sets* of systems differ (order inside the set does not matter; ties as in :func:`top_k`)."""
    x, y = _aligned(a, b)
    return top_k(x, k) != top_k(y, k)


def compare_aggregators(
    scores: pd.DataFrame,
    aggregators: Mapping[str, Callable[[pd.DataFrame], pd.Series]] | None = None,
    k: int = 3,
) -> pd.Series:
    """Aggregate one score matrix with every mechanism and compare every pair of them: one row of results.

    Returns a Series with ``n_instances``, ``n_systems`` and, for each pair ``a_b`` of mechanisms (in the given order,
    ``itertools.combinations``), ``a_b_disagree`` (:func:`disagreement`), ``a_b_top1`` and ``a_b_top{k}``
    (:func:`top_k_differs`, as 0/1). ``k`` is capped at the number of systems. Default mechanisms: mean, median,
    bt, elo, trueskill with their default parameters.
    """
    check_scores(scores)
    aggregators = dict(AGGREGATORS if aggregators is None else aggregators)
    results = {name: np.asarray(fn(scores), dtype=float) for name, fn in aggregators.items()}
    n_instances, n_systems = scores.shape
    kk = min(k, n_systems)
    row: dict[str, float] = {"n_instances": n_instances, "n_systems": n_systems}
    for a, b in combinations(aggregators, 2):
        try:
            row[f"{a}_{b}_disagree"] = disagreement(results[a], results[b])
        except ValueError:
            row[f"{a}_{b}_disagree"] = np.nan  # a constant aggregate ranks nothing; counted as missing, not as 0
        row[f"{a}_{b}_top1"] = float(top_k_differs(results[a], results[b], 1))
        row[f"{a}_{b}_top{k}"] = float(top_k_differs(results[a], results[b], kk))
    return pd.Series(row)
