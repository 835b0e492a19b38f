"""Aggregators: worked examples, independent references and invariants (Peyrard et al. 2021, §2.2, App. E, G)."""

import itertools

import choix
import evalica
import numpy as np
import pandas as pd
import pytest
import trueskill as ts
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from analysis import _kernels, aggregate, comparisons
from analysis.aggregate import AGGREGATORS, bradley_terry, elo, trueskill
from analysis.comparisons import comparison_counts
from tests.helpers import SCORES, random_scores
from tests.reference import bt_loop, elo_loop, trueskill_loop
from tests.strategies import score_matrices, score_values

TIGHT = dict(tol=1e-15, max_iter=100_000)


# --- worked examples ---------------------------------------------------------------------------------------------


def test_fig1_mean_median_bt(fig1_scores):
    assert aggregate.mean(fig1_scores).tolist() == [10, 10, 10]
    assert aggregate.median(fig1_scores).tolist() == [10, 10, 7]
    bt = bradley_terry(fig1_scores)
    assert list(bt.sort_values(ascending=False).index) == ["B", "C", "A"]
    assert bt.sum() == pytest.approx(1.0)


def test_appendix_f_cycle_and_two_system_strength():
    a, b, c = [1, 2, 3], [2, 3, 1], [3, 1, 2]
    two = bradley_terry(pd.DataFrame({"A": a, "B": b}, dtype=float))
    assert two.tolist() == pytest.approx([1 / 3, 2 / 3])
    three = bradley_terry(pd.DataFrame({"A": a, "B": b, "C": c}, dtype=float), **TIGHT)
    assert three.tolist() == pytest.approx([1 / 3] * 3)


def test_bt_hand_computed_three_systems():
    # wins: A>B 2 of 3, B>C 2 of 3, A>C 3 of 3. The MLE solves the score equations W_i = sum_j n p_ij.
    scores = pd.DataFrame({"A": [3, 3, 1], "B": [2, 2, 2], "C": [1, 2.5, 0]}, dtype=float)
    bt = bradley_terry(scores, **TIGHT).to_numpy()
    wins = np.array([[0, 2, 3], [1, 0, 2], [0, 1, 0]], dtype=float)
    expected_wins = np.array([sum(3 * bt[i] / (bt[i] + bt[j]) for j in range(3) if j != i) for i in range(3)])
    np.testing.assert_allclose(expected_wins, wins.sum(axis=1), atol=1e-9)


def test_two_systems_closed_form_examples():
    scores = pd.DataFrame({"x": [1, 2, 3, 4, 5], "y": [0, 3, 1, 4, 2]}, dtype=float)  # x wins 3, tie 1, y wins 1
    assert bradley_terry(scores, ties="drop").tolist() == pytest.approx([3 / 4, 1 / 4])
    assert bradley_terry(scores, ties="half").tolist() == pytest.approx([3.5 / 5, 1.5 / 5])
    assert bradley_terry(scores, ties="loss").tolist() == pytest.approx([3 / 5, 2 / 5])  # the tie goes to y


# --- independent references --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ties", ["loss", "half", "drop"])
@pytest.mark.parametrize("seed", range(6))
def test_bt_equals_loop_transcription(seed, ties):
    rng = np.random.default_rng(seed)
    scores = random_scores(rng, int(rng.integers(3, 40)), int(rng.integers(2, 9)), levels=5)
    ours = bradley_terry(scores, ties=ties, rule="change").to_numpy()
    # same algorithm, start and stopping rule: equal to rounding (ties="loss" is the paper's published bt.py)
    np.testing.assert_allclose(ours, bt_loop(scores, ties=ties), rtol=0, atol=1e-12)
    if ties == "loss":  # the policy that reproduces the paper's code brings its stopping rule by default
        assert bradley_terry(scores, ties=ties).to_numpy().tobytes() == ours.tobytes()
    else:  # every other policy is solved to the maximum-likelihood estimate
        fit = bradley_terry(scores, ties=ties).attrs["fit"]
        assert fit.rule == "mle" and (fit.converged.all() or fit.never_lose[0] or fit.never_win[0])


def _evalica_bt(scores):
    wins, ties = comparison_counts(scores.to_numpy())
    n = wins.shape[0]
    i, j = np.triu_indices(n, 1)
    outcomes = [evalica.Winner.X] * len(i) + [evalica.Winner.Y] * len(i) + [evalica.Winner.Draw] * len(i)
    weights = np.concatenate([wins[i, j], wins[j, i], ties[i, j]]).astype(float)
    keep = weights > 0
    res = evalica.bradley_terry(
        np.tile(i, 3)[keep],
        np.tile(j, 3)[keep],
        [o for o, k in zip(outcomes, keep) if k],
        index=pd.Index(range(n)),
        weights=weights[keep],
        tolerance=1e-13,
        limit=100_000,
    )
    s = res.scores.sort_index().to_numpy()
    return s / s.sum()


@pytest.mark.parametrize("seed", range(8))
def test_bt_half_agrees_with_evalica_and_choix(seed):
    rng = np.random.default_rng(100 + seed)
    scores = random_scores(rng, int(rng.integers(20, 300)), int(rng.integers(2, 15)), levels=int(rng.integers(3, 9)))
    ours = bradley_terry(scores, ties="half", **TIGHT).to_numpy()
    np.testing.assert_allclose(ours, _evalica_bt(scores), atol=1e-6)
    wins = comparisons.win_matrix(comparisons.from_scores(scores), "half")
    ref = np.exp(choix.ilsr_pairwise_dense(wins, tol=1e-14, max_iter=10_000))
    np.testing.assert_allclose(ours, ref / ref.sum(), atol=1e-6)


def test_paper_tolerance_is_loose_but_ranking_stable():
    """The paper's stopping rule (squared change < 1e-9) stops ~1e-5..1e-4 from the optimum; document, not hide."""
    rng = np.random.default_rng(7)
    scores = random_scores(rng, 200, 12)
    loose = bradley_terry(scores, rule="change").to_numpy()
    tight = bradley_terry(scores, **TIGHT).to_numpy()
    assert 1e-7 < np.abs(loose - tight).max() < 1e-3
    np.testing.assert_allclose(bradley_terry(scores).to_numpy(), tight, rtol=1e-9)  # the default is the MLE
    assert list(np.argsort(loose)) == list(np.argsort(tight))


@pytest.mark.parametrize("ties", ["half", "drop", "loss"])
@pytest.mark.parametrize("seed", range(5))
def test_elo_equals_direct_transcription(seed, ties):
    rng = np.random.default_rng(200 + seed)
    scores = random_scores(rng, int(rng.integers(1, 60)), int(rng.integers(2, 7)), levels=4)
    np.testing.assert_allclose(elo(scores, ties=ties).to_numpy(), elo_loop(scores, ties=ties), rtol=0, atol=1e-9)


def test_elo_loss_is_the_papers_elo_class():
    # BT-eval's Elo.game_over(winner, loser) with ties going to the later column; expectResult(p1, p2)
    scores = pd.DataFrame({"a": [1, 2, 2, 0], "b": [0, 2, 3, 0], "c": [2, 2, 1, 1]}, dtype=float)
    rating = {s: 1500.0 for s in scores}

    def game_over(w, l):
        result = 1 / (10 ** ((rating[l] - rating[w]) / 400.0) + 1)
        rating[w] += 20 * (1 - result)
        rating[l] += 20 * (0 - (1 - result))

    for a, b in itertools.combinations(scores.columns, 2):
        for x, y in zip(scores[a], scores[b]):
            game_over(a, b) if x > y else game_over(b, a)
    np.testing.assert_allclose(elo(scores, ties="loss").to_numpy(), [rating[s] for s in scores], atol=1e-9)


@pytest.mark.parametrize("ties", ["half", "loss", "drop"])
@pytest.mark.parametrize("seed", range(4))
def test_trueskill_equals_package_on_score_matrices(seed, ties):
    rng = np.random.default_rng(300 + seed)
    scores = random_scores(rng, int(rng.integers(1, 40)), int(rng.integers(2, 6)), levels=3)
    np.testing.assert_allclose(trueskill(scores, ties=ties).to_numpy(), trueskill_loop(scores, ties), rtol=0, atol=1e-9)


def test_trueskill_equals_package_on_long_random_game_sequences():
    rng = np.random.default_rng(42)
    n_players, n_games = 6, 3000
    env = ts.TrueSkill(backend=None)
    margin = ts.calc_draw_margin(env.draw_probability, 2, env)
    winners = rng.integers(0, n_players, n_games)
    losers = (winners + rng.integers(1, n_players, n_games)) % n_players
    drawn = rng.random(n_games) < 0.2
    ratings = [env.create_rating() for _ in range(n_players)]
    for w, l, d in zip(winners, losers, drawn):
        ratings[w], ratings[l] = ts.rate_1vs1(ratings[w], ratings[l], drawn=bool(d), env=env)
    mu = np.full(n_players, env.mu)
    sigma = np.full(n_players, env.sigma)
    failed = _kernels.trueskill_games(mu, sigma, winners, losers, drawn, env.beta, env.tau, margin)
    assert failed == -1
    np.testing.assert_allclose(mu, [r.mu for r in ratings], rtol=0, atol=1e-9)
    np.testing.assert_allclose(sigma, [r.sigma for r in ratings], rtol=0, atol=1e-9)


def test_trueskill_custom_environment_matches_package():
    scores = pd.DataFrame({"a": [3, 1, 2, 2], "b": [1, 2, 2, 0], "c": [0, 0, 1, 3]}, dtype=float)
    env = ts.TrueSkill(mu=0, sigma=2, beta=1, tau=0.05, draw_probability=0.3, backend=None)
    ours = trueskill(scores, mu=0, sigma=2, beta=1, tau=0.05, draw_probability=0.3)
    np.testing.assert_allclose(ours.to_numpy(), trueskill_loop(scores, env=env), atol=1e-9)


# --- properties ----------------------------------------------------------------------------------------------------

def _connected_for_drop(scores):
    wins, _ = comparison_counts(scores.to_numpy())
    return ((wins + wins.T) > 0).sum() > 0


@given(score_matrices(), st.randoms(use_true_random=False))
def test_bt_is_equivariant_to_column_permutation(scores, rnd):
    perm = list(scores.columns)
    rnd.shuffle(perm)
    original = bradley_terry(scores, **TIGHT)
    permuted = bradley_terry(scores[perm], **TIGHT)
    np.testing.assert_allclose(permuted.loc[scores.columns].to_numpy(), original.to_numpy(), atol=1e-7)


@given(score_matrices())
def test_bt_is_invariant_to_strictly_increasing_transforms(scores):
    transformed = np.exp(scores) * 3 - 7  # strictly increasing: the same instance-level order
    np.testing.assert_allclose(bradley_terry(transformed).to_numpy(), bradley_terry(scores).to_numpy(), atol=0)


@given(arrays(np.float64, st.tuples(st.integers(1, 40), st.just(2)), elements=score_values))
def test_bt_two_systems_is_wins_over_decided_games(values):
    scores = pd.DataFrame(values, columns=["a", "b"])
    wins_a = int(np.sum(values[:, 0] > values[:, 1]))
    wins_b = int(np.sum(values[:, 0] < values[:, 1]))
    if wins_a + wins_b == 0:
        with pytest.raises(ValueError, match="disconnected"):
            bradley_terry(scores, ties="drop")
        return
    assert bradley_terry(scores, ties="drop").tolist() == pytest.approx([wins_a / (wins_a + wins_b),
                                                                         wins_b / (wins_a + wins_b)])


@given(score_matrices())
def test_every_aggregator_returns_finite_series_in_column_order(scores):
    for name, fn in AGGREGATORS.items():
        result = fn(scores)
        assert isinstance(result, pd.Series)
        assert list(result.index) == list(scores.columns), name
        assert np.isfinite(result.to_numpy()).all(), name


@given(score_matrices(min_systems=3))
def test_elo_conserves_total_rating(scores):
    assert elo(scores).sum() == pytest.approx(1500 * scores.shape[1])


# --- degenerate inputs ---------------------------------------------------------------------------------------------


def test_system_that_never_wins_gets_zero_strength():
    scores = pd.DataFrame({"a": [3, 4, 5], "b": [2, 3, 1], "never": [0, 0, 0]}, dtype=float)
    bt = bradley_terry(scores)
    fit = bt.attrs["fit"]  # a always beats b too: no finite estimate, reported in the result
    assert fit.never_lose == ((("a",),),) and fit.never_win == ((("b",),),) and fit.degenerate.tolist() == [True]
    assert bt["never"] == 0.0
    assert np.isfinite(bt).all() and bt.sum() == pytest.approx(1)


def test_disconnected_comparisons_raise():
    scores = pd.DataFrame({"a": [1.0, 1.0], "b": [1.0, 1.0]})
    with pytest.raises(ValueError, match="disconnected"):
        bradley_terry(scores, ties="drop")
    assert bradley_terry(scores, ties="half").tolist() == [0.5, 0.5]


@pytest.mark.parametrize("ties", ["half", "loss"])
@pytest.mark.parametrize("seed", range(3))
def test_elo_equals_evalica_elo_on_the_same_games(ties, seed):
    """evalica.elo, fed our games in our order (pairs in column order, instances in row order), gives our ratings."""
    scores = random_scores(np.random.default_rng(seed), 30, 4, levels=3)
    xs, ys, winners = [], [], []
    for a, b in itertools.combinations(scores.columns, 2):
        for x, y in zip(scores[a], scores[b]):
            xs.append(a)
            ys.append(b)
            if x > y:
                winners.append(evalica.Winner.X)
            elif x < y or ties == "loss":
                winners.append(evalica.Winner.Y)
            else:
                winners.append(evalica.Winner.Draw)
    ref = evalica.elo(xs, ys, winners, initial=1500.0, k=20.0, solver="naive").scores
    np.testing.assert_allclose(elo(scores, ties=ties).to_numpy(), ref[scores.columns].to_numpy(), rtol=0, atol=1e-9)


# --- bad input: Elo and TrueSkill parameters (issue 12, item 6) -------------------------------------------------------



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


# -- issue 31, item 7: aggregators refuse what only looks numeric ------------------------------------------------------

@pytest.mark.parametrize("name", list(AGGREGATORS))
def test_aggregators_refuse_complex_scores_instead_of_dropping_the_imaginary_part(name):
    scores = pd.DataFrame({"a": [1 + 1j, 2, 3], "b": [1.0, 2.0, 4.0]})
    with pytest.raises(ValueError, match=r"scores must be real numbers .*; non-numeric columns: \['a'\]"):
        AGGREGATORS[name](scores)


@given(st.integers(0, 2**32 - 1), st.integers(2, 7), st.integers(1, 30), st.integers(1, 6),
       st.sampled_from(["half", "loss", "drop"]))
def test_bradley_terry_stack_equals_one_fit_per_matrix_bit_for_bit(seed, n_systems, n_instances, n_trials, ties):
    gen = np.random.default_rng(seed)
    stack = gen.integers(0, 4, size=(n_trials, n_instances, n_systems)).astype(float)
    names = [f"s{k}" for k in range(n_systems)]
    frames = [pd.DataFrame(m, columns=names) for m in stack]
    try:
        singles = [aggregate.bradley_terry(f, ties=ties) for f in frames]
    except ValueError:  # a disconnected comparison graph (all ties dropped): the stack must refuse it too
        with pytest.raises(ValueError, match="disconnected"):
            aggregate.bradley_terry_stack(stack, names, ties=ties)
        return
    fit = aggregate.bradley_terry_stack(stack, names, ties=ties)
    for t, single in enumerate(singles):
        np.testing.assert_array_equal(fit.strengths[t], single.to_numpy())
        assert fit.degenerate[t] == single.attrs["fit"].degenerate[0]


def test_bradley_terry_stack_refuses_bad_stacks():
    with pytest.raises(ValueError, match="trials x instances x systems"):
        aggregate.bradley_terry_stack(np.zeros((3, 2)), ["a", "b"])
    with pytest.raises(ValueError, match="NaN or infinite"):
        aggregate.bradley_terry_stack(np.full((1, 2, 2), np.nan), ["a", "b"])
    with pytest.raises(ValueError, match="tie policy"):
        aggregate.bradley_terry_stack(np.zeros((1, 2, 2)), ["a", "b"], ties="coin")
