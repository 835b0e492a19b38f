"""Global vs pairwise (analysis.sweeps) and the batch Bradley-Terry fit: evalica, one-by-one fits, hand cases."""

import math

import evalica
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis import bt, comparisons, sweeps
from analysis.comparisons import Comparisons


def evalica_strengths(m: Comparisons) -> pd.Series:
    code = {1: evalica.Winner.X, -1: evalica.Winner.Y, 0: evalica.Winner.Draw}
    xs = [m.systems[i] for i in m.left]
    ys = [m.systems[j] for j in m.right]
    winners = [code[int(o)] for o in m.outcome]
    result = evalica.bradley_terry(xs, ys, winners, tie_weight=0.5, tolerance=1e-13, limit=100_000)
    return (result.scores / result.scores.sum()).reindex(list(m.systems))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31), st.integers(2, 6), st.integers(5, 80), st.integers(2, 6))
def test_bradley_terry_with_ties_as_half_wins_equals_evalica(seed, k, n, levels):
    rng = np.random.default_rng(seed)
    quality = pd.DataFrame(rng.integers(0, levels, (n, k)) + rng.normal(0, 0.3, k).round(),
                           columns=[f"m{i}" for i in range(k)])
    m = sweeps.matches(quality)
    outcome = m.outcome.reshape(n, -1)
    if ((outcome == 1).all(axis=0) | (outcome == -1).all(axis=0)).any():
        return  # a pair with one side winning every match: no finite MLE for either implementation
    ours = bt.fit(comparisons.win_matrix(m), tol=1e-20, systems=m.systems).series()
    np.testing.assert_allclose(ours, evalica_strengths(m), atol=1e-6)


def test_matches_mark_wins_losses_and_ties():
    q = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 1.0, 4.0], "c": [0.0, 5.0, 3.0]})
    m = sweeps.matches(q)
    assert m.systems == ("a", "b", "c") and m.left[:3].tolist() == [0, 0, 1] and m.right[:3].tolist() == [1, 2, 2]
    assert m.outcome.reshape(3, 3).tolist() == [[0, 1, 1], [1, -1, -1], [-1, 0, 1]]
    assert m.unit.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert m.tie_share() == pytest.approx(2 / 9)
    with pytest.raises(ValueError, match="missing or infinite values for models \\['b'\\]"):
        sweeps.matches(q.assign(b=[1.0, np.nan, 0.0]))
    with pytest.raises(ValueError, match="at least two models"):
        sweeps.matches(q[["a"]])


def test_sample_size_is_12_m_ln_m_capped_at_the_instances():
    assert sweeps.sample_size(6, 488) == int(12 * 6 * math.log(6)) == 129  # CEval: 6 models
    assert sweeps.sample_size(8, 2210) == 199  # SST-5: 8 baselines
    assert sweeps.sample_size(9, 100) == 100  # fewer instances than 237: all of them
    assert sweeps.sample_size(2, 1000) == 16
    with pytest.raises(ValueError):
        sweeps.sample_size(1, 10)


def test_win_matrices_count_ties_as_half_and_use_every_instance_when_too_few():
    q = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 1.0, 4.0]})
    m = sweeps.matches(q)
    w = sweeps.win_matrices(m, 0, 2, size=10)  # 10 >= 3 instances: all of them, in every trial
    np.testing.assert_array_equal(w[0], [[0, 1.5], [1.5, 0]])
    np.testing.assert_array_equal(w[0], w[1])
    sampled = sweeps.win_matrices(m, 0, 50, size=2)
    assert (sampled[:, 0, 1] + sampled[:, 1, 0] == 2).all()
    all_ties = sweeps.win_matrices(m, 0, 3, size=2, tie_probability=1.0)
    assert (all_ties[:, 0, 1] == 1).all() and (all_ties[:, 1, 0] == 1).all()
    np.testing.assert_array_equal(sweeps.win_matrices(m, 7, 4, size=2), sweeps.win_matrices(m, 7, 4, size=2))


def test_interval_brackets_the_full_data_fit_and_is_deterministic():
    rng = np.random.default_rng(3)
    q = pd.DataFrame(rng.normal([0.0, 0.2, 0.5], 1, (500, 3)), columns=["x", "y", "z"])
    m = sweeps.matches(q)
    a = sweeps.bradley_terry_interval(m, 11, 300)
    pd.testing.assert_frame_equal(a, sweeps.bradley_terry_interval(m, 11, 300))
    assert ((a["bt_low"] <= a["bt"]) & (a["bt"] <= a["bt_high"])).all()
    assert list(a["bt"].sort_values().index) == ["x", "y", "z"]


def test_stability_curve_settles_as_comparisons_grow():
    rng = np.random.default_rng(0)
    quality = pd.DataFrame(rng.normal([0.0, 0.3, 0.6, 0.9], 1, (300, 4)), columns=list("abcd"))
    curve = sweeps.stability_curve(sweeps.matches(quality), [5, 50, 500], 1, n_trials=40, reference_size=20_000)
    assert curve["changes_mean"].iloc[0] > curve["changes_mean"].iloc[-1]
    assert curve["changes_mean"].iloc[-1] < 0.3
    pd.testing.assert_frame_equal(curve, sweeps.stability_curve(sweeps.matches(quality), [5, 50, 500], 1,
                                                                n_trials=40, reference_size=20_000))
    # without the cap, sizes above the number of instances are still draws with replacement
    draws = sweeps.win_matrices(sweeps.matches(quality), 0, 3, size=1000, cap=False)
    assert (draws[:, 0, 1] + draws[:, 1, 0] == 1000).all() and len({d[0, 1] for d in draws}) > 1


def test_copies_ap_orients_mae_and_needs_both_kinds():
    measures = pd.DataFrame({"acc": [0.9, 0.8, 0.7, 0.6], "mae": [0.1, 0.2, 0.3, 0.4]},
                            index=["a", "b", "Binarized a", "Binarized b"])
    ap = sweeps.copies_ap(measures, ["a", "b"])
    assert ap["acc"] == 1.0 and ap["mae"] == 1.0
    flipped = sweeps.copies_ap(measures, ["Binarized a", "Binarized b"])
    assert flipped["acc"] == pytest.approx((1 / 3 + 2 / 4) / 2)
    with pytest.raises(ValueError, match="both originals and copies"):
        sweeps.copies_ap(measures, ["a", "b", "Binarized a", "Binarized b"])


# -- judgment lists (llmfao) ----------------------------------------------------------------------------------------


def _toy_judgments():
    return comparisons.from_judgments(["a", "a", "b", "c", "a", "b"], ["b", "b", "c", "a", "c", "a"],
                                      ["left", "tie", "right", "left", "right", "left"])


def test_pair_bootstrap_keeps_each_pairs_count_and_is_deterministic():
    j = _toy_judgments()
    w = sweeps.pair_bootstrap_weights(j, 5, 50)
    pair = [frozenset((j.left[k], j.right[k])) for k in range(len(j))]
    for p in set(pair):
        members = [k for k in range(len(j)) if pair[k] == p]
        assert (w[:, members].sum(axis=1) == len(members)).all()
    assert (w == sweeps.pair_bootstrap_weights(j, 5, 50)).all()
    assert (w.sum(axis=1) == len(j)).all() and len({tuple(r) for r in w}) > 1


def test_pair_bootstrap_weights_are_one_draw_of_uniforms_counted():
    """The counts of the draw ``order[first + floor(u * count)]`` from one (trials x judgments) array of uniforms,
    however many trials at once the function draws."""
    rng = np.random.default_rng(3)
    names = np.array([f"m{i}" for i in range(7)])
    for n_judgments, n_trials in ((40, 1), (300, 50), (20_000, 13)):
        a = rng.integers(0, 7, n_judgments)
        b = (a + rng.integers(1, 7, n_judgments)) % 7
        j = comparisons.from_judgments(names[a], names[b], rng.choice(["left", "right", "tie"], n_judgments))
        pair = np.unique(np.minimum(j.left, j.right) * 7 + np.maximum(j.left, j.right), return_inverse=True)[1]
        order = np.argsort(pair, kind="stable")
        counts = np.bincount(pair)
        start = np.concatenate([[0], np.cumsum(counts)[:-1]])[pair[order]]
        u = np.random.default_rng(11).random((n_trials, n_judgments))
        drawn = order[start + (u * counts[pair[order]]).astype(np.int64)]
        expected = np.zeros((n_trials, n_judgments))
        np.add.at(expected, (np.arange(n_trials)[:, None], drawn), 1.0)
        assert sweeps.pair_bootstrap_weights(j, 11, n_trials).tobytes() == expected.tobytes()


def test_lowest_ap_is_every_relevant_item_last():
    assert sweeps.lowest_ap(1, 2) == 0.5
    for k, n in ((8, 16), (5, 10), (6, 12)):
        relevant = np.r_[np.zeros(n - k), np.ones(k)]
        from sklearn.metrics import average_precision_score
        assert sweeps.lowest_ap(k, n) == pytest.approx(average_precision_score(relevant, -np.arange(n)))


def test_ties_make_the_stability_curve_settle_later_and_settling_point_on_hand_cases():
    rng = np.random.default_rng(4)
    quality = pd.DataFrame(rng.normal([0.0, 0.3, 0.6, 0.9], 1, (300, 4)), columns=list("abcd"))
    m = sweeps.matches(quality)
    plain = sweeps.stability_curve(m, [20, 60], 1, n_trials=200, reference_size=20_000)
    tied = sweeps.stability_curve(m, [20, 60], 1, n_trials=200, reference_size=20_000, tie_probability=0.8)
    assert (tied["changes_mean"] > plain["changes_mean"]).all()
    curve = pd.DataFrame({"comparisons": [10, 20, 30, 40], "changes_mean": [1.0, 0.05, 0.2, 0.0]})
    assert sweeps.settling_point(curve) == 40  # dipped at 20 but rose again
    assert sweeps.settling_point(curve.assign(changes_mean=[0.0] * 4)) == 10
    assert np.isnan(sweeps.settling_point(curve.assign(changes_mean=[1.0, 0.0, 0.0, 0.5])))


# -- issue 31, item 7: matches refuse duplicate or colliding names and columns that only look numeric ----------------

@pytest.mark.parametrize("column, message", [
    ([True, False, True], r"quality must be real numbers .*; non-numeric columns: \['a'\]"),
    (["1", "2", "3"], r"quality must be real numbers .*; non-numeric columns: \['a'\]"),
    # the imaginary part was dropped
    ([1 + 1j, 2, 3], r"quality must be real numbers .*; non-numeric columns: \['a'\]"),
    ([1.0, np.inf, 3.0], r"infinite values in columns \['a'\]"),
])
def test_matches_refuse_columns_that_are_not_real_numbers(column, message):
    with pytest.raises(ValueError, match=message):
        sweeps.matches(pd.DataFrame({"a": column, "b": [1.0, 2.0, 3.0]}))


def test_matches_refuse_duplicate_and_colliding_model_names():
    with pytest.raises(ValueError, match=r"must be unique; duplicated: \['a'\]"):
        sweeps.matches(pd.DataFrame([[1.0, 2.0], [3.0, 0.0]], columns=["a", "a"]))
    with pytest.raises(ValueError, match=r"unique as text; \['1'\]"):  # was a silent self-comparison
        sweeps.matches(pd.DataFrame([[1.0, 2.0], [3.0, 0.0]], columns=[1, "1"]))
