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

A chapter that is up to date is skipped (:func:`analysis.uptodate.stale_reasons`): each good run records in its
manifest entry (``inputs``) what its outputs were made from -- the notebook's sha256, the profile's parameters for it,
the data tables and files its kernel opened (:data:`analysis.execution._READ_TRACKER`), the ``analysis`` modules the
notebook imports, followed through the package (:func:`analysis.notebooks.analysis_modules`), and the lock file --
and a later run compares them, and the outputs on disk, with what is there now. ``only`` and ``force`` run chapters
regardless.

This module discovers the chapters, checks before any work, runs them one by one or in worker processes and reports
their progress; :mod:`analysis.execution` executes one chapter's notebook (the kernel, the time limit, the page made
of the executed notebook) and :mod:`analysis.uptodate` decides whether a chapter is up to date.
"""

from __future__ import annotations

import json
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
from .execution import _execute, _finish_notebook, _keep_failed, _read_files
from .files import probe_writable, remove_stale_partials, sha256_file
from .journal import check_staging, discard_stage, new_stage, publish, recover_staging
from .manifest import (
    ChapterRun,
    OutputRootError,
    check_manifest_paths,
    error_summary,
    files_under,
    manifest_lock,
    mark_finished,
    mark_started,
    read_manifest,
    recover_manifest,
    refresh_build_record,
    update_manifest,
)
from .notebooks import _parameters_source, analysis_modules, notebook_parameters
from .paths import generated_dir, notebooks_dir
from .processes import process_pool
from .profiles import PROFILES, check_profile_parameters, parameters_for
from .uptodate import _lock_checksum, compared, data_checksums, stale_reasons


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
    as it finishes. Without ``only`` or ``force``, a chapter that is up to date
    (:func:`~analysis.uptodate.stale_reasons`: its outputs as recorded, and its notebook, the profile's parameters,
    the data it read, the ``analysis`` modules it imports and the lock file unchanged since the run that made them)
    is skipped, with one line saying what was compared; the chapters named in ``only`` run regardless. Returns the
    runs made. ``timeout``: seconds a chapter's cells may run in all (wall clock) before the chapter is stopped and
    recorded as failed; None (the default) sets no limit, because the full profile's chapters run from minutes to
    hours depending on the machine, and a limit that stops a sound run loses that work. Bad arguments are a
    ``ValueError``; an output root the runner cannot work in, an :class:`~analysis.manifest.OutputRootError`, raised
    before anything changes."""
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
