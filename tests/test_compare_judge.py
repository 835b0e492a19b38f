"""An automatic judge against human judgments on the same items (issue 41, item 3): ``compare JUDGE --human HUMAN``
with two judgment files, the Favi-Score per pair checked against an independent Lemma-1 computation, and the hostile
cases of this input path."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis import favi
from analysis.__main__ import main

FAST = ["--n-resamples", "200", "--n-resamples-sequential", "2"]
SYSTEMS = ["alpha", "beta", "gamma", "delta"]


def _verdicts(seed=0, items=150, flip=0.25, favour="alpha"):
    """Human verdicts on random pairs per item, and a judge that copies them but, with probability ``flip``, replaces a
    verdict against ``favour`` by a tie or a win for it (favoritism by construction)."""
    rng = np.random.default_rng(seed)
    rows = []
    for item in range(items):
        for a, b in [tuple(rng.choice(SYSTEMS, 2, replace=False)) for _ in range(2)]:
            human = rng.choice(["model_a", "model_b", "tie"], p=[0.4, 0.4, 0.2])
            judge = human
            loser_is_favoured = (human == "model_b" and a == favour) or (human == "model_a" and b == favour)
            if loser_is_favoured and rng.random() < flip:
                judge = "tie" if rng.random() < 0.5 else ("model_a" if a == favour else "model_b")
            elif rng.random() < 0.1:
                judge = rng.choice(["model_a", "model_b", "tie"])
            rows.append((f"q{item}", a, b, human, judge))
    frame = pd.DataFrame(rows, columns=["question_id", "model_a", "model_b", "human", "judge"])
    pair = frame[["model_a", "model_b"]].apply(lambda r: "|".join(sorted(r)), axis=1)
    return frame[~pd.DataFrame({"q": frame["question_id"], "p": pair}).duplicated()].reset_index(drop=True)


def _files(tmp_path, frame):
    judge, human = tmp_path / "judge.csv", tmp_path / "human.csv"
    frame.rename(columns={"judge": "winner"}).drop(columns="human").to_csv(judge, index=False)
    # the humans list the pair the other way round on odd rows: matching is by (item, unordered pair)
    h = frame.rename(columns={"human": "winner"}).drop(columns="judge").copy()
    odd = np.arange(len(h)) % 2 == 1
    h.loc[odd, ["model_a", "model_b"]] = h.loc[odd, ["model_b", "model_a"]].to_numpy()
    h.loc[odd, "winner"] = h.loc[odd, "winner"].map({"model_a": "model_b", "model_b": "model_a", "tie": "tie"})
    h.to_csv(human, index=False)
    return judge, human


def _lemma1(frame) -> dict:
    """Φ per pair by Lemma 1, Φ = (mar(d̂) − mar(d)) / E, counted directly from the verdicts (pair a < b)."""
    out = {}
    sign = {"model_a": 1, "model_b": -1, "tie": 0}
    for (a, b), rows in frame.groupby(frame.apply(lambda r: tuple(sorted((r.model_a, r.model_b))), axis=1)):
        o = np.where(rows["model_a"] == a, 1, -1)
        h = rows["human"].map(sign).to_numpy() * o
        j = rows["judge"].map(sign).to_numpy() * o
        errors = int((h != j).sum())
        mar = lambda x: int((x == 1).sum() - (x == -1).sum())  # noqa: E731
        out[(a, b)] = (mar(j) - mar(h)) / errors if errors else np.nan
    return out


def test_judge_against_humans_equals_lemma_1(tmp_path, capsys):
    frame = _verdicts()
    judge, human = _files(tmp_path, frame)
    out = tmp_path / "r.json"
    code = main(["compare", str(judge), "--human", str(human), "--json", str(out), *FAST])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    payload = json.loads(out.read_text())
    table = pd.DataFrame(payload["human"]["data"], columns=payload["human"]["columns"])
    expected = _lemma1(frame)
    assert len(table) == len(expected)
    for row in table.itertuples():
        np.testing.assert_allclose(row.favi, expected[(row.system_a, row.system_b)], atol=1e-12)
        assert row.favi_low <= row.favi <= row.favi_high or not np.isfinite(row.favi)
    favoured = table[(table.system_a == "alpha") | (table.system_b == "alpha")]
    signs = np.where(favoured.system_a == "alpha", 1, -1) * favoured.favi
    assert (signs > 0).all()  # the judge built to favour alpha is found to favour it against every opponent
    summary = payload["settings"]["human"]
    assert summary["judge_only"] == summary["human_only"] == 0 and summary["items"] == len(frame)
    assert "Favi-Score" in captured.out


def test_pair_intervals_match_a_brute_force_bootstrap_of_items():
    """The multinomial draw over a pair's nine cells has the distribution of resampling its items: the interval ends
    agree with a loop that resamples items and recomputes Φ, to Monte-Carlo error."""
    rng = np.random.default_rng(2)
    h = rng.choice([-1, 0, 1], 120)
    m = np.where(rng.random(120) < 0.7, h, rng.choice([-1, 0, 1], 120))
    table = favi.pair_intervals(favi.preference_table(["x"] * 120, ["y"] * 120, h, m), n_resamples=4000, rng=0)
    loop = []
    for _ in range(4000):
        k = rng.integers(0, 120, 120)
        loop.append(favi.favi(h[k], m[k]).favi)
    low, high = np.nanpercentile(loop, [2.5, 97.5])
    assert abs(table["low"].iloc[0] - low) < 0.05 and abs(table["high"].iloc[0] - high) < 0.05
    assert 0 < table["p_value"].iloc[0] <= 1


@pytest.mark.parametrize("case, message", [
    ("no-item-column", "needs one column naming the items"),
    ("two-item-columns", "several"),
    ("human-is-scores", "not with scores"),
    ("no-shared-item", "share no (item, pair of systems)"),
    ("judged-twice", "more than once"),
    ("empty-item", "empty item ids"),
])
def test_judge_against_humans_hostile_cases(tmp_path, capsys, case, message):
    frame = _verdicts(items=30)
    judge, human = _files(tmp_path, frame)
    if case == "no-item-column":
        pd.read_csv(human).drop(columns="question_id").to_csv(human, index=False)
    elif case == "two-item-columns":
        pd.read_csv(human).assign(item_id=1).to_csv(human, index=False)
    elif case == "human-is-scores":
        pd.DataFrame({"alpha": [1.0, 2.0], "beta": [2.0, 1.0]}).to_csv(human, index=False)
    elif case == "no-shared-item":
        pd.read_csv(human).assign(question_id=lambda f: "other-" + f["question_id"]).to_csv(human, index=False)
    elif case == "judged-twice":
        h = pd.read_csv(human)
        pd.concat([h, h.iloc[:1]]).to_csv(human, index=False)
    else:
        h = pd.read_csv(human)
        h.loc[3, "question_id"] = ""
        h.to_csv(human, index=False)
    code = main(["compare", str(judge), "--human", str(human), *FAST])
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("error:")]
    assert code == 2 and len(lines) == 1 and message in lines[0], err


def test_items_the_humans_lack_are_counted_not_guessed(tmp_path, capsys):
    frame = _verdicts(items=60)
    judge, human = _files(tmp_path, frame)
    h = pd.read_csv(human)
    h.iloc[: len(h) // 2].to_csv(human, index=False)
    out = tmp_path / "r.json"
    assert main(["compare", str(judge), "--human", str(human), "--json", str(out), *FAST]) == 0
    summary = json.loads(out.read_text())["settings"]["human"]
    assert summary["judge_only"] == len(frame) - len(h) // 2 and summary["items"] == len(h) // 2
    assert "have no counterpart" in capsys.readouterr().out
