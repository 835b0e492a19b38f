"""Bring your own scores: reading score files (every promised error), the comparison, the CLI and the chapter."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import aggregate, compare, pairwise
from analysis.__main__ import main
from analysis.chapters import your_own_scores
from analysis.data.scorefiles import ScoreFileError, read_scores
from analysis.profiles import parameters_for
from tests.helpers import random_scores

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / your_own_scores.EXAMPLE


def _long(matrix: pd.DataFrame) -> pd.DataFrame:
    return matrix.rename_axis(index="instance", columns="system").stack().rename("score").reset_index()


def _write_all_formats(matrix: pd.DataFrame, folder: Path) -> dict[str, Path]:
    paths = {"long": folder / "long.csv", "wide": folder / "wide.csv", "parquet": folder / "long.parquet",
             "mtme": folder / "m.seg.score"}
    _long(matrix).to_csv(paths["long"], index=False)
    _long(matrix).to_parquet(paths["parquet"], index=False)
    matrix.rename_axis("instance").reset_index().to_csv(paths["wide"], index=False)
    lines = [f"{system}\t{value!r}" for system in matrix.columns for value in matrix[system]]
    paths["mtme"].write_text("\n".join(lines) + "\n")
    return paths


def test_the_formats_give_the_same_matrix_and_the_same_comparison(tmp_path):
    matrix = random_scores(np.random.default_rng(0), 25, 4, levels=3)
    paths = _write_all_formats(matrix, tmp_path)
    read = {k: read_scores(p) for k, p in paths.items()}
    for k, m in read.items():
        np.testing.assert_array_equal(m.to_numpy(), matrix.to_numpy(), err_msg=k)
        assert list(m.columns) == list(matrix.columns), k
    results = {k: compare.compare(m, rng=1, n_resamples=100, n_resamples_sequential=10) for k, m in read.items()}
    for k, r in results.items():
        pd.testing.assert_frame_equal(r.systems, results["long"].systems, check_index_type=False, obj=k)
        pd.testing.assert_frame_equal(r.stability, results["long"].stability, obj=k)


@pytest.mark.parametrize("content, message", [
    ("instance,system\n0,a\n", r"missing column\(s\) \['score'\]"),
    ("instance,system,score\n0,a,1\n0,b,2\n0,a,3\n1,a,1\n1,b,1\n", r"duplicate \(instance, system\) rows: \(0, 'a'\) on line 2, \(0, 'a'\) on line 4"),
    ("instance,system,score\n0,a,1\n0,b,2\n1,a,1\n", r"different instances \('b' lacks 1 of 2\).*--align intersect"),
    ("instance,system,score\n0,a,1\n0,b,\n", r"missing score \(NaN\) for system 'b', instance 0 on line 3"),
    ("instance,system,score\n0,a,1\n0,b,x\n", r"score 'x' on line 3 is not a number"),
    ("instance,system,score\n0,a,1\n1,a,2\n", r"at least two systems"),
    ("a,b\n1,2\n3,oops\n", r"score in column 'b' 'oops' on line 3 is not a number"),
    ("a,b\n1,2\n3,\n", r"missing score \(NaN\) in column 'b' on line 3"),
    ("instance,system,score,metric\n0,a,1,BLEU\n0,b,2,BLEU\n0,a,1,chrF\n0,b,2,chrF\n", r"several values \['BLEU', 'chrF'\]"),
])
def test_bad_long_and_wide_files_name_the_problem_and_the_place(tmp_path, content, message):
    path = tmp_path / "scores.csv"
    path.write_text(content)
    with pytest.raises(ScoreFileError, match=message) as err:
        read_scores(path)
    assert str(path) in str(err.value)


def test_align_intersect_and_where_select_what_can_be_compared(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("instance,system,score,metric\n0,a,1,B\n0,b,2,B\n1,a,1,B\n0,a,5,C\n0,b,1,C\n")
    m = read_scores(path, where={"metric": "B"}, align="intersect")
    assert m.shape == (1, 2) and m.loc[0].tolist() == [1.0, 2.0]
    assert read_scores(path, where={"metric": "C"}, lower_is_better=True).loc[0].tolist() == [-5.0, -1.0]
    with pytest.raises(ScoreFileError, match="has no value 'D'"):
        read_scores(path, where={"metric": "D"})


def test_bad_mtme_files_and_arguments(tmp_path):
    path = tmp_path / "x.seg.score"
    path.write_text("a\t1\na\t2\nb\t1\n")
    with pytest.raises(ScoreFileError, match=r"different numbers of segments \{'a': 2, 'b': 1\}"):
        read_scores(path)
    assert read_scores(path, align="intersect").shape == (1, 2)
    path.write_text("a\t1\nb\tNone\n")
    with pytest.raises(ScoreFileError, match="'b' has no score \\(None\\) for segment 0"):
        read_scores(path)
    path.write_text("a 1 2\n")
    with pytest.raises(ScoreFileError, match=r"x.seg.score:1: expected"):
        read_scores(path)
    with pytest.raises(ScoreFileError, match="no such file"):
        read_scores(tmp_path / "missing.csv")
    with pytest.raises(ScoreFileError, match="unknown format 'xml'"):
        read_scores(path, "xml")


def test_comparison_intervals_equal_the_generic_bootstrap():
    """The vectorised bootstrap of MEAN, MEDIAN and BT equals bootstrap_ci with the same generator."""
    scores = random_scores(np.random.default_rng(3), 30, 4, levels=2)
    result = compare.compare(scores, rng=5, n_resamples=150, n_resamples_sequential=0)
    for name, fn in (("mean", aggregate.mean), ("median", aggregate.median),
                     ("bt", lambda s: aggregate.bradley_terry(s, ties="half"))):
        ref = pairwise.bootstrap_ci(scores, fn, rng=5, n_resamples=150)
        np.testing.assert_allclose(result.systems[f"{name}_low"], ref["low"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(result.systems[f"{name}_high"], ref["high"], rtol=0, atol=1e-12)
    assert result.systems["elo_low"].isna().all()  # no sequential resamples asked for


def test_stability_finds_bt_reordering_and_never_mean():
    """App. F's cyclic example: removing C from the Condorcet cycle changes BT's order of A and B, never MEAN's."""
    scores = pd.DataFrame({"A": [1.0, 2, 3], "B": [2.0, 3, 1], "C": [3.0, 1, 2.5]})
    table = compare.stability(scores, compare.mechanisms("half"))
    assert not table[table.mechanism == "mean"].reordered.any()
    assert table.loc[table.mechanism == "bt", "pairs"].tolist() == [1, 1]


def test_cli_on_the_example_equals_the_chapter_and_round_trips_json(tmp_path, capsys):
    """The CLI's tables equal the notebook's (same seed and resamples as the quick profile)."""
    params = parameters_for("quick", your_own_scores.CHAPTER)
    out_json = tmp_path / "report.json"
    args = ["compare", str(EXAMPLE), "--json", str(out_json), "--out", str(tmp_path / "figs"),
            "--n-resamples", str(params["n_resamples"]), "--n-resamples-sequential", str(params["n_resamples_sequential"])]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "Systems (score [95% interval])" in printed and "Stability" in printed
    loaded = compare.from_dict(json.loads(out_json.read_text()))
    direct = compare.compare(your_own_scores.load(your_own_scores.EXAMPLE), rng=2021, **params)
    for name in ("systems", "prob", "sign_p", "wilcoxon_p", "disagreement", "stability"):
        pd.testing.assert_frame_equal(getattr(loaded, name), getattr(direct, name), check_dtype=False, obj=name)
    assert {p.name for p in (tmp_path / "figs").iterdir()} >= {"systems.csv", "mechanisms.png", "pairwise.svg"}


def test_cli_reports_a_bad_file_as_an_error_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("instance,system,score\n0,a,1\n")
    result = subprocess.run([sys.executable, "-m", "analysis", "compare", str(bad)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 2 and "error:" in result.stderr and "at least two systems" in result.stderr
    assert "Traceback" not in result.stderr
