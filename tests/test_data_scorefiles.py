"""Reading score files (analysis.data.scorefiles): every format gives the same matrix, every promised error."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import compare
from analysis.data.scorefile_tables import ScoreFileError
from analysis.data.scorefiles import read_scores
from tests.helpers import random_scores


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
    ("instance,system,score\n0,a,1\n0,b,2\n0,a,3\n1,a,1\n1,b,1\n",
     r"duplicate \(instance, system\) rows: \(0, 'a'\) on line 2 and line 4"),
    ("instance,system,score\n0,a,1\n0,b,2\n1,a,1\n", r"different instances \('b' lacks 1 of 2\).*--align pairwise"),
    ("instance,system,score\n0,a,1\n0,b,\n", r"missing score \(NaN\) for system 'b', instance 0 on line 3"),
    ("instance,system,score\n0,a,1\n0,b,x\n", r"score 'x' on line 3 is not a number"),
    ("instance,system,score\n0,a,1\n1,a,2\n", r"at least two systems"),
    ("a,b\n1,2\n3,oops\n", r"score in column 'b' 'oops' on line 3 is not a number"),
    ("a,b\n1,2\n3,\n", r"different instances \('b' lacks 1 of 2\)"),
    ("instance,system,score,metric\n0,a,1,BLEU\n0,b,2,BLEU\n0,a,1,chrF\n0,b,2,chrF\n",
     r"several values \['BLEU', 'chrF'\]"),
])
def test_bad_long_and_wide_files_name_the_problem_and_the_place(tmp_path, content, message):
    path = tmp_path / "scores.csv"
    path.write_text(content)
    with pytest.raises(ScoreFileError, match=message) as err:
        read_scores(path, align="exact")
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
    for align in ("exact", "intersect", "pairwise"):  # a line is a segment id: a missing line cannot be aligned
        with pytest.raises(ScoreFileError, match=r"different numbers of lines.*None"):
            read_scores(path, align=align)
    path.write_text("a\t1\nb\tNone\n")
    with pytest.raises(ScoreFileError, match="different instances \\('b' lacks 1 of 1\\)"):
        read_scores(path, align="exact")
    path.write_text("a 1 2\n")
    with pytest.raises(ScoreFileError, match=r"x.seg.score:1: expected"):
        read_scores(path)
    with pytest.raises(ScoreFileError, match="no such file"):
        read_scores(tmp_path / "missing.csv")
    with pytest.raises(ScoreFileError, match="unknown format 'xml'"):
        read_scores(path, "xml")
