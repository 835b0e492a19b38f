"""Published values are typed once (issue 37, item 5): a claim points at its published value in
``data/published/<paper>.toml`` (``paper_ref``) instead of retyping it. Every pointer of the registry resolves, no
typed ``paper`` number of a claim equals a number the published file holds for the same paper item (the checker
below, tested on a small registry of its own so that it can fail), and a pointer that does not resolve is a
one-line error naming the file, the claim and the field."""

import math
import re
import tomllib
from pathlib import Path

import pytest

from analysis import claim_records
from analysis.claim_records import ClaimError
from analysis.data import published

from .claims_helpers import write_claims_registry

# --- the checker: a typed number the published file holds for the same paper item ------------------------------------

#: the kinds of paper item a text names ("Table 2", "Figs. 2-3", "App. D.2", "§5.1", "Section 6", "Lemma 1", ...)
_ITEM = re.compile(r"(?P<kind>Tables?|Fig(?:ure)?s?\.?|App(?:endix|endices|\.)|§|Section|Lemma|Prop(?:osition|\.)|"
                   r"[Aa]bstract)\s*(?P<first>[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)?[a-z]?"
                   r"(?:\s*[-–]\s*(?P<last>[A-Z]?(?:\.?\d+)+))?")
_KIND = {"tab": "table", "fig": "fig", "app": "appendix", "§": "section", "sec": "section", "lem": "lemma",
         "pro": "prop", "abs": "abstract"}


def item_refs(text: str) -> set[tuple[str, str]]:
    """The paper items a text names, as (kind, label): "Tables 2-3, Fig. 1" is {(table, 2), (table, 3), (fig, 1)},
    "Appendix D.2-D.3" {(appendix, D.2), (appendix, D.3)}, "Abstract" {(abstract, "")}."""
    refs = set()
    for hit in _ITEM.finditer(text):
        kind, first, last = _KIND[hit["kind"][:3].lower()], hit["first"] or "", hit["last"]
        refs.add((kind, first))
        if last:
            head, _, a = first.rpartition(".")
            b = last.rpartition(".")[2]
            if a.isdigit() and b.isdigit():
                refs |= {(kind, f"{head}.{n}" if head else str(n)) for n in range(int(a), int(b) + 1)}
            else:
                refs.add((kind, last))
    return {r for r in refs if r[1] or r[0] == "abstract"}


def _covers(claim_ref: tuple[str, str], item_ref: tuple[str, str]) -> bool:
    """A claim about "App. D" (or "§5") is about a published item of "Appendix D.2" (or "§5.1") too."""
    return claim_ref[0] == item_ref[0] and (item_ref[1] == claim_ref[1] or item_ref[1].startswith(claim_ref[1] + "."))


def _numbers(node):
    """Every number a published item holds (its ``source`` text aside), wherever it sits."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "source":
                yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)
    elif isinstance(node, (int, float)) and not isinstance(node, bool) and math.isfinite(node):
        yield node


def _typed(record: dict) -> list:
    """The numbers a record types as its published value: ``paper``'s, and those taken as typed in a ``paper_ref``
    list."""
    value = record["paper"] if "paper" in record else record.get("paper_ref")
    if "paper" not in record and not isinstance(value, list):
        return []
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def retyped(registry: Path, published_dir: Path) -> set[tuple[str, str, float, str]]:
    """Every (paper, claim id, typed number, published item) such that the claim types the number (see
    :func:`_typed`) and the paper's published file holds it, as is or as a percentage (the typed number is the
    published one / 100), in an item of the same paper item: one whose ``source`` names an item the claim's
    ``item`` names (or a part of it: a claim on "App. D" covers an item of "Appendix D.2")."""
    found = set()
    for path in sorted(Path(registry).glob("*.toml")):
        values = Path(published_dir) / path.name
        if not values.is_file():
            continue
        items = tomllib.loads(values.read_text(encoding="utf-8"))
        scopes = {name: item_refs(item.get("source", "")) for name, item in items.items() if isinstance(item, dict)}
        for record in tomllib.loads(path.read_text(encoding="utf-8")).get("claims", []):
            mine = item_refs(record.get("item", ""))
            for name, refs in scopes.items():
                if not any(_covers(c, r) for c in mine for r in refs):
                    continue
                held = set(_numbers(items[name]))
                for x in _typed(record):
                    if x in held or any(y / 100 == x for y in held):
                        found.add((path.stem, record["id"], x, name))
    return found


#: typed numbers that equal a published number of the same paper item by coincidence: (paper, id, number) -> why
COINCIDENCES: dict = {}  # no record types a number any more (test_no_claim_record_types_a_published_number)


def test_the_registry_retypes_no_published_number():
    found = retyped(claim_records.registry_dir(), claim_records.registry_dir().parent)
    unexplained = sorted(f for f in found if f[:3] not in COINCIDENCES)
    assert not unexplained, f"typed again (point at it with paper_ref): {unexplained}"
    stale = sorted(set(COINCIDENCES) - {f[:3] for f in found})
    assert not stale, f"no longer typed, drop from COINCIDENCES: {stale}"


def test_item_refs_reads_the_ways_the_papers_name_their_items():
    assert item_refs("Tables 2-3, Fig. 1 (SR-DC)") == {("table", "2"), ("table", "3"), ("fig", "1")}
    assert item_refs("Appendix D.2-D.3 (Figs. 10-13)") == {("appendix", "D.2"), ("appendix", "D.3")} | {
        ("fig", str(n)) for n in range(10, 14)}
    assert item_refs("App. D (Figs. 11–13)") == {("appendix", "D"), ("fig", "11"), ("fig", "12"), ("fig", "13")}
    assert item_refs("Figure 3 (§5) and §6: C5") == {("fig", "3"), ("section", "5"), ("section", "6")}
    assert item_refs("Abstract / §1 (ii)") == {("abstract", ""), ("section", "1")}
    assert item_refs("Fig. 5a") == {("fig", "5")}
    assert _covers(("appendix", "D"), ("appendix", "D.2")) and not _covers(("appendix", "D.2"), ("appendix", "D"))
    assert not _covers(("section", "5"), ("section", "51"))


# --- the checker on a registry of its own: it finds a typed value and leaves a pointer alone ------------------------

PUBLISHED = """[table2]
source = "Table 2 (§5.2): [changed, pairs]"
columns = ["group", "rank"]
rows = [["ALL SR+DC", [18, 25]], ["ALL SR-DC", [4, 21]]]

[section51]
source = "§5.1: shares in percent"
shares = { "en-et" = 4.9, "zh-en" = 98.8 }
"""

RECORD = """chapter = "03_wmt_stability"

[[claims]]
id = "x"
item = "{item}"
where = "§5.2"
claim = "a claim"
{paper}
source = "t.csv"
column = "v"
rule = "within"
tol = 1
why = "a count off by one"
status = "exact"
"""


def registry(tmp_path: Path, paper: str, item: str = "Table 2", values: str = PUBLISHED) -> Path:
    """A registry folder ``tmp_path/claims`` whose wmt.toml holds one record (``paper``: its published-value line),
    beside the published values ``tmp_path/wmt.toml``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "wmt.toml").write_text(values, encoding="utf-8")
    return write_claims_registry(tmp_path / "claims", {"wmt": RECORD.format(item=item, paper=paper)})


@pytest.mark.parametrize("paper, item, number", [
    ("paper = 18", "Table 2", 18),                                     # a cell typed again
    ("paper = [18, 0.5]", "Table 2", 18),                              # in a list
    ("paper = 0.049", "§5.1", 0.049),                                  # a percentage typed as a fraction
    ("paper_ref = ['table2[group = \"ALL SR+DC\"].rank[0]', 25]", "Table 2", 25),  # typed beside a pointer
    ("paper = 4.9", "§5 (toy example)", 4.9),                          # §5 covers the §5.1 item
])
def test_the_checker_finds_a_published_number_typed_again(tmp_path, paper, item, number):
    folder = registry(tmp_path, paper, item)
    assert ("wmt", "x", number) in {f[:3] for f in retyped(folder, tmp_path)}


@pytest.mark.parametrize("paper, item", [
    ("paper_ref = 'table2[group = \"ALL SR+DC\"].rank[0]'", "Table 2"),   # pointed at
    ("paper_ref = { ref = 'section51.shares.en-et', percent = true }", "§5.1"),
    ("paper = 0.72", "Table 2"),                                        # derived (18/25), not held
    ("paper = 18", "Table 3"),                                          # another item holds no 18
    ("paper = 4.9", "§5.2"),                                            # §5.2 does not cover §5.1
    ("paper = \"18\"", "Table 2"),                                      # words, not a number
])
def test_the_checker_leaves_pointers_and_other_items_alone(tmp_path, paper, item):
    assert not retyped(registry(tmp_path, paper, item), tmp_path)


# --- every pointer of the registry resolves, into the value the record used to type -----------------------------------

REGISTRY = claim_records.load()
POINTED = [c for c in REGISTRY if c.paper_ref is not None]


def test_every_paper_with_published_values_points_at_them():
    assert {c.paper for c in POINTED} == set(published.PAPERS)
    assert len(POINTED) >= 59  # 60 converted; gvp.table7-bt-from-c1, a misreading, removed since


def _paths(paper_ref) -> list[str]:
    refs = paper_ref if isinstance(paper_ref, list) else [paper_ref]
    return [r["ref"] if isinstance(r, dict) else r for r in refs if isinstance(r, (str, dict))]


@pytest.mark.parametrize("claim", POINTED, ids=lambda c: c.key)
def test_every_pointer_resolves_in_its_papers_published_values(claim):
    for path in _paths(claim.paper_ref):
        value = published.value(claim.paper, path)  # the chapters' reader: each item has its source
        assert value is not None and value != [], path
    assert claim.paper_value == claim_records.resolve_paper_ref(published.load(claim.paper), claim.paper_ref)


def test_pointed_values_are_the_ones_the_registry_typed_before():
    """A few values as the records typed them before they pointed (the verdicts depend on nothing else)."""
    typed = {"wmt.sec5-toy": [0.0, 0.39, -0.39], "wmt.table2-2018": [1, 0, 0],
             "wmt.sec51-ref-shares-2018": [0.049, 0.258, 0.474, 0.988], "favi.fig1-comet22": 0.611,
             "favi.fig3-counts": [200, 280, 90, 60, 470, 310, 220],
             # MEAN vs. BT's Disagree (0.09) is counted by its own record, table1-mean-bt-disagree (issue 51)
             "paired.table1-cells": [0.04, 0.18, 0.30, 0.40, 0.49, 0.09, 0.41, 0.55],
             "paired.section5-totals": [296, 73471, 91197, 4, 18], "gvp.table4-from-a2": [0.38, 0.90, 0.335, 0.50],
             "gvp.table7-bt": [-0.94, -0.89, 0.89]}
    by_key = {c.key: c for c in REGISTRY}
    for key, value in typed.items():
        assert by_key[key].paper_value == value and type(by_key[key].paper_value) is type(value), key
        if isinstance(value, list):
            assert [type(v) for v in by_key[key].paper_value] == [type(v) for v in value], key


# --- resolving a path ------------------------------------------------------------------------------------------------

DOCUMENT = tomllib.loads(PUBLISHED + """
[fig1]
source = "Fig. 1"
columns = ["divisor", "style", "rank"]
rows = [[1.5, "SR-DC", [4, 21]], [1.5, "SR+DC", [22, 25]], [2, "SR-DC", [6, 21]]]

[table4]
source = "Table 4"
columns = ["disagree", "top1"]
rows = [{ pair = ["mean", "median"], values = [4, 18] }, { pair = ["mean", "bt"], values = [9, 40] }]

[appendix]
source = "App. D"
pair_values = [{ metric = "DEB", favi = 0.72 }, { metric = "MAUDE", favi = 0.375 }]
"values" = { "CNN/DM" = [0.14, 0.17] }
""")


@pytest.mark.parametrize("path, value", [
    ("section51.shares.en-et", 4.9),
    ('section51.shares."zh-en"', 98.8),
    ('table2[group = "ALL SR+DC"].rank', [18, 25]),
    ('table2[group = "ALL SR+DC"].rank[1]', 25),
    ("table2.rows[1][1][0]", 4),
    ('fig1[divisor = 1.5, style = "SR+DC"].rank[0]', 22),
    ('fig1[divisor = 2.0].rank[0]', 6),                 # numbers by value
    ('table4[pair = ["mean", "bt"]].values[1]', 40),   # a dict row, a list cell as the filter
    ('appendix.pair_values[metric = "MAUDE"].favi', 0.375),
    ('appendix.values."CNN/DM"[1]', 0.17),
    ('table2[ group = "ALL SR-DC" ].rank[0]', 4),       # spaces inside a filter
])
def test_a_path_resolves(path, value):
    assert published.resolve(DOCUMENT, path) == value


@pytest.mark.parametrize("path, words", [
    ("table9.rows", "has no key 'table9'"),
    ("table2.rank", "has no key 'rank'"),
    ("table2.rows[2]", "no element [2]"),
    ("section51.shares.en-et[0]", "no element [0]"),
    ("section51.shares.en-et.x", "not a table with key 'x'"),
    ('table2[group = "ALL"]', "matches 0 of the 2 rows"),
    ('fig1[divisor = 1.5]', "matches 2 of the 3 rows"),
    ('fig1[divisor = "1.5"]', "matches 0 of the 3 rows"),   # a string is not a number
    ('section51.shares[group = "x"]', "not a table of rows"),
    ("table2", "is a table"),
    ("table2.rows", "not one published value"),
    ("table2[", "not closed"),
    ('table2[group = "ALL SR+DC"', "not closed"),
    ("table2[group]", "neither a list index"),
    ("table2[-1]", "neither a list index"),
    ("table2..rows", "a key is expected"),
    ("table2.", "ends without a key"),
    ("table2 rows", "unexpected ' '"),
    ('"table2', "not closed"),
    ("", "non-empty string"),
])
def test_a_path_that_does_not_resolve_says_why_in_one_line(path, words):
    with pytest.raises(published.RefError) as caught:
        published.resolve(DOCUMENT, path)
    assert words in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


def test_paper_ref_forms():
    resolve = claim_records.resolve_paper_ref
    assert resolve(DOCUMENT, "section51.shares.en-et") == 4.9
    assert resolve(DOCUMENT, {"ref": "section51.shares.en-et", "percent": True}) == 0.049
    assert resolve(DOCUMENT, {"ref": "section51.shares.en-et", "percent": False}) == 4.9
    assert resolve(DOCUMENT, {"ref": 'table4[pair = ["mean", "bt"]].values', "percent": True}) == [0.09, 0.4]
    assert resolve(DOCUMENT, ['table2[group = "ALL SR+DC"].rank', 0.5, True]) == [18, 25, 0.5, True]  # spliced
    assert resolve(DOCUMENT, [{"ref": "section51.shares.zh-en", "percent": True}, "table2.rows[1][1][0]"]) == [
        0.988, 4]


# --- hostile pointers: one line naming the file, the claim and 'paper_ref' -----------------------------------------

HOSTILE = {
    "missing key": ("paper_ref = 'table2.ranks'", "has no key 'ranks'"),
    "missing item": ("paper_ref = 'table9'", "has no key 'table9'"),
    "index past the end": ("paper_ref = 'table2.rows[5]'", "no element [5]"),
    "filter matching no row": ("paper_ref = 'table2[group = \"ALL\"].rank[0]'", "matches 0 of the 2 rows"),
    "points at a table": ("paper_ref = 'table2'", "is a table"),
    "points at a list of lists": ("paper_ref = 'table2.rows'", "not one published value"),
    "a string for rule within": ("paper_ref = 'table2.columns[0]'", "must be a finite number"),
    "percent of a string": ("paper_ref = { ref = 'table2.columns[0]', percent = true }", "'percent' needs a number"),
    "pointer table with an unknown key": ("paper_ref = { ref = 'table2.rows[0][1][0]', scale = 2 }",
                                          "a pointer table is"),
    "pointer table without ref": ("paper_ref = { percent = true }", "a pointer table is"),
    "percent not a boolean": ("paper_ref = { ref = 'table2.rows[0][1][0]', percent = 1 }", "a pointer table is"),
    "a number": ("paper_ref = 18", "a pointer is a path"),
    "an empty list": ("paper_ref = []", "an empty list"),
    "a nested list": ("paper_ref = [['table2.rows[0][1][0]']]",
                      "does not resolve: element [0] ['table2.rows[0][1][0]']: a pointer is a path"),
    "bad element in a list": ("paper_ref = ['table2.rows[0][1][0]', 'table2.rank']",
                              "does not resolve: element [1] 'table2.rank': table2 has no key 'rank'"),
    "unparsable path": ("paper_ref = 'table2[group'", "not closed"),
    "both paper and paper_ref": ("paper = 18\npaper_ref = 'table2.rows[0][1][0]'", "both set"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_pointer_that_does_not_resolve_is_one_line_naming_file_claim_and_field(tmp_path, case):
    paper, words = HOSTILE[case]
    with pytest.raises(ClaimError) as caught:
        claim_records.load(registry(tmp_path, paper))
    message = str(caught.value)
    assert "\n" not in message, message
    assert message.startswith(f"{tmp_path / 'claims' / 'wmt.toml'}: claim 'x': 'paper_ref' "), message
    assert words in message, message


def test_a_pointer_resolves_against_the_folder_holding_the_registry(tmp_path):
    folder = registry(tmp_path, "paper_ref = 'table2[group = \"ALL SR+DC\"].rank[0]'")
    (loaded,) = [c for c in claim_records.load(folder) if c.paper == "wmt"]
    assert loaded.paper_value == 18 and loaded.paper_ref == 'table2[group = "ALL SR+DC"].rank[0]'
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "wmt.toml").write_text(PUBLISHED.replace("[18, 25]", "[17, 25]"), encoding="utf-8")
    (loaded,) = [c for c in claim_records.load(tmp_path / "claims", published=other) if c.paper == "wmt"]
    assert loaded.paper_value == 17


def test_a_pointer_and_the_typed_value_give_the_same_claim(tmp_path):
    typed = claim_records.load(registry(tmp_path / "a", "paper = 0.049", "§5.1"))
    pointed = claim_records.load(registry(tmp_path / "b", "paper_ref = { ref = 'section51.shares.en-et', percent = "
                                                          "true }", "§5.1"))
    assert [c for c in typed if c.paper == "wmt"] == [c for c in pointed if c.paper == "wmt"]


def test_a_missing_or_malformed_published_file_is_named(tmp_path):
    folder = registry(tmp_path, "paper_ref = 'table2.rows[0][1][0]'")
    (tmp_path / "wmt.toml").unlink()
    message = str(pytest.raises(ClaimError, claim_records.load, folder).value)
    assert "claim 'x'" in message and "'paper_ref'" in message and "wmt.toml does not exist" in message, message
    (tmp_path / "wmt.toml").write_text("[table2\n", encoding="utf-8")
    message = str(pytest.raises(ClaimError, claim_records.load, folder).value)
    assert "wmt.toml is unreadable" in message and "\n" not in message, message


def test_a_pointer_in_a_paper_without_published_values_is_refused(tmp_path):
    text = RECORD.format(item="Study 1", paper="paper_ref = 'table2.rows[0][1][0]'").replace(
        "03_wmt_stability", "06_synthesis")
    folder = write_claims_registry(tmp_path / "claims", {"synthesis": text})
    message = str(pytest.raises(ClaimError, claim_records.load, folder).value)
    assert "synthesis.toml: claim 'x': 'paper_ref'" in message and "synthesis.toml does not exist" in message


def _typed_numbers(record: dict) -> list:
    """The numbers a record types for the paper's side: in ``paper``, or as elements of a ``paper_ref`` list."""
    def number(v):
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    typed = record.get("paper")
    found = [typed] if number(typed) else [v for v in typed if number(v)] if isinstance(typed, list) else []
    ref = record.get("paper_ref")
    return found + ([v for v in ref if number(v)] if isinstance(ref, list) else [])


def test_no_claim_record_types_a_published_number():
    """Issue 52: every number the paper side of a claim needs lives in ``data/published/<paper>.toml`` and is pointed
    at (a share, a midpoint, a difference or a ratio of printed numbers through the pointer's options), so it is typed
    once; a claim record types words only."""
    typed = {}
    for path in sorted((claim_records.registry_dir()).glob("*.toml")):
        if path.stem == "synthesis":  # hypotheses of the compendium: no paper to point at
            continue
        for record in tomllib.loads(path.read_text(encoding="utf-8")).get("claims", []):
            if _typed_numbers(record):
                typed[f"{path.stem}.{record['id']}"] = _typed_numbers(record)
    assert not typed, typed


def test_the_typed_number_check_can_fail():
    assert _typed_numbers({"paper": 0.3}) == [0.3] and _typed_numbers({"paper": [1, "x", True]}) == [1]
    assert _typed_numbers({"paper_ref": ["a.b", 0.68]}) == [0.68] and _typed_numbers({"paper": "about 30%"}) == []


@pytest.mark.parametrize("pointer, value", [
    ({"ref": "t.pair", "share": True}, 0.75), ({"ref": "t.pair", "midpoint": True}, 2.0),
    ({"ref": "t.x", "minus": {"ref": "t.y"}}, 3.0), ({"ref": "t.x", "over": {"ref": "t.y"}}, 2.5),
    ({"ref": "t.pair", "share": True, "minus": {"ref": "t.pair", "share": True}}, 0.0),
])
def test_a_pointer_derives_a_share_a_midpoint_a_difference_or_a_ratio(pointer, value):
    document = {"t": {"pair": [3, 4], "x": 5, "y": 2}}
    pointer = {**pointer, "ref": pointer["ref"].replace("pair", "pair")}
    got = claim_records.resolve_paper_ref(document, pointer)
    assert math.isclose(got, value if pointer["ref"] != "t.pair" or "midpoint" not in pointer else 3.5)


@pytest.mark.parametrize("pointer, message", [
    ({"ref": "t.x", "share": True}, "need a pair of numbers"), ({"ref": "t.zero", "share": True}, "a share of nothing"),
    ({"ref": "t.x", "over": {"ref": "t.nought"}}, "no division by 0"), ({"ref": "t.x", "bogus": 1}, "a pointer is"),
    ({"ref": "t.pair", "share": True, "midpoint": True}, "at most one of them"),
])
def test_a_pointer_that_cannot_derive_its_value_is_named(pointer, message):
    document = {"t": {"pair": [3, 4], "x": 5, "zero": [1, 0], "nought": 0}}
    with pytest.raises(published.RefError, match=re.escape(message)):
        claim_records.resolve_paper_ref(document, pointer)
