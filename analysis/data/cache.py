"""The metric cache (``data/processed/cache/``): recomputed tables that are slow to build, each stored as Parquet
next to its sha256 (``<entry>.sha256``, written after the entry). An entry whose bytes do not match, or whose
checksum was never written (a killed run), is a miss: it is deleted and recomputed, never read and never fatal."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

from ..files import atomic_write, sha256_file
from .raw import sha256_bytes


def _checksum_path(entry: Path) -> Path:
    return entry.with_name(entry.name + ".sha256")


def _remove(entry: Path) -> None:
    entry.unlink(missing_ok=True)
    _checksum_path(entry).unlink(missing_ok=True)


def _state(entry: Path, payload: bytes | None = None) -> str:
    """"ok", "unrecorded" (no checksum) or "corrupt"; ``payload``: the entry's bytes, if already read."""
    checksum = _checksum_path(entry)
    if not checksum.is_file():
        return "unrecorded"
    digest = sha256_bytes(payload) if payload is not None else sha256_file(entry)
    return "ok" if checksum.read_text().strip() == digest else "corrupt"


def write(entry: str | Path, frame: pd.DataFrame) -> None:
    """Store ``frame`` as the cache entry ``entry`` (atomically), then its checksum."""
    entry = Path(entry)
    atomic_write(entry, lambda tmp: frame.to_parquet(tmp, index=False))
    digest = sha256_file(entry)
    atomic_write(_checksum_path(entry), lambda tmp: Path(tmp).write_text(digest + "\n"))


def read(entry: str | Path) -> pd.DataFrame | None:
    """The cached frame, or None (a miss) when the entry is absent or does not match its recorded checksum, in
    which case the damaged entry is removed."""
    entry = Path(entry)
    if not entry.is_file():
        return None
    payload = entry.read_bytes()
    if _state(entry, payload) != "ok":
        _remove(entry)
        return None
    return pd.read_parquet(io.BytesIO(payload))


def verify(folder: str | Path) -> dict[str, str]:
    """{``cache/<entry>``: "ok" | "corrupt" | "unrecorded" (no checksum)} for every entry in ``folder``."""
    folder = Path(folder)
    return {f"cache/{entry.name}": _state(entry) for entry in sorted(folder.glob("*.parquet"))}


def discard_damaged(folder: str | Path) -> list[Path]:
    """Remove the entries that do not match their checksum (or have none): they would be recomputed anyway when
    next needed, and until then ``verify`` would report them."""
    damaged = [entry for entry in sorted(Path(folder).glob("*.parquet")) if _state(entry) != "ok"]
    for entry in damaged:
        _remove(entry)
    return damaged


def prune(folder: str | Path, prefix: str, keep: set[str]) -> list[Path]:
    """Remove the entries ``<prefix>*.parquet`` in ``folder`` (with their checksums) whose names are not in
    ``keep``: results for inputs, libraries or metric versions no longer in use."""
    removed = [entry for entry in sorted(Path(folder).glob(f"{prefix}*.parquet")) if entry.name not in keep]
    for entry in removed:
        _remove(entry)
    return removed
