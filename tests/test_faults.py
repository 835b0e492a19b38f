"""Issue 12, item 6: functions that trusted their input. Each case reproduces a fault found by a hostile-user audit
(a silent wrong number or a crash deep in numpy) and now expects the clear behaviour."""

import warnings

import numpy as np
import pandas as pd
import pytest

from analysis import agreement, pairwise
from analysis.aggregate import DegenerateWarning, bradley_terry, elo, fit_bradley_terry, trueskill

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


# -- Bradley-Terry without a finite maximum-likelihood estimate -------------------------------------------------------

def test_bt_warns_and_names_a_system_that_never_loses():
    never_loses = pd.DataFrame({"a": [3.0, 3.0, 3.0], "b": [1.0, 2.0, 1.0], "c": [2.0, 1.0, 0.0]})
    with pytest.warns(DegenerateWarning, match=r"\['a'\] never lose"):
        strengths = bradley_terry(never_loses)
    assert strengths.idxmax() == "a"


def test_bt_warns_under_drop_when_a_group_never_wins():
    # c and d beat each other but never a or b once ties are dropped; with ties as half wins they do
    scores = pd.DataFrame({"a": [2.0, 1.0, 2.0], "b": [1.0, 2.0, 1.0], "c": [0.0, 0.0, 1.0], "d": [0.0, 1.0, 0.0]})
    with pytest.warns(DegenerateWarning, match=r"\['c', 'd'\] never win"):
        bradley_terry(scores, ties="drop")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bradley_terry(scores, ties="half")


def test_bt_single_winless_system_gets_exactly_zero_without_warning():
    scores = pd.DataFrame({"a": [2.0, 1.0, 2.0], "b": [1.0, 2.0, 1.0], "c": [0.0, 0.0, 0.0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loose = bradley_terry(scores, tol=1e-6)
        tight = bradley_terry(scores, tol=1e-14)
        two = bradley_terry(scores[["a", "c"]])
    assert loose["c"] == tight["c"] == 0.0
    assert tight[["a", "b"]].tolist() == pytest.approx([2 / 3, 1 / 3], abs=1e-6)  # a beat b 2-1: the fit without c
    assert loose[["a", "b"]].tolist() == pytest.approx([2 / 3, 1 / 3], abs=5e-3)
    assert two.tolist() == [1.0, 0.0]


def test_bt_is_silent_when_the_mle_is_finite():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bradley_terry(SCORES)


def test_fit_bradley_terry_degenerate_result_does_not_depend_on_tol_for_the_order():
    wins = np.array([[0, 3, 3], [0, 0, 2], [0, 1, 0]], dtype=float)  # system 0 never loses
    with pytest.warns(DegenerateWarning):
        loose, _ = fit_bradley_terry(wins, tol=1e-6)
    with pytest.warns(DegenerateWarning):
        tight, _ = fit_bradley_terry(wins, tol=1e-14)
    assert np.argsort(-loose).tolist() == np.argsort(-tight).tolist() == [0, 1, 2]


@pytest.mark.parametrize("max_iter", [0, -1, 2.5, "10"])
def test_bt_max_iter_must_be_a_positive_integer(max_iter):
    with pytest.raises(ValueError, match="max_iter"):
        bradley_terry(SCORES, max_iter=max_iter)


@pytest.mark.parametrize("tol", [0.0, -1e-9, float("nan"), "x"])
def test_bt_tol_must_be_positive(tol):
    with pytest.raises(ValueError, match="tol"):
        bradley_terry(SCORES, tol=tol)


def test_fit_bradley_terry_refuses_infinite_wins():
    with pytest.raises(ValueError, match="finite"):
        fit_bradley_terry(np.array([[0.0, np.inf], [1.0, 0.0]]))


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
