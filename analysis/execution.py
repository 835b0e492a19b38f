"""One chapter's notebook executed by papermill in its staging folder (for :func:`analysis.reproduce.run_chapter`):
the kernel (its own stdout and stderr to a log, Unix sockets, and :data:`_READ_TRACKER`, which lists the data files
it opens), the time limit on all its cells, the executed notebook made into the book's page (glued values checked,
this machine's paths scrubbed, code hidden, the details split off), and a failed run's notebook and kernel log kept in
``failed/``."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from .manifest import error_summary
from .notebooks import DETAILS_PAGE, glue_problems, hide_code, scrub_machine_paths, split_details
from .paths import notebooks_dir, repo_root

#: the kernel's own stdout and stderr, in the staging folder (``failed/<chapter>.kernel.log`` if the run fails)
KERNEL_LOG = "kernel.log"
#: the data files the chapter's kernel opened, one path a line, in the staging folder
READS_LOG = "reads.log"

#: run in the chapter's kernel before its first cell (IPython's ``exec_lines``): an audit hook lists in ``log``
#: every file opened under ``folders`` (the data a chapter reads, through any reader that opens it from Python, as
#: :func:`analysis.data.load_table` does), once each. Self-contained, so that nothing of the package is imported
#: before the notebook imports it; a hook never raises into the notebook.
_READ_TRACKER = """
import os, sys
def _install(log, folders):
    out = open(log, "a", buffering=1)
    roots = tuple(set(os.path.join(how(f), "") for f in folders for how in (os.path.abspath, os.path.realpath)))
    seen = set()
    def hook(event, args):
        if event != "open" or not args or isinstance(args[0], int):
            return
        try:
            path = os.fsdecode(os.path.abspath(os.fspath(args[0])))
            if not path.startswith(roots):  # a folder reached through a link (data/processed on another disk)
                path = os.path.realpath(path)
            if path.startswith(roots) and path not in seen:
                seen.add(path)
                out.write(path + "\\n")
        except Exception:
            pass
    sys.addaudithook(hook)
_install({log!r}, {folders!r})
"""


def data_folders() -> list[Path]:
    """Where the data a chapter reads lives: ``data/`` (prepared tables, metric caches, raw files, published values)
    and ``examples/``."""
    return [repo_root() / "data", repo_root() / "examples"]


def _read_files(stage: Path) -> list[Path]:
    """The data files the chapter's kernel opened (:data:`_READ_TRACKER`), still existing, in order."""
    try:
        lines = (stage / READS_LOG).read_text().splitlines()
    except OSError:
        return []
    return sorted({Path(line) for line in lines if line and Path(line).is_file()})


def _execute(stage: Path, injected: dict, timeout: float | None) -> None:
    """Execute the stage's ``input.ipynb`` into its ``notebook.ipynb``, the notebook writing into the stage; its
    cells get ``timeout`` seconds in all (each cell the time left), else a ``TimeoutError`` saying so."""
    import papermill

    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        papermill.execute_notebook(
            stage / "input.ipynb",
            stage / "notebook.ipynb",
            parameters={**injected, "output_root": str(stage)},
            kernel_name="python3",
            cwd=str(notebooks_dir()),
            progress_bar=False,
            log_output=False,
            kernel_manager_class=_kernel_logging_to(stage / KERNEL_LOG, stage / READS_LOG),
            timeout_func=None if deadline is None else lambda cell: _time_left(deadline),
        )
        if deadline is not None and time.monotonic() > deadline:  # the last cell ended past the limit
            raise TimeoutError("the chapter's last cell ended after its time limit")
    except KeyboardInterrupt:
        # nbclient's cell task is left behind in papermill's event loop; when the kernel (in the same process
        # group, so also interrupted) dies, asyncio would log "Task exception was never retrieved" and a
        # DeadKernelError traceback at exit, after the runner's one line. The interrupt is reported; that task's
        # outcome is moot.
        logging.getLogger("asyncio").disabled = True
        raise
    except TimeoutError as exc:  # nbclient's CellTimeoutError; one before the deadline is another wait's
        if deadline is None or time.monotonic() < deadline:
            raise
        raise TimeoutError(f"the chapter ran longer than its time limit of {timeout:g} s (--timeout) and was "
                           "stopped") from exc


def _time_left(deadline: float) -> float:
    """The seconds a cell about to run may take (nbclient asks as it starts each cell): what is left of the chapter's
    limit, or a ``TimeoutError`` once none is (nbclient reads 0 as no limit, so a floor would let every quick cell
    run past the deadline)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("no time left for the next cell")
    return left


def _kernel_logging_to(path: Path, reads: Path | None = None) -> type:
    """A kernel manager class whose kernels write their own stdout and stderr (the kernel's log lines, a crash
    report; not the cells' output, which goes into the notebook) to ``path``: a kernel shut down by Ctrl-C or a
    timeout no longer prints a zmq traceback over the runner's report. Kernels talk over Unix sockets, not TCP
    ports (no two kernels can be given the same port). With ``reads``, the kernel lists there every file it opens
    under the data folders (:data:`_READ_TRACKER`), before the notebook's first cell."""
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class KernelManager(AsyncKernelManager):
        # Unix sockets with a name of their own: over TCP, kernels started at the same moment (two jobs, two test
        # workers) can be handed the same free port, and one dies at start-up; jupyter_client's default socket
        # name ("kernel-ipc" in the working folder) would be shared as well
        @default("transport")
        def _ipc(self):
            return "ipc"

        @default("ip")
        def _socket_name(self):
            import uuid

            from jupyter_core.paths import jupyter_runtime_dir

            os.makedirs(jupyter_runtime_dir(), exist_ok=True)
            return os.path.join(jupyter_runtime_dir(), f"kernel-{uuid.uuid4().hex[:12]}")

        async def start_kernel(self, **kw):
            if reads is not None:
                code = _READ_TRACKER.format(log=str(reads), folders=[str(f) for f in data_folders()])
                kw["extra_arguments"] = [*kw.get("extra_arguments", []),
                                         f"--IPKernelApp.exec_lines=exec({code!r}, {{}})"]
            with open(path, "ab") as log:
                await super().start_kernel(**kw | {"stdout": log, "stderr": log})

    return KernelManager


def _finish_notebook(executed: Path, chapter: str) -> None:
    """The executed notebook as the book shows it: no path of this machine, the code hidden unless the chapter
    shows it, and the sections tagged ``details`` moved to the chapter's details page, ``<chapter>/details.ipynb``
    beside its artefacts (:func:`analysis.notebooks.split_details`; published with them)."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    problems = glue_problems(nb)
    if problems:  # the book's build would fail on it, far from the chapter that caused it
        raise ValueError(f"{chapter}'s page text does not match its glued values: " + "; ".join(problems))
    scrub_machine_paths(nb, chapter)
    if not _shows_code(chapter):
        hide_code(nb)
    story, details = split_details(nb, story=f"../notebooks/{chapter}", details=f"../{chapter}/{DETAILS_PAGE}")
    nbformat.write(story, executed)
    if details is not None:
        (executed.parent / chapter).mkdir(exist_ok=True)
        nbformat.write(details, executed.parent / chapter / f"{DETAILS_PAGE}.ipynb")


def _shows_code(chapter: str) -> bool:
    """Whether the chapter's page shows its code (its module sets ``SHOW_CODE = True``: where copying the code is
    the point); every other chapter's code is hidden behind a toggle."""
    from .profiles import chapter_modules

    return any(getattr(m, "CHAPTER", None) == chapter and getattr(m, "SHOW_CODE", False) for m in chapter_modules())


def _keep_failed(root: Path, chapter: str, stage: Path, show_log: bool) -> str:
    """Move a failed run's executed notebook, and its kernel's log, to ``failed/``; the note for the error message
    (empty if there is nothing to keep; the log is named when ``show_log``, for a failure outside the notebook)."""
    executed, log = stage / "notebook.ipynb", stage / KERNEL_LOG
    kept = {name: path for name, path in ((f"{chapter}.ipynb", executed), (f"{chapter}.kernel.log", log))
            if path.is_file() and path.stat().st_size}
    if f"{chapter}.ipynb" in kept:
        try:
            import nbformat

            nb = nbformat.read(executed, as_version=4)
            scrub_machine_paths(nb, chapter)
            nbformat.write(nb, executed)
        except Exception:  # a notebook papermill could not finish writing is kept as it is
            pass
    try:
        (root / "failed").mkdir(parents=True, exist_ok=True)
        for name, path in kept.items():
            os.replace(path, root / "failed" / name)
    except OSError as exc:
        return f"\n(its executed notebook could not be kept in failed/: {error_summary(exc)})"
    notes = [f"the executed notebook, with the full traceback: failed/{chapter}.ipynb"] \
        if f"{chapter}.ipynb" in kept else []
    if show_log and f"{chapter}.kernel.log" in kept:
        notes.append(f"the kernel's log: failed/{chapter}.kernel.log")
    return f"\n({'; '.join(notes)})" if notes else ""
