"""Checks shared by every function that takes a score matrix or a score vector.

A *score matrix* follows the Pairformance convention of Peyrard et al. (2021): a pandas DataFrame whose rows are
test instances and whose columns are systems. Bad input fails here, early, with a ``ValueError`` that names the
problem, instead of producing a silent wrong number further down in numpy.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

TIE_POLICIES = ("half", "drop", "loss")


def check_scores(scores: pd.DataFrame, *, min_systems: int = 2) -> np.ndarray:
    """Validate a score matrix and return its values as a float64 array (instances x systems).

    Raises ``ValueError`` for: not a DataFrame, fewer than ``min_systems`` columns, no rows, duplicated system
    names, non-numeric (or boolean) columns, NaN or infinite values.
    """
    if not isinstance(scores, pd.DataFrame):
        raise ValueError(
            f"scores must be a pandas DataFrame (rows = test instances, columns = systems), got {type(scores).__name__}"
        )
    n_instances, n_systems = scores.shape
    if n_systems < min_systems:
        raise ValueError(f"scores must have at least {min_systems} systems (columns), got {n_systems}")
    if n_instances == 0:
        raise ValueError("scores has no test instances (zero rows)")
    if scores.columns.has_duplicates:
        dup = scores.columns[scores.columns.duplicated()].unique().tolist()
        raise ValueError(f"system names (columns) must be unique; duplicated: {dup}")
    bad_dtypes = {
        dt for dt in set(scores.dtypes) if not pd.api.types.is_numeric_dtype(dt) or pd.api.types.is_bool_dtype(dt)
    }
    if bad_dtypes:
        bad = [c for c, dt in scores.dtypes.items() if dt in bad_dtypes]
        raise ValueError(f"scores must be numeric; non-numeric columns: {bad}")
    values = scores.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(values).any():
        where = scores.columns[np.isnan(values).any(axis=0)].tolist()
        raise ValueError(f"scores contain NaN (missing scores) in columns {where}; drop or impute them first")
    if np.isinf(values).any():
        where = scores.columns[np.isinf(values).any(axis=0)].tolist()
        raise ValueError(f"scores contain infinite values in columns {where}")
    return values


def check_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Validate two paired score vectors (same test instances, same order) and return them as float64 arrays."""
    x = np.asarray(a, dtype=object)
    y = np.asarray(b, dtype=object)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"paired scores must be one-dimensional, got shapes {x.shape} and {y.shape}")
    if len(x) != len(y):
        raise ValueError(f"paired scores must have the same length, got {len(x)} and {len(y)}")
    if len(x) == 0:
        raise ValueError("paired scores are empty")
    try:
        x = x.astype(np.float64)
        y = y.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"paired scores must be numeric: {exc}") from None
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("paired scores contain NaN (missing scores)")
    if np.isinf(x).any() or np.isinf(y).any():
        raise ValueError("paired scores contain infinite values")
    return x, y


def check_tie_policy(ties: str, allowed: tuple[str, ...] = TIE_POLICIES) -> str:
    if ties not in allowed:
        raise ValueError(f"unknown tie policy {ties!r}; expected one of {list(allowed)}")
    return ties


def check_rng(rng) -> np.random.Generator:
    """Accept a numpy Generator or an integer seed; refuse ``None`` so that no result depends on global state."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be a numpy.random.Generator or an integer seed, got {rng!r}")
