"""A user's score or judgment file read as a table (for :mod:`analysis.data.scorefiles`), with every row's line in
the file for the messages: CSV (the separator the header line uses, ``#`` comment lines, trailing separators, each
row's number of fields and unclosed quotes checked; UTF-8 only), Parquet, a JSON array of objects, or JSON lines (a
key named twice refused). :class:`ScoreFileError` is the error of every reader of a user's file."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

#: the long format's columns, named in any case (a header naming one twice, in two cases, is refused)
LONG_COLUMNS = ("instance", "system", "score")
#: the separators a CSV file's header line may use
SEPARATORS = (",", ";", "\t", "|")


class ScoreFileError(ValueError):
    """A score file cannot be read as scores; the message names the file and the line or column."""


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


def _check_input(path: Path) -> None:
    """The input is an existing regular file (a folder, FIFO or device is refused: a FIFO would wait for a writer)."""
    if not path.exists():
        raise ScoreFileError(f"{path}: no such file")
    if not path.is_file():
        raise ScoreFileError(f"{path}: is not a regular file (a folder, FIFO or device); give a score file")


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
