"""Bad input fails early with a ValueError that names the problem."""

import numpy as np
import pandas as pd
import pytest

from analysis import agreement, pairwise
from analysis.aggregate import AGGREGATORS, bradley_terry, elo, trueskill
from analysis.validation import check_rng

GOOD = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [2.0, 1.0, 0.0]})

BAD = [
    (pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 2.0]}), "NaN"),
    (pd.DataFrame({"a": [1.0, np.inf], "b": [1.0, 2.0]}), "infinite"),
    (pd.DataFrame({"a": [1.0, 2.0]}), "at least 2 systems"),
    (pd.DataFrame({"a": pd.Series([], dtype=float), "b": pd.Series([], dtype=float)}), "no test instances"),
    (pd.DataFrame(), "at least 2 systems"),
    (pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}), "non-numeric columns: \\['a'\\]"),
    (pd.DataFrame({"a": [True, False], "b": [1.0, 2.0]}), "non-numeric"),
    (pd.DataFrame([[1.0, 2.0]], columns=["a", "a"]), "unique"),
    (np.ones((3, 2)), "DataFrame"),
]


@pytest.mark.parametrize("name", sorted(AGGREGATORS))
@pytest.mark.parametrize("scores,message", BAD)
def test_aggregators_reject_bad_score_matrices(name, scores, message):
    with pytest.raises(ValueError, match=message):
        AGGREGATORS[name](scores)


@pytest.mark.parametrize("fn", [bradley_terry, elo])
def test_unknown_tie_policy_is_named(fn):
    with pytest.raises(ValueError, match="unknown tie policy 'ignore'"):
        fn(GOOD, ties="ignore")


def test_trueskill_tie_policies():
    with pytest.raises(ValueError, match="unknown tie policy 'draw'"):  # one vocabulary: a draw is "half"
        trueskill(GOOD, ties="draw")


def test_elo_rejects_non_positive_k():
    with pytest.raises(ValueError, match="k must be a finite number in \\(0, "):
        elo(GOOD, k=0)


@pytest.mark.parametrize("test", list(pairwise.PAIRED_TESTS.values()) + [pairwise.prob_better])
def test_paired_functions_reject_bad_vectors(test):
    with pytest.raises(ValueError, match="same length"):
        test([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="NaN"):
        test([1, np.nan], [1, 2])
    with pytest.raises(ValueError, match="real numbers"):
        test(["a", "b"], [1, 2])
    with pytest.raises(ValueError, match="empty"):
        test([], [])


def test_rng_must_be_explicit():
    with pytest.raises(ValueError, match="rng must be"):
        check_rng(None)
    assert isinstance(check_rng(3), np.random.Generator)
    with pytest.raises(ValueError, match="rng must be"):
        pairwise.bootstrap_ci(GOOD, bradley_terry, rng=None)


def test_agreement_rejects_mismatched_vectors():
    with pytest.raises(ValueError, match="same length"):
        agreement.disagreement([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="different systems"):
        agreement.disagreement(pd.Series([1, 2], index=["a", "b"]), pd.Series([1, 2], index=["a", "c"]))
    with pytest.raises(ValueError, match="constant"):
        agreement.disagreement([1, 1, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="k must be an integer between"):
        agreement.top_k_differs([1, 2], [2, 1], 3)
