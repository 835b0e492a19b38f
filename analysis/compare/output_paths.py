"""The output paths of ``python -m analysis compare`` checked before any work (for :mod:`analysis.compare.cli`):
``--json`` and the files of ``--out`` never an input file (links included), never each other, never a folder, FIFO
or socket, and in writable folders; and the temporary files a killed run left beside them removed."""

from __future__ import annotations

import os
from pathlib import Path

from .options import UsageError

OUT_FILES = ("systems.csv", "prob.csv", "prob_low.csv", "prob_high.csv", "common.csv", "sign_p.csv",
             "wilcoxon_p.csv", "sign_p_adj.csv", "wilcoxon_p_adj.csv", "disagreement.csv", "stability.csv", "human.csv",
             "mechanisms.png", "mechanisms.svg", "pairwise.png", "pairwise.svg")


def _same_file(a: Path, b: Path) -> bool:
    """The same file on disk (hard and symbolic links included), or the same path where one does not exist."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _nearest_folder(path: Path) -> Path:
    """The nearest existing ancestor of a path that may not exist yet."""
    for parent in [path, *path.parents]:
        if parent.exists():
            return parent
    return Path("/")


def check_outputs(args) -> dict[Path, str]:
    """Refuse, before any work, outputs that would overwrite an input (the score file or ``--human``, compared as
    files: a hard link or symbolic link counts), outputs that collide with each other (``--json`` among the files
    of ``--out``), and outputs that cannot be written (a folder in the way, a folder not writable). Returns the
    files to write and the option each comes from."""
    inputs = [("the input file", Path(args.file))]
    if getattr(args, "human", None):
        if _same_file(Path(args.human), Path(args.file)):
            raise UsageError("--human names the score file itself; give the human ratings' file")
        inputs.append(("the input file of --human", Path(args.human)))
    targets: dict[Path, str] = {}
    if args.json and args.json != "-":
        if Path(args.json).is_dir():
            raise UsageError(f"--json {args.json}: is a folder; give a file name")
        kind = _special_kind(Path(args.json))
        if kind and kind != "a device":
            raise UsageError(f"--json {args.json}: is {kind}, not a regular file (writing to it could wait for ever "
                             "for a reader); give a file name, or --json - for standard output")
        targets[Path(args.json)] = "--json"
    if args.out:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"--out {args.out}: exists and is not a folder")
        for name in OUT_FILES:
            path = folder / name
            if path.is_dir():
                raise UsageError(f"--out {args.out}: {name} is a folder; the command writes a file of that name")
            kind = _special_kind(path)
            if kind:
                raise UsageError(f"--out {args.out}: {name} is {kind}, not a regular file; the command writes a "
                                 "file of that name: remove it")
            if args.json and args.json != "-" and _same_file(path, Path(args.json)):
                raise UsageError(f"--json {args.json} is the file --out writes as {name}; choose another name")
            targets[path] = "--out"
    for path, option in targets.items():
        for what, source in inputs:
            if _same_file(path, source):
                link = "" if path.resolve() == source.resolve() else f" (through {path}, a link to it)"
                raise UsageError(f"{option} would overwrite {what} {source}{link}; choose another path")
    if args.json and args.json != "-":
        parent = Path(args.json).resolve().parent
        out = Path(args.out).resolve() if args.out else None
        inside = out is not None and (parent == out or out in parent.parents)
        # inside the --out folder, the folders are made before anything is written (as --out's own)
        _writable(_nearest_folder(parent) if inside else parent, "--json")
    if args.out:
        _writable(_nearest_folder(Path(args.out).resolve()), "--out")
    return targets


def _special_kind(path: Path) -> str | None:
    """What an existing path is when it is neither a regular file nor a folder (symbolic links followed)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) else "a block device"


def remove_leftovers(targets) -> list[Path]:
    """Remove the temporary files a killed run of this command left beside its outputs: only
    ``.<output name>.<pid>.<random><suffix>.part`` files (:func:`analysis.files.write_together`'s names) of an
    output it writes, whose process is gone. Returns them."""
    from ..files import _PARTIAL_PID, pid_alive

    removed = []
    by_folder: dict[Path, set[str]] = {}
    for path in targets:
        by_folder.setdefault(Path(path).parent, set()).add(Path(path).name)
    for folder, names in by_folder.items():
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            m = _PARTIAL_PID.search(name)
            if m is None or not name.startswith(".") or not entry.is_file(follow_symlinks=False):
                continue
            target = name[1:m.start()]
            if target in names and not pid_alive(int(m["pid"])):
                try:
                    os.unlink(entry.path)
                except OSError:
                    continue
                removed.append(Path(entry.path))
    return removed


def _writable(folder: Path, option: str) -> None:
    if not folder.exists():
        raise UsageError(f"{option}: folder {folder} does not exist")
    if not folder.is_dir():
        raise UsageError(f"{option}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: folder {folder} is not writable")
