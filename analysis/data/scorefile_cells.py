"""The columns and cells of a user's score or judgment file checked and converted (for
:mod:`analysis.data.scorefiles`): column names read in any case, numbers (the words of :data:`MISSING` are missing;
dates, true/false and infinite values refused), system names, instance ids (:data:`ID_COLUMNS`,
:func:`instance_ids`), ``where`` selections, and JSON lines or Parquet cells that hold an object or a list where one
value is read; each error names the line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .scorefile_tables import ScoreFileError, _Table

#: column names (any case) that name instances in a wide file; "" and "unnamed: 0" are pandas' unnamed index; any
#: other name ending in "_id" or "id" after a separator (``doc_id``, ``example-id``) names them too
ID_COLUMNS = ("instance", "id", "index", "item", "segment", "seg_id", "segment_id", "", "unnamed: 0", "idx",
              "doc", "document", "example", "sample", "uid", "key")
#: score cells read as "no score"
MISSING = frozenset({"", "na", "n/a", "nan", "none", "null"})


def _shown(value):
    """A cell as a message shows it: numpy scalars as plain Python values (0, not np.int64(0))."""
    return value.item() if isinstance(value, np.generic) else value


def _scalar_cells(table: _Table, frame: pd.DataFrame, columns, path: Path, line) -> None:
    """JSON lines and Parquet cells that are objects or lists (``{"n": "x"}``) are refused where a name, a winner,
    an id or a number is read (they would be read as their text)."""
    if not table.structured:
        return
    for column in columns:
        values = frame[column]
        if values.dtype != object:
            continue
        nested = values.map(lambda v: isinstance(v, (dict, list, tuple, set, np.ndarray))).to_numpy(dtype=bool)
        if nested.any():
            i = np.flatnonzero(nested)[0]
            kind = "an object" if isinstance(values.iloc[i], dict) else "a list"
            raise ScoreFileError(f"{path}: line {line.iloc[i]}, column {column!r} holds {kind} "
                                 f"({_short(values.iloc[i])}), not a single value")


def _short(value) -> str:
    text = repr(value if not isinstance(value, np.ndarray) else value.tolist())
    return text if len(text) <= 40 else text[:39] + "…"


def _canonical_names(frame: pd.DataFrame, names, path: Path) -> pd.DataFrame:
    """Columns named ``names`` in any case or with spaces around them, renamed to those names; two columns that
    would both become one name (``winner`` and ``Winner``) are refused, naming both."""
    seen: dict[str, object] = {}
    for c in frame.columns:
        key = str(c).strip().lower()
        if key in names:
            if key in seen:
                raise ScoreFileError(f"{path}: columns {str(seen[key])!r} and {str(c)!r} both read as column "
                                     f"{key!r} (column names are read in any case); rename or remove one")
            seen[key] = c
    return frame.rename(columns={c: key for key, c in seen.items()})


def _numeric(values: pd.Series, path: Path, what: str, line_of, missing_is: str | None = None) -> pd.Series:
    """Numbers from a column of text or numbers; the words of :data:`MISSING` are NaN. Dates and times are refused,
    as are infinite values."""
    if pd.api.types.is_datetime64_any_dtype(values) or pd.api.types.is_timedelta64_dtype(values):
        raise ScoreFileError(f"{path}: {what} holds dates or times ({values.dtype}), not numbers")
    if pd.api.types.is_bool_dtype(values):
        raise ScoreFileError(f"{path}: {what} holds true/false values, not numbers")
    if not pd.api.types.is_numeric_dtype(values):
        text = values.astype(str).str.strip()
        blank = text.str.lower().isin(MISSING)
        numbers = pd.to_numeric(text.where(~blank, "nan"), errors="coerce")
        bad = numbers.isna() & ~blank
    else:
        numbers = pd.to_numeric(values, errors="coerce")
        bad = numbers.isna() & values.notna()
    if bad.any():
        i = np.flatnonzero(bad.to_numpy())[0]
        raise ScoreFileError(f"{path}: {what} {_shown(values.iloc[i])!r} on {line_of(i)} is not a number")
    infinite = np.isinf(numbers.to_numpy(dtype=float))
    if infinite.any():
        i = np.flatnonzero(infinite)[0]
        raise ScoreFileError(f"{path}: {what} {_shown(values.iloc[i])!r} on {line_of(i)} is infinite")
    return numbers.astype(float)


def instance_ids(values: pd.Series) -> pd.Series:
    """Instance ids as one type whatever the layout (a long file's ``instance`` column, a wide file's id column):
    text ids that are all canonical integers (``12``, ``-3``; not ``01``, ``1e3`` or ``1.0``, which would collide
    with ``1`` or ``1000``) and fit in 64 bits become integers, everything else stays text (stripped)."""
    if pd.api.types.is_integer_dtype(values):
        return values.astype(np.int64)
    if pd.api.types.is_numeric_dtype(values):
        numbers = values.astype(float)
        if np.isfinite(numbers).all() and (numbers % 1 == 0).all() and (np.abs(numbers) < 2**53).all():
            return numbers.astype(np.int64)
        return values
    text = values.astype(str).str.strip()
    canonical = text.str.fullmatch(r"-?(0|[1-9]\d{0,17})")
    if len(text) and canonical.all():
        return text.astype(np.int64)
    return text


def _system_names(values: pd.Series, path: Path, line_of) -> pd.Series:
    """System names as stripped text; an empty name or a null (Parquet, JSON) is an error naming its line."""
    bad = values.isna().to_numpy() | (values.astype(str).str.strip() == "").to_numpy()
    if bad.any():
        i = np.flatnonzero(bad)[0]
        raise ScoreFileError(f"{path}: empty system name on {line_of(i)}; every row needs the system's name")
    return values.astype(str).str.strip()


def _select(frame: pd.DataFrame, path: Path, where: dict) -> pd.DataFrame:
    for column, value in where.items():
        if column not in frame.columns:
            raise ScoreFileError(f"{path}: no column {column!r} to select {value!r} from (columns: "
                                 f"{list(frame.columns)})")
        cells = frame[column]
        numbers = pd.to_numeric(cells, errors="coerce")
        try:
            wanted = float(value)
        except (TypeError, ValueError):
            wanted = None
        if wanted is not None and numbers.notna().all():
            keep = numbers == wanted
        else:
            keep = cells.astype(str).str.strip() == str(value)
        if not keep.any():
            raise ScoreFileError(f"{path}: column {column!r} has no value {value!r}; it has "
                                 f"{sorted(set(cells.astype(str)))[:20]}")
        frame = frame[keep]
    return frame


def is_id_name(name) -> bool:
    """A column name that names instances in a wide file (:data:`ID_COLUMNS`, or ending in ``_id``/``-id``)."""
    low = str(name).strip().lower()
    return low in ID_COLUMNS or low.endswith(("_id", "-id", " id"))
