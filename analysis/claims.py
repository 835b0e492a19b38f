"""The claims registry: every table, figure and numbered claim of the four papers as a record whose verdict is
computed from the saved outputs (DESIGN.md, "Claims and verdicts").

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

import argparse
import math
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from .claim_records import CATEGORIES, OPS, PAPERS, VERDICTS, Claim, ClaimError, category, load
from .files import atomic_write
from .paths import generated_dir
from .typography import for_table

COLUMNS = ["paper", "id", "item", "where", "claim", "paper value", "our value", "rule", "data status", "verdict",
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
    """Tests saved as booleans, counted: "2 of 3 checks passed", "0 of 1 check passed" (a number and its unit, never
    a bare "yes" or "no")."""
    values = _as_list(values)
    return f"{sum(bool(v) for v in values)} of {len(values)} check{'' if len(values) == 1 else 's'} passed"


#: the columns of a test's rows (a chapter's ``claim_values.csv``, :meth:`analysis.plotting.Outputs.value`) that hold the number the test reads and its
#: interval, shown before the count of checks when the claim says how to print them (``format``)
VALUE_COLUMNS = ("value", "low", "high")


def _tested_numbers(claim: Claim, outputs: Path) -> str:
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
    shown = [show(float(row["value"]), claim.format)
             + (f" [{show(float(row['low']), claim.format)}, {show(float(row['high']), claim.format)}]"
                if "low" in columns else "") for _, row in numbers.iterrows()]
    return show(shown)


def ours_text(claim: Claim, ours, outputs: str | Path | None = None) -> str:
    """Our value as the pages show it: a number (:func:`show`); a test saved as booleans as its count of checks
    (:func:`checks`), after the numbers it reads when its rows hold them (:func:`_tested_numbers`); for the rule
    ``consistent`` (the paper checked against itself) the value is recomputed from the paper's own numbers, and
    says so."""
    if ours is None:
        return ""
    values = _as_list(ours)
    if values and all(isinstance(v, bool) for v in values):
        numbers = _tested_numbers(claim, Path(outputs)) if outputs is not None else ""
        text = f"{numbers} ({checks(values)})" if numbers else checks(values)
    else:
        text = show(ours, claim.format)
    return f"{text} (derived from the paper's numbers)" if claim.rule == "consistent" and text else text


_OP_SIGNS = {"<": "<", "<=": "≤", ">": ">", ">=": "≥"}


def paper_text(claim: Claim) -> str:
    """The published value as the pages show it (:func:`show`); a comparator that is not the paper's own value (a
    threshold ``than`` set by the registry) is labelled derived."""
    text = show(claim.paper_value, claim.format)
    if (claim.rule == "compare" and claim.than is not None and claim.status != "not reachable"
            and not re.match(r"[<>≤≥]", text)):  # "> 0" states the comparison itself
        derived = f"derived: ours {_OP_SIGNS[claim.op]} {show(claim.than, claim.format)}"
        text = f"{text} ({derived})" if text else derived
    return text


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


def evaluate(claims: list[Claim], outputs: str | Path | None = None) -> pd.DataFrame:
    """One row per claim (columns :data:`COLUMNS`), the verdict computed from the files under ``outputs``."""
    outputs = Path(outputs) if outputs else generated_dir()
    rows = []
    for claim in claims:
        ours, reason = None, claim.reason
        if claim.status == "not reachable" or claim.rule == "none":
            result = "not testable here"
        else:
            try:
                ours = our_value(claim, outputs)
                result = verdict(claim, ours)
            except ClaimError as exc:
                result, reason = "not run", exc.reason
        source = "" if claim.source is None else str(_source_path(claim, Path("."))).replace("\\", "/")
        rows.append({"paper": claim.paper, "id": claim.id, "item": claim.item, "where": claim.where,
                     "claim": claim.claim, "paper value": paper_text(claim),
                     "our value": ours_text(claim, ours, outputs), "rule": _rule_text(claim), "data status": claim.status,
                     "verdict": result, "category": category(claim, result),
                     "reason": "" if result == "reproduced" else reason, "source file": source,
                     "chapter": claim.chapter, "section": claim.section or "", "headline": claim.headline})
    return pd.DataFrame(rows, columns=COLUMNS)


# --- the pages: results at a glance, each chapter's opening table and its "What differs" ---------------------------

def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _link(row, *, on_chapter_page: bool = False) -> str:
    """The claim's item linked to its section, or to its chapter from other pages (on its own chapter's page a
    claim without a section is plain text: a link to the page itself only jumps to the top)."""
    if row["section"]:
        return f"{{ref}}`{_cell(row['item'])} <{row['section']}>`"
    if on_chapter_page:
        return _cell(row["item"])
    return f"{{doc}}`{_cell(row['item'])} </book/_generated/notebooks/{row['chapter']}>`"


#: the compendium's own findings test hypotheses, not published results: their verdicts read in these words on the
#: pages (``claims.csv`` keeps the one vocabulary of VERDICTS), and their "paper" column is the expectation
OWN_FINDINGS = "synthesis"
OWN_WORDS = {"reproduced": "holds", "reproduced in part": "holds in part", "not reproduced": "does not hold"}
OWN_WORDS_PLURAL = {"reproduced": "hold", "reproduced in part": "hold in part", "not reproduced": "do not hold"}


def verdict_words(verdict: str, paper: str, category: str | None = None) -> str:
    """How a verdict reads on the pages: the registry's word, or for the compendium's own findings (the synthesis,
    and a paper's records in the category "our own checks") OWN_WORDS'."""
    own = paper == OWN_FINDINGS or category == "our own checks"
    return OWN_WORDS.get(verdict, verdict) if own else verdict


def _table(rows: pd.DataFrame, *, link: bool, reason: bool = False, on_chapter_page: bool = False) -> str:
    """A markdown table of claims; with ``reason`` (the rows share one verdict) the reason replaces the verdict."""
    own = set(rows.paper) == {OWN_FINDINGS}
    head = ["Item", "Claim", "Expected" if own else "Paper", "Ours"] + (["Why it differs"] if reason else ["Verdict"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, row in rows.iterrows():
        cells = [_link(row, on_chapter_page=on_chapter_page) if link else _cell(row["item"]),
                 _typeset(_cell(row["claim"])), _typeset(_cell(row["paper value"])) or "—",
                 _typeset(_cell(row["our value"])) or "—"] + (
                    [_typeset(_cell(row["reason"]))] if reason
                    else [f"**{verdict_words(row['verdict'], row['paper'], row.get('category'))}**"])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _counts(rows: pd.DataFrame, category: str | None = None) -> str:
    """"7 reproduced, 2 not reproduced" (for the compendium's own findings, or rows of ``category`` "our own checks":
    "7 hold, 2 do not hold")."""
    counts = rows.verdict.value_counts()
    paper = rows.paper.iloc[0] if rows.paper.nunique() == 1 else None

    def words(verdict):  # "7 hold, 4 do not hold", "1 holds"
        said = verdict_words(verdict, paper, category)
        return said if counts[verdict] == 1 or said == verdict else OWN_WORDS_PLURAL[verdict]

    return ", ".join(f"{counts[v]} {words(v)}" for v in VERDICTS if v in counts)


#: how :func:`by_category` introduces each category's counts
CATEGORY_HEADS = {"the paper's data": "on the paper's data: ", "stand-in data": "on stand-in data: ",
                  "our own checks": "our own checks: "}


def by_category(rows: pd.DataFrame) -> str:
    """The verdict counts per category (:data:`~analysis.claim_records.CATEGORIES`), the paper's claims on its own
    data first and the compendium's own checks apart: "on the paper's data: 5 reproduced; on stand-in data: ..."."""
    if "category" not in rows or rows.paper.eq(OWN_FINDINGS).all():
        return _counts(rows)
    parts = []
    for name in CATEGORIES:
        group = rows[rows.category == name]
        if len(group):
            parts.append(CATEGORY_HEADS[name] + _counts(group, name) if name in CATEGORY_HEADS
                         else f"{len(group)} {name}")
    return "; ".join(parts)


def _typeset(value: str) -> str:
    """A value cell as printed: a true minus sign (U+2212) before a number, short hyphenated words on one line."""
    return for_table(value)


def _items(rows: pd.DataFrame) -> str:
    """The paper items of ``rows``, each once in registry order, linked as the tables link them, separated by " · "
    (an item's own name may hold a comma)."""
    first = rows.drop_duplicates("item")
    return " · ".join(_link(row) for _, row in first.iterrows())


def _n(count: int, noun: str = "claim") -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _group(label: str, rows: pd.DataFrame) -> str | None:
    """"<label> (3 claims): Fig. 1 · Table 2", or None for no rows."""
    return None if rows.empty else f"{label} ({_n(len(rows))}): {_items(rows)}"


#: the label of the front page's table of stand-ins, which the outcome lines link to
STAND_INS_LABEL = "stand-ins"


def outcome(rows: pd.DataFrame) -> str:
    """One paper's outcome in three lines, from its rows of the claims table: what holds (the items whose claims are
    reproduced, on the paper's data, on stand-in data, in part), what does not (not reproduced, paper inconsistent)
    and why (how many of those are tested on stand-in data or on the paper's own data, how many cannot be tested
    here and why, from the records' data status), the compendium's own checks counted apart. Names and counts
    only: the words hold whatever the numbers are."""
    theirs = rows[rows.category != "our own checks"]
    own = rows[rows.category == "our own checks"]
    data, stand_in = theirs[theirs.category == "the paper's data"], theirs[theirs.category == "stand-in data"]
    holds = [_group("reproduced on the paper's data", data[data.verdict == "reproduced"]),
             _group("on stand-in data", stand_in[stand_in.verdict == "reproduced"]),
             _group("in part", theirs[theirs.verdict == "reproduced in part"])]
    fails = [_group("not reproduced on the paper's data", data[data.verdict == "not reproduced"]),
             _group("on stand-in data", stand_in[stand_in.verdict == "not reproduced"]),
             _group("paper inconsistent, its own numbers disagreeing", theirs[theirs.verdict == "paper inconsistent"]),
             _group("not run", theirs[theirs.verdict == "not run"])]
    if not holds[0] and holds[1]:
        holds[1] = "reproduced " + holds[1]
    if not fails[0] and fails[1]:
        fails[1] = "not reproduced " + fails[1]
    failed = theirs[theirs.verdict.isin(["not reproduced", "paper inconsistent", "not run"])]
    untested = theirs[theirs.category == "not testable here"]
    why = []
    if len(failed):
        on_stand_in = int((failed.category == "stand-in data").sum())
        inconsistent = int((failed.verdict == "paper inconsistent").sum())
        why.append(f"of the {_n(len(failed))} that do{'es' if len(failed) == 1 else ''} not hold, {on_stand_in} "
                   f"{'is' if on_stand_in == 1 else 'are'} tested on {{ref}}`stand-in data <{STAND_INS_LABEL}>` and "
                   f"{len(failed) - on_stand_in} on the paper's own data"
                   + (f" ({inconsistent} of them paper inconsistent)" if inconsistent else ""))
    if len(untested):
        unreachable = int((untested["data status"] == "not reachable").sum())
        reasons = [f"{unreachable} on data not reachable here" if unreachable else "",
                   f"{len(untested) - unreachable} with no test possible on the data here"
                   if len(untested) > unreachable else ""]
        why.append(f"{_n(len(untested))} {'is' if len(untested) == 1 else 'are'} not testable here: "
                   + ", ".join(r for r in reasons if r))
    if len(own):
        why.append(f"our own checks beyond the paper are counted apart: {len(own)} ({_counts(own, 'our own checks')})")
    lines = [("What holds", holds, "no claim is reproduced"),
             ("What does not", fails, "every claim tested here is reproduced, at least in part"),
             ("Why", why, "every claim is tested on the paper's own data")]
    return "".join(f"- **{head}**: {'; '.join(g for g in groups if g) or none}.\n" for head, groups, none in lines)


def at_a_glance(table: pd.DataFrame, profile: str | None = None) -> str:
    """The front page's summary: per paper, the verdict counts, its outcome (:func:`outcome`) and the headline claims,
    linking to the chapters."""
    parts = []
    if profile:
        parts.append(f"*Verdicts computed from the outputs of the `{profile}` profile run that built this book.*\n")
    for paper, title in PAPERS.items():
        rows = table[table.paper == paper]
        if rows.empty:
            continue
        parts.append(f"**{title}** — {len(rows)} claim{'' if len(rows) == 1 else 's'}: {by_category(rows)}.\n")
        if paper != OWN_FINDINGS and "category" in rows:
            parts.append(outcome(rows))
        head = rows[rows.headline.astype(bool)]
        if len(head):
            parts.append(_table(head, link=True))
    return "\n".join(parts)


def chapter_opening(table: pd.DataFrame, chapter: str) -> str:
    """A chapter's opening: its headline claims, the rest in a drop-down."""
    rows = table[table.chapter == chapter]
    if rows.empty:
        return "*No claim of the paper is checked in this chapter.*\n"
    head = rows[rows.headline.astype(bool)]
    rest = rows[~rows.headline.astype(bool)]
    text = [f"**What holds** — {len(rows)} claims checked in this chapter: {by_category(rows)}.\n"]
    if len(head):
        text.append(_table(head, link=True, on_chapter_page=True))
    if len(rest):
        text.append(f"````{{dropdown}} All {len(rows)} claims of this chapter\n"
                    f"{_table(rows, link=True, on_chapter_page=True)}````\n")
    return "\n".join(text)


def chapter_differences(table: pd.DataFrame, chapter: str) -> str:
    """A chapter's "What differs": every claim not reproduced exactly, with its reason, grouped by category (the
    paper's data, stand-in data, our own checks, not testable here) and verdict."""
    rows = table[(table.chapter == chapter) & (table.verdict != "reproduced")]
    if rows.empty:
        return "Every claim checked in this chapter is reproduced.\n"
    parts = []
    categories = CATEGORIES if "category" in rows else (None,)
    for cat in categories:
        in_cat = rows if cat is None else rows[rows.category == cat]
        for name in VERDICTS:
            group = in_cat[in_cat.verdict == name]
            if len(group):
                words = verdict_words(name, group.paper.iloc[0], cat) if group.paper.nunique() == 1 else name
                where = "" if cat in (None, "not testable here") else f" — {cat}"
                parts.append(f"**{words.capitalize()}**{where} ({len(group)})\n\n"
                             + _table(group, link=True, reason=True, on_chapter_page=True))
    return "\n".join(parts)


#: the segments of the front page's figure (:func:`verdict_figure`), in drawing order: (category, verdict, legend
#: label, colour, hatched); the compendium's own checks are drawn apart, right of the papers' claims
FIGURE_SEGMENTS = (
    ("the paper's data", "reproduced", "reproduced", "#1b7837", False),
    ("the paper's data", "reproduced in part", "reproduced in part", "#a6dba0", False),
    ("the paper's data", "not reproduced", "not reproduced", "#d6604d", False),
    ("the paper's data", "paper inconsistent", "paper inconsistent", "#762a83", False),
    ("stand-in data", "reproduced", "reproduced", "#5aae61", True),
    ("stand-in data", "reproduced in part", "reproduced in part", "#d9f0d3", True),
    ("stand-in data", "not reproduced", "not reproduced", "#f4a582", True),
    ("not testable here", "not testable here", "not testable here", "#bababa", False),
    ("our own checks", "reproduced", "holds", "#2166ac", False),
    ("our own checks", "reproduced in part", "holds in part", "#92c5de", False),
    ("our own checks", "not reproduced", "does not hold", "#fdb863", False),
)
#: the figure's file name (PNG and SVG) beside ``at_a_glance.md``
FIGURE_NAME = "verdicts_by_category"
_DARK = {"#1b7837", "#762a83", "#2166ac"}


def verdict_figure(table: pd.DataFrame):
    """The front page's figure: one horizontal bar per paper, its claims counted by category and verdict
    (:data:`FIGURE_SEGMENTS`): the paper's data, stand-in data (hatched), not testable here; the compendium's own
    checks apart, in a panel of their own on the right. A matplotlib Figure (no pyplot: nothing is shown)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    papers = [p for p in PAPERS if (table.paper == p).any()]
    counts = {p: {(c, v): int(((table.paper == p) & (table.category == c) & (table.verdict == v)).sum())
                  for c, v, *_ in FIGURE_SEGMENTS} for p in papers}
    widths = {p: {own: sum(n for (c, _), n in counts[p].items() if (c == "our own checks") == own)
                  for own in (False, True)} for p in papers}
    theirs = max([widths[p][False] for p in papers] + [1])
    own_width = max([widths[p][True] for p in papers] + [0])
    fig = Figure(figsize=(7.4, 0.5 * len(papers) + 2.0))
    FigureCanvasAgg(fig)
    panels = [theirs] + ([max(own_width, 0.18 * theirs)] if own_width else [])
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False, gridspec_kw={"width_ratios": panels})[0]
    for ax, own, title in zip(axes, (False, True), ("the papers' claims", "our own checks")):
        for row, paper in enumerate(papers):
            left = 0
            for cat, verdict, _, colour, hatched in FIGURE_SEGMENTS:
                n = counts[paper][(cat, verdict)]
                if not n or (cat == "our own checks") != own:
                    continue
                ax.barh(row, n, left=left, height=0.62, color=colour, edgecolor="white", linewidth=0.8,
                        hatch="///" if hatched else None)
                if n >= 2:
                    ax.text(left + n / 2, row, str(n), ha="center", va="center", fontsize=9,
                            color="white" if colour in _DARK else "black")
                left += n
        ax.set_title(title, fontsize=10)
        ax.set_xlim(0, (own_width if own else theirs) + 0.5)
        ax.set_xlabel("claims", fontsize=10)
        ax.tick_params(axis="x", labelsize=9)
        ax.tick_params(axis="y", length=0)
        ax.grid(False)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    axes[0].set_yticks(range(len(papers)), [PAPERS[p].replace(" (beyond the papers)", "") for p in papers],
                       fontsize=10)
    axes[0].invert_yaxis()
    group = {"the paper's data": "paper's data: ", "stand-in data": "stand-in data: ", "our own checks": "our check: "}
    handles = [Patch(facecolor=colour, edgecolor="white", hatch="///" if hatched else None,
                     label=group.get(cat, "") + label) for cat, _, label, colour, hatched in FIGURE_SEGMENTS]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=9, frameon=False, handlelength=1.6,
               columnspacing=1.0)
    fig.tight_layout(rect=(0, 1.0 / (0.5 * len(papers) + 2.0), 1, 1))
    return fig


def _figure_files(table: pd.DataFrame) -> tuple[bytes, bytes]:
    """The figure (:func:`verdict_figure`) as PNG and SVG bytes (:func:`analysis.plotting.figure_files`: the same
    bytes on every run, and legible in the book's text column, else a ValueError)."""
    import matplotlib
    import matplotlib.pyplot as plt

    from . import plotting

    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig = verdict_figure(table)
        files = plotting.figure_files(fig, FIGURE_NAME)
    plt.close(fig)
    return files


def write(table: pd.DataFrame, outputs: str | Path | None = None, profile: str | None = None) -> list[Path]:
    """Write ``claims.csv`` and the generated pages (``claims/at_a_glance.md``, ``claims/<chapter>.md`` and
    ``claims/<chapter>_differs.md``) and the front page's figure (``claims/verdicts_by_category.png`` and ``.svg``)
    under ``outputs``, each atomically; returns the paths."""
    outputs = Path(outputs) if outputs else generated_dir()
    written = []

    def put(path: Path, text: str):
        atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
        written.append(path)

    atomic_write(outputs / "claims.csv", lambda tmp: table.to_csv(tmp, index=False))
    written.append(outputs / "claims.csv")
    put(outputs / "claims" / "at_a_glance.md", at_a_glance(table, profile))
    for suffix, payload in zip(("png", "svg"), _figure_files(table)):
        path = outputs / "claims" / f"{FIGURE_NAME}.{suffix}"
        atomic_write(path, lambda tmp, payload=payload: Path(tmp).write_bytes(payload))
        written.append(path)
    for chapter in sorted(set(table.chapter)):
        put(outputs / "claims" / f"{chapter}.md", chapter_opening(table, chapter))
        put(outputs / "claims" / f"{chapter}_differs.md", chapter_differences(table, chapter))
    return written


def _profile(outputs: Path) -> str | None:
    """The profile(s) the manifest records for the outputs (None without a readable manifest)."""
    from .manifest import read_manifest

    try:
        entries = read_manifest(outputs)
    except ValueError:  # a damaged manifest: the verdicts still stand, the line naming the profile is left out
        return None
    return ", ".join(sorted({e.get("profile") for e in entries.values() if e.get("profile")})) or None


def main(argv: list[str] | None = None, stream=None) -> int:
    """``python -m analysis claims``: evaluate the registry against the outputs, write the files, print the counts;
    exit 1 when any claim is "not run", 2 (one line on stderr, nothing written) when the registry is missing or
    malformed."""
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
        write(table, outputs, _profile(outputs))
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
