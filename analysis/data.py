"""The data registry, verified fetching and safe loading (``python -m analysis data fetch|verify``).

``data/registry.toml`` pins every upstream file a chapter reads: repository, commit, path, size and sha256, with its
licence and citation. Fetching resolves each file to the local mirror when there is one (``$COMPENDIUM_DATA_MIRROR``,
else ``../shared/data`` beside the repository; files stored as ``<path>.gz`` or as plain copies) and to its pinned
upstream URL otherwise, checks size and sha256 of the (decompressed) upstream bytes *before* writing, and writes
atomically (temporary file, then rename), so an interrupted or corrupted fetch never leaves a file that looks valid.
Pickles are only ever opened after their checksum matched, through an allow-list unpickler.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import io
import os
import pickle
import re
import sys
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .files import atomic_write, sha256_file
from .paths import repo_root

MIRROR_ENV = "COMPENDIUM_DATA_MIRROR"
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


def default_mirror() -> Path | None:
    """The mirror directory: ``$COMPENDIUM_DATA_MIRROR`` if set (an empty value disables the mirror), else
    ``../shared/data`` beside the repository when it exists, else None (fetch from upstream)."""
    env = os.environ.get(MIRROR_ENV)
    if env is not None:
        return Path(env) if env else None
    candidate = repo_root().parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


def raw_dir() -> Path:
    return repo_root() / "data" / "raw"


def sha256_bytes(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def file_ok(target: Path, f: DataFile) -> bool:
    return target.is_file() and target.stat().st_size == f.size and sha256_file(target) == f.sha256


def _read_upstream(f: DataFile, mirror: Path | None, timeout: float) -> tuple[bytes, str]:
    """The upstream bytes of ``f`` and where they came from: mirror (.gz or plain) first, then the URL."""
    if mirror is not None:
        gz = mirror / f"{f.relpath}.gz"
        plain = mirror / f.relpath
        if gz.is_file():
            try:
                return gzip.decompress(gz.read_bytes()), str(gz)
            except (OSError, EOFError) as exc:
                raise DataError(f"{f.path} ({f.url}): mirror copy {gz} is not valid gzip: {exc}") from None
        if plain.is_file():
            return plain.read_bytes(), str(plain)
    try:
        with urllib.request.urlopen(f.url, timeout=timeout) as response:
            return response.read(), f.url
    except (urllib.error.URLError, OSError) as exc:
        where = f"not in the mirror {mirror} and " if mirror is not None else "no mirror, and "
        raise DataError(f"cannot fetch {f.path} from source {f.source!r}: {where}{f.url} is unreachable ({exc})") from None


def fetch_file(f: DataFile, *, root: Path | None = None, mirror: Path | None = None, timeout: float = 60.0) -> str:
    """Make ``root/<relpath>`` hold the verified upstream file. Returns "present" or the origin of the bytes."""
    target = (root or raw_dir()) / f.relpath
    if file_ok(target, f):
        return "present"
    payload, origin = _read_upstream(f, mirror, timeout)
    digest = sha256_bytes(payload)
    if len(payload) != f.size or digest != f.sha256:
        raise DataError(
            f"checksum mismatch for {f.path} ({f.url}) read from {origin}: expected {f.size} bytes with sha256 "
            f"{f.sha256}, got {len(payload)} bytes with sha256 {digest}; nothing was written"
        )
    atomic_write(target, lambda tmp: Path(tmp).write_bytes(payload))
    return origin


def fetch(only: list[str] | None = None, *, root=None, mirror="default", stream=sys.stderr) -> dict[str, str]:
    """Fetch every registered file (or the sources in ``only``); returns {relpath: "present" | origin}."""
    mirror = default_mirror() if mirror == "default" else (Path(mirror) if mirror else None)
    sources = select(load_registry(), only)
    files = [f for s in sources for f in s.files]
    results = {}
    print(f"data fetch: {len(files)} file(s) from {len(sources)} source(s); mirror: {mirror or 'none'}", file=stream)
    for k, f in enumerate(files, 1):
        results[f.relpath] = fetch_file(f, root=Path(root) if root else None, mirror=mirror)
        if results[f.relpath] != "present":
            print(f"[{k}/{len(files)}] fetched {f.source}: {f.path}", file=stream, flush=True)
    fetched = sum(v != "present" for v in results.values())
    print(f"data fetch: {fetched} fetched, {len(files) - fetched} already present and verified", file=stream)
    return results


def verify(only: list[str] | None = None, *, root=None) -> dict[str, str]:
    """Re-check every registered file on disk: {relpath: "ok" | "missing" | "corrupt"}."""
    base = Path(root) if root else raw_dir()
    report = {}
    for s in select(load_registry(), only):
        for f in s.files:
            target = base / f.relpath
            report[f.relpath] = "ok" if file_ok(target, f) else ("corrupt" if target.exists() else "missing")
    return report


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


def read_verified(f: DataFile, root=None) -> bytes:
    """The bytes of a registered file, checked against its size and sha256. What is checked is what is returned, so
    the file cannot change between the check and the read."""
    target = (Path(root) if root else raw_dir()) / f.relpath
    if not target.is_file():
        raise DataError(f"{f.path} of source {f.source!r} is not fetched yet ({target}); run `make data`")
    payload = target.read_bytes()
    if len(payload) != f.size or sha256_bytes(payload) != f.sha256:
        raise DataError(f"{target} does not match its registered sha256 ({f.url}); run `make data` to repair it")
    return payload


# Exactly the globals each pickle needs (see ../shared/data/README.md). numpy.core was renamed numpy._core in 2.0.
PICKLE_ALLOW = {
    "bt-eval": {
        ("builtins", "slice"),
        ("numpy", "dtype"),
        ("numpy", "ndarray"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "scalar"),
        ("pandas.core.frame", "DataFrame"),
        ("pandas.core.indexes.base", "Index"),
        ("pandas.core.indexes.base", "_new_Index"),
        ("pandas.core.indexes.range", "RangeIndex"),
        ("pandas.core.internals.managers", "BlockManager"),
    },
    "realsumm": {("numpy", "dtype"), ("numpy.core.multiarray", "scalar")},
    "summeval": set(),  # plain dicts, lists, strings and floats: no global at all
}


class AllowListUnpickler(pickle.Unpickler):
    """Unpickler that resolves only the (module, name) pairs it is given; anything else is refused."""

    def __init__(self, file, allowed: set[tuple[str, str]]):
        super().__init__(file)
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"refused to unpickle {module}.{name}: not in the allow-list")
        if module.startswith("numpy.core."):
            module = "numpy._core." + module[len("numpy.core.") :]
        return getattr(importlib.import_module(module), name)


def load_pickle(f: DataFile, root=None, allowed: set[tuple[str, str]] | None = None):
    """Unpickle a registered file: checksum first, then the source's allow-list (or ``allowed``)."""
    allow = allowed if allowed is not None else PICKLE_ALLOW.get(f.source)
    if allow is None:
        raise DataError(f"source {f.source!r} has no pickle allow-list; refusing to unpickle {f.path}")
    payload = read_verified(f, root)
    try:
        return AllowListUnpickler(io.BytesIO(payload), allow).load()
    except pickle.UnpicklingError as exc:
        raise DataError(f"{f.path} ({f.url}): {exc}") from None
