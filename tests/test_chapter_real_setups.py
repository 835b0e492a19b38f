"""Real-setup analyses: per-setup disagreement rows, significance agreement and the App. F IIA search."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from analysis import aggregate, agreement
from analysis.agreement import compare_aggregators
from analysis.chapters import real_setups as realsetups
from tests.helpers import random_scores


def _long(matrix: pd.DataFrame, collection="C", dataset="d", metric="m") -> pd.DataFrame:
    out = matrix.rename_axis(index="instance", columns="system").stack().rename("score").reset_index()
    return out.assign(collection=collection, dataset=dataset, metric=metric)


def test_iter_setups_restores_matrices_in_source_order():
    rng = np.random.default_rng(0)
    a = random_scores(rng, 7, 4)[["sys3", "sys0", "sys2", "sys1"]]
    b = random_scores(rng, 5, 3)
    table = pd.concat([_long(a, metric="x"), _long(b, metric="y")], ignore_index=True)
    got = dict(realsetups.iter_setups(table))
    pd.testing.assert_frame_equal(got[("C", "d", "x")], a.rename_axis(index=None, columns=None), check_names=False)
    assert list(got[("C", "d", "y")].columns) == list(b.columns)
    with pytest.raises(ValueError, match="not a complete score matrix"):
        list(realsetups.iter_setups(table.iloc[1:]))
    with pytest.raises(ValueError, match="lacks columns"):
        list(realsetups.iter_setups(table.drop(columns="score")))


def test_disagreement_rows_have_the_issue_columns_in_order():
    rng = np.random.default_rng(1)
    setups = [(("C", "d", f"m{i}"), random_scores(rng, 20, 5, levels=3)) for i in range(3)]
    rows = realsetups.disagreement_rows(setups, "loss")
    pairs = agreement.mechanism_pairs(realsetups.MECHANISMS)
    assert pairs[:2] == [("mean", "median"), ("mean", "bt")] and pairs[-1] == ("elo", "trueskill") and len(pairs) == 10
    expected = ["collection", "dataset", "metric", "n_instances", "n_systems"] + [
        agreement.measure_column(p, m) for p in pairs for m in ("disagree", "top1", "top3")] + ["bt_degenerate"]
    assert list(rows.columns) == expected
    direct = compare_aggregators(setups[0][1], realsetups.aggregators("loss"))
    assert rows.iloc[0][expected[3:-1]].astype(float).equals(direct[expected[3:-1]].astype(float))


def test_tie_policies_differ_only_where_ties_exist():
    rng = np.random.default_rng(2)
    continuous = [(("C", "d", "m"), random_scores(rng, 30, 6))]
    loss = realsetups.disagreement_rows(continuous, "loss")
    half = realsetups.disagreement_rows(continuous, "half")
    pd.testing.assert_frame_equal(loss, half)
    with pytest.raises(ValueError, match="unknown tie policy"):
        realsetups.aggregators("draw")


def test_summarise_is_the_unweighted_mean_over_setups():
    per_setup = pd.DataFrame({"a_b_disagree": [0.1, 0.3, np.nan], "a_b_top1": [0.0, 1.0, 1.0], "a_b_top3": [1.0, 1.0, 0.0]})
    out = realsetups.summarise(per_setup, [("a", "b")], rng=0, n_resamples=200).loc["a_b"]
    assert out.disagree == pytest.approx(0.2) and out.top1 == pytest.approx(2 / 3)
    assert out.disagree_low <= out.disagree <= out.disagree_high


def test_agreement_matrix_by_hand():
    sig = pd.DataFrame({"x": [True, True, False, False], "y": [True, False, True, False]})
    m = agreement.agreement_matrix(sig)
    assert m.loc["x", "x"] == 0.5 and m.loc["x", "y"] == 0.5 and m.loc["y", "x"] == 0.5


def test_significance_agreement_counts_pairs():
    rng = np.random.default_rng(3)
    setups = [(("C", "d", "m"), random_scores(rng, 40, 6))]
    per_pair, matrix = realsetups.significance_agreement(setups, rng=0, max_pairs=7)
    assert len(per_pair) == 7 and list(matrix.index) == ["t-test", "Mood", "sign", "Wilcoxon"]
    all_pairs, _ = realsetups.significance_agreement(setups, rng=0, max_pairs=None)
    assert len(all_pairs) == 15


def test_paper_appendix_f_example_becomes_a_tie():
    m = pd.DataFrame({"A": [1, 2, 3], "B": [2, 3, 1], "C": [3, 1, 2]}, dtype=float)
    found = agreement.iia_violations(m)
    assert len(found) == 3 and set(found.kind) == {"tied"}
    ab = found[(found.a == "A") & (found.b == "B")].iloc[0]
    assert ab.alone == "b" and ab.with_c == "tie" and ab.winner_share == pytest.approx(2 / 3)


@pytest.mark.parametrize("seed, n_instances", [(0, 12), (1, 12), (2, 30), (3, 5), (4, 4)])
def test_iia_search_equals_brute_force_bt_fits(seed, n_instances):
    rng = np.random.default_rng(seed)
    m = random_scores(rng, n_instances, 6, levels=4)
    found = agreement.iia_violations(m)
    expected = set()
    for trio in combinations(m.columns, 3):
        s = aggregate.bradley_terry(m[list(trio)], ties="half", tol=1e-20)
        for a, b in combinations(trio, 2):
            c = next(x for x in trio if x not in (a, b))
            wins = (m[a] > m[b]).sum() + 0.5 * (m[a] == m[b]).sum()
            alone = np.sign(wins - (len(m) - wins))
            together = 0.0 if abs(s[a] - s[b]) <= 1e-7 * (s[a] + s[b]) else np.sign(s[a] - s[b])
            if alone != 0 and together != alone:
                expected.add((a, b, c))
    assert set(zip(found.a, found.b, found.c)) == expected


def test_subsample_keeps_order_and_checks_size():
    m = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10.0)[::-1]})
    sub = realsetups.subsample(m, 4, rng=0)
    assert len(sub) == 4 and sub["a"].is_monotonic_increasing
    with pytest.raises(ValueError, match="cannot draw"):
        realsetups.subsample(m, 11, rng=0)
