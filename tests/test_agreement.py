"""Disagreement between aggregation mechanisms (Peyrard et al. 2021, Table 1 measures)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis import agreement
from analysis.aggregate import mean, median


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
    assert list(row.index) == ["n_instances", "n_systems", "mean_median_disagree", "mean_median_top1", "mean_median_top3"]
    assert row["mean_median_disagree"] == 1 and row["mean_median_top1"] == 1 and row["mean_median_top3"] == 0
