"""Bring your own scores (analysis.compare): the comparison's intervals and stability, and the `compare` command's
errors."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import aggregate, bt, compare, comparisons, pairwise
from tests.helpers import random_scores

ROOT = Path(__file__).resolve().parent.parent


def test_comparison_intervals_equal_the_generic_bootstrap():
    """The vectorised bootstrap of MEAN, MEDIAN and BT equals bootstrap_ci with the same generator."""
    scores = random_scores(np.random.default_rng(3), 30, 4, levels=2)
    result = compare.compare(scores, rng=5, n_resamples=150, n_resamples_sequential=0)
    def mle(s):  # compare solves BT to the maximum-likelihood estimate (bt.fit's rule "mle")
        wins = comparisons.score_win_matrices(s.to_numpy()[None], "half")
        return pd.Series(bt.fit(wins, rule="mle").strengths[0], index=s.columns)

    for name, fn in (("mean", aggregate.mean), ("median", aggregate.median), ("bt", mle)):
        ref = pairwise.bootstrap_ci(scores, fn, rng=5, n_resamples=150)
        np.testing.assert_allclose(result.systems[f"{name}_low"], ref["low"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(result.systems[f"{name}_high"], ref["high"], rtol=0, atol=1e-12)
    assert result.systems["elo_low"].isna().all()  # no sequential resamples asked for


def test_stability_finds_bt_reordering_and_never_mean():
    """App. F's cyclic example: removing C from the Condorcet cycle changes BT's order of A and B, never MEAN's."""
    scores = pd.DataFrame({"A": [1.0, 2, 3], "B": [2.0, 3, 1], "C": [3.0, 1, 2.5]})
    table = compare.stability(scores.to_numpy(), scores.columns, "half", True, 5, np.random.default_rng(0))
    assert not table[table.mechanism == "mean"].reordered.any()
    assert table.loc[table.mechanism == "bt", "pairs"].tolist() == [1, 1]


def test_cli_reports_a_bad_file_as_an_error_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("instance,system,score\n0,a,1\n")
    result = subprocess.run([sys.executable, "-m", "analysis", "compare", str(bad)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 2 and "error:" in result.stderr and "at least two systems" in result.stderr
    assert "Traceback" not in result.stderr


# --- hostile input (issue 30, item 8): each case a correct result or a one-line error naming the problem -------------

import json  # noqa: E402

import pytest  # noqa: E402

from analysis.__main__ import main  # noqa: E402

FAST = ["--n-resamples", "20", "--n-resamples-sequential", "2"]


def _run(capsys, *args):
    code = main(["compare", *map(str, args), *FAST])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _error(capsys, *args) -> str:
    code, _, err = _run(capsys, *args)
    lines = [x for x in err.splitlines() if x.startswith("error:")]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _systems(tmp_path, capsys, *args) -> pd.DataFrame:
    out = tmp_path / "r.json"
    code, _, err = _run(capsys, *args, "--json", out)
    assert code == 0, err
    return compare.from_dict(json.loads(out.read_text())).systems


WIDE = pd.DataFrame({"A": [0.1, 0.5, 0.3, 0.9], "B": [0.2, 0.4, 0.1, 0.3], "C": [0.0, 0.6, 0.2, 0.5]})


@pytest.mark.parametrize("case", ["to_csv_index", "id_column"])
def test_an_index_or_id_column_is_not_a_system(tmp_path, capsys, case):
    path = tmp_path / "w.csv"
    if case == "to_csv_index":
        WIDE.to_csv(path)
    else:
        WIDE.rename_axis("id").reset_index().to_csv(path, index=False)
    assert list(_systems(tmp_path, capsys, path).index) == ["A", "B", "C"]


def test_mtme_with_a_missing_middle_line_is_refused_under_every_alignment(tmp_path, capsys):
    path = tmp_path / "m.seg.score"
    lines = [f"A\t{v}" for v in (0.1, 0.2, 0.3)] + [f"B\t{v}" for v in (0.5, 0.6)]
    path.write_text("\n".join(lines) + "\n")
    for align in ("exact", "intersect", "pairwise", "auto"):
        assert "'B' has 2" in _error(capsys, path, "--align", align)


@pytest.mark.parametrize("header, problem", [("A,A,B", "names column 'A' twice"),
                                             ("instance,system,score,score", "names column 'score' twice"),
                                             ("instance,system,Score,score", "names column 'score' twice")])
def test_duplicate_headers_are_refused(tmp_path, capsys, header, problem):
    path = tmp_path / "d.csv"
    path.write_text(header + "\n" + "\n".join(",".join(["1"] * len(header.split(","))) for _ in range(3)) + "\n")
    message = _error(capsys, path)
    assert problem in message and "line 1" in message


def test_lower_is_better_keeps_mean_and_median_in_the_files_units(tmp_path, capsys):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    systems = _systems(tmp_path, capsys, path, "--lower-is-better")
    np.testing.assert_allclose(systems["mean"], WIDE.mean())
    assert (systems["mean_low"] <= systems["mean"]).all() and (systems["mean"] <= systems["mean_high"]).all()
    assert systems["mean_rank"].tolist() == [3, 1, 2]  # the lowest mean ranks first
    assert systems["bt_rank"].loc["A"] == 3


@pytest.mark.parametrize("args, problem", [
    (["--where", "metric=BLEU"], "this file is wide"),
    (["--where", "metric=BLEU", "--where", "metric=chrF"], "--where names column 'metric' twice"),
])
def test_where_on_a_wide_file_or_twice_on_a_column_is_refused(tmp_path, capsys, args, problem):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    assert problem in _error(capsys, path, *args)


def test_where_on_a_score_file_is_refused(tmp_path, capsys):
    path = tmp_path / "m.seg.score"
    path.write_text("A\t1\nA\t2\nB\t0\nB\t3\n")
    assert "mt-metrics-eval score file" in _error(capsys, path, "--where", "metric=x")


def test_where_selects_numeric_columns(tmp_path, capsys):
    path = tmp_path / "l.csv"
    rows = [(i, s, float(i + (s == "B")), r) for r in (1, 2) for i in range(3) for s in "AB"]
    pd.DataFrame(rows, columns=["instance", "system", "score", "rater"]).to_csv(path, index=False)
    systems = _systems(tmp_path, capsys, path, "--where", "rater=1")
    assert systems["instances"].tolist() == [3, 3]


@pytest.mark.parametrize("args, option", [
    (["--alpha", "2"], "--alpha"), (["--alpha", "-1"], "--alpha"), (["--alpha", "0"], "--alpha"),
    (["--alpha", "1"], "--alpha"), (["--alpha", "nan"], "--alpha"), (["--n-resamples", "1"], "--n-resamples"),
    (["--seed", "-1"], "--seed"), (["--seed", "x"], "--seed"), (["--n-resamples-sequential", "1"], "--n-resamples-seq"),
])
def test_bad_options_are_refused_naming_the_option(tmp_path, capsys, args, option):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    code = main(["compare", str(path), *FAST, *args])  # the bad option comes last and wins
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"error: {option}") and len(err.strip().splitlines()) == 1


def test_huge_scores_are_refused_and_json_is_strict(tmp_path, capsys):
    path = tmp_path / "w.csv"
    (WIDE * 1e308).to_csv(path, index=False)
    assert "overflow" in _error(capsys, path)
    small = tmp_path / "s.csv"
    WIDE.to_csv(small, index=False)
    out = tmp_path / "r.json"
    assert main(["compare", str(small), *FAST, "--json", str(out)]) == 0
    json.loads(out.read_text(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def test_datetime_scores_are_refused(tmp_path, capsys):
    path = tmp_path / "t.parquet"
    pd.DataFrame({"instance": [0, 0], "system": ["a", "b"],
                  "score": pd.to_datetime(["2024-01-01", "2024-01-02"])}).to_parquet(path)
    assert "dates or times" in _error(capsys, path)


def test_names_that_look_missing_are_names(tmp_path, capsys):
    path = tmp_path / "l.csv"
    rows = [(i, s, float(i * k)) for i in range(4) for k, s in enumerate(["None", "NA", "null", "nan"])]
    pd.DataFrame(rows, columns=["instance", "system", "score"]).to_csv(path, index=False)
    assert sorted(_systems(tmp_path, capsys, path).index) == ["NA", "None", "nan", "null"]


@pytest.mark.parametrize("target", ["json", "out"])
def test_the_input_is_never_overwritten(tmp_path, capsys, target):
    path = tmp_path / ("systems.csv" if target == "out" else "w.csv")
    WIDE.to_csv(path, index=False)
    before = path.read_bytes()
    args = ["--json", path] if target == "json" else ["--out", tmp_path]
    assert "overwrite the input" in _error(capsys, path, *args)
    assert path.read_bytes() == before


def test_unwritable_outputs_fail_before_computing(tmp_path, capsys):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    assert "does not exist" in _error(capsys, path, "--json", tmp_path / "no" / "such" / "r.json")
    (tmp_path / "f").write_text("")
    assert "not a folder" in _error(capsys, path, "--out", tmp_path / "f")


def test_memory_is_bounded_by_blocks():
    """2 systems x 500,000 instances: the resamples are drawn in blocks whose size the block bound fixes, and the
    stream does not depend on the block size."""
    from analysis.compare import intervals

    gen = np.random.default_rng(0)
    blocks = list(intervals.index_blocks(gen, 500_000, 1000, 2))
    assert max(b.size for _, b in blocks) <= intervals.BLOCK and sum(len(b) for _, b in blocks) == 1000
    one = np.random.default_rng(1).integers(0, 7, size=(30, 7))
    old, intervals.BLOCK = intervals.BLOCK, 30
    try:
        pieces = np.vstack([b for _, b in intervals.index_blocks(np.random.default_rng(1), 7, 30, 1)])
    finally:
        intervals.BLOCK = old
    np.testing.assert_array_equal(one, pieces)


@pytest.mark.parametrize("text", [
    "instance;system;score\n0;a;1\n0;b;2\n1;a;3\n1;b;1\n",
    "instance\tsystem\tscore\n0\ta\t1\n0\tb\t2\n1\ta\t3\n1\tb\t1\n",
    "# scores of my run\n# second comment\ninstance,system,score\n0,a,1\n0,b,2\n1,a,3\n1,b,1\n",
    "Instance,System,Score\n0,a,1\n0,b,2\n1,a,3\n1,b,1\n",
    "instance,system,score,\n0,a,1,\n0,b,2,\n1,a,3,\n1,b,1,\n",
])
def test_separators_comments_capitals_and_trailing_commas(tmp_path, capsys, text):
    path = tmp_path / "l.csv"
    path.write_text(text)
    systems = _systems(tmp_path, capsys, path)
    assert systems["mean"].to_dict() == {"a": 2.0, "b": 1.5}


def test_errors_name_the_right_line_after_comments(tmp_path, capsys):
    path = tmp_path / "l.csv"
    path.write_text("# a comment\ninstance;system;score\n0;a;1\n0;b;oops\n")
    assert "'oops' on line 4 is not a number" in _error(capsys, path)


def test_json_is_identical_across_identical_runs(tmp_path, capsys):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    texts = []
    for k in range(2):
        out = tmp_path / f"r{k}.json"
        assert main(["compare", str(path), *FAST, "--json", str(out)]) == 0
        texts.append(out.read_text())
    assert texts[0] == texts[1]


def test_names_no_font_can_draw_become_row_numbers():
    from analysis.compare.figures import tick_labels

    labels = tick_labels(["模型甲", "base", "🤖 bot"])
    assert labels == ["#1", "base", "#3"]


# --- incomplete score files (item 1): each pair on the instances both systems have ------------------------------------

import evalica  # noqa: E402

from analysis.compare import evidence  # noqa: E402
from analysis.comparisons import comparison_counts  # noqa: E402


def _incomplete(seed=0, n=40, s=5, share=0.2):
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(0, 1, (n, s)) + np.linspace(0, 1, s), 1)
    values[rng.random((n, s)) < share] = np.nan
    return pd.DataFrame(values, columns=[f"s{k}" for k in range(s)])


def test_incomplete_bt_equals_evalica_on_every_pairs_common_instances():
    scores = _incomplete()
    result = compare.compare(scores, rng=0, n_resamples=10, n_resamples_sequential=0)
    xs, ys, winners = [], [], []
    values = scores.to_numpy()
    for i in range(values.shape[1]):
        for j in range(i + 1, values.shape[1]):
            for a, b in zip(values[:, i], values[:, j]):
                if np.isnan(a) or np.isnan(b):
                    continue
                xs.append(scores.columns[i])
                ys.append(scores.columns[j])
                winners.append(evalica.Winner.X if a > b else evalica.Winner.Y if a < b else evalica.Winner.Draw)
    ref = evalica.bradley_terry(xs, ys, winners, tolerance=1e-12, limit=100_000).scores
    ref = (ref / ref.sum()).reindex(scores.columns)
    # the reported fit stops by the paper's rule (squared change < 1e-9); the same comparisons fitted to a tight
    # tolerance agree with evalica to its own tolerance
    np.testing.assert_allclose(result.systems["bt"], ref, atol=1e-4)
    comps = evidence.instance_comparisons(values, scores.columns)
    wins = np.asarray(evidence.credit_matrix(comps, "half").sum(axis=0)).reshape(5, 5)
    np.testing.assert_allclose(bt.fit(wins, tol=1e-20, max_iter=100_000).strengths[0], ref, atol=1e-7)
    assert result.settings["alignment"] == "pairwise" and result.settings["n_comparisons"] == len(xs)


def test_pair_counts_and_tests_use_each_pairs_common_instances():
    scores = _incomplete(1)
    values = scores.to_numpy()
    tables = evidence.pairwise_tables(values, scores.columns)
    for i, j in [(0, 1), (2, 4)]:
        both = ~np.isnan(values[:, i]) & ~np.isnan(values[:, j])
        x, y = values[both, i], values[both, j]
        assert tables["common"].iat[i, j] == both.sum()
        assert tables["prob"].iat[i, j] == pytest.approx((np.sum(x > y) + 0.5 * np.sum(x == y)) / both.sum())
        assert tables["sign_p"].iat[i, j] == pytest.approx(pairwise.sign_test(x, y).pvalue)
        assert tables["wilcoxon_p"].iat[i, j] == pytest.approx(pairwise.wilcoxon(x, y).pvalue)
    complete = scores.fillna(0.0).to_numpy()
    wins, ties, common = evidence.pair_counts(complete)
    ref_wins, ref_ties = comparison_counts(complete)
    np.testing.assert_array_equal(wins, ref_wins)
    np.testing.assert_array_equal(ties, ref_ties)


def test_adjusted_mean_removes_instance_difficulty():
    """Scores that are exactly instance effect + system effect: the adjusted mean is the system effect plus the
    average instance effect whatever is missing, while MEAN over each system's own instances is not."""
    rng = np.random.default_rng(4)
    a, b = rng.normal(0, 3, 30), np.array([0.0, 0.5, 1.0, 1.5])
    values = a[:, None] + b[None, :]
    values[rng.random(values.shape) < 0.3] = np.nan
    values[0] = a[0] + b  # every system has at least one instance in common with every other
    np.testing.assert_allclose(evidence.adjusted_mean(values), b + a.mean(), atol=1e-8)
    complete = a[:, None] + b[None, :] + rng.normal(0, 1, (30, 4))
    np.testing.assert_allclose(evidence.adjusted_mean(complete), complete.mean(axis=0), atol=1e-12)


def test_incomplete_files_say_so_on_the_first_line(tmp_path, capsys):
    path = tmp_path / "w.csv"
    _incomplete(2).to_csv(path, index=False)
    code, out, err = _run(capsys, path)
    assert code == 0 and "incomplete: each pair compared on the instances both systems have" in err.splitlines()[0]
    assert out.splitlines()[0].startswith("5 systems x 40 instances; INCOMPLETE")
    assert "not comparable" in out and "adjusted MEAN" in out


# --- intervals that contain their estimate, BCa, adjusted p-values, ranks (items 3-4) ---------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy import stats  # noqa: E402

from analysis.compare import intervals  # noqa: E402


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(4, 25), s=st.integers(2, 5), levels=st.integers(2, 6),
       missing=st.sampled_from([0.0, 0.15]), method=st.sampled_from(["percentile", "bca"]))
def test_no_estimate_outside_its_interval(seed, n, s, levels, missing, method):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, (n, s)).astype(float)
    values[rng.random((n, s)) < missing] = np.nan
    values[0] = np.arange(s)  # every pair shares an instance
    values[1] = np.arange(s)[::-1]  # and nobody wins every comparison
    result = compare.compare(pd.DataFrame(values, columns=[f"s{k}" for k in range(s)]), rng=seed, n_resamples=30,
                             n_resamples_sequential=5, n_orders=2, interval=method)
    sys_ = result.systems
    for name in ("mean", "median", "bt", "elo", "trueskill") + (("mean_adj",) if "mean_adj" in sys_ else ()):
        assert (sys_[f"{name}_low"] <= sys_[name] + 1e-12).all() and (sys_[name] <= sys_[f"{name}_high"] + 1e-12).all()
    assert ((1 <= sys_["rank_low"]) & (sys_["rank_low"] <= sys_["rank_high"]) & (sys_["rank_high"] <= s)).all()


def test_bca_equals_scipy_on_the_same_resamples():
    x = np.random.default_rng(7).gamma(2.0, 1.0, 40)
    ref = stats.bootstrap((x,), np.mean, n_resamples=500, method="BCa", random_state=np.random.default_rng(3),
                          vectorized=True)
    idx = np.random.default_rng(3).integers(0, 40, size=(500, 40))
    draws = x[idx].mean(axis=1)[:, None]
    jack = np.array([np.delete(x, i).mean() for i in range(40)])[:, None]  # 40 units: one group each
    low, high = intervals.interval(draws, np.array([x.mean()]), 0.95, "bca", jack)
    np.testing.assert_allclose([low[0], high[0]], [ref.confidence_interval.low, ref.confidence_interval.high],
                               rtol=1e-9)


def test_holm_and_bh_adjusted_p_values():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # Holm by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04 -> running max
    np.testing.assert_allclose(evidence.holm(p), [0.03, 0.06, 0.06, 0.02])
    matrix = pd.DataFrame(np.nan, index=list("abc"), columns=list("abc"))
    for (a, b), v in zip([("a", "b"), ("a", "c"), ("b", "c")], [0.01, 0.04, 0.03]):
        matrix.loc[a, b] = matrix.loc[b, a] = v
    bh = evidence.adjust(matrix, "bh")
    ref = stats.false_discovery_control([0.01, 0.04, 0.03], method="bh")
    np.testing.assert_allclose([bh.loc["a", "b"], bh.loc["a", "c"], bh.loc["b", "c"]], ref)
    assert evidence.adjust(matrix, "holm").loc["a", "b"] == pytest.approx(0.03)


def test_marks_come_from_adjusted_p_values():
    rng = np.random.default_rng(0)
    scores = pd.DataFrame(rng.normal(0, 1, (30, 4)) + np.array([0, 0.3, 0.6, 1.2]), columns=list("abcd"))
    result = compare.compare(scores, rng=0, n_resamples=20, n_resamples_sequential=0)
    marks = result.marked_prob(0.05)
    assert ((marks.map(lambda t: "*" in t)) == (result.sign_p_adj < 0.05)).all().all()
    assert (result.sign_p_adj.fillna(0) >= result.sign_p.fillna(0) - 1e-15).all().all()


def test_tied_groups_start_where_the_group_above_is_beaten():
    better = {"a": {"b": False, "c": True, "d": True}, "b": {"c": False, "d": True}, "c": {"d": True}}
    sig = {x: {y: better.get(x, {}).get(y, False) for y in "abcd"} for x in "abcd"}
    assert intervals.tied_groups(list("abcd"), sig) == [1, 1, 1, 2]


# --- pairwise judgment files (item 2): equal to evalica on the same matches -------------------------------------------

import trueskill as trueskill_pkg  # noqa: E402

from analysis.compare import judgments, sequential  # noqa: E402
from analysis.data.scorefiles import read_judgments  # noqa: E402

WINNER = {"left": evalica.Winner.X, "right": evalica.Winner.Y, "tie": evalica.Winner.Draw}


def _games(seed=0, m=300, s=5, weights=False):
    rng = np.random.default_rng(seed)
    names = [f"m{k}" for k in range(s)]
    a = rng.integers(0, s, m)
    b = (a + rng.integers(1, s, m)) % s
    strength = np.linspace(0, 1.5, s)
    p = 1 / (1 + np.exp(strength[b] - strength[a]))
    u = rng.random(m)
    winner = np.where(u < 0.15, "tie", np.where(rng.random(m) < p, "left", "right"))
    frame = pd.DataFrame({"left": np.array(names)[a], "right": np.array(names)[b], "winner": winner,
                          "weight": rng.integers(1, 4, m).astype(float) if weights else np.ones(m)})
    return frame


@pytest.mark.parametrize("weights", [False, True])
def test_judgments_equal_evalica(weights):
    games = _games(weights=weights)
    result = judgments.compare_judgments(games, rng=0, n_resamples=20, n_resamples_sequential=0, n_orders=1)
    xs, ys, ws = games["left"].tolist(), games["right"].tolist(), [WINNER[w] for w in games["winner"]]
    wt = games["weight"].tolist()
    ref = evalica.bradley_terry(xs, ys, ws, weights=wt, tolerance=1e-12, limit=100_000).scores
    np.testing.assert_allclose(result.systems["bt"], (ref / ref.sum()).reindex(result.systems.index), atol=1e-4)
    rate = evalica.average_win_rate(xs, ys, ws, weights=wt).scores
    np.testing.assert_allclose(result.systems["win_rate"], rate.reindex(result.systems.index), atol=1e-12)
    index = pd.Index(result.systems.index)
    mats = evalica.matrices([index.get_loc(x) for x in xs], [index.get_loc(y) for y in ys], ws, index, weights=wt)
    w, t = mats.win_matrix, mats.tie_matrix
    with np.errstate(invalid="ignore"):
        prob = (w + 0.5 * t) / (w + w.T + t)
    np.fill_diagonal(prob, np.nan)
    np.testing.assert_allclose(result.prob.to_numpy(), prob, atol=1e-12)
    off = ~np.eye(len(prob), dtype=bool)
    assert (result.prob_low.to_numpy()[off] <= prob[off] + 1e-12).all()
    assert (prob[off] <= result.prob_high.to_numpy()[off] + 1e-12).all()


def test_elo_and_trueskill_in_file_order_equal_evalica_and_the_trueskill_package():
    games = _games(1, m=200)
    c = judgments.from_judgments(games["left"], games["right"], games["winner"])
    outcome = c.outcome.astype(np.int64)
    elo = sequential.in_file_order(len(c.systems), c.left, c.right, outcome, "elo", k=4.0, initial=1000.0)
    ref = evalica.elo(games["left"].tolist(), games["right"].tolist(), [WINNER[w] for w in games["winner"]]).scores
    np.testing.assert_allclose(elo, ref.reindex(list(c.systems)), rtol=1e-10)
    ts = sequential.in_file_order(len(c.systems), c.left, c.right, outcome, "trueskill")
    env = trueskill_pkg.TrueSkill(backend=None)
    ratings = {s: env.create_rating() for s in range(len(c.systems))}
    for a, b, o in zip(c.left, c.right, outcome):
        w, l = (a, b) if o >= 0 else (b, a)
        if o == 0:
            w, l = b, a  # the kernel rates a draw with the right-hand system first, as analysis._kernels does
        ratings[w], ratings[l] = env.rate_1vs1(ratings[w], ratings[l], drawn=o == 0)
    np.testing.assert_allclose(ts, [ratings[s].mu for s in range(len(c.systems))], rtol=1e-6)


def test_judgment_files_in_every_format_and_winner_spelling(tmp_path, capsys):
    games = _games(2, m=120)
    spelled = games.assign(winner=games["winner"].map({"left": "model_a", "right": "model_b", "tie": "tie (bothbad)"}))
    frame = spelled.rename(columns={"left": "Model_A", "right": "model_b"})[["Model_A", "model_b", "winner"]]
    paths = {"csv": tmp_path / "j.csv", "parquet": tmp_path / "j.parquet", "jsonl": tmp_path / "j.jsonl"}
    frame.to_csv(paths["csv"], index=False)
    frame.to_parquet(paths["parquet"], index=False)
    frame.to_json(paths["jsonl"], orient="records", lines=True)
    read = {k: read_judgments(p) for k, p in paths.items()}
    for k, r in read.items():
        # the reader holds system names as categoricals (codes, not millions of strings): compare the values
        pd.testing.assert_frame_equal(r[["left", "right", "winner"]].astype(str), games[["left", "right", "winner"]],
                                      obj=k)
    systems = _systems(tmp_path, capsys, paths["csv"])
    assert set(systems.index) == set(games["left"]) | set(games["right"])
    bad = tmp_path / "bad.csv"
    bad.write_text("model_a,model_b,winner\nx,y,model_a\nx,y,maybe\n")
    assert "winner 'maybe' on line 3" in _error(capsys, bad)


# --- the human column (item 5): Favi-Score and sign accuracies through analysis.favi ----------------------------------

from analysis.chapters.favoritism import experiments as chapter04  # noqa: E402
from analysis.compare import human as human_column  # noqa: E402


def _human_and_metric(seed=0, n=25, systems=("a", "b", "c", "d")):
    rng = np.random.default_rng(seed)
    quality = rng.normal(0, 1, (n, len(systems))) + np.linspace(0, 1, len(systems))
    human = pd.DataFrame(np.round(quality + rng.normal(0, 0.5, quality.shape)), columns=list(systems))
    metric = pd.DataFrame(np.round(quality + rng.normal(0, 0.7, quality.shape), 1), columns=list(systems))
    return human, metric


def test_human_column_equals_chapter_04s_per_pair_function():
    human, metric = _human_and_metric()
    ours, summary = human_column.human_table(human, metric, n_resamples=200, rng=5)
    long = []
    for rater, frame, kind in (("expert", human, "human"), ("metric", metric, "metric")):
        for item, row in frame.iterrows():
            for system, score in row.items():
                long.append(("dialogue", "usr-tc", item, rater, kind, system, score))
    scores = pd.DataFrame(long, columns=["domain", "dataset", "item", "rater", "rater_kind", "system", "score"])
    theirs = chapter04.per_pair(scores, ["usr-tc"], n_resamples=200, rng=5)
    np.testing.assert_allclose(ours["favi"], theirs["favi"])
    np.testing.assert_allclose(ours["favi_low"], theirs["low"])
    np.testing.assert_allclose(ours["favi_high"], theirs["high"])
    np.testing.assert_allclose(ours["favi_p"], theirs["p_value"])
    np.testing.assert_allclose(ours["sample_accuracy"], theirs["sample_accuracy"])
    assert summary["pairs"] == 6 and 0 <= summary["sample_accuracy_low"] <= summary["sample_accuracy"]


def test_wilson_interval_by_hand():
    low, high = human_column.wilson(8, 10)
    z = stats.norm.ppf(0.975)
    centre = (0.8 + z**2 / 20) / (1 + z**2 / 10)
    half = z * np.sqrt(0.8 * 0.2 / 10 + z**2 / 400) / (1 + z**2 / 10)
    assert (low, high) == pytest.approx((centre - half, centre + half))


def test_cli_human_column(tmp_path, capsys):
    human, metric = _human_and_metric(1)
    hp, mp = tmp_path / "human.csv", tmp_path / "metric.csv"
    human.to_csv(hp, index=False)
    metric.to_csv(mp, index=False)
    code, out, err = _run(capsys, mp, "--human", hp)
    assert code == 0, err
    assert "Against the human ratings: sample-level sign accuracy" in out and "Favi-Score" in out
    assert max(map(len, out.splitlines())) <= 100


@pytest.mark.parametrize("ties", ["half", "loss"])
def test_bt_of_an_incomplete_file_from_pair_counts_equals_the_per_instance_comparisons(ties):
    from analysis.compare.core import _bt

    values = _incomplete(5).to_numpy()
    comps = evidence.instance_comparisons(values, [str(k) for k in range(values.shape[1])])
    wins = np.asarray(evidence.credit_matrix(comps, ties).sum(axis=0)).reshape(values.shape[1], -1)
    np.testing.assert_allclose(_bt(values, ties, False), bt.fit(wins, rule="mle").strengths[0], atol=1e-12)
    full = np.nan_to_num(values)
    np.testing.assert_allclose(_bt(full, ties, True), bt.fit(comparisons.score_win_matrices(full[None], ties),
                                                             rule="mle").strengths[0])
    # the paper's stopping rule stops short of the MLE that compare prints
    paper_rule = aggregate.bradley_terry(pd.DataFrame(full), ties=ties, rule="change")
    assert np.abs(paper_rule - _bt(full, ties, True)).max() > 1e-9
    solved = aggregate.bradley_terry(pd.DataFrame(full), ties=ties, rule="mle")
    np.testing.assert_allclose(solved, _bt(full, ties, True), rtol=1e-10)


def test_resampled_medians_and_means_equal_the_gathered_ones():
    rng = np.random.default_rng(0)
    v = np.round(rng.normal(size=(37, 4)), 1)
    v[rng.random(v.shape) < 0.2] = np.nan
    idx = rng.integers(0, 37, size=(50, 37))
    w = intervals.counts(idx, 37)
    np.testing.assert_array_equal(intervals.resampled_medians(v, idx), np.nanmedian(v[idx], axis=1))
    np.testing.assert_array_equal(intervals.weighted_medians(v, w), np.nanmedian(v[idx], axis=1))
    full = np.nan_to_num(v)
    for n in (36, 37):
        np.testing.assert_array_equal(intervals.resampled_medians(full[:n], idx[:, :n] % n),
                                      np.median(full[:n][idx[:, :n] % n], axis=1))
    np.testing.assert_allclose(intervals.resampled_means(v, w), np.nanmean(v[idx], axis=1), atol=1e-14)


def test_nan_quantiles_equal_numpys():
    rng = np.random.default_rng(2)
    draws = rng.normal(size=(57, 3, 4))
    draws[rng.random(draws.shape) < 0.3] = np.nan
    draws[:, 0, 0] = np.nan
    with pytest.warns(RuntimeWarning):
        ref = np.nanquantile(draws, [0.025, 0.5, 0.975], axis=0)
    np.testing.assert_allclose(intervals.nan_quantiles(draws, [0.025, 0.5, 0.975]), ref, atol=1e-12)


# --- output people can use (item 6) -----------------------------------------------------------------------------------

import io  # noqa: E402

from analysis.compare import report  # noqa: E402


@pytest.fixture(scope="module")
def long_names():
    rng = np.random.default_rng(0)
    names = [f"organisation-{k:02d}/a-rather-long-model-name-v{k}" for k in range(12)]
    scores = pd.DataFrame(rng.normal(0, 1, (40, 12)) + np.linspace(0, 1, 12), columns=names)
    scores.iloc[:5, 3] = np.nan  # incomplete: the adjusted mean and the instance counts join the table
    return compare.compare(scores, rng=0, n_resamples=20, n_resamples_sequential=4, n_orders=2)


def test_terminal_view_fits_100_columns_with_long_names(long_names):
    stream = io.StringIO()
    report.print_report(long_names, "text", stream)
    lines = stream.getvalue().splitlines()
    assert max(map(len, lines)) <= 100
    assert lines[0].startswith("12 systems x 40 instances; INCOMPLETE")


@pytest.mark.parametrize("fmt, marker", [("markdown", "| system"), ("csv", "system,BT,"), ("latex", "\\begin{table}")])
def test_tables_as_markdown_csv_and_latex_keep_full_names(long_names, fmt, marker):
    stream = io.StringIO()
    report.print_report(long_names, fmt, stream)
    text = stream.getvalue()
    assert marker in text and "organisation-11/a-rather-long-model-name-v11" in text


def test_cli_format_option(tmp_path, capsys):
    path = tmp_path / "w.csv"
    WIDE.to_csv(path, index=False)
    code, out, _ = _run(capsys, path, "--format", "markdown")
    assert code == 0 and out.startswith("### systems")
    assert "--format must be one of" in _error(capsys, path, "--format", "html")


def test_parallel_replays_equal_one_replay_at_a_time_and_repeat_exactly():
    rng = np.random.default_rng(3)
    values = rng.integers(0, 3, (30, 4)).astype(float)
    values[rng.random(values.shape) < 0.1] = np.nan
    rows = rng.integers(0, 30, (11, 30))
    for name in ("elo", "trueskill"):
        batch = sequential.replay_scores(values, name, rows, np.random.default_rng(9), "half")
        again = sequential.replay_scores(values, name, rows, np.random.default_rng(9), "half")
        assert batch.tobytes() == again.tobytes()
        gen = np.random.default_rng(9)
        i, j = np.triu_indices(4, 1)
        for start in range(0, 11, sequential.BATCH):
            part = rows[start:start + sequential.BATCH]
            perms = [gen.permutation(len(i)) for _ in part]
            orders = [gen.permutation(r) for r in part]
            rotation = gen.integers(0, len(i), size=(len(part), 30))
            for k in range(len(part)):
                one, ok = sequential.scores_kernel(values, orders[k].astype(np.int64), i[perms[k]], j[perms[k]],
                                                   rotation[k].astype(np.int64), *sequential._params(name), 0)
                assert ok and one.tobytes() == batch[start + k].tobytes()


# --- judgments counted once into cells (issue 41, item 1) ------------------------------------------------------------

@pytest.mark.parametrize("weights", [False, True])
def test_judgment_cells_hold_every_judgment_once(weights):
    """The cells' wins equal the judgments' (every judgment in exactly one cell, with its weight); a judgment's cell
    has its systems, outcome and weight; the jackknife's leave-a-group-out counts equal the judgments' groups."""
    from analysis.compare import evidence, intervals
    from analysis.comparisons import from_judgments

    games = _games(3, m=400, weights=weights)
    c = from_judgments(games["left"], games["right"], games["winner"], games["weight"])
    cells, count, cell_of = judgments.judgment_cells(c)
    assert count.sum() == len(c) and len(cells) == len(count) <= 3 * len(c.systems) ** 2 * (4 if weights else 1)
    for field in ("left", "right", "outcome", "weight"):
        np.testing.assert_array_equal(getattr(cells, field)[cell_of], getattr(c, field))
    per_judgment = evidence.credit_matrix(c, "half")
    np.testing.assert_allclose(count @ evidence.credit_matrix(cells, "half"), np.asarray(per_judgment.sum(axis=0))[0])
    keep = intervals.jackknife_groups(len(c))
    by_cell = np.zeros((len(keep), len(count)))
    np.add.at(by_cell, (slice(None), cell_of), keep)
    np.testing.assert_array_equal(judgments._jackknife_cells(count, cell_of), by_cell)


def test_the_cell_bootstrap_has_the_judgment_bootstraps_distribution():
    """A multinomial draw over cells is a resample of the judgments counted per cell: BT's bootstrap mean and spread
    from 4,000 cell draws equal those from 4,000 judgment resamples to Monte-Carlo error."""
    from analysis.compare import evidence, intervals
    from analysis.comparisons import from_judgments

    games = _games(4, m=300)
    c = from_judgments(games["left"], games["right"], games["winner"], games["weight"])
    cells, count, _ = judgments.judgment_cells(c)
    s = len(c.systems)
    by_cell = np.vstack([intervals.bt_strengths(intervals.bt_stack(evidence.credit_matrix(cells, "half"), w, s))
                         for _, w in judgments.cell_blocks(np.random.default_rng(0), count, 4000, s)])
    idx = np.random.default_rng(1).integers(0, len(c), size=(4000, len(c)))
    by_judgment = intervals.bt_strengths(intervals.bt_stack(evidence.credit_matrix(c, "half"),
                                                            intervals.counts(idx, len(c)), s))
    sd = by_judgment.std(axis=0)
    np.testing.assert_allclose(by_cell.mean(axis=0), by_judgment.mean(axis=0), atol=4 * sd.max() / np.sqrt(2000))
    np.testing.assert_allclose(by_cell.std(axis=0), sd, rtol=0.08)


def test_judgments_as_categoricals_equal_judgments_as_text():
    """The reader's categorical names (codes, not strings per row) give the same comparisons as plain text names,
    also with categories no judgment uses."""
    from analysis.comparisons import from_judgments

    games = _games(6, m=500, weights=True)
    as_text = from_judgments(games["left"], games["right"], games["winner"], games["weight"])
    left = games["left"].astype(pd.CategoricalDtype(sorted(set(games["left"])) + ["unused"]))
    as_codes = from_judgments(left, games["right"].astype("category"), games["winner"], games["weight"])
    assert as_codes.systems == as_text.systems
    for field in ("left", "right", "outcome", "weight", "unit"):
        np.testing.assert_array_equal(getattr(as_codes, field), getattr(as_text, field))
