"""Disagreement between aggregation mechanisms (Peyrard et al. 2021, Table 1 measures)."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from analysis import aggregate, agreement
from analysis.aggregate import mean, median
from tests.helpers import SCORES, random_scores


def test_disagreement_hand_computed():
    assert agreement.disagreement([1, 2, 3, 4], [10, 20, 30, 40]) == 0
    assert agreement.disagreement([1, 2, 3, 4], [4, 3, 2, 1]) == 1
    # one of the three pairs swapped: tau = (2 - 1) / 3, disagreement = 1/3
    assert agreement.disagreement([1, 2, 3], [2, 1, 3]) == pytest.approx(1 / 3)


@given(st.permutations(range(6)))
def test_disagreement_is_share_of_discordant_pairs_without_ties(perm):
    a = np.arange(6)
    b = np.array(perm)
    discordant = sum((a[i] - a[j]) * (b[i] - b[j]) < 0 for i in range(6) for j in range(i + 1, 6))
    assert agreement.disagreement(a, b) == pytest.approx(discordant / 15)


def test_series_are_aligned_by_system():
    a = pd.Series([1, 2, 3], index=["x", "y", "z"])
    b = pd.Series([3, 1, 2], index=["z", "x", "y"])  # the same scores in another order
    assert agreement.disagreement(a, b) == 0
    assert not agreement.top_k_differs(a, b, 1)


def test_top_k_tie_breaking_is_by_position():
    assert agreement.top_k([5, 7, 7, 1], 1) == [1]
    assert agreement.top_k([5, 7, 7, 1], 2) == [1, 2]
    assert agreement.top_k([7, 7, 7], 2) == [0, 1]
    assert agreement.top_k_differs([3, 2, 1, 0], [2, 3, 1, 0], 1)
    assert not agreement.top_k_differs([3, 2, 1, 0], [2, 3, 1, 0], 2)  # sets, not orders


def test_compare_aggregators_row(fig1_scores):
    row = agreement.compare_aggregators(fig1_scores)
    pairs = ["mean_median", "mean_bt", "mean_elo", "mean_trueskill", "median_bt", "median_elo", "median_trueskill",
             "bt_elo", "bt_trueskill", "elo_trueskill"]
    expected = ["n_instances", "n_systems"] + [f"{p}_{m}" for p in pairs for m in ("disagree", "top1", "top3")]
    assert list(row.index) == expected
    assert row["n_instances"] == 5 and row["n_systems"] == 3
    assert np.isnan(row["mean_median_disagree"])  # MEAN is constant in Fig. 1: it ranks nothing
    # MEDIAN [10, 10, 7] and MEAN [10, 10, 10] break their ties towards A (first column); BT picks B
    assert row["median_bt_top1"] == 1 and row["mean_bt_top1"] == 1 and row["mean_median_top1"] == 0
    assert row["median_bt_top3"] == 0  # with three systems every top-3 set is the same
    # pairs: (A, B) tied by MEDIAN, (A, C) discordant, (B, C) concordant: tau_b = 0, disagreement 1/2
    assert row["median_bt_disagree"] == pytest.approx(0.5)


def test_compare_aggregators_custom_mechanisms_and_small_k():
    scores = pd.DataFrame({"a": [1.0, 6.0, 2.0], "b": [2.0, 3.0, 3.0]})  # MEAN prefers a, MEDIAN b
    row = agreement.compare_aggregators(scores, {"mean": mean, "median": median}, k=3)
    assert list(row.index) == ["n_instances", "n_systems", "mean_median_disagree", "mean_median_top1",
                               "mean_median_top3"]
    assert row["mean_median_disagree"] == 1 and row["mean_median_top1"] == 1 and row["mean_median_top3"] == 0


def test_mechanism_names_with_underscores_are_never_split():
    """Pairs are tuples: evalica's ``average_win_rate`` works as a mechanism name."""
    scores = pd.DataFrame({"x": [1.0, 2, 3, 4], "y": [2.0, 1, 4, 3], "z": [0.0, 0, 1, 5]})
    fns = {"mean": mean, "average_win_rate": median}
    row = agreement.compare_aggregators(scores, fns)
    pair = ("mean", "average_win_rate")
    assert agreement.mechanism_pairs(fns) == [pair]
    assert agreement.measure_column(pair, "top1") == "mean_average_win_rate_top1"
    assert row[agreement.measure_column(pair, "disagree")] == agreement.disagreement(mean(scores), median(scores))


def test_compare_aggregators_aligns_each_result_on_the_systems():
    """A mechanism that returns the same scores in another system order agrees completely (issue: it read 1.0)."""
    scores = pd.DataFrame({"a": [1.0, 2, 3], "b": [3.0, 4, 5], "c": [0.0, 9, 9]})
    row = agreement.compare_aggregators(scores, {"mean": mean, "reversed": lambda s: mean(s).iloc[::-1]})
    assert row["mean_reversed_disagree"] == 0.0 and row["mean_reversed_top1"] == 0.0
    with pytest.raises(ValueError, match="returned systems"):
        agreement.compare_aggregators(scores, {"mean": mean, "bad": lambda s: mean(s).rename({"a": "q"})})


def test_top_k_cuts_boundary_ties_by_the_chosen_column():
    scores = [3.0, 5.0, 5.0, 1.0]
    assert agreement.top_k(scores, 1) == [1] and agreement.top_k(scores, 1, "last") == [2]
    assert agreement.top_k(scores, 2) == agreement.top_k(scores, 2, "last") == [1, 2]
    assert agreement.top_k([2.0, 2, 2, 0], 2, "last") == [1, 2]
    for bad in (0, 5, True, 2.5):
        with pytest.raises(ValueError, match="k must be an integer"):
            agreement.top_k(scores, bad)
    with pytest.raises(ValueError, match="unknown tie_break"):
        agreement.top_k(scores, 1, "random")


# -- comparing rankings: one home, checked against scipy and loops ----------------------------------------------------

@given(arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(3, 7)), elements=st.integers(0, 4).map(float)))
def test_spearman_rows_equal_scipy_row_by_row(rows):
    reference = np.arange(rows.shape[1], dtype=float)[::-1]
    got = agreement.spearman_rows(rows, reference)
    for row, rho in zip(rows, got):
        if np.ptp(row) == 0:
            assert np.isnan(rho)
        else:
            assert rho == pytest.approx(stats.spearmanr(row, reference).statistic, abs=1e-12)


def test_rank_changes_displacement_and_order_changes_on_hand_cases():
    reference = np.array([0.5, 0.3, 0.2])
    rows = np.array([[0.6, 0.3, 0.1], [0.2, 0.3, 0.5], [0.3, 0.5, 0.2]])
    np.testing.assert_array_equal(agreement.rank_changes(rows, reference), [0, 2, 2])
    np.testing.assert_allclose(agreement.rank_displacement(rows, reference), [0, 4 / 3, 2 / 3])
    before = pd.Series([3.0, 2.0, 1.0, 0.0], index=list("abcd"))
    after = pd.Series([1.0, 2.0, 2.0], index=list("bcd"))  # c and d now tie, b falls below both
    assert agreement.order_changes(before, after) == 3


@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(2, 6)), elements=st.integers(0, 3).map(float)))
def test_rank_displacement_equals_a_loop(rows):
    reference = np.linspace(1, 0, rows.shape[1])
    got = agreement.rank_displacement(rows, reference)
    for row, value in zip(rows, got):
        ranks = stats.rankdata(-row)
        assert value == pytest.approx(np.mean(np.abs(ranks - np.arange(1, len(row) + 1))))


def test_pair_labels_have_one_format_for_tables_and_one_for_readers():
    assert agreement.pair_name(("mean", "average_win_rate")) == "mean_average_win_rate"
    assert agreement.pair_label(("mean", "bt")) == "MEAN vs. BT"
    assert agreement.pair_label(("x", "trueskill")) == "x vs. TrueSkill"


# --- bad input (issue 12, item 6) -------------------------------------------------------------------------------------



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


# --- significance agreement and the App. F IIA search -----------------------------------------------------------------

def test_agreement_matrix_by_hand():
    sig = pd.DataFrame({"x": [True, True, False, False], "y": [True, False, True, False]})
    m = agreement.agreement_matrix(sig)
    assert m.loc["x", "x"] == 0.5 and m.loc["x", "y"] == 0.5 and m.loc["y", "x"] == 0.5


def test_paper_appendix_f_example_becomes_a_tie():
    m = pd.DataFrame({"A": [1, 2, 3], "B": [2, 3, 1], "C": [3, 1, 2]}, dtype=float)
    found = agreement.iia_violations(m)
    assert len(found) == 3 and set(found.kind) == {"tied"}
    ab = found[(found.a == "A") & (found.b == "B")].iloc[0]
    assert ab.alone == "b" and ab.with_c == "tie" and ab.winner_share == pytest.approx(2 / 3)


@pytest.mark.parametrize("seed, n_instances", [(0, 12), (1, 12), (2, 30), (3, 5), (4, 4)])
def test_iia_search_equals_brute_force_bt_fits(seed, n_instances):
    rng = np.random.default_rng(seed)
    m = random_scores(rng, n_instances, 6, levels=4)
    found = agreement.iia_violations(m)
    expected = set()
    for trio in combinations(m.columns, 3):
        s = aggregate.bradley_terry(m[list(trio)], ties="half", tol=1e-20)
        for a, b in combinations(trio, 2):
            c = next(x for x in trio if x not in (a, b))
            wins = (m[a] > m[b]).sum() + 0.5 * (m[a] == m[b]).sum()
            alone = np.sign(wins - (len(m) - wins))
            together = 0.0 if abs(s[a] - s[b]) <= 1e-7 * (s[a] + s[b]) else np.sign(s[a] - s[b])
            if alone != 0 and together != alone:
                expected.add((a, b, c))
    assert set(zip(found.a, found.b, found.c)) == expected


# -- the batched comparison of rankings ---------------------------------------------------------------------------

_small_scores = arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(2, 7)),
                       elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, -1.0, 1e-300, np.inf, -np.inf]))


@given(_small_scores, st.integers(0, 2**32 - 1))
def test_kendall_tau_b_equals_scipy_bit_for_bit_row_by_row(x, seed):
    y = np.random.default_rng(seed).permutation(x, axis=1)
    ours = agreement.kendall_tau_b(x, y)
    for t in range(len(x)):
        theirs = stats.kendalltau(x[t], y[t]).statistic
        assert (np.isnan(ours[t]) and np.isnan(theirs)) or ours[t] == theirs


def test_kendall_tau_b_is_nan_for_a_constant_row_and_exact_at_the_ends():
    x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])
    y = np.array([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    tau = agreement.kendall_tau_b(x, y)
    assert tau[0] == 1.0 and np.isnan(tau[1]) and tau[2] == -1.0
    with pytest.raises(ValueError, match="same shape"):
        agreement.kendall_tau_b(x, y[:, :2])


@given(st.integers(0, 2**32 - 1), st.integers(2, 9), st.integers(1, 12), st.sampled_from(["first", "last"]))
def test_compare_rankings_equals_the_one_matrix_functions(seed, n_systems, n_trials, tie_break):
    gen = np.random.default_rng(seed)
    # few distinct values, so ties (and constant rows) are common
    results = {name: gen.integers(0, 3, size=(n_trials, n_systems)).astype(float) for name in ("a", "b", "c")}
    measures = agreement.compare_rankings(results, k=3, tie_break=tie_break)
    assert list(measures) == [agreement.measure_column(p, m) for p in agreement.mechanism_pairs("abc")
                              for m in ("disagree", "top1", "top3")]
    kk = min(3, n_systems)
    for t in range(n_trials):
        for a, b in agreement.mechanism_pairs("abc"):
            x, y = results[a][t], results[b][t]
            try:
                expected = agreement.disagreement(x, y)
            except ValueError:
                expected = np.nan
            got = measures[agreement.measure_column((a, b), "disagree")][t]
            assert (np.isnan(got) and np.isnan(expected)) or got == expected
            assert measures[f"{a}_{b}_top1"][t] == float(agreement.top_k_differs(x, y, 1, tie_break))
            assert measures[f"{a}_{b}_top3"][t] == float(agreement.top_k_differs(x, y, kk, tie_break))


def test_compare_rankings_refuses_bad_input_by_name():
    good = np.zeros((2, 3))
    with pytest.raises(ValueError, match="'b' contains NaN"):
        agreement.compare_rankings({"a": good, "b": np.full((2, 3), np.nan)})
    with pytest.raises(ValueError, match="same"):
        agreement.compare_rankings({"a": good, "b": np.zeros((2, 4))})
    with pytest.raises(ValueError, match="trials x systems"):
        agreement.compare_rankings({"a": np.zeros(3), "b": np.zeros(3)})
    with pytest.raises(ValueError, match="k must be"):
        agreement.compare_rankings({"a": good, "b": good}, k=0)
    with pytest.raises(ValueError, match="tie_break"):
        agreement.compare_rankings({"a": good, "b": good}, tie_break="middle")
