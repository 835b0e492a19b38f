"""The book, from the one quick-profile run of every chapter per test session (the ``quick_book`` fixture):
every chapter runs, its tables equal the pinned ones (determinism and regression at once), the CLI and chapter 09
agree, and the book builds with Sphinx warnings as errors."""

import io
import shutil

import numpy as np
import pandas as pd
import pytest

from analysis import (
    claim_records,
    claims,
    claims_cli,
    compare,
)
from analysis.chapters import your_own_scores
from analysis.profiles import parameters_for
from tests import golden
from tests.helpers import ROOT

CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
pytestmark = pytest.mark.slow


def test_every_chapter_runs_under_the_quick_profile_and_prints_no_local_path(quick_book):
    site, runs = quick_book
    generated = site / "book" / "_generated"
    assert [r.status for r in runs] == ["ok"] * len(CHAPTERS), [r.error for r in runs if r.error]
    for chapter in CHAPTERS:
        assert sorted((generated / chapter).glob("*.csv")), f"{chapter} wrote no table"
        assert sorted((generated / chapter).glob("*.png")), f"{chapter} wrote no figure"
    for notebook in sorted((generated / "notebooks").glob("*.ipynb")):
        text = notebook.read_text()
        assert "PosixPath(" not in text and str(site) not in text, \
            f"{notebook.name} shows a local path"


def test_every_table_and_claim_equals_the_pinned_one(quick_book, quick_claims):
    """Every CSV of the quick run, and every claim's verdict and value on it, is the one in
    tests/golden/quick_values.txt, within tests.golden's tolerances where the CPU's BLAS kernels move last bits (so
    no number moves unnoticed). After an intended change, rewrite the file with ``python -m tests.golden`` (``--only
    CHAPTER`` for one chapter): its diff shows which numbers moved."""
    site, _ = quick_book
    ours = golden.render(site / "book" / "_generated")
    changed = golden.differences(golden.read_pinned(), ours)
    assert not changed, "the quick run differs from tests/golden/quick_values.txt (pinned  ->  now):\n" + \
        "\n".join(changed)


def test_a_pinned_value_tolerates_last_bits_but_not_a_changed_number():
    frame = pd.DataFrame({"system": ["a", "b"], "score": [0.123456789012, 2.5], "n": [3, 4],
                          "delta": [1e-17, 0.4]})
    pinned = golden.table_lines("00_x/t", frame)
    drift = frame.assign(score=frame.score * (1 + 1e-12), delta=[-3e-17, 0.4])  # another CPU's BLAS kernel
    assert golden.differences(pinned, golden.table_lines("00_x/t", drift)) == []
    moved = golden.differences(pinned, golden.table_lines("00_x/t", frame.assign(score=[0.1235, 2.5])))
    assert moved == ["00_x/t[0]: a | 0.1234568 | 3 | 1e-17  ->  00_x/t[0]: a | 0.1235 | 3 | 1e-17"], moved
    assert golden.differences(pinned, golden.table_lines("00_x/t", frame.assign(system=["a", "c"]))) == [
        "00_x/t[1]: b | 2.5 | 4 | 0.4  ->  00_x/t[1]: c | 2.5 | 4 | 0.4"]
    assert golden.differences(pinned, golden.table_lines("00_x/t", frame.iloc[:1])) == [
        "missing: 00_x/t[1]: b | 2.5 | 4 | 0.4", "missing: == 00_x/t (2 x 4): system | score | n | delta",
        "new: == 00_x/t (1 x 4): system | score | n | delta"]
    long = pd.DataFrame({"x": np.arange(golden.MAX_ROWS + 1, dtype=float), "name": "a"})
    pinned = golden.table_lines("00_x/long", long)
    # a long table: a sample of its rows as values (readable), and the column totals (a change anywhere)
    assert len(pinned) == 1 + golden.SAMPLE + 1 and pinned[1] == "00_x/long[0]: 0 | a"
    assert pinned[-2] == f"00_x/long[{golden.MAX_ROWS}]: {golden.MAX_ROWS} | a"
    drifted = golden.table_lines("00_x/long", long.assign(x=long.x * (1 + 1e-13)))
    assert golden.differences(pinned, drifted) == []
    unsampled = next(i for i in range(len(long)) if i not in golden.sample_rows(len(long)))
    assert golden.differences(pinned, golden.table_lines("00_x/long", long.assign(
        x=long.x.where(long.index != unsampled, -1.0))))  # caught by the totals
    assert golden.differences(pinned, golden.table_lines("00_x/long", long.assign(name="b")))  # text: sampled rows


def test_the_chapter_equals_the_cli(quick_book):
    site, _ = quick_book
    saved = pd.read_csv(site / "book" / "_generated" / your_own_scores.CHAPTER / "yours_systems.csv",
                        index_col="system")
    params = parameters_for("quick", your_own_scores.CHAPTER)
    direct = compare.compare(your_own_scores.load(your_own_scores.EXAMPLE), rng=2021, **params)
    pd.testing.assert_frame_equal(saved, direct.systems, check_dtype=False, rtol=1e-12)


def test_every_claim_is_evaluated_on_the_quick_run(quick_book, quick_claims):
    """`claims` exits 0 (no claim "not run") on the quick run, and covers every paper of the registry."""
    code, report = quick_claims
    assert code == 0, report
    site, _ = quick_book
    table = pd.read_csv(site / "book" / "_generated" / "claims.csv", keep_default_na=False)
    assert set(table.paper) == set(claim_records.PAPERS)
    assert set(table.verdict) <= set(claim_records.VERDICTS) - {"not run"}


def test_changing_a_number_behind_a_reproduced_claim_changes_its_verdict(quick_book, quick_claims, tmp_path):
    """The acceptance test of the registry: in a copy of the quick outputs, the saved number behind a "reproduced"
    claim is moved far away (or a saved yes/no flipped) and the verdict changes; a deleted source is "not run" and
    the command exits non-zero."""
    site, _ = quick_book
    copy = tmp_path / "generated"
    shutil.copytree(site / "book" / "_generated", copy)
    table = pd.read_csv(copy / "claims.csv", keep_default_na=False)
    registry = {c.key: c for c in claim_records.load()}
    reproduced = [registry[f"{r.paper}.{r.id}"] for r in table.itertuples() if r.verdict == "reproduced"
                  and registry[f"{r.paper}.{r.id}"].rule in ("within", "equal", "qualitative")
                  and not isinstance(registry[f"{r.paper}.{r.id}"].rows, list)]
    assert reproduced, "no reproduced claim to perturb"
    target = reproduced[0]
    path = claims._source_path(target, copy)
    frame = pd.read_csv(path)
    mask = claims._select(frame, target.rows or {}, target).index
    column = target.column if isinstance(target.column, str) else target.column[0]
    if target.rule == "qualitative":
        frame[column] = frame[column].astype(object)
        frame.loc[mask, column] = ~frame.loc[mask, column].astype(bool)
    else:
        frame[column] = frame[column].astype(object)
        frame.loc[mask, column] = 1e9 if not isinstance(target.paper_value, str) else "changed"
    frame.to_csv(path, index=False)
    again = claims.evaluate([target], copy)
    assert again.verdict.iloc[0] not in ("reproduced", "not run"), (target.key, again.iloc[0].to_dict())
    path.unlink()
    assert claims_cli.main(["--outputs", str(copy)], stream=io.StringIO()) == 1
    after = pd.read_csv(copy / "claims.csv")
    assert after.loc[(after.paper == target.paper) & (after.id == target.id), "verdict"].tolist() == ["not run"]


def test_book_builds_with_warnings_as_errors(quick_book, quick_html):
    site, _ = quick_book
    _, result = quick_html
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    index = site / "_build" / "html" / "index.html"
    chapter = site / "_build" / "html" / "book" / "_generated" / "notebooks" / "00_why_pairing_matters.html"
    assert index.exists() and chapter.exists()
    assert "Why pairing matters" in chapter.read_text()
    assert chapter.read_text().count("<img") >= 2
