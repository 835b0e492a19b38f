"""Chapter 00 (analysis.chapters.why_pairing): what each paper item's helper computes."""

import numpy as np

from analysis.chapters import why_pairing


def test_fig1_construction_has_every_stated_property():
    scores = why_pairing.fig1_scores()
    checks = why_pairing.fig1_checks(scores, why_pairing.fig1_aggregates(scores))
    assert all(checks.values()), checks
    broken = scores.assign(C=scores["C"] + 1)
    assert not all(why_pairing.fig1_checks(broken, why_pairing.fig1_aggregates(broken)).values())


def test_fixed_marginal_pairings_keep_the_marginals_and_change_the_pairing():
    strengths = why_pairing.table2_strengths()
    assert strengths.loc["S"].tolist() == [23, 50, 40, 70, 60] and strengths.loc["B"].tolist() == [28, 45, 30, 65, 50]
    pairings = why_pairing.fixed_marginal_pairings(strengths, 50, rng=0)
    summary = why_pairing.pairings_summary(pairings).iloc[0]
    assert summary["permutations"] == 120
    assert summary["distinct mean S - mean B"] == 1 and summary["distinct median S - median B"] == 1
    assert summary["min P(S > B)"] < 0.5 < summary["max P(S > B)"]
    identity = pairings.set_index("permutation of S").loc["1 2 3 4 5"]
    assert identity["types won by S"] == 4 and identity["P(S > B)"] > 0.5


def test_fig2_pairings_share_their_marginals():
    pairings = why_pairing.fig2_pairings(400, rng=1)
    summary = why_pairing.fig2_summary(pairings)
    assert summary["mean B"].nunique() == 1 and summary["median A"].nunique() == 1
    assert (summary["MEAN prefers"] == "B").all() and summary.loc["shifted pairing", "BT prefers"] == "A"


def test_prop1_bt_is_always_the_sign_of_wins_minus_losses():
    setups = why_pairing.prop1_setups(80, rng=2)
    summary = why_pairing.prop1_summary(setups)
    assert list(summary.index) == list(why_pairing.PROP1_KINDS) and summary["setups"].sum() == 80
    assert (summary["BT = sign(wins - losses)"] == 1.0).all()
    assert summary.loc["continuous, odd n", "BT = sign(median of differences)"] == 1.0


def test_appendix_f_cyclic_third_system_equalises_all_strengths():
    table = why_pairing.appendix_f_table()
    cyclic = table[(table.systems == "A, B, C cyclic")]
    np.testing.assert_allclose(cyclic[["A", "B", "C"]].to_numpy(), 1 / 3, atol=1e-6)
    alone = table[table.systems == "A, B"]
    np.testing.assert_allclose(alone["B"], 2 / 3, atol=1e-6)
