"""The file primitives every writer and checker in the package shares: a streaming sha256, an atomic write, and the
removal of what a killed writer left behind."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

# ``.<name>.<pid>.<random><suffix>.part``: the process id says whether the writer may still be running
_PARTIAL_PID = re.compile(r"\.(?P<pid>\d+)\.[A-Za-z0-9_]+(?:\.[A-Za-z0-9]+)?\.part$")


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 of a file (``hashlib.file_digest``: streamed, never read whole)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike, write: Callable[[str], object]) -> None:
    """Create ``path`` atomically: ``write(tmp)`` fills a temporary file in the same folder, which is flushed to disk
    and renamed over ``path`` only if ``write`` succeeded. An interrupted or failed write leaves no partial file
    (a killed process leaves ``.<name>.<pid>.*.part``, which :func:`remove_stale_partials` removes later). The file
    gets the ordinary permissions of a new file (``0o666`` less the umask), not the temporary file's ``0o600``."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path} is a directory; cannot write a file there")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=f"{path.suffix}.part")
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except FileNotFoundError:
        return not Path("/proc/self").exists()  # without /proc, os.kill's answer is all there is
    return state != "Z"


def remove_stale_partials(folder: str | os.PathLike) -> list[Path]:
    """Delete the temporary ``*.part`` files under ``folder`` whose writer is gone (killed mid-write); files of a
    writer that is still running are kept. Returns the removed paths."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    removed = []
    for path in folder.rglob(".*.part"):
        if not path.is_file():
            continue
        m = _PARTIAL_PID.search(path.name)
        if m is None or not pid_alive(int(m["pid"])):  # no pid: written before pids were recorded
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed
