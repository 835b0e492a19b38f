"""Command line of the compendium.

``python -m analysis reproduce [--profile quick|full] [--only CHAPTER ...] [--jobs N]``: run the chapters;
``python -m analysis outputs verify``: check the generated files against the manifest (``outputs prune``: remove
the outputs of chapters that no longer have a notebook);
``python -m analysis data fetch|verify|prepare``: the data;
``python -m analysis claims``: every paper claim's verdict, computed from the saved outputs (``claims.csv`` and the
book's claims pages under ``book/_generated/``);
``python -m analysis compare FILE``: compare the systems in your own score file with every method in the book.
"""

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
    outs = sub.add_parser("outputs", help="check the generated book files against the manifest")
    outs.add_argument("action", choices=["verify", "prune"],
                      help="verify: every chapter recorded and its files as recorded; prune: remove the outputs of "
                      "recorded chapters whose notebook is gone")
    outs.add_argument("--output-root", metavar="DIR", help="the runner's output folder (default: book/_generated)")
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
                         description="Rank the systems of FILE with MEAN, MEDIAN, BT, Elo and TrueSkill (95%% "
                         "bootstrap intervals), test every pair, measure how much the mechanisms disagree and whether "
                         "removing the best or worst system reorders the rest.")
    cmp.add_argument("file", help="CSV/Parquet (long: instance,system,score; or wide: a column per system) or an "
                     "mt-metrics-eval .score file")
    cmp.add_argument("--format", default="auto", choices=["auto", "long", "wide", "mtme"])
    cmp.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                     help="long format: keep rows where COLUMN equals VALUE, e.g. --where metric=BLEU (repeatable)")
    cmp.add_argument("--align", default="exact", choices=["exact", "intersect"],
                     help="systems scored on different instances: refuse (exact) or keep the common ones")
    cmp.add_argument("--lower-is-better", action="store_true", help="the metric is an error (lower is better)")
    cmp.add_argument("--ties", default="half", choices=["half", "loss"],
                     help="BT and Elo: a tie is half a win (half) or a win for the later column (loss, the paper's code)")
    cmp.add_argument("--seed", type=int, default=2021)
    cmp.add_argument("--n-resamples", type=int, default=1000, help="bootstrap resamples for MEAN, MEDIAN, BT")
    cmp.add_argument("--n-resamples-sequential", type=int, default=100,
                     help="bootstrap resamples for Elo and TrueSkill, which replay every game (default 100)")
    cmp.add_argument("--alpha", type=float, default=0.05, help="significance level of the pairwise tests")
    cmp.add_argument("--json", metavar="PATH", help="write every result as JSON to PATH ('-': standard output)")
    cmp.add_argument("--out", metavar="DIR", help="also save the tables (CSV) and figures (PNG, SVG) in DIR")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["claims"]:
        from . import claims

        return claims.main(argv[1:])
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
        if args.action == "prune":
            try:
                reproduce.prune(args.output_root)
            except ValueError as exc:
                print(f"outputs prune: error: {exc}", file=sys.stderr)
                return 1
            return 0
        return _verify_outputs(reproduce, args.output_root)
    try:
        runs = reproduce.run(profile=args.profile, only=args.only, jobs=args.jobs, output_root=args.output_root)
    except ValueError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print("\nreproduce: interrupted; every chapter keeps its last good outputs (the manifest says which)",
              file=sys.stderr)
        return 130
    failed = [r.chapter for r in runs if r.status != "ok"]
    if failed:
        print(f"reproduce: {len(failed)} chapter(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def _verify_outputs(reproduce, root: str | None) -> int:
    from pathlib import Path

    try:
        report = reproduce.verify_outputs(root)
        entries = reproduce.read_manifest(root)
    except ValueError as exc:  # a damaged manifest (ManifestError) or no output root
        backup = (Path(root) if root else reproduce.generated_dir()) / reproduce.BACKUP
        hint = f" ({backup.name} is there: the next reproduce restores the manifest from it)" if backup.is_file() else ""
        print(f"outputs verify: error: {exc}{hint}", file=sys.stderr)
        return 1
    for chapter, problems in report.items():
        for problem in problems:
            print(f"{chapter}: {problem}", file=sys.stderr)
    bad = [c for c, problems in report.items() if problems]
    for chapter, entry in entries.items():
        failure = entry.get("last_failure") or (entry if entry.get("status") != "ok" else None)
        if failure:
            first = (failure.get("error") or "no error recorded").splitlines()[0]
            failed = Path(root) if root else reproduce.generated_dir()
            where = f" (failed/{chapter}.ipynb)" if (failed / "failed" / f"{chapter}.ipynb").is_file() else ""
            kept = ("what is on disk is its last good run" if entry.get("status") == "ok"
                    else "it has no good run on disk")
            print(f"{chapter}: its last run failed{where}: {first}; {kept}", file=sys.stderr)
    print(f"outputs verify: {len(report) - len(bad)} chapter(s) as recorded in the manifest, {len(bad)} not",
          file=sys.stderr)
    return 1 if bad or not report else 0


def _compare(args) -> int:
    import json
    import time

    from .compare import compare
    from .data.scorefiles import ScoreFileError, read_scores

    where = {}
    for item in args.where:
        column, sep, value = item.partition("=")
        if not sep:
            print(f"error: --where expects COLUMN=VALUE, got {item!r}", file=sys.stderr)
            return 2
        where[column] = value
    start = time.perf_counter()
    try:
        scores = read_scores(args.file, args.format, where=where, align=args.align,
                             lower_is_better=args.lower_is_better)
    except ScoreFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"compare: {scores.shape[1]} systems x {scores.shape[0]:,} instances from {args.file}", file=sys.stderr)
    try:
        result = compare(scores, ties=args.ties, rng=args.seed, n_resamples=args.n_resamples,
                         n_resamples_sequential=args.n_resamples_sequential,
                         progress=lambda msg: print(f"  {msg}", file=sys.stderr, flush=True))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result.settings.update(file=str(args.file), lower_is_better=args.lower_is_better, alpha=args.alpha)
    if args.json:
        text = json.dumps(result.to_dict(), indent=2, ensure_ascii=False)
        if args.json == "-":
            print(text)
        else:
            from pathlib import Path

            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.json != "-":
        _print_report(result, args.alpha)
    if args.out:
        _save_report(result, args.out, args.alpha)
    print(f"compare: done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


def _print_report(result, alpha: float) -> None:
    import pandas as pd

    from .chapters.your_own_scores import ranking_table, stability_summary

    with pd.option_context("display.width", 200, "display.max_columns", None, "display.max_colwidth", 60):
        print("Systems (score [95% interval]) under each mechanism, sorted by BT:\n")
        print(ranking_table(result).to_string(), "\n")
        print(f"P(row beats column), ties as half; * sign test, † Wilcoxon, p < {alpha}:\n")
        print(result.marked_prob(alpha).to_string(), "\n")
        print("How much the mechanisms disagree on this data (share of system pairs ordered differently; "
              "different best system; different top-3 set):\n")
        print(result.disagreement.round(3).to_string(), "\n")
        print("Stability: does removing the best / worst system reorder the others?\n")
        print(stability_summary(result).to_string(), "\n", flush=True)


def _save_report(result, out: str, alpha: float) -> None:
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    from .chapters.your_own_scores import plot_mechanisms, plot_prob
    from .plotting import set_theme

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("systems", "prob", "sign_p", "wilcoxon_p", "disagreement", "stability"):
        getattr(result, name).to_csv(folder / f"{name}.csv", lineterminator="\n")
    set_theme()
    for name, fig in (("mechanisms", plot_mechanisms(result)), ("pairwise", plot_prob(result, alpha))):
        fig.savefig(folder / f"{name}.png", metadata={"Software": None})
        fig.savefig(folder / f"{name}.svg", metadata={"Date": None, "Creator": None})
    print(f"compare: tables and figures in {folder}", file=sys.stderr)


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
