"""The batch runner behind ``make reproduce`` and ``python -m analysis reproduce``.

Each chapter is a Jupytext percent-format notebook ``notebooks/<chapter>.py``. The runner converts it to ``.ipynb``
and executes it with papermill under a profile (:mod:`analysis.profiles`).

A chapter's outputs change all at once or not at all. Each run writes into its own staging folder
(``<root>/.staging/<chapter>.<pid>.<random>/``, handed to the notebook as its ``output_root`` parameter); only
when the notebook succeeds are its artefacts (``<root>/<chapter>/``) and executed notebook
(``<root>/notebooks/<chapter>.ipynb``) swapped in, and the manifest (``<root>/manifest.json``) updated to the
checksums now on disk. A failing chapter keeps its last good outputs; its executed notebook goes to
``<root>/failed/`` and the manifest records the failure next to the outputs that are still there.

Publishing is journalled (:func:`_publish`): the staging folder's ``publish.json`` holds the new manifest entry
while the renames are under way, and the replaced outputs stay in the staging folder until the manifest records the
new ones. A run killed in between is completed (or, if that fails, undone) by the next run, before anything else
(:func:`_recover_staging`); staging folders without a journal never touched the book and are removed.

The manifest is written with a backup (``.manifest.backup.json``); a damaged manifest is restored from it by the
next run, which refuses to start when neither is readable rather than record a few chapters in place of all. No
chapter's outputs are deleted except by ``python -m analysis outputs prune`` (:func:`prune`): a chapter whose
notebook is missing (renamed, another branch) keeps them. :func:`verify_outputs` checks the book's files against
the manifest, and that every chapter has an entry. ``<root>`` is ``book/_generated`` unless ``output_root`` says
otherwise.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
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
from .notebooks import _parameters_source, hide_code, notebook_parameters
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


class ManifestError(ValueError):
    """``manifest.json`` cannot be read as the runner's record (not JSON, not the expected structure)."""


class PublishError(RuntimeError):
    """A chapter's new outputs could not be put in place; the last good ones are (back) in place."""


JOURNAL = "publish.json"


#: what a chapter's name looks like (a notebook stem): the only names the runner ever deletes folders by
CHAPTER_NAME = re.compile(r"^\d\d_[A-Za-z0-9_]+$")


def _stage_pid(folder: Path) -> int | None:
    parts = folder.name.rsplit(".", 2)  # <chapter>.<pid>.<random>
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else None


def _run_is_going(pid: int | None) -> bool:
    """Whether the run that made a staging folder still runs. This process has made none when it recovers (it
    recovers before it stages anything), so a folder with its pid is a previous run's that had the same pid (a
    container's PID 1 after a restart, a recycled pid)."""
    return pid is not None and pid != os.getpid() and pid_alive(pid)


def _read_journal(stage: Path) -> dict | None:
    """The staging folder's publishing journal, or None (never started publishing, or unreadable)."""
    try:
        journal = json.loads((stage / JOURNAL).read_text())
    except (OSError, ValueError):
        return None
    return journal if isinstance(journal, dict) and isinstance(journal.get("entry"), dict) else None


def _write_journal(stage: Path, chapter: str, step: str, entry: dict) -> None:
    text = json.dumps({"chapter": chapter, "step": step, "entry": entry}, indent=2, sort_keys=True, default=str)
    atomic_write(stage / JOURNAL, lambda tmp: Path(tmp).write_text(text + "\n"))


def _places(root: Path, chapter: str, stage: Path) -> dict[str, Path]:
    """Where publishing moves things: the new artefacts and notebook in the stage, their places in the book, and
    the stage's slots for the ones they replace."""
    return {"new": stage / chapter, "final": root / chapter, "old": stage / "previous",
            "nb_new": stage / "notebook.ipynb", "nb_final": root / "notebooks" / f"{chapter}.ipynb",
            "nb_old": stage / "previous.ipynb"}


def _check_publishable(root: Path, chapter: str) -> None:
    """Refuse, before anything moves, a book where the chapter's folder or the notebooks folder is not a folder."""
    for path in (root / chapter, root / "notebooks"):
        if path.exists() and not path.is_dir():
            raise PublishError(f"cannot publish {chapter}: {path} is not a folder (move it away and rerun)")
    nb = root / "notebooks" / f"{chapter}.ipynb"
    if nb.exists() and not nb.is_file():
        raise PublishError(f"cannot publish {chapter}: {nb} is not a file (move it away and rerun)")
    (root / "notebooks").mkdir(exist_ok=True)


def _roll_forward(root: Path, chapter: str, stage: Path, entry: dict) -> None:
    """Put the staged artefacts and notebook in place and record ``entry`` in the manifest. Every step is decided
    by what is where, so this completes a publication from any point at which it was interrupted."""
    at = _places(root, chapter, stage)
    if at["new"].exists():  # the artefacts are not in place yet
        if at["final"].exists() and not at["old"].exists():
            os.rename(at["final"], at["old"])
        os.rename(at["new"], at["final"])
    if at["nb_new"].exists():
        if at["nb_final"].exists() and not at["nb_old"].exists():
            os.rename(at["nb_final"], at["nb_old"])
        os.rename(at["nb_new"], at["nb_final"])
    entries = read_manifest(root)
    entries[chapter] = entry
    _write_manifest(root, entries)


def _roll_back(root: Path, chapter: str, stage: Path) -> None:
    """Undo an unrecorded publication from any point: the new notebook and artefacts go back into the stage and
    the replaced ones back into the book."""
    at = _places(root, chapter, stage)
    if not at["nb_new"].exists() and at["nb_final"].exists():
        os.rename(at["nb_final"], at["nb_new"])
    if at["nb_old"].exists():
        os.rename(at["nb_old"], at["nb_final"])
    if not at["new"].exists() and at["final"].exists():
        os.rename(at["final"], at["new"])
    if at["old"].exists():
        os.rename(at["old"], at["final"])


def _as_json(value):
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _committed(root: Path, chapter: str, entry: dict) -> bool:
    """Whether the manifest already records ``entry`` (the publication's point of no return)."""
    try:
        return _as_json(read_manifest(root).get(chapter)) == _as_json(entry)
    except ManifestError:
        return False


def _publish(root: Path, chapter: str, stage: Path, entry: dict) -> None:
    """Swap the staged artefacts and notebook in for the chapter's current ones and record ``entry`` (call under
    the manifest lock). The journal says the publication is under way; an error or an interrupt before the
    manifest records the entry puts the last good outputs back (and raises); a kill is recovered by the next run.
    The replaced outputs are deleted (with the stage, by the caller) only once the new ones are recorded."""
    _check_publishable(root, chapter)
    _places(root, chapter, stage)["new"].mkdir(exist_ok=True)  # a chapter that saved nothing still replaces the old
    _write_journal(stage, chapter, "publishing", entry)
    try:
        _roll_forward(root, chapter, stage, entry)
    except BaseException as exc:
        committed = _committed(root, chapter, entry)
        if not committed:
            _roll_back(root, chapter, stage)  # if this fails too, the journal stays for the next run
            (stage / JOURNAL).unlink()
        if not isinstance(exc, Exception):
            raise  # an interrupt: the book is as it was (or, once recorded, as recorded)
        if not committed:
            raise PublishError(f"cannot publish {chapter}: {_error_summary(exc)}; the last good outputs are kept") \
                from exc
    try:
        _write_journal(stage, chapter, "recorded", entry)
        (root / "failed" / f"{chapter}.ipynb").unlink(missing_ok=True)
    except OSError:
        pass  # recorded all the same: a journal still saying "publishing" is completed again (a no-op) next run


def _recover_staging(root: Path, stream) -> None:
    """Clear the staging folders of runs that are gone (call under the manifest lock). One killed while publishing
    (its journal says so) is completed from its journal, or undone if that fails; its folder, which holds the
    replaced outputs, is removed only then. Folders of runs still going are left alone."""
    staging = root / STAGING
    if not staging.is_dir():
        return
    for folder in sorted(staging.iterdir()):
        if _run_is_going(_stage_pid(folder)):
            continue
        journal = _read_journal(folder) if folder.is_dir() else None
        if journal and journal.get("step") == "publishing" and not _recover(root, folder, journal, stream):
            continue  # left as it is, with what it holds
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
        else:
            folder.unlink(missing_ok=True)


def _recover(root: Path, stage: Path, journal: dict, stream) -> bool:
    """Complete (or else undo) the publication a killed run left in ``stage``; whether the book is consistent."""
    chapter, entry = journal.get("chapter"), journal["entry"]
    if not isinstance(chapter, str) or not CHAPTER_NAME.match(chapter) or not stage.name.startswith(f"{chapter}."):
        print(f"        {stage.name}: its publishing journal names no chapter of this folder; left as it is",
              file=stream, flush=True)
        return False
    try:
        _roll_forward(root, chapter, stage, entry)
        print(f"        {chapter}: completed the publication of a run killed while publishing", file=stream,
              flush=True)
        return True
    except Exception as exc:
        if _committed(root, chapter, entry):
            return True
        forward = _error_summary(exc)
    try:
        _roll_back(root, chapter, stage)
    except Exception as exc:
        print(f"        {chapter}: a run killed while publishing left {stage}; it could not be completed "
              f"({forward}) nor undone ({_error_summary(exc)}): left as it is", file=stream, flush=True)
        return False
    print(f"        {chapter}: undid the publication of a run killed while publishing (it could not be completed: "
          f"{forward}); the last good outputs are in place", file=stream, flush=True)
    return True


def _shows_code(chapter: str) -> bool:
    """Whether the chapter's page shows its code (its module sets ``SHOW_CODE = True``: where copying the code is
    the point); every other chapter's code is hidden behind a toggle."""
    from .profiles import chapter_modules

    return any(getattr(m, "CHAPTER", None) == chapter and getattr(m, "SHOW_CODE", False) for m in chapter_modules())


def run_chapter(chapter: str, profile: str, output_root: str | None = None) -> ChapterRun:
    """Convert, parameterise and execute one chapter in a staging folder, then publish it (see the module's
    docstring). Never raises for a notebook error or one in publishing (it is reported); an interrupt (Ctrl-C)
    leaves the outputs as they were and propagates."""
    import jupytext
    import nbformat
    import papermill

    root = Path(output_root) if output_root else generated_dir()
    source = notebooks_dir() / f"{chapter}.py"
    start = time.perf_counter()
    params = injected = parameters_for(profile, chapter)
    (root / STAGING).mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=root / STAGING, prefix=f"{chapter}.{os.getpid()}."))
    executed_path = stage / "notebook.ipynb"
    try:
        if not source.is_file():
            raise FileNotFoundError(f"notebooks/{source.name} does not exist (renamed or removed?)")
        nb = jupytext.read(source)
        has_tag = _parameters_source(nb) is not None
        params = {**notebook_parameters(nb), **injected}
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
        if not _shows_code(chapter):
            hide_code(executed)
        nbformat.write(executed, executed_path)
        (stage / chapter).mkdir(exist_ok=True)
        run = _record(stage, chapter, profile, params, start)
        with _manifest_lock(root):
            _publish(root, chapter, stage, asdict(run))
        return run
    except Exception as exc:  # papermill raises PapermillExecutionError carrying the cell's exception
        error = _error_summary(exc) + _keep_failed_notebook(root, chapter, executed_path)
        run = ChapterRun(chapter, profile, "failed", params, params.get("seed"),
                         round(time.perf_counter() - start, 2), __version__, error=error[:4000])
        with _manifest_lock(root):
            _update_manifest(root, run)
        return run
    finally:
        journal = _read_journal(stage)
        if journal is None or journal.get("step") != "publishing":
            shutil.rmtree(stage, ignore_errors=True)  # else it holds the last good outputs: the next run recovers


def _keep_failed_notebook(root: Path, chapter: str, executed: Path) -> str:
    """Move a failed run's executed notebook to ``failed/``; the note for the error message (empty if there is no
    such notebook)."""
    if not (executed.is_file() and executed.stat().st_size):
        return ""
    try:
        import nbformat

        nb = nbformat.read(executed, as_version=4)
        _scrub_machine_paths(nb, chapter, executed.parent)
        nbformat.write(nb, executed)
    except Exception:  # a notebook papermill could not finish writing is kept as it is
        pass
    try:
        (root / "failed").mkdir(parents=True, exist_ok=True)
        os.replace(executed, root / "failed" / f"{chapter}.ipynb")
    except OSError as exc:
        return f"\n(its executed notebook could not be kept in failed/: {_error_summary(exc)})"
    return f"\n(the executed notebook, with the full traceback: failed/{chapter}.ipynb)"


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


def _files_under(folder: Path, prefix: str) -> dict[str, str]:
    return {f"{prefix}/{p.relative_to(folder).as_posix()}": sha256_file(p)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _chapter_files(root: Path, chapter: str) -> dict[str, str]:
    """{path relative to root: sha256} of everything the chapter has on disk: its artefacts and notebook."""
    files = _files_under(root / chapter, chapter)
    notebook = root / "notebooks" / f"{chapter}.ipynb"
    if notebook.is_file():
        files[f"notebooks/{chapter}.ipynb"] = sha256_file(notebook)
    return files


def _record(stage: Path, chapter: str, profile: str, params: dict, start: float) -> ChapterRun:
    """The manifest entry of a successful run, from its staged files under the names they get in the book."""
    data = {}
    provenance = stage / chapter / "provenance.json"
    if provenance.exists():
        for record in json.loads(provenance.read_text())["artefacts"].values():
            data.update(record.get("data", {}))
    outputs = _files_under(stage / chapter, chapter)
    outputs[f"notebooks/{chapter}.ipynb"] = sha256_file(stage / "notebook.ipynb")
    return ChapterRun(chapter=chapter, profile=profile, status="ok", parameters=params, seed=params.get("seed"),
                      duration_s=round(time.perf_counter() - start, 2), analysis_version=__version__, data=data,
                      outputs=outputs)


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


MANIFEST = "manifest.json"
BACKUP = ".manifest.backup.json"
STATUSES = ("ok", "failed")


def _parse_manifest(path: Path) -> dict[str, dict]:
    """{chapter: entry} of a manifest file, or a :class:`ManifestError` naming what is wrong with it."""
    try:
        payload = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ManifestError(f"{path} is not readable as JSON ({_error_summary(exc)})") from None
    chapters = payload.get("chapters") if isinstance(payload, dict) else None
    if not isinstance(chapters, list):
        raise ManifestError(f"{path} has no list of chapters")
    entries = {}
    for k, entry in enumerate(chapters):
        name = entry.get("chapter") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not CHAPTER_NAME.match(name) or name in entries:
            raise ManifestError(f"{path}: entry {k} has no chapter name (NN_name), or a name used twice")
        if entry.get("status") not in STATUSES:
            raise ManifestError(f"{path}: the entry of {name} has no status {' or '.join(STATUSES)} "
                                f"(got {entry.get('status')!r})")
        outputs = entry.get("outputs", {})
        if not isinstance(outputs, dict) or not all(isinstance(v, str) for v in outputs.values()):
            raise ManifestError(f"{path}: the entry of {name} has no {{file: sha256}} outputs")
        entries[name] = entry
    return entries


def read_manifest(root: str | os.PathLike | None = None) -> dict[str, dict]:
    """{chapter: entry} of ``manifest.json``: empty when there is none; a :class:`ManifestError` naming the problem
    when it is damaged (never an empty record in place of a damaged one)."""
    path = (Path(root) if root else generated_dir()) / MANIFEST
    if not path.exists() and not path.is_symlink():
        return {}
    return _parse_manifest(path)


BUILD_RECORD = "build.md"


def build_record(entries: dict[str, dict]) -> str:
    """The manifest as the book's reproducibility page shows it (MyST, included from ``book/reproducibility.md``):
    which profile, seed and parameters made each chapter's outputs, how long it ran and how many files it wrote."""
    if not entries:
        return "No chapter has been run into this book's outputs yet.\n"
    profiles = sorted({e.get("profile", "?") for e in entries.values()})
    failed = sorted(k for k, e in entries.items() if e.get("status") != "ok" or e.get("last_failure"))
    lines = [
        f"This book shows the outputs of {len(entries)} chapter runs, recorded in the run manifest "
        "({download}`manifest.json <_generated/manifest.json>`: every parameter, the data files' and outputs' "
        "checksums). " + (f"Every chapter ran with the **{profiles[0]}** profile." if len(profiles) == 1 else
                          "The chapters ran with different profiles: " + ", ".join(f"**{p}**" for p in profiles)
                          + " (see the table)."),
        "",
        "| chapter | profile | seed | run time (s) | files written | status |",
        "| --- | --- | --: | --: | --: | --- |",
    ]
    for chapter in sorted(entries):
        e = entries[chapter]
        status = e.get("status", "?")
        if e.get("last_failure"):
            status += " (a later run failed; these are the outputs of the last good run)"
        seed = e.get("seed")
        lines.append(f"| {chapter.replace('_', ' ')} | {e.get('profile', '?')} | "
                     f"{'—' if seed is None else seed} | {float(e.get('duration_s') or 0):,.1f} | "
                     f"{len(e.get('outputs') or {})} | {status} |")
    versions = sorted({str(e.get("analysis_version", "?")) for e in entries.values()})
    lines += ["", f"Package version: {', '.join(versions)}."
              + (f" Chapters with a failed run: {', '.join(failed)}." if failed else ""), "",
              "```{dropdown} The parameters of each run", "| chapter | parameter | value |", "| --- | --- | --- |"]
    for chapter in sorted(entries):
        for name, value in sorted((entries[chapter].get("parameters") or {}).items()):
            if name != "output_root":
                shown = json.dumps(value, default=str) if not isinstance(value, str) else value
                lines.append(f"| {chapter.replace('_', ' ')} | `{name}` | `{shown.replace('|', '/')}` |")
    lines.append("```")
    return "\n".join(lines) + "\n"


def _write_manifest(root: Path, entries: dict[str, dict]) -> Path:
    """Write the manifest, then the book's page of it (:func:`build_record`), then its backup (best effort: the
    manifest is the record)."""
    path = root / MANIFEST
    payload = {"analysis_version": __version__, "chapters": [entries[k] for k in sorted(entries)]}
    text = json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))
    record = build_record(entries)
    atomic_write(root / BUILD_RECORD, lambda tmp: Path(tmp).write_text(record))
    try:
        atomic_write(root / BACKUP, lambda tmp: Path(tmp).write_text(text))
    except OSError:
        pass
    return path


def _recover_manifest(root: Path, stream) -> None:
    """Restore a damaged manifest from its backup, keeping the damaged file beside it and saying so; with no
    usable backup, refuse (a :class:`ManifestError`): recording only the chapters run now would lose the others'
    records. Call under the manifest lock."""
    try:
        read_manifest(root)
        return
    except ManifestError as exc:
        damage = exc
    try:
        entries = _parse_manifest(root / BACKUP)
    except ManifestError:
        raise ManifestError(f"{damage}; its backup {BACKUP} is not usable either, so running now would lose the "
                            f"other chapters' records: move {MANIFEST} aside to start a new record (the outputs "
                            "stay; `python -m analysis outputs verify` then lists those not recorded)") from None
    kept = root / f"manifest.damaged.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}.json"
    os.replace(root / MANIFEST, kept)
    _write_manifest(root, entries)
    print(f"        {damage}; restored it from {BACKUP} ({len(entries)} chapter record(s)); the damaged file is "
          f"{kept.name}", file=stream, flush=True)


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


def _orphans(root: Path, chapters: list[str]) -> list[str]:
    """Chapters the manifest records that have no notebook now (renamed, removed, or another branch)."""
    return sorted(set(read_manifest(root)) - set(chapters))


def _report_orphans(root: Path, chapters: list[str], stream) -> None:
    """Say which recorded chapters have no notebook; their outputs are kept (only :func:`prune` removes them)."""
    for chapter in _orphans(root, chapters):
        print(f"        {chapter}: recorded, but notebooks/{chapter}.py does not exist; its outputs are kept "
              "(`python -m analysis outputs prune` removes them)", file=stream, flush=True)


def prune(root: str | os.PathLike | None = None, stream=None) -> list[str]:
    """Remove the outputs, notebooks and manifest entries of the recorded chapters that have no notebook: the one
    way the runner deletes a chapter's outputs (``python -m analysis outputs prune``). Returns their names."""
    root = Path(root) if root else generated_dir()
    stream = stream or sys.stderr
    if not root.is_dir():
        raise ValueError(f"output root {root} does not exist")
    with _manifest_lock(root):
        entries = read_manifest(root)
        stale = _orphans(root, discover())
        for chapter in stale:
            shutil.rmtree(root / chapter, ignore_errors=True)
            for folder in ("notebooks", "failed"):
                (root / folder / f"{chapter}.ipynb").unlink(missing_ok=True)
            del entries[chapter]
            print(f"outputs prune: removed the outputs of {chapter}, which has no notebook", file=stream, flush=True)
        if stale:
            _write_manifest(root, entries)
    return stale


def verify_outputs(root: str | os.PathLike | None = None, chapters: list[str] | None = None) -> dict[str, list[str]]:
    """Check the generated files against the manifest: {chapter: [problems]} (an empty list: as recorded).
    A problem is a recorded file that is missing or changed, a file not recorded, a notebook in ``notebooks/`` that
    no manifest entry accounts for, a chapter (of ``chapters``, default: every notebook) with no manifest entry, or
    an entry whose notebook is gone. A damaged manifest is a :class:`ManifestError`, a missing root a
    ``ValueError``."""
    root = Path(root) if root else generated_dir()
    if not root.is_dir():
        raise ValueError(f"output root {root} does not exist (no run has written there)")
    entries = read_manifest(root)
    chapters = discover() if chapters is None else chapters
    report = {}
    for chapter, entry in sorted(entries.items()):
        recorded = entry.get("outputs", {})
        on_disk = _chapter_files(root, chapter)
        problems = [f"missing: {f}" for f in sorted(set(recorded) - set(on_disk))]
        problems += [f"changed: {f}" for f in sorted(set(recorded) & set(on_disk)) if recorded[f] != on_disk[f]]
        problems += [f"not recorded: {f}" for f in sorted(set(on_disk) - set(recorded))]
        if chapter not in chapters:
            problems.append(f"no notebook: notebooks/{chapter}.py is gone (`python -m analysis outputs prune` "
                            "removes its outputs)")
        report[chapter] = problems
    for notebook in sorted((root / "notebooks").glob("*.ipynb")) if (root / "notebooks").is_dir() else []:
        if notebook.stem not in entries:
            report[notebook.stem] = [f"not recorded: notebooks/{notebook.name}"]
    for chapter in chapters:
        if chapter not in entries:
            report.setdefault(chapter, []).insert(0, "no manifest entry (never run, or its record was lost): "
                                                     f"`python -m analysis reproduce --only {chapter}`")
    return dict(sorted(report.items()))


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
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"cannot use the output root {root}: {_error_summary(exc)}") from None
    if not root.is_dir():
        raise ValueError(f"cannot use the output root {root}: it is not a folder")
    with _manifest_lock(root):
        _recover_manifest(root, stream)  # a ManifestError (a ValueError) refuses the run
        _recover_staging(root, stream)
    remove_stale_partials(root)
    _report_orphans(root, discover(), stream)
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
            except Exception as exc:  # a bug in the runner itself: still isolate the chapter
                report(_crashed(chapter, profile, exc))
    else:
        with process_pool(jobs) as pool:
            futures = {pool.submit(run_chapter, c, profile, str(root)): c for c in chapters}
            for future in as_completed(futures):
                try:
                    report(future.result())
                except Exception as exc:
                    report(_crashed(futures[future], profile, exc))
    runs.sort(key=lambda r: chapters.index(r.chapter))
    print(f"manifest: {root / 'manifest.json'}", file=stream, flush=True)
    return runs


def _crashed(chapter: str, profile: str, exc: BaseException) -> ChapterRun:
    """The record of a chapter the runner itself failed on: the error in one line, then the traceback."""
    return ChapterRun(chapter, profile, "failed", {}, None, 0.0, __version__,
                      error=f"runner error: {_error_summary(exc)}\n{traceback.format_exc()[-3000:]}")
