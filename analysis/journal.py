"""Staging and journalled publishing: a chapter's outputs change all at once or not at all.

Each run of a chapter writes into its own staging folder, ``<root>/.staging/<chapter>.<pid>.<random>/``
(:func:`new_stage`), handed to the notebook as its ``output_root``. Only when the notebook succeeds are its
artefacts (``<root>/<chapter>/``) and executed notebook (``<root>/notebooks/<chapter>.ipynb``) swapped in and the
manifest updated (:func:`publish`). The stage's ``publish.json`` (the journal) holds the new manifest entry while
the renames are under way, and the replaced outputs stay in the stage until the manifest records the new ones.

A run killed in between is completed (or, if that fails, undone) by the next run, before anything else
(:func:`recover_staging`); staging folders without a journal never touched the book and are removed. Every step of
rolling forward (:func:`roll_forward`) or back (:func:`roll_back`) is decided by what is where, so either can
resume from any point at which it was interrupted.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from .files import atomic_write, pid_alive, probe_writable
from .manifest import (
    CHAPTER_NAME,
    ManifestError,
    OutputRootError,
    error_summary,
    read_manifest,
    write_manifest,
)

STAGING = ".staging"
JOURNAL = "publish.json"


class PublishError(RuntimeError):
    """A chapter's new outputs could not be put in place; the last good ones are (back) in place."""


def check_staging(root: Path) -> None:
    """Make sure the staging folder is a folder this process can write in (call before anything changes): an
    :class:`OutputRootError` naming the path and the cause otherwise."""
    staging = root / STAGING
    if staging.exists() and not staging.is_dir():
        raise OutputRootError(f"{staging} is not a folder: the runner stages each chapter's outputs there "
                              "(move it away and rerun)")
    try:
        staging.mkdir(exist_ok=True)
        probe_writable(staging)
    except OSError as exc:
        raise OutputRootError(f"cannot write in the staging folder {staging}: {exc.strerror or exc}") from None


def new_stage(root: Path, chapter: str) -> Path:
    """A new, empty staging folder for one run of ``chapter``; its name carries this process's id (see
    :func:`recover_staging`)."""
    (root / STAGING).mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(dir=root / STAGING, prefix=f"{chapter}.{os.getpid()}."))


def discard_stage(stage: Path) -> None:
    """Remove a run's staging folder, unless its journal says a publication is under way: then it holds the last
    good outputs, and the next run recovers it."""
    journal = _read_journal(stage)
    if journal is None or journal.get("step") != "publishing":
        shutil.rmtree(stage, ignore_errors=True)


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


def roll_forward(root: Path, chapter: str, stage: Path, entry: dict) -> None:
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
    write_manifest(root, entries)


def roll_back(root: Path, chapter: str, stage: Path) -> None:
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


def publish(root: Path, chapter: str, stage: Path, entry: dict) -> None:
    """Swap the staged artefacts and notebook in for the chapter's current ones and record ``entry`` (call under
    the manifest lock). The journal says the publication is under way; an error or an interrupt before the
    manifest records the entry puts the last good outputs back (and raises); a kill is recovered by the next run.
    The replaced outputs are deleted (with the stage, by :func:`discard_stage`) only once the new ones are
    recorded."""
    _check_publishable(root, chapter)
    _places(root, chapter, stage)["new"].mkdir(exist_ok=True)  # a chapter that saved nothing still replaces the old
    _write_journal(stage, chapter, "publishing", entry)
    try:
        roll_forward(root, chapter, stage, entry)
    except BaseException as exc:
        committed = _committed(root, chapter, entry)
        if not committed:
            roll_back(root, chapter, stage)  # if this fails too, the journal stays for the next run
            (stage / JOURNAL).unlink()
        if not isinstance(exc, Exception):
            raise  # an interrupt: the book is as it was (or, once recorded, as recorded)
        if not committed:
            raise PublishError(f"cannot publish {chapter}: {error_summary(exc)}; the last good outputs are kept") \
                from exc
    try:
        _write_journal(stage, chapter, "recorded", entry)
        for leftover in (f"{chapter}.ipynb", f"{chapter}.kernel.log"):
            (root / "failed" / leftover).unlink(missing_ok=True)
    except OSError:
        pass  # recorded all the same: a journal still saying "publishing" is completed again (a no-op) next run


def recover_staging(root: Path, stream) -> None:
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


def _say(stream, text: str) -> None:
    print(f"        {text}", file=stream, flush=True)


def _recover(root: Path, stage: Path, journal: dict, stream) -> bool:
    """Complete (or else undo) the publication a killed run left in ``stage``; whether the book is consistent."""
    chapter, entry = journal.get("chapter"), journal["entry"]
    if not isinstance(chapter, str) or not CHAPTER_NAME.match(chapter) or not stage.name.startswith(f"{chapter}."):
        _say(stream, f"{stage.name}: its publishing journal names no chapter of this folder; left as it is")
        return False
    try:
        roll_forward(root, chapter, stage, entry)
        _say(stream, f"{chapter}: completed the publication of a run killed while publishing")
        return True
    except Exception as exc:
        if _committed(root, chapter, entry):
            return True
        forward = error_summary(exc)
    try:
        roll_back(root, chapter, stage)
    except Exception as exc:
        _say(stream, f"{chapter}: a run killed while publishing left {stage}; it could not be completed "
                     f"({forward}) nor undone ({error_summary(exc)}): left as it is")
        return False
    _say(stream, f"{chapter}: undid the publication of a run killed while publishing (it could not be completed: "
                 f"{forward}); the last good outputs are in place")
    return True
