"""Command line: ``python -m analysis reproduce [--profile quick|full] [--only CHAPTER ...] [--jobs N]``."""

from __future__ import annotations

import argparse
import sys

from .profiles import PROFILES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="execute the chapter notebooks with papermill into book/_generated/")
    rep.add_argument("--profile", default="full", choices=sorted(PROFILES), help="parameter profile (default: full)")
    rep.add_argument("--only", action="append", metavar="CHAPTER", help="run only this chapter (repeatable)")
    rep.add_argument("--jobs", type=int, default=1, help="chapters to run in parallel (default: 1)")
    rep.add_argument("--output-root", metavar="DIR", help="write artefacts here instead of book/_generated")
    sub.add_parser("chapters", help="list the chapters")
    data = sub.add_parser("data", help="fetch, verify and prepare the data (see data/README.md)")
    data.add_argument("action", choices=["fetch", "verify", "prepare"])
    data.add_argument("--only", action="append", metavar="NAME", help="a source (fetch, verify) or table (prepare)")
    args = parser.parse_args(argv)

    from . import reproduce

    if args.command == "data":
        return _data(args, parser)
    if args.command == "chapters":
        print("\n".join(reproduce.discover()))
        return 0
    try:
        runs = reproduce.run(profile=args.profile, only=args.only, jobs=args.jobs, output_root=args.output_root)
    except ValueError as exc:
        parser.error(str(exc))
    failed = [r.chapter for r in runs if r.status != "ok"]
    if failed:
        print(f"reproduce: {len(failed)} chapter(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _data(args, parser) -> int:
    from . import data

    try:
        if args.action == "fetch":
            data.fetch(args.only)
        elif args.action == "prepare":
            data.prepare(args.only)
        else:
            report = data.verify(args.only)
            bad = {k: v for k, v in report.items() if v != "ok"}
            for path, state in sorted(bad.items()):
                print(f"{state}: {path}", file=sys.stderr)
            print(f"data verify: {len(report) - len(bad)} ok, {len(bad)} missing or corrupt", file=sys.stderr)
            return 1 if bad else 0
    except ValueError as exc:
        parser.error(str(exc))
    except (data.DataError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
