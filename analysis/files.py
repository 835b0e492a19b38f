"""The two file primitives every writer and checker in the package shares: a streaming sha256 and an atomic write."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 of a file (``hashlib.file_digest``: streamed, never read whole)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def atomic_write(path: str | os.PathLike, write: Callable[[str], object]) -> None:
    """Create ``path`` atomically: ``write(tmp)`` fills a temporary file in the same folder, which is flushed to disk
    and renamed over ``path`` only if ``write`` succeeded. An interrupted or failed write leaves no partial file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=f"{path.suffix}.part")
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
