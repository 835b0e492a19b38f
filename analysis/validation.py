"""Checks shared by every function that takes a score matrix or a score vector.

A *score matrix* follows the Pairformance convention of Peyrard et al. (2021): a pandas DataFrame whose rows are
test instances and whose columns are systems. Bad input fails here, early, with a ``ValueError`` that names the
problem, instead of producing a silent wrong number further down in numpy.
"""

from __future__ import annotations

import numbers
from collections import Counter

import numpy as np
import pandas as pd

TIE_POLICIES = ("half", "drop", "loss")  # the one tie vocabulary (credits: analysis.comparisons.TIES)


def check_scores(scores: pd.DataFrame, *, min_systems: int = 2, allow_missing: bool = False,
                 name: str = "scores") -> np.ndarray:
    """Validate a score matrix and return its values as a float64 array (instances x systems).

    Raises ``ValueError`` for: not a DataFrame, fewer than ``min_systems`` columns, no rows, duplicated system
    names, non-numeric (boolean or complex) columns, NaN (unless ``allow_missing``: then NaN means "not rated") or
    infinite values. ``name`` is how the messages call the matrix.
    """
    if not isinstance(scores, pd.DataFrame):
        raise ValueError(
            f"{name} must be a pandas DataFrame (rows = test instances, columns = systems), got {type(scores).__name__}"
        )
    n_instances, n_systems = scores.shape
    if n_systems < min_systems:
        raise ValueError(f"{name} must have at least {min_systems} systems (columns), got {n_systems}")
    if n_instances == 0:
        raise ValueError(f"{name} has no test instances (zero rows)")
    if scores.columns.has_duplicates:
        dup = scores.columns[scores.columns.duplicated()].unique().tolist()
        raise ValueError(f"system names (columns) must be unique; duplicated: {dup}")
    float_columns = all(isinstance(dt, np.dtype) and dt == np.float64 for dt in scores.dtypes)  # the common case
    bad_dtypes = set() if float_columns else {
        dt for dt in set(scores.dtypes)
        if not pd.api.types.is_numeric_dtype(dt) or pd.api.types.is_bool_dtype(dt) or pd.api.types.is_complex_dtype(dt)
    }
    if bad_dtypes:
        bad = [c for c, dt in scores.dtypes.items() if dt in bad_dtypes]
        raise ValueError(f"{name} must be real numbers (not booleans, text or complex numbers); "
                         f"non-numeric columns: {bad}")
    values = scores.to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isfinite(values).all():  # one pass; the checks below only name what is wrong
        return values
    if not allow_missing and np.isnan(values).any():
        where = scores.columns[np.isnan(values).any(axis=0)].tolist()
        raise ValueError(f"{name} contain NaN (missing scores) in columns {where}; drop or impute them first")
    if np.isinf(values).any():
        where = scores.columns[np.isinf(values).any(axis=0)].tolist()
        raise ValueError(f"{name} contain infinite values in columns {where}")
    return values


def system_names(names, what: str = "system names") -> tuple[str, ...]:
    """``names`` as strings, refusing missing values, booleans and names that only differ in type: ``1`` and
    ``"1"`` would become one system (a silent self-comparison)."""
    names = list(names)
    for name in names:
        if isinstance(name, (bool, np.bool_)) or not isinstance(name, (str, numbers.Integral)):
            kind = "missing value" if pd.isna(name) else type(name).__name__
            raise ValueError(f"{what} must be strings or integers, got the {kind} {name!r}")
    text = [str(n) for n in names]
    clashes = sorted(t for t, count in Counter(text).items() if count > 1)
    if clashes:
        raise ValueError(f"{what} must be unique as text; {clashes} name more than one system (e.g. 1 and '1')")
    return tuple(text)


def real_array(values, name: str) -> np.ndarray:
    """``values`` as a float64 array, refusing what only looks numeric: booleans, strings, complex numbers, objects
    (``numpy`` would turn ``"1"`` or ``True`` into 1.0 and drop an imaginary part with a warning)."""
    arr = np.asarray(values)
    if arr.dtype.kind == "O":
        bad = next((v for v in arr.ravel() if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real)),
                   None)
        if bad is not None:
            what = "missing values" if pd.isna(bad) else f"{type(bad).__name__} {bad!r}"
            raise ValueError(f"{name} must be real numbers, got {what}")
    elif arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be real numbers, got dtype {arr.dtype} ({_KINDS.get(arr.dtype.kind, 'other')})")
    return arr.astype(np.float64)


_KINDS = {"b": "bool", "c": "complex", "U": "str", "S": "bytes", "M": "datetime", "m": "timedelta"}


def align_series(a, b, what: str = "paired scores", label: str = "instance") -> tuple:
    """Pair two vectors by label when both are Series: the same labels in another order are reordered like ``a``;
    different labels, or duplicated labels in either Series, are refused (pairing them by position would compare
    unrelated ``label``s). Anything else is returned as it is, to be paired by position."""
    for name, s in (("a", a), ("b", b)):
        if isinstance(s, pd.Series) and not s.index.is_unique:
            dup = s.index[s.index.duplicated()].unique().tolist()[:5]
            raise ValueError(f"{what} {name} has duplicated {label} labels {dup}; pairing would be ambiguous")
    if not (isinstance(a, pd.Series) and isinstance(b, pd.Series)) or a.index.equals(b.index):
        return a, b
    if set(a.index) != set(b.index):
        only = sorted(map(str, set(a.index) ^ set(b.index)))[:5]
        raise ValueError(f"{what} are indexed by different {label}s (e.g. {only}); align them first")
    return a, b.reindex(a.index)


def check_pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Validate two paired score vectors and return them as float64 arrays. Series are paired by their index
    labels; anything else by position."""
    a, b = align_series(a, b)
    x = real_array(a, "paired scores")
    y = real_array(b, "paired scores")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"paired scores must be one-dimensional, got shapes {x.shape} and {y.shape}")
    if len(x) != len(y):
        raise ValueError(f"paired scores must have the same length, got {len(x)} and {len(y)}")
    if len(x) == 0:
        raise ValueError("paired scores are empty")
    _check_finite_pair(x, y)
    return x, y


def check_pairs(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Validate two (pairs x instances) arrays of paired scores (row k of each is pair k) and return them as
    C-contiguous float64 arrays; as :func:`check_pair` on every row."""
    x = real_array(a, "paired scores")
    y = real_array(b, "paired scores")
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"batched paired scores must be (pairs x instances) arrays, got shapes {x.shape} and "
                         f"{y.shape}")
    if x.shape != y.shape:
        raise ValueError(f"batched paired scores must have the same shape, got {x.shape} and {y.shape}")
    if x.shape[1] == 0:
        raise ValueError("paired scores are empty")
    _check_finite_pair(x, y)
    return np.ascontiguousarray(x), np.ascontiguousarray(y)


def _check_finite_pair(x: np.ndarray, y: np.ndarray) -> None:
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("paired scores contain NaN (missing scores)")
    if np.isinf(x).any() or np.isinf(y).any():
        raise ValueError("paired scores contain infinite values")


def check_count(value, name: str, minimum: int = 1) -> int:
    """An integer parameter (not a bool, a float or a string) of at least ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_number(value, name: str, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False) -> float:
    """A finite real parameter (not a bool or a string) in the range [low, high] (ends open as asked)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)) and np.isfinite(value)
    if ok and low is not None:
        ok = value > low if low_open else value >= low
    if ok and high is not None:
        ok = value < high if high_open else value <= high
    if not ok:
        lo = "" if low is None else f"{'(' if low_open else '['}{low}, "
        hi = "" if high is None else f"{high}{')' if high_open else ']'}"
        where = f" in {lo or '(-inf, '}{hi or 'inf)'}" if lo or hi else ""
        raise ValueError(f"{name} must be a finite number{where}, got {value!r}")
    return float(value)


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
