"""Style control (issue 41, item 4): BT fitted jointly with per-judgment covariates, equal to statsmodels' logistic
regression (coefficients and HC0 covariance to 1e-6); ``--covariates`` in the command with its hostile cases."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis.__main__ import main
from analysis.compare import style

sm = pytest.importorskip("statsmodels.api")
FAST = ["--n-resamples", "30", "--n-resamples-sequential", "2"]


def _arena(seed=0, s=5, m=4000, beta=(0.7, -0.2), weights=True):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, s, m)
    b = (a + rng.integers(1, s, m)) % s
    theta = np.linspace(0, 1, s)
    z = np.column_stack([rng.normal(size=m), 2 * rng.normal(size=m)])[:, : len(beta)]
    p = 1 / (1 + np.exp(-(theta[a] - theta[b] + z @ np.array(beta))))
    outcome = np.where(rng.random(m) < 0.1, 0, np.where(rng.random(m) < p, 1, -1))
    w = rng.integers(1, 3, m).astype(float) if weights else np.ones(m)
    return s, a, b, outcome, w, z


@pytest.mark.parametrize("seed, beta, weights", [(0, (0.7, -0.2), True), (1, (1.5,), False), (2, (0.0, 0.3), False)])
def test_style_control_equals_statsmodels(seed, beta, weights):
    s, a, b, outcome, w, z = _arena(seed, beta=beta, weights=weights)
    fit = style.fit(s, a, b, outcome, w, z)
    X = np.zeros((len(a), s))
    X[np.arange(len(a)), a] += 1
    X[np.arange(len(a)), b] -= 1
    X = np.column_stack([X[:, 1:], z])
    ref = sm.GLM((outcome + 1) / 2, X, family=sm.families.Binomial(), var_weights=w).fit(cov_type="HC0", tol=1e-14)
    np.testing.assert_allclose(fit.coef, ref.params[s - 1:], atol=1e-6)
    np.testing.assert_allclose(fit.cov, ref.cov_params(), atol=1e-6)
    theta = np.r_[0.0, ref.params[: s - 1]]
    np.testing.assert_allclose(fit.strengths, np.exp(theta) / np.exp(theta).sum(), atol=1e-6)
    assert (fit.coef_low <= fit.coef).all() and (fit.coef <= fit.coef_high).all()


def test_a_constant_covariate_is_a_first_position_advantage():
    """Judgments in both presentation orders with ``first = 1``: its coefficient is the judge's preference for the
    first-shown output (a home advantage), equal to statsmodels' logistic regression with a constant column."""
    rng = np.random.default_rng(7)
    s, m = 4, 3000
    a = rng.integers(0, s, m)
    b = (a + rng.integers(1, s, m)) % s
    theta = np.linspace(0, 0.8, s)
    p = 1 / (1 + np.exp(-(theta[a] - theta[b] + 0.5)))
    outcome = np.where(rng.random(m) < p, 1, -1)  # no ties: a tie as ½ would attenuate the simulated 0.5
    z = np.ones((m, 1))
    fit = style.fit(s, a, b, outcome, np.ones(m), z)
    X = np.zeros((m, s))
    X[np.arange(m), a] += 1
    X[np.arange(m), b] -= 1
    ref = sm.GLM((outcome + 1) / 2, np.column_stack([X[:, 1:], z]), family=sm.families.Binomial()).fit(
        cov_type="HC0", tol=1e-14)
    np.testing.assert_allclose(fit.coef, ref.params[s - 1:], atol=1e-6)
    np.testing.assert_allclose(fit.cov, ref.cov_params(), atol=1e-6)
    assert fit.coef_low[0] <= 0.5 <= fit.coef_high[0]


def test_a_style_bias_is_taken_out_of_the_ranking(tmp_path, capsys):
    """Two equally good systems, one of which writes longer answers that judges prefer: the plain BT ranks it first,
    the style-controlled BT puts them level (its interval covers the other's strength), and the length coefficient is
    found."""
    rng = np.random.default_rng(5)
    m = 6000
    a = rng.integers(0, 3, m)
    b = (a + rng.integers(1, 3, m)) % 3
    length = np.array([300.0, 900.0, 300.0])  # system "verbose" (1) writes three times longer
    len_diff = (length[a] - length[b]) / 100 + rng.normal(0, 1, m)
    p = 1 / (1 + np.exp(-0.3 * len_diff))
    outcome = np.where(rng.random(m) < p, "model_a", "model_b")
    names = np.array(["plain", "verbose", "terse"])
    path = tmp_path / "arena.csv"
    pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": outcome, "len_diff": len_diff}).to_csv(
        path, index=False)
    out = tmp_path / "r.json"
    assert main(["compare", str(path), "--covariates", "len_diff", "--json", str(out), *FAST]) == 0
    payload = json.loads(out.read_text())
    systems = pd.DataFrame(payload["systems"]["data"], index=payload["systems"]["index"],
                           columns=payload["systems"]["columns"])
    assert systems["bt"].idxmax() == "verbose"
    ctl = systems.loc["verbose"]
    assert ctl["bt_controlled_low"] <= systems.loc["plain", "bt_controlled"] <= ctl["bt_controlled_high"]
    coef = payload["settings"]["covariates"]["len_diff"]
    assert coef["low"] <= 0.3 <= coef["high"]
    captured = capsys.readouterr()
    assert "style-controlled" in captured.out and "covariate len_diff" in captured.out
    assert "ignored" not in captured.err.splitlines()[0]


@pytest.mark.parametrize("case, message", [
    ("nan", "covariate 'len_diff' is missing on line"),
    ("text", "is not a number"),
    ("constant", "cannot be told apart from the systems' strengths"),
    ("zero", "is 0 in every judgment"),
    ("absent", "no covariate column(s) ['tokens']"),
    ("dependent", "linearly dependent"),
    ("on-scores", "applies to pairwise judgment files"),
    ("empty", "expects column names"),
    ("twice", "names a column twice"),
])
def test_covariates_hostile_cases(tmp_path, capsys, case, message):
    path = tmp_path / "arena.csv"
    frame = pd.DataFrame({"model_a": ["a", "b", "c", "a"] * 5, "model_b": ["b", "c", "a", "c"] * 5,
                          "winner": ["model_a", "tie", "model_b", "model_a"] * 5, "len_diff": np.arange(20.0),
                          "twice_len": np.arange(20.0) * 2})
    option = "len_diff"
    if case == "nan":
        frame["len_diff"] = frame["len_diff"].astype(object)
        frame.loc[3, "len_diff"] = ""
    elif case == "text":
        frame["len_diff"] = frame["len_diff"].astype(object)
        frame.loc[3, "len_diff"] = "long"
    elif case == "constant":  # a chain of pairs, each judged in one order: a first-position effect is not identifiable
        pair = frame["model_a"] + frame["model_b"]
        frame = frame[pair.isin(["ab", "bc"])].assign(len_diff=1.0)
    elif case == "zero":
        frame["len_diff"] = 0.0
    elif case == "absent":
        option = "tokens"
    elif case == "dependent":
        option = "len_diff,twice_len"
    elif case == "on-scores":
        frame = pd.DataFrame({"A": [1.0, 2.0], "B": [2.0, 1.0], "len_diff": [1.0, 2.0]})
    elif case == "empty":
        option = " , "
    else:
        option = "len_diff,len_diff"
    frame.to_csv(path, index=False)
    code = main(["compare", str(path), "--covariates", option, *FAST])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("error:")]
    assert code == 2 and len(lines) == 1 and message in lines[0], err


def test_the_controlled_bt_on_the_elo_scale_is_printed_as_ratings(tmp_path, capsys):
    """--scale elo with --covariates: the controlled BT as arena ratings (θ centred on its arithmetic mean, rating ±
    z·se from statsmodels' HC0 covariance re-centred the same way), printed as ratings, not strengths."""
    from scipy import stats

    s, a, b, outcome, w, z = _arena(3, beta=(0.7,), weights=False)
    names = np.array([f"m{k}" for k in range(s)])
    path = tmp_path / "styled.csv"
    pd.DataFrame({"model_a": names[a], "model_b": names[b], "len_diff": z[:, 0],
                  "winner": np.select([outcome > 0, outcome < 0], ["model_a", "model_b"], "tie")}).to_csv(path,
                                                                                                       index=False)
    out = tmp_path / "out.json"
    assert main(["compare", str(path), "--covariates", "len_diff", "--scale", "elo", "--json", str(out), *FAST]) == 0
    assert "BT rating, style-controlled" in capsys.readouterr().out
    table = json.loads(out.read_text())["systems"]
    systems = pd.DataFrame(table["data"], index=table["index"], columns=table["columns"])
    X = np.zeros((len(a), s))
    X[np.arange(len(a)), a] += 1
    X[np.arange(len(a)), b] -= 1
    ref = sm.GLM((outcome + 1) / 2, np.column_stack([X[:, 1:], z]), family=sm.families.Binomial()).fit(
        cov_type="HC0", tol=1e-14)
    theta = np.r_[0.0, ref.params[: s - 1]]
    full = np.zeros((s, s))
    full[1:, 1:] = ref.cov_params()[: s - 1, : s - 1]
    centre = np.eye(s) - 1 / s
    scale = 400 / np.log(10)
    rating = scale * (theta - theta.mean()) + 1000
    half = stats.norm.ppf(0.975) * scale * np.sqrt(np.diag(centre @ full @ centre.T))
    rows = systems.loc[names]
    np.testing.assert_allclose(rows["rating_controlled"], rating, atol=1e-6)
    np.testing.assert_allclose(rows["rating_controlled_low"], rating - half, atol=1e-6)
    np.testing.assert_allclose(rows["rating_controlled_high"], rating + half, atol=1e-6)


def _styled_file(tmp_path, seed=67, n=3000, s=6):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, s, n)
    b = (a + rng.integers(1, s, n)) % s
    len_a, len_b = rng.normal(500, 150, n), rng.normal(500, 150, n)
    bold = rng.normal(0, 1, n)
    logit = np.linspace(0, 1, s)[a] - np.linspace(0, 1, s)[b] + 0.002 * (len_a - len_b) + 0.3 * bold
    u = rng.random(n)
    winner = np.where(u < 0.1, "tie", np.where(rng.random(n) < 1 / (1 + np.exp(-logit)), "model_a", "model_b"))
    frame = pd.DataFrame({"model_a": [f"m{x}" for x in a], "model_b": [f"m{x}" for x in b], "winner": winner,
                          "len_a": len_a, "len_b": len_b, "bold_diff": bold})
    path = tmp_path / "styled.csv"
    frame.to_csv(path, index=False)
    return path, frame


def _systems(out) -> pd.DataFrame:
    table = json.loads(out.read_text())["systems"]
    return pd.DataFrame(table["data"], index=table["index"], columns=table["columns"])


@pytest.mark.parametrize("further", [False, True])
def test_arena_ranks_contextual_bt_with_its_defaults(tmp_path, further):
    """--covariates len_a:len_b,bold_diff --covariates-reg 1 --covariates-reweight --covariates-normalise is
    arena-rank's ContextualBradleyTerry with its defaults (raw per-side length, L2 1, inverse-propensity weights,
    standardised features): ratings and sandwich intervals to 0.01 Elo points at arena-rank's own tolerances, to
    1e-6 with arena-rank solved further; the coefficients likewise."""
    pytest.importorskip("arena_rank")
    from arena_rank.models.contextual_bradley_terry import ContextualBradleyTerry
    from arena_rank.utils.data_utils import ContextualPairDataset

    path, frame = _styled_file(tmp_path)
    frame["len_diff"] = frame["len_a"] - frame["len_b"]
    ds = ContextualPairDataset.from_pandas(frame, feature_cols=["len_diff", "bold_diff"])
    tight = dict(ftol=1e-15, gtol=1e-13, max_iter=10_000) if further else {}
    theirs = ContextualBradleyTerry(n_competitors=len(ds.competitors), n_features=2, **tight).compute_ratings_and_cis(
        ds, significance_level=0.05)
    out = tmp_path / "out.json"
    assert main(["compare", str(path), "--covariates", "len_a:len_b,bold_diff", "--covariates-reg", "1",
                 "--covariates-reweight", "--covariates-normalise", "--scale", "elo", "--json", str(out), *FAST]) == 0
    rows = _systems(out).loc[list(theirs["competitors"])]
    tol = 1e-6 if further else 0.01
    for ours, key in (("rating_controlled", "ratings"), ("rating_controlled_low", "rating_lower"),
                      ("rating_controlled_high", "rating_upper")):
        np.testing.assert_allclose(rows[ours], np.asarray(theirs[key]), atol=tol, err_msg=ours)
    coef = json.loads(out.read_text())["settings"]["covariates"]
    np.testing.assert_allclose([coef["len_a:len_b"]["coef"], coef["bold_diff"]["coef"]], np.asarray(theirs["coeffs"]),
                               atol=1e-4 if not further else 1e-8)


def test_without_penalty_or_reweighting_the_arena_fit_is_the_plain_joint_fit(tmp_path):
    """--covariates-reg 0 alone: the unpenalised maximum (statsmodels' logistic regression, as the default fit), so
    the controlled ratings equal the default's; A:B equals a difference column."""
    path, frame = _styled_file(tmp_path, seed=3)
    frame["len_diff"] = frame["len_a"] - frame["len_b"]
    diff = tmp_path / "diff.csv"
    frame.to_csv(diff, index=False)
    plain, arena = tmp_path / "plain.json", tmp_path / "arena.json"
    assert main(["compare", str(diff), "--covariates", "len_diff", "--json", str(plain), *FAST]) == 0
    assert main(["compare", str(path), "--covariates", "len_a:len_b", "--covariates-reg", "0", "--json", str(arena),
                 *FAST]) == 0
    np.testing.assert_allclose(_systems(arena)["rating_controlled"], _systems(plain)["rating_controlled"], atol=1e-6)


@pytest.mark.parametrize(("options", "message"), [
    (["--covariates-reg", "1"], "--covariates-reg applies with --covariates"),
    (["--covariates-reweight"], "--covariates-reweight applies with --covariates"),
    (["--covariates", "len_a:len_b", "--covariates-reg", "-1"], "--covariates-reg must be a number >= 0"),
    (["--covariates", "len_a:"], "raw per-side features are written A:B"),
    (["--covariates", "len_a:nope"], "no covariate column(s) ['nope']"),
])
def test_style_options_are_errors_where_they_do_not_apply(tmp_path, capsys, options, message):
    path, _ = _styled_file(tmp_path, n=200)
    assert main(["compare", str(path), *options, *FAST]) == 2
    assert message in capsys.readouterr().err


# --- FastChat's style control, ported -----------------------------------------------------------------------------
# Ported from lm-sys/FastChat, fastchat/serve/monitor/rating_systems.py at commit
# 0e6d3e4beaab66f4d3f93db72541a4abab8af28d (Apache License 2.0, Copyright LMSYS): preprocess_for_style (its feature
# arithmetic: per-side counts, (a - b) / (a + b + 1), standardised; read here from columns rather than from
# conv_metadata), contextual_bt_loss_and_grad, fit_contextual_bt and compute_style_control's scaling, unchanged but
# for formatting and L-BFGS-B's options made parameters, to solve it further.


def _fastchat_style_features(frame, pairs):
    a = np.column_stack([frame[x] for x, _ in pairs]).T.astype(float)
    b = np.column_stack([frame[y] for _, y in pairs]).T.astype(float)
    diff, total = a - b, a + b + 1.0  # add_one=True, apply_ratio=[1, ...]
    diff /= total
    return ((diff - diff.mean(axis=1)[:, None]) / diff.std(axis=1)[:, None]).T


def _fastchat_compute_style_control(frame, features, reg=0.5, tol=1e-6, scale=400.0, init_rating=1000.0,
                                    **solver):
    import math

    from scipy.optimize import minimize
    from scipy.special import expit

    n = len(frame)
    idx, models = pd.factorize(pd.concat([frame["model_a"], frame["model_b"]]))
    matchups = np.column_stack([idx[:n], idx[n:]])
    outcomes = np.full(n, 0.5)
    outcomes[frame["winner"] == "model_a"] = 1.0
    outcomes[frame["winner"] == "model_b"] = 0.0
    n_models, alpha, half_reg = len(models), math.log(10.0), reg / 2.0

    def loss_and_grad(params):
        reg_loss = half_reg * np.inner(params, params)
        ratings, feature_params = params[:n_models], params[n_models:]
        probs = expit(alpha * (ratings[matchups][:, 0] - ratings[matchups][:, 1]) + features @ feature_params)
        loss = -(np.log(probs) * outcomes + np.log(1.0 - probs) * (1.0 - outcomes)).sum() + reg_loss
        error = outcomes - probs
        grad = reg * params
        np.add.at(grad[:n_models], matchups, (-alpha * error)[:, None] * np.array([1.0, -1.0]))
        grad[n_models:] -= features.T @ error
        return loss, grad

    result = minimize(loss_and_grad, np.zeros(n_models + features.shape[1]), jac=True, method="L-BFGS-B",
                      options={"disp": False, "maxiter": 100, "gtol": tol, **solver})
    ratings = result["x"][:n_models] * scale + init_rating
    return pd.Series(ratings, index=list(models)), result["x"][n_models:]


@pytest.mark.parametrize("further", [False, True])
def test_fastchat_style_control_without_its_penalty(tmp_path, further):
    """FastChat's compute_style_control with its penalty off (reg 0) on FastChat's own features (per-side counts as
    (a - b) / (a + b + 1), standardised): `compare --covariates <those columns> --covariates-normalise --scale elo`
    prints its controlled ratings, to 0.05 Elo points at FastChat's tolerance and 1e-5 solved further, and its
    coefficients. FastChat's default penalty (reg 0.5 on the summed log-likelihood) falls on the ratings as well as on
    the coefficients; compare's penalty is arena-rank's, on the coefficients only (examples/README.md)."""
    path, frame = _styled_file(tmp_path, seed=11)
    rng = np.random.default_rng(11)
    frame["bold_a"], frame["bold_b"] = rng.poisson(3, len(frame)), rng.poisson(3, len(frame))
    features = _fastchat_style_features(frame, [("len_a", "len_b"), ("bold_a", "bold_b")])
    frame["len_ratio"], frame["bold_ratio"] = features[:, 0] + 5.0, features[:, 1] - 2.0  # compare standardises
    frame.to_csv(path, index=False)
    tight = dict(tol=1e-12, maxiter=10_000, ftol=1e-15) if further else {}
    solver = {k: v for k, v in tight.items() if k != "tol"}
    theirs, coef = _fastchat_compute_style_control(frame, features, reg=0.0, tol=tight.get("tol", 1e-6), **solver)
    out = tmp_path / "out.json"
    assert main(["compare", str(path), "--covariates", "len_ratio,bold_ratio", "--covariates-normalise",
                 "--scale", "elo", "--json", str(out), *FAST]) == 0
    ours = _systems(out).loc[theirs.index, "rating_controlled"]
    np.testing.assert_allclose(ours, theirs, atol=1e-5 if further else 0.05)
    settings = json.loads(out.read_text())["settings"]["covariates"]
    np.testing.assert_allclose([settings["len_ratio"]["coef"], settings["bold_ratio"]["coef"]], coef,
                               atol=1e-7 if further else 1e-3)
