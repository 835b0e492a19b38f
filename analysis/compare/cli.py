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
#: more resamples than this change no interval's printed digits and only make the command look hung
MAX_RESAMPLES = 1_000_000
#: the bootstrap keeps every resample's P matrix: refuse settings that would need more memory than this
MAX_DRAW_BYTES = 4 * 2**30


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


class UsageError(ValueError):
    """A bad option value; the message names the option."""


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


def _number(text, option: str, low: float | None = None, high: float | None = None, low_open: bool = False) -> float:
    span = ("a number" + (f" {'>' if low_open else '>='} {low:g}" if low is not None and high is None else "")
            + (f" from {low:g} to {high:g}" if low is not None and high is not None else ""))
    try:
        value = float(str(text).strip())
    except ValueError:
        raise UsageError(f"{option} must be {span}, got {text!r}") from None
    if not math.isfinite(value) or (low is not None and (value < low or (low_open and value == low))) or (
            high is not None and value > high):
        raise UsageError(f"{option} must be {span}, got {text}")
    return value


def peer_options(args, judgment_file: bool) -> dict:
    """The peers' options (issue 53), checked: each an error where it does not apply (the message names it)."""
    out = {}
    ties = args.ties
    if ties is not None and ties not in ("half", "loss"):
        weight = _number(ties, "--ties", 0, 1)
        if not judgment_file:
            raise UsageError(f"--ties {ties}: a tie weight applies to pairwise judgment files; a score file's ties "
                             "are half or loss")
        out["tie_weight"] = weight
    if args.elo_k is not None:
        out["elo_k"] = _number(args.elo_k, "--elo-k", 0, low_open=True)
    if args.elo_initial is not None:
        out["elo_initial"] = _number(args.elo_initial, "--elo-initial")
    if args.elo_order is not None:
        if not judgment_file:
            raise UsageError("--elo-order applies to pairwise judgment files (a score file's games have no file "
                             "order; Elo there is the mean of random orders of its instances)")
        out["elo_order"] = args.elo_order
    if args.anchor is not None:
        system, sep, rating = args.anchor.rpartition("=")
        if not sep or not system.strip():
            raise UsageError(f"--anchor expects SYSTEM=RATING, got {args.anchor!r}")
        if not judgment_file or args.scale != "elo":
            raise UsageError("--anchor applies with --scale elo on a pairwise judgment file (it shifts the arena "
                             "ratings)")
        out["anchor"] = (system.strip(), _number(rating, "--anchor's RATING"))
    return out


def _integer(text, option: str, low: int, high: int | None = None) -> int:
    span = f">= {low}" if high is None else f"from {low} to {high:,}"
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"{option} must be an integer {span}, got {text!r}") from None
    if value < low or (high is not None and value > high):
        raise UsageError(f"{option} must be an integer {span}, got {value:,}")
    return value


def options(args) -> dict:
    """The numeric options, checked (each error names its option)."""
    out = {"seed": _integer(args.seed, "--seed", 0),
           "n_resamples": _integer(args.n_resamples, "--n-resamples", 2, MAX_RESAMPLES),
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
        args.input_format, fmt = (fmt if fmt != "auto" else args.input_format), None
    if fmt is not None and fmt not in OUTPUT_FORMATS:
        raise UsageError(f"--format must be one of {list(OUTPUT_FORMATS)}, got {args.format!r}")
    if fmt is not None and getattr(args, "json", None) == "-":
        raise UsageError(f"--format {fmt} does not apply with --json -: standard output holds the JSON, not the "
                         "tables; drop --format, or write the JSON to a file (--json PATH)")
    out["format"] = fmt or "text"
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


def _refuse_score_options(args) -> None:
    """Options that only a score file can use are errors on a judgment file, never silently ignored."""
    given = [(args.lower_is_better, "--lower-is-better", "a judgment names its winner"),
             (args.align not in (None, "auto"), "--align", "judgments need no alignment"),
             (args.ties == "loss", "--ties", "loss is a score file's policy; a judgment file's ties are half a win "
              "each, or a tie weight W with --ties W")]
    for on, option, why in given:
        if on:
            raise UsageError(f"{option} does not apply to a pairwise judgment file: {option} ({why})")


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


def _check_memory(n_resamples: int, n_systems: int) -> None:
    need = n_resamples * n_systems * n_systems * 8
    if need > MAX_DRAW_BYTES:
        fit = max(2, MAX_DRAW_BYTES // (n_systems * n_systems * 8))
        raise UsageError(f"--n-resamples {n_resamples:,} with {n_systems} systems would keep {need / 2**30:.1f} GiB "
                         f"of resampled P matrices; use at most {fit:,}")
