"""What is registered: every upstream file (``data/registry.toml``) and every table built from them.

``data/registry.toml`` pins every upstream file a chapter reads: repository, commit, path, size and sha256, with its
licence and citation. A :class:`Table` declares a tidy table once: its name, its schema (column -> pandas dtype), the
registered files it is built from and its builder; the builder modules (:mod:`~analysis.data.paired`,
:mod:`~analysis.data.wmt`, :mod:`~analysis.data.favi`, :mod:`~analysis.data.gvp`) each list their tables next to
the code that builds them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import repo_root

RAW_HOST = "https://raw.githubusercontent.com"


class DataError(RuntimeError):
    """A data file is missing, unreachable, corrupted or refused; the message names the file and its URL."""


@dataclass(frozen=True)
class DataFile:
    source: str
    repo: str
    commit: str
    path: str
    size: int
    sha256: str

    @property
    def relpath(self) -> str:
        """``github/<repo>/<commit>/<path>``: the layout of data/raw and of the mirror."""
        return f"github/{self.repo}/{self.commit}/{self.path}"

    @property
    def url(self) -> str:
        return f"{RAW_HOST}/{self.repo}/{self.commit}/{self.path}"


@dataclass(frozen=True)
class Source:
    name: str
    repo: str
    commit: str
    licence: str
    citation: str
    status: str
    used_for: str
    chapters: tuple[str, ...]
    files: tuple[DataFile, ...]


@dataclass(frozen=True)
class Table:
    """A tidy table: its ``schema`` (column -> pandas dtype, in order), the registry files it reads (``sources``:
    a source name, meaning all its files, or ``(source, regex searched in the file's path)``) and its ``build``
    function, ``build(root) -> (frame, [DataFile read])``. ``provenance`` returns extra facts recorded with the
    table (e.g. metric signatures); a change in them rebuilds the table."""

    name: str
    schema: dict[str, str]
    sources: tuple
    build: Callable
    provenance: Callable[[], dict] = field(default=dict)

    @property
    def columns(self) -> list[str]:
        return list(self.schema)


_SOURCE_KEYS = {"name", "repo", "commit", "licence", "citation", "status", "used_for", "chapters", "files"}


def registry_path() -> Path:
    return repo_root() / "data" / "registry.toml"


def load_registry(path: str | os.PathLike | None = None) -> list[Source]:
    """Read and validate the registry; a malformed entry is a ValueError naming it."""
    path = Path(path) if path else registry_path()
    with open(path, "rb") as fh:
        raw = tomllib.load(fh)
    sources = []
    for entry in raw.get("source", []):
        missing = _SOURCE_KEYS - set(entry)
        if missing:
            raise ValueError(f"registry source {entry.get('name', '?')!r} lacks {sorted(missing)}")
        if entry["status"] not in {"exact", "stand-in", "extra"}:
            raise ValueError(f"registry source {entry['name']!r}: unknown status {entry['status']!r}")
        files = []
        for f in entry["files"]:
            if len(f["sha256"]) != 64 or not isinstance(f["size"], int):
                raise ValueError(f"registry source {entry['name']!r}: bad sha256 or size for {f.get('path')}")
            files.append(DataFile(entry["name"], entry["repo"], entry["commit"], f["path"], f["size"], f["sha256"]))
        sources.append(
            Source(
                entry["name"], entry["repo"], entry["commit"], entry["licence"], entry["citation"], entry["status"],
                entry["used_for"], tuple(entry["chapters"]), tuple(files),
            )
        )
    names = [s.name for s in sources]
    if len(set(names)) != len(names):
        raise ValueError(f"registry source names must be unique: {names}")
    return sources


def select(sources: list[Source], only: list[str] | None) -> list[Source]:
    if not only:
        return sources
    unknown = sorted(set(only) - {s.name for s in sources})
    if unknown:
        raise ValueError(f"unknown data source(s) {unknown}; known: {[s.name for s in sources]}")
    return [s for s in sources if s.name in only]


def source_files(source: str, pattern: str | None = None) -> list[DataFile]:
    """The registered files of ``source`` (those whose path matches the regex ``pattern``, if given)."""
    for s in load_registry():
        if s.name == source:
            return [f for f in s.files if pattern is None or re.search(pattern, f.path)]
    raise DataError(f"no registry source {source!r}")


def find(source: str, path: str) -> DataFile:
    for f in source_files(source):
        if f.path == path:
            return f
    raise DataError(f"no registered file {path!r} in source {source!r}")
