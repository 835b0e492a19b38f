"""The claims registry's records (``data/published/claims/<paper>.toml``): the :class:`Claim` each record becomes and
:func:`load`, which checks every record field by field (types, ranges, vocabularies, the fields each rule reads,
the chapter among the notebooks and the section among the chapter's labels, ids unique across the registry) and
every file (one per paper, each with records, no unknown top-level key): anything wrong is a one-line
:class:`ClaimError` naming the file, the claim and the field. A record gives the published value typed (``paper``)
or as a pointer into the paper's published values ``data/published/<paper>.toml`` (``paper_ref``), which
:func:`load` resolves into the same value (:func:`resolve_paper_ref`, its paths by
:func:`analysis.data.published.resolve`), so a number the paper prints is typed once.
:mod:`analysis.claims` computes the verdicts."""

from __future__ import annotations

import operator
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .data.published import RefError
from .data.published import is_number as _number
from .data.published import is_scalar as _scalar
from .data.published import resolve as resolve_ref
from .paths import notebooks_dir, repo_root

PAPERS = {"paired": "Peyrard et al. 2021", "wmt": "Knowles 2021", "favi": "von Däniken et al. 2024",
          "gvp": "Levtsov & Ustalov 2025", "synthesis": "This compendium (beyond the papers)"}
VERDICTS = ("reproduced", "reproduced in part", "not reproduced", "paper inconsistent", "not testable here",
            "not run")
#: where a claim's evidence comes from: the paper's own data (``exact``), the paper's own simulation rerun from its
#: stated generator (``simulation``), data standing in for the paper's (``stand-in``, named in ``data``), the paper's
#: data and stand-ins together (``mixed``: ``data_share`` names the chapter's recorded share of the evidence that is
#: the paper's, and the category follows the larger part), or nothing reachable here (``not reachable``)
STATUSES = ("exact", "simulation", "stand-in", "mixed", "not reachable")
#: whose claim a record is: the paper's (the default), or a hypothesis the compendium asks of the paper's data
#: ("compendium": every record of the synthesis, and the papers' items marked "beyond the paper")
ORIGINS = ("paper", "compendium")
#: the categories a reader can trust, in the order the pages show them (:func:`category`)
CATEGORIES = ("the paper's data", "the paper's simulation", "stand-in data", "our own checks", "not testable here")
RULES = ("within", "equal", "compare", "direction", "set", "order", "qualitative", "consistent", "none")
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_FIELDS = {"id", "item", "where", "claim", "paper", "paper_ref", "source", "rows", "column", "rule", "tol", "rtol",
           "part", "op", "than", "test", "status", "reason", "chapter", "section", "headline", "format", "pool",
           "origin", "why", "data", "data_share", "unit"}
#: the fields only some rules read; one in a record of another rule is an error (a wrong rule or a misplaced line)
RULE_FIELDS = {"within": {"tol", "rtol", "part"}, "consistent": {"tol", "rtol"}, "equal": {"part"},
               "compare": {"op", "than", "part"}, "direction": {"part"}, "set": {"part"}, "order": {"part"},
               "qualitative": {"test", "part"}, "none": set()}
#: where our value comes from: not in a record of rule "none", which has no value of ours
_OUTPUT_FIELDS = ("source", "rows", "column", "pool")
#: the keys a registry file may hold at its top level (anything else, e.g. ``[[claim]]``, would lose its records)
TOP_LEVEL = {"chapter", "claims"}
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_LABEL = re.compile(r"[A-Za-z0-9_-]+")
_LABEL_LINE = re.compile(r"^# \(([A-Za-z0-9_-]+)\)=\s*$", flags=re.M)
_CHAPTER_GLOB = "[0-9][0-9]_*.py"


class ClaimError(ValueError):
    """A malformed registry record (the message names the file, the claim and the field), or a claim that cannot be
    evaluated: its source is missing or unreadable, its selection finds nothing or more than it compares, its saved
    value is missing. ``reason`` is the message without the claim's name (the "not run" reason of its row)."""

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = reason or message


@dataclass(frozen=True)
class Claim:
    """One record of the registry (see the module docstring for the fields' meaning)."""

    paper: str
    id: str
    item: str
    where: str
    claim: str
    status: str
    rule: str
    chapter: str
    paper_value: object = None
    source: str | None = None
    rows: object = None
    column: str | list | None = None
    tol: float | tuple = 0.0
    rtol: float = 0.0
    part: float = 0.5
    op: str | None = None
    than: object = None
    test: str | None = None
    reason: str = ""
    section: str | None = None
    headline: bool = False
    format: str | None = None
    pool: bool = False
    origin: str = "paper"
    why: str = ""  # why a tolerance or threshold other than half a printed digit follows from the claim's meaning
    paper_ref: object = field(default=None, compare=False)  # the pointer(s) paper_value comes from (None: typed)
    data: str = ""  # the data the claim is tested on, as the pages name it (required for a stand-in)
    data_share: str | None = None  # status "mixed": the claim_values.csv key of the paper's share of the evidence
    unit: str = ""  # what the numbers count ("places", "pairs"), shown after them
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        return f"{self.paper}.{self.id}"


def registry_dir() -> Path:
    return repo_root() / "data" / "published" / "claims"


def chapters() -> list[str]:
    """The chapters a claim may belong to: the notebooks ``notebooks/NN_name.py`` (their stems, in order)."""
    return sorted(p.stem for p in notebooks_dir().glob(_CHAPTER_GLOB))


def section_labels(chapter: str) -> set[str]:
    """The section labels (``# (label)=`` lines) of a chapter's notebook, which a claim's ``section`` links to."""
    path = notebooks_dir() / f"{chapter}.py"
    return set(_LABEL_LINE.findall(path.read_text(encoding="utf-8"))) if path.is_file() else set()


def _shown(path: Path) -> str:
    """A registry file as messages name it: relative to the repository when inside it."""
    path = Path(path).resolve()
    root = repo_root().resolve()
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


# --- field checks: each returns whether a value has the type and range a field needs --------------------------------

def _text(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _one_or_list(value, ok) -> bool:
    """``value`` passes ``ok``, or is a non-empty list whose every element does."""
    return ok(value) or (isinstance(value, list) and bool(value) and all(ok(v) for v in value))


def _flag(value) -> bool:
    return isinstance(value, bool)


def _format_spec(value) -> bool:
    if not _text(value):
        return False
    try:  # show() formats floats and integers with it
        format(0.5, value), format(2, value)
    except (ValueError, TypeError):
        return False
    return True


def _filter(value) -> bool:
    """One equality filter: {column: a value or a list of values} (``{}`` selects every row)."""
    return isinstance(value, dict) and all(_text(k) and _one_or_list(v, _scalar) for k, v in value.items())


# --- pointers into the published values (``paper_ref``; the paths are resolved by analysis.data.published) ---

#: what a pointer table may ask of the value it points at (besides ``ref``)
POINTER_KEYS = {"percent", "share", "midpoint", "minus", "over"}


def _resolve_one(document: dict, pointer):
    """One pointer of ``paper_ref``: a path, or a table ``{ ref = path, ... }`` that derives the claim's value from
    the published one: ``percent = true`` (a percentage: value / 100), ``share = true`` (a count printed as
    ``[changed, of]``: changed / of), ``midpoint = true`` (an interval ``[low, high]``: its middle), ``minus = <a
    pointer>`` (the difference of the two numbers), ``over = <a pointer>`` (their ratio)."""
    if isinstance(pointer, str):
        return resolve_ref(document, pointer)
    if not isinstance(pointer, dict) or "ref" not in pointer or set(pointer) - {"ref"} - POINTER_KEYS:
        raise RefError(f"a pointer is a path, or a pointer table is {{ ref = \"<path>\" }} with any of "
                       f"{sorted(POINTER_KEYS)}, got {pointer!r}")
    flags = [k for k in ("percent", "share", "midpoint") if k in pointer]
    if any(not _flag(pointer[k]) for k in flags) or sum(bool(pointer[k]) for k in flags) > 1:
        raise RefError(f"a pointer table is {{ ref = \"<path>\" }} whose 'percent', 'share' and 'midpoint' are true or "
                       f"false, at most one of them true; got {pointer!r}")
    value = resolve_ref(document, pointer["ref"])
    if pointer.get("percent"):
        if not _one_or_list(value, _number):
            raise RefError(f"{pointer['ref']} is {value!r}: 'percent' needs a number or a list of numbers")
        value = [v / 100 for v in value] if isinstance(value, list) else value / 100
    elif pointer.get("share") or pointer.get("midpoint"):
        if not (isinstance(value, list) and len(value) == 2 and all(_number(v) for v in value)):
            raise RefError(f"{pointer['ref']} is {value!r}: 'share' and 'midpoint' need a pair of numbers")
        if pointer.get("share") and value[1] == 0:
            raise RefError(f"{pointer['ref']} is {value!r}: a share of nothing")
        value = value[0] / value[1] if pointer.get("share") else (value[0] + value[1]) / 2
    for op in ("minus", "over"):
        if op in pointer:
            other = _resolve_one(document, pointer[op])
            if not (_number(value) and _number(other)) or (op == "over" and other == 0):
                raise RefError(f"{pointer!r}: {op!r} needs two numbers (and no division by 0), got {value!r} and "
                               f"{other!r}")
            value = value - other if op == "minus" else value / other
    return value


def resolve_paper_ref(document: dict, paper_ref):
    """The published value ``paper_ref`` stands for (``document``: the paper's published values, parsed). One
    pointer (a path or ``{ ref, percent }``) gives the value it points at, one value or a list. A list gives a
    list: each pointer's value in order (a pointer at a list adds all of its values), and an element that is a
    number or a boolean is taken as typed (a value the published file does not hold, e.g. an interval's midpoint)."""
    if not isinstance(paper_ref, list):
        return _resolve_one(document, paper_ref)
    if not paper_ref:
        raise RefError("an empty list points at nothing")
    values = []
    for k, pointer in enumerate(paper_ref):
        if _number(pointer) or isinstance(pointer, bool):
            values.append(pointer)
            continue
        try:
            value = _resolve_one(document, pointer)
        except RefError as exc:
            raise RefError(f"element [{k}] {pointer!r}: {exc}") from None
        values.extend(value if isinstance(value, list) else [value])
    return values


# --- tolerances and thresholds: half a printed digit, or a stated reason (``why``) -----------------------------------

#: the most decimals a printed value is read with (a float beyond them is a computed value, not a printed one)
_MAX_DECIMALS = 9
_FIXED_FORMAT = re.compile(r"\.(\d+)([f%]?)$")


def printed_decimals(value: float) -> int:
    """The decimals a value is printed with: the fewest that give it back (0.83 -> 2, 12 -> 0, 0.241 -> 3 also when
    it is 24.1 / 100). A value needing more than :data:`_MAX_DECIMALS` counts as printed with that many."""
    for d in range(_MAX_DECIMALS + 1):
        if abs(round(value, d) - value) <= 1e-9 * max(1.0, abs(value)):
            return d
    return _MAX_DECIMALS


def format_decimals(fmt: str | None) -> int | None:
    """The decimals a fixed-point ``format`` shows of a fraction (``.2f`` -> 2, ``.0%`` -> 2, ``.1%`` -> 3); None
    for a format without a fixed number of decimals (``+.3g``, ``,``) or none."""
    found = _FIXED_FORMAT.search(fmt or "")
    if not found:
        return None
    return int(found.group(1)) + (2 if found.group(2) == "%" else 0)


def half_printed_digit(values, fmt: str | None = None, *, each: bool = False) -> list[float] | None:
    """Half a unit of the last printed digit of the published value(s): ``0.5 * 10**-d`` with ``d`` the decimals
    the value is printed with — read off the value itself (:func:`printed_decimals`; a list printed at one
    precision shows it in its most precise element) or off ``format`` when that shows more (0.30 printed as "30%"
    is typed 0.3 with ``format = ".0%"``: two decimals of a fraction). One per value when ``each`` (a list of
    tolerances, one per value), else one for all. None when the published value holds no number (a word, a
    boolean)."""
    numbers = [v for v in (values if isinstance(values, list) else [values]) if _number(v)]
    if not numbers:
        return None
    shown = format_decimals(fmt) or 0
    decimals = [max(printed_decimals(float(v)), shown) for v in numbers]
    if not each:
        decimals = [max(decimals)]
    return [0.5 * 10.0 ** -d for d in decimals]


def unexplained(rule: str, value, tol, rtol: float, than, fmt: str | None) -> str | None:
    """What in a record needs a ``why`` (None: nothing): a ``within`` / ``consistent`` tolerance that is not half a
    unit of the last printed digit of the published value (:func:`half_printed_digit`; a tolerance of 0 needs no
    reason, any ``rtol`` does), or a ``than`` threshold, which is typed here rather than published."""
    if rule in ("within", "consistent"):
        if rtol:
            return f"'rtol' = {rtol} is a relative tolerance, not half a printed digit"
        tols = tol if isinstance(tol, list) else [tol]
        if not any(tols):
            return None
        half = half_printed_digit(value, fmt, each=isinstance(tol, list))
        if half is None:
            return f"'tol' = {tol!r} compares a published value that holds no number"
        if len(half) == 1 and len(tols) > 1:
            half = half * len(tols)
        off = [(t, h) for t, h in zip(tols, half) if t and abs(t - h) > 1e-9 * h]
        if off:
            expected = ", ".join(f"{h:g}" for h in half)
            return (f"'tol' = {tol!r} is not half a unit of the last printed digit of the published value "
                    f"({expected})")
        return None
    if than is not None:
        return f"'than' = {than!r} is a threshold typed here, not a published value"
    return None


_NUMBERS = "a finite number or a non-empty list of them"
_BOOLEANS_OR_NUMBERS = "a finite number or a boolean, or a non-empty list of them"
_SCALARS = "a string, a boolean or a finite number, or a non-empty list of them"


def _paper_check(rule: str, has_than: bool):
    """(check, words) the published value ``paper`` must pass for ``rule``, and whether the rule needs one."""
    if rule in ("within", "direction") or (rule == "compare" and not has_than):
        return (lambda v: _one_or_list(v, _number)), _NUMBERS, True
    if rule == "consistent":
        return (lambda v: _one_or_list(v, lambda x: _number(x) or isinstance(x, bool))), _BOOLEANS_OR_NUMBERS, True
    if rule == "order":
        return (lambda v: isinstance(v, list) and len(v) >= 2 and all(_number(x) for x in v)), \
            "a list of at least two finite numbers", True
    return (lambda v: _one_or_list(v, _scalar)), _SCALARS, rule in ("equal", "set")


def _claim(paper: str, default_chapter: str | None, record, path: Path, position: int,
           known_chapters: list[str], labels, published) -> Claim:
    """One record checked field by field; anything wrong is a one-line :class:`ClaimError` naming the file, the
    claim (its id, or its position when the id itself is wrong) and the field. ``published()`` gives the paper's
    published values (parsed) for a ``paper_ref``, or raises :class:`RefError`."""
    file = _shown(path)
    if not isinstance(record, dict):
        raise ClaimError(f"{file}: claim #{position}: a record must be a table ([[claims]]), got {record!r}")
    cid = record.get("id")
    name = repr(cid) if _text(cid) and _ID.fullmatch(cid) else f"#{position}"
    where = f"{file}: claim {name}"

    def fail(key: str, problem: str):
        raise ClaimError(f"{where}: '{key}' {problem}")

    def bad(key: str, wanted: str):
        fail(key, f"must be {wanted}, got {record[key]!r}")

    unknown = sorted(set(record) - _FIELDS)
    if unknown:
        raise ClaimError(f"{where}: unknown field(s) {unknown}; known: {sorted(_FIELDS)}")
    for key in ("id", "item", "where", "claim", "status", "rule"):
        if key not in record:
            fail(key, "is required (a non-empty string)")
        if not _text(record[key]):
            bad(key, "a non-empty string")
    if not _ID.fullmatch(cid):
        bad("id", "letters, digits, '.', '_' and '-' (starting with a letter or digit)")
    if record["status"] not in STATUSES:
        bad("status", f"one of {list(STATUSES)}")
    rule = record["rule"]
    if rule not in RULES:
        bad("rule", f"one of {list(RULES)}")
    misplaced = sorted(k for k in set().union(*RULE_FIELDS.values()) - RULE_FIELDS[rule] if k in record)
    if rule == "none":
        misplaced += [k for k in _OUTPUT_FIELDS if k in record]
    if misplaced and rule == "none":
        fail(misplaced[0], f"does not belong to rule 'none': a claim not tested here reads no output and applies no "
                           f"rule (fields {misplaced})")
    if misplaced:
        owners = {k: sorted(r for r, keys in RULE_FIELDS.items() if k in keys) for k in misplaced}
        fail(misplaced[0], f"does not belong to rule {rule!r} (fields {misplaced}; "
                           f"rules reading them: {owners})")
    testable = record["status"] != "not reachable" and rule != "none"

    # where our value comes from
    for key in ("source", "column") if testable else ():
        if key not in record:
            fail(key, f"is required: a testable claim (rule {rule!r}, status {record['status']!r}) reads its value "
                      "from a saved output")
    chapter = record.get("chapter", default_chapter)
    if "chapter" in record and not _text(record["chapter"]):
        bad("chapter", "a non-empty string")
    if chapter is None:
        fail("chapter", "is required (in the record or at the top of the file)")
    if chapter not in known_chapters:
        fail("chapter", f"{chapter!r} is not a chapter (notebooks/NN_name.py); chapters: {known_chapters}")
    if "source" in record:
        source = record["source"]
        if not _text(source) or not source.endswith(".csv"):
            bad("source", "the name of a CSV file a chapter saved ('<file>.csv' or '<chapter>/<file>.csv')")
        parts = Path(source).parts
        if Path(source).is_absolute() or ".." in parts or len(parts) > 2 or (len(parts) == 2
                                                                              and parts[0] not in known_chapters):
            bad("source", f"'<file>.csv' (in the claim's chapter) or '<chapter>/<file>.csv' with a chapter of "
                          f"{known_chapters}")
    rows = record.get("rows")
    if "rows" in record and not (_filter(rows) or (isinstance(rows, list) and rows
                                                   and all(_filter(r) and r for r in rows))):
        bad("rows", "an equality filter {column = value or [values]} or a non-empty list of non-empty filters")
    if "column" in record and not (_text(record["column"]) or (
            isinstance(record["column"], list) and record["column"] and all(_text(c) for c in record["column"])
            and len(set(record["column"])) == len(record["column"]))):
        bad("column", "a column name or a non-empty list of distinct column names")
    if "pool" in record:
        if not _flag(record["pool"]):
            bad("pool", "true or false")
        if record["pool"] and isinstance(rows, list):
            fail("pool", "cannot pool a list of selections (each picks one row)")

    # the published value (typed, or pointed at) and how ours is compared with it
    has_than = "than" in record
    check, words, needed = _paper_check(rule, has_than)
    value = record.get("paper")
    if "paper_ref" in record:
        if "paper" in record:
            fail("paper_ref", "and 'paper' are both set: a published value is typed ('paper') or pointed at "
                              "('paper_ref'), not both")
        try:
            value = resolve_paper_ref(published(), record["paper_ref"])
        except RefError as exc:  # a list names its failing element
            shown = "" if isinstance(record["paper_ref"], list) else f"{record['paper_ref']!r} "
            fail("paper_ref", f"{shown}does not resolve: {exc}")
        if not check(value):
            fail("paper_ref", f"points at {value!r}, which must be {words} for rule {rule!r}")
    elif "paper" in record and not check(value):
        fail("paper", f"must be {words} for rule {rule!r}, got {value!r}")
    if testable and needed and value is None:
        fail("paper", f"is required: rule {rule!r} compares with the published value"
                      + (" (or set 'than')" if rule == "compare" else "") + " (typed, or pointed at with 'paper_ref')")
    if has_than and not _one_or_list(record["than"], _number):
        bad("than", _NUMBERS)
    if rule == "compare" and record.get("op") not in OPS:
        fail("op", f"must be one of {list(OPS)} for rule 'compare', got {record.get('op')!r}")
    if rule == "qualitative" and not _text(record.get("test")):
        fail("test", "is required for rule 'qualitative': the stated test, a non-empty string")
    if "test" in record and not _text(record["test"]):
        bad("test", "a non-empty string")
    tol = record.get("tol", 0.0)
    if not _one_or_list(tol, lambda v: _number(v) and v >= 0):
        bad("tol", "a finite number >= 0 or a non-empty list of them (one per published value)")
    if isinstance(tol, list) and not (isinstance(value, list) and len(tol) == len(value)):
        fail("tol", f"has {len(tol)} tolerance(s); a list needs one per published value (paper = {value!r})")
    rtol = record.get("rtol", 0.0)
    if not (_number(rtol) and rtol >= 0):
        bad("rtol", "a finite number >= 0")
    part = record.get("part", 0.5)
    if not (_number(part) and 0 <= part <= 1):
        bad("part", "a number in [0, 1]")
    if "why" in record and not _text(record["why"]):
        bad("why", "a non-empty string: why the tolerance or threshold follows from the claim's meaning")
    if testable and "why" not in record:
        needs = unexplained(rule, value, tol, rtol, record.get("than"), record.get("format"))
        if needs:
            fail("why", f"is required: {needs}; say why it follows from the claim's meaning (rounding, a sampling "
                        "error of a stated size, the paper's own words)")

    # what the pages show
    if "reason" in record and not isinstance(record["reason"], str):
        bad("reason", "a string")
    if not testable and not _text(record.get("reason")):
        fail("reason", "is required: a claim that cannot be tested here needs a 'reason'")
    if "section" in record:
        if not (_text(record["section"]) and _LABEL.fullmatch(record["section"])):
            bad("section", "a section label (letters, digits, '_' and '-')")
        if record["section"] not in labels(chapter):
            fail("section", f"{record['section']!r} has no `({record['section']})=` label in notebooks/{chapter}.py")
    if "data" in record and not _text(record["data"]):
        bad("data", "a non-empty string naming the data the claim is tested on")
    if record["status"] in ("stand-in", "mixed") and "data" not in record:
        fail("data", f"is required for status {record['status']!r}: name the stand-in and what it stands in for "
                     "(\"SST-5 without neutral, standing in for Jigsaw\")")
    if ("data_share" in record) != (record["status"] == "mixed"):
        fail("data_share", "goes with status 'mixed' and only with it: the key of the chapter's recorded share of the "
                           "evidence that is the paper's own data")
    if "data_share" in record and not (_text(record["data_share"]) and _ID.fullmatch(record["data_share"])):
        bad("data_share", "a key of the chapter's claim_values.csv")
    if "unit" in record and not _text(record["unit"]):
        bad("unit", "a non-empty string: what the numbers count (\"places\", \"pairs\")")
    if "headline" in record and not _flag(record["headline"]):
        bad("headline", "true or false")
    if "format" in record and not _format_spec(record["format"]):
        bad("format", "a Python format specification for numbers, e.g. '.0%' or '.2f'")
    origin = record.get("origin", "compendium" if paper == "synthesis" else "paper")
    if origin not in ORIGINS:
        bad("origin", f"one of {list(ORIGINS)}")
    return Claim(paper=paper, id=cid, item=record["item"], where=record["where"], claim=record["claim"],
                 status=record["status"], rule=rule, chapter=chapter, paper_value=value,
                 source=record.get("source"), rows=rows, column=record.get("column"),
                 tol=tuple(float(t) for t in tol) if isinstance(tol, list) else float(tol), rtol=float(rtol),
                 part=float(part), op=record.get("op"), than=record.get("than"), test=record.get("test"),
                 reason=record.get("reason", ""), section=record.get("section"),
                 headline=record.get("headline", False), format=record.get("format"),
                 pool=record.get("pool", False), origin=origin, why=record.get("why", ""),
                 paper_ref=record.get("paper_ref"), data=record.get("data", ""),
                 data_share=record.get("data_share"), unit=record.get("unit", ""))


def category(claim: Claim, verdict: str, share: float | None = None) -> str:
    """Which of :data:`CATEGORIES` a claim's verdict belongs to: the compendium's own checks apart (never counted as
    a paper's failure); then what cannot be tested here; then the paper's claims on its own data (``status`` exact),
    on its own simulation rerun, or on stand-in data; a ``mixed`` claim goes where most of its evidence came from
    (``share``, the paper's part, read from the chapter's outputs: at least half is the paper's data)."""
    if claim.origin == "compendium":
        return "our own checks"
    if verdict == "not testable here":
        return "not testable here"
    if claim.status == "mixed":
        return "the paper's data" if share is not None and share >= 0.5 else "stand-in data"
    return {"exact": "the paper's data", "simulation": "the paper's simulation"}.get(claim.status, "stand-in data")


def _toml_error(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> ClaimError:
    """A TOML syntax error as one line naming the file, the line and the claim it falls in (the last ``id`` above
    it in the same record)."""
    message = str(exc).splitlines()[0]
    found = re.search(r"at line (\d+)", message)
    claim = ""
    if found:
        above = text.splitlines()[: int(found.group(1))]
        for line in reversed(above):
            if re.match(r"\s*\[\[?\s*claims\s*\]\]?\s*(#.*)?$", line):
                break
            hit = re.match(r"\s*id\s*=\s*(\"[^\"]*\"|'[^']*')", line)
            if hit:
                claim = f", in claim {hit.group(1)[1:-1]!r}"
                break
    return ClaimError(f"{_shown(path)}: not valid TOML: {message}{claim}")


def published_values(published: Path, paper: str) -> dict:
    """A paper's published values ``<published>/<paper>.toml`` (parsed) for its claims' pointers; a missing or
    malformed file is a :class:`RefError`."""
    path = Path(published) / f"{paper}.toml"
    if not path.is_file():
        raise RefError(f"{_shown(path)} does not exist (the published values a pointer reads; papers with them: "
                       f"{sorted(p.stem for p in Path(published).glob('*.toml'))})")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RefError(f"{_shown(path)} is unreadable: {str(exc).splitlines()[0]}") from None


def load(folder: str | Path | None = None, published: str | Path | None = None) -> list[Claim]:
    """Every claim of every paper, in file order. The registry folder must hold one file per paper of
    :data:`PAPERS`, each with at least one record, and nothing else ending in ``.toml``; a missing or malformed
    file or record is a one-line :class:`ClaimError` naming the file, the claim and the field. A ``paper_ref``
    points into ``<published>/<paper>.toml``; ``published`` defaults to the folder holding the registry folder
    (``data/published`` for ``data/published/claims``)."""
    folder = Path(folder) if folder else registry_dir()
    published = Path(published) if published else folder.parent
    documents: dict[str, dict | RefError] = {}

    def values_of(paper: str):
        def read() -> dict:
            if paper not in documents:
                try:
                    documents[paper] = published_values(published, paper)
                except RefError as exc:
                    documents[paper] = exc
            if isinstance(documents[paper], RefError):
                raise documents[paper]
            return documents[paper]
        return read

    if not folder.is_dir():
        raise ClaimError(f"{folder}: the claims registry folder does not exist (one <paper>.toml per paper of "
                         f"{list(PAPERS)})")
    unknown = sorted(p.name for p in folder.glob("*.toml") if p.stem not in PAPERS)
    if unknown:
        raise ClaimError(f"{_shown(folder)}: registry files for unknown papers {unknown}; known: {list(PAPERS)}")
    missing = [f"{paper}.toml" for paper in PAPERS if not (folder / f"{paper}.toml").is_file()]
    if missing:
        raise ClaimError(f"{_shown(folder)}: no registry file {missing}: every paper of {list(PAPERS)} needs its "
                         "claims (a deleted or renamed file would drop them)")
    known_chapters = chapters()
    if not known_chapters:
        raise ClaimError(f"{notebooks_dir()}: no chapter notebooks (NN_name.py) for the claims to belong to")
    label_cache: dict[str, set[str]] = {}

    def labels(chapter: str) -> set[str]:
        if chapter not in label_cache:
            label_cache[chapter] = section_labels(chapter)
        return label_cache[chapter]

    claims, seen = [], {}
    for paper in PAPERS:
        path = folder / f"{paper}.toml"
        file = _shown(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ClaimError(f"{file}: unreadable: {type(exc).__name__}: {exc}") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _toml_error(path, text, exc) from None
        stray = sorted(set(data) - TOP_LEVEL)
        if stray:
            raise ClaimError(f"{file}: unknown top-level key(s) or table(s) {stray}; a registry file holds "
                             "'chapter' and [[claims]] records only (a misspelt [[claims]] would drop its records)")
        default_chapter = data.get("chapter")
        if "chapter" in data and (not _text(default_chapter) or default_chapter not in known_chapters):
            raise ClaimError(f"{file}: top-level 'chapter' {default_chapter!r} is not a chapter "
                             f"(notebooks/NN_name.py); chapters: {known_chapters}")
        records = data.get("claims")
        if isinstance(records, dict):
            raise ClaimError(f"{file}: no [[claims]] records: 'claims' is a single table ([claims]); each record is "
                             "an array element ([[claims]])")
        if not isinstance(records, list) or not records:
            got = "none" if records is None else repr(records)
            raise ClaimError(f"{file}: no [[claims]] records (got {got}); every paper has at least one claim")
        for position, record in enumerate(records, start=1):
            claim = _claim(paper, default_chapter, record, path, position, known_chapters, labels,
                           values_of(paper))
            if claim.id in seen:
                other = seen[claim.id]
                where = "twice in this file" if other == file else f"also in {other}"
                raise ClaimError(f"{file}: claim {claim.id!r}: 'id' appears {where} (ids are unique across the "
                                 "registry)")
            seen[claim.id] = file
            claims.append(claim)
    return claims
