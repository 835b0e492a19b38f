"""The claims registry: records are checked when loaded, every rule gives the verdict its definition says, a changed
output changes a verdict, and a missing output is "not run" with a non-zero exit."""

import io
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from analysis import claim_records, claims, claims_cli, claims_pages
from analysis.claim_records import Claim, ClaimError
from analysis.reproduce import discover

from .claims_helpers import write_claims_registry
from .helpers import ROOT


def claim(**fields) -> Claim:
    base = dict(paper="paired", id="x", item="Table 1", where="§5", claim="c", status="exact", rule="within",
                chapter="02_real_setups", paper_value=0.5, source="t.csv", column="v")
    base.update(fields)
    return Claim(**base)


def write_registry(folder: Path, text: str, paper: str = "paired") -> Path:
    """A registry whose ``paper`` file holds ``text`` (the other papers a one-record stub each)."""
    return write_claims_registry(folder, {paper: text})


def mine(claims_: list, paper: str = "paired") -> list:
    """The records of ``paper`` (a test registry's stubs left out)."""
    return [c for c in claims_ if c.paper == paper]


RECORD = """
chapter = "02_real_setups"
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
why = "two standard errors of a share near 9% over a few hundred pairs"
status = "exact"
"""


@pytest.fixture
def outputs(tmp_path):
    root = tmp_path / "out"
    (root / "02_real_setups").mkdir(parents=True)
    pd.DataFrame({"pair": ["mean_median", "mean_bt"], "disagree": [0.04, 0.08]}).to_csv(
        root / "02_real_setups" / "t.csv", index=False)
    return root


# --- loading --------------------------------------------------------------------------------------------------------

def test_a_record_loads_with_its_defaults(tmp_path):
    (loaded,) = mine(claim_records.load(write_registry(tmp_path / "reg", RECORD)))
    assert loaded.key == "paired.a" and loaded.chapter == "02_real_setups" and loaded.part == 0.5
    assert loaded.rows == {"pair": "mean_bt"} and not loaded.headline


@pytest.mark.parametrize("change, message", [
    (("status = \"exact\"", "status = \"published\""), "'status' must be one of"),
    (("rule = \"within\"", "rule = \"close\""), "'rule' must be one of"),
    (("source = \"t.csv\"\n", ""), "'source' is required"),
    (("tol = 0.02", "tolerance = 0.02"), "unknown field"),
    (("tol = 0.02", "tol = -1"), ">= 0"),
    (("claim = \"MEAN and BT disagree on 9% of pairs\"\n", ""), "'claim' is required"),
    (("paper = 0.09\n", ""), "'paper' is required"),
])
def test_a_malformed_record_is_refused_by_name(tmp_path, change, message):
    with pytest.raises(ClaimError, match=message):
        claim_records.load(write_registry(tmp_path / "reg", RECORD.replace(*change)))


def test_duplicate_ids_and_unknown_papers_are_refused(tmp_path):
    with pytest.raises(ValueError, match="appears twice"):
        claim_records.load(write_registry(tmp_path / "a", RECORD + RECORD.split("\n", 2)[2]))
    folder = write_registry(tmp_path / "b", RECORD)
    (folder / "nlp.toml").write_text("")
    with pytest.raises(ValueError, match="unknown papers"):
        claim_records.load(folder)


def test_an_untestable_claim_needs_a_reason(tmp_path):
    text = RECORD.replace("status = \"exact\"", "status = \"not reachable\"")
    with pytest.raises(ValueError, match="needs a 'reason'"):
        claim_records.load(write_registry(tmp_path / "reg", text))
    (loaded,) = mine(claim_records.load(write_registry(tmp_path / "ok",
                                                       text + 'reason = "only in the paper\'s archive"\n')))
    assert claims.verdict(loaded, None) == "not testable here"


# --- the rules ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ours, expected", [
    (0.51, "reproduced"), (0.53, "not reproduced"),
    ([0.5, 0.5, 0.9], "reproduced in part"), ([0.5, 0.9, 0.9], "not reproduced"),
])
def test_within(ours, expected):
    assert claims.verdict(claim(tol=0.02), ours) == expected


def test_a_missing_value_of_ours_is_not_a_value():
    """NaN was "not reproduced"; an empty saved cell is no value: a ClaimError, so "not run"
    (tests/test_claims_registry.py checks it through the saved files for every rule)."""
    with pytest.raises(ClaimError, match=r"claim paired.x: no value saved: 1 of the 1 selected cell\(s\) of t.csv"):
        claims.verdict(claim(tol=0.02), float("nan"))


def test_within_relative_tolerance_and_part():
    assert claims.verdict(claim(paper_value=100, tol=0, rtol=0.05), 104) == "reproduced"
    assert claims.verdict(claim(paper_value=100, tol=0, rtol=0.05), 106) == "not reproduced"
    lenient = claim(paper_value=[1, 2, 3, 4], tol=0, part=0.25)
    assert claims.verdict(lenient, [1, 9, 9, 9]) == "reproduced in part"
    with pytest.raises(ClaimError, match="3 values of ours against 4"):
        claims.verdict(lenient, [1, 2, 3])


def test_one_tolerance_per_published_value():
    c = claim(paper_value=[0.5, 0.07], tol=(0.005, 0.05))
    assert claims.verdict(c, [0.504, 0.11]) == "reproduced"
    assert claims.verdict(c, [0.51, 0.11]) == "reproduced in part"
    assert claims._rule_text(c) == "within ±0.005/0.05"
    with pytest.raises(ClaimError, match="2 tolerances for 3 values"):
        claims.verdict(claim(paper_value=[1, 2, 3], tol=(0.1, 0.1)), [1, 2, 3])


def test_consistent_says_the_paper_disagrees_with_itself():
    c = claim(rule="consistent", paper_value=0.83, tol=0.005)
    assert claims.verdict(c, 0.98) == "paper inconsistent"
    assert claims.verdict(c, 0.832) == "reproduced"


def test_equal_compare_direction():
    assert claims.verdict(claim(rule="equal", paper_value=["A", "B"]), ["A", "B"]) == "reproduced"
    assert claims.verdict(claim(rule="equal", paper_value=3), 3.0) == "reproduced"
    assert claims.verdict(claim(rule="equal", paper_value=["A", "B"]), ["A", "C"]) == "reproduced in part"
    assert claims.verdict(claim(rule="compare", op=">=", than=0.1), [0.2, 0.1]) == "reproduced"
    assert claims.verdict(claim(rule="compare", op=">", than=0.1), [0.2, 0.1]) == "reproduced in part"
    assert claims.verdict(claim(rule="compare", op="<", paper_value=0.3), 0.2) == "reproduced"  # than = paper
    with pytest.raises(ClaimError, match="no value saved"):
        claims.verdict(claim(rule="compare", op="<", than=0.3), float("nan"))
    assert claims.verdict(claim(rule="direction", paper_value=[-0.5, 0.2]), [-0.1, 0.9]) == "reproduced"
    assert claims.verdict(claim(rule="direction", paper_value=-0.5), 0.1) == "not reproduced"


def test_set_and_order():
    assert claims.verdict(claim(rule="set", paper_value=["a", "b"]), ["b", "a"]) == "reproduced"
    assert claims.verdict(claim(rule="set", paper_value=["a", "b"]), ["a", "c"]) == "not reproduced"  # J = 1/3
    assert claims.verdict(claim(rule="set", paper_value=["a", "b", "c"]), ["a", "b"]) == "reproduced in part"
    assert claims.verdict(claim(rule="order", paper_value=[3, 2, 1]), [30, 20, 10]) == "reproduced"
    assert claims.verdict(claim(rule="order", paper_value=[4, 3, 2, 1]), [40, 30, 5, 10]) == "reproduced in part"
    assert claims.verdict(claim(rule="order", paper_value=[3, 2, 1]), [1, 2, 3]) == "not reproduced"


def test_qualitative_needs_booleans():
    c = claim(rule="qualitative", test="the curve flattens")
    assert claims.verdict(c, True) == "reproduced" and claims.verdict(c, False) == "not reproduced"
    with pytest.raises(ClaimError, match="True/False"):
        claims.verdict(c, 0.4)


def test_numbers_are_shown_as_a_reader_reads_them():
    assert claims.show(0.0912, ".0%") == "9%" and claims.show(73471) == "73,471" and claims.show(3.0) == "3"
    assert claims.show(-0.0001) == "-0.0001" and claims.show(-0.0) == "0" and claims.show(float("nan")) == "—"
    assert claims.show([True, False, True]) == "2 of 3 yes"
    assert claims.show([True, False]) == "yes, no" and claims.show(1234.5678) == "1,234.568"
    assert claims.show(list(range(20))).endswith("… (20 values)")
    assert claims.show(-0.001, "+.0%") == "0%" and claims.show(-0.02, "+.0%") == "-2%"  # no negative zero


def test_the_pages_print_a_true_minus_and_count_own_findings_as_holds():
    assert (claims_pages._cell("-0.25, -1") == "\u22120.25, \u22121"
            and claims_pages._cell("en-de, +3") == "en\u2011de, +3")
    rows = pd.DataFrame({"verdict": ["reproduced"] * 2 + ["not reproduced"], "paper": ["synthesis"] * 3,
                         "category": ["our own checks"] * 3})
    [own] = claims_pages.counts(rows)
    assert [(v["word"], v["n"]) for v in own["verdicts"]] == [("holds", 2), ("does not hold", 1)]
    assert own["verdicts"][1]["term"] == "{term}`does not hold <holds>`"


# --- reading outputs ------------------------------------------------------------------------------------------------

def test_our_value_is_the_selected_cell(outputs):
    assert claims.our_value(claim(rows={"pair": "mean_bt"}, column="disagree"), outputs) == 0.08
    both = claim(rows=[{"pair": "mean_bt"}, {"pair": "mean_median"}], column="disagree")
    assert claims.our_value(both, outputs) == [0.08, 0.04]  # in the order of the selections
    assert claims.our_value(claim(rows=None, column="disagree", pool=True), outputs) == [0.04, 0.08]


@pytest.mark.parametrize("fields, message", [
    (dict(source="gone.csv"), "source missing"), (dict(rows={"pair": "elo"}), "no row matches"),
    (dict(column="top1"), "no column"), (dict(rows={"metric": "x"}), "no column 'metric'"),
    (dict(rows=[{"pair": ["mean_bt", "mean_median"]}]), "a list of selections needs one each"),
])
def test_unreadable_selections_are_named(outputs, fields, message):
    fields = {"rows": {"pair": "mean_bt"}, "column": "disagree", **fields}
    with pytest.raises(ClaimError, match=message):
        claims.our_value(claim(**fields), outputs)


def test_a_broken_file_is_unreadable(outputs):
    (outputs / "02_real_setups" / "t.csv").write_bytes(b"\x00\xff\xfe\"unclosed")
    with pytest.raises(ClaimError, match="unreadable|no column"):
        claims.our_value(claim(rows={"pair": "mean_bt"}, column="disagree"), outputs)


def test_changing_the_saved_number_changes_the_verdict(tmp_path, outputs):
    registry = write_registry(tmp_path / "reg", RECORD)
    assert claims.evaluate(mine(claim_records.load(registry)), outputs).verdict.tolist() == ["reproduced"]
    copy = tmp_path / "copy"
    shutil.copytree(outputs, copy)
    frame = pd.read_csv(copy / "02_real_setups" / "t.csv")
    frame.loc[frame.pair == "mean_bt", "disagree"] = 0.30
    frame.to_csv(copy / "02_real_setups" / "t.csv", index=False)
    assert claims.evaluate(mine(claim_records.load(registry)), copy).verdict.tolist() == ["not reproduced"]


def test_a_missing_source_is_not_run_and_exits_non_zero(tmp_path, outputs):
    registry = write_registry(tmp_path / "reg", RECORD)
    out = io.StringIO()
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=out) == 0
    table = pd.read_csv(outputs / "claims.csv")
    assert (table.verdict.tolist() == ["reproduced"] + ["not testable here"] * 4
            and list(table.columns) == claims.COLUMNS)
    (outputs / "02_real_setups" / "t.csv").unlink()
    out = io.StringIO()
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=out) == 1
    assert "NOT RUN paired.a: source missing" in out.getvalue()
    assert pd.read_csv(outputs / "claims.csv").verdict.tolist() == ["not run"] + ["not testable here"] * 4


def test_one_papers_check_writes_nothing(tmp_path, outputs):
    registry = write_registry(tmp_path / "reg", RECORD)
    out = io.StringIO()
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry), "--paper", "paired"],
                           stream=out) == 0
    assert "paired: 1 (1 reproduced)" in out.getvalue() and not (outputs / "claims.csv").exists()


def test_the_pages_are_generated_from_the_same_rows(tmp_path, outputs):
    text = RECORD + 'section = "paired-table1"\n' + RECORD.split("\n", 2)[2].replace(
        'id = "a"', 'id = "b"').replace("paper = 0.09", "paper = 0.5") + 'reason = "a stand-in"\n'
    registry = write_registry(tmp_path / "reg", text)
    claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=io.StringIO())
    glance = (outputs / "claims" / "at_a_glance.md").read_text()
    opening = (outputs / "claims" / "02_real_setups.md").read_text()
    differs = (outputs / "claims" / "02_real_setups_differs.md").read_text()
    assert "- **The paper's data** (2): 1 {term}`reproduced`, 1 {term}`not reproduced`" in glance
    assert "- **Not testable here** (1): 1 {term}`not testable here`" in glance and "a stand-in" not in glance
    assert "All 2 claims of this chapter" in opening and "{ref}`Table 1 <paired-table1>`" in opening
    assert "**Verdicts on the paper's claims**" in opening and "What holds" not in opening
    assert "a stand\u2011in" in differs and "MEAN and BT disagree" in differs  # a short word stays on one line
    assert "**{term}`not reproduced`**, the paper's data (1)" in differs


def test_the_compendiums_own_findings_read_as_holds_or_not_against_an_expectation():
    rows = pd.DataFrame({"paper": ["synthesis"] * 3, "id": ["s1", "s2", "s3"], "item": ["S1", "S2", "S3"],
                         "claim": ["c"] * 3, "paper value": ["0"] * 3, "our value": ["0"] * 3, "rule": ["r"] * 3,
                         "reason": ["", "r", "r"], "verdict": ["reproduced", "not reproduced", "reproduced in part"],
                         "category": ["our own checks"] * 3, "section": [""] * 3, "chapter": ["06_synthesis"] * 3,
                         "headline": [False] * 3})
    opening = claims_pages.chapter_opening(rows, "06_synthesis")
    assert "1 {term}`holds`, 1 {term}`holds in part <holds>`, 1 {term}`does not hold <holds>`" in opening
    assert "| Expected |" in opening and "Verdicts on our own checks" in opening and "reproduced" not in opening
    assert ("**{term}`does not hold <holds>`**, our own checks (1)"
            in claims_pages.chapter_differences(rows, "06_synthesis"))
    assert claims_pages.verdict_words("not reproduced", "wmt") == "not reproduced"


def test_verdicts_are_counted_by_category_and_our_own_checks_apart():
    """The paper's claims on its data, on its simulation, on stand-in data, the compendium's own checks (never a
    paper's failure, read as holds / does not hold) and what is not testable, each counted apart."""
    verdicts = ["reproduced", "not reproduced", "not reproduced", "reproduced", "not reproduced", "not testable here",
                "reproduced"]
    categories = ["the paper's data", "the paper's data", "stand-in data", "our own checks", "our own checks",
                  "not testable here", "the paper's simulation"]
    rows = pd.DataFrame({"paper": ["favi"] * 7, "id": [f"i{k}" for k in range(7)], "item": [f"I{k}" for k in range(7)],
                         "claim": ["c"] * 7, "paper value": ["1"] * 7, "our value": ["1"] * 7, "rule": ["r"] * 7,
                         "reason": ["r"] * 7, "verdict": verdicts, "category": categories, "section": [""] * 7,
                         "chapter": ["04_favoritism"] * 7, "headline": [False] * 7})
    counted = {c["category"]: [(v["word"], v["n"]) for v in c["verdicts"]] for c in claims_pages.counts(rows)}
    assert list(counted) == ["the paper's data", "the paper's simulation", "stand-in data", "our own checks",
                             "not testable here"]
    assert counted["our own checks"] == [("holds", 1), ("does not hold", 1)]
    differs = claims_pages.chapter_differences(rows, "04_favoritism")
    assert "**{term}`not reproduced`**, the paper's data (1)" in differs
    assert "**{term}`does not hold <holds>`**, our own checks (1)" in differs
    assert "**{term}`not reproduced`**, stand-in data (1)" in differs and "**{term}`not testable here`** (1)" in differs


def test_a_test_saved_as_booleans_reads_as_a_count_of_checks_after_the_numbers_it_reads(tmp_path):
    """Issue 38: an "Ours" cell is a number with its unit, never "yes" or "no": a test saved as booleans is counted
    in checks, after the value it reads and its interval when its rows hold them and the claim says how to print
    them (``format``)."""
    assert claims.checks([True, False, True]) == "2 of 3 checks pass"
    assert claims.checks(False) == "0 of 1 check passes" and claims.checks([True]) == "1 of 1 check passes"
    folder = tmp_path / "02_real_setups"
    folder.mkdir()
    pd.DataFrame({"key": ["in", "in", "other", "bare"], "value": [0.192, 0.3, None, 0.05],
                  "low": [0.12, 0.2, None, None], "high": [0.27, 0.4, None, None],
                  "holds": [False, True, True, True]}).to_csv(folder / "v.csv", index=False)
    test = claim(rule="qualitative", test="t", source="v.csv", column="holds", rows={"key": "in"}, paper_value=True,
                 format=".0%")
    assert claims.ours_text(test, [False, True], tmp_path) == "19% [12%, 27%], 30% [20%, 40%]; 1 of 2 checks pass"
    assert claims.ours_text(replace(test, format=None), [False, True], tmp_path) == "1 of 2 checks pass"
    other = replace(test, rows={"key": "other"})  # no number saved: the count alone
    assert claims.ours_text(other, True, tmp_path) == "1 of 1 check passes"
    bare = replace(test, rows={"key": "bare"})  # one check reading one number: the number (the verdict says the rest)
    assert claims.ours_text(bare, True, tmp_path) == "5%"
    assert claims.ours_text(replace(bare, format=".1f", unit="places"), True, tmp_path) == "0.1 places"
    assert claims.ours_text(claim(), 0.0912) == "0.0912" and claims.ours_text(claim(), None) == ""
    assert claims.ours_text(claim(unit="pairs"), [-18.0, 14.0]) == "-18, 14 pairs"
    consistent = claim(rule="consistent", paper_value=0.77, format=".2f")
    assert claims.ours_text(consistent, 0.9) == "0.90, derived from the paper's numbers"


def test_the_paper_cell_holds_what_the_paper_prints_and_a_threshold_goes_to_the_rule():
    stable = claim(rule="compare", op="<=", than=0.1, paper_value="stable at the red line")
    assert claims.paper_text(stable) == "stable at the red line" and claims._rule_text(stable) == "ours <= 0.1"
    assert claims.paper_text(replace(stable, paper_value=None)) == ""
    assert claims.paper_text(claim(rule="compare", op=">=", paper_value=0.5, format=".0%")) == "50%"  # its value
    assert claims.paper_text(claim(rule="qualitative", paper_value=True)) == "stated"  # never a bare "yes"
    assert claims.paper_text(claim(paper_value=2.5, unit="places")) == "2.5 places"


def _figure_rows():
    verdicts = ["reproduced", "reproduced", "not reproduced", "paper inconsistent", "reproduced in part",
                "not reproduced", "not testable here", "reproduced", "reproduced"]
    categories = ["the paper's data", "stand-in data", "the paper's data", "the paper's data", "stand-in data",
                  "stand-in data", "not testable here", "the paper's simulation", "our own checks"]
    return pd.DataFrame({"paper": ["favi"] * 9, "verdict": verdicts, "category": categories,
                         "chapter": ["04_favoritism"] * 9})


def test_the_front_pages_figure_is_deterministic_legible_and_written_beside_the_glance(tmp_path):
    from analysis import plotting

    table = pd.concat([_figure_rows(), _figure_rows().assign(paper="synthesis", category="our own checks")])
    png, svg = claims_pages.figure_files(table)
    assert (png, svg) == claims_pages.figure_files(table)  # the same bytes every time
    assert b"<dc:date>" not in svg and b"Software" not in png[:200]
    fig = claims_pages.verdict_figure(table)
    assert plotting.legibility_problems(fig, plotting.png_width(png)) == []
    texts = {t for t, _ in plotting.shown_text_px(fig, plotting.png_width(png))}
    assert {"von Däniken et al. 2024", "This compendium", "the papers' claims", "our own checks"} <= texts
    assert {"stand-in data: reproduced", "our check: holds", "not testable here",
            "paper's simulation: reproduced"} <= texts


def test_a_claim_belongs_to_one_category():
    from analysis.claim_records import Claim, category

    claim = Claim(paper="favi", id="x", item="I", where="w", claim="c", status="exact", rule="within", chapter="c")
    assert category(claim, "not reproduced") == "the paper's data"
    assert category(replace(claim, status="stand-in"), "reproduced") == "stand-in data"
    assert category(replace(claim, status="not reachable"), "not testable here") == "not testable here"
    assert category(replace(claim, origin="compendium"), "not reproduced") == "our own checks"
    assert category(replace(claim, status="simulation"), "reproduced") == "the paper's simulation"
    mixed = replace(claim, status="mixed", data_share="k")  # where most of the evidence came from
    assert (category(mixed, "reproduced", 0.95) == "the paper's data"
            and category(mixed, "reproduced", 0.4) == "stand-in data")


def test_the_cli_runs_it():
    from analysis.__main__ import main

    with pytest.raises(SystemExit) as exc:
        main(["claims", "--help"])
    assert exc.value.code == 0


# --- the registry itself ----------------------------------------------------------------------------------------------

REGISTRY = claim_records.load()


def test_the_registry_loads_and_names_known_chapters():
    chapters = set(discover())
    assert REGISTRY, "the registry is empty"
    assert {c.chapter for c in REGISTRY} <= chapters


@pytest.mark.parametrize("c", [c for c in REGISTRY if c.section], ids=lambda c: c.key)
def test_every_section_label_exists_in_its_chapter(c):
    source = (ROOT / "notebooks" / f"{c.chapter}.py").read_text(encoding="utf-8")
    labels = set(re.findall(r"^# \(([A-Za-z0-9_-]+)\)=\s*$", source, flags=re.M))
    assert c.section in labels, f"{c.key}: no `({c.section})=` label in notebooks/{c.chapter}.py"


@pytest.mark.parametrize("c", REGISTRY, ids=lambda c: c.key)
def test_a_reason_does_not_point_at_a_neighbouring_row(c):
    """The pages group claims by verdict, so "the next row" in a reason may point at another claim."""
    assert not re.search(r"\b(next|previous) rows?\b|\brows? (above|below)\b", c.reason), c.reason


def test_a_claim_without_a_section_links_to_its_chapter_except_on_that_chapter():
    row = {"item": "§7", "section": "", "chapter": "03_wmt_stability"}
    assert claims_pages._link(row) == "{doc}`§7 </book/_generated/notebooks/03_wmt_stability>`"
    assert claims_pages._link(row, on_chapter_page=True) == "§7"  # a link to the page itself only jumps to its top
    assert claims_pages._link({**row, "section": "wmt-table2"}, on_chapter_page=True) == "{ref}`§7 <wmt-table2>`"


def test_every_headline_claim_is_told_by_its_macro_and_every_macro_tells_one():
    """The front page and the chapters' openings tell each headline claim (``headline = true``) with the macro of
    book/templates/headlines.md.j2 named after it: none missing, none orphaned."""
    module = claims_pages.environment().get_template("headlines.md.j2").module
    macros = {name for name in dir(module) if not name.startswith("_")}
    headlines = {claims_pages.headline_macro(c.id) for c in REGISTRY if c.headline}
    assert headlines - macros == set(), "headline claims without a macro"
    assert macros - headlines == set(), "macros for claims that are not headlines"
    for paper in ("paired", "wmt", "favi", "gvp"):
        told = [c for c in REGISTRY if c.headline and c.paper == paper]
        assert 3 <= len(told) <= 6, f"{paper}: {len(told)} headline claims (3-6 expected)"


@pytest.mark.parametrize("fields, message", [
    ('status = "stand-in"', "'data' is required for status 'stand-in'"),
    ('status = "mixed"\ndata = "d"', "'data_share' goes with status 'mixed'"),
    ('status = "exact"\ndata_share = "k"', "'data_share' goes with status 'mixed'"),
    ('status = "exact"\nunit = ""', "'unit' must be a non-empty string"),
])
def test_the_data_fields_are_checked_when_loaded(tmp_path, fields, message):
    text = RECORD.replace('status = "exact"', fields)
    with pytest.raises(ClaimError, match=re.escape(message)):
        claim_records.load(write_registry(tmp_path / "reg", text))


def test_a_mixed_claim_counts_where_most_of_its_evidence_came_from(tmp_path, outputs):
    text = RECORD.replace('status = "exact"', 'status = "mixed"\ndata = "d"\ndata_share = "share"')
    registry = mine(claim_records.load(write_registry(tmp_path / "reg", text)))
    assert claims.evaluate(registry, outputs).verdict.tolist() == ["not run"]  # no share recorded
    values = outputs / "02_real_setups" / "claim_values.csv"
    for share, category in ((0.9, "the paper's data"), (0.2, "stand-in data")):
        pd.DataFrame({"key": ["share"], "detail": [""], "value": [share]}).to_csv(values, index=False)
        row = claims.evaluate(registry, outputs).iloc[0]
        assert (row.verdict, row.category, row["paper's share"]) == ("reproduced", category, share)


def test_claims_that_cannot_write_its_files_says_so_in_one_line(tmp_path, outputs, capsys):
    registry = write_registry(tmp_path / "reg", RECORD)
    (outputs / "claims.csv").mkdir()  # a folder where the file goes
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (len(err) == 1 and err[0].startswith("claims: error: cannot write the claims files")
            and "claims.csv" in err[0])


def test_a_mixed_claim_with_a_list_of_published_values_reads_its_one_share(tmp_path, outputs):
    text = RECORD.replace('status = "exact"', 'status = "mixed"\ndata = "d"\ndata_share = "share"')
    text = text.replace("paper = 0.09", "paper = [0.09, 0.04]").replace(
        'rows = { pair = "mean_bt" }', 'rows = [{ pair = "mean_bt" }, { pair = "mean_median" }]')
    registry = mine(claim_records.load(write_registry(tmp_path / "reg", text)))
    pd.DataFrame({"key": ["share"], "detail": [""], "value": [0.75]}).to_csv(
        outputs / "02_real_setups" / "claim_values.csv", index=False)
    row = claims.evaluate(registry, outputs).iloc[0]
    assert (row.verdict, row.category) == ("reproduced", "the paper's data")


def test_a_headline_value_no_chapter_recorded_stops_claims_in_one_line(tmp_path, outputs, capsys, monkeypatch):
    registry = write_registry(tmp_path / "reg", RECORD)
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / claims_pages.TEMPLATES, templates)
    (templates / "at_a_glance.md.j2").write_text('{{ value("02_real_setups", "nowhere") }}\n', encoding="utf-8")
    monkeypatch.setattr(claims_pages, "TEMPLATES", str(templates))
    monkeypatch.setattr(claims_pages, "repo_root", lambda: Path("/"))
    assert claims_cli.main(["--outputs", str(outputs), "--registry", str(registry)], stream=io.StringIO()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "02_real_setups/claim_values.csv is missing" in err[0]
    assert not (outputs / "claims.csv").exists()  # nothing written


def test_a_headline_clause_a_run_did_not_record_is_left_out_not_an_error(tmp_path):
    """Chapter 02 run with another second tie rule records no ``table1-in-interval-ties-half``: the front page's
    clause about it is left out (``recorded``), while ``value`` on a missing row still stops the page."""
    (tmp_path / "02_real_setups").mkdir()
    pd.DataFrame({"key": ["table1-in-interval-ties-drop"], "detail": ["MEAN vs. BT, Disagree"], "value": [0.1]}).to_csv(
        tmp_path / "02_real_setups" / "claim_values.csv", index=False)
    env = claims_pages.environment()
    template = env.from_string('x{% if recorded("02_real_setups", "table1-in-interval-ties-half", "MEAN vs. BT, '
                               'Disagree") %}; half {{ value("02_real_setups", "table1-in-interval-ties-half", '
                               '"MEAN vs. BT, Disagree") | pct }}{% endif %}.')
    values = claims_pages._Values(tmp_path)
    assert template.render(value=values, recorded=values.recorded) == "x."
    assert values.recorded("02_real_setups", "table1-in-interval-ties-drop", "MEAN vs. BT, Disagree")
    with pytest.raises(claims_pages.PageError, match="holds 0 rows"):
        values("02_real_setups", "table1-in-interval-ties-half", "MEAN vs. BT, Disagree")
