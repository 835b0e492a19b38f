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
    sub.add_parser("chapters", help="list the chapters")
    args = parser.parse_args(argv)

    from . import reproduce

    if args.command == "chapters":
        print("\n".join(reproduce.discover()))
        return 0
    try:
        runs = reproduce.run(profile=args.profile, only=args.only, jobs=args.jobs)
    except ValueError as exc:
        parser.error(str(exc))
    failed = [r.chapter for r in runs if r.status != "ok"]
    if failed:
        print(f"reproduce: {len(failed)} chapter(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
