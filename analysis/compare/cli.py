"""``python -m analysis compare``: its arguments (:func:`add_arguments`) and the command (:func:`run`): option values
checked before anything is computed (each error names its option; :mod:`analysis.compare.options`), outputs checked
writable and never the input file (:mod:`analysis.compare.output_paths`), the file read and compared, the report
printed within 100 columns or as Markdown, CSV or LaTeX tables."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from .options import (
    INPUT_FORMATS,
    MAX_RESAMPLES,
    UsageError,
    _check_memory,
    _number,
    _refuse_score_options,
    options,
    peer_options,
)
from .output_paths import check_outputs, remove_leftovers

WIDTH = 100

JUDGMENT_COLUMNS = ("model_a", "model_b", "winner")


def is_judgment_file(path) -> bool:
    """A table whose header has the columns of a judgment layout (any case): ``model_a``, ``model_b`` and
    ``winner`` (arena, FastChat), ``team_1``, ``team_2`` (arena-rank) or ``left``, ``right`` (evalica) with a
    ``winner`` or ``outcome`` column (:data:`analysis.data.judgment_columns.JUDGMENT_LAYOUTS`)."""
    from ..data.judgment_columns import judgment_layout
    from ..data.scorefile_tables import ScoreFileError, _read_table

    path = Path(path)
    if not path.is_file() or path.name.endswith(".score"):
        return False
    try:
        columns = {str(c).strip().lower() for c in _read_table(path, header_only=True).frame.columns}
    except (ScoreFileError, ValueError, OSError, UnicodeDecodeError):
        return False
    return set(JUDGMENT_COLUMNS) <= columns or judgment_layout(columns) is not None


def add_arguments(cmp) -> None:
    cmp.add_argument("file", help="CSV/Parquet/JSONL scores (long: instance,system,score; or wide: a column per "
                     "system), an mt-metrics-eval .score file, or pairwise judgments (model_a,model_b,winner; "
                     "arena-rank's team_1,team_2,winner; evalica's left,right,winner; FastChat's .json array; "
                     "winner as a name, a code, or arena-rank's 1/0.5/0)")
    cmp.add_argument("--format", default=None, metavar="FORMAT",
                     help="how to print the tables: text (default, fits 100 columns), markdown, csv or latex (not "
                     "with --json -, which prints the JSON instead)")
    cmp.add_argument("--input-format", default="auto", choices=INPUT_FORMATS,
                     help="the file's layout (default: detected from its columns)")
    cmp.add_argument("--where", action="append", default=[], metavar="COLUMN=VALUE",
                     help="long format: keep rows where COLUMN equals VALUE, e.g. --where metric=BLEU (repeatable, "
                     "one per column)")
    cmp.add_argument("--align", default=None, choices=["auto", "exact", "intersect", "pairwise"],
                     help="systems scored on different instances: compare each pair on the instances both have "
                     "(pairwise; auto picks it for such a file), keep the common ones (intersect) or refuse (exact)")
    cmp.add_argument("--lower-is-better", action="store_true", help="the metric is an error (lower is better)")
    cmp.add_argument("--ties", default=None, metavar="half|loss|W",
                     help="BT and Elo: a tie is half a win (half) or a win for the later column "
                     "(loss, the paper's code, score files); judgment files: a tie weight W in [0, 1], each side "
                     "credited W wins in BT, the win rate and P (evalica's tie_weight; 0 drops ties)")
    cmp.add_argument("--elo-k", default=None, metavar="K",
                     help=f"Elo's step (default {sequential_defaults()[0]:g}; evalica and FastChat's online Elo: 4)")
    cmp.add_argument("--elo-initial", default=None, metavar="R",
                     help=f"Elo's starting rating (default {sequential_defaults()[1]:g}; evalica: 1000)")
    cmp.add_argument("--elo-order", default=None, choices=["random", "file"],
                     help="judgment files: Elo as the mean of random orders of the judgments (random, default) or "
                     "played once in the file's order (file, as evalica and FastChat's online Elo)")
    cmp.add_argument("--anchor", default=None, metavar="SYSTEM=RATING",
                     help="with --scale elo: shift the arena ratings so that SYSTEM has RATING (FastChat anchors "
                     "mixtral-8x7b-instruct-v0.1 at 1114)")
    cmp.add_argument("--seed", default="2021", help="the bootstrap's random seed (an integer >= 0)")
    cmp.add_argument("--n-resamples", default="1000",
                     help=f"bootstrap resamples for MEAN, MEDIAN, BT (2 to {MAX_RESAMPLES:,})")
    cmp.add_argument("--n-resamples-sequential", default="auto",
                     help="bootstrap resamples for Elo and TrueSkill, which replay every game (0 or >= 2; default: "
                     "100, or fewer where 100 would replay more than 40 million games, but at least 20 for a score "
                     "file and 10 for a judgment file)")
    cmp.add_argument("--alpha", default="0.05", help="significance level of the pairwise tests (between 0 and 1)")
    cmp.add_argument("--interval", default="auto", choices=["auto", "percentile", "bca", "sandwich"],
                     help="intervals: percentile or BCa (bias-corrected and accelerated) bootstrap, or, for judgment "
                     "files, BT's sandwich (robust) covariance without resampling; auto (default): sandwich for "
                     "judgment files from 1,000,000 judgments on, else percentile")
    cmp.add_argument("--covariates", default=None, metavar="COL,COL",
                     help="judgment files: style control, BT fitted jointly with these columns (each the per-judgment "
                     "difference between the two responses, e.g. len_diff): controlled strengths beside the plain "
                     "ones, and each covariate's coefficient with its interval; A:B takes raw per-side features, "
                     "column A less column B, as arena-rank and FastChat do")
    cmp.add_argument("--covariates-reg", default=None, metavar="R",
                     help="with --covariates: arena-rank's contextual BT, an L2 penalty R on the coefficients of the "
                     "mean log-likelihood (arena-rank's default 1; 0 without a penalty) and arena-rank's sandwich")
    cmp.add_argument("--covariates-reweight", action="store_true",
                     help="with --covariates: arena-rank's inverse-propensity weights, 1 / max(judgments of the pair, "
                     "50) over their mean (on by default in arena-rank's contextual BT)")
    cmp.add_argument("--covariates-normalise", action="store_true",
                     help="with --covariates: standardise each covariate (less its mean, over its standard deviation), "
                     "as arena-rank (by default) and FastChat do")
    cmp.add_argument("--scale", default="strength", choices=["strength", "elo"],
                     help="judgment files: print BT as strengths summing to 1 (default) or as arena ratings "
                     "(400 points per factor of ten in the odds, centred on 1000)")
    cmp.add_argument("--adjust", default="holm", choices=["holm", "bh", "none"],
                     help="p-values adjusted for the number of pairs: Holm (default), Benjamini-Hochberg, or none")
    cmp.add_argument("--human", metavar="FILE",
                     help="human ratings of the same instances and systems (any score-file layout; higher is better): "
                     "adds the sign accuracy and the Favi-Score of every pair of systems")
    cmp.add_argument("--json", metavar="PATH", help="write every result as JSON to PATH ('-': standard output)")
    cmp.add_argument("--out", metavar="DIR", help="also save the tables (CSV) and figures (PNG, SVG) in DIR")


def sequential_defaults() -> tuple[float, float]:
    """Elo's default step and starting rating (:mod:`analysis.compare.sequential`)."""
    from .sequential import ELO_INITIAL, ELO_K

    return ELO_K, ELO_INITIAL


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived; ``code`` is the exit code (130 or 143)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def _on_signal(signum, frame):
    raise Interrupted(128 + signum)


def _interrupt_code(exc: BaseException) -> int | None:
    """The exit code of an interrupt, also when it surfaces wrapped (a compiled kernel returns a result with the
    interrupt set and Python reports a SystemError whose context is the interrupt)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, Interrupted):
            return exc.code
        if isinstance(exc, KeyboardInterrupt):
            return 130
        exc = exc.__cause__ or exc.__context__
    return None


def _error(message: str) -> int:
    print(f"error: {message.splitlines()[0]}", file=sys.stderr)
    return 2


def run(args, save=None) -> int:
    """The command; ``save(result)`` returns the ``--out`` files as ``{name: write(path)}`` (the chapter's figures).
    Every output is written to a temporary file first and renamed into place when all are complete
    (:func:`analysis.files.write_together`): a failed write is a one-line error (exit 2) and an interrupt a one-line
    note (exit 130 for Ctrl-C, 143 for SIGTERM), and both leave every earlier output as it was."""
    import signal

    if sys.stderr is None:  # `2>&-`: print(file=None) would send the messages to standard output, into the report
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # for the rest of the process
    if sys.stdout is None:  # `>&-`: the report would go nowhere
        return _error("standard output is closed; the report is printed there: redirect it to a file or /dev/null "
                      "instead of closing it")
    handlers = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    written = []
    try:
        return _run(args, save, written)
    except BaseException as exc:
        code = _interrupt_code(exc)
        if code is None:
            raise
        done = f"; written in full: {', '.join(written)}" if written else "; nothing written"
        print(f"compare: interrupted{done}", file=sys.stderr)
        return code
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def _run(args, save, written: list) -> int:
    from ..data.scorefile_tables import ScoreFileError
    from ..data.scorefiles import is_complete, n_systems, read_judgments, read_scores
    from ..files import WriteError, write_together
    from . import judgments
    from .core import compare
    from .report import notes

    start = time.perf_counter()
    try:
        opts = options(args)
        targets = check_outputs(args)
        remove_leftovers(targets)
        say = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)  # noqa: E731
        judgment_file = args.input_format == "judgments" or (args.input_format == "auto" and
                                                              is_judgment_file(args.file))
        common = dict(rng=opts["seed"], n_resamples=opts["n_resamples"],
                      n_resamples_sequential=opts["n_resamples_sequential"], alpha=opts["alpha"],
                      interval=args.interval, adjust=args.adjust, progress=say)
        if args.interval == "sandwich" and not judgment_file:
            raise UsageError("--interval sandwich applies to pairwise judgment files (BT on counted judgments); use "
                             "percentile or bca")
        if args.scale != "strength" and not judgment_file:
            raise UsageError("--scale elo applies to pairwise judgment files (arena ratings)")
        covariates = [c.strip() for c in (args.covariates or "").split(",") if c.strip()]
        if args.covariates is not None and not covariates:
            raise UsageError("--covariates expects column names separated by commas")
        if covariates and not judgment_file:
            raise UsageError("--covariates applies to pairwise judgment files (per-judgment differences)")
        if len(set(covariates)) < len(covariates):
            raise UsageError(f"--covariates names a column twice: {covariates}")
        bad = [c for c in covariates if c.count(":") > 1 or (":" in c and not all(x.strip() for x in c.split(":")))]
        if bad:
            raise UsageError(f"--covariates {bad[0]!r}: raw per-side features are written A:B (column A less B)")
        covariates = [":".join(x.strip() for x in c.split(":")) for c in covariates]
        columns = list(dict.fromkeys(x for c in covariates for x in c.split(":")))
        style_options = None
        if args.covariates_reg is not None or args.covariates_reweight or args.covariates_normalise:
            given = ("--covariates-reg" if args.covariates_reg is not None else
                     "--covariates-reweight" if args.covariates_reweight else "--covariates-normalise")
            if not covariates:
                raise UsageError(f"{given} applies with --covariates (style control)")
            style_options = {"reg": 0.0 if args.covariates_reg is None else _number(args.covariates_reg,
                                                                                      "--covariates-reg", 0),
                             "reweight": bool(args.covariates_reweight),
                             "normalise": bool(args.covariates_normalise)}
        if not judgment_file and args.interval == "auto":
            common["interval"] = "percentile"
        peers = peer_options(args, judgment_file)
        if not judgment_file:
            common.update({k: v for k, v in peers.items() if k in ("elo_k", "elo_initial")})
        if judgment_file:
            _refuse_score_options(args)
            games = read_judgments(args.file, where=opts["where"], item=bool(args.human), covariates=columns)
            human, human_note = None, ""
            if args.human:
                if not is_judgment_file(args.human):
                    raise UsageError(f"--human {args.human}: a judgment file is compared with human judgments "
                                     "(model_a, model_b, winner and an item id column), not with scores")
                human = read_judgments(args.human, item=True)
                human_note = (f"; --human {args.human}: {len(human):,} verdicts, winners read as "
                              f"{_vocabulary(human.attrs)}" + _ignored(human.attrs))
            n_sys = n_systems(games)
            _check_memory(opts["n_resamples"], n_sys)
            print(f"compare: {n_sys} systems, {_judgments_read(games)} from {args.file}{_layout(games.attrs)}; "
                  f"winners read as {_vocabulary(games.attrs)}" + _ignored(games.attrs) + human_note, file=sys.stderr)
            result = judgments.compare_judgments(games, covariates=covariates, style_options=style_options, **common,
                                                 **peers)
            if human is not None:
                import dataclasses

                from .human import judge_table

                frame, summary = judge_table(games, human, n_resamples=opts["n_resamples"], rng=opts["seed"],
                                             confidence=0.95)
                result = dataclasses.replace(result, human=frame, settings={**result.settings, "human": summary})
        else:
            scores = read_scores(args.file, args.input_format, where=opts["where"], align=args.align or "auto")
            _check_memory(opts["n_resamples"], scores.shape[1])
            complete = is_complete(scores)
            first = (f"compare: {scores.shape[1]} systems x {scores.shape[0]:,} instances from {args.file}"
                     + ("" if complete else ", incomplete: each pair compared on the instances both systems have "
                        f"(--align pairwise; {int(scores.notna().to_numpy().sum()):,} of "
                        f"{scores.size:,} scores present)"))
            first += _id_note(scores.attrs) + _ignored(scores.attrs)
            human = None
            if args.human:
                if is_judgment_file(args.human):
                    raise UsageError(f"--human {args.human}: a file of pairwise judgments; a score file is compared "
                                     "with human ratings (scores) of the same instances and systems")
                human = read_scores(args.human, align="pairwise")
                first += _human_match(scores, human, args)
                note = _id_note(human.attrs) + _ignored(human.attrs)
                first += f"; --human {args.human}{note}" if note else ""
            print(first, file=sys.stderr)
            result = compare(scores, ties=args.ties or "half", lower_is_better=args.lower_is_better, human=human,
                             **common)
    except (ScoreFileError, UsageError, ValueError, FloatingPointError) as exc:
        return _error(str(exc))
    result.settings.update(file=str(args.file), scale=args.scale)
    text = json.dumps(result.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) if args.json else ""
    files = {path: (lambda tmp, text=text: Path(tmp).write_text(text + "\n", encoding="utf-8"))
             for path, option in targets.items() if option == "--json"}
    if args.out and save is not None:
        folder = Path(args.out)
        files |= {folder / name: write for name, write in save(result).items()}
    try:
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        if args.json and args.json != "-":
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)  # inside --out (checked): made like it
        write_together(files)
    except WriteError as exc:
        return _error(f"cannot write {exc.path}: {exc.reason}; earlier outputs are unchanged")
    except OSError as exc:
        return _error(f"cannot write {args.out}: {exc.strerror or exc}; earlier outputs are unchanged")
    written += sorted({str(args.json) for p, o in targets.items() if o == "--json"}
                      | ({str(args.out)} if args.out and save is not None else set()))
    try:
        if args.json == "-":
            print(text)
        else:
            from .report import print_report

            print_report(result, opts["format"])
        sys.stdout.flush()
        if args.json == "-" or opts["format"] != "text":
            for note in notes(result):
                print(note, file=sys.stderr)
    except BrokenPipeError:  # the reader (`| head`) stopped reading: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:
        return _error(f"cannot write the report to standard output: {exc.strerror or exc}")
    if args.out and save is not None:
        print(f"compare: tables and figures in {args.out}", file=sys.stderr)
    print(f"compare: done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


def _vocabulary(attrs: dict) -> str:
    """How the file's winner cells were read, with their counts ('model_a' 120 = left wins, ...)."""
    words = attrs.get("winner_words") or {}
    return ", ".join(f"{cell!r} = {meaning} ({n:,})" for cell, (meaning, n) in words.items())


def _layout(attrs: dict) -> str:
    """The first line's note of the judgment layout recognised by its columns, and of a numeric winner column."""
    layout = attrs.get("layout")
    note = f" ({layout} layout)" if layout else ""
    if attrs.get("numeric_outcomes"):
        note += f", numeric winners read as {attrs['numeric_outcomes']}"
    return note


def _judgments_read(games) -> str:
    """The first line's count: the judgments, or with weights other than 1 the rows and the judgments their weights
    hold (a ``weight`` of 5 is five judgments for BT and the win rate)."""
    weight = games["weight"].to_numpy()
    if (weight == 1).all():
        return f"{len(games):,} pairwise judgments (each judgment one unit)"
    return (f"{len(games):,} rows of pairwise judgments holding {weight.sum():,.6g} judgments by their weights "
            "(column weight; each row one unit of the bootstrap)")


def _id_note(attrs: dict) -> str:
    """A wide file's first column taken for the instance ids (named like them) rather than a system."""
    column = attrs.get("id_column")
    return f"; column {column!r} read as the instance ids, not a system" if column is not None else ""


def _ignored(attrs: dict) -> str:
    """The first line's note of the columns the reader did not use."""
    cols = attrs.get("ignored") or []
    return f"; ignored columns: {', '.join(map(str, cols))}" if cols else ""


def _human_match(scores, human, args) -> str:
    """How the human ratings are matched to the scores: by instance id, or by row position only where neither file
    names its instances (a file with ids against one without is refused: its rows could be in any order)."""
    ids, human_ids = scores.attrs.get("ids", False), human.attrs.get("ids", False)
    if ids != human_ids:
        named, unnamed = (args.file, args.human) if ids else (args.human, args.file)
        raise UsageError(f"--human: {named} names its instances but {unnamed} does not, so their rows cannot be "
                         f"matched; add an instance id column to {unnamed}")
    if not ids:
        if len(human) != len(scores):
            raise UsageError(f"--human: neither file names its instances and they have {len(scores):,} and "
                             f"{len(human):,} rows; add an instance id column to both")
        return "; human ratings matched by row position (neither file names its instances)"
    return ""
