"""analysis.favi: the Favi-Score paper's definitions, its worked examples and lemmas, and the tools around them."""

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from analysis import favi
from analysis.data import published
from tests.reference import favi_loop

ratings = st.integers(1, 40).flatmap(
    lambda n: st.tuples(arrays(np.int8, n, elements=st.sampled_from([-1, 0, 1])),
                        arrays(np.int8, n, elements=st.sampled_from([-1, 0, 1]))))


# --- the paper's examples -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k", range(4))
def test_fig2_matrices_give_the_printed_favi_scores_and_margins(k):
    fig2 = published.item("favi", "fig2")
    result = favi.summarize(np.array(fig2["matrices"][k]))
    assert result.favi == pytest.approx(fig2["favi"][k])
    assert result.outcome_human.tolist() == fig2["human_outcome"]
    assert result.margin_metric == fig2["metric_margin"][k]


def test_fig3_matrix_gives_the_printed_favi_accuracy_and_metric_outcome():
    fig3 = published.item("favi", "fig3")
    result = favi.summarize(np.array(fig3["matrix"]))
    assert round(result.favi, 3) == fig3["favi"]
    assert result.sample_accuracy == fig3["sample_accuracy"]
    assert result.outcome_human.tolist() == fig3["human_outcome"]
    assert result.outcome_metric.tolist() == fig3["metric_outcome"]
    c = np.array(fig3["matrix"])
    assert np.tril(c, -1).sum() == fig3["errors_favouring"]["first"]  # below the diagonal: errors for π1
    assert np.triu(c, 1).sum() == fig3["errors_favouring"]["second"]
    assert (c[2, 0], c[0, 2]) == (fig3["severe_errors_favouring"]["first"], fig3["severe_errors_favouring"]["second"])


def test_hand_computed_pair_from_symbols_and_from_scores():
    human = ["+", "+", "=", "-", "-", "="]
    metric = ["+", "-", "+", "=", "+", "="]
    result = favi.favi(human, metric)
    # errors: (+,-) cost -2, (=,+) +1, (-,=) +1, (-,+) +2 -> 2 / 4
    assert result.total_error == 4 and result.favi == 0.5
    assert result.margin_human == 0 and result.margin_metric == 2 and not result.system_sign_agrees
    assert result.confusion.tolist() == [[1, 0, 1], [1, 1, 0], [1, 1, 0]]
    assert favi.derived_preferences([3, 1, 2], [1, 1, 5]).tolist() == [1, 0, -1]


def test_float_round_off_of_equal_scores_is_a_tie():
    """Def. 13 with TIE_TOLERANCE: two ROUGE F-measures of the same counts, computed in another order, differ by
    round-off only; that is a tie, while a real difference just above the tolerance stays a preference."""
    p, r = 1 / 3, 2 / 7
    f1, f2 = 2 * p * r / (p + r), 2 / (1 / p + 1 / r)  # the same F-measure along two paths
    assert f1 != f2 and abs(f1 - f2) < 1e-15
    assert favi.derived_preferences([f1, 0.5, 0.5 + 2e-9, 10.0], [f2, 0.5 + 6e-17, 0.5, 10.0 - 1e-14]).tolist() == [
        0, 0, 1, 0]
    # exact equality: a preference
    assert favi.derived_preferences([f1], [f2], tol=0).tolist() == [1 if f1 > f2 else -1]
    with pytest.raises(ValueError, match="tol"):
        favi.derived_preferences([1.0], [1.0], tol=-1)
    # the table applies the same rule to every pair of both score matrices
    human = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0 + 1e-12, 1.0, 3.0]})
    metric = pd.DataFrame({"a": [f1, 1.0, 0.0], "b": [f2, 2.0, 1e-10]})
    row = favi.favi_table(human, metric).iloc[0]
    # item 1: (=, =); item 2: (+, -), cost -2; item 3: (=, =) (both differences below the tolerance)
    assert (row["c_ee"], row["c_pm"], row["total_error"], row["favi"]) == (2, 1, 1, -2.0)


def test_favi_is_nan_without_errors_and_bounded_otherwise():
    assert np.isnan(favi.favi(["+", "=", "-"], ["+", "=", "-"]).favi)
    assert favi.favi(["-"], ["+"]).favi == 2 and favi.favi(["+"], ["-"]).favi == -2


# --- lemmas and invariants ------------------------------------------------------------------------------------------

@given(ratings)
def test_lemma1_favi_is_the_margin_change_per_error(pair):
    human, metric = pair
    result = favi.favi(human, metric)
    if result.total_error == 0:
        assert np.isnan(result.favi)
    else:
        expected = (result.margin_metric - result.margin_human) / result.total_error
        assert result.favi == pytest.approx(expected, abs=1e-12)
        assert -2 <= result.favi <= 2
        if result.favi == 0:  # Lemma 2
            assert result.system_sign_agrees


@given(ratings)
def test_favi_is_antisymmetric_under_swapping_the_systems(pair):
    human, metric = pair
    forward, backward = favi.favi(human, metric), favi.favi(-human, -metric)
    assert np.isnan(forward.favi) and np.isnan(backward.favi) or backward.favi == pytest.approx(-forward.favi)
    assert forward.sample_accuracy == backward.sample_accuracy


def _random_matrices(rng, n_items=30, systems=("b", "a", "d", "c", "e"), missing=0.15):
    shape = (n_items, len(systems))
    human = pd.DataFrame(rng.integers(0, 4, shape).astype(float), columns=list(systems))
    metric = pd.DataFrame(rng.integers(0, 6, shape).astype(float), columns=list(systems))
    human = human.mask(rng.random(shape) < missing)
    metric = metric.mask(rng.random(shape) < missing)
    return human, metric


@pytest.mark.parametrize("seed", range(5))
def test_vectorised_table_equals_a_per_pair_loop(seed):
    human, metric = _random_matrices(np.random.default_rng(seed))
    ours = favi.favi_table(human, metric)
    loop = pd.DataFrame(favi_loop(human, metric))
    pd.testing.assert_frame_equal(ours[loop.columns].reset_index(drop=True), loop, check_dtype=False)
    assert (ours["system_a"] < ours["system_b"]).all()


def test_table_orientation_follows_the_names_and_flips_the_sign():
    human, metric = _random_matrices(np.random.default_rng(9), systems=("a", "b"), missing=0)
    renamed = [human.set_axis(["z", "b"], axis=1), metric.set_axis(["z", "b"], axis=1)]
    assert favi.favi_table(*renamed)["favi"].item() == pytest.approx(-favi.favi_table(human, metric)["favi"].item())


def test_column_order_and_item_order_do_not_matter():
    human, metric = _random_matrices(np.random.default_rng(3))
    shuffled = metric.iloc[::-1, ::-1]
    pd.testing.assert_frame_equal(favi.favi_table(human, metric), favi.favi_table(human, shuffled))


def test_sign_accuracies_pool_items_and_average_pairs():
    human, metric = _random_matrices(np.random.default_rng(4))
    table = favi.favi_table(human, metric)
    acc = favi.sign_accuracies(table)
    diagonal = table[["c_pp", "c_ee", "c_mm"]].to_numpy().sum()
    assert acc.sample == pytest.approx(diagonal / table["n_items"].sum())
    assert acc.system == pytest.approx(table["system_sign_agrees"].mean()) and acc.pairs == len(table)


def test_one_vs_all_sees_each_pair_from_both_sides():
    table = pd.DataFrame({"system_a": ["a"], "system_b": ["b"], "favi": [0.4]})
    long = favi.one_vs_all(table)
    assert long.set_index("system")["favi"].to_dict() == {"a": 0.4, "b": -0.4}


# --- bad input ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("human,metric,message", [
    (["+", "-"], ["+"], "same length"),
    ([1.0, np.nan], [1, 0], "must be real numbers|must be \\+1, 0 or -1"),
    (["+", "?"], ["+", "-"], r"unknown rating symbol\(s\) \['\?'\]"),
    ([1, 2], [1, 0], r"must be \+1, 0 or -1"),
    ([], [], "no rated items"),
])
def test_bad_ratings_are_refused_with_a_clear_error(human, metric, message):
    with pytest.raises(ValueError, match=message):
        favi.favi(human, metric)


def test_bad_scores_are_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="same shape"):
        favi.derived_preferences([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="NaN"):
        favi.derived_preferences([1, np.nan], [1, 2])
    human, metric = _random_matrices(np.random.default_rng(0))
    with pytest.raises(ValueError, match="same items and systems"):
        favi.favi_table(human, metric.drop(columns="a"))
    with pytest.raises(ValueError, match="non-numeric columns"):
        favi.favi_table(human, metric.astype({"a": str}))
    with pytest.raises(ValueError, match="3x3"):
        favi.favi_score(np.ones((2, 2)))
    with pytest.raises(ValueError, match="non-negative whole counts"):
        favi.favi_score(-np.ones((3, 3)))


def test_ratings_accept_integers_in_an_object_array_and_name_a_missing_value():
    assert favi.as_ratings(np.array([1, 0, -1], dtype=object)).tolist() == [1, 0, -1]
    with pytest.raises(ValueError, match="unknown rating symbol"):
        favi.as_ratings(np.array(["+", None], dtype=object))


# --- uncertainty ----------------------------------------------------------------------------------------------------

def test_uncertainty_is_deterministic_and_brackets_the_estimate():
    human, metric = _random_matrices(np.random.default_rng(5), n_items=200)
    one = favi.favi_uncertainty(human, metric, n_resamples=300, rng=11)
    two = favi.favi_uncertainty(human, metric, n_resamples=300, rng=np.random.default_rng(11))
    pd.testing.assert_frame_equal(one, two)
    table = favi.favi_table(human, metric)
    assert np.allclose(one["favi"], table["favi"])
    assert ((one["low"] <= one["favi"]) & (one["favi"] <= one["high"])).all()
    assert one["p_value"].between(1 / 301, 1).all()


def test_permutation_test_separates_a_biased_metric_from_a_balanced_one():
    rng = np.random.default_rng(2)
    human = rng.integers(-1, 2, 400)
    biased = np.where(rng.random(400) < 0.4, 1, human)  # errors always in favour of the first system
    balanced = np.where(rng.random(400) < 0.4, -human, human)  # errors reverse the preference, both ways alike
    frame = lambda first: pd.DataFrame({"a": first.astype(float), "b": np.zeros(400)})  # noqa: E731
    p_biased = favi.favi_uncertainty(frame(human), frame(biased), n_resamples=500, rng=1)["p_value"].item()
    p_balanced = favi.favi_uncertainty(frame(human), frame(balanced), n_resamples=500, rng=1)["p_value"].item()
    assert p_biased < 0.01 < 0.05 < p_balanced


# --- sign tests, graphs, symmetry -----------------------------------------------------------------------------------

def test_vectorised_sign_test_equals_scipy_binomtest():
    wins, losses = np.meshgrid(np.arange(0, 25), np.arange(0, 25))
    ours = favi.sign_test_pvalues(wins.ravel(), losses.ravel())
    for w, ell, p in zip(wins.ravel(), losses.ravel(), ours):
        expected = stats.binomtest(int(w), int(w + ell), 0.5).pvalue if w + ell else 1.0
        assert p == pytest.approx(expected, rel=1e-12)


def _outcomes(verdicts: dict) -> pd.DataFrame:
    return pd.DataFrame([(a, b, v, m) for (a, b), (v, m) in verdicts.items()],
                        columns=["system_a", "system_b", "human", "metric"])


def test_win_graph_drops_transitive_edges_and_counts_agreement():
    outcomes = _outcomes({("a", "b"): (1, 1), ("a", "c"): (1, 0), ("b", "c"): (1, -1), ("a", "d"): (0, 0)})
    human = favi.win_graph(outcomes, "human")
    assert sorted(human.edges) == [("a", "b"), ("b", "c")] and "d" in human.nodes
    assert favi.graph_layers(human) == [["a", "d"], ["b"], ["c"]]
    assert favi.graph_agreement(outcomes) == 0.5


def test_a_cycle_keeps_every_edge_and_is_flagged():
    outcomes = _outcomes({("a", "b"): (1, 0), ("b", "c"): (1, 0), ("a", "c"): (-1, 0)})
    graph = favi.win_graph(outcomes, "human")
    assert graph.graph["cyclic"] and graph.number_of_edges() == 3
    assert favi.graph_layers(graph) == [["a", "b", "c"]]


def test_significance_outcomes_with_ties_dropped_or_split():
    c = np.zeros((1, 9), dtype=int)
    c[0, [0, 4, 8]] = [12, 40, 2]  # humans and metric: 12 wins, 40 ties, 2 losses
    table = pd.DataFrame(c, columns=list(favi.CELLS)).assign(system_a="a", system_b="b")
    dropped = favi.significance_outcomes(table, ties="drop")
    split = favi.significance_outcomes(table, ties="half")
    assert dropped["human"].item() == 1 and dropped["human_pvalue"].item() == pytest.approx(
        stats.binomtest(12, 14).pvalue)
    assert split["human"].item() == 0 and split["human_pvalue"].item() == pytest.approx(
        stats.binomtest(32, 54).pvalue)


def test_krippendorff_alpha_reproduces_krippendorffs_published_example():
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the 4 observers x 12 units example with
    missing values: nominal 0.743, ordinal 0.815, interval 0.849."""
    nan = np.nan
    data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    for level, value in (("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)):
        assert krippendorff.alpha(reliability_data=data, level_of_measurement=level) == pytest.approx(value, abs=5e-4)


def test_preference_symmetry_of_a_perfect_and_of_a_positional_judge():
    original = np.array([1, -1, 0, 1, -1, 1])
    perfect = favi.preference_symmetry(original, original)
    assert perfect.accuracy == 1 and perfect.alpha_nominal == pytest.approx(1)
    positional = favi.preference_symmetry(original, -original)  # always prefers the first-shown output
    assert positional.accuracy == pytest.approx(1 / 6) and positional.alpha_nominal < 0
    assert positional.confusion[0, 2] == 3 and positional.confusion[2, 0] == 2


# --- pair cells, clustered bootstrap, Benjamini-Hochberg (issue 28) ---------------------------------------------------

def _random_scores(seed, items=40, systems="abcd"):
    rng = np.random.default_rng(seed)
    human = pd.DataFrame(rng.integers(0, 3, (items, len(systems))).astype(float), columns=list(systems))
    metric = pd.DataFrame(rng.integers(0, 3, (items, len(systems))).astype(float), columns=list(systems))
    return human, metric


def test_pair_cells_give_back_the_table_and_select_items():
    human, metric = _random_scores(0)
    human.iloc[3, 1] = np.nan
    cells = favi.pair_cells(human, metric)
    pd.testing.assert_frame_equal(cells.table(), favi.favi_table(human, metric))
    first = np.arange(len(human)) < 15
    pd.testing.assert_frame_equal(cells.table(first), favi.favi_table(human.iloc[:15], metric.iloc[:15]))
    none = cells.table(np.zeros(len(human), dtype=bool))
    assert (none["n_items"] == 0).all() and none["favi"].isna().all()


def test_human_and_metric_ties_read_the_cells():
    # cells: (+,+)=0, (+,=)=1, (=,+)=3, (=,=)=4, (-,=)=7, not usable=-1
    code = np.array([[0, 1, 3], [4, 7, -1]])
    assert favi.human_ties(code).tolist() == [[False, False, True], [True, False, False]]
    assert favi.metric_ties(code).tolist() == [[False, True, False], [True, True, False]]


def test_item_bootstrap_equals_the_one_of_favi_uncertainty_and_singleton_groups_change_nothing():
    human, metric = _random_scores(1)
    reference = favi.favi_uncertainty(human, metric, n_resamples=300, rng=7)
    items = favi.favi_bootstrap(human, metric, n_resamples=300, rng=7)
    singletons = favi.favi_bootstrap(human, metric, groups=[f"d{i}" for i in range(len(human))], n_resamples=300,
                                     rng=7)
    np.testing.assert_allclose(items[["low", "high"]], reference[["low", "high"]])
    np.testing.assert_allclose(singletons[["low", "high"]], reference[["low", "high"]])


def test_one_group_leaves_nothing_to_resample_and_clusters_widen_the_interval():
    human, metric = _random_scores(2)
    one = favi.favi_bootstrap(human, metric, groups=["doc"] * len(human), n_resamples=50, rng=0)
    np.testing.assert_allclose(one["low"], one["favi"])
    np.testing.assert_allclose(one["high"], one["favi"])
    # every item copied 10 times inside its own document: documents carry the information of one item each
    copies = pd.concat([human] * 10, ignore_index=True), pd.concat([metric] * 10, ignore_index=True)
    groups = np.tile(np.arange(len(human)), 10)
    by_item = favi.favi_bootstrap(*copies, n_resamples=400, rng=3)
    by_doc = favi.favi_bootstrap(*copies, groups=groups, n_resamples=400, rng=3)
    assert ((by_doc["high"] - by_doc["low"]) > 2 * (by_item["high"] - by_item["low"])).mean() > 0.8


def test_bootstrap_refuses_groups_that_do_not_fit():
    human, metric = _random_scores(3)
    with pytest.raises(ValueError, match="40 items"):
        favi.favi_bootstrap(human, metric, groups=["a"] * 3, n_resamples=5, rng=0)
    with pytest.raises(ValueError, match="missing label"):
        favi.favi_bootstrap(human, metric, groups=[None] + ["a"] * 39, n_resamples=5, rng=0)


def test_benjamini_hochberg_by_hand_and_against_scipy():
    # m = 4: p*m/k = 0.04, 0.06, 0.0533, 0.8 -> monotone from the top: 0.04, 0.0533, 0.0533, 0.8
    np.testing.assert_allclose(favi.benjamini_hochberg([0.01, 0.03, 0.04, 0.8]), [0.04, 0.16 / 3, 0.16 / 3, 0.8])
    p = np.random.default_rng(4).uniform(size=200) ** 4
    np.testing.assert_allclose(favi.benjamini_hochberg(p), stats.false_discovery_control(p))
    with_nan = favi.benjamini_hochberg([0.01, np.nan, 0.03])
    assert np.isnan(with_nan[1]) and np.allclose(with_nan[[0, 2]], [0.02, 0.03])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        favi.benjamini_hochberg([0.5, 1.5])


@given(arrays(np.float64, st.integers(1, 50), elements=st.floats(0, 1)))
def test_benjamini_hochberg_is_monotone_and_never_below_the_p_value(p):
    adjusted = favi.benjamini_hochberg(p)
    order = np.argsort(p, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-12).all() and (adjusted >= p - 1e-12).all() and (adjusted <= 1).all()
