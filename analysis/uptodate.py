"""Whether a chapter's outputs are up to date (for :mod:`analysis.reproduce` and ``python -m analysis outputs
status``). A good run records in its manifest entry (``inputs``) what its outputs were made from: the notebook's
sha256, the profile's parameters for it, the checksums of the data tables and files its kernel opened
(:func:`data_checksums`), the ``analysis`` modules the notebook imports (:func:`analysis.notebooks.analysis_modules`)
and the lock file's checksum; :func:`stale_reasons` compares that, and the outputs on disk, with what is there now.
"""

from __future__ import annotations

import json
from pathlib import Path

from .files import sha256_file
from .manifest import chapter_files, read_manifest, unfinished
from .notebooks import package_home
from .paths import notebooks_dir, repo_root
from .profiles import parameters_for


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
