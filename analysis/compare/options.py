"""The option values of ``python -m analysis compare`` checked before anything is computed (for
:mod:`analysis.compare.cli`): numbers and integers in their ranges, the output format, ``--where``, the peers' options
(``--ties W``, ``--elo-*``, ``--anchor``) and the score-file options each refused where it does not apply, and the
bootstrap's memory; every error is a :class:`UsageError` that names its option."""

from __future__ import annotations

import math

OUTPUT_FORMATS = ("text", "markdown", "csv", "latex")
INPUT_FORMATS = ("auto", "long", "wide", "mtme", "judgments")

#: more resamples than this change no interval's printed digits and only make the command look hung
MAX_RESAMPLES = 1_000_000
#: the bootstrap keeps every resample's P matrix: refuse settings that would need more memory than this
MAX_DRAW_BYTES = 4 * 2**30


class UsageError(ValueError):
    """A bad option value; the message names the option."""


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


def _refuse_score_options(args) -> None:
    """Options that only a score file can use are errors on a judgment file, never silently ignored."""
    given = [(args.lower_is_better, "--lower-is-better", "a judgment names its winner"),
             (args.align not in (None, "auto"), "--align", "judgments need no alignment"),
             (args.ties == "loss", "--ties", "loss is a score file's policy; a judgment file's ties are half a win "
              "each, or a tie weight W with --ties W")]
    for on, option, why in given:
        if on:
            raise UsageError(f"{option} does not apply to a pairwise judgment file: {option} ({why})")


def _check_memory(n_resamples: int, n_systems: int) -> None:
    need = n_resamples * n_systems * n_systems * 8
    if need > MAX_DRAW_BYTES:
        fit = max(2, MAX_DRAW_BYTES // (n_systems * n_systems * 8))
        raise UsageError(f"--n-resamples {n_resamples:,} with {n_systems} systems would keep {need / 2**30:.1f} GiB "
                         f"of resampled P matrices; use at most {fit:,}")
