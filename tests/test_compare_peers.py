"""compare against each peer's own golden files and test data (issue 53; fixtures and their provenance in
tests/fixtures/README.md): evalica's BT, Elo and win rate, choix's JSON cases, arena-rank's Wikipedia case (ratings
and sandwich intervals), statsmodels' HC0 covariance under both centrings; the peers' layouts and numeric outcomes."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import bt
from analysis.compare import robust, sequential
from analysis.compare.judgments import compare_judgments, judgment_cells
from analysis.comparisons import from_judgments, win_matrix
from analysis.data.scorefile_tables import ScoreFileError
from analysis.data.scorefiles import read_judgments

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
LLMFAO = next((ROOT / "data" / "raw" / "github" / "dustalov" / "evalica").glob("*/llmfao.csv"), None)


def _run_json(path, *options):
    """``compare FILE --json -`` as a user runs it: (the JSON, the first line of standard error)."""
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", str(path), "--json", "-",
                          "--n-resamples-sequential", "0", "--n-resamples", "200", *options],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    table = payload["systems"]
    frame = pd.DataFrame(table["data"], index=table["index"], columns=table["columns"])
    return frame, out.stderr.splitlines()[0]


def _evalica_files():
    files = {"simple": FIXTURES / "evalica" / "simple.csv", "food": FIXTURES / "evalica" / "food.csv"}
    if LLMFAO is not None:
        files["llmfao"] = LLMFAO
    return files


def _golden(dataset: str, algorithm: str) -> pd.Series:
    golden = pd.read_csv(FIXTURES / "evalica" / f"{dataset}-golden.csv", dtype=str)
    golden = golden[golden["algorithm"] == algorithm]
    return pd.Series(golden["score"].astype(float).to_numpy(), index=golden["item"].to_numpy())


@pytest.mark.parametrize("dataset", list(_evalica_files()))
def test_evalica_golden_bt_win_rate_and_elo(dataset):
    """evalica's left,right,winner layout read as it is; BT to evalica's golden rtol 1e-4 (the paper's stopping
    rule failed it on all three), the average win rate and Elo in file order (K 4, 1000) to its default 1e-5."""
    games = read_judgments(_evalica_files()[dataset])
    assert games.attrs["layout"].startswith("evalica")
    result = compare_judgments(games, n_resamples=20, n_resamples_sequential=0, n_orders=1)
    systems = result.systems
    strengths = systems["bt"]
    golden = _golden(dataset, "bradley_terry")
    np.testing.assert_allclose(strengths[golden.index], golden, rtol=1e-4)
    rates = _golden(dataset, "average_win_rate")
    np.testing.assert_allclose(systems["win_rate"][rates.index], rates, rtol=1e-5)
    c = from_judgments(games["left"], games["right"], games["winner"].to_numpy(dtype=object))
    elo = pd.Series(sequential.in_file_order(len(c.systems), c.left, c.right, c.outcome, "elo", k=4, initial=1000),
                    index=list(c.systems))
    ratings = _golden(dataset, "elo")
    np.testing.assert_allclose(elo[ratings.index], ratings, rtol=1e-5)


def test_evalica_layout_on_the_command_line():
    systems, first = _run_json(FIXTURES / "evalica" / "food.csv")
    assert "evalica (left, right, winner) layout" in first
    golden = _golden("food", "bradley_terry")
    np.testing.assert_allclose(systems.loc[golden.index, "bt"], golden, rtol=1e-4)


@pytest.mark.parametrize("case", ["testcase-pairwise-1.json", "testcase-pairwise-2.json"])
def test_choix_json_cases(case):
    """choix's maximum-likelihood estimates (log-strengths centred on their mean) to its ATOL 1e-4, RTOL 1e-5."""
    data = json.loads((FIXTURES / "choix" / case).read_text())
    wins = np.zeros((data["n_items"],) * 2)
    for winner, loser in data["data"]:
        wins[winner, loser] += 1
    theta = np.log(bt.fit(wins, rule="mle").strengths[0])
    np.testing.assert_allclose(theta - theta.mean(), data["ml_est"], atol=1e-4, rtol=1e-5)


def _wikipedia_golden():
    return json.loads((FIXTURES / "arena_rank" / "wikipedia-golden.json").read_text())


def test_arena_rank_wikipedia_ratings_and_sandwich_intervals_to_1e6():
    """arena-rank's own test case through `compare --scale elo --interval sandwich`: its team_1,team_2 layout said
    on the first line; ratings and interval ends equal arena-rank 0.1.1's to 1e-6 (relative)."""
    systems, first = _run_json(FIXTURES / "arena_rank" / "wikipedia.csv", "--scale", "elo", "--interval", "sandwich")
    assert "arena-rank (team_1, team_2, winner) layout" in first
    golden = _wikipedia_golden()
    rows = systems.loc[golden["competitors"]]
    for ours, theirs in (("rating", "ratings"), ("rating_low", "rating_lower"), ("rating_high", "rating_upper")):
        np.testing.assert_allclose(rows[ours], golden[theirs], rtol=1e-6, err_msg=ours)
    upper = np.array(golden["rating_upper"])
    expected = 1 + (np.array(golden["rating_lower"])[None, :] > upper[:, None]).sum(axis=1)
    assert rows["rank_arena"].tolist() == expected.tolist()


def test_arena_rank_live_when_installed():
    """The same against arena-rank itself (a test-only peer, skipped without it), on a larger random file."""
    pytest.importorskip("arena_rank")
    from arena_rank.models.bradley_terry import BradleyTerry
    from arena_rank.utils.data_utils import PairDataset

    rng = np.random.default_rng(7)
    n, m = 8, 3000
    a = rng.integers(0, n, m)
    b = (a + rng.integers(1, n, m)) % n
    p = 1 / (1 + np.exp(-(a - b) / 3))
    u = rng.random(m)
    winner = np.where(u < 0.1, "tie", np.where(u < 0.1 + 0.9 * p, "model_a", "model_b"))
    df = pd.DataFrame({"model_a": [f"m{x}" for x in a], "model_b": [f"m{x}" for x in b], "winner": winner})
    ds = PairDataset.from_pandas(df, reweighted=False)
    model = BradleyTerry(n_competitors=len(ds.competitors))
    theirs = model.compute_ratings_and_cis(ds, significance_level=0.05)
    games = pd.DataFrame({"left": df.model_a, "right": df.model_b,
                          "winner": df.winner.map({"model_a": "left", "model_b": "right", "tie": "tie"}),
                          "weight": 1.0})
    ours = compare_judgments(games, interval="sandwich", n_resamples=20, n_resamples_sequential=0).systems
    ours = ours.loc[list(theirs["competitors"])]
    np.testing.assert_allclose(ours["rating"], np.asarray(theirs["ratings"]), rtol=1e-6)
    np.testing.assert_allclose(ours["rating_low"], np.asarray(theirs["rating_lower"]), rtol=1e-6)
    np.testing.assert_allclose(ours["rating_high"], np.asarray(theirs["rating_upper"]), rtol=1e-6)


def _statsmodels_hc0(games: pd.DataFrame, systems) -> np.ndarray:
    """statsmodels' logistic regression (fractional outcome, system 0 the reference) with HC0 covariance, as the
    (systems x systems) covariance of the full θ (the reference's row and column 0)."""
    import statsmodels.api as sm

    index = {s: k for k, s in enumerate(systems)}
    x = np.zeros((len(games), len(systems)))
    rows = np.arange(len(games))
    x[rows, games["left"].map(index).to_numpy(int)] += 1
    x[rows, games["right"].map(index).to_numpy(int)] -= 1
    y = games["winner"].map({"left": 1.0, "tie": 0.5, "right": 0.0}).to_numpy()
    fit = sm.GLM(y, x[:, 1:], family=sm.families.Binomial()).fit(tol=1e-14, cov_type="HC0")
    cov = np.zeros((len(systems),) * 2)
    cov[1:, 1:] = fit.cov_params()
    return cov


def test_both_centrings_against_statsmodels():
    """statsmodels' HC0 covariance re-centred two ways: on θ's arithmetic mean it is ``robust.theta_cov`` without
    arena-rank's ridge (``hessian_reg=0``; with it, within 1e-3), on the π-weighted mean ``log_strength_cov``."""
    df = pd.read_csv(FIXTURES / "arena_rank" / "wikipedia.csv")
    games = pd.DataFrame({"left": df.team_1, "right": df.team_2, "winner": df.winner.map(
        {"team_1": "left", "team_2": "right"}), "weight": 1.0})
    c = from_judgments(games["left"], games["right"], games["winner"].to_numpy(dtype=object))
    pi = bt.fit(win_matrix(c), rule="mle").strengths[0]
    cells, count, _ = judgment_cells(c)
    args = (cells.left, cells.right, cells.outcome, cells.weight, count, pi)
    full = _statsmodels_hc0(games, list(c.systems))
    s = len(pi)
    arithmetic = np.eye(s) - 1 / s
    weighted = np.eye(s) - pi[None, :]
    np.testing.assert_allclose(robust.theta_cov(*args, hessian_reg=0), arithmetic @ full @ arithmetic.T, atol=1e-10)
    np.testing.assert_allclose(robust.theta_cov(*args), arithmetic @ full @ arithmetic.T, rtol=1e-3)
    np.testing.assert_allclose(robust.log_strength_cov(*args), weighted @ full @ weighted.T, atol=1e-10)


# --- outcomes in every peer's vocabulary, layouts ----------------------------------------------------------------


def _file(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(("cells", "expected"), [
    (["1", "0", "1", "0"], ["left", "right", "left", "right"]),
    (["1.0", "0.5", "0.0", "1.0"], ["left", "tie", "right", "left"]),
    (["1", "1", "1", "1"], ["left"] * 4),
    (["1", "2", "0", "2"], ["left", "right", "tie", "right"]),
])
def test_numeric_outcomes_read_as_arena_rank_reads_them(tmp_path, cells, expected):
    rows = "".join(f"x,y,{c}\n" if k % 2 == 0 else f"y,z,{c}\n" for k, c in enumerate(cells))
    games = read_judgments(_file(tmp_path, "j.csv", "model_a,model_b,winner\n" + rows))
    assert games["winner"].tolist() == expected
    assert ("arena-rank" in games.attrs["numeric_outcomes"]) == ("2" not in cells)


def test_an_outcome_column_in_arena_ranks_vocabulary(tmp_path):
    games = read_judgments(_file(tmp_path, "j.csv", "model_a,model_b,outcome\nx,y,1\ny,z,0\nx,z,0.5\n"))
    assert games["winner"].tolist() == ["left", "right", "tie"]


@pytest.mark.parametrize(("cells", "message"), [
    (["0", "0"], "reads two ways: as arena-rank's outcome .* or as the code for a tie"),
    (["0.5", "2"], "mixes 0.5 and 2"),
    (["0.3", "1"], "winner '0.3' on line 2 is a number other than"),
])
def test_numeric_outcomes_that_read_two_ways_or_none_are_refused(tmp_path, cells, message):
    rows = "".join(f"x,y,{c}\n" for c in cells)
    with pytest.raises(ScoreFileError, match=message):
        read_judgments(_file(tmp_path, "j.csv", "model_a,model_b,winner\n" + rows))


def test_fastchat_clean_battle_json_array(tmp_path):
    """FastChat's clean_battle_*.json: one JSON array of battle records (extra keys ignored, named on line 1)."""
    records = [{"model_a": "x", "model_b": "y", "winner": "model_a", "language": "English"},
               {"model_a": "y", "model_b": "z", "winner": "tie (bothbad)", "language": "English"},
               {"model_a": "z", "model_b": "x", "winner": "model_b", "language": "German"},
               {"model_a": "x", "model_b": "z", "winner": "model_b", "language": "German"}]
    path = _file(tmp_path, "clean_battle.json", json.dumps(records, indent=1))
    games = read_judgments(path)
    assert games["winner"].tolist() == ["left", "tie", "right", "right"]
    assert games.attrs["layout"].startswith("arena/FastChat") and games.attrs["ignored"] == ["language"]
    _, first = _run_json(path)
    assert "arena/FastChat (model_a, model_b, winner) layout" in first and "ignored columns: language" in first
    with pytest.raises(ScoreFileError, match="record 2 of the JSON array is a list"):
        read_judgments(_file(tmp_path, "bad.json", json.dumps([records[0], [1, 2]])))


def test_layout_columns_twice_are_refused(tmp_path):
    with pytest.raises(ScoreFileError, match="keep one pair of system columns"):
        read_judgments(_file(tmp_path, "j.csv", "team_1,team_2,model_a,winner\nx,y,x,team_1\n"))


# --- the peers' options --------------------------------------------------------------------------------------------


def _evalica_call(fn, path, **kwargs) -> pd.Series:
    import evalica

    df = pd.read_csv(path, dtype=str)
    code = {"left": evalica.Winner.X, "right": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    result = fn(df["left"].tolist(), df["right"].tolist(), [code[w] for w in df["winner"]], **kwargs)
    return result.scores


def test_elo_k_initial_and_file_order_equal_evalicas_elo_and_its_golden():
    """--elo-k 4 --elo-initial 1000 --elo-order file: evalica's Elo (its defaults) and its golden file."""
    import evalica

    path = FIXTURES / "evalica" / "food.csv"
    systems, first = _run_json(path, "--elo-k", "4", "--elo-initial", "1000", "--elo-order", "file")
    golden = _golden("food", "elo")
    np.testing.assert_allclose(systems.loc[golden.index, "elo"], golden, rtol=1e-12)
    theirs = _evalica_call(evalica.elo, path)
    np.testing.assert_allclose(systems.loc[theirs.index, "elo"], theirs, rtol=1e-12)


@pytest.mark.parametrize("weight", [0.3, 1.0])
def test_a_tie_weight_equals_evalicas_tie_weight(weight):
    """--ties W on a judgment file: BT and the average win rate of evalica's tie_weight=W (W = 0 leaves simple.csv
    without a finite BT estimate, where evalica prints uniform strengths)."""
    import evalica

    path = FIXTURES / "evalica" / "simple.csv"
    systems, first = _run_json(path, "--ties", str(weight))
    bt_theirs = _evalica_call(evalica.bradley_terry, path, tie_weight=weight, tolerance=1e-13, limit=100_000)
    np.testing.assert_allclose(systems.loc[bt_theirs.index, "bt"], bt_theirs / bt_theirs.sum(), rtol=1e-7)
    rate = _evalica_call(evalica.average_win_rate, path, tie_weight=weight)
    np.testing.assert_allclose(systems.loc[rate.index, "win_rate"], rate, rtol=1e-12)


def test_anchor_shifts_the_arena_ratings_to_the_named_system():
    path = FIXTURES / "arena_rank" / "wikipedia.csv"
    plain, _ = _run_json(path, "--scale", "elo", "--interval", "sandwich")
    anchored, _ = _run_json(path, "--scale", "elo", "--interval", "sandwich", "--anchor", "B=1114")
    assert anchored.loc["B", "rating"] == pytest.approx(1114, abs=1e-9)
    shift = 1114 - plain.loc["B", "rating"]
    for column in ("rating", "rating_low", "rating_high"):
        np.testing.assert_allclose(anchored[column], plain[column] + shift, atol=1e-9)


def test_trueskill_sigma_and_conservative_rating_columns():
    """TrueSkill's σ and μ − 3σ: the ``trueskill`` package's rate_1vs1 in one order gives the same σ."""
    import trueskill as ts

    games = read_judgments(FIXTURES / "evalica" / "food.csv")
    c = from_judgments(games["left"], games["right"], games["winner"].to_numpy(dtype=object))
    mu, sigma = sequential.replay_games(len(c.systems), c.left.astype(np.int64), c.right.astype(np.int64),
                                        c.outcome.astype(np.int64), "trueskill", np.arange(len(c))[None],
                                        np.random.default_rng(0), order="file", sigma=True)
    env = ts.TrueSkill(backend=None)
    ratings = {s: env.create_rating() for s in c.systems}
    for i, j, o in zip(c.left, c.right, c.outcome):
        a, b = c.systems[i], c.systems[j]
        if o < 0:
            ratings[b], ratings[a] = env.rate_1vs1(ratings[b], ratings[a])
        else:
            ratings[a], ratings[b] = env.rate_1vs1(ratings[a], ratings[b], drawn=o == 0)
    np.testing.assert_allclose(mu[0], [ratings[s].mu for s in c.systems], rtol=1e-9)
    np.testing.assert_allclose(sigma[0], [ratings[s].sigma for s in c.systems], rtol=1e-9)
    result = compare_judgments(games, n_resamples=20, n_resamples_sequential=0).systems
    np.testing.assert_allclose(result["trueskill_conservative"], result["trueskill"] - 3 * result["trueskill_sigma"])


@pytest.mark.parametrize(("options", "message"), [
    (["--ties", "2"], "--ties must be a number from 0 to 1"),
    (["--ties", "loss"], "--ties does not apply to a pairwise judgment file"),
    (["--elo-k", "0"], "--elo-k must be a number > 0"),
    (["--elo-initial", "x"], "--elo-initial must be a number"),
    (["--anchor", "Tacos=1000"], "--anchor applies with --scale elo"),
    (["--scale", "elo", "--anchor", "1000"], "--anchor expects SYSTEM=RATING"),
    (["--scale", "elo", "--anchor", "Nope=1"], "--anchor: no system 'Nope'"),
])
def test_each_peer_option_is_an_error_where_it_does_not_apply(options, message):
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", str(FIXTURES / "evalica" / "food.csv"),
                          "--n-resamples", "20", *options], capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 2 and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()[-1]) > 0


@pytest.mark.parametrize(("options", "message"), [
    (["--ties", "0.3"], "a tie weight applies to pairwise judgment files"),
    (["--elo-order", "file"], "--elo-order applies to pairwise judgment files"),
    (["--anchor", "M0=1000"], "--anchor applies with --scale elo"),
])
def test_judgment_options_on_a_score_file_are_errors(options, message):
    path = ROOT / "examples" / "topicalchat_chrfpp.csv"
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", str(path), "--n-resamples", "20", *options],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 2 and message in out.stderr, out.stderr


def test_elo_k_and_initial_on_a_score_file():
    """--elo-k and --elo-initial apply to a score file's Elo too (its mean of random orders), said on line 1."""
    path = ROOT / "examples" / "topicalchat_chrfpp.csv"
    out = subprocess.run([sys.executable, "-m", "analysis", "compare", str(path), "--n-resamples", "20",
                          "--n-resamples-sequential", "0", "--elo-k", "4", "--elo-initial", "1000"],
                         capture_output=True, text=True, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stderr
    assert "Elo with K 4, starting at 1000" in out.stdout.replace("\n", " ")


# --- FastChat's compute_bt, ported --------------------------------------------------------------------------------
# Ported from lm-sys/FastChat, fastchat/serve/monitor/rating_systems.py at commit
# 0e6d3e4beaab66f4d3f93db72541a4abab8af28d (Apache License 2.0, Copyright LMSYS): get_matchups_models,
# preprocess_for_bt, bt_loss_and_grad, fit_bt, scale_and_offset and compute_bt, unchanged but for formatting and
# ``maxiter`` (FastChat's 100) and L-BFGS-B's other options (``ftol``) made parameters, to solve it further.


def _fastchat_compute_bt(df, base=10.0, scale=400.0, init_rating=1000, tol=1e-6, maxiter=100, **solver):
    import math

    from scipy.optimize import minimize
    from scipy.special import expit

    n_rows = len(df)
    model_indices, models = pd.factorize(pd.concat([df["model_a"], df["model_b"]]))
    models = models.to_list()
    schedule = np.full((n_rows, 3), fill_value=1, dtype=np.int32)
    schedule[:, [0, 1]] = np.column_stack([model_indices[:n_rows], model_indices[n_rows:]])
    schedule[df["winner"] == "model_a", 2] = 2
    schedule[df["winner"] == "model_b", 2] = 0
    matchups_outcomes, weights = np.unique(schedule, return_counts=True, axis=0)
    matchups = matchups_outcomes[:, [0, 1]]
    outcomes = matchups_outcomes[:, 2].astype(np.float64) / 2.0
    weights = weights.astype(np.float64)
    alpha = math.log(base)

    def bt_loss_and_grad(ratings, matchups, outcomes, weights, alpha=1.0):
        matchup_ratings = ratings[matchups]
        logits = alpha * (matchup_ratings[:, 0] - matchup_ratings[:, 1])
        probs = expit(logits)
        loss = -((np.log(probs) * outcomes + np.log(1.0 - probs) * (1.0 - outcomes)) * weights).sum()
        matchups_grads = -alpha * (outcomes - probs) * weights
        model_grad = np.zeros_like(ratings)
        np.add.at(model_grad, matchups[:, [0, 1]], matchups_grads[:, None] * np.array([1.0, -1.0], dtype=np.float64))
        return loss, model_grad

    result = minimize(fun=bt_loss_and_grad, x0=np.zeros(len(models), dtype=np.float64),
                      args=(matchups, outcomes, weights, alpha), jac=True, method="L-BFGS-B",
                      options={"disp": False, "maxiter": maxiter, "gtol": tol, **solver})
    scaled = (result["x"] * scale) + init_rating
    baseline_model, baseline_rating = "mixtral-8x7b-instruct-v0.1", 1114
    if baseline_model in models:
        scaled += baseline_rating - scaled[..., [models.index(baseline_model)]]
    return pd.Series(scaled, index=models).sort_values(ascending=False)


@pytest.mark.parametrize(("tol", "maxiter", "ftol"), [(1e-6, 100, None), (1e-12, 10_000, 1e-15)])
def test_fastchat_compute_bt_with_its_mixtral_anchor(tmp_path, tol, maxiter, ftol):
    """FastChat's BT (its shipped tolerance 1e-6, and solved further) on the example judgments with one model renamed
    mixtral-8x7b-instruct-v0.1: `compare --scale elo --anchor mixtral-8x7b-instruct-v0.1=1114` prints its ratings,
    to 0.01 Elo points at FastChat's own tolerance and to 1e-6 solved further."""
    df = pd.read_csv(ROOT / "examples" / "llmfao_judgments.csv")
    first = sorted(set(df["model_a"]))[0]
    df[["model_a", "model_b"]] = df[["model_a", "model_b"]].replace(first, "mixtral-8x7b-instruct-v0.1")
    df["winner"] = df["winner"].replace(first, "mixtral-8x7b-instruct-v0.1")
    path = tmp_path / "battles.csv"
    df.to_csv(path, index=False)
    theirs = _fastchat_compute_bt(df, tol=tol, maxiter=maxiter, **({"ftol": ftol} if ftol else {}))
    ours, _ = _run_json(path, "--scale", "elo", "--anchor", "mixtral-8x7b-instruct-v0.1=1114")
    assert ours.loc["mixtral-8x7b-instruct-v0.1", "rating"] == pytest.approx(1114)
    np.testing.assert_allclose(ours.loc[theirs.index, "rating"], theirs, atol=0.01 if tol == 1e-6 else 1e-6)
