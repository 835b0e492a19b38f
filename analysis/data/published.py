"""Numbers typed in from the papers, kept once as data: ``data/published/<paper>.toml``, one table per paper item.

Every item carries a ``source`` (the table, figure or section it is printed in). Chapters read published values
only through :func:`load` (or :func:`item`), never retype them, so a typo is fixed in one place and every
side-by-side table shows the same number. One value is addressed by a path (:func:`resolve`, :func:`value`):
``section51_ref_shares.shares.en-cs``, ``fig2.favi[3]``, ``table2[group = "ALL SR+DC"].rank[0]``; the claims
registry (``data/published/claims``) points at its published values with such paths instead of retyping them.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import cache

from ..paths import repo_root

PAPERS = ("paired", "wmt", "favi", "gvp")


@cache
def load(paper: str) -> dict:
    """All published items of ``paper`` (``"paired"``, ...) as a dict keyed by paper item."""
    path = repo_root() / "data" / "published" / f"{paper}.toml"
    if not path.is_file():
        raise ValueError(f"no published values for paper {paper!r} ({path}); known papers: {list(PAPERS)}")
    with open(path, "rb") as fh:
        items = tomllib.load(fh)
    unsourced = [name for name, value in items.items() if not isinstance(value, dict) or "source" not in value]
    if unsourced:
        raise ValueError(f"{path}: items without a 'source': {unsourced}")
    return items


def item(paper: str, name: str) -> dict:
    """One published item, e.g. ``item("paired", "table4")``; a clear error names the known items."""
    items = load(paper)
    if name not in items:
        raise KeyError(f"{paper!r} has no published item {name!r}; known: {sorted(items)}")
    return items[name]


def frame(paper: str, name: str):
    """A published table item (``rows`` under ``columns``) as a pandas DataFrame, e.g. ``frame("gvp",
    "appendix_c1")``."""
    import pandas as pd

    value = item(paper, name)
    if "rows" not in value or "columns" not in value:
        raise ValueError(f"published item {paper}/{name} is not a table (it has no 'rows' and 'columns')")
    return pd.DataFrame(value["rows"], columns=value["columns"])


def is_number(value) -> bool:
    """A finite int or float (a boolean is not a number here)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def is_scalar(value) -> bool:
    return isinstance(value, (str, bool)) or is_number(value)


# --- paths to one value (the claims registry's ``paper_ref`` points with them) --------------------------------------

class RefError(ValueError):
    """A path that does not resolve (the message says why, in one line)."""


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _closing(path: str, start: int) -> int:
    """The position of the ``]`` closing the ``[`` at ``start`` (brackets and TOML strings inside are skipped)."""
    depth, i, quote = 0, start, None
    while i < len(path):
        c = path[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise RefError(f"the '[' at character {start + 1} is not closed")


def steps(path: str) -> list[tuple[str, object, str, str]]:
    """The steps of a path, each ``(kind, argument, its text, the path up to and with it)``: kind ``"key"`` with the
    key for ``.key`` (a bare TOML key, or ``"quoted"``), ``"index"`` with ``n`` for ``[n]`` and ``"row"`` with
    ``{column: value}`` for ``[column = value, ...]`` (the body of a TOML inline table)."""
    if not isinstance(path, str) or not path.strip():
        raise RefError(f"a path must be a non-empty string, got {path!r}")
    found, i, want_key = [], 0, True
    while i < len(path):
        c = path[i]
        if want_key:
            if c == '"':
                end = path.find('"', i + 1)
                if end < 0:
                    raise RefError(f"the quote at character {i + 1} is not closed")
                name, i = path[i + 1:end], end + 1
            else:
                bare = _BARE_KEY.match(path, i)
                if not bare:
                    raise RefError(f"a key is expected at character {i + 1} of {path!r}")
                name, i = bare.group(), bare.end()
            found.append(("key", name, name, path[:i]))
            want_key = False
        elif c == ".":
            want_key, i = True, i + 1
        elif c == "[":
            end = _closing(path, i)
            inner = path[i + 1:end].strip()
            if inner.isdigit():
                found.append(("index", int(inner), path[i:end + 1], path[:end + 1]))
            else:
                try:
                    where = tomllib.loads(f"row = {{ {inner} }}")["row"]
                except tomllib.TOMLDecodeError:
                    where = None
                if not where:
                    raise RefError(f"[{inner}] is neither a list index [n] nor a row filter [column = value, ...]")
                found.append(("row", where, path[i:end + 1], path[:end + 1]))
            i = end + 1
        else:
            raise RefError(f"unexpected {c!r} at character {i + 1} of {path!r} (steps are .key, [n] and "
                           "[column = value])")
    if want_key:
        raise RefError(f"{path!r} ends without a key")
    return found


def _same_cell(a, b) -> bool:
    """A row filter's value against a cell: numbers by value (1.5 = 1.5, 2 = 2.0), anything else by type and value."""
    if is_number(a) and is_number(b):
        return a == b
    return type(a) is type(b) and a == b


def _table_rows(node, at: str) -> list[dict]:
    """The rows a ``[column = value]`` step filters: a table's ``rows`` (a list row is named by the table's
    ``columns``), or a list of tables."""
    columns = node.get("columns") if isinstance(node, dict) else None
    rows = node.get("rows") if isinstance(node, dict) else node
    if not isinstance(rows, list):
        raise RefError(f"{at} is not a table of rows (a 'rows' list, or a list of tables) to filter")
    named = []
    for row in rows:
        if isinstance(row, list) and isinstance(columns, list) and len(columns) == len(row):
            row = dict(zip(columns, row))
        if not isinstance(row, dict):
            raise RefError(f"{at} has a row that is neither a table nor a list as long as its 'columns': {row!r}")
        named.append(row)
    return named


def resolve(document: dict, path: str):
    """The value ``path`` points at in a published file (``document``, its parsed TOML). A path is keys joined by
    ``.`` (``section51_ref_shares.shares.en-cs``; a key with other characters in double quotes), a list index
    ``[n]`` (from 0) and a row filter ``[column = value, ...]`` that picks the one row of a table (its ``rows``,
    list rows named by its ``columns``) whose cells equal the values (TOML values): ``table2[group = "ALL SR+DC"]
    .rank[0]``. A step that finds nothing, or a filter that matches no row or several, is a :class:`RefError`."""
    node, at = document, "the file's top"
    for kind, arg, text, upto in steps(path):
        if kind == "key":
            if not isinstance(node, dict):
                raise RefError(f"{at} is {_kind(node)}, not a table with key {arg!r}")
            if arg not in node:
                keys = sorted(node)
                shown = keys if len(keys) <= 12 else keys[:12] + ["..."]
                raise RefError(f"{at} has no key {arg!r} (keys: {shown})")
            node = node[arg]
        elif kind == "index":
            if not isinstance(node, list) or arg >= len(node):
                raise RefError(f"{at} has no element [{arg}]: it is {_kind(node)}")
            node = node[arg]
        else:
            rows = _table_rows(node, at)
            hits = [r for r in rows if all(k in r and _same_cell(r[k], v) for k, v in arg.items())]
            if len(hits) != 1:
                raise RefError(f"{text} matches {len(hits)} of the {len(rows)} rows of {at}, not one")
            node = hits[0]
        at = upto
    if not (is_scalar(node) or (isinstance(node, list) and node and all(is_scalar(v) for v in node))):
        raise RefError(f"{path} is {_kind(node)}, not one published value (a string, a boolean, a finite number or "
                       "a list of them)")
    return node


def _kind(node) -> str:
    """What a node is, in a few words (an error message never prints a whole table)."""
    if isinstance(node, dict):
        return f"a table (keys: {sorted(node)[:12]})"
    if isinstance(node, list):
        inner = sorted({type(v).__name__ for v in node})
        return f"a list of {len(node)} holding {', '.join(inner) or 'nothing'}"
    return f"the value {node!r}"


def value(paper: str, path: str):
    """One published value by its path (see :func:`resolve`): ``value("wmt", 'table2[group = "ALL SR+DC"].rank')``
    is ``[18, 25]``."""
    return resolve(load(paper), path)
