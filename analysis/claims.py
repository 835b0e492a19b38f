"""The claims registry: every table, figure and numbered claim of the four papers as a record whose verdict is
computed from the saved outputs (README.md, "What holds, and how you can tell").

A record lives in ``data/published/claims/<paper>.toml`` beside the published numbers. It says what the paper
claims (``claim``, the published value: ``paper_ref``, a pointer at it in ``data/published/<paper>.toml``, or
``paper`` typed when that file does not hold it; the paper item and where it is printed), where our value comes
from (``source``: a CSV a chapter saved, the ``rows`` and ``column`` in it), how the two are compared (``rule``) and
what data we have (``status``: exact / stand-in / not reachable). :func:`evaluate` reads the outputs and returns
one row per claim with its verdict; nothing here types a verdict. A claim whose source is missing or unreadable,
whose selection matches no row or more rows than it compares, or whose saved value is empty (NaN) is "not run",
never a pass, and :func:`main` then exits non-zero.

:func:`analysis.claim_records.load` reads and checks the records field by field (anything wrong is a one-line
:class:`~analysis.claim_records.ClaimError` naming the file, the claim and the field, and ``python -m analysis
claims`` then writes nothing); this module computes the verdicts and writes the claims pages.

A ``rows`` filter selects one row, or one per published value when ``paper`` (``than`` for ``compare``) is a list,
or one per combination of the values it lists (``rows = { kind = ["a", "b"] }``); ``pool = true`` declares that it
selects a group of rows on purpose (every cell of a table, each check of a test), each row one value. A list of
filters picks one row each, in order; no ``rows`` is the whole file.

The rules (one small fixed set; every numeric rule works element-wise on a value or a list of values):

* ``within``: ``|ours - paper| <= tol + rtol * |paper|``;
* ``equal``: the same numbers (to 1e-9) or strings;
* ``compare``: ``ours <op> than`` (``than`` defaults to the paper's value), for a stated direction;
* ``direction``: ours has the paper's sign;
* ``set``: the same set of names (in part: Jaccard index at least ``part``);
* ``order``: the same order (in part: Kendall's tau at least ``part``);
* ``qualitative``: a stated test (``test``) that a chapter computed and saved as a boolean;
* ``consistent``: the paper checked against itself: ``ours`` is recomputed from the paper's other numbers, and a
  difference beyond ``tol`` is "paper inconsistent";
* ``none``: nothing here can test it (the reason says why): "not testable here".

For element-wise rules all elements passing is "reproduced", a share of at least ``part`` (default 0.5) passing
is "reproduced in part", less is "not reproduced". ``status = "not reachable"`` is always "not testable here".
"""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .claim_records import OPS, Claim, ClaimError, category
from .paths import generated_dir

COLUMNS = ["paper", "id", "item", "where", "claim", "paper value", "our value", "rule", "data status", "data",
           "paper's share", "verdict",
           "category", "reason", "source file", "chapter", "section", "headline"]


# --- our value: the selected cells of a saved output -------------------------------------------------------------

def _plain(value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, str) and value in ("True", "False"):
        return value == "True"
    return value


def _missing(value) -> bool:
    """An empty cell of a saved output (read as NaN or None): no value, never a number that fails a rule."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _error(claim: Claim, reason: str) -> ClaimError:
    """A claim that cannot be evaluated, named (its row in the table says only ``reason``)."""
    return ClaimError(f"claim {claim.key}: {reason}", reason)


def _source_path(claim: Claim, outputs: Path) -> Path:
    source = Path(claim.source)
    return outputs / source if len(source.parts) > 1 else outputs / claim.chapter / source


def _select(frame: pd.DataFrame, rows: dict, claim: Claim) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for column, wanted in rows.items():
        if column not in frame.columns:
            raise _error(claim, f"{claim.source} has no column {column!r} (columns: {list(frame.columns)})")
        values = frame[column]
        wanted = wanted if isinstance(wanted, list) else [wanted]
        match = values.isin(wanted)
        if not match.any() and pd.api.types.is_numeric_dtype(values):
            match = values.isin([w for w in wanted if isinstance(w, (int, float))])
        if not match.any():  # the file may hold numbers as text or text as numbers
            match = values.astype(str).isin([str(w) for w in wanted])
        mask &= match.to_numpy()
    return frame[mask]


def _compared(claim: Claim):
    """The value(s) ours is compared with element by element (the paper's, or ``than``), or None for a set."""
    if claim.rule == "set":
        return None
    return claim.than if claim.rule == "compare" and claim.than is not None else claim.paper_value


def _rows_wanted(claim: Claim, rows: dict, n_columns: int) -> int | None:
    """How many rows a filter must match (None: any number, ``pool = true`` or a set): one per published value
    when the paper's value is a list, else one per combination of the values a filter lists (one row for a filter
    of single values), so that a filter matching more rows than the claim compares never pools them silently."""
    if claim.pool or claim.rule == "set":
        return None
    compared = _compared(claim)
    if isinstance(compared, list):
        if len(compared) % n_columns:
            raise _error(claim, f"{len(compared)} published values for {n_columns} columns")
        return len(compared) // n_columns
    return math.prod(len(v) if isinstance(v, list) else 1 for v in rows.values())


def our_value(claim: Claim, outputs: str | Path):
    """The value our outputs give for ``claim``: one cell (a scalar) or several (a list, in the order of ``rows``
    when it is a list of selections, else in file order). Raises :class:`ClaimError` when it cannot be read, when a
    selection matches no row, or more rows than the claim compares (see :func:`_rows_wanted`)."""
    outputs = Path(outputs)
    path = _source_path(claim, outputs)
    shown = path.relative_to(outputs) if path.is_relative_to(outputs) else path
    if not path.is_file():
        raise _error(claim, f"source missing: {shown}")
    try:
        frame = pd.read_csv(path)
    except Exception as exc:  # any parse failure is "unreadable", reported with its cause
        raise _error(claim, f"source unreadable: {shown}: {type(exc).__name__}: {exc}") from None
    columns = claim.column if isinstance(claim.column, list) else [claim.column] if claim.column else None
    if columns is None:
        raise _error(claim, f"names no column of {shown}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise _error(claim, f"{shown} has no column {missing} (columns: {list(frame.columns)})")
    selections = claim.rows if isinstance(claim.rows, list) else [claim.rows or {}]
    values = []
    for rows in selections:
        picked = _select(frame, rows, claim)
        if picked.empty:
            raise _error(claim, f"{shown}: no row matches {rows}")
        if isinstance(claim.rows, list) and len(picked) != 1:
            raise _error(claim, f"{shown}: {len(picked)} rows match {rows}; a list of selections needs one each")
        wanted = None if isinstance(claim.rows, list) else _rows_wanted(claim, rows, len(columns))
        if wanted is not None and len(picked) != wanted:
            raise _error(claim, f"{shown}: {len(picked)} rows match {rows or 'the whole file'}, the claim compares "
                                f"{wanted} (one row per published value; to test each row of a group, set "
                                "pool = true)")
        values += [_plain(v) for v in picked[columns].to_numpy().ravel()]
    return values[0] if len(values) == 1 else values


# --- verdicts -----------------------------------------------------------------------------------------------------

def _as_list(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _numbers(value, what: str, claim: Claim) -> np.ndarray:
    try:
        return np.array([np.nan if v is None else float(v) for v in _as_list(value)], dtype=float)
    except (TypeError, ValueError):
        raise _error(claim, f"{what} {value!r} is not numeric") from None


def _paired(claim: Claim, ours) -> tuple[np.ndarray, np.ndarray]:
    o, p = _numbers(ours, "our value", claim), _numbers(claim.paper_value, "the paper's value", claim)
    if len(p) == 1 and len(o) > 1:
        p = np.repeat(p, len(o))
    if len(o) != len(p):
        raise _error(claim, f"{len(o)} values of ours against {len(p)} of the paper's")
    return o, p


def _by_share(passed: np.ndarray, part: float) -> str:
    share = float(np.mean(passed)) if len(passed) else 0.0
    if share == 1.0:
        return "reproduced"
    return "reproduced in part" if share > 0 and share >= part else "not reproduced"


def verdict(claim: Claim, ours) -> str:
    """The verdict of ``claim`` given our value (see the module docstring for the rules); a missing (NaN) value of
    ours is a :class:`ClaimError` ("not run"), like a missing source."""
    if claim.status == "not reachable" or claim.rule == "none":
        return "not testable here"
    empty = sum(_missing(v) for v in _as_list(ours))
    if empty:  # an empty cell is no value: "not run", never a number that fails
        raise _error(claim, f"no value saved: {empty} of the {len(_as_list(ours))} selected cell(s) of "
                            f"{claim.source} empty (NaN)")
    rule = claim.rule
    if rule in ("within", "consistent"):
        o, p = _paired(claim, ours)
        tol = np.asarray(claim.tol, dtype=float)
        if tol.ndim and len(tol) != len(p):
            raise _error(claim, f"{len(tol)} tolerances for {len(p)} values")
        passed = np.abs(o - p) <= tol + claim.rtol * np.abs(p)
        if rule == "consistent":
            return "reproduced" if passed.all() else "paper inconsistent"
        return _by_share(passed, claim.part)
    if rule == "equal":
        o_list, p_list = _as_list(ours), _as_list(claim.paper_value)
        if len(p_list) == 1 and len(o_list) > 1:
            p_list = p_list * len(o_list)
        if len(o_list) != len(p_list):
            raise _error(claim, f"{len(o_list)} values of ours against {len(p_list)} of the paper's")
        passed = np.array([_same(a, b) for a, b in zip(o_list, p_list)])
        return _by_share(passed, claim.part)
    if rule == "compare":
        o = _numbers(ours, "our value", claim)
        than = claim.than if claim.than is not None else claim.paper_value
        t = _numbers(than, "'than'", claim)
        if len(t) == 1:
            t = np.repeat(t, len(o))
        if len(t) != len(o):
            raise _error(claim, f"{len(o)} values of ours against {len(t)} to compare with")
        return _by_share(OPS[claim.op](o, t) & ~np.isnan(o), claim.part)
    if rule == "direction":
        o, p = _paired(claim, ours)
        return _by_share((np.sign(o) == np.sign(p)) & ~np.isnan(o), claim.part)
    if rule == "set":
        o, p = {str(v) for v in _as_list(ours)}, {str(v) for v in _as_list(claim.paper_value)}
        if o == p:
            return "reproduced"
        jaccard = len(o & p) / len(o | p)
        return "reproduced in part" if jaccard > 0 and jaccard >= claim.part else "not reproduced"
    if rule == "order":
        from scipy.stats import kendalltau

        o, p = _paired(claim, ours)
        tau = kendalltau(o, p).statistic
        if np.all(np.sign(np.subtract.outer(o, o)) == np.sign(np.subtract.outer(p, p))):
            return "reproduced"
        return "reproduced in part" if tau >= claim.part else "not reproduced"
    if rule == "qualitative":
        values = _as_list(ours)
        if not all(isinstance(v, bool) for v in values):
            raise _error(claim, f"a qualitative test needs True/False, got {ours!r}")
        return _by_share(np.array(values), claim.part)
    raise _error(claim, f"unknown rule {rule!r}")  # pragma: no cover - load() checks


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return str(a) == str(b)


def show(value, fmt: str | None = None) -> str:
    """A value as a reader sees it: numbers to three significant decimals (or ``fmt``), lists joined."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        if len(value) > 2 and all(isinstance(v, bool) for v in value):
            return f"{sum(value)} of {len(value)} yes"
        items = [show(v, fmt) for v in value]
        return ", ".join(items) if len(items) <= 12 else ", ".join(items[:12]) + f", … ({len(items)} values)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return format(int(value), fmt or ",")
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        if fmt:
            text = format(value, fmt)
            return text[1:] if text.startswith("-") and not re.search(r"[1-9]", text) else text  # no "-0%"
        if value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}"
        text = f"{value:.3g}" if abs(value) < 1 else f"{value:,.3f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "-0.0") else text
    return str(value)


def checks(values) -> str:
    """Tests saved as booleans, counted: "2 of 3 checks pass", "0 of 1 check passes" (a number and its unit, never
    a bare "yes" or "no")."""
    values = _as_list(values)
    return (f"{sum(bool(v) for v in values)} of {len(values)} "
            + ("check passes" if len(values) == 1 else "checks pass"))


#: the columns of a test's rows (a chapter's ``claim_values.csv``, :meth:`analysis.recorder.Outputs.value`) that hold
#: the number the test reads and its interval, shown before the count of checks when the claim says how to print them
#: (``format``)
VALUE_COLUMNS = ("value", "low", "high")


def tested_numbers(claim: Claim, outputs: Path) -> str:
    """The numbers a test saved as booleans reads, when its rows hold them: the ``value`` column of the selected rows
    (and ``[low, high]``, its interval, when the selected rows have one), printed in the claim's ``format``; "" when
    the rows hold none, any is empty or the claim gives no format (a number without its unit would mislead)."""
    if not claim.format or claim.column in VALUE_COLUMNS:
        return ""
    try:
        frame = pd.read_csv(_source_path(claim, outputs))
        selections = claim.rows if isinstance(claim.rows, list) else [claim.rows or {}]
        picked = pd.concat([_select(frame, rows, claim) for rows in selections])
    except (OSError, ValueError, ClaimError):
        return ""
    if "value" not in picked or not len(picked):
        return ""
    columns = [c for c in VALUE_COLUMNS if c in picked]
    if columns != ["value"] and columns != list(VALUE_COLUMNS):
        columns = ["value"]
    if columns != ["value"] and picked[["low", "high"]].apply(pd.to_numeric, errors="coerce").isna().all().all():
        columns = ["value"]  # a file whose other rows have intervals: these rows have none
    numbers = picked[columns].apply(pd.to_numeric, errors="coerce")
    if numbers.isna().any().any():
        return ""
    shown = [_with_unit(show(float(row["value"]), claim.format), claim)
             + (f" [{show(float(row['low']), claim.format)}, {show(float(row['high']), claim.format)}]"
                if "low" in columns else "") for _, row in numbers.iterrows()]
    return show(shown)


def ours_text(claim: Claim, ours, outputs: str | Path | None = None) -> str:
    """Our value as the pages show it: a number (:func:`show`); a test saved as booleans as its count of checks
    (:func:`checks`), after the numbers it reads when its rows hold them (:func:`tested_numbers`); for the rule
    ``consistent`` (the paper checked against itself) the value is recomputed from the paper's own numbers, and
    says so."""
    if ours is None:
        return ""
    values = _as_list(ours)
    if values and all(isinstance(v, bool) for v in values):
        numbers = tested_numbers(claim, Path(outputs)) if outputs is not None else ""
        if numbers and len(values) == 1:
            text = numbers
        else:
            text = f"{numbers}; {checks(values)}" if numbers else checks(values)
    else:
        text = _with_unit(show(ours, claim.format), claim)
    return f"{text}, derived from the paper's numbers" if claim.rule == "consistent" and text else text


def _with_unit(text: str, claim: Claim) -> str:
    """A shown value with the record's unit after it ("2.7 places"); several values share one unit at the end."""
    return f"{text} {claim.unit}" if claim.unit and text and text != "—" else text


def paper_text(claim: Claim) -> str:
    """What the paper prints, as the pages show it (:func:`show`, with the record's unit); a statement the paper
    makes in words (a boolean published value) reads "stated". A threshold the registry sets (``than``) is shown
    with the rule (:func:`_rule_text`), never as the paper's value."""
    if isinstance(claim.paper_value, bool):
        return "stated" if claim.paper_value else "stated not to hold"
    if isinstance(claim.paper_value, list) and claim.paper_value and all(isinstance(v, bool)
                                                                          for v in claim.paper_value):
        return "stated"
    return _with_unit(show(claim.paper_value, claim.format), claim) if _numeric(claim.paper_value) else \
        show(claim.paper_value, claim.format)


def _numeric(value) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in _as_list(value)) and value is not None


def _rule_text(claim: Claim) -> str:
    if claim.status == "not reachable" or claim.rule == "none":
        return "—"
    if claim.rule == "within":
        tol = "/".join(show(t, claim.format) for t in claim.tol) if isinstance(claim.tol, tuple) else \
            show(claim.tol, claim.format) if claim.tol else ""
        bits = [f"±{tol}" if tol else "", f"±{claim.rtol:.0%}" if claim.rtol else ""]
        return "within " + " + ".join(b for b in bits if b) if any(bits) else "equal"
    if claim.rule == "consistent":
        return f"the paper's own numbers agree within ±{show(claim.tol, claim.format)}"
    if claim.rule == "compare":
        than = claim.than if claim.than is not None else "the paper's value"
        return f"ours {claim.op} {show(than, claim.format)}"
    if claim.rule == "qualitative":
        return claim.test
    return {"equal": "equal", "direction": "same sign", "set": "same set", "order": "same order"}[claim.rule]


def data_share(claim: Claim, outputs: Path) -> float | None:
    """A ``mixed`` claim's share of evidence on the paper's own data: the value its chapter recorded under the key
    ``data_share`` in ``claim_values.csv`` (a :class:`ClaimError`, so "not run", when it is missing); None otherwise."""
    if claim.status != "mixed":
        return None
    key = dataclasses.replace(claim, source="claim_values.csv", rows={"key": claim.data_share}, column="value",
                              pool=False, rule="within", paper_value=0.0, than=None, tol=0.0)  # one row, one value
    value = our_value(key, outputs)
    if not (isinstance(value, (int, float)) and 0 <= value <= 1):
        raise ClaimError(f"{claim.key}: its data share {claim.data_share!r} is {value!r}, not a share in [0, 1]")
    return float(value)


def evaluate(claims: list[Claim], outputs: str | Path | None = None) -> pd.DataFrame:
    """One row per claim (columns :data:`COLUMNS`), the verdict computed from the files under ``outputs``."""
    outputs = Path(outputs) if outputs else generated_dir()
    rows = []
    for claim in claims:
        ours, reason, share = None, claim.reason, None
        if claim.status == "not reachable" or claim.rule == "none":
            result = "not testable here"
        else:
            try:
                ours = our_value(claim, outputs)
                result = verdict(claim, ours)
                share = data_share(claim, outputs)
            except ClaimError as exc:
                result, reason = "not run", exc.reason
        source = "" if claim.source is None else str(_source_path(claim, Path("."))).replace("\\", "/")
        rows.append({"paper": claim.paper, "id": claim.id, "item": claim.item, "where": claim.where,
                     "claim": claim.claim, "paper value": paper_text(claim),
                     "our value": ours_text(claim, ours, outputs), "rule": _rule_text(claim),
                     "data status": claim.status, "data": claim.data, "paper's share": share,
                     "verdict": result, "category": category(claim, result, share),
                     "reason": "" if result == "reproduced" else reason, "source file": source,
                     "chapter": claim.chapter, "section": claim.section or "", "headline": claim.headline})
    return pd.DataFrame(rows, columns=COLUMNS)
