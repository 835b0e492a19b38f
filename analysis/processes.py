"""Worker processes that die with their parent.

A ``ProcessPoolExecutor`` worker keeps running its task when the parent is killed with SIGKILL (it only notices at
the next task), so a killed ``data prepare`` or ``reproduce`` left workers computing for minutes. Each worker of
:func:`process_pool` asks the kernel for a signal when its parent dies (Linux ``PR_SET_PDEATHSIG``) and, on every
platform, watches its parent id from a daemon thread.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1


def _exit_with_parent(parent: int, interval: float = 0.5) -> None:
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _start_worker(parent: int, ignore_interrupts: bool) -> None:
    if ignore_interrupts:  # the terminal's Ctrl-C reaches the whole process group: let the parent alone handle it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent(parent)


def default_workers() -> int:
    """Worker processes when the caller names none: two, or fewer on a machine with fewer cores."""
    return min(2, os.cpu_count() or 1)


def process_pool(max_workers: int | None = None, ignore_interrupts: bool = False) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` whose workers exit when the process that created them dies (``max_workers``
    default: :func:`default_workers`). With ``ignore_interrupts``, the workers ignore SIGINT (Ctrl-C), so that none
    prints a traceback of its own; the parent then decides how to stop them."""
    return ProcessPoolExecutor(max_workers=max_workers or default_workers(), initializer=_start_worker,
                               initargs=(os.getpid(), ignore_interrupts))
