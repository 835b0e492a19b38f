"""Score files a user brings, read into a score matrix (rows = instances, columns = systems).

Three formats:

``long``
    CSV or Parquet with columns ``instance``, ``system``, ``score`` (one row per instance and system); extra columns
    such as ``metric`` or ``rater`` select one slice with ``where={"metric": "BLEU"}``.
``wide``
    CSV or Parquet with one row per instance and one column per system (the Pairformance and BT-eval layout); a
    column named ``instance`` becomes the index.
``mtme``
    mt-metrics-eval score files, ``system<whitespace>score`` per line, each system's segments in order (``None`` =
    not scored); one file per metric.

Every problem is a :class:`ScoreFileError` naming the file and, where there is one, the line or column: missing
columns, duplicate (instance, system) rows, systems scored on different instances (with ``align="intersect"`` the
instances every system has are kept instead), missing or non-numeric scores, fewer than two systems.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

FORMATS = ("auto", "long", "wide", "mtme")
ALIGN = ("exact", "intersect")
LONG_COLUMNS = ("instance", "system", "score")


class ScoreFileError(ValueError):
    """A score file cannot be read as scores; the message names the file and the line or column."""


def parse_mtme_lines(lines, name: str) -> pd.DataFrame:
    """mt-metrics-eval score lines as (system, item, score); ``None`` -> NaN. Fields are separated by any
    whitespace, as mt-metrics-eval's own reader (``line.split()``) allows."""
    systems, scores = [], []
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if len(fields) != 2:
            raise ScoreFileError(f"{name}:{number}: expected 'system<whitespace>score', got {line!r}")
        system, value = fields
        try:
            scores.append(np.nan if value == "None" else float(value))
        except ValueError:
            raise ScoreFileError(f"{name}:{number}: score {value!r} is not a number or None") from None
        systems.append(system)
    frame = pd.DataFrame({"system": systems, "score": scores})
    frame["item"] = frame.groupby("system", sort=False).cumcount()
    return frame


def _shown(value):
    """A cell as a message shows it: numpy scalars as plain Python values (0, not np.int64(0))."""
    return value.item() if isinstance(value, np.generic) else value


def _read_table(path: Path) -> pd.DataFrame:
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return pd.read_parquet(path)
    return pd.read_csv(path, sep="\t" if suffix in (".tsv", ".tab") else ",")


def detect_format(path: Path, frame: pd.DataFrame | None = None) -> str:
    """``mtme`` for ``*.score`` files, ``long`` for tables with a ``system`` or ``score`` column (the long format's
    own names; a missing one is then reported), else ``wide``."""
    if path.name.endswith(".score"):
        return "mtme"
    if frame is not None and {"system", "score"} & set(frame.columns):
        return "long"
    return "wide"


def read_scores(path: str | os.PathLike, fmt: str = "auto", *, where: dict | None = None, align: str = "exact",
                lower_is_better: bool = False) -> pd.DataFrame:
    """The score matrix in ``path`` (see the module docstring). ``lower_is_better`` negates the scores, so that
    higher is better for every mechanism downstream."""
    path = Path(path)
    if fmt not in FORMATS:
        raise ScoreFileError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
    if align not in ALIGN:
        raise ScoreFileError(f"unknown align {align!r}; expected one of {list(ALIGN)}")
    if not path.is_file():
        raise ScoreFileError(f"{path}: no such file")
    if fmt == "mtme" or (fmt == "auto" and detect_format(path) == "mtme"):
        matrix = _mtme_matrix(path, align)
    else:
        try:
            frame = _read_table(path)
        except (ValueError, OSError, pd.errors.ParserError) as exc:
            raise ScoreFileError(f"{path}: cannot be read as CSV or Parquet ({exc})") from None
        fmt = detect_format(path, frame) if fmt == "auto" else fmt
        matrix = _long_matrix(frame, path, where, align) if fmt == "long" else _wide_matrix(frame, path)
    if matrix.shape[1] < 2:
        raise ScoreFileError(f"{path}: needs at least two systems to compare, found {list(matrix.columns)}")
    if len(matrix) == 0:
        raise ScoreFileError(f"{path}: no instance is scored for every system")
    return -matrix if lower_is_better else matrix


def _numeric(values: pd.Series, path: Path, what: str, line_of) -> np.ndarray:
    numbers = pd.to_numeric(values, errors="coerce")
    bad = numbers.isna() & values.notna()
    if bad.any():
        i = np.flatnonzero(bad.to_numpy())[0]
        raise ScoreFileError(f"{path}: {what} {_shown(values.iloc[i])!r} on {line_of(i)} is not a number")
    return numbers


def _long_matrix(frame: pd.DataFrame, path: Path, where: dict | None, align: str) -> pd.DataFrame:
    missing = [c for c in LONG_COLUMNS if c not in frame.columns]
    if missing:
        raise ScoreFileError(f"{path}: missing column(s) {missing} for the long format (columns: {list(frame.columns)})")
    for column, value in (where or {}).items():
        if column not in frame.columns:
            raise ScoreFileError(f"{path}: no column {column!r} to select {value!r} from")
        if value not in set(frame[column]):
            raise ScoreFileError(f"{path}: column {column!r} has no value {value!r}; it has {sorted(set(frame[column]))}")
        frame = frame[frame[column] == value]
    for column in ("metric", "rater"):
        if column in frame.columns and frame[column].nunique() > 1:
            raise ScoreFileError(f"{path}: column {column!r} holds several values {sorted(set(frame[column]))}; "
                                 f"choose one (--where {column}=...)")

    def line_of(i):  # header is line 1
        return f"line {frame.index[i] + 2}"

    scores = _numeric(frame["score"], path, "score", line_of)
    if scores.isna().any():
        i = np.flatnonzero(scores.isna().to_numpy())[0]
        raise ScoreFileError(f"{path}: missing score (NaN) for system {_shown(frame['system'].iloc[i])!r}, "
                             f"instance {_shown(frame['instance'].iloc[i])!r} on {line_of(i)}")
    dup = frame.duplicated(["instance", "system"], keep=False)
    if dup.any():
        rows = frame[dup].head(4)
        shown = ", ".join(f"({_shown(r.instance)!r}, {_shown(r.system)!r}) on line {i + 2}" for i, r in rows.iterrows())
        raise ScoreFileError(f"{path}: duplicate (instance, system) rows: {shown}")
    long = frame.assign(score=scores)
    matrix = long.pivot(index="instance", columns="system", values="score")
    return _aligned(matrix[pd.unique(long["system"])], path, align)


def _aligned(matrix: pd.DataFrame, path: Path, align: str) -> pd.DataFrame:
    """All systems on the same instances: refuse (naming who misses what) or keep the common instances."""
    missing = matrix.isna().sum()
    if missing.any():
        if align == "intersect":
            return matrix.dropna().rename_axis(index=None, columns=None)
        short = ", ".join(f"{s!r} lacks {n} of {len(matrix)}" for s, n in missing[missing > 0].items())
        raise ScoreFileError(f"{path}: systems are scored on different instances ({short}); pass align='intersect' "
                             "(--align intersect) to keep only the instances every system has")
    return matrix.rename_axis(index=None, columns=None)


def _wide_matrix(frame: pd.DataFrame, path: Path) -> pd.DataFrame:
    if "instance" in frame.columns:
        if frame["instance"].duplicated().any():
            raise ScoreFileError(f"{path}: duplicate instance "
                                  f"{_shown(frame['instance'][frame['instance'].duplicated()].iloc[0])!r}")
        frame = frame.set_index("instance")
    columns = {}
    for column in frame.columns:
        values = _numeric(frame[column], path, f"score in column {column!r}", lambda i: f"line {i + 2}")
        if values.isna().any():
            i = np.flatnonzero(values.isna().to_numpy())[0]
            raise ScoreFileError(f"{path}: missing score (NaN) in column {column!r} on line {i + 2}")
        columns[str(column)] = values.astype(float).to_numpy()
    return pd.DataFrame(columns, index=frame.index).rename_axis(index=None)


def _mtme_matrix(path: Path, align: str) -> pd.DataFrame:
    text = path.read_text(encoding="utf-8").split("\n")
    if text and text[-1] == "":
        text.pop()
    frame = parse_mtme_lines(text, str(path))
    if frame.empty:
        raise ScoreFileError(f"{path}: no scores")
    matrix = frame.pivot(index="item", columns="system", values="score")[pd.unique(frame["system"])]
    sizes = frame.groupby("system", sort=False).size()
    if sizes.nunique() != 1 and align == "exact":
        raise ScoreFileError(f"{path}: systems have different numbers of segments {sizes.to_dict()}; pass "
                             "align='intersect' to keep the segments every system has")
    if matrix.isna().any().any() and align == "exact":
        item, column = np.argwhere(matrix.isna().to_numpy())[0]
        system, item = matrix.columns[column], matrix.index[item]
        raise ScoreFileError(f"{path}: system {system!r} has no score (None) for segment {item}; pass "
                             "align='intersect' to keep the segments every system has")
    return _aligned(matrix, path, "intersect")
