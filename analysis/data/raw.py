"""Verified fetching and reading of registered files (``python -m analysis data fetch|verify``).

Fetching resolves each file to the local mirror when there is one (``$COMPENDIUM_DATA_MIRROR``,
else ``../shared/data`` beside the repository; files stored as ``<path>.gz`` or as plain copies) and to its pinned
upstream URL otherwise, checks size and sha256 of the (decompressed) upstream bytes *before* writing, and writes
atomically (temporary file, then rename), so an interrupted or corrupted fetch never leaves a file that looks valid.
Readers get the exact bytes that were checked (:func:`read_verified`); pickles go through :mod:`.pickles`.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pandas as pd

from ..files import atomic_write, remove_stale_partials, sha256_file
from ..paths import raw_dir, repo_root
from .registry import DataError, DataFile, load_registry, select

MIRROR_ENV = "COMPENDIUM_DATA_MIRROR"


def default_mirror() -> Path | None:
    """The mirror directory: ``$COMPENDIUM_DATA_MIRROR`` if set (an empty value disables the mirror), else
    ``../shared/data`` beside the repository when it exists, else None (fetch from upstream)."""
    env = os.environ.get(MIRROR_ENV)
    if env is not None:
        return Path(env) if env else None
    candidate = repo_root().parent / "shared" / "data"
    return candidate if candidate.is_dir() else None


def sha256_bytes(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def _not_a_directory(target: Path, f: DataFile) -> None:
    if target.is_dir():
        raise DataError(f"{target} is a directory, not the file {f.path} of source {f.source!r}; remove it and run "
                        "`make data`")


def file_ok(target: Path, f: DataFile) -> bool:
    return target.is_file() and target.stat().st_size == f.size and sha256_file(target) == f.sha256


def _read_upstream(f: DataFile, mirror: Path | None, timeout: float) -> tuple[bytes, str]:
    """The upstream bytes of ``f`` and where they came from: mirror (.gz or plain) first, then the URL."""
    if mirror is not None:
        gz = mirror / f"{f.relpath}.gz"
        plain = mirror / f.relpath
        if gz.is_file():
            try:
                with gzip.open(gz, "rb") as fh:
                    payload = fh.read(f.size + 1)  # bounded: a file that expands further is refused unread
            except (OSError, EOFError) as exc:
                raise DataError(f"{f.path} ({f.url}): mirror copy {gz} is not valid gzip: {exc}") from None
            if len(payload) > f.size:
                raise DataError(f"{f.path}: mirror copy {gz} expands past the registered {f.size} bytes; refused "
                                "without reading further, nothing was written")
            return payload, str(gz)
        if plain.is_file():
            if (size := plain.stat().st_size) != f.size:
                raise DataError(f"{f.path}: mirror copy {plain} has {size} bytes, not the registered {f.size}; "
                                "nothing was written")
            return plain.read_bytes(), str(plain)
    try:
        with urllib.request.urlopen(f.url, timeout=timeout) as response:
            return response.read(), f.url
    except (urllib.error.URLError, OSError) as exc:
        where = f"not in the mirror {mirror} and " if mirror is not None else "no mirror, and "
        raise DataError(f"cannot fetch {f.path} from source {f.source!r}: {where}{f.url} is unreachable "
                        f"({exc})") from None


def fetch_file(f: DataFile, *, root: Path | None = None, mirror: Path | None = None, timeout: float = 60.0) -> str:
    """Make ``root/<relpath>`` hold the verified upstream file. Returns "present" or the origin of the bytes."""
    target = (root or raw_dir()) / f.relpath
    _not_a_directory(target, f)
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
    base = Path(root) if root else raw_dir()
    for path in remove_stale_partials(base):
        print(f"data fetch: removed {path.name}, left by a killed run", file=stream, flush=True)
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
            report[f.relpath] = ("ok" if file_ok(target, f) else "not a file" if target.is_dir()
                                 else "corrupt" if target.exists() else "missing")
    return report


def read_verified(f: DataFile, root=None) -> bytes:
    """The bytes of a registered file, checked against its size and sha256. What is checked is what is returned, so
    the file cannot change between the check and the read."""
    target = (Path(root) if root else raw_dir()) / f.relpath
    _not_a_directory(target, f)
    if not target.is_file():
        raise DataError(f"{f.path} of source {f.source!r} is not fetched yet ({target}); run `make data`")
    payload = target.read_bytes()
    if len(payload) != f.size or sha256_bytes(payload) != f.sha256:
        raise DataError(f"{target} does not match its registered sha256 ({f.url}); run `make data` to repair it")
    return payload


def read_lines(f: DataFile, root=None) -> list[str]:
    """A verified text file as its lines (split on newline only: segments may contain other Unicode breaks)."""
    text = read_verified(f, root).decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_table(f: DataFile, root=None, **kwargs) -> pd.DataFrame:
    """A verified delimited text file as a DataFrame (``pandas.read_csv`` keyword arguments); a parse error names
    the file, which pandas' own errors do not."""
    payload = read_verified(f, root)
    try:
        return pd.read_csv(io.BytesIO(payload), **kwargs)
    except (ValueError, pd.errors.ParserError) as exc:
        raise ValueError(f"{f.path}: cannot parse as a table: {exc}") from exc
