"""The file primitives every writer and checker in the package shares: a streaming sha256, an atomic write, and the
removal of what a killed writer left behind."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import stat
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
    tmp = _temporary(path)
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _temporary(path: Path) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=f"{path.suffix}.part")
    os.close(fd)
    return tmp


def is_special(path: str | os.PathLike) -> bool:
    """An existing path that is neither a regular file nor a folder (a device such as ``/dev/stdout`` or
    ``/dev/full``, a FIFO): it cannot be replaced by a rename, only written to."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


class WriteError(OSError):
    """A file could not be written; ``path`` is the file meant (not its temporary), ``reason`` the cause."""

    def __init__(self, path, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = Path(path), reason


def write_together(files: dict[Path, Callable[[str], object]]) -> None:
    """Write several files so that they appear together or not at all: every ``write(tmp)`` fills a temporary file
    beside its target first (a failure or an interrupt there removes the temporaries and leaves every target as it
    was); then the temporaries are renamed into place with SIGINT and SIGTERM held back, so that an interrupt cannot
    split the set (it is delivered after the last rename). A target that is a device or FIFO (``/dev/stdout``) is
    written directly, after the regular files are in place. Every failure is a :class:`WriteError` naming the
    target."""
    staged: list[tuple[str, Path]] = []
    direct = [(Path(p), w) for p, w in files.items() if is_special(p)]
    try:
        for path, write in files.items():
            path = Path(path)
            if is_special(path):
                continue
            if path.is_dir():
                raise WriteError(path, "it is a folder")
            try:
                tmp = _temporary(path)
                staged.append((tmp, path))
                write(tmp)
                with open(tmp, "rb+") as fh:
                    os.fsync(fh.fileno())
                os.chmod(tmp, 0o666 & ~_umask())
            except OSError as exc:
                raise WriteError(path, exc.strerror or str(exc)) from exc
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            for tmp, path in staged:
                os.replace(tmp, path)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    for path, write in direct:
        try:
            write(str(path))
        except OSError as exc:
            raise WriteError(path, exc.strerror or str(exc)) from exc


def probe_writable(folder: str | os.PathLike) -> None:
    """Raise the ``OSError`` that writing a file in ``folder`` would raise (read-only file system, no permission),
    by creating and removing an empty temporary file there: a check made before any work, so that a run is refused
    at once rather than fail after hours. A probe left by a killed process is a stale partial
    (:func:`remove_stale_partials`)."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".write-check.{os.getpid()}.", suffix=".part")
    os.close(fd)
    os.unlink(tmp)


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


def write_if_changed(path: str | os.PathLike, content: str | bytes, encoding: str = "utf-8") -> bool:
    """Write ``content`` to ``path`` with :func:`atomic_write`, unless the file already holds exactly these bytes:
    then it is left alone, its modification time too, so that a build that compares times (Sphinx's incremental
    build re-reads every page whose source is newer than its last read) does not redo work for an unchanged file.
    Returns whether it wrote."""
    data = content.encode(encoding) if isinstance(content, str) else content
    path = Path(path)
    try:
        if path.is_file() and not path.is_symlink() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass  # unreadable: written over as atomic_write would
    atomic_write(path, lambda tmp: Path(tmp).write_bytes(data))
    return True
