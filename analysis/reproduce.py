"""The batch runner behind ``make reproduce`` and ``python -m analysis reproduce``.

Each chapter is a Jupytext percent-format notebook ``notebooks/<chapter>.py``. The runner converts it to ``.ipynb``
and executes it with papermill under a profile (:mod:`analysis.profiles`) in a staging folder, and swaps its
outputs into ``<root>`` (``book/_generated`` unless ``output_root`` says otherwise) all at once when it succeeds
(:mod:`analysis.journal`); the manifest records every run (:mod:`analysis.manifest`), and
:mod:`analysis.output_checks` checks the outputs against it.

Before anything changes, a run checks that it can work in ``<root>`` (the runner's own files are of the right
kind, the folders writable), restores a missing or damaged manifest from its backup, and completes or undoes any
publication a killed run left. A profile that sets a parameter a notebook does not declare is refused before any
chapter runs. A chapter that fails, or runs longer than ``timeout``, keeps its last good outputs; its executed
notebook goes to ``<root>/failed/`` and the manifest records the failure next to the outputs that are still there.
Ctrl-C stops the run (in every worker with ``jobs`` > 1) with the outputs as they were; the kernels' own messages
go to a log in the staging folder (kept in ``failed/`` with a failed notebook), never over the runner's report.

A chapter that is up to date is skipped (:func:`stale_reasons`): each good run records in its manifest entry
(``inputs``) what its outputs were made from -- the notebook's sha256, the profile's parameters for it, the data
tables and files its kernel opened (:data:`_READ_TRACKER`), the ``analysis`` modules the notebook imports,
followed through the package (:func:`analysis.notebooks.analysis_modules`), and the lock file -- and a later run
compares them, and the outputs on disk, with what is there now. ``only`` and ``force`` run chapters regardless.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import os
import signal
import sys
import time
import traceback
from concurrent.futures import as_completed
from dataclasses import asdict
from pathlib import Path

from . import __version__
from .files import probe_writable, remove_stale_partials, sha256_file
from .journal import check_staging, discard_stage, new_stage, publish, recover_staging
from .manifest import (
    ChapterRun,
    OutputRootError,
    chapter_files,
    check_manifest_paths,
    error_summary,
    files_under,
    manifest_lock,
    mark_finished,
    mark_started,
    read_manifest,
    recover_manifest,
    refresh_build_record,
    unfinished,
    update_manifest,
)
from .notebooks import (
    DETAILS_PAGE,
    _parameters_source,
    analysis_modules,
    glue_problems,
    hide_code,
    notebook_parameters,
    package_home,
    scrub_machine_paths,
    split_details,
)
from .paths import generated_dir, notebooks_dir, repo_root
from .processes import process_pool
from .profiles import PROFILES, check_profile_parameters, parameters_for

#: the kernel's own stdout and stderr, in the staging folder (``failed/<chapter>.kernel.log`` if the run fails)
KERNEL_LOG = "kernel.log"
#: the data files the chapter's kernel opened, one path a line, in the staging folder
READS_LOG = "reads.log"


def discover(only: list[str] | None = None) -> list[str]:
    """Chapter names (notebook stems) in order; ``only`` selects by full name, number prefix or name suffix."""
    chapters = sorted(p.stem for p in notebooks_dir().glob("[0-9][0-9]_*.py"))
    if not only:
        return chapters
    picked = []
    for want in only:
        hits = [c for c in chapters if c == want or c.split("_", 1)[0] == want or c.split("_", 1)[1] == want]
        if not hits:
            raise ValueError(f"no chapter matches {want!r}; chapters: {chapters}")
        picked.extend(h for h in hits if h not in picked)
    return picked


def run(
    profile: str = "full",
    only: list[str] | None = None,
    jobs: int = 1,
    output_root: str | None = None,
    stream=sys.stderr,
    timeout: float | None = None,
    force: bool = False,
) -> list[ChapterRun]:
    """Run the selected chapters (in parallel with ``jobs`` > 1), print progress; each chapter updates the manifest
    as it finishes. Without ``only`` or ``force``, a chapter that is up to date (:func:`stale_reasons`: its outputs
    as recorded, and its notebook, the profile's parameters, the data it read, the ``analysis`` modules it imports
    and the lock file unchanged since the run that made them) is skipped, with one line saying what was compared;
    the chapters named in ``only`` run regardless. Returns the runs made. ``timeout``: seconds a chapter's cells
    may run in all (wall clock) before the chapter is stopped and recorded as failed; None (the default) sets no
    limit, because the full profile's chapters run from minutes to hours depending on the machine, and a limit that
    stops a sound run loses that work. Bad arguments are a ``ValueError``; an output root the runner cannot work in,
    an :class:`~analysis.manifest.OutputRootError`, raised before anything changes."""
    _check_arguments(profile, jobs, timeout)
    chapters = discover(only)
    _check_profile(profile, chapters)
    root = _prepare_root(output_root)
    with manifest_lock(root):
        recover_manifest(root, stream)  # a ManifestError (a ValueError) refuses the run
        recover_staging(root, stream)
    remove_stale_partials(root)
    _report_orphans(root, discover(), stream)
    selected = len(chapters)
    if not only and not force:
        chapters = _skip_up_to_date(chapters, profile, root, stream)
    skipped = f" to run ({selected - len(chapters)} up to date)" if len(chapters) < selected else ""
    print(f"reproduce: {len(chapters)} chapter(s){skipped}, profile {profile!r}, {jobs} job(s)"
          + (f", at most {timeout:g} s each" if timeout else ""), file=stream, flush=True)
    if not chapters:
        runs = []
    elif jobs == 1 or len(chapters) == 1:
        runs = _run_one_by_one(chapters, profile, root, timeout, _Progress(len(chapters), stream))
    else:
        runs = _run_in_parallel(chapters, profile, root, timeout, jobs, _Progress(len(chapters), stream))
    with manifest_lock(root):
        refresh_build_record(root)  # an OutputRootError if the book's record of the runs cannot be written
    runs.sort(key=lambda r: chapters.index(r.chapter))
    print(f"manifest: {root / 'manifest.json'}", file=stream, flush=True)
    return runs


def _check_arguments(profile: str, jobs: int, timeout: float | None) -> None:
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {sorted(PROFILES)}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not math.isfinite(timeout) or timeout <= 0):
        raise ValueError(f"timeout must be a number of seconds > 0, got {timeout!r}")


def _check_profile(profile: str, chapters: list[str]) -> None:
    """Refuse, before any chapter runs, a profile that sets a parameter a chapter's notebook does not declare (a
    typo would otherwise run the whole chapter with the notebook's default). A notebook that is missing or has no
    parameters cell is left to fail as its chapter's run."""
    import jupytext

    for chapter in chapters:
        source = notebooks_dir() / f"{chapter}.py"
        injected = parameters_for(profile, chapter)
        if injected and source.is_file():
            check_profile_parameters(profile, chapter, jupytext.read(source))


def _prepare_root(output_root: str | None) -> Path:
    """The output root, created if need be and checked before anything changes: a ``ValueError`` when it cannot
    be a folder, an :class:`~analysis.manifest.OutputRootError` when the runner cannot work in it."""
    root = Path(output_root) if output_root else generated_dir()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot use the output root {root}: {error_summary(exc)}") from None
    if not root.is_dir():
        raise ValueError(f"cannot use the output root {root}: it is not a folder")
    check_manifest_paths(root)
    try:
        probe_writable(root)
    except OSError as exc:
        raise OutputRootError(f"cannot write in the output root {root}: {exc.strerror or exc}") from None
    check_staging(root)
    return root


def _report_orphans(root: Path, chapters: list[str], stream) -> None:
    """Say which recorded chapters have no notebook; their outputs are kept (only ``outputs prune`` removes them)."""
    for chapter in sorted(set(read_manifest(root)) - set(chapters)):
        print(f"        {chapter}: recorded, but notebooks/{chapter}.py does not exist; its outputs are kept "
              "(`python -m analysis outputs prune` removes them)", file=stream, flush=True)


# --- what a chapter's outputs were made from, and whether that has changed ---------------------------------------

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


def _table_checksum(name: str) -> str | None:
    """The sha256 a prepared table's sidecar (``data/processed/<name>.json``) records for it: the table's identity,
    checked by :func:`analysis.data.load_table` on every read; None when there is none."""
    try:
        digest = json.loads((repo_root() / "data" / "processed" / f"{name}.json").read_text()).get("sha256")
    except (OSError, ValueError, AttributeError):
        return None
    return digest if isinstance(digest, str) else None


def _file_checksum(path: Path) -> str | None:
    """A data file's sha256: the one recorded beside it (``<file>.sha256``, as metric-cache entries have) if any,
    else its own; None when it is gone."""
    try:
        recorded = path.with_name(path.name + ".sha256")
        if recorded.is_file():
            return recorded.read_text().split()[0]
        return sha256_file(path)
    except (OSError, IndexError):
        return None


def data_checksums(paths: list[Path]) -> dict[str, dict[str, str]]:
    """``{"tables": {table: sha256}, "files": {path from the repository: sha256}}`` of the data files a run read: a
    prepared table (``data/processed/<name>.parquet`` or its ``.json`` sidecar) by the checksum its sidecar records,
    any other file by :func:`_file_checksum` (a ``.sha256`` record by the file it records)."""
    home = repo_root()
    processed = {home / "data" / "processed", (home / "data" / "processed").resolve()}
    tables, files = {}, {}
    for path in paths:
        if path.parent in processed and path.suffix in (".parquet", ".json"):
            digest = _table_checksum(path.stem)
            if digest is not None:
                tables[path.stem] = digest
                continue
        if path.suffix == ".sha256" and path.with_suffix("").is_file():
            path = path.with_suffix("")
        digest = _file_checksum(path)
        if digest is not None:
            base = next((b for b in (home, home.resolve()) if path.is_relative_to(b)), None)
            files[path.relative_to(base).as_posix() if base else str(path)] = digest
    return {"tables": dict(sorted(tables.items())), "files": dict(sorted(files.items()))}


def _lock_checksum() -> str | None:
    lock = repo_root() / "requirements.lock"
    return sha256_file(lock) if lock.is_file() else None


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def stale_reasons(root: Path, chapter: str, profile: str, entry: dict | None) -> list[str]:
    """Why ``chapter``'s outputs in ``root`` are not what a run under ``profile`` would make now (empty: up to
    date). Its manifest ``entry`` must be a good run, not followed by a failed or unfinished one, and what it records
    must still hold: the profile and its parameters for the chapter, the notebook's sha256, every ``analysis`` module
    it imported (:func:`analysis.notebooks.analysis_modules`), every data table and file it read, the lock file,
    and its outputs on disk."""
    if entry is None:
        return ["never run"]
    if entry.get("status") != "ok":
        return ["its only recorded run failed"]
    reasons = []
    if entry.get("last_failure"):
        reasons.append("its last run failed")
    if unfinished(root, chapter):
        reasons.append("its last run was stopped before it finished")
    inputs = entry.get("inputs")
    if not isinstance(inputs, dict) or "notebook" not in inputs:
        return reasons + ["its inputs were not recorded (a run by an older runner)"]
    if entry.get("profile") != profile:
        reasons.append(f"profile {profile} ≠ {entry.get('profile')}")
    elif not _same(inputs.get("profile_parameters"), parameters_for(profile, chapter)):
        reasons.append(f"profile {profile}'s parameters changed")
    source = notebooks_dir() / f"{chapter}.py"
    if not source.is_file():
        reasons.append(f"notebook notebooks/{chapter}.py is gone")
    elif sha256_file(source) != inputs["notebook"]:
        reasons.append("notebook changed")
    home = package_home()
    reasons += _changed([path for path, digest in (inputs.get("modules") or {}).items()
                         if not (home / path).is_file() or sha256_file(home / path) != digest], "", "analysis modules")
    data = inputs.get("data") or {}
    reasons += _changed([name for name, digest in (data.get("tables") or {}).items()
                         if _table_checksum(name) != digest], "data table ", "data tables")
    reasons += _changed([path for path, digest in (data.get("files") or {}).items()
                         if _file_checksum(repo_root() / path) != digest], "data file ", "data files")
    if inputs.get("lock") != _lock_checksum():
        reasons.append("lock file changed")
    recorded, on_disk = entry.get("outputs") or {}, chapter_files(root, chapter)
    differ = sorted(set(recorded) ^ set(on_disk)) + sorted(f for f in set(recorded) & set(on_disk)
                                                           if recorded[f] != on_disk[f])
    if differ:
        reasons.append(f"outputs not as recorded ({differ[0]}" + (f" and {len(differ) - 1} more" if differ[1:] else "")
                       + ")")
    return reasons


def _changed(names: list[str], kind: str, plural: str, shown: int = 3) -> list[str]:
    """One reason per changed input, or, past ``shown`` of them, one line naming the first few and counting the
    rest ("analysis/bt.py, ... and 12 more analysis modules changed")."""
    if len(names) <= shown:
        return [f"{kind}{name} changed" for name in names]
    return [f"{kind}{', '.join(names[:shown])} and {len(names) - shown} more {plural} changed"]


def compared(entry: dict) -> str:
    """What :func:`stale_reasons` compared for an up-to-date chapter, in words."""
    inputs = entry.get("inputs") or {}
    data = inputs.get("data") or {}
    tables, files = len(data.get("tables") or {}), len(data.get("files") or {})
    return (f"notebook, profile {entry.get('profile')}'s parameters, {tables} data table(s)"
            + (f" and {files} data file(s)" if files else "") + f", {len(inputs.get('modules') or {})} analysis "
            f"module(s), lock file and {len(entry.get('outputs') or {})} output(s) unchanged")


def chapter_states(root: Path, chapters: list[str], profile: str) -> dict[str, list[str]]:
    """{chapter: :func:`stale_reasons`} for ``chapters`` against the manifest in ``root``."""
    entries = read_manifest(root)
    return {chapter: stale_reasons(root, chapter, profile, entries.get(chapter)) for chapter in chapters}


def _skip_up_to_date(chapters: list[str], profile: str, root: Path, stream) -> list[str]:
    """The chapters that need a run; one line for each one skipped, naming what was compared."""
    entries = read_manifest(root)
    stale = []
    for chapter in chapters:
        if stale_reasons(root, chapter, profile, entries.get(chapter)):
            stale.append(chapter)
        else:
            print(f"        {chapter}: up to date, skipped ({compared(entries[chapter])}; --force reruns it)",
                  file=stream, flush=True)
    return stale


class _Progress:
    """Prints one line per finished chapter (and its error's first two lines) and collects the runs."""

    def __init__(self, total: int, stream):
        self.total, self.stream, self.runs = total, stream, []

    def __call__(self, result: ChapterRun) -> None:
        self.runs.append(result)
        mark = "ok    " if result.status == "ok" else "FAILED"
        print(f"[{len(self.runs)}/{self.total}] {mark} {result.chapter} ({result.duration_s:.1f} s)",
              file=self.stream, flush=True)
        for line in (result.error or "").splitlines()[:2]:
            print(f"        {line}", file=self.stream, flush=True)


def _run_one_by_one(chapters, profile, root: Path, timeout, report: _Progress) -> list[ChapterRun]:
    for chapter in chapters:
        print(f"        running {chapter} ...", file=report.stream, flush=True)
        try:
            report(run_chapter(chapter, profile, str(root), timeout))
        except Exception as exc:  # a bug in the runner itself: still isolate the chapter
            report(_crashed(chapter, profile, exc))
    return report.runs


def _run_in_parallel(chapters, profile, root: Path, timeout, jobs: int, report: _Progress) -> list[ChapterRun]:
    """Each chapter in a worker process. The workers ignore Ctrl-C; on it, the parent stops them
    (:func:`_stop_workers`) and the interrupt propagates."""
    with process_pool(jobs, ignore_interrupts=True) as pool:
        try:
            futures = {pool.submit(_run_in_worker, c, profile, str(root), timeout): c for c in chapters}
            for future in as_completed(futures):
                try:
                    report(future.result())
                except Exception as exc:
                    report(_crashed(futures[future], profile, exc))
        except KeyboardInterrupt:
            _stop_workers(pool)
            raise
    return report.runs


def _run_in_worker(chapter: str, profile: str, root: str, timeout: float | None) -> ChapterRun:
    """:func:`run_chapter` in a pool worker: SIGTERM from the parent interrupts the chapter as Ctrl-C does in a
    single process (its outputs stay as they were), and the worker then exits rather than start another chapter."""
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return run_chapter(chapter, profile, root, timeout)
    except KeyboardInterrupt:
        os._exit(130)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _stop_workers(pool, wait: float = 60.0) -> None:
    """Cancel the chapters not started and stop the running ones (SIGTERM, see :func:`_run_in_worker`), waiting up
    to ``wait`` seconds for them to put the outputs back; a worker still running then dies with this process."""
    pool.shutdown(wait=False, cancel_futures=True)
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + wait
    for worker in workers:
        worker.join(max(deadline - time.monotonic(), 0))


def run_chapter(chapter: str, profile: str, output_root: str | None = None,
                timeout: float | None = None) -> ChapterRun:
    """Convert, parameterise and execute one chapter in a staging folder, then publish it (see the module's
    docstring). Never raises for a notebook error, a timeout or an error in publishing (it is reported); an
    interrupt (Ctrl-C) leaves the outputs as they were and propagates."""
    import jupytext
    import nbformat

    root = Path(output_root) if output_root else generated_dir()
    source = notebooks_dir() / f"{chapter}.py"
    start = time.perf_counter()
    params = injected = parameters_for(profile, chapter)
    stage = new_stage(root, chapter)
    try:
        if not source.is_file():
            raise FileNotFoundError(f"notebooks/{source.name} does not exist (renamed or removed?)")
        mark_started(root, chapter, profile)  # a run stopped or killed from here on leaves the chapter stale
        inputs = {"notebook": sha256_file(source)}
        nb = jupytext.read(source)
        has_tag = _parameters_source(nb) is not None
        params = {**notebook_parameters(nb), **injected}
        if not has_tag:
            raise ValueError(f"{source.name} has no cell tagged 'parameters' (# %% tags=[\"parameters\"])")
        if "output_root" not in params:
            raise ValueError(f"{source.name}'s parameters cell does not declare output_root")
        check_profile_parameters(profile, chapter, nb)
        inputs |= {"profile_parameters": injected, "lock": _lock_checksum(),
                   "modules": analysis_modules([c.source for c in nb.cells if c.cell_type == "code"])}
        nbformat.write(nb, stage / "input.ipynb")
        _execute(stage, injected, timeout)
        _finish_notebook(stage / "notebook.ipynb", chapter)
        (stage / chapter).mkdir(exist_ok=True)
        inputs["data"] = data_checksums(_read_files(stage))
        run = _record(stage, chapter, profile, params, start, inputs)
        with manifest_lock(root):
            publish(root, chapter, stage, asdict(run))
        mark_finished(root, chapter)
        return run
    except Exception as exc:  # papermill raises PapermillExecutionError carrying the cell's exception
        error = error_summary(exc) + _keep_failed(root, chapter, stage, show_log=not getattr(exc, "ename", None))
        run = ChapterRun(chapter, profile, "failed", params, params.get("seed"),
                         round(time.perf_counter() - start, 2), __version__, error=error[:4000])
        with manifest_lock(root):
            update_manifest(root, run)
        mark_finished(root, chapter)
        return run
    finally:
        discard_stage(stage)  # unless a publication is under way: then it holds the last good outputs


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


def _record(stage: Path, chapter: str, profile: str, params: dict, start: float, inputs: dict) -> ChapterRun:
    """The manifest entry of a successful run, from its staged files under the names they get in the book."""
    data = {}
    provenance = stage / chapter / "provenance.json"
    if provenance.exists():
        for record in json.loads(provenance.read_text())["artefacts"].values():
            data.update(record.get("data", {}))
    outputs = files_under(stage / chapter, chapter)
    outputs[f"notebooks/{chapter}.ipynb"] = sha256_file(stage / "notebook.ipynb")
    return ChapterRun(chapter=chapter, profile=profile, status="ok", parameters=params, seed=params.get("seed"),
                      duration_s=round(time.perf_counter() - start, 2), analysis_version=__version__, data=data,
                      outputs=outputs, inputs=inputs)


def _crashed(chapter: str, profile: str, exc: BaseException) -> ChapterRun:
    """The record of a chapter the runner itself failed on: the error in one line, then the traceback."""
    return ChapterRun(chapter, profile, "failed", {}, None, 0.0, __version__,
                      error=f"runner error: {error_summary(exc)}\n{traceback.format_exc()[-3000:]}")
