"""Command line of the compendium.

``python -m analysis reproduce [--profile quick|full] [--only CHAPTER ...] [--jobs N] [--timeout SECONDS]
[--force]``: run the chapters that are not up to date (``--only``: these, regardless; ``--force``: all);
``python -m analysis outputs verify``: check the generated files against the manifest (``outputs status``: which
chapters are up to date, and why not; ``outputs prune``: remove the outputs of chapters that no longer have a
notebook);
``python -m analysis data fetch|verify|prepare``: the data;
``python -m analysis claims``: every paper claim's verdict, computed from the saved outputs (``claims.csv`` and the
book's claims pages under ``book/_generated/``);
``python -m analysis compare FILE``: compare the systems in your own score file with every method in the book.
"""

from __future__ import annotations

import argparse
import sys

COMPARE_DESCRIPTION = ("Rank the systems of FILE with MEAN, MEDIAN, BT, Elo and TrueSkill (95 percent bootstrap "
                       "intervals), test every pair, give rank intervals and tied groups, measure how much the "
                       "mechanisms disagree and whether removing the best or worst system reorders the rest.")


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:  # before a command could handle it (while the chapters' modules load, say)
        print("\npython -m analysis: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    if argv[:1] == ["compare"]:  # the command users run most: without the book's machinery (plotting, profiles)
        from .compare.cli import add_arguments

        cmp = argparse.ArgumentParser(prog="python -m analysis compare", description=COMPARE_DESCRIPTION)
        add_arguments(cmp)
        return _compare(cmp.parse_args(argv[1:]))
    from .profiles import PROFILES

    parser = argparse.ArgumentParser(prog="python -m analysis", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="execute the chapter notebooks with papermill into book/_generated/")
    rep.add_argument("--profile", default="full", choices=sorted(PROFILES), help="parameter profile (default: full)")
    rep.add_argument("--only", action="append", metavar="CHAPTER", help="run only this chapter (repeatable)")
    rep.add_argument("--jobs", type=int, default=1, help="chapters to run in parallel (default: 1)")
    rep.add_argument("--output-root", metavar="DIR", help="write artefacts here instead of book/_generated")
    rep.add_argument("--timeout", type=float, metavar="SECONDS",
                     help="stop a chapter whose cells run longer than this in all, and record it as failed (its last "
                     "good outputs stay); default: no limit")
    rep.add_argument("--force", action="store_true",
                     help="rerun every chapter, also those up to date (by default a chapter whose notebook, "
                     "parameters, data, analysis modules, lock file and outputs are unchanged since its last run is "
                     "skipped)")
    sub.add_parser("chapters", help="list the chapters")
    outs = sub.add_parser("outputs", help="check the generated book files against the manifest")
    outs.add_argument("action", choices=["verify", "status", "prune"],
                      help="verify: every chapter recorded and its files as recorded; status: each chapter up to "
                      "date or stale, with the reason; prune: remove the outputs of recorded chapters whose notebook "
                      "is gone")
    outs.add_argument("--output-root", metavar="DIR", help="the runner's output folder (default: book/_generated)")
    outs.add_argument("--profile", default="full", choices=sorted(PROFILES),
                      help="status: the profile a run would use (default: full)")
    data = sub.add_parser("data", help="fetch, verify and prepare the data (see data/README.md)")
    data.add_argument("action", choices=["fetch", "verify", "prepare"],
                      help="fetch raw files; verify raw files, prepared tables and cache entries against their "
                      "sha256; prepare (or repair) the tables")
    data.add_argument("--only", action="append", metavar="NAME",
                      help="a source (fetch, verify) or table (verify, prepare)")
    clm = sub.add_parser("claims", help="compute every paper claim's verdict from the saved outputs",
                         add_help=False)
    clm.add_argument("rest", nargs=argparse.REMAINDER)
    cmp = sub.add_parser("compare", help="compare the systems in a score file with every method in the book",
                         description=COMPARE_DESCRIPTION)
    from .compare.cli import add_arguments

    add_arguments(cmp)
    if argv[:1] == ["claims"]:
        from . import claims_cli

        return claims_cli.main(argv[1:])
    args = parser.parse_args(argv)

    if args.command == "compare":
        return _compare(args)

    from . import reproduce

    if args.command == "data":
        return _data(args, parser)
    if args.command == "chapters":
        print("\n".join(reproduce.discover()))
        return 0
    if args.command == "outputs":
        return _outputs(args.action, args.output_root, args.profile)
    return _reproduce(args, parser)


def _reproduce(args, parser) -> int:
    from . import reproduce
    from .manifest import OutputRootError

    try:
        runs = reproduce.run(profile=args.profile, only=args.only, jobs=args.jobs, output_root=args.output_root,
                             timeout=args.timeout, force=args.force)
    except OutputRootError as exc:  # the output root cannot be used: nothing was changed
        print(f"reproduce: error: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print("\nreproduce: interrupted: every chapter keeps its last good outputs (the manifest says which)",
              file=sys.stderr)
        return 130
    failed = [r.chapter for r in runs if r.status != "ok"]
    if failed:
        print(f"reproduce: {len(failed)} chapter(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _outputs(action: str, root: str | None, profile: str = "full") -> int:
    from .output_checks import prune, status

    if action == "verify":
        return _verify_outputs(root)
    if action == "status":
        try:
            status(root, profile)
        except ValueError as exc:  # no output root, a damaged manifest
            print(f"outputs status: error: {exc}", file=sys.stderr)
            return 1
        return 0
    try:
        prune(root)
    except ValueError as exc:
        print(f"outputs prune: error: {exc}", file=sys.stderr)
        return 1
    return 0


def _backup_note(root) -> str:
    """What the manifest's backup offers: the next ``reproduce`` restores the manifest from it only if it parses."""
    from .manifest import BACKUP, backup_state

    entries, problem = backup_state(root)
    if entries is not None:
        return f"{BACKUP} holds {len(entries)} chapter record(s): the next reproduce restores the manifest from it"
    if problem is not None:
        return (f"its backup {BACKUP} is not usable either ({problem}): the next reproduce refuses to run rather "
                "than lose the other chapters' records; move both aside to start a new record")
    return ""


def _verify_outputs(root: str | None) -> int:
    from pathlib import Path

    from .manifest import MANIFEST, read_manifest
    from .output_checks import verify_outputs
    from .paths import generated_dir

    folder = Path(root) if root else generated_dir()
    try:
        report = verify_outputs(root)
        entries = read_manifest(root)
    except ValueError as exc:  # a damaged manifest (ManifestError) or no output root
        note = _backup_note(folder) if folder.is_dir() else ""
        print(f"outputs verify: error: {exc}" + (f" ({note})" if note else ""), file=sys.stderr)
        return 1
    for chapter, problems in report.items():
        for problem in problems:
            print(f"{chapter}: {problem}", file=sys.stderr)
    bad = [c for c, problems in report.items() if problems]
    for chapter, entry in entries.items():
        failure = entry.get("last_failure") or (entry if entry.get("status") != "ok" else None)
        if failure:
            first = (failure.get("error") or "no error recorded").splitlines()[0]
            where = f" (failed/{chapter}.ipynb)" if (folder / "failed" / f"{chapter}.ipynb").is_file() else ""
            kept = ("what is on disk is its last good run" if entry.get("status") == "ok"
                    else "it has no good run on disk")
            print(f"{chapter}: its last run failed{where}: {first}; {kept}", file=sys.stderr)
    if not (folder / MANIFEST).exists() and _backup_note(folder):
        print(f"outputs verify: {folder / MANIFEST} is missing; {_backup_note(folder)}", file=sys.stderr)
    print(f"outputs verify: {len(report) - len(bad)} chapter(s) as recorded in the manifest, {len(bad)} not",
          file=sys.stderr)
    return 1 if bad or not report else 0


def _compare(args) -> int:
    from .compare.cli import run

    def report_files(result):  # the figures (matplotlib) only when --out asks for them
        from .compare.figures import report_files as files

        return files(result)

    return run(args, save=report_files)


def _data(args, parser) -> int:
    from . import data
    from .data.tables import TABLES, verify_tables

    try:
        if args.action == "fetch":
            data.fetch(args.only)
        elif args.action == "prepare":
            data.prepare(args.only)
        else:
            # a name can be both a source and a table (llmfao, sst5, ceval): verify both
            sources = {s.name for s in data.load_registry()}
            unknown = sorted(n for n in args.only or [] if n not in sources and n not in TABLES)
            if unknown:
                raise ValueError(f"unknown source or table {unknown}; sources: {sorted(sources)}; "
                                 f"tables: {sorted(TABLES)}")
            raw_only = [n for n in args.only or [] if n in sources] or None
            table_only = [n for n in args.only or [] if n in TABLES] or None
            report = data.verify(raw_only) if not args.only or raw_only else {}
            if not args.only or table_only:
                report |= verify_tables(table_only)
            # a table not prepared yet is not damage: `make data` builds it
            pending = sorted(k for k, v in report.items() if v == "missing" and k.startswith("processed/"))
            bad = {k: v for k, v in report.items() if v != "ok" and k not in pending}
            for path, state in sorted(bad.items()):
                print(f"{state}: {path}", file=sys.stderr)
            note = f"; {len(pending)} table(s) not prepared yet (`make data`)" if pending else ""
            print(f"data verify: {len(report) - len(bad) - len(pending)} ok, {len(bad)} missing or corrupt{note}",
                  file=sys.stderr)
            return 1 if bad else 0
    except ValueError as exc:  # an unknown source or table name: a usage error
        parser.error(str(exc))
    except (data.DataError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
