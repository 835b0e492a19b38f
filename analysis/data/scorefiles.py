"""Score files a user brings, read into a score matrix (rows = instances, columns = systems).

Three formats:

``long``
    CSV or Parquet with columns ``instance``, ``system``, ``score`` (one row per instance and system; the names in
    any case); extra columns such as ``metric`` or ``rater`` select one slice with ``where={"metric": "BLEU"}``.
``wide``
    CSV or Parquet with one row per instance and one column per system (the Pairformance and BT-eval layout); a
    column named ``instance`` or ``id`` (or another name of :data:`ID_COLUMNS`: ``index``, ``item``, ``segment``,
    ``key``, ``sample``, ``doc``, ...; or ending in ``_id``), or the unnamed first column ``DataFrame.to_csv()``
    writes, is the instances' names, not a system. It must come first; the matrix's ``attrs["id_column"]`` names it
    (the command says so on its first line), and one whose cells are all numbers, some not whole, holds scores and
    is refused rather than a system lost.
``mtme``
    mt-metrics-eval score files, ``system<whitespace>score`` per line, each system's segments in order (``None`` =
    not scored): the line number within a system is the segment id. One file per metric.

JSON lines files hold one object per line; a line that is not one, or a cell that is an object or a list where a
name, an id or a number is read, is refused naming the line. Column names are read in any case; two that differ only
in case (``winner`` and ``Winner``) are refused. CSV files may use ``,``, ``;``, tab or ``|`` as separator (the header
line decides), start with ``#`` comment lines, and end lines with a trailing separator. System names are text:
``None``, ``NA``, ``null`` or ``nan`` are names, not missing values; a score cell that is empty or one of those words
is a missing score.

Every problem is a :class:`ScoreFileError` naming the file and, where there is one, the line or column: missing
or duplicated columns, duplicate (instance, system) rows, missing, non-numeric, infinite or date/time scores,
fewer than two systems, a ``where`` selection on a file that has no rows to select. Systems scored on different
instances: ``align="exact"`` refuses, ``"intersect"`` keeps the instances every system has, ``"pairwise"`` keeps
every score (missing ones as NaN, each pair of systems then compared on the instances both have) and ``"auto"``
(the default) is ``"exact"`` for a complete file and ``"pairwise"`` otherwise.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import numpy as np
import pandas as pd

FORMATS = ("auto", "long", "wide", "mtme")
ALIGN = ("auto", "exact", "intersect", "pairwise")
LONG_COLUMNS = ("instance", "system", "score")
#: column names (any case) that name instances in a wide file; "" and "unnamed: 0" are pandas' unnamed index; any
#: other name ending in "_id" or "id" after a separator (``doc_id``, ``example-id``) names them too
ID_COLUMNS = ("instance", "id", "index", "item", "segment", "seg_id", "segment_id", "", "unnamed: 0", "idx",
              "doc", "document", "example", "sample", "uid", "key")
#: score cells read as "no score"
MISSING = frozenset({"", "na", "n/a", "nan", "none", "null"})
SEPARATORS = (",", ";", "\t", "|")


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


class _Table:
    """A table read from a file, with the file line of its first data row (comments and header before it) and,
    where rows are not one per line from there (blank lines skipped, JSON lines), every row's file line.
    ``structured``: the cells may be objects or lists (JSON lines, Parquet), not only text."""

    def __init__(self, frame: pd.DataFrame, first_line: int, lines: np.ndarray | None = None,
                 structured: bool = False):
        self.frame, self.first_line, self.structured = frame, first_line, structured
        self._lines = lines

    @property
    def lines(self) -> pd.Series:
        """Each row's line in the file, indexed like the frame."""
        lines = np.arange(len(self.frame)) + self.first_line if self._lines is None else self._lines
        return pd.Series(lines, index=self.frame.index)


def _not_utf8(path: Path, exc: UnicodeDecodeError) -> ScoreFileError:
    """The first line that is not UTF-8 (``exc`` may come from a chunk of the file: decode the whole file again)."""
    data = path.read_bytes()
    try:
        data.decode("utf-8")
        start, byte = exc.start, exc.object[exc.start]
    except UnicodeDecodeError as whole:
        start, byte = whole.start, data[whole.start]
    line = data[:start].count(b"\n") + 1
    return ScoreFileError(f"{path}: line {line} is not UTF-8 text (byte {byte:#04x}); save the file as UTF-8 (for "
                          "example from latin-1: iconv -f latin1 -t utf-8)")


def _check_fields(path: Path, sep: str, skipped: int, expected: int) -> None:
    """Every data row has the header's number of fields (more only as empty trailing fields): pandas would drop
    the extra fields of a row (an unquoted decimal comma: ``3,A,1,5``) and read a short row's missing fields as
    empty cells, silently."""
    data = path.read_bytes()
    _unclosed_quote(path, data, skipped)
    if b'"' not in data and b"\r" not in data and len(sep.encode()) == 1:
        if _fields_agree(data, sep.encode(), skipped, expected):
            return  # no quoting: every line's separators counted at once; the scan below names a bad line
    with open(path, encoding="utf-8-sig", newline="") as handle:
        for _ in range(skipped + 1):
            handle.readline()
        reader = csv.reader(handle, delimiter=sep)
        for row in reader:
            n = len(row)
            if n == expected or not n or (n == 1 and not row[0].strip()):
                continue
            if n > expected and not any(f.strip() for f in row[expected:]):
                continue
            line = skipped + 1 + reader.line_num
            hint = (f"; a decimal comma? write {row[expected - 1]}.{row[expected]} or quote the number, or separate "
                    "the columns with ';'" if n == expected + 1 and sep == "," and row[expected].strip().isdigit()
                    else "")
            raise ScoreFileError(f"{path}: line {line} has {n} field{'s' * (n != 1)}, the header has {expected}"
                                 f"{hint}")


def _unclosed_quote(path: Path, data: bytes, skipped: int) -> None:
    """A quote opened and never closed swallows the rest of the file into one cell: name the line it opens on
    (pandas reports only its own row count)."""
    if data.count(b'"') % 2 == 0:
        return
    open_line, inside = 0, False
    for number, line in enumerate(data.split(b"\n"), 1):
        if number <= skipped:
            continue
        if line.count(b'"') % 2:
            inside = not inside
            open_line = number if inside else open_line
    if inside:
        raise ScoreFileError(f"{path}: line {open_line} opens a quote (\") that is never closed; close it or remove "
                             "it")


def _data_lines(data: bytes, skipped: int) -> np.ndarray | None:
    """The file line of every data row of an unquoted file with blank lines among its rows (pandas skips them), or
    None where rows follow the header one per line."""
    if b'"' in data:
        return None
    text = data.split(b"\n")
    numbers = [k for k, line in enumerate(text[skipped + 1:], skipped + 2) if line.strip(b" \t\r")]
    if numbers and numbers[-1] - numbers[0] == len(numbers) - 1 and numbers[0] == skipped + 2:
        return None
    return np.asarray(numbers)


def _fields_agree(data: bytes, sep: bytes, skipped: int, expected: int) -> bool:
    """Whether every data line of an unquoted file has ``expected`` fields, or is blank (vectorised; no line named)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == ord("\n"))
    if not len(ends) or ends[-1] != len(raw) - 1:
        ends = np.append(ends, len(raw))
    starts = np.r_[0, ends[:-1] + 1]
    at = np.flatnonzero(raw == sep[0])
    count = np.searchsorted(at, ends) - np.searchsorted(at, starts)
    blank = ends == starts
    return bool(((count[skipped + 1:] == expected - 1) | blank[skipped + 1:]).all())


def _read_csv(path: Path, header_only: bool = False) -> _Table:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            head, skipped = "", 0
            for line in handle:
                if line.strip() and not line.lstrip().startswith("#"):
                    head = line
                    break
                skipped += 1
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    if not head:
        raise ScoreFileError(f"{path}: no header line (the file is empty or only comments)")
    suffix = path.suffix.lower()
    counts = {s: head.count(s) for s in SEPARATORS}
    sep = "\t" if suffix in (".tsv", ".tab") and counts["\t"] else max(SEPARATORS, key=lambda s: counts[s])
    if not counts[sep]:
        raise ScoreFileError(f"{path}: line {skipped + 1} (the header) has one column {head.strip()!r}; expected "
                             f"columns separated by ',', ';', tab or '|'")
    names = [n.strip() for n in next(csv.reader(io.StringIO(head), delimiter=sep))]
    while len(names) > 1 and names[-1] == "":  # trailing separators
        names.pop()
    seen = {}
    for n in names:
        key = n.lower() if n.lower() in LONG_COLUMNS else n
        if key in seen and n:
            raise ScoreFileError(f"{path}: line {skipped + 1} (the header) names column {n!r} twice; every "
                                 "column needs its own name")
        seen[key] = n
    if header_only:
        return _Table(pd.DataFrame(columns=names), skipped + 2)
    _check_fields(path, sep, skipped, len(names))
    try:
        frame = pd.read_csv(path, sep=sep, skiprows=skipped, header=0, names=None, keep_default_na=False,
                            na_values=[], dtype=str, encoding="utf-8-sig", comment=None, skip_blank_lines=True,
                            usecols=range(len(names)) if len(names) > 1 else None, index_col=False)
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    except (ValueError, pd.errors.ParserError) as exc:
        raise ScoreFileError(f"{path}: cannot be read as a table separated by {sep!r} ({exc})") from None
    frame.columns = [n if n else "" for n in names][: frame.shape[1]]
    data = path.read_bytes()
    lines = None
    if data.count(b"\n") + (not data.endswith(b"\n")) - (skipped + 1) != len(frame):  # blank lines among the rows
        lines = _data_lines(data, skipped)
        lines = lines if lines is not None and len(lines) == len(frame) else None
    return _Table(frame, skipped + 2, lines)


def _read_table(path: Path, header_only: bool = False) -> _Table:
    """The file as a table (CSV, Parquet or JSON lines); a file none of them can read is a ScoreFileError.
    ``header_only``: a CSV file's column names without its rows."""
    try:
        return _parse_table(path, header_only)
    except ScoreFileError:
        raise
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise ScoreFileError(f"{path}: cannot be read as CSV, Parquet or JSON lines ({exc})") from None


def _parse_table(path: Path, header_only: bool = False) -> _Table:
    if path.suffix.lower() in (".parquet", ".pq"):
        frame = pd.read_parquet(path)
        if frame.index.name is not None or not isinstance(frame.index, pd.RangeIndex):
            frame = frame.reset_index()  # an index pandas stored (the instances, say) is a column, never dropped
        if frame.columns.duplicated().any():
            raise ScoreFileError(f"{path}: column {frame.columns[frame.columns.duplicated()][0]!r} appears twice")
        return _Table(frame.reset_index(drop=True), 2, structured=True)
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return _read_json_lines(path)
    if path.suffix.lower() == ".json":
        return _read_json(path)
    return _read_csv(path, header_only)


def _read_json(path: Path) -> _Table:
    """A ``.json`` file: one JSON array of objects (FastChat's ``clean_battle_*.json``), its records numbered from 1
    in messages; a file that is not one array is read as JSON lines."""
    import json

    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    if not text.lstrip().startswith("["):
        return _read_json_lines(path)
    try:
        records = json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise ScoreFileError(f"{path}: a record names key {exc.key!r} twice; every column once per record") from None
    except json.JSONDecodeError as exc:
        raise ScoreFileError(f"{path}: is not valid JSON ({exc.msg} at line {exc.lineno}, column "
                             f"{exc.colno})") from None
    bad = [k for k, r in enumerate(records, 1) if type(r) is not dict]
    if bad:
        raise ScoreFileError(f"{path}: record {bad[0]} of the JSON array is a {type(records[bad[0] - 1]).__name__}, "
                             "not an object ({\"column\": value, ...}); every record must be one row")
    frame = pd.DataFrame(records) if records else pd.DataFrame()
    return _Table(frame, 1, np.arange(1, len(records) + 1, dtype=np.int64), structured=True)


def _read_json_lines(path: Path) -> _Table:
    """JSON lines, one object per line (blank lines skipped); a line that is not valid JSON or not an object, or an
    object naming a key twice, is an error naming it. The lines are parsed as one JSON array first (fast); only a
    file with a bad line is parsed line by line, to find it."""
    import json

    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, exc) from None
    numbered = [(k, line) for k, line in enumerate(text.split("\n"), 1) if line.strip()]
    lines = np.asarray([k for k, _ in numbered], dtype=np.int64)
    try:
        records = json.loads("[" + ",".join(line for _, line in numbered) + "]", object_pairs_hook=_unique_keys)
        whole = len(records) == len(numbered) and all(type(r) is dict for r in records)
    except (json.JSONDecodeError, _DuplicateKey):
        whole = False
    if not whole:
        records = [_json_line(path, number, line) for number, line in numbered]
    frame = pd.DataFrame(records) if records else pd.DataFrame()
    return _Table(frame, 1, lines, structured=True)


def _json_line(path: Path, number: int, line: str) -> dict:
    import json

    try:
        record = json.loads(line, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise ScoreFileError(f"{path}: line {number} names key {exc.key!r} twice; every column once per line") from None
    except json.JSONDecodeError as exc:
        raise ScoreFileError(f"{path}: line {number} is not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise ScoreFileError(f"{path}: line {number} is a JSON {type(record).__name__}, not an object "
                             "({\"column\": value, ...}); every line must be one row")
    return record


class _DuplicateKey(ValueError):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def _unique_keys(pairs) -> dict:
    """A JSON object whose keys are all different (``json.loads`` would keep the last of two silently)."""
    out = dict(pairs)
    if len(out) < len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


def _no_rows(path: Path, frame: pd.DataFrame) -> None:
    if len(frame) == 0:
        raise ScoreFileError(f"{path}: no rows (only a header, or an empty file)")


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


def _check_input(path: Path) -> None:
    """The input is an existing regular file (a folder, FIFO or device is refused: a FIFO would wait for a writer)."""
    if not path.exists():
        raise ScoreFileError(f"{path}: no such file")
    if not path.is_file():
        raise ScoreFileError(f"{path}: is not a regular file (a folder, FIFO or device); give a score file")


def is_complete(matrix: pd.DataFrame) -> bool:
    """Every system scored on every instance."""
    return not matrix.isna().to_numpy().any()


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


def is_id_name(name) -> bool:
    """A column name that names instances in a wide file (:data:`ID_COLUMNS`, or ending in ``_id``/``-id``)."""
    low = str(name).strip().lower()
    return low in ID_COLUMNS or low.endswith(("_id", "-id", " id"))


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
    """The first column of a wide file is read as instance ids when it is named like them (:func:`is_id_name`);
    one whose cells are all numbers and some not whole (0.37) holds a system's scores, not ids: refused rather than
    losing that system."""
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


#: winner cells of a judgment file, by what they mean
WINNER_WORDS = {"left": ("model_a", "a", "left", "x", "1"), "right": ("model_b", "b", "right", "y", "2"),
                "tie": ("tie", "draw", "tie (bothbad)", "tie_bothbad", "both_bad", "bothbad", "both bad", "0",
                        "equal")}


JUDGMENT_COLUMNS = ("model_a", "model_b", "winner", "weight")
#: the judgment layouts recognised by their columns (any case): the two systems' columns, what a winner cell naming
#: each of them says, and the layout's name on the first line
JUDGMENT_LAYOUTS = (
    (("model_a", "model_b"), ("model_a", "model_b"), "arena/FastChat (model_a, model_b, winner)"),
    (("team_1", "team_2"), ("team_1", "team_2"), "arena-rank (team_1, team_2, winner)"),
    (("left", "right"), ("left", "right"), "evalica (left, right, winner)"),
)
#: arena-rank's numeric outcomes: 1 (or 1.0) the first system wins, 0.5 a tie, 0 the second wins
ARENA_OUTCOMES = {1.0: "left", 0.5: "tie", 0.0: "right"}
#: the codes 1 (model_a), 2 (model_b), 0 (a tie) of :data:`WINNER_WORDS`
CODE_OUTCOMES = {1.0: "left", 2.0: "right", 0.0: "tie"}


def judgment_layout(columns) -> tuple | None:
    """The judgment layout (:data:`JUDGMENT_LAYOUTS`) whose system columns and a ``winner`` (or ``outcome``) column
    ``columns`` hold (any case), or None."""
    names = {str(c).strip().lower() for c in columns}
    if not names & {"winner", "outcome"}:
        return None
    for layout in JUDGMENT_LAYOUTS:
        if set(layout[0]) <= names:
            return layout
    return None


def _to_arena_layout(frame: pd.DataFrame, path: Path) -> tuple[pd.DataFrame, str, dict]:
    """The frame with its layout's system columns renamed ``model_a``/``model_b`` and its outcome column
    ``winner``; the layout's name and its winner words."""
    layout = judgment_layout(frame.columns)
    if layout is None:
        return frame, JUDGMENT_LAYOUTS[0][2], {}
    (a, b), (word_a, word_b), name = layout
    lower = {str(c).strip().lower(): c for c in frame.columns}
    rename = {}
    if a != "model_a":
        taken = [x for x in ("model_a", "model_b") if x in lower]
        if taken:
            raise ScoreFileError(f"{path}: both the {name} layout's columns and {taken} are present; keep one pair "
                                 "of system columns")
        rename = {lower[a]: "model_a", lower[b]: "model_b"}
    if "winner" not in lower and "outcome" in lower:
        rename[lower["outcome"]] = "winner"
    words = {} if a == "model_a" else {word_a: "left", word_b: "right"}
    return frame.rename(columns=rename), name, words


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


def _item_column(frame: pd.DataFrame, path: Path, where: dict | None, line: pd.Series) -> str:
    """The one column of a judgment file that names its items (``question_id``, ``item``, ``id``, ...: an id name
    of :func:`is_id_name`), which matches a judge's verdicts to the humans' on the same item."""
    found = [c for c in frame.columns if c not in JUDGMENT_COLUMNS and c not in (where or {}) and is_id_name(c)
             or str(c).strip().lower() in ("question", "prompt", "conversation_id", "question_id")]
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        what = f"several: {found}" if found else f"none among {list(map(str, frame.columns))}"
        raise ScoreFileError(f"{path}: matching judgments to human ones needs one column naming the items (e.g. "
                             f"question_id, item or id); found {what}")
    empty = (frame[found[0]].isna() | (frame[found[0]].astype(str).str.strip() == "")).to_numpy()
    if empty.any():
        raise ScoreFileError(f"{path}: column {found[0]!r} has empty item ids (first on line "
                             f"{line.iloc[np.flatnonzero(empty)[0]]})")
    return found[0]


def n_systems(games: pd.DataFrame) -> int:
    """The number of distinct systems of a judgment table (``left``, ``right``), without a Python loop."""
    left, right = games["left"], games["right"]
    if isinstance(left.dtype, pd.CategoricalDtype) and isinstance(right.dtype, pd.CategoricalDtype):
        used = [x.cat.remove_unused_categories().cat.categories for x in (left, right)]
        return len(used[0].union(used[1]))
    return len(pd.unique(np.concatenate([left.to_numpy(dtype=object), right.to_numpy(dtype=object)])))


def _numeric_outcomes(cell: pd.Series, path: Path, line_of) -> tuple[pd.Series | None, str]:
    """A winner column of numbers only, read one way or refused: arena-rank's outcomes (1 the first system wins,
    0.5 a tie, 0 the second) when it holds 0.5, or both 0 and 1; the codes 1, 2, 0 (model_a, model_b, a tie) when it
    holds a 2; only 1 (the first system wins either way) is read as both agree; only 0, which the two readings read
    differently, is refused naming both. (None, "") for a column with any non-number."""
    values = pd.to_numeric(cell, errors="coerce")
    if values.isna().any() or not len(values):
        return None, ""
    seen = set(values.unique().tolist())
    if seen <= set(ARENA_OUTCOMES) and (0.5 in seen or {0.0, 1.0} <= seen or seen == {1.0}):
        table, how = ARENA_OUTCOMES, "arena-rank's outcomes (1 model_a wins, 0.5 a tie, 0 model_b wins)"
    elif seen <= set(CODE_OUTCOMES) and 2.0 in seen:
        table, how = CODE_OUTCOMES, "codes (1 model_a wins, 2 model_b wins, 0 a tie)"
    elif seen == {0.0}:
        raise ScoreFileError(f"{path}: winner column holds only 0, which reads two ways: as arena-rank's outcome "
                             "(model_b wins every judgment) or as the code for a tie; write model_b or tie")
    else:
        allowed = sorted(set(ARENA_OUTCOMES) | set(CODE_OUTCOMES))
        bad = ~values.isin(allowed)
        if bad.any():
            i = np.flatnonzero(bad.to_numpy())[0]
            raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is a number other than arena-rank's "
                                 "outcomes 1, 0.5, 0 and the codes 1, 2, 0 (model_a, model_b, tie)")
        raise ScoreFileError(f"{path}: winner column mixes 0.5 and 2 ({sorted(seen)}), which no one reading covers: "
                             "arena-rank's outcomes are 1, 0.5, 0 (model_a, tie, model_b), the codes 1, 2, 0 "
                             "(model_a, model_b, tie)")
    return values.map(table).astype(object), how


def _winners(cell: pd.Series, a: pd.Series, b: pd.Series, path: Path, line_of,
             layout_words: dict | None = None) -> tuple[pd.Series, str]:
    """Each winner cell as "left", "right" or "tie": a code of :data:`WINNER_WORDS` (any case), a word of the file's
    layout (``team_1``/``team_2``), a number (:func:`_numeric_outcomes`) or one of the row's two system names. A
    cell that is both a code and, in any case, one of its row's names with another meaning (systems called
    ``A``/``B``, ``1``/``2`` or ``tie``) is refused as ambiguous rather than guessed. Also returns how a numeric
    column was read ("" otherwise)."""
    low = cell.str.lower()
    numbers, how = _numeric_outcomes(cell, path, line_of)
    code = pd.Series(np.nan, index=cell.index, dtype=object)
    if numbers is not None:
        code = numbers
    else:
        for meaning, words in WINNER_WORDS.items():
            code[low.isin(words)] = meaning
        for word, meaning in (layout_words or {}).items():
            code[low == word] = meaning
    name = pd.Series(np.nan, index=cell.index, dtype=object)
    name[low == b.str.lower()] = "right"
    name[low == a.str.lower()] = "left"
    clash = (code.notna() & name.notna() & (code != name)).to_numpy()
    if clash.any():
        i = np.flatnonzero(clash)[0]
        raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is ambiguous: it is the code for "
                             f"{'a tie' if code.iloc[i] == 'tie' else 'model_' + 'ab'[code.iloc[i] == 'right']} and "
                             f"the name of the system in model_{'ab'[name.iloc[i] == 'right']}; write the winner as "
                             "model_a, model_b or tie")
    exact = pd.Series(np.nan, index=cell.index, dtype=object)
    exact[cell == b] = "right"
    exact[cell == a] = "left"
    winner = code.fillna(exact)
    if winner.isna().any():
        i = np.flatnonzero(winner.isna().to_numpy())[0]
        raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is neither model_a, model_b, a tie "
                             f"({', '.join(WINNER_WORDS['tie'][:6])}, ...), nor one of the two systems' names")
    return winner, how
