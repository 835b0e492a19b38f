"""The claims registry never loses a claim and never says less than it should: every malformed file or record is
refused with one line naming the file, the claim and the field (a hostile-case suite), a missing or empty registry
writes nothing, a row filter never pools rows silently, and an empty saved value is "not run"."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis import claim_records, claims, claims_cli
from analysis.claim_records import Claim, ClaimError
from analysis.data import published

from .claims_helpers import write_claims_registry
from .helpers import ROOT

BASE = """chapter = "02_real_setups"

[[claims]]
id = "a"
item = "Table 1"
where = "§5"
claim = "MEAN and BT disagree on 9% of pairs"
paper = 0.09
source = "t.csv"
rows = { pair = "mean_bt" }
column = "disagree"
rule = "within"
tol = 0.02
status = "exact"
section = "paired-table1"
why = "two standard errors of a share near 9% over a few hundred pairs"
"""


def edit(text: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def refused(folder: Path) -> str:
    """The one-line message :func:`claim_records.load` refuses ``folder`` with."""
    with pytest.raises(ClaimError) as caught:
        claim_records.load(folder)
    message = str(caught.value)
    assert message and "\n" not in message, message
    return message


def test_the_base_record_loads(tmp_path):
    loaded = claim_records.load(write_claims_registry(tmp_path / "reg", {"paired": BASE}))
    assert [c.key for c in loaded if c.paper == "paired"] == ["paired.a"]


# --- the hostile cases: one record changed, refused naming the file, the claim and the field ------------------------

def rule(name: str, *extra: str) -> tuple[str, str]:
    """Another rule, without the tolerance only ``within`` reads."""
    return 'rule = "within"\ntol = 0.02\n', f'rule = "{name}"\n' + "".join(f"{line}\n" for line in extra)


def add(*lines: str) -> tuple[str, str]:
    return 'status = "exact"\n', 'status = "exact"\n' + "".join(f"{line}\n" for line in lines)


RECORD_CASES = {  # case: (changes, the claim as named, the field named)
    # vocabularies
    "unknown rule": ([('rule = "within"', 'rule = "close"')], "'a'", "rule"),
    "rule in another case": ([('rule = "within"', 'rule = "Within"')], "'a'", "rule"),
    "unknown status": ([('status = "exact"', 'status = "published"')], "'a'", "status"),
    "status not a string": ([('status = "exact"', "status = 1")], "'a'", "status"),
    "unknown op": ([rule("compare", 'op = "=>"')], "'a'", "op"),
    "compare without op": ([rule("compare")], "'a'", "op"),
    # required fields
    "missing id": ([('id = "a"\n', "")], "#1", "id"),
    "missing item": ([('item = "Table 1"\n', "")], "'a'", "item"),
    "missing where": ([('where = "§5"\n', "")], "'a'", "where"),
    "missing claim": ([('claim = "MEAN and BT disagree on 9% of pairs"\n', "")], "'a'", "claim"),
    "missing status": ([('status = "exact"\n', "")], "'a'", "status"),
    "missing rule": ([('rule = "within"\n', "")], "'a'", "rule"),
    "missing source": ([('source = "t.csv"\n', "")], "'a'", "source"),
    "missing column": ([('column = "disagree"\n', "")], "'a'", "column"),
    "missing paper": ([("paper = 0.09\n", "")], "'a'", "paper"),
    "qualitative without test": ([rule("qualitative")], "'a'", "test"),
    "not reachable without reason": ([('status = "exact"', 'status = "not reachable"')], "'a'", "reason"),
    # strings are strings
    "id a number": ([('id = "a"', "id = 3")], "#1", "id"),
    "id with a space": ([('id = "a"', 'id = "a b"')], "#1", "id"),
    "empty item": ([('item = "Table 1"', 'item = "  "')], "'a'", "item"),
    "claim a list": ([('claim = "MEAN and BT disagree on 9% of pairs"', 'claim = ["MEAN"]')], "'a'", "claim"),
    "reason a number": ([add("reason = 5")], "'a'", "reason"),
    "test an empty string": ([rule("qualitative", 'test = ""')], "'a'", "test"),
    # numbers: finite, in range
    "tol inf": ([("tol = 0.02", "tol = inf")], "'a'", "tol"),
    "tol nan": ([("tol = 0.02", "tol = nan")], "'a'", "tol"),
    "tol negative": ([("tol = 0.02", "tol = -1")], "'a'", "tol"),
    "tol a string": ([("tol = 0.02", 'tol = "0.02"')], "'a'", "tol"),
    "tol a boolean": ([("tol = 0.02", "tol = true")], "'a'", "tol"),
    "two tolerances for one value": ([("tol = 0.02", "tol = [0.01, 0.02]")], "'a'", "tol"),
    "tolerances not one per value": ([("paper = 0.09", "paper = [0.09, 0.1]"), ("tol = 0.02", "tol = [0.01]")],
                                     "'a'", "tol"),
    "rtol negative": ([add("rtol = -1")], "'a'", "rtol"),
    "rtol inf": ([add("rtol = inf")], "'a'", "rtol"),
    "part above one": ([add("part = 1.5")], "'a'", "part"),
    "part a boolean": ([add("part = true")], "'a'", "part"),
    "paper nan": ([("paper = 0.09", "paper = nan")], "'a'", "paper"),
    "paper -inf": ([("paper = 0.09", "paper = -inf")], "'a'", "paper"),
    "paper true for within": ([("paper = 0.09", "paper = true")], "'a'", "paper"),
    "paper a string for within": ([("paper = 0.09", 'paper = "0.09"')], "'a'", "paper"),
    "paper an empty list": ([("paper = 0.09", "paper = []")], "'a'", "paper"),
    "paper a nested list": ([("paper = 0.09", "paper = [[0.09]]")], "'a'", "paper"),
    "paper a list holding nan": ([("paper = 0.09", "paper = [0.09, nan]")], "'a'", "paper"),
    "paper a table": ([("paper = 0.09", "paper = { v = 0.09 }")], "'a'", "paper"),
    "order of one value": ([rule("order")], "'a'", "paper"),
    "direction of a boolean": ([rule("direction"), ("paper = 0.09", "paper = false")], "'a'", "paper"),
    "than a string": ([rule("compare", 'op = "<"', 'than = "0.1"')], "'a'", "than"),
    "than inf": ([rule("compare", 'op = "<"', "than = inf")], "'a'", "than"),
    # booleans are booleans
    "headline a string": ([add('headline = "false"')], "'a'", "headline"),
    "headline a number": ([add("headline = 1")], "'a'", "headline"),
    "origin not a known one": ([add('origin = "mine"')], "'a'", "origin"),
    "pool a string": ([add('pool = "yes"')], "'a'", "pool"),
    "pool with a list of selections": ([('rows = { pair = "mean_bt" }', 'rows = [{ pair = "mean_bt" }]'),
                                        add("pool = true")], "'a'", "pool"),
    # where our value comes from
    "source a number": ([('source = "t.csv"', "source = 3")], "'a'", "source"),
    "source not a CSV": ([('source = "t.csv"', 'source = "t.txt"')], "'a'", "source"),
    "source outside the outputs": ([('source = "t.csv"', 'source = "../t.csv"')], "'a'", "source"),
    "source an absolute path": ([('source = "t.csv"', 'source = "/tmp/t.csv"')], "'a'", "source"),
    "source in an unknown chapter": ([('source = "t.csv"', 'source = "02_real_setup/t.csv"')], "'a'", "source"),
    "column a number": ([('column = "disagree"', "column = 3")], "'a'", "column"),
    "column an empty list": ([('column = "disagree"', "column = []")], "'a'", "column"),
    "column twice": ([('column = "disagree"', 'column = ["disagree", "disagree"]')], "'a'", "column"),
    "rows a string": ([('rows = { pair = "mean_bt" }', 'rows = "mean_bt"')], "'a'", "rows"),
    "rows an empty list": ([('rows = { pair = "mean_bt" }', "rows = []")], "'a'", "rows"),
    "rows an empty filter in a list": ([('rows = { pair = "mean_bt" }', "rows = [{}]")], "'a'", "rows"),
    "rows filter nan": ([('rows = { pair = "mean_bt" }', "rows = { pair = nan }")], "'a'", "rows"),
    "rows filter a table": ([('rows = { pair = "mean_bt" }', "rows = { pair = { a = 1 } }")], "'a'", "rows"),
    # unknown and misplaced fields
    "unknown field": ([("tol = 0.02", "tolerance = 0.02")], "'a'", "tolerance"),
    "field of another rule (op)": ([add('op = "<"')], "'a'", "op"),
    "field of another rule (test)": ([add('test = "a stated test"')], "'a'", "test"),
    "tolerance on a set": ([('rule = "within"', 'rule = "set"')], "'a'", "tol"),
    "rule none with a source": ([rule("none"), add('reason = "not here"')], "'a'", "source"),
    # the pages: chapter, section, format
    "chapter typo": ([add('chapter = "02_real_setup"')], "'a'", "chapter"),
    "chapter a number": ([add("chapter = 2")], "'a'", "chapter"),
    "section typo": ([('section = "paired-table1"', 'section = "paired-tabel1"')], "'a'", "section"),
    "section of another chapter": ([('section = "paired-table1"', 'section = "wmt-table2"')], "'a'", "section"),
    "section not a label": ([('section = "paired-table1"', 'section = "paired table1"')], "'a'", "section"),
    "format not a format": ([add('format = ".0q"')], "'a'", "format"),
    "format a number": ([add("format = 5")], "'a'", "format"),
}


@pytest.mark.parametrize("case", list(RECORD_CASES))
def test_a_malformed_record_is_refused_naming_file_claim_and_field(tmp_path, case):
    changes, claim, field = RECORD_CASES[case]
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": edit(BASE, *changes)}))
    assert "paired.toml" in message and f"claim {claim}" in message, message
    assert re.search(rf"'{re.escape(field)}'", message), message


def test_the_second_record_is_named_by_position_when_its_id_is_bad(tmp_path):
    text = BASE + edit(BASE.split("\n", 2)[2], ('id = "a"', 'id = ""'))
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": text}))
    assert "paired.toml: claim #2: 'id'" in message


def test_a_duplicate_id_in_one_file(tmp_path):
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": BASE + BASE.split("\n", 2)[2]}))
    assert "paired.toml: claim 'a': 'id' appears twice in this file" in message


def test_a_duplicate_id_across_files_names_both(tmp_path):
    wmt = edit(BASE, ('chapter = "02_real_setups"', 'chapter = "03_wmt_stability"'),
               ('section = "paired-table1"', 'section = "wmt-table2"'))
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": BASE, "wmt": wmt}))
    assert "wmt.toml: claim 'a': 'id' appears also in" in message and "paired.toml" in message


@pytest.mark.parametrize("change, line", [
    (('claim = "MEAN and BT disagree on 9% of pairs"', 'claim = "MEAN and BT disagree'), 7),  # an unclosed string
    (("tol = 0.02", "tol = 0.02 0.03"), 13),
    (('status = "exact"', 'status = "exact"\nstatus = "stand-in"'), 15),  # a key twice
])
def test_a_toml_syntax_error_names_file_line_and_claim(tmp_path, change, line):
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": edit(BASE, change)}))
    assert "paired.toml: not valid TOML" in message and f"line {line}" in message and "in claim 'a'" in message


# --- the hostile cases: a file or the folder ----------------------------------------------------------------------

FILE_CASES = {  # case: (text of paired.toml, what the message says besides the file)
    "empty file": ("", "no [[claims]] records"),
    "only a chapter": ('chapter = "02_real_setups"\n', "no [[claims]] records"),
    "[[claim]] typo": (BASE.replace("[[claims]]", "[[claim]]"), "['claim']"),
    "[[cliam]] typo": (BASE.replace("[[claims]]", "[[cliam]]"), "['cliam']"),
    "[claims] a single table": (BASE.replace("[[claims]]", "[claims]"), "no [[claims]] records"),
    "claims a number": ('claims = 3\n', "no [[claims]] records"),
    "records not tables": ('chapter = "02_real_setups"\nclaims = [1, 2]\n', "claim #1"),
    "stray top-level key": ("chpater = 1\n" + BASE, "['chpater']"),
    "stray top-level table after the records": (BASE + "\n[notes]\ntext = 'x'\n", "['notes']"),
    "top-level chapter typo": (BASE.replace('chapter = "02_real_setups"', 'chapter = "02_real_setup"'),
                               "top-level 'chapter' '02_real_setup' is not a chapter"),
}


@pytest.mark.parametrize("case", list(FILE_CASES))
def test_a_malformed_file_is_refused_naming_it(tmp_path, case):
    text, words = FILE_CASES[case]
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": text}))
    assert "paired.toml" in message and words in message, message


def test_a_file_that_is_not_utf8_is_refused_naming_it(tmp_path):
    folder = write_claims_registry(tmp_path / "reg", {"paired": BASE})
    (folder / "paired.toml").write_bytes(b"\xff\xfe" + BASE.encode("utf-16-le"))
    assert "paired.toml: unreadable" in refused(folder)


@pytest.mark.parametrize("damage, words", [
    (lambda f: (f / "wmt.toml").unlink(), "no registry file ['wmt.toml']"),  # a deleted file dropped its claims
    (lambda f: (f / "wmt.toml").rename(f / "wmt.toml.bak"), "no registry file ['wmt.toml']"),
    (lambda f: (f / "wmt.toml").rename(f / "wmt_old.toml"), "unknown papers ['wmt_old.toml']"),
    (lambda f: [p.unlink() for p in f.glob("*.toml")], "no registry file ['paired.toml', 'wmt.toml'"),
])
def test_a_missing_or_foreign_registry_file_is_refused(tmp_path, damage, words):
    folder = write_claims_registry(tmp_path / "reg", {"paired": BASE})
    damage(folder)
    message = refused(folder)
    assert str(folder) in message and words in message, message


def test_a_registry_folder_that_does_not_exist_is_refused(tmp_path):
    message = refused(tmp_path / "nowhere")
    assert str(tmp_path / "nowhere") in message and "does not exist" in message


# --- the command: a refused registry writes nothing and says one line on stderr -------------------------------------

@pytest.fixture
def outputs(tmp_path):
    """Saved outputs and a book's claims files from an earlier run (which a refused registry must leave alone)."""
    root = tmp_path / "out"
    (root / "02_real_setups").mkdir(parents=True)
    pd.DataFrame({"pair": ["mean_median", "mean_bt", "mean_bt", "median_bt"], "kind": ["a", "a", "b", "a"],
                  "disagree": [0.04, 0.08, 0.10, 0.09]}).to_csv(root / "02_real_setups" / "t.csv", index=False)
    (root / "claims").mkdir()
    (root / "claims.csv").write_text("the last good claims.csv\n")
    (root / "claims" / "at_a_glance.md").write_text("the last good verdicts\n")
    return root


def _unchanged(outputs: Path) -> bool:
    return ((outputs / "claims.csv").read_text() == "the last good claims.csv\n"
            and (outputs / "claims" / "at_a_glance.md").read_text() == "the last good verdicts\n"
            and sorted(p.name for p in (outputs / "claims").iterdir()) == ["at_a_glance.md"])


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp / "nowhere", "does not exist"),
    (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "no registry file"),
    (lambda tmp: write_claims_registry(tmp / "reg", {"paired": BASE.replace("[[claims]]", "[[claim]]")}), "['claim']"),
    (lambda tmp: write_claims_registry(tmp / "reg", {"paired": BASE + 'chapter = "02_real_setup"\n'}), "chapter"),
    (lambda tmp: write_claims_registry(tmp / "reg", {"paired": BASE.replace("tol = 0.02", "tol = inf")}), "'tol'"),
    (lambda tmp: write_claims_registry(tmp / "reg", {"paired": BASE.replace("tol = 0.02", "tol = 0.02 1")}), "TOML"),
])
def test_a_refused_registry_writes_nothing_and_exits_2_with_one_line(tmp_path, outputs, capsys, make, words):
    registry = make(tmp_path)
    code = claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=io.StringIO())
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("claims: error: ") and words in err[0], err
    assert _unchanged(outputs)  # was: "0 claims", exit 0, claims.csv and the front page replaced by empty ones


def test_the_cli_refuses_a_missing_registry_folder(tmp_path, outputs):
    result = subprocess.run([sys.executable, "-m", "analysis", "claims", "--outputs", str(outputs),
                             "--registry", str(tmp_path / "nowhere")], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and str(tmp_path / "nowhere") in result.stderr
    assert _unchanged(outputs)


# --- a row filter never pools rows silently -----------------------------------------------------------------------

def claim(**fields) -> Claim:
    base = dict(paper="paired", id="x", item="Table 1", where="§5", claim="c", status="exact", rule="within",
                chapter="02_real_setups", paper_value=0.08, source="t.csv", column="disagree", tol=0.05)
    return Claim(**{**base, **fields})


@pytest.mark.parametrize("fields, rows", [
    (dict(rows={"pair": "mean_bt"}), 2),  # a filter meant for one row finds two
    (dict(rows=None), 4),  # no filter: the whole file
    (dict(rows={}), 4),
    (dict(rows={"pair": ["mean_bt", "median_bt"]}), 3),  # two values listed: two rows wanted
    (dict(rows={"kind": "a"}, paper_value=[0.04, 0.08]), 3),  # two published values
    (dict(rule="compare", op="<", than=0.5, rows={"pair": "mean_bt"}), 2),
    (dict(rule="qualitative", test="t", rows={"pair": "mean_bt"}), 2),
])
def test_a_filter_matching_more_rows_than_the_claim_compares_is_an_error(outputs, fields, rows):
    with pytest.raises(ClaimError) as caught:
        claims.our_value(claim(**fields), outputs)
    message = str(caught.value)
    assert message.startswith("claim paired.x: 02_real_setups/t.csv: ") and f"{rows} rows match" in message
    assert "pool = true" in message and "\n" not in message


@pytest.mark.parametrize("fields, expected", [
    (dict(rows={"pair": "mean_median"}), 0.04),
    (dict(rows={"pair": "mean_bt"}, pool=True), [0.08, 0.10]),  # a group, declared
    (dict(rows=None, pool=True), [0.04, 0.08, 0.10, 0.09]),
    (dict(rows={"kind": "a"}, paper_value=[0.04, 0.08, 0.09]), [0.04, 0.08, 0.09]),  # one row per published value
    (dict(rows={"pair": ["mean_median", "median_bt"]}), [0.04, 0.09]),  # one row per listed value
    (dict(rows={"pair": "mean_bt"}, rule="set", paper_value=[0.08, 0.1]), [0.08, 0.10]),  # a set is a group
    (dict(rows=[{"pair": "median_bt"}, {"pair": "mean_median"}]), [0.09, 0.04]),
])
def test_a_filter_matching_what_the_claim_compares_reads_it(outputs, fields, expected):
    assert claims.our_value(claim(**fields), outputs) == expected


def test_a_filter_matching_no_row_names_claim_and_file(outputs):
    with pytest.raises(ClaimError, match=r"^claim paired.x: 02_real_setups/t.csv: no row matches \{'pair': 'elo'\}$"):
        claims.our_value(claim(rows={"pair": "elo"}), outputs)


def test_pooling_silently_was_a_verdict_and_is_now_not_run(tmp_path, outputs):
    """Before, {pair = "mean_bt"} pooled two rows (0.08 passes, 0.10 fails) into "reproduced in part", exit 0."""
    text = edit(BASE, ("tol = 0.02", "tol = 0.005"), ("paper = 0.09", "paper = 0.08"))
    registry = write_claims_registry(tmp_path / "reg", {"paired": text})
    out = io.StringIO()
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=out) == 1
    assert "NOT RUN paired.a: 02_real_setups/t.csv: 2 rows match {'pair': 'mean_bt'}" in out.getvalue()
    registry = write_claims_registry(tmp_path / "pooled", {"paired": text + "pool = true\n"})
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=io.StringIO()) == 0
    table = pd.read_csv(outputs / "claims.csv")
    assert table.loc[table.id == "a", "verdict"].tolist() == ["reproduced in part"]


# --- an empty saved value is "not run" ----------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [
    dict(rule="within", paper_value=0.5, tol=0.1),
    dict(rule="consistent", paper_value=0.5, tol=0.1),
    dict(rule="equal", paper_value=0.5),
    dict(rule="compare", op=">", than=0.1),
    dict(rule="direction", paper_value=0.5),
    dict(rule="qualitative", test="a stated test"),
    dict(rule="order", paper_value=[1, 2], rows=[{"key": "empty"}, {"key": "full"}]),
    dict(rule="set", paper_value=["a"], column="name", rows=None),
], ids=lambda f: f["rule"])
def test_an_empty_saved_value_is_not_run(tmp_path, fields):
    outputs = tmp_path / "out"
    (outputs / "02_real_setups").mkdir(parents=True)
    (outputs / "02_real_setups" / "t.csv").write_text("key,value,name\nempty,,\nfull,0.5,a\n")
    c = claim(**{"rows": {"key": "empty"}, "column": "value", **fields})
    (row,) = claims.evaluate([c], outputs).to_dict("records")
    assert row["verdict"] == "not run", row  # was "not reproduced" (within, compare, direction, order, equal)
    assert row["reason"].startswith("no value saved: 1 of the ") and "t.csv" in row["reason"]
    with pytest.raises(ClaimError, match=r"^claim paired.x: no value saved"):
        claims.verdict(c, claims.our_value(c, outputs))


# --- the real registry --------------------------------------------------------------------------------------------

def test_the_real_registry_loads_every_record_it_holds():
    """Every [[claims]] header of every file is a loaded claim (nothing dropped) and every record passes the checks."""
    loaded = claim_records.load()
    for paper in claim_records.PAPERS:
        text = (claim_records.registry_dir() / f"{paper}.toml").read_text(encoding="utf-8")
        headers = len(re.findall(r"^\[\[claims\]\]\s*$", text, flags=re.M))
        assert headers and sum(c.paper == paper for c in loaded) == headers, paper
    assert len({c.id for c in loaded}) == len(loaded)
    assert {c.chapter for c in loaded} <= set(claim_records.chapters())
    assert all(c.section in claim_records.section_labels(c.chapter) for c in loaded if c.section)


# --- a tolerance or threshold other than half a printed digit carries its reason -----------------------------------

@pytest.mark.parametrize("values, fmt, each, expected", [
    (0.12, None, False, [0.005]),  # printed with two decimals
    ([0.9, 0.83], None, False, [0.005]),  # a table printed at one precision: its most precise value shows it
    ([0.07, 0.348], None, True, [0.005, 0.0005]),  # one per value
    (0.3, ".0%", False, [0.005]),  # "30%": the format shows two decimals of the fraction
    (24.1 / 100, None, False, [0.0005]),  # a percentage pointed at: 24.1% is 0.241
    (1123.6, ",.1f", False, [0.05]),
    (12, None, False, [0.5]),
    ("less than half", None, False, None),
])
def test_half_a_printed_digit(values, fmt, each, expected):
    half = claim_records.half_printed_digit(values, fmt, each=each)
    assert half == (None if expected is None else pytest.approx(expected))


@pytest.mark.parametrize("changes", [
    [("tol = 0.02", "tol = 0.005")],  # half a unit of 0.09's last digit
    [("tol = 0.02", "tol = 0")],  # no tolerance
    [("paper = 0.09", "paper = [0.09, 0.125]"), ("tol = 0.02", "tol = [0.005, 0.0005]")],
])
def test_half_a_printed_digit_needs_no_why(tmp_path, changes):
    text = edit(BASE, *changes).replace('why = "two standard errors of a share near 9% over a few hundred pairs"\n', "")
    assert claim_records.load(write_claims_registry(tmp_path / "reg", {"paired": text}))


@pytest.mark.parametrize("changes, words", [
    ([], "'tol' = 0.02 is not half a unit"),
    ([("tol = 0.02", "tol = 0.05"), ("paper = 0.09", "paper = 0.3"), add('format = ".0%"')],
     "'tol' = 0.05 is not half a unit"),  # "about 30%": 0.3 printed as a whole percent
    ([add("rtol = 0.1"), ("tol = 0.02", "tol = 0.005")], "'rtol'"),
    ([("tol = 0.02", "tol = 1e-6")], "'tol' = 1e-06"),  # stricter than the rounding needs a reason too
    ([rule("compare", 'op = "<"', "than = 0.5")], "'than' = 0.5 is a threshold typed here"),
])
def test_a_tolerance_or_threshold_without_its_why_is_refused(tmp_path, changes, words):
    text = edit(BASE, *changes).replace('why = "two standard errors of a share near 9% over a few hundred pairs"\n', "")
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": text}))
    assert "paired.toml: claim 'a': 'why' is required" in message and words in message


def test_a_why_must_be_text(tmp_path):
    text = BASE.replace('why = "two standard errors of a share near 9% over a few hundred pairs"', "why = 1")
    message = refused(write_claims_registry(tmp_path / "reg", {"paired": text}))
    assert "claim 'a': 'why' must be a non-empty string" in message


def test_the_registry_explains_every_tolerance_and_threshold():
    """Every loaded record's tolerance is half a printed digit or has a reason, and every 'than' has one."""
    for c in claim_records.load():
        if c.status != "not reachable" and c.rule != "none":
            tol = list(c.tol) if isinstance(c.tol, tuple) else c.tol
            needs = claim_records.unexplained(c.rule, c.paper_value, tol, c.rtol, c.than, c.format)
            assert not needs or c.why.strip(), (c.key, needs)


# --- a published cell is counted once per reading (issue 51) --------------------------------------------------------
#
# A record counts the published cells its ``paper_ref`` points at (a pointer at a list counts each element) when its
# verdict is the paper's: a testable record (not rule "none", not "not reachable") of the paper's own claims (not
# ``origin = "compendium"``, our own checks, counted apart). Its reading is how it compares our value with the cell:
# "as printed" for every rule but ``consistent``, "the paper against itself" for ``consistent``, unless the record
# is declared below with a reading of its own. Two records counting one cell in the same reading count it twice (a
# published number tested twice, a verdict weighed double), and the test fails naming both. A record reading a cell
# another way (its columns exchanged, another appendix's column, another AP) is declared here, with its reading.

#: records that read their published cells another way than their rule's default, by key: the reading, in words
READINGS = {
    "paired.table3-rouge-we-exchanged": "the block's Mean/BT and Med/BT columns exchanged",
    "gvp.table3-acc-f1-from-b2": "recomputed with Appendix B.2's accuracy in place of B.1's",
    "gvp.table5-from-b-own-copy": "recomputed as each original against its own copy, not pooled",
    "gvp.table6-from-c2-distances": "recomputed with ED and WER read as distances",
    "paired.prop1-ties-and-even-n": "Prop. 1 read as stated, beyond App. B's case (even n, tied ratings)",
    "paired.appF-full-reversed": "App. F's 'no' read with the tied combinations counted too",
    "paired.appF-full-reversed-matter": "App. F's 'no' read for the reversals a reader would notice",
}


def _cells(document: dict, path: str) -> list[tuple]:
    """The published cells a path points at, each as the steps that reach it (a row filter as the row's index), so
    that two paths to one cell (``table4[pair = ...]`` and ``table4.rows[1]``) give the same cell."""
    published.resolve(document, path)  # a path that does not resolve is refused where the registry loads
    node, at = document, []
    for kind, arg, _, _ in published.steps(path):
        if kind == "row":
            columns = node.get("columns") if isinstance(node, dict) else None
            rows = node.get("rows") if isinstance(node, dict) else node
            named = [dict(zip(columns, r)) if isinstance(r, list) and columns else r for r in rows]
            (index,) = [k for k, r in enumerate(named) if all(r.get(c) == v for c, v in arg.items())]
            node, at = named[index], [*at, "rows", index]
        else:
            node, at = node[arg], [*at, arg]
    return [(*at, k) for k in range(len(node))] if isinstance(node, list) else [tuple(at)]


def counted_cells(claim: Claim) -> list[tuple]:
    """The published cells ``claim`` counts: none for a record whose verdict is not the paper's."""
    if claim.paper_ref is None or claim.rule == "none" or claim.status == "not reachable" \
            or claim.origin == "compendium":
        return []
    document = published.load(claim.paper)
    pointers = claim.paper_ref if isinstance(claim.paper_ref, list) else [claim.paper_ref]
    return [cell for p in pointers if isinstance(p, (str, dict)) for cell in _pointer_cells(document, p)]


def _pointer_cells(document: dict, pointer) -> list[tuple]:
    """The cells one pointer reads: its path's, and those of the pointer it subtracts or divides by."""
    if isinstance(pointer, str):
        return _cells(document, pointer)
    return _cells(document, pointer["ref"]) + [cell for op in ("minus", "over") if op in pointer
                                               for cell in _pointer_cells(document, pointer[op])]


def _derivation(claim: Claim) -> str:
    """How a record's pointers combine the printed cells: as printed (a share, a midpoint or a percentage is the
    printed value rescaled), or a difference or a ratio of them, which is another reading of the same cells."""
    pointers = claim.paper_ref if isinstance(claim.paper_ref, list) else [claim.paper_ref]
    ops = {op for p in pointers if isinstance(p, dict) for op in ("minus", "over") if op in p}
    return {frozenset(): "as printed", frozenset({"minus"}): "as a difference",
            frozenset({"over"}): "as a ratio"}.get(frozenset(ops), "combined")


def reading(claim: Claim, readings: dict) -> str:
    return readings.get(claim.key, "the paper against itself" if claim.rule == "consistent" else _derivation(claim))


def cells_counted_twice(loaded, readings: dict) -> dict:
    """{(paper, cell, reading): the keys of the records counting it} for every cell counted by more than one record
    in one reading."""
    counted: dict = {}
    for claim in loaded:
        for cell in dict.fromkeys(counted_cells(claim)):
            counted.setdefault((claim.paper, cell, reading(claim, readings)), []).append(claim.key)
    return {k: v for k, v in counted.items() if len(v) > 1}


def test_no_published_cell_is_counted_twice_in_one_reading():
    twice = cells_counted_twice(claim_records.load(), READINGS)
    assert not twice, "\n".join(f"{paper} {'.'.join(map(str, cell))} ({how}): {', '.join(keys)}"
                                for (paper, cell, how), keys in twice.items())


def test_every_declared_reading_is_of_a_record_that_shares_a_cell():
    """A declared reading names a record of the registry, and that record shares a cell with another record (else
    the declaration hides nothing and is stale)."""
    loaded = claim_records.load()
    by_key = {c.key: c for c in loaded}
    assert set(READINGS) <= set(by_key)
    for key in READINGS:
        mine = set(counted_cells(by_key[key]))
        assert mine and any(mine & set(counted_cells(c)) for c in loaded if c.key != key), key


def _with_published(tmp_path: Path, files: dict) -> Path:
    """A test registry beside a copy of the real published values (the pointers resolve against its parent)."""
    (tmp_path / "paired.toml").write_text((ROOT / "data" / "published" / "paired.toml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    return write_claims_registry(tmp_path / "reg", files)


TABLE3_CELL = """
[[claims]]
id = "{id}"
item = "Table 3"
where = "App. C"
claim = "a Table 3 cell"
paper_ref = '{ref}'
source = "t.csv"
column = "holds"
rule = "qualitative"
test = "close"
status = "exact"
section = "paired-table3"
"""


@pytest.mark.parametrize("second_ref, readings, twice", [
    ("table3.values.TAC08.disagree[6]", {}, True),  # the same cell, as printed, twice
    ("table3.values.TAC08.disagree", {}, True),  # a pointer at the whole list counts the cell too
    ("table3.values.TAC08.disagree[6]", {"paired.b": "columns exchanged"}, False),  # declared another reading
    ("table3.values.TAC08.disagree[7]", {}, False),  # another cell
])
def test_a_cell_counted_by_two_records_of_one_reading_is_found(tmp_path, second_ref, readings, twice):
    text = ('chapter = "02_real_setups"\n' + TABLE3_CELL.format(id="a", ref="table3.values.TAC08.disagree[6]")
            + TABLE3_CELL.format(id="b", ref=second_ref))
    loaded = claim_records.load(_with_published(tmp_path, {"paired": text}))
    found = cells_counted_twice(loaded, readings)
    assert bool(found) == twice, found
    if twice:
        assert list(found.values()) == [["paired.a", "paired.b"]]
        assert list(found)[0][1] == ("table3", "values", "TAC08", "disagree", 6)


def test_a_record_of_our_own_checks_or_not_testable_counts_no_cell(tmp_path):
    text = ('chapter = "02_real_setups"\n' + TABLE3_CELL.format(id="a", ref="table3.values.TAC08.disagree[6]")
            + TABLE3_CELL.format(id="b", ref="table3.values.TAC08.disagree[6]").replace(
                'status = "exact"', 'status = "exact"\norigin = "compendium"'))
    loaded = claim_records.load(_with_published(tmp_path, {"paired": text}))
    assert not cells_counted_twice(loaded, {})


def test_two_paths_to_one_row_are_one_cell():
    document = published.load("paired")
    by_filter = _cells(document, 'table4[pair = ["mean", "bt"]].values[0]')
    assert by_filter == [("table4", "rows", 1, "values", 0)]
    index = by_filter[0][2]
    assert published.resolve(document, 'table4[pair = ["mean", "bt"]].values[0]') == \
        document["table4"]["rows"][index]["values"][0]
