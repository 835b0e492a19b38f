"""Bring your own scores (analysis.compare): the comparison's intervals and stability, and the `compare` command's
errors."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import aggregate, compare, pairwise
from tests.helpers import random_scores

ROOT = Path(__file__).resolve().parent.parent


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


def test_cli_reports_a_bad_file_as_an_error_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("instance,system,score\n0,a,1\n")
    result = subprocess.run([sys.executable, "-m", "analysis", "compare", str(bad)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 2 and "error:" in result.stderr and "at least two systems" in result.stderr
    assert "Traceback" not in result.stderr
