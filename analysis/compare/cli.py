"""``python -m analysis compare``: arguments checked before anything is computed (each error names its option),
outputs checked writable and never the input file, the report printed within 100 columns or as Markdown, CSV or
LaTeX tables."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

OUTPUT_FORMATS = ("text", "markdown", "csv", "latex")
INPUT_FORMATS = ("auto", "long", "wide", "mtme", "judgments")
OUT_FILES = ("systems.csv", "prob.csv", "prob_low.csv", "prob_high.csv", "common.csv", "sign_p.csv",
             "wilcoxon_p.csv", "sign_p_adj.csv", "wilcoxon_p_adj.csv", "disagreement.csv", "stability.csv", "human.csv",
             "mechanisms.png", "mechanisms.svg", "pairwise.png", "pairwise.svg")
WIDTH = 100


JUDGMENT_COLUMNS = ("model_a", "model_b", "winner")


def is_judgment_file(path) -> bool:
    """A table whose header has ``model_a``, ``model_b`` and ``winner`` (any case)."""
    from ..data.scorefiles import ScoreFileError, _read_table

    path = Path(path)
    if not path.is_file() or path.name.endswith(".score"):
        return False
    try:
        columns = {str(c).strip().lower() for c in _read_table(path).frame.columns}
    except (ScoreFileError, ValueError, OSError, UnicodeDecodeError):
        return False
    return set(JUDGMENT_COLUMNS) <= columns


class UsageError(ValueError):
    """A bad option value; the message names the option."""


def add_arguments(cmp) -> None:
    cmp.add_argument("file", help="CSV/Parquet/JSONL scores (long: instance,system,score; or wide: a column per "
                     "system), an mt-metrics-eval .score file, or pairwise judgments (model_a,model_b,winner)")
    cmp.add_argument("--format", default="text", metavar="FORMAT",
                     help="how to print the tables: text (default, fits 100 columns), markdown, csv or latex")
    cmp.add_argument("--input-format", default="auto", choices=INPUT_FORMATS,
                     help="the file's layout (default: detected from its columns)")
    cmp.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                     help="long format: keep rows where COLUMN equals VALUE, e.g. --where metric=BLEU (repeatable, "
                     "one per column)")
    cmp.add_argument("--align", default="auto", choices=["auto", "exact", "intersect", "pairwise"],
                     help="systems scored on different instances: compare each pair on the instances both have "
                     "(pairwise; auto picks it for such a file), keep the common ones (intersect) or refuse (exact)")
    cmp.add_argument("--lower-is-better", action="store_true", help="the metric is an error (lower is better)")
    cmp.add_argument("--ties", default="half", choices=["half", "loss"],
                     help="BT and Elo: a tie is half a win (half) or a win for the later column (loss, the paper's code)")
    cmp.add_argument("--seed", default="2021", help="the bootstrap's random seed (an integer >= 0)")
    cmp.add_argument("--n-resamples", default="1000", help="bootstrap resamples for MEAN, MEDIAN, BT (>= 2)")
    cmp.add_argument("--n-resamples-sequential", default="auto",
                     help="bootstrap resamples for Elo and TrueSkill, which replay every game (0 or >= 2; default: 100, "
                     "or fewer but at least 20 where 100 would replay more than 40 million games)")
    cmp.add_argument("--alpha", default="0.05", help="significance level of the pairwise tests (between 0 and 1)")
    cmp.add_argument("--interval", default="percentile", choices=["percentile", "bca"],
                     help="bootstrap interval: percentile (default) or BCa (bias-corrected and accelerated)")
    cmp.add_argument("--adjust", default="holm", choices=["holm", "bh", "none"],
                     help="p-values adjusted for the number of pairs: Holm (default), Benjamini-Hochberg, or none")
    cmp.add_argument("--human", metavar="FILE",
                     help="human ratings of the same instances and systems (any score-file layout; higher is better): "
                     "adds the sign accuracy and the Favi-Score of every pair of systems")
    cmp.add_argument("--json", metavar="PATH", help="write every result as JSON to PATH ('-': standard output)")
    cmp.add_argument("--out", metavar="DIR", help="also save the tables (CSV) and figures (PNG, SVG) in DIR")


def _integer(text, option: str, low: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"{option} must be an integer >= {low}, got {text!r}") from None
    if value < low:
        raise UsageError(f"{option} must be an integer >= {low}, got {value}")
    return value


def options(args) -> dict:
    """The numeric options, checked (each error names its option)."""
    out = {"seed": _integer(args.seed, "--seed", 0), "n_resamples": _integer(args.n_resamples, "--n-resamples", 2),
           "n_resamples_sequential": (None if args.n_resamples_sequential == "auto" else
                                      _integer(args.n_resamples_sequential, "--n-resamples-sequential", 0))}
    if out["n_resamples_sequential"] == 1:
        raise UsageError("--n-resamples-sequential must be 0 (no Elo/TrueSkill intervals) or >= 2, got 1")
    try:
        alpha = float(args.alpha)
    except ValueError:
        raise UsageError(f"--alpha must be a number between 0 and 1, got {args.alpha!r}") from None
    if not (math.isfinite(alpha) and 0 < alpha < 1):
        raise UsageError(f"--alpha must be a number strictly between 0 and 1, got {args.alpha}")
    out["alpha"] = alpha
    fmt = args.format
    if fmt in INPUT_FORMATS and fmt != "auto" or (fmt == "auto"):  # the first version's --format was the layout
        args.input_format, fmt = (fmt if fmt != "auto" else args.input_format), "text"
    if fmt not in OUTPUT_FORMATS:
        raise UsageError(f"--format must be one of {list(OUTPUT_FORMATS)}, got {args.format!r}")
    out["format"] = fmt
    where = {}
    for item in args.where:
        column, sep, value = item.partition("=")
        if not sep or not column.strip():
            raise UsageError(f"--where expects COLUMN=VALUE, got {item!r}")
        if column.strip() in where:
            raise UsageError(f"--where names column {column.strip()!r} twice ({where[column.strip()]!r} and "
                             f"{value!r}); a row has one value per column")
        where[column.strip()] = value.strip()
    out["where"] = where
    return out


def check_outputs(args) -> None:
    """Refuse outputs that would overwrite the input, and outputs that cannot be written, before any work."""
    source = Path(args.file).resolve()
    if getattr(args, "human", None) and Path(args.human).resolve() == source:
        raise UsageError("--human names the score file itself; give the human ratings' file")
    targets = []
    if args.json and args.json != "-":
        targets.append(("--json", Path(args.json)))
    if args.out:
        folder = Path(args.out)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"--out {args.out}: exists and is not a folder")
        targets += [("--out", folder / name) for name in OUT_FILES]
    for option, path in targets:
        if path.resolve() == source:
            raise UsageError(f"{option} would overwrite the input file {args.file}; choose another path")
    if args.json and args.json != "-":
        _writable(Path(args.json).resolve().parent, "--json")
        if Path(args.json).is_dir():
            raise UsageError(f"--json {args.json}: is a folder; give a file name")
    if args.out:
        try:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out {args.out}: cannot create the folder ({exc.strerror})") from None
        _writable(Path(args.out), "--out")


def _writable(folder: Path, option: str) -> None:
    if not folder.is_dir():
        raise UsageError(f"{option}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{option}: folder {folder} is not writable")


def run(args, save=None) -> int:
    """The command; ``save(result, folder)`` writes the ``--out`` files (the chapter's figures)."""
    from ..data.scorefiles import ScoreFileError, is_complete, read_judgments, read_scores
    from . import judgments
    from .core import compare

    start = time.perf_counter()
    try:
        opts = options(args)
        check_outputs(args)
        say = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731
        common = dict(rng=opts["seed"], n_resamples=opts["n_resamples"],
                      n_resamples_sequential=opts["n_resamples_sequential"], alpha=opts["alpha"],
                      interval=args.interval, adjust=args.adjust, progress=say)
        if args.input_format == "judgments" or (args.input_format == "auto" and is_judgment_file(args.file)):
            games = read_judgments(args.file, where=opts["where"])
            n_sys = len(set(games["left"]) | set(games["right"]))
            print(f"compare: {n_sys} systems, {len(games):,} pairwise judgments from {args.file} "
                  "(each judgment one unit of the bootstrap)", file=sys.stderr)
            result = judgments.compare_judgments(games, **common)
        else:
            scores = read_scores(args.file, args.input_format, where=opts["where"], align=args.align)
            complete = is_complete(scores)
            first = (f"compare: {scores.shape[1]} systems x {scores.shape[0]:,} instances from {args.file}"
                     + ("" if complete else ", incomplete: each pair compared on the instances both systems have "
                        f"(--align pairwise; {int(scores.notna().to_numpy().sum()):,} of "
                        f"{scores.size:,} scores present)"))
            print(first, file=sys.stderr)
            human = read_scores(args.human, align="pairwise") if args.human else None
            result = compare(scores, ties=args.ties, lower_is_better=args.lower_is_better, human=human, **common)
    except (ScoreFileError, UsageError, ValueError, FloatingPointError) as exc:
        print(f"error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    result.settings.update(file=str(args.file))
    if args.json:
        text = json.dumps(result.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.json != "-":
        from .report import print_report

        print_report(result, opts["format"])
    if args.out and save is not None:
        save(result, args.out)
        print(f"compare: tables and figures in {args.out}", file=sys.stderr)
    print(f"compare: done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0
