"""The book, from the one quick-profile run of every chapter per test session (the ``quick_book`` fixture):
every chapter runs, its tables equal the pinned ones (determinism and regression at once), the CLI and chapter 09
agree, and the book builds with Sphinx warnings as errors."""

import io
import json
import shutil

import pandas as pd
import pytest

from analysis import (
    claim_records,
    claims,
    compare,
)
from analysis.chapters import your_own_scores
from analysis.profiles import parameters_for
from tests.golden import PINNED, differences, fingerprint, table_fingerprints
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


def test_every_table_equals_the_pinned_one(quick_book):
    """Every CSV of the quick run is the one recorded in tests/golden/quick_tables.json: byte for byte on the machine
    that pinned them, and within tests.golden.RTOL where the CPU's BLAS kernels move last bits (so no number moves
    unnoticed). After an intended change, rewrite the record with ``python -m tests.golden`` and say in the commit
    which numbers moved."""
    site, _ = quick_book
    ours = table_fingerprints(site / "book" / "_generated")
    pinned = json.loads(PINNED.read_text())
    changed = {k: differences(pinned[k], ours[k]) for k in sorted(pinned.keys() & ours.keys())}
    changed = {k: v[:3] for k, v in changed.items() if v}
    assert not changed, f"tables differ from the pinned ones: {changed}"
    assert set(ours) == set(pinned), (f"new tables: {sorted(set(ours) - set(pinned))}; "
                                      f"missing: {sorted(set(pinned) - set(ours))}")


def test_a_pinned_table_tolerates_last_bits_but_not_a_changed_number(tmp_path):
    table = tmp_path / "t.csv"
    frame = pd.DataFrame({"system": ["a", "b"], "score": [0.123456789012, 2.5], "n": [3, 4]})
    frame.to_csv(table, index=False)
    pinned = fingerprint(table)
    frame.assign(score=frame.score * (1 + 1e-12)).to_csv(table, index=False)
    assert differences(pinned, fingerprint(table)) == []  # another CPU's BLAS kernel
    frame.assign(score=[0.1235, 2.5]).to_csv(table, index=False)
    moved = differences(pinned, fingerprint(table))
    assert moved and all(m.startswith("score: sum") for m in moved), moved
    frame.assign(system=["a", "c"]).to_csv(table, index=False)
    assert differences(pinned, fingerprint(table)) == ["text differs"]


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
    assert claims.main(["--outputs", str(copy)], stream=io.StringIO()) == 1
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
