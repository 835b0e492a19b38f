"""The book's outputs checked against the manifest, and the one way they are deleted: ``python -m analysis outputs
verify`` (:func:`verify_outputs`) and ``python -m analysis outputs prune`` (:func:`prune`).

A chapter whose notebook is missing (renamed, another branch) keeps its outputs and its record: the runner never
deletes them; only :func:`prune` does, on request.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from . import reproduce, uptodate
from .manifest import (
    BACKUP,
    UNFINISHED,
    backup_state,
    chapter_files,
    manifest_lock,
    read_manifest,
    recover_manifest,
    refresh_build_record,
    write_manifest,
)
from .paths import generated_dir
from .reproduce import discover


def prune(root: str | os.PathLike | None = None, stream=None) -> list[str]:
    """Remove the outputs, notebooks and manifest entries of the recorded chapters that have no notebook: the one
    way the runner deletes a chapter's outputs (``python -m analysis outputs prune``). Returns their names. A
    missing or damaged manifest is first restored from its backup, as a run does."""
    root = Path(root) if root else generated_dir()
    stream = stream or sys.stderr
    if not root.is_dir():
        raise ValueError(f"output root {root} does not exist")
    notebooks = discover()
    if not notebooks:  # a wrong checkout, a moved folder: every chapter would look gone
        raise ValueError(f"no chapter notebook found in {reproduce.notebooks_dir()} (NN_name.py): refusing to "
                         "remove every chapter's outputs; run prune from the repository whose notebooks made them")
    with manifest_lock(root):
        recover_manifest(root, stream)
        entries = read_manifest(root)
        stale = sorted(set(entries) - set(notebooks))  # recorded, but their notebook is gone
        for chapter in stale:
            shutil.rmtree(root / chapter, ignore_errors=True)
            for leftover in (f"notebooks/{chapter}.ipynb", f"failed/{chapter}.ipynb", f"failed/{chapter}.kernel.log",
                             f"{UNFINISHED}/{chapter}"):
                (root / leftover).unlink(missing_ok=True)
            del entries[chapter]
            print(f"outputs prune: removed the outputs of {chapter}, which has no notebook", file=stream, flush=True)
        if stale:
            write_manifest(root, entries)
            refresh_build_record(root)
    return stale


def verify_outputs(root: str | os.PathLike | None = None, chapters: list[str] | None = None) -> dict[str, list[str]]:
    """Check the generated files against the manifest: {chapter: [problems]} (an empty list: as recorded).
    A problem is a recorded file that is missing or changed, a file not recorded, a notebook in ``notebooks/`` that
    no manifest entry accounts for, a chapter (of ``chapters``, default: every notebook) with no manifest entry, or
    an entry whose notebook is gone. A damaged manifest is a :class:`~analysis.manifest.ManifestError`, a missing
    root a ``ValueError``."""
    root = Path(root) if root else generated_dir()
    if not root.is_dir():
        raise ValueError(f"output root {root} does not exist (no run has written there)")
    entries = read_manifest(root)
    chapters = discover() if chapters is None else chapters
    report = {}
    for chapter, entry in sorted(entries.items()):
        recorded = entry.get("outputs", {})
        on_disk = chapter_files(root, chapter)
        problems = [f"missing: {f}" for f in sorted(set(recorded) - set(on_disk))]
        problems += [f"changed: {f}" for f in sorted(set(recorded) & set(on_disk)) if recorded[f] != on_disk[f]]
        problems += [f"not recorded: {f}" for f in sorted(set(on_disk) - set(recorded))]
        if entry.get("status") != "ok":
            problems.append("no good run: its only recorded run failed" + ("" if on_disk else ", and it has no outputs")
                            + f" (`python -m analysis reproduce --only {chapter}`)")
        if chapter not in chapters:
            problems.append(f"no notebook: notebooks/{chapter}.py is gone (`python -m analysis outputs prune` "
                            "removes its outputs)")
        report[chapter] = problems
    for notebook in sorted((root / "notebooks").glob("*.ipynb")) if (root / "notebooks").is_dir() else []:
        if notebook.stem not in entries:
            report[notebook.stem] = [f"not recorded: notebooks/{notebook.name}"]
    backup = backup_state(root)[0] or {}
    for chapter in chapters:
        if chapter in entries:
            continue
        if chapter in backup:  # lost from the manifest: the next run puts it back before it records anything
            problem = f"no manifest entry, but {BACKUP} holds its record: the next `python -m analysis reproduce` " \
                      "restores it"
        else:
            problem = f"no manifest entry (never run, or its record was lost): `python -m analysis reproduce --only " \
                      f"{chapter}`"
        report.setdefault(chapter, []).insert(0, problem)
    return dict(sorted(report.items()))


def status(root: str | os.PathLike | None = None, profile: str = "full", stream=None) -> dict[str, list[str]]:
    """Print each chapter (every notebook, and every recorded chapter) as up to date or stale under ``profile``,
    with the reasons (:func:`analysis.uptodate.stale_reasons`): what ``python -m analysis reproduce`` would skip
    and run. Returns {chapter: reasons}. Changes nothing."""
    root = Path(root) if root else generated_dir()
    stream = stream or sys.stdout
    if not root.is_dir():
        raise ValueError(f"output root {root} does not exist (no run has written there)")
    entries = read_manifest(root)
    states = uptodate.chapter_states(root, sorted(set(discover()) | set(entries)), profile)
    width = max(map(len, states), default=0)
    for chapter, reasons in states.items():
        said = "stale: " + "; ".join(reasons) if reasons else f"up to date ({uptodate.compared(entries[chapter])})"
        print(f"{chapter:<{width}}  {said}", file=stream, flush=True)
    stale = sum(bool(r) for r in states.values())
    print(f"outputs status: {len(states) - stale} chapter(s) up to date, {stale} stale (profile {profile})",
          file=stream, flush=True)
    return states
