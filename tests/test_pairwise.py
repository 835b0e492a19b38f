"""Win/tie counts, P(A > B), paired tests and bootstrap intervals."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from analysis import pairwise
from analysis.aggregate import bradley_terry, mean
from tests.helpers import SCORES, random_scores


def test_win_tie_matrices_labels():
    wins, ties = pairwise.win_tie_matrices(pd.DataFrame({"x": [1.0, 2.0, 2.0], "y": [0.0, 2.0, 3.0]}))
    assert wins.loc["x", "y"] == 1 and wins.loc["y", "x"] == 1 and ties.loc["x", "y"] == 1


def test_sign_test_hand_computed():
    # 9 wins, 1 loss: two-sided exact p = 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024
    a = np.arange(10, dtype=float)
    b = a - 1
    b[0] = 5
    res = pairwise.sign_test(a, b)
    assert res.statistic == 9
    assert res.pvalue == pytest.approx(22 / 1024)


def test_sign_test_tie_policies():
    a = [1, 2, 3, 4, 4, 4]
    b = [0, 0, 0, 4, 4, 4]  # 3 wins, 3 ties
    assert pairwise.sign_test(a, b, ties="drop") == pairwise.TestResult(3.0, pytest.approx(0.25))
    split = pairwise.sign_test(a, b, ties="half")  # 3 + 1 wins vs 1 loss out of 5 (one tie dropped)
    assert split.statistic == 4 and split.pvalue == pytest.approx(stats.binomtest(4, 5).pvalue)
    assert tuple(pairwise.sign_test([1, 1], [1, 1])) == (0.0, 1.0)
    with pytest.raises(ValueError, match="unknown tie policy"):
        pairwise.sign_test(a, b, ties="split")


def test_prob_better():
    res = pairwise.prob_better([3, 2, 1, 5], [1, 2, 3, 0])  # 2 wins, 1 tie, 1 loss
    assert (res.wins, res.ties, res.losses) == (2, 1, 1)
    assert res.prob == pytest.approx(2.5 / 4)
    assert pairwise.prob_better([3, 2, 1, 5], [1, 2, 3, 0], ties="drop").prob == pytest.approx(2 / 3)
    assert res.pvalue == pytest.approx(stats.binomtest(2, 3).pvalue)


@pytest.mark.parametrize("seed", range(4))
def test_tests_equal_scipy_on_regular_input(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 1, 40), rng.normal(0.3, 1, 40)
    assert tuple(pairwise.paired_t(a, b)) == pytest.approx(tuple(stats.ttest_rel(a, b)))
    assert tuple(pairwise.wilcoxon(a, b)) == pytest.approx((stats.wilcoxon(a, b).statistic,
                                                             stats.wilcoxon(a, b).pvalue))
    m = stats.median_test(a, b)
    assert tuple(pairwise.mood_median(a, b)) == pytest.approx((m.statistic, m.pvalue))


def test_degenerate_tests_have_defined_results():
    same = [1.0, 2.0, 3.0]
    for test in pairwise.PAIRED_TESTS.values():
        assert tuple(test(same, same)) == (0.0, 1.0)
    assert tuple(pairwise.paired_t([2, 3, 4], [1, 2, 3])) == (np.inf, 0.0)
    with pytest.raises(ValueError, match="at least two"):
        pairwise.paired_t([1], [2])


def test_bootstrap_is_deterministic_and_brackets_the_estimate():
    scores = random_scores(np.random.default_rng(3), 60, 4)
    first = pairwise.bootstrap_ci(scores, bradley_terry, rng=11, n_resamples=200)
    second = pairwise.bootstrap_ci(scores, bradley_terry, rng=np.random.default_rng(11), n_resamples=200)
    pd.testing.assert_frame_equal(first, second)
    assert (first["low"] <= first["estimate"]).all() and (first["estimate"] <= first["high"]).all()
    other = pairwise.bootstrap_ci(scores, bradley_terry, rng=12, n_resamples=200)
    assert not first.equals(other)


def test_bootstrap_mean_interval_close_to_normal_theory():
    rng = np.random.default_rng(5)
    scores = pd.DataFrame({"a": rng.normal(0, 1, 400), "b": rng.normal(1, 2, 400)})
    ci = pairwise.bootstrap_ci(scores, mean, rng=1, n_resamples=2000)
    half_width = (ci["high"] - ci["low"]) / 2
    expected = 1.96 * scores.std() / np.sqrt(400)
    np.testing.assert_allclose(half_width, expected, rtol=0.15)


@given(st.lists(st.floats(-5, 5), min_size=1, max_size=40), st.integers(0, 2**32 - 1))
def test_bootstrap_mean_interval_contains_the_estimate(values, seed):
    est, low, high = pairwise.bootstrap_mean(values, rng=seed, n_resamples=200)
    assert low - 1e-9 <= est <= high + 1e-9
    assert est == pytest.approx(np.mean(values))


def test_bootstrap_mean_is_a_named_interval_and_refuses_nan():
    interval = pairwise.bootstrap_mean([1.0, 2.0, 4.0], rng=0, n_resamples=100)
    assert isinstance(interval, pairwise.Interval) and interval.estimate == pytest.approx(7 / 3)
    assert tuple(interval) == (interval.estimate, interval.low, interval.high)
    with pytest.raises(ValueError, match="NaN"):
        pairwise.bootstrap_mean([1.0, np.nan], rng=0)


@pytest.mark.parametrize("seed", range(4))
def test_bootstrap_mean_equals_scipy_percentile_bootstrap(seed):
    """Same generator, same draws: scipy.stats.bootstrap(method="percentile") gives the same interval."""
    x = np.random.default_rng(100 + seed).gamma(2.0, size=37)
    ours = pairwise.bootstrap_mean(x, rng=np.random.default_rng(seed), n_resamples=999)
    ref = stats.bootstrap((x,), np.mean, n_resamples=999, method="percentile", vectorized=True,
                          rng=np.random.default_rng(seed)).confidence_interval
    assert (ours.low, ours.high) == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_bootstrap_ci_equals_scipy_percentile_bootstrap_for_the_mean():
    """bootstrap_ci resamples rows; for MEAN and one system it is scipy's percentile bootstrap of the mean."""
    scores = random_scores(np.random.default_rng(5), 29, 2)
    ours = pairwise.bootstrap_ci(scores, mean, rng=np.random.default_rng(3), n_resamples=500)
    ref = stats.bootstrap((scores["sys0"].to_numpy(),), np.mean, n_resamples=500, method="percentile",
                          vectorized=True, rng=np.random.default_rng(3)).confidence_interval
    assert (ours.loc["sys0", "low"], ours.loc["sys0", "high"]) == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_bootstrap_summary_equals_one_bootstrap_per_group_and_column():
    frame = pd.DataFrame({"g": [2, 1, 1, 2, 1, 2], "a": [0.1, 0.5, np.nan, 0.3, 0.2, 0.9],
                          "b": [1.0, 0.0, 1.0, 1.0, 0.0, 0.0]})
    got = pairwise.bootstrap_summary(frame, ["a", "b"], by="g", rng=7, n_resamples=300)
    gen = np.random.default_rng(7)
    expected = []
    for g, group in frame.groupby("g", sort=True):  # sorted groups, then the columns in order, one generator
        for column in ("a", "b"):
            values = group[column].dropna()
            expected.append((g, column, *pairwise.bootstrap_mean(values, rng=gen, n_resamples=300), len(values)))
    assert [tuple(r) for r in got.itertuples(index=False)] == expected
    overall = pairwise.bootstrap_summary(frame, ["a"], rng=7, n_resamples=300)
    assert list(overall.columns) == ["column", "estimate", "low", "high", "n"] and overall.n.iloc[0] == 5
    with pytest.raises(ValueError, match=r"no column\(s\) \['c'\]"):
        pairwise.bootstrap_summary(frame, ["c"], rng=0)


# --- bad input: paired tests pair by label, not by position (issue 12, item 6) ----------------------------------------



TESTS = [pairwise.sign_test, pairwise.paired_t, pairwise.wilcoxon, pairwise.mood_median, pairwise.prob_better]


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


# --- bad input: bootstrap arguments (issue 12, item 6) ----------------------------------------------------------------

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


def test_adjust_pvalues_by_hand_and_against_scipy_with_untested_pairs_left_out():
    from scipy import stats

    from analysis.pairwise import adjust_pvalues

    p = [0.01, 0.04, 0.03, 0.005]
    # Holm by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> running max
    np.testing.assert_allclose(adjust_pvalues(p, "holm"), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(adjust_pvalues(p, "bh"), stats.false_discovery_control(p))
    with_nan = adjust_pvalues([0.01, np.nan, 0.04, 0.03, 0.005], "holm")
    assert np.isnan(with_nan[1]) and np.allclose(np.delete(with_nan, 1), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_array_equal(adjust_pvalues(p, "none"), p)
    with pytest.raises(ValueError, match="unknown adjustment"):
        adjust_pvalues(p, "bonferroni")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        adjust_pvalues([0.5, 1.5])


# --- the batched tests equal the one-pair tests bit for bit (issue 40) ------------------------------------------------

ONE_PAIR_TESTS = [pairwise.paired_t, pairwise.mood_median, pairwise.sign_test, pairwise.wilcoxon,
                  pairwise.bt_eval_sign_test]


def _paired_row(rng, n: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """One pair of n paired scores of a kind that reaches the tests' special cases and scipy's method choices."""
    if kind == "normal":  # no tie, no zero difference
        return rng.normal(size=n), rng.normal(size=n)
    if kind == "grid":  # ties, zero differences, often all equal at small n
        return rng.integers(0, 3, n).astype(float), rng.integers(0, 3, n).astype(float)
    x = np.round(rng.normal(size=n), 1)
    if kind == "shifted":  # tied absolute differences and zeros
        return x, x + rng.choice([0.0, 0.0, 0.5, -0.5, 1.0], n)
    if kind == "constant difference":
        return x, x - rng.choice([0.0, 0.25, -2.0])
    if kind == "constant":  # no value above the grand median
        return np.full(n, 1.5), np.full(n, 1.5)
    return x, x  # "equal"


@st.composite
def paired_batches(draw, sizes=(1, 2, 3, 4, 6, 9, 14, 20, 50, 51, 120)):
    n = draw(st.sampled_from(sizes))
    kinds = draw(st.lists(st.sampled_from(["normal", "grid", "shifted", "constant difference", "constant", "equal"]),
                          min_size=1, max_size=5))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    rows = [_paired_row(rng, n, kind) for kind in kinds]
    return np.array([x for x, _ in rows]), np.array([y for _, y in rows])


def _assert_rows_equal(batched, one, a, b):
    res = batched(a, b)
    assert res.statistic.shape == res.pvalue.shape == (len(a),)
    for k in range(len(a)):
        expected = one(a[k], b[k])
        assert (res.statistic[k], res.pvalue[k]) == (expected.statistic, expected.pvalue), (k, a[k], b[k])


@pytest.mark.filterwarnings("ignore:Precision loss")
@given(paired_batches())
def test_batched_tests_equal_the_one_pair_tests_bit_for_bit(batch):
    a, b = batch
    for one in ONE_PAIR_TESTS:
        if one is pairwise.paired_t and a.shape[1] < 2:
            with pytest.raises(ValueError, match="at least two"):
                pairwise.BATCHED[one](a, b)
            continue
        _assert_rows_equal(pairwise.BATCHED[one], one, a, b)


@pytest.mark.filterwarnings("ignore:Precision loss")
@given(paired_batches())
def test_batched_sign_test_equals_the_one_pair_test_with_ties_halved(batch):
    a, b = batch
    _assert_rows_equal(lambda a, b: pairwise.sign_test_batch(a, b, ties="half"),
                       lambda a, b: pairwise.sign_test(a, b, ties="half"), a, b)


@pytest.mark.parametrize("n", [5, 12, 13])
def test_wilcoxon_sign_flips_equal_scipys_permutation_test(n):
    # scipy runs a complete permutation test at n <= 13 with ties or zeros (0.5 s a pair at n = 13)
    rng = np.random.default_rng(n)
    rows = [_paired_row(rng, n, kind) for kind in ("grid", "shifted", "grid")]
    a, b = np.array([x for x, _ in rows]), np.array([y for _, y in rows])
    assert (pairwise.wilcoxon_methods(a - b) == "permutation").all()
    _assert_rows_equal(pairwise.wilcoxon_batch, pairwise.wilcoxon, a, b)
    with pytest.raises(ValueError, match="up to 13"):
        pairwise.wilcoxon_sign_flips(np.ones((1, 14)))


def test_wilcoxon_methods_are_scipys_choices():
    rng = np.random.default_rng(0)
    d = np.array([rng.normal(size=14), np.r_[rng.normal(size=13), 0.0], np.r_[1.0, -1.0, rng.normal(size=12)]])
    assert list(pairwise.wilcoxon_methods(d)) == ["exact", "asymptotic", "asymptotic"]
    assert list(pairwise.wilcoxon_methods(d[:, :13])) == ["exact", "exact", "permutation"]
    assert list(pairwise.wilcoxon_methods(np.zeros((2, 51)))) == ["asymptotic", "asymptotic"]


def test_batched_tests_take_empty_batches_and_refuse_bad_shapes_and_values():
    empty = np.empty((0, 5))
    for one in ONE_PAIR_TESTS:
        res = pairwise.BATCHED[one](empty, empty)
        assert res.statistic.shape == res.pvalue.shape == (0,)
    with pytest.raises(ValueError, match="pairs x instances"):
        pairwise.wilcoxon_batch([1.0, 2.0], [2.0, 1.0])
    with pytest.raises(ValueError, match="same shape"):
        pairwise.paired_t_batch(np.ones((2, 3)), np.ones((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        pairwise.mood_median_batch([[1.0, np.nan]], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="infinite"):
        pairwise.sign_test_batch([[1.0, np.inf]], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="empty"):
        pairwise.bt_eval_sign_test_batch(np.empty((2, 0)), np.empty((2, 0)))
    statistics, pvalues = pairwise.sign_test_batch([[1.0, 2.0]], [[0.0, 3.0]])
    assert list(statistics) == [1.0] and list(pvalues) == [1.0]
