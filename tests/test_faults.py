"""Issue 12, item 6: functions that trusted their input. Each case reproduces a fault found by a hostile-user audit
(a silent wrong number or a crash deep in numpy) and now expects the clear behaviour."""


import numpy as np
import pandas as pd
import pytest

from analysis import agreement, pairwise
from analysis.aggregate import elo, trueskill

SCORES = pd.DataFrame({"a": [1.0, 2.0, 3.0, 0.5], "b": [2.0, 1.0, 0.0, 0.7], "c": [1.5, 0.0, 2.0, 0.6]})
TESTS = [pairwise.sign_test, pairwise.paired_t, pairwise.wilcoxon, pairwise.mood_median, pairwise.prob_better]


# -- paired tests pair by label, not by position ----------------------------------------------------------------------

def test_prob_better_aligns_series_on_their_index():
    a = pd.Series([1.0, 2.0, 3.0], index=["x", "y", "z"])
    b = pd.Series([3.0, 1.0, 2.0], index=["z", "x", "y"])  # the same scores as a, listed in another order
    result = pairwise.prob_better(a, b)
    assert (result.wins, result.ties, result.losses) == (0, 3, 0)
    assert result.prob == 0.5


@pytest.mark.parametrize("test", TESTS[:4])
def test_paired_tests_align_series_on_their_index(test):
    a = pd.Series([1.0, 2.0, 3.0, 4.0], index=list("wxyz"))
    b = pd.Series([1.5, 2.5, 3.5, 4.5], index=list("wxyz"))
    assert test(a, b) == test(a.iloc[::-1], b)


@pytest.mark.parametrize("test", TESTS)
def test_paired_tests_refuse_series_over_different_instances(test):
    a = pd.Series([1.0, 2.0, 3.0], index=["x", "y", "z"])
    b = pd.Series([1.0, 2.0, 3.0], index=["x", "y", "q"])
    with pytest.raises(ValueError, match="different instances"):
        test(a, b)


@pytest.mark.parametrize("test", TESTS)
def test_paired_tests_refuse_duplicated_instance_labels(test):
    a = pd.Series([1.0, 2.0, 3.0], index=["x", "x", "z"])
    with pytest.raises(ValueError, match="duplicated"):
        test(a, a.iloc[::-1])


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("bad,what", [
    ([True, False, True], "bool"),
    (["1", "2", "3"], "str"),
    ([1 + 1j, 2, 3], "complex"),
])
def test_paired_tests_refuse_non_real_scores(test, bad, what):
    with pytest.raises(ValueError, match="must be real numbers"):
        test(bad, [1.0, 2.0, 4.0])


# -- Elo and TrueSkill parameters -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,name", [
    ({"k": "20"}, "k"), ({"k": float("nan")}, "k"), ({"k": True}, "k"),
    ({"initial": "1500"}, "initial"), ({"initial": float("nan")}, "initial"), ({"initial": np.inf}, "initial"),
])
def test_elo_parameters_are_checked(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        elo(SCORES, **kwargs)


@pytest.mark.parametrize("kwargs,name", [
    ({"mu": float("nan")}, "mu"), ({"mu": "25"}, "mu"), ({"sigma": 0.0}, "sigma"), ({"beta": -1.0}, "beta"),
    ({"tau": -0.1}, "tau"), ({"draw_probability": -0.1}, "draw_probability"),
    ({"draw_probability": 1.0}, "draw_probability"), ({"draw_probability": "x"}, "draw_probability"),
])
def test_trueskill_parameters_are_checked(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        trueskill(SCORES, **kwargs)


# -- agreement --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [agreement.disagreement, lambda a, b: agreement.top_k_differs(a, b, 1)])
def test_agreement_refuses_duplicated_system_labels(fn):
    a = pd.Series([1.0, 2.0, 3.0], index=["x", "x", "y"])
    b = pd.Series([1.0, 3.0, 2.0], index=["x", "y", "x"])
    with pytest.raises(ValueError, match="duplicated"):
        fn(a, b)


@pytest.mark.parametrize("k", [True, 2.5, "3", 0])
def test_compare_aggregators_k_must_be_a_positive_integer(k):
    with pytest.raises(ValueError, match="k must be a positive integer"):
        agreement.compare_aggregators(SCORES, k=k)


# -- bootstrap --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, -3, 2.5, True, "100"])
def test_bootstrap_n_resamples_must_be_a_positive_integer(n):
    with pytest.raises(ValueError, match="n_resamples"):
        pairwise.bootstrap_mean([1.0, 2.0, 3.0], rng=1, n_resamples=n)
    with pytest.raises(ValueError, match="n_resamples"):
        pairwise.bootstrap_ci(SCORES, lambda s: s.mean(), rng=1, n_resamples=n)
    with pytest.raises(ValueError, match="n_resamples"):
        pairwise.bootstrap_summary(pd.DataFrame({"x": [1.0, 2.0]}), ["x"], rng=1, n_resamples=n)


def test_bootstrap_mean_refuses_infinite_values():
    with pytest.raises(ValueError, match="infinite"):
        pairwise.bootstrap_mean([1.0, np.inf], rng=1)


def test_bootstrap_mean_refuses_non_real_values():
    with pytest.raises(ValueError, match="must be real numbers"):
        pairwise.bootstrap_mean(["1", "2"], rng=1)
