"""BT's sandwich (robust) covariance on counted judgments (issue 41, item 2), against statsmodels' logistic regression
with HC0 covariance; arena ratings and FastChat's rank; ``--interval sandwich`` and ``--scale elo`` in the command."""

import numpy as np
import pandas as pd
import pytest

from analysis import bt
from analysis.__main__ import main
from analysis.compare import evidence, judgments, robust
from analysis.comparisons import from_judgments

sm = pytest.importorskip("statsmodels.api")


def _judgments(seed=0, s=6, m=3000, ties=0.15):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, s, m)
    b = (a + rng.integers(1, s, m)) % s
    theta = np.linspace(0, 1.2, s)
    p = 1 / (1 + np.exp(theta[b] - theta[a]))
    winner = np.where(rng.random(m) < ties, "tie", np.where(rng.random(m) < p, "left", "right"))
    names = np.array([f"m{k}" for k in range(s)])
    return names[a], names[b], winner, rng.integers(1, 4, m).astype(float)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sandwich_equals_statsmodels_hc0(seed, weighted):
    """Our covariance of log π, computed on cells, equals statsmodels' GLM (binomial, fractional outcome ½ for a tie,
    ``var_weights`` for weighted judgments: each judgment one unit) with HC0 covariance, mapped to log π by the
    delta method, to 1e-6; the strengths agree with BT's MM fit."""
    left, right, winner, weight = _judgments(seed)
    c = from_judgments(left, right, winner, weight if weighted else None)
    cells, count, _ = judgments.judgment_cells(c)
    s = len(c.systems)
    wins = np.asarray(count @ evidence.credit_matrix(cells, "half")).reshape(s, s)
    pi = bt.fit(wins, tol=1e-15, max_iter=100_000).strengths[0]
    ours = robust.log_strength_cov(cells.left, cells.right, cells.outcome, cells.weight, count, pi)
    X = np.zeros((len(c), s))
    X[np.arange(len(c)), c.left] += 1
    X[np.arange(len(c)), c.right] -= 1
    kw = {"var_weights": c.weight} if weighted else {}
    fit = sm.GLM((c.outcome + 1) / 2, X[:, 1:], family=sm.families.Binomial(), **kw).fit(cov_type="HC0", tol=1e-14)
    theta = np.r_[0.0, fit.params]
    pi_sm = np.exp(theta) / np.exp(theta).sum()
    V = np.zeros((s, s))
    V[1:, 1:] = fit.cov_params()
    J = np.eye(s) - pi_sm[None, :]
    np.testing.assert_allclose(pi, pi_sm, atol=1e-6)
    np.testing.assert_allclose(ours, J @ V @ J.T, atol=1e-6)


def test_sandwich_intervals_agree_with_the_bootstrap_on_many_judgments():
    """With 40,000 judgments among 8 systems the sandwich's 95% intervals and the percentile bootstrap's have the same
    widths to within 10% and nearly the same ends (the reason the sandwich is the default at scale)."""
    left, right, winner, _ = _judgments(3, s=8, m=40_000)
    games = pd.DataFrame({"left": left, "right": right, "winner": winner, "weight": 1.0})
    common = dict(rng=0, n_resamples=1000, n_resamples_sequential=0, n_orders=1)
    boot = judgments.compare_judgments(games, interval="percentile", **common).systems
    robust_ = judgments.compare_judgments(games, interval="sandwich", **common).systems
    width = lambda t: (t["bt_high"] - t["bt_low"]).to_numpy()  # noqa: E731
    np.testing.assert_allclose(width(robust_), width(boot), rtol=0.10)
    np.testing.assert_allclose(robust_["bt_low"], boot["bt_low"], atol=0.15 * width(boot).max())
    for column in ("prob", "win_rate"):
        assert column in robust_ or column == "prob"
    assert (robust_["rank_low"] <= robust_["bt_rank"]).all() and (robust_["bt_rank"] <= robust_["rank_high"]).all()


def test_auto_interval_switches_to_the_sandwich_at_scale(monkeypatch):
    left, right, winner, _ = _judgments(4, s=5, m=2000)
    games = pd.DataFrame({"left": left, "right": right, "winner": winner, "weight": 1.0})
    common = dict(rng=0, n_resamples=50, n_resamples_sequential=0, n_orders=1)
    assert judgments.compare_judgments(games, **common).settings["interval"] == "percentile"
    monkeypatch.setattr(judgments, "SANDWICH_ABOVE", 1000)
    assert judgments.compare_judgments(games, **common).settings["interval"] == "sandwich"


def test_the_sandwich_refuses_a_system_without_a_finite_estimate():
    games = pd.DataFrame({"left": ["A", "A", "B"], "right": ["B", "C", "C"], "winner": ["left", "left", "tie"],
                          "weight": 1.0})
    with pytest.raises(ValueError, match="never wins or never loses"):
        judgments.compare_judgments(games, interval="sandwich", rng=0, n_resamples=20, n_resamples_sequential=0)


def test_elo_scale_and_fastchat_rank_by_hand():
    """Equal strengths rate 1000; ten times the odds is 400 points; FastChat's rank counts the systems whose interval
    lies wholly above."""
    np.testing.assert_allclose(robust.elo_scale([0.25, 0.25, 0.25, 0.25]), [1000] * 4)
    r = robust.elo_scale([10 / 11, 1 / 11])
    np.testing.assert_allclose(r[0] - r[1], 400) and np.testing.assert_allclose(r.mean(), 1000)
    low, high = np.array([5, 3, 2.5, 0]), np.array([6, 4.5, 4, 1])
    assert robust.fastchat_rank(low, high).tolist() == [1, 2, 2, 4]


def test_cli_sandwich_and_elo_scale(tmp_path, capsys):
    left, right, winner, _ = _judgments(5, s=4, m=600)
    path = tmp_path / "arena.csv"
    code = {"left": "model_a", "right": "model_b", "tie": "tie (bothbad)"}
    pd.DataFrame({"model_a": left, "model_b": right, "winner": [code[w] for w in winner]}).to_csv(path, index=False)
    assert main(["compare", str(path), "--interval", "sandwich", "--scale", "elo", "--n-resamples", "50",
                 "--n-resamples-sequential", "2"]) == 0
    captured = capsys.readouterr()
    assert "'tie (bothbad)' = a tie" in captured.err.splitlines()[0]
    assert "BT rating" in captured.out and "sandwich" in captured.out and "rank (UB)" in captured.out
    wide = tmp_path / "w.csv"
    pd.DataFrame({"A": [1.0, 2.0], "B": [2.0, 1.0]}).to_csv(wide, index=False)
    for option in (["--interval", "sandwich"], ["--scale", "elo"]):
        assert main(["compare", str(wide), *option]) == 2
        assert "applies to pairwise judgment files" in capsys.readouterr().err
