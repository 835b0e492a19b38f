"""Numbers typed in from the papers, kept once as data: ``data/published/<paper>.toml``, one table per paper item.

Every item carries a ``source`` (the table, figure or section it is printed in). Chapters read published values
only through :func:`load` (or :func:`item`), never retype them, so a typo is fixed in one place and every
side-by-side table shows the same number.
"""

from __future__ import annotations

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
