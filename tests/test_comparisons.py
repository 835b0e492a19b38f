"""One form of pairwise evidence (analysis.comparisons): score matrices, judgments, counts and resamples become the
same weighted comparisons, and one builder makes every win matrix under one tie vocabulary."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from analysis import comparisons
from analysis.comparisons import comparison_counts, from_judgments, from_scores, win_matrices, win_matrix
from tests.strategies import score_matrices


def test_win_matrix_under_each_tie_policy_on_a_hand_case():
    # a beats b on 3 instances, b beats a on 1, 2 ties
    scores = pd.DataFrame({"a": [2, 2, 2, 0, 1, 1], "b": [1, 1, 1, 1, 1, 1]}, dtype=float)
    c = from_scores(scores)
    np.testing.assert_array_equal(win_matrix(c, "half"), [[0, 4], [2, 0]])
    np.testing.assert_array_equal(win_matrix(c, "drop"), [[0, 3], [1, 0]])
    np.testing.assert_array_equal(win_matrix(c, "loss"), [[0, 3], [3, 0]])  # a tie is a win for the later column
    np.testing.assert_array_equal(win_matrix(c, 0.25), [[0, 3.5], [1.5, 0]])
    assert c.tie_share() == pytest.approx(2 / 6)


@pytest.mark.parametrize("bad", ["draw", "split", -0.1, 1.5, True, None])
def test_unknown_tie_policies_are_named(bad):
    with pytest.raises(ValueError, match="unknown tie policy"):
        comparisons.tie_credit(bad)


@given(score_matrices())
def test_counted_by_instance_and_loop_agree(scores):
    values = scores.to_numpy()
    n = values.shape[1]
    expected = {ties: np.zeros((n, n)) for ties in ("half", "drop", "loss")}
    for row in values:
        for a in range(n):
            for b in range(a + 1, n):
                if row[a] > row[b]:
                    for m in expected.values():
                        m[a, b] += 1
                elif row[a] < row[b]:
                    for m in expected.values():
                        m[b, a] += 1
                else:
                    expected["half"][a, b] += 0.5
                    expected["half"][b, a] += 0.5
                    expected["loss"][b, a] += 1
    counted, per_instance = from_scores(scores), from_scores(scores, by_instance=True)
    for ties, m in expected.items():
        np.testing.assert_array_equal(win_matrix(counted, ties), m)
        np.testing.assert_array_equal(win_matrix(per_instance, ties), m)
        np.testing.assert_array_equal(win_matrices(per_instance, ties)[0], m)


@given(arrays(np.float64, st.tuples(st.integers(1, 30), st.integers(2, 7)), elements=st.integers(0, 4).map(float)))
def test_counts_equal_brute_force(values):
    wins, ties = comparison_counts(values)
    n = values.shape[1]
    for i in range(n):
        for j in range(n):
            assert wins[i, j] == sum(values[r, i] > values[r, j] for r in range(len(values)))
            if i != j:
                assert ties[i, j] == sum(values[r, i] == values[r, j] for r in range(len(values)))
    assert np.all(np.diag(ties) == 0)
    off = ~np.eye(n, dtype=bool)
    assert np.all((wins + wins.T + ties)[off] == len(values))


def test_counts_equal_the_broadcast_comparison():
    rng = np.random.default_rng(0)
    for n_instances, n_systems in ((1, 2), (7, 3), (500, 9), (333, 13), (50, 40)):
        values = rng.integers(0, 4, (n_instances, n_systems)).astype(float)
        values[rng.random(values.shape) < 0.05] = np.nan  # neither above nor below: left with the ties
        expected = (values[:, :, None] > values[:, None, :]).sum(axis=0)
        expected_ties = n_instances - expected - expected.T
        np.fill_diagonal(expected_ties, 0)
        for layout in (values, np.asfortranarray(values)):
            wins, ties = comparison_counts(layout)
            np.testing.assert_array_equal(wins, expected)
            np.testing.assert_array_equal(ties, expected_ties)
            assert wins.dtype == ties.dtype == np.int64


def test_comparison_counts_equal_a_loop():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 3, (50, 4)).astype(float)
    wins, ties = comparison_counts(values)
    for a in range(4):
        for b in range(4):
            if a != b:
                assert wins[a, b] == (values[:, a] > values[:, b]).sum()
                assert ties[a, b] == (values[:, a] == values[:, b]).sum()


def _toy():
    return from_judgments(["a", "a", "b", "c", "a", "b"], ["b", "b", "c", "a", "c", "a"],
                          ["left", "tie", "right", "left", "right", "left"])


def test_weighted_win_matrices_with_tie_masks_equal_a_loop():
    j = _toy()
    assert j.systems == ("a", "b", "c") and j.outcome.tolist() == [1, 0, -1, 1, -1, 1]
    rng = np.random.default_rng(3)
    weights = rng.integers(0, 3, (4, len(j))).astype(float)
    mask = rng.random((4, len(j))) < 0.4
    got = win_matrices(j, "half", weights, mask)
    for t in range(4):
        expected = np.zeros((3, 3))
        for k in range(len(j)):
            a, b, o = j.left[k], j.right[k], 0 if mask[t, k] else j.outcome[k]
            if o == 0:
                expected[a, b] += 0.5 * weights[t, k]
                expected[b, a] += 0.5 * weights[t, k]
            else:
                w, v = (a, b) if o == 1 else (b, a)
                expected[w, v] += weights[t, k]
        np.testing.assert_allclose(got[t], expected)
    np.testing.assert_allclose(win_matrices(j, "half", weights)[0].sum(), weights[0].sum())


def test_instance_weights_move_an_instances_comparisons_together():
    scores = pd.DataFrame({"a": [1.0, 0.0, 2.0], "b": [0.0, 1.0, 2.0], "c": [2.0, 2.0, 0.0]})
    c = from_scores(scores, by_instance=True)
    twice_first = win_matrices(c, "half", np.array([[2.0, 0.0, 1.0]]))[0]
    np.testing.assert_array_equal(twice_first, win_matrix(from_scores(scores.iloc[[0, 0, 2]])))


def test_judgment_weights_are_counted():
    weighted = from_judgments(["a", "b"], ["b", "a"], ["left", "tie"], weight=[3.0, 2.0])
    np.testing.assert_array_equal(win_matrix(weighted), [[0, 4], [1, 0]])
    assert weighted.tie_share() == pytest.approx(2 / 5)


def test_bad_judgments_and_weights_are_named():
    with pytest.raises(ValueError, match="winner must be"):
        from_judgments(["a"], ["b"], ["draw"])
    with pytest.raises(ValueError, match="compare a system with itself"):
        from_judgments(["a"], ["a"], ["tie"])
    with pytest.raises(ValueError, match="equal length"):
        from_judgments(["a", "b"], ["b"], ["tie"])
    with pytest.raises(ValueError, match="weight must hold"):
        from_judgments(["a"], ["b"], ["tie"], weight=[-1.0])
    with pytest.raises(ValueError, match="weights must be"):
        win_matrices(_toy(), "half", np.ones((2, 3)))
    with pytest.raises(ValueError, match="tie_mask must have"):
        win_matrices(_toy(), "half", np.ones((2, 6)), np.ones((1, 6), bool))


# -- issue 31, item 7: system names that are one system as text, and names that are not names -------------------------

def test_from_judgments_refuses_names_that_collide_as_text():
    with pytest.raises(ValueError, match=r"unique as text; \['1'\]"):
        from_judgments([1], ["1"], ["left"])  # was a silent self-comparison of system '1'
    with pytest.raises(ValueError, match=r"unique as text; \['1'\]"):
        from_judgments([1, "a"], ["a", "1"], ["left", "tie"])  # was two systems merged into one
    assert from_judgments([1, 2], [2, 3], ["left", "tie"]).systems == ("1", "2", "3")  # integers alone are fine


@pytest.mark.parametrize("name, kind", [(True, "bool"), (1j, "complex"), (np.nan, "missing value"), (1.5, "float")])
def test_from_judgments_refuses_names_that_are_not_strings_or_integers(name, kind):
    with pytest.raises(ValueError, match=f"system names must be strings or integers, got the {kind}"):
        from_judgments([name], ["a"], ["left"])


def test_from_scores_refuses_columns_that_collide_as_text():
    with pytest.raises(ValueError, match=r"unique as text; \['1'\]"):
        from_scores(pd.DataFrame([[1.0, 2.0], [3.0, 0.0]], columns=[1, "1"]))


def test_numpy_integer_names_are_the_names_they_hold():
    c = from_judgments(pd.Series([1, 2]), [np.int64(2), np.int64(1)], ["left", "tie"])
    assert c.systems == ("1", "2") and c.left.tolist() == [0, 1] and c.right.tolist() == [1, 0]


def test_counts_and_weights_are_checked_where_they_enter():
    with pytest.raises(ValueError, match="two different system indices"):
        comparisons.counted(("a", "b"), [[0, 0]], [1], [0], [0])
    with pytest.raises(ValueError, match="counts must be finite and non-negative"):
        comparisons.counted(("a", "b"), [[0, 1]], [-1], [0], [0])
    with pytest.raises(ValueError, match="weights must be finite and non-negative"):
        win_matrices(_toy(), "half", np.full((1, 6), np.nan))


@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.integers(1, 20), st.integers(1, 4),
       st.sampled_from(["half", "loss", "drop", 0.3]))
def test_score_win_matrices_equal_win_matrix_of_from_scores_exactly(seed, n_systems, n_instances, n_trials, ties):
    stack = np.random.default_rng(seed).integers(0, 3, size=(n_trials, n_instances, n_systems)).astype(float)
    ours = comparisons.score_win_matrices(stack, ties)
    for t, values in enumerate(stack):
        expected = comparisons.win_matrix(comparisons.from_scores(pd.DataFrame(values)), ties)
        np.testing.assert_array_equal(ours[t], expected)


def test_weighted_win_matrices_equal_the_sparse_product_bit_for_bit():
    """win_matrices sums each cell's products over the units in order, as scipy's sparse product did: the same bits
    with fractional weights, tie weights and tie masks, where the order of the sums matters."""
    rng = np.random.default_rng(2)
    for case in range(40):
        k, units, trials = int(rng.integers(2, 9)), int(rng.integers(1, 300)), int(rng.integers(1, 12))
        names = np.array([f"s{i}" for i in range(k)])
        a = rng.integers(0, k, units)
        b = (a + rng.integers(1, k, units)) % k
        weight = None if case % 2 else rng.random(units) * 10.0 ** rng.integers(-3, 3, units)
        c = from_judgments(names[a], names[b], rng.choice(["left", "right", "tie"], units), weight=weight)
        ties = ["half", "drop", "loss", 0.3][case % 4]
        weights = rng.random((trials, units)) * 10.0 ** rng.integers(-4, 4, (trials, units))
        if case % 3 == 0:
            weights = np.round(weights)
        mask = rng.random((trials, units)) < 0.3 if case % 5 == 0 else None
        real = comparisons._credit_matrix(c, ties, as_tie=False)
        if mask is None:
            expected = (real.T @ weights.T).T
        else:
            tied = comparisons._credit_matrix(c, ties, as_tie=True)
            expected = (real.T @ (weights * ~mask).T).T + (tied.T @ (weights * mask).T).T
        got = win_matrices(c, ties, weights, mask)
        assert got.tobytes() == np.ascontiguousarray(expected).reshape(-1, k, k).tobytes()
