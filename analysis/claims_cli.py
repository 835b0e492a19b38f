"""``python -m analysis claims``: evaluate the claims registry against the chapters' saved outputs
(:func:`analysis.claims.evaluate`), write ``claims.csv`` and the claims pages (:mod:`analysis.claims_pages`), and
print the verdicts counted per paper."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .claim_records import PAPERS, VERDICTS, ClaimError, load
from .claims import evaluate
from .claims_pages import PageError, write
from .paths import generated_dir


def _profile(outputs: Path) -> str | None:
    """The profile(s) the manifest records for the outputs (None without a readable manifest)."""
    from .manifest import read_manifest

    try:
        entries = read_manifest(outputs)
    except ValueError:  # a damaged manifest: the verdicts still stand, the line naming the profile is left out
        return None
    return ", ".join(sorted({e.get("profile") for e in entries.values() if e.get("profile")})) or None


def _counts(rows) -> str:
    """"7 reproduced, 2 not reproduced": a paper's verdicts counted, for the console."""
    found = rows.verdict.value_counts()
    return ", ".join(f"{found[v]} {v}" for v in VERDICTS if v in found)


def main(argv: list[str] | None = None, stream=None) -> int:
    """Evaluate, write, print; exit 1 when any claim is "not run", 2 (one line on stderr) when the registry is
    missing or malformed (nothing is written) or the files cannot be written."""
    stream = stream or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m analysis claims", description=__doc__.split("\n\n")[0])
    parser.add_argument("--outputs", help="the generated outputs folder (default: book/_generated)")
    parser.add_argument("--registry", help="the claims registry folder (default: data/published/claims)")
    parser.add_argument("--paper", action="append", choices=list(PAPERS),
                        help="only this paper's claims, printed, no file written (repeatable; default: all, written)")
    args = parser.parse_args(argv)
    outputs = Path(args.outputs) if args.outputs else generated_dir()
    try:  # a malformed or missing registry writes nothing: the book keeps its last claims.csv and pages
        registry = load(args.registry)
    except ClaimError as exc:
        print(f"claims: error: {exc}", file=sys.stderr)
        return 2
    table = evaluate([c for c in registry if not args.paper or c.paper in args.paper], outputs)
    if not args.paper:  # a partial table never replaces the book's claims.csv and pages
        try:
            write(table, outputs, _profile(outputs))
        except PageError as exc:  # a headline's value missing (its chapter did not record it): nothing is written
            print(f"claims: error: cannot write the claims pages: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"claims: error: cannot write the claims files under {outputs}: {exc.strerror or exc} "
                  f"({exc.filename or outputs})", file=sys.stderr)
            return 2
    for paper in PAPERS:
        rows = table[table.paper == paper]
        if len(rows):
            print(f"claims: {paper}: {len(rows)} ({_counts(rows)})", file=stream)
    not_run = table[table.verdict == "not run"]
    for _, row in not_run.iterrows():
        print(f"claims: NOT RUN {row['paper']}.{row['id']}: {row['reason']}", file=stream)
    where = "printed only (--paper)" if args.paper else f"-> {outputs / 'claims.csv'}"
    print(f"claims: {len(table)} claims {where}", file=stream)
    return 1 if len(not_run) else 0
