"""The batch runner behind ``make reproduce`` and ``python -m analysis reproduce``.

Each chapter is a Jupytext percent-format notebook ``notebooks/<chapter>.py``. The runner converts it to ``.ipynb``
and executes it with papermill under a profile (:mod:`analysis.profiles`).

A chapter's outputs change all at once or not at all. Each run writes into its own staging folder
(``<root>/.staging/<chapter>.<pid>.<random>/``, handed to the notebook as its ``output_root`` parameter); only
when the notebook succeeds are its artefacts (``<root>/<chapter>/``) and executed notebook
(``<root>/notebooks/<chapter>.ipynb``) swapped in, and the manifest (``<root>/manifest.json``) updated to the
checksums now on disk. A failing chapter keeps its last good outputs; its executed notebook goes to
``<root>/failed/`` and the manifest records the failure next to the outputs that are still there. An interrupted
run leaves only its staging folder, removed by the next run. :func:`verify_outputs` checks the book's files
against the manifest. ``<root>`` is ``book/_generated`` unless ``output_root`` says otherwise.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from concurrent.futures import as_completed
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .files import atomic_write, pid_alive, remove_stale_partials, sha256_file
from .notebooks import _parameters_source, notebook_parameters
from .paths import generated_dir, notebooks_dir
from .processes import process_pool
from .profiles import PROFILES, parameters_for


@dataclass
class ChapterRun:
    chapter: str
    profile: str
    status: str  # "ok" or "failed"
    parameters: dict
    seed: int | None
    duration_s: float
    analysis_version: str
    data: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    error: str | None = None


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


STAGING = ".staging"


def _error_summary(exc: BaseException) -> str:
    """One line naming the exception raised in the notebook and its message (papermill's own message starts with
    a rule of dashes and the cell's source)."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename:
        cell = getattr(exc, "exec_count", None)
        return f"{ename}: {evalue}" + (f" (in cell [{cell}])" if cell else "")
    return f"{type(exc).__name__}: {exc}".strip()


def _remove_stale_staging(root: Path) -> None:
    staging = root / STAGING
    if not staging.is_dir():
        return
    for folder in staging.iterdir():
        parts = folder.name.split(".")  # <chapter>.<pid>.<random>
        pid = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None
        if pid is None or not pid_alive(pid):
            shutil.rmtree(folder, ignore_errors=True)


def _publish(root: Path, chapter: str, stage: Path) -> None:
    """Swap the staged artefacts and notebook in for the chapter's current ones."""
    final = root / chapter
    artefacts = stage / chapter
    artefacts.mkdir(exist_ok=True)  # a chapter that saved nothing still replaces the old artefacts
    old = stage / "previous"
    if final.exists():
        os.rename(final, old)
    os.rename(artefacts, final)
    (root / "notebooks").mkdir(exist_ok=True)
    os.replace(stage / "notebook.ipynb", root / "notebooks" / f"{chapter}.ipynb")
    (root / "failed" / f"{chapter}.ipynb").unlink(missing_ok=True)


def run_chapter(chapter: str, profile: str, output_root: str | None = None) -> ChapterRun:
    """Convert, parameterise and execute one chapter in a staging folder, then publish it (see the module's
    docstring). Never raises for a notebook error (it is reported); an interrupt (Ctrl-C) leaves the outputs as
    they were and propagates."""
    import jupytext
    import nbformat
    import papermill

    root = Path(output_root) if output_root else generated_dir()
    source = notebooks_dir() / f"{chapter}.py"
    injected = parameters_for(profile, chapter)
    start = time.perf_counter()
    nb = jupytext.read(source)
    has_tag = _parameters_source(nb) is not None
    params = {**notebook_parameters(nb), **injected}
    (root / STAGING).mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=root / STAGING, prefix=f"{chapter}.{os.getpid()}."))
    executed_path = stage / "notebook.ipynb"
    try:
        if not has_tag:
            raise ValueError(f"{source.name} has no cell tagged 'parameters' (# %% tags=[\"parameters\"])")
        if "output_root" not in params:
            raise ValueError(f"{source.name}'s parameters cell does not declare output_root")
        nbformat.write(nb, stage / "input.ipynb")
        papermill.execute_notebook(
            stage / "input.ipynb",
            executed_path,
            parameters={**injected, "output_root": str(stage)},  # the notebook writes into the stage
            kernel_name="python3",
            cwd=str(notebooks_dir()),
            progress_bar=False,
            log_output=False,
        )
        executed = nbformat.read(executed_path, as_version=4)
        _scrub_machine_paths(executed, chapter, stage)
        nbformat.write(executed, executed_path)
        with _manifest_lock(root):
            _publish(root, chapter, stage)
            run = _record(root, chapter, profile, params, start)
            _update_manifest(root, run)
        return run
    except Exception as exc:  # papermill raises PapermillExecutionError carrying the cell's exception
        error = _error_summary(exc)
        if executed_path.exists() and executed_path.stat().st_size:
            (root / "failed").mkdir(parents=True, exist_ok=True)
            os.replace(executed_path, root / "failed" / f"{chapter}.ipynb")
            error += f"\n(the executed notebook, with the full traceback: failed/{chapter}.ipynb)"
        run = ChapterRun(chapter, profile, "failed", params, params.get("seed"),
                         round(time.perf_counter() - start, 2), __version__, error=error[:4000])
        with _manifest_lock(root):
            _update_manifest(root, run)
        return run
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _scrub_machine_paths(nb, chapter: str, stage: Path) -> None:
    """No path of this machine on the page: the staging folder handed in as ``output_root`` leaves the injected
    parameters cell (which keeps the profile's own parameters, or goes when there are none) and papermill's record
    names the repository's files, not the staging ones."""
    nb.metadata["papermill"]["input_path"] = f"notebooks/{chapter}.py"
    nb.metadata["papermill"]["output_path"] = f"book/_generated/notebooks/{chapter}.ipynb"
    nb.metadata["papermill"]["parameters"].pop("output_root", None)
    for cell in list(nb.cells):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            kept = [line for line in cell.source.splitlines() if not line.startswith("output_root = ")]
            if any(line.strip() and not line.startswith("#") for line in kept):
                cell.source = "\n".join(kept)
            else:
                nb.cells.remove(cell)


def _chapter_files(root: Path, chapter: str) -> dict[str, str]:
    """{path relative to root: sha256} of everything the chapter has on disk: its artefacts and notebook."""
    files = {f"{chapter}/{p.relative_to(root / chapter).as_posix()}": sha256_file(p)
             for p in sorted((root / chapter).rglob("*")) if p.is_file()}
    notebook = root / "notebooks" / f"{chapter}.ipynb"
    if notebook.is_file():
        files[f"notebooks/{chapter}.ipynb"] = sha256_file(notebook)
    return files


def _record(root: Path, chapter: str, profile: str, params: dict, start: float) -> ChapterRun:
    data = {}
    provenance = root / chapter / "provenance.json"
    if provenance.exists():
        for record in json.loads(provenance.read_text())["artefacts"].values():
            data.update(record.get("data", {}))
    return ChapterRun(chapter=chapter, profile=profile, status="ok", parameters=params, seed=params.get("seed"),
                      duration_s=round(time.perf_counter() - start, 2), analysis_version=__version__, data=data,
                      outputs=_chapter_files(root, chapter))


@contextmanager
def _manifest_lock(root: Path):
    """Serialise publishing and manifest updates of chapters running in parallel processes."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".manifest.lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_manifest(root: str | os.PathLike | None = None) -> dict[str, dict]:
    """{chapter: entry} of ``manifest.json`` (empty when there is none or it is unreadable)."""
    path = (Path(root) if root else generated_dir()) / "manifest.json"
    try:
        return {r["chapter"]: r for r in json.loads(path.read_text())["chapters"]}
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        return {}


def _write_manifest(root: Path, entries: dict[str, dict]) -> Path:
    path = root / "manifest.json"
    payload = {"analysis_version": __version__, "chapters": [entries[k] for k in sorted(entries)]}
    text = json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))
    return path


def _update_manifest(root: Path, run: ChapterRun) -> None:
    """Record ``run``. A failed run does not replace the record of the outputs still on disk: it is added to it
    as ``last_failure``."""
    entries = read_manifest(root)
    previous = entries.get(run.chapter)
    if run.status == "ok":
        entries[run.chapter] = asdict(run)
    elif previous and previous.get("status") == "ok":
        previous["last_failure"] = {"profile": run.profile, "parameters": run.parameters, "error": run.error}
    else:
        entries[run.chapter] = asdict(run)
    _write_manifest(root, entries)


def _remove_stale_chapters(root: Path, chapters: list[str], stream) -> None:
    """Forget chapters that no longer exist: their manifest entries, artefacts and notebooks."""
    with _manifest_lock(root):
        entries = read_manifest(root)
        stale = sorted(set(entries) - set(chapters))
        for chapter in stale:
            shutil.rmtree(root / chapter, ignore_errors=True)
            for folder in ("notebooks", "failed"):
                (root / folder / f"{chapter}.ipynb").unlink(missing_ok=True)
            del entries[chapter]
            print(f"        removed the outputs of {chapter}, which is no longer a chapter", file=stream, flush=True)
        if stale:
            _write_manifest(root, entries)


def verify_outputs(root: str | os.PathLike | None = None) -> dict[str, list[str]]:
    """Check the generated files against the manifest: {chapter: [problems]} (an empty list: as recorded).
    A problem is a recorded file that is missing or changed, a file not recorded, or a notebook in
    ``notebooks/`` that no manifest entry accounts for."""
    root = Path(root) if root else generated_dir()
    entries = read_manifest(root)
    report = {}
    for chapter, entry in sorted(entries.items()):
        recorded = entry.get("outputs", {})
        on_disk = _chapter_files(root, chapter)
        problems = [f"missing: {f}" for f in sorted(set(recorded) - set(on_disk))]
        problems += [f"changed: {f}" for f in sorted(set(recorded) & set(on_disk)) if recorded[f] != on_disk[f]]
        problems += [f"not recorded: {f}" for f in sorted(set(on_disk) - set(recorded))]
        report[chapter] = problems
    for notebook in sorted((root / "notebooks").glob("*.ipynb")) if (root / "notebooks").is_dir() else []:
        if notebook.stem not in entries:
            report[notebook.stem] = [f"not recorded: notebooks/{notebook.name}"]
    return report


def run(
    profile: str = "full",
    only: list[str] | None = None,
    jobs: int = 1,
    output_root: str | None = None,
    stream=sys.stderr,
) -> list[ChapterRun]:
    """Run the selected chapters (in parallel with ``jobs`` > 1), print progress; each chapter updates the manifest
    as it finishes."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {sorted(PROFILES)}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    chapters = discover(only)
    root = Path(output_root) if output_root else generated_dir()
    root.mkdir(parents=True, exist_ok=True)
    _remove_stale_staging(root)
    remove_stale_partials(root)
    _remove_stale_chapters(root, discover(), stream)
    total = len(chapters)
    print(f"reproduce: {total} chapter(s), profile {profile!r}, {jobs} job(s)", file=stream, flush=True)
    runs: list[ChapterRun] = []

    def report(result: ChapterRun) -> None:
        runs.append(result)
        mark = "ok    " if result.status == "ok" else "FAILED"
        print(f"[{len(runs)}/{total}] {mark} {result.chapter} ({result.duration_s:.1f} s)", file=stream, flush=True)
        if result.error:
            for line in result.error.splitlines()[:2]:
                print(f"        {line}", file=stream, flush=True)

    if jobs == 1 or total == 1:
        for chapter in chapters:
            print(f"        running {chapter} ...", file=stream, flush=True)
            try:
                report(run_chapter(chapter, profile, str(root)))
            except Exception:  # a bug in the runner itself: still isolate the chapter
                report(_crashed(chapter, profile))
    else:
        with process_pool(jobs) as pool:
            futures = {pool.submit(run_chapter, c, profile, str(root)): c for c in chapters}
            for future in as_completed(futures):
                try:
                    report(future.result())
                except Exception:
                    report(_crashed(futures[future], profile))
    runs.sort(key=lambda r: chapters.index(r.chapter))
    print(f"manifest: {root / 'manifest.json'}", file=stream, flush=True)
    return runs


def _crashed(chapter: str, profile: str) -> ChapterRun:
    return ChapterRun(chapter, profile, "failed", {}, None, 0.0, __version__, error=traceback.format_exc()[-4000:])
