"""Score files a user brings, read into a score matrix (rows = instances, columns = systems).

Three formats:

``long``
    CSV or Parquet with columns ``instance``, ``system``, ``score`` (one row per instance and system; the names in
    any case); extra columns such as ``metric`` or ``rater`` select one slice with ``where={"metric": "BLEU"}``.
``wide``
    CSV or Parquet with one row per instance and one column per system (the Pairformance and BT-eval layout); a
    column named ``instance`` or ``id`` (or another name of :data:`~analysis.data.scorefile_cells.ID_COLUMNS`:
    ``index``, ``item``, ``segment``, ``key``, ``sample``, ``doc``, ...; or ending in ``_id``), or the unnamed first
    column ``DataFrame.to_csv()`` writes, is the instances' names, not a system. It must come first; the matrix's
    ``attrs["id_column"]`` names it (the command says so on its first line), and one whose cells are all numbers,
    some not whole, holds scores and is refused rather than a system lost.
``mtme``
    mt-metrics-eval score files, ``system<whitespace>score`` per line, each system's segments in order (``None`` =
    not scored): the line number within a system is the segment id. One file per metric.

JSON lines files hold one object per line; a line that is not one, or a cell that is an object or a list where a
name, an id or a number is read, is refused naming the line. Column names are read in any case; two that differ only
in case (``winner`` and ``Winner``) are refused. CSV files may use ``,``, ``;``, tab or ``|`` as separator (the header
line decides), start with ``#`` comment lines, and end lines with a trailing separator. System names are text:
``None``, ``NA``, ``null`` or ``nan`` are names, not missing values; a score cell that is empty or one of those words
is a missing score.

Every problem is a :class:`~analysis.data.scorefile_tables.ScoreFileError` naming the file and, where there is one,
the line or column: missing or duplicated columns, duplicate (instance, system) rows, missing, non-numeric, infinite
or date/time scores, fewer than two systems, a ``where`` selection on a file that has no rows to select. Systems
scored on different instances: ``align="exact"`` refuses, ``"intersect"`` keeps the instances every system has,
``"pairwise"`` keeps every score (missing ones as NaN, each pair of systems then compared on the instances both have)
and ``"auto"`` (the default) is ``"exact"`` for a complete file and ``"pairwise"`` otherwise.

This module builds the score matrix (:func:`read_scores`) and the judgment table (:func:`read_judgments`); the file
is read as a table by :mod:`analysis.data.scorefile_tables`, its columns and cells are checked and converted by
:mod:`analysis.data.scorefile_cells`, and a judgment file's layout and winner cells are read by
:mod:`analysis.data.judgment_columns`.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from .judgment_columns import JUDGMENT_COLUMNS, JUDGMENT_LAYOUTS, WINNER_WORDS, _item_column, _to_arena_layout, _winners
from .scorefile_cells import (
    _canonical_names,
    _numeric,
    _scalar_cells,
    _select,
    _shown,
    _system_names,
    instance_ids,
    is_id_name,
)
from .scorefile_tables import LONG_COLUMNS, ScoreFileError, _check_input, _no_rows, _not_utf8, _read_table, _Table

FORMATS = ("auto", "long", "wide", "mtme")
ALIGN = ("auto", "exact", "intersect", "pairwise")


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


def _canonical(frame: pd.DataFrame, path: Path = Path("<table>")) -> pd.DataFrame:
    """Long-format column names in any case or with spaces around them, as ``instance``/``system``/``score``."""
    return _canonical_names(frame, LONG_COLUMNS, path)


def detect_format(path: Path, frame: pd.DataFrame | None = None) -> str:
    """``mtme`` for ``*.score`` files, ``long`` for tables with a ``system`` or ``score`` column (the long format's
    own names, any case; a missing one is then reported), else ``wide``."""
    if path.name.endswith(".score"):
        return "mtme"
    if frame is not None and {"system", "score"} & {str(c).strip().lower() for c in frame.columns}:
        return "long"
    return "wide"


def read_scores(path: str | os.PathLike, fmt: str = "auto", *, where: dict | None = None, align: str = "auto",
                lower_is_better: bool = False) -> pd.DataFrame:
    """The score matrix in ``path`` (see the module docstring); with ``align="pairwise"`` (or ``"auto"`` on an
    incomplete file) missing scores are NaN. ``lower_is_better`` negates the scores, so that higher is better for
    every mechanism downstream (:func:`analysis.compare.compare` takes the file's own scores and the direction
    instead, and reports MEAN and MEDIAN in the file's units)."""
    path = Path(path)
    if fmt not in FORMATS:
        raise ScoreFileError(f"unknown format {fmt!r}; expected one of {list(FORMATS)}")
    if align not in ALIGN:
        raise ScoreFileError(f"unknown align {align!r}; expected one of {list(ALIGN)}")
    _check_input(path)
    if fmt == "mtme" or (fmt == "auto" and detect_format(path) == "mtme"):
        if where:
            raise ScoreFileError(f"{path}: --where selects rows of a long file (instance, system, score, ...); an "
                                 "mt-metrics-eval score file has no other columns")
        matrix = _mtme_matrix(path)
    else:
        table = _read_table(path)
        _no_rows(path, table.frame)
        fmt = detect_format(path, table.frame) if fmt == "auto" else fmt
        if fmt == "long":
            table.frame = _canonical(table.frame, path)
            matrix = _long_matrix(table, path, where)
        else:
            if where:
                raise ScoreFileError(f"{path}: --where selects rows of a long file (instance, system, score, ...); "
                                     "this file is wide (one column per system)")
            matrix = _wide_matrix(table, path)
    if matrix.shape[1] < 2:
        raise ScoreFileError(f"{path}: needs at least two systems to compare, found {list(matrix.columns)}")
    attrs = {"ids": False, "ignored": [], "id_column": None, **matrix.attrs, "file": str(path)}
    matrix = _aligned(matrix, path, align)
    if len(matrix) == 0:
        raise ScoreFileError(f"{path}: no instance is scored for every system")
    matrix = -matrix if lower_is_better else matrix
    matrix.attrs.update(attrs)  # ids: the file names its instances (else they are row positions); ignored: columns
    return matrix


def is_complete(matrix: pd.DataFrame) -> bool:
    """Every system scored on every instance."""
    return not matrix.isna().to_numpy().any()


def _long_matrix(table: _Table, path: Path, where: dict | None) -> pd.DataFrame:
    frame = table.frame
    missing = [c for c in LONG_COLUMNS if c not in frame.columns]
    if missing:
        hint = ("; a wide file (one column per system) with a system called 'score' or 'system'? pass "
                "--input-format wide" if {"system", "score"} & set(missing) else "")
        raise ScoreFileError(f"{path}: missing column(s) {missing} for the long format (columns: "
                             f"{list(frame.columns)}){hint}")
    ignored = [str(c) for c in frame.columns if c not in LONG_COLUMNS and c not in (where or {})]
    line = table.lines
    _scalar_cells(table, frame, [*LONG_COLUMNS, *(where or {})], path, line)
    frame = _select(frame, path, where or {})
    line = line[frame.index]
    for column in ("metric", "rater"):
        if column in frame.columns and frame[column].nunique() > 1:
            raise ScoreFileError(f"{path}: column {column!r} holds several values "
                                 f"{sorted(set(frame[column].astype(str)))}; choose one (--where {column}=...)")

    def line_of(i):
        return f"line {line.iloc[i]}"

    instances = instance_ids(frame["instance"])
    scores = _numeric(frame["score"], path, "score", line_of)
    if scores.isna().any():
        i = np.flatnonzero(scores.isna().to_numpy())[0]
        raise ScoreFileError(f"{path}: missing score (NaN) for system {_shown(frame['system'].iloc[i])!r}, "
                             f"instance {_shown(instances.iloc[i])!r} on {line_of(i)}; leave the row out "
                             "where a system has no score")
    names = _system_names(frame["system"], path, line_of)
    keys = pd.DataFrame({"i": instances.to_numpy(), "s": names.to_numpy()})
    later = keys.duplicated(keep="first").to_numpy()
    if later.any():
        j = np.flatnonzero(later)[0]
        i = np.flatnonzero((keys["i"] == keys["i"].iloc[j]).to_numpy() & (keys["s"] == keys["s"].iloc[j]).to_numpy())[0]
        raise ScoreFileError(f"{path}: duplicate (instance, system) rows: ({_shown(instances.iloc[j])!r}, "
                             f"{names.iloc[j]!r}) on {line_of(i)} and {line_of(j)} ({int(later.sum()):,} duplicate "
                             "row(s) in all)")
    long = pd.DataFrame({"instance": instances.to_numpy(), "system": names.to_numpy(), "score": scores.to_numpy()})
    matrix = long.pivot(index="instance", columns="system", values="score")
    matrix = matrix.reindex(index=pd.unique(long["instance"]), columns=pd.unique(long["system"]))
    matrix.attrs.update(ids=True, ignored=ignored)
    return matrix


def _aligned(matrix: pd.DataFrame, path: Path, align: str) -> pd.DataFrame:
    """All systems on the same instances (exact: refuse, naming who misses what; intersect: keep the common
    instances), or every score kept (pairwise; auto on an incomplete file)."""
    matrix = matrix.rename_axis(index=None, columns=None)
    missing = matrix.isna().sum()
    if not missing.any() or align in ("pairwise", "auto"):
        return matrix
    if align == "intersect":
        return matrix.dropna()
    short = ", ".join(f"{s!r} lacks {n} of {len(matrix)}" for s, n in missing[missing > 0].head(5).items())
    raise ScoreFileError(f"{path}: systems are scored on different instances ({short}); pass align='pairwise' "
                         "(--align pairwise) to compare each pair on the instances both have, or 'intersect' to keep "
                         "only the instances every system has")


def _wide_matrix(table: _Table, path: Path) -> pd.DataFrame:
    frame, line = table.frame, table.lines
    columns = list(frame.columns)
    # empty columns a trailing separator leaves
    frame = frame[[c for c in columns if not (str(c).startswith("Unnamed: ") or str(c) == "")
                   or not frame[c].astype(str).str.strip().isin(["", "nan", "None"]).all()]]
    ids = [c for c in frame.columns if is_id_name(c)]
    if len(ids) > 1:
        raise ScoreFileError(f"{path}: several columns are named like instance ids {ids}; keep one (first), and "
                             "rename a system that has such a name")
    has_ids = bool(ids)
    if ids:
        if ids[0] != frame.columns[0]:
            raise ScoreFileError(f"{path}: column {ids[0]!r} is named like instance ids but is not the first column; "
                                 "put the ids first, or rename the system if it is one")
        _scalar_cells(table, frame, ids[:1], path, line)
        _scores_not_ids(frame[ids[0]], ids[0], path, line)
        key = instance_ids(frame[ids[0]])
        later = key.duplicated(keep="first").to_numpy()
        if later.any():
            j = np.flatnonzero(later)[0]
            i = np.flatnonzero((key == key.iloc[j]).to_numpy())[0]
            raise ScoreFileError(f"{path}: duplicate instance {_shown(key.iloc[j])!r} in column {ids[0]!r} on lines "
                                 f"{line.iloc[i]} and {line.iloc[j]} (the first column, named like instance ids, is "
                                 "read as them: rename it if it is a system)")
        frame = frame.drop(columns=ids[0]).set_axis(pd.Index(key.to_numpy()), axis=0)
    columns = {}
    for column in frame.columns:
        name = str(column).strip()
        if name in columns:
            raise ScoreFileError(f"{path}: two columns are named {name!r} once spaces are removed")
        columns[name] = _numeric(frame[column], path, f"score in column {column!r}",
                                 lambda i: f"line {line.iloc[i]}").to_numpy()
    out = pd.DataFrame(columns, index=frame.index).rename_axis(index=None)
    out.attrs["ids"] = has_ids
    out.attrs["id_column"] = str(ids[0]) if ids else None
    return out


def _scores_not_ids(values: pd.Series, name, path: Path, line) -> None:
    """The first column of a wide file is read as instance ids when it is named like them
    (:func:`~analysis.data.scorefile_cells.is_id_name`); one whose cells are all numbers and some not whole (0.37)
    holds a system's scores, not ids: refused rather than losing that system."""
    if pd.api.types.is_bool_dtype(values):
        return
    numbers = pd.to_numeric(values.astype(str).str.strip() if values.dtype == object else values, errors="coerce")
    if len(numbers) and numbers.notna().all():
        fractional = (numbers % 1 != 0).to_numpy()
        if fractional.any():
            i = np.flatnonzero(fractional)[0]
            raise ScoreFileError(f"{path}: column {str(name)!r} is named like instance ids but holds scores "
                                 f"({_shown(values.iloc[i])!r} on line {line.iloc[i]}); a wide file's first column "
                                 "named key, id, sample, doc, ... is read as the instance ids: rename the column if "
                                 "it is a system, or add an instance id column before it")


def _mtme_matrix(path: Path) -> pd.DataFrame:
    try:
        text = path.read_text(encoding="utf-8-sig").split("\n")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    if text and text[-1] == "":
        text.pop()
    frame = parse_mtme_lines(text, str(path))
    if frame.empty:
        raise ScoreFileError(f"{path}: no scores")
    sizes = frame.groupby("system", sort=False).size()
    if sizes.nunique() != 1:
        common = int(sizes.max())
        odd = ", ".join(f"{s!r} has {n:,}" for s, n in sizes[sizes != common].head(4).items())
        raise ScoreFileError(f"{path}: systems have different numbers of lines ({odd}, the others {common:,}); an "
                             "mt-metrics-eval file identifies a segment by its line, so a system with a line missing "
                             "cannot be aligned: write None on the line of each segment it lacks")
    return frame.pivot(index="item", columns="system", values="score")[pd.unique(frame["system"])]


def read_judgments(path: str | os.PathLike, *, where: dict | None = None, item: bool = False,
                   covariates=()) -> pd.DataFrame:
    """Pairwise judgments (arena, LLM-judge files) from CSV, Parquet or JSON lines with columns ``model_a``,
    ``model_b``, ``winner`` (any case) and an optional ``weight``: a frame with ``left``, ``right``, ``winner`` (one
    of "left", "right", "tie") and ``weight``. A winner cell may also be the winning system's name. Rows are kept in
    the file's order (the order Elo and TrueSkill would play them in)."""
    path = Path(path)
    _check_input(path)
    table = _read_table(path)
    _no_rows(path, table.frame)
    renamed, layout, layout_words = _to_arena_layout(table.frame, path)
    frame = _canonical_names(renamed, JUDGMENT_COLUMNS, path)
    missing = [c for c in ("model_a", "model_b", "winner") if c not in frame.columns]
    if missing:
        raise ScoreFileError(f"{path}: missing column(s) {missing} for pairwise judgments (or a layout of "
                             f"{[x[2] for x in JUDGMENT_LAYOUTS]}, winner or outcome)")
    table.frame = frame
    line = table.lines
    item_column = _item_column(frame, path, where, line) if item else None
    missing = [c for c in covariates if c not in frame.columns]
    if missing:
        raise ScoreFileError(f"{path}: no covariate column(s) {missing} (columns: {list(map(str, frame.columns))})")
    ignored = [str(c) for c in frame.columns if c not in JUDGMENT_COLUMNS and c not in (where or {}) and
               c != item_column and c not in covariates]
    used = [c for c in (*JUDGMENT_COLUMNS, item_column, *covariates, *(where or {})) if c in frame.columns]
    _scalar_cells(table, frame, used, path, line)
    frame = _select(frame, path, where or {})
    line = line[frame.index]

    def line_of(i):
        return f"line {line.iloc[i]}"

    a, b = (_system_names(frame[c], path, lambda i, c=c: f"{line_of(i)} (column {c})") for c in ("model_a", "model_b"))
    winner, numeric = _winners(frame["winner"].astype(str).str.strip(), a, b, path, line_of, layout_words)
    same = (a == b).to_numpy()
    if same.any():
        i = np.flatnonzero(same)[0]
        raise ScoreFileError(f"{path}: line {line.iloc[i]} compares system {a.iloc[i]!r} with itself")
    weight = np.ones(len(frame))
    if "weight" in frame.columns:
        weight = _numeric(frame["weight"], path, "weight", lambda i: f"line {line.iloc[i]}").to_numpy()
        bad = np.isnan(weight) | (weight < 0)
        if bad.any():
            i = np.flatnonzero(bad)[0]
            raise ScoreFileError(f"{path}: weight on line {line.iloc[i]} must be a number >= 0")
    # the names as categoricals: a few hundred systems among millions of judgments are codes, not strings
    out = pd.DataFrame({"left": a.astype("category"), "right": b.astype("category"),
                        "winner": winner.to_numpy(), "weight": weight}).reset_index(drop=True)
    if item_column is not None:
        out["item"] = instance_ids(frame[item_column]).to_numpy()
    for name in covariates:
        values = _numeric(frame[name], path, f"covariate {name!r}", line_of)
        if values.isna().any():
            i = np.flatnonzero(values.isna().to_numpy())[0]
            raise ScoreFileError(f"{path}: covariate {name!r} is missing on {line_of(i)}")
        out[name] = values.to_numpy()
    if n_systems(out) < 2:
        raise ScoreFileError(f"{path}: needs at least two systems to compare")
    read_as = {"left": "model_a wins", "right": "model_b wins", "tie": "a tie"}
    cells = pd.DataFrame({"cell": frame["winner"].astype(str).str.strip().to_numpy(), "meaning": winner.to_numpy()})
    counts = cells.groupby(["cell", "meaning"], sort=False).size()
    words = {}
    for (cell, meaning), n in counts.items():
        known = {w for ws in WINNER_WORDS.values() for w in ws} | set(layout_words)
        key = cell if numeric or cell.lower() in known else "<a system's name>"
        old = words.get(key, (read_as[meaning], 0))
        words[key] = (read_as[meaning] if old[0] == read_as[meaning] else "its system's win", old[1] + int(n))
    out.attrs.update(ignored=ignored, zero_weight=int((weight == 0).sum()), winner_words=words, file=str(path),
                     weighted="weight" in frame.columns, layout=layout, numeric_outcomes=numeric)
    if item:  # the file line of every judgment, for the human comparison's messages
        out.attrs["lines"] = line.to_numpy()
    return out


def n_systems(games: pd.DataFrame) -> int:
    """The number of distinct systems of a judgment table (``left``, ``right``), without a Python loop."""
    left, right = games["left"], games["right"]
    if isinstance(left.dtype, pd.CategoricalDtype) and isinstance(right.dtype, pd.CategoricalDtype):
        used = [x.cat.remove_unused_categories().cat.categories for x in (left, right)]
        return len(used[0].union(used[1]))
    return len(pd.unique(np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])))
