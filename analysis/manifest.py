"""The run manifest: the record of which run made each chapter's outputs in the output root.

``<root>/manifest.json`` holds one entry per chapter (:class:`ChapterRun`: profile, parameters, seed, duration,
data checksums, and the sha256 of every file the chapter has in the book). Every write also refreshes the backup
``.manifest.backup.json`` and the book's page of the record, ``build.md`` (:func:`build_record`). A missing or
damaged manifest is restored from the backup before a run records anything (:func:`recover_manifest`); with no
usable backup either, the run is refused rather than record a few chapters in place of all. Changes to the output
root are serialised by a lock file, ``.manifest.lock`` (:func:`manifest_lock`), because chapters run in parallel
processes. ``<root>`` is ``book/_generated`` unless ``output_root`` says otherwise.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .files import atomic_write, sha256_file, write_if_changed
from .paths import generated_dir

MANIFEST = "manifest.json"
BACKUP = ".manifest.backup.json"
LOCK = ".manifest.lock"
BUILD_RECORD = "build.md"
#: notes of chapter runs that have started and not recorded their outcome (:func:`mark_started`)
UNFINISHED = ".unfinished"
STATUSES = ("ok", "failed")

#: what a chapter's name looks like (a notebook stem): the only names the runner ever deletes folders by
CHAPTER_NAME = re.compile(r"^\d\d_[A-Za-z0-9_]+$")


@dataclass
class ChapterRun:
    """One chapter's run, as the manifest records it."""

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
    #: what the outputs were made from (a successful run): the notebook's sha256, the profile's parameters, the
    #: lock file's sha256, {analysis module file: sha256}, the data read ({"tables": ..., "files": ...})
    inputs: dict = field(default_factory=dict)


class ManifestError(ValueError):
    """``manifest.json`` cannot be read as the runner's record (not JSON, not the expected structure)."""


class OutputRootError(ValueError):
    """The output root cannot be used as the runner needs it: a path the runner owns is of the wrong kind (a file
    where a folder must be, or the reverse), or a folder cannot be written. The message names the path and the
    cause; nothing has been changed."""


def error_summary(exc: BaseException) -> str:
    """One line naming an exception and its message; for one raised in a notebook, the notebook's exception
    (papermill's own message starts with a rule of dashes and the cell's source)."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename:
        cell = getattr(exc, "exec_count", None)
        return f"{ename}: {evalue}" + (f" (in cell [{cell}])" if cell else "")
    return f"{type(exc).__name__}: {exc}".strip()


def _root(root: str | os.PathLike | None) -> Path:
    return Path(root) if root else generated_dir()


@contextmanager
def manifest_lock(root: Path):
    """Serialise publishing and manifest updates of chapters running in parallel processes. A lock file that
    cannot be opened (a folder in its place, a read-only root) is an :class:`OutputRootError` naming it."""
    path = root / LOCK
    try:
        root.mkdir(parents=True, exist_ok=True)
        fh = open(path, "a")
    except IsADirectoryError:
        raise OutputRootError(f"{path} is a folder, not the runner's lock file (move it away and rerun)") from None
    except OSError as exc:
        raise OutputRootError(f"cannot open the runner's lock file {path}: {exc.strerror or exc}") from None
    with fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def parse_manifest(path: Path) -> dict[str, dict]:
    """{chapter: entry} of a manifest file (or its backup), or a :class:`ManifestError` naming what is wrong."""
    try:
        payload = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ManifestError(f"{path} is not readable as JSON ({error_summary(exc)})") from None
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


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def read_manifest(root: str | os.PathLike | None = None) -> dict[str, dict]:
    """{chapter: entry} of ``manifest.json``: empty when there is none; a :class:`ManifestError` naming the problem
    when it is damaged (never an empty record in place of a damaged one)."""
    path = _root(root) / MANIFEST
    if not _exists(path):
        return {}
    return parse_manifest(path)


def backup_state(root: str | os.PathLike | None = None) -> tuple[dict[str, dict] | None, str | None]:
    """(the backup's entries, or None; what is wrong with it, or None): (None, None) when there is no backup."""
    path = _root(root) / BACKUP
    if not _exists(path):
        return None, None
    try:
        return parse_manifest(path), None
    except ManifestError as exc:
        return None, str(exc)


def write_manifest(root: Path, entries: dict[str, dict]) -> Path:
    """Write the manifest, then its backup, then the book's page of it (:func:`build_record`). The manifest is the
    record: the other two are written on a best-effort basis, and the backup first, so that it never lags behind
    when the page cannot be written (a run rewrites the page at its end, :func:`refresh_build_record`, and says so
    if it cannot)."""
    path = root / MANIFEST
    payload = {"analysis_version": __version__, "chapters": [entries[k] for k in sorted(entries)]}
    text = json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))
    record = build_record(entries)
    for name, content in ((BACKUP, text), (BUILD_RECORD, record)):
        try:
            atomic_write(root / name, lambda tmp, content=content: Path(tmp).write_text(content))
        except OSError:
            pass
    return path


def refresh_build_record(root: Path) -> None:
    """Rewrite the manifest's backup and ``build.md`` from the manifest (call under the lock): either that cannot be
    written is an :class:`OutputRootError` naming it, so that no run reports success while the backup (from which a
    lost record is restored) or the book's page lags behind the manifest."""
    if _exists(root / MANIFEST):
        _write_or_refuse(root / BACKUP, (root / MANIFEST).read_text(), "the manifest's backup",
                         "the backup holds an older record than", "make it writable and rerun")
    _write_or_refuse(root / BUILD_RECORD, build_record(read_manifest(root)), "the book's build record",
                     "it no longer matches", "move it away and rerun")


def _write_or_refuse(path: Path, text: str, what: str, stale: str, remedy: str) -> None:
    """:func:`write_if_changed`, or an :class:`OutputRootError` naming ``path``, why it failed and that it lags
    behind the manifest."""
    try:
        write_if_changed(path, text)
    except OSError as exc:
        why = "it is a folder" if path.is_dir() else exc.strerror or str(exc)
        raise OutputRootError(f"cannot write {what} {path} ({why}): {stale} {MANIFEST}, which is up to date "
                              f"({remedy})") from None


def check_manifest_paths(root: Path) -> None:
    """Refuse, before anything changes, an output root where the runner's own files are of the wrong kind."""
    lock, record, backup = root / LOCK, root / BUILD_RECORD, root / BACKUP
    if lock.is_dir():
        raise OutputRootError(f"{lock} is a folder, not the runner's lock file (move it away and rerun)")
    if backup.is_dir():
        raise OutputRootError(f"{backup} is a folder, not the manifest's backup, which every run rewrites "
                              "(move it away and rerun)")
    if record.is_dir():
        raise OutputRootError(f"{record} is a folder, not the book's build record, which every run rewrites "
                              "(move it away and rerun)")


def recover_manifest(root: Path, stream) -> None:
    """Restore a missing or damaged manifest from its backup (checked to parse first), keeping a damaged file beside
    it and saying so; with a damaged manifest and no usable backup, or no manifest and a damaged backup, refuse (a
    :class:`ManifestError`): recording only the chapters run now would lose the others' records. Call under the
    manifest lock, before anything is recorded."""
    path = root / MANIFEST
    missing = not _exists(path)
    if missing:
        entries, problem = backup_state(root)
        if entries is None and problem is None:
            return  # a new output root: nothing was ever recorded
        damage = f"{path} is missing"
    else:
        try:
            current = read_manifest(root)
        except ManifestError as exc:
            damage = str(exc)
        else:
            _restore_lost_records(root, current, stream)
            return
        entries, problem = backup_state(root)
    if entries is None:
        aside = f"{BACKUP}" if missing else f"{MANIFEST} and {BACKUP}"
        raise ManifestError(f"{damage}; its backup {BACKUP} is not usable either ({problem or 'there is none'}), "
                            f"so running now would lose the other chapters' records: move {aside} aside to start a "
                            "new record (the outputs stay; `python -m analysis outputs verify` then lists those not "
                            "recorded)")
    note = ""
    if not missing:
        kept = root / f"manifest.damaged.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}.json"
        os.replace(path, kept)
        note = f"; the damaged file is {kept.name}"
    write_manifest(root, entries)
    print(f"        {damage}; restored it from {BACKUP} ({len(entries)} chapter record(s)){note}", file=stream,
          flush=True)


def _restore_lost_records(root: Path, entries: dict[str, dict], stream) -> None:
    """Put back the records of chapters that a readable manifest lacks and its backup holds (a manifest edited or
    written by something else): a run rewrites the backup from the manifest, which would lose them for good. The
    manifest is written before the backup, and only ``outputs prune`` drops a record, so a record the backup alone
    holds was lost, not removed. A damaged backup restores nothing (the manifest is the record)."""
    backup, _ = backup_state(root)
    lost = sorted(set(backup or {}) - set(entries))
    if not lost:
        return
    for chapter in lost:
        entries[chapter] = backup[chapter]
        print(f"        {MANIFEST} has no record of {chapter}, which {BACKUP} holds: restored it", file=stream,
              flush=True)
    write_manifest(root, entries)


def mark_started(root: Path, chapter: str, profile: str) -> None:
    """Leave a note that a run of ``chapter`` has started, ``<root>/.unfinished/<chapter>``, which
    :func:`mark_finished` removes once the run's outcome is recorded: a run stopped or killed in between leaves it,
    and the chapter is not up to date until a run finishes (the manifest itself is not touched, so an interrupted
    run changes no record)."""
    note = root / UNFINISHED / chapter
    text = json.dumps({"chapter": chapter, "profile": profile, "pid": os.getpid(),
                       "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
    atomic_write(note, lambda tmp: Path(tmp).write_text(text + "\n"))


def mark_finished(root: Path, chapter: str) -> None:
    """Remove the note of :func:`mark_started` (the run's outcome is recorded)."""
    try:
        (root / UNFINISHED / chapter).unlink(missing_ok=True)
    except OSError:
        pass  # not a folder: nothing was noted there


def unfinished(root: Path, chapter: str) -> bool:
    """Whether a run of ``chapter`` started and never recorded its outcome (stopped, killed, or still running)."""
    return (root / UNFINISHED / chapter).is_file()


def update_manifest(root: Path, run: ChapterRun) -> None:
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
    write_manifest(root, entries)


def files_under(folder: Path, prefix: str) -> dict[str, str]:
    """{``prefix``/path relative to ``folder``: sha256} of every file under ``folder``."""
    return {f"{prefix}/{p.relative_to(folder).as_posix()}": sha256_file(p)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def chapter_files(root: Path, chapter: str) -> dict[str, str]:
    """{path relative to root: sha256} of everything the chapter has on disk: its artefacts and notebook."""
    files = files_under(root / chapter, chapter)
    notebook = root / "notebooks" / f"{chapter}.ipynb"
    if notebook.is_file():
        files[f"notebooks/{chapter}.ipynb"] = sha256_file(notebook)
    return files


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
