"""Chapter 00 (analysis.chapters.why_pairing): what each paper item's helper computes."""

import numpy as np
import pandas as pd

from analysis.chapters import why_pairing as ch


def test_fig1_authors_scores_bear_out_the_caption_and_section_1_not_section_3():
    """The authors' notebook's scores (Intuition.ipynb, cell 5): equal means; C and B each beat A on four of five
    instances; medians A 11, B 7, C 11, so §3's "10 vs. 7", "B outperforms C" and "A and B equivalent for MEDIAN"
    fail."""
    scores = ch.fig1_scores()
    assert scores["A"].tolist() == [1, 5, 11, 12, 17] and scores["C"].tolist() == [5, 11, 12, 17, 1]
    checks = ch.fig1_checks(scores, ch.fig1_aggregates(scores))
    assert list(checks.columns) == ["where", "key", "detail", "holds"] and len(checks) == 15
    held = checks.set_index(["where", "detail"]).holds
    assert held["caption"].all() and held["§1"].all(), checks
    assert held["§3"].to_dict() == {"C beats A on all instances but one": True,
                                    "median of A above median of C (10 vs. 7)": False,
                                    "B beats C on all instances but one": False,
                                    "A and B equal for MEAN and MEDIAN": False}
    assert dict(zip(checks["where"], checks["key"])) == {"caption": "fig1", "§1": "fig1-intro", "§3": "fig1-section3",
                                                         "§3, notebook's names": "fig1-section3-notebook-names"}
    # §3 uses the notebook's names (B = y_b, C = y_c, the legend's C and B): then every statement holds but the
    # medians "10 vs. 7" (A's median is 11)
    assert held["§3, notebook's names"].to_dict() == {"C beats A on all instances but one": True,
                                                      "median of A above median of C (10 vs. 7)": False,
                                                      "B beats C on all instances but one": True,
                                                      "A and B equal for MEAN and MEDIAN": True}
    assert ch.notebook_names(scores)["B"].tolist() == [5, 11, 12, 17, 1]
    broken = scores.assign(C=scores["C"] + 1)  # C's mean moves
    broken_checks = ch.fig1_checks(broken, ch.fig1_aggregates(broken))
    assert not broken_checks[broken_checks["where"] == "caption"].holds.all()


def test_fixed_marginal_pairings_keep_the_marginals_and_change_the_pairing():
    strengths = ch.table2_strengths()
    assert strengths.loc["S"].tolist() == [23, 50, 40, 70, 60] and strengths.loc["B"].tolist() == [28, 45, 30, 65, 50]
    pairings = ch.fixed_marginal_pairings(strengths, 50, rng=0)
    summary = ch.pairings_summary(pairings).iloc[0]
    assert summary["permutations"] == 120
    assert summary["distinct mean S - mean B"] == 1 and summary["distinct median S - median B"] == 1
    assert summary["min P(S > B)"] < 0.5 < summary["max P(S > B)"]
    identity = pairings.set_index("permutation of S").loc["1 2 3 4 5"]
    assert identity["types won by S"] == 4 and identity["P(S > B)"] > 0.5


def test_fig2_pairings_share_their_marginals():
    pairings = ch.fig2_pairings(400, rng=1)
    summary = ch.fig2_summary(pairings)
    assert summary["mean B"].nunique() == 1 and summary["median A"].nunique() == 1
    assert (summary["MEAN prefers"] == "B").all() and summary.loc["shifted pairing", "BT prefers"] == "A"
    # the caption's criteria, with A on the x-axis: means meeting above the diagonal is B's mean above A's, which the
    # caption reads as "MEAN predicts that A is better"; more mass upper-left (B above A), as "BT predicts A": both
    # opposite to the decisions (and to §3's body text), in every pairing
    checks = ch.fig2_caption_checks(summary)
    assert len(checks) == 6 and {k for k, *_ in checks} == {"fig2-caption-criteria"}
    assert not any(holds for *_, holds in checks)
    assert checks[0][1].startswith("(i) sorted pairing: means meet above the diagonal, caption: MEAN prefers A")


def test_prop1_bt_is_always_the_sign_of_wins_minus_losses():
    setups = ch.prop1_setups(80, rng=2)
    summary = ch.prop1_summary(setups)
    assert list(summary.index) == list(ch.PROP1_KINDS) and summary["setups"].sum() == 80
    assert (summary["BT = sign(wins - losses)"] == 1.0).all()
    assert summary.loc["continuous, odd n", "BT = sign(median of differences)"] == 1.0


def test_appendix_f_cyclic_third_system_equalises_all_strengths():
    table = ch.appendix_f_table()
    cyclic = table[(table.systems == "A, B, C cyclic")]
    np.testing.assert_allclose(cyclic[["A", "B", "C"]].to_numpy(), 1 / 3, atol=1e-6)
    alone = table[table.systems == "A, B"]
    np.testing.assert_allclose(alone["B"], 2 / 3, atol=1e-6)


# --- the tables as the page shows them, and the claim values ----------------------------------------------------------

def test_ranking_marks_ties_and_order():
    assert ch.ranking(pd.Series({"A": 1.0, "B": 3.0, "C": 2.0})) == "B > C > A"
    assert ch.ranking(pd.Series({"A": 10.0, "B": 10.0, "C": 7.0})) == "A = B > C"


def test_prop1_non_implications_count_the_setups_that_separate_each_pair():
    setups = pd.DataFrame({"mean sign": [1, 1, -1], "median sign": [1, -1, 1], "median(A-B) sign": [1, 0, -1]})
    table = ch.prop1_non_implications(setups).set_index(["condition", "without"]).setups
    assert table[("MEAN", "MEDIAN")] == 1 and table[("MEDIAN", "MEAN")] == 1
    assert table[("BT (median of differences)", "MEAN")] == 0 and table[("MEAN", "BT (median of differences)")] == 1


def test_appendix_f_strengths_and_claim_values():
    table = ch.appendix_f_table()
    alone = table[table.systems == "A, B"]
    assert np.allclose(alone["B"], 2 / 3)
    assert np.allclose(table[table.systems == "A, B, C cyclic"][["A", "B", "C"]], 1 / 3)
    pairings = ch.fixed_marginal_pairings(ch.table2_strengths(), 50, rng=0)
    values = ch.claim_values(ch.pairings_summary(pairings), ch.fig2_summary(ch.fig2_pairings(400, rng=1)),
                             ch.prop1_non_implications(ch.prop1_setups(80, rng=2)), table)
    assert list(values.columns) == ["key", "detail", "value", "holds"]
    held = values.dropna(subset=["holds"]).set_index(["key", "detail"]).holds
    assert held["appA1"].all() and held["fig2"].all()
    assert list(values.key.unique()) == ["appA1", "fig2", "fig2-caption-criteria", "prop1-no-implication",
                                        "appF-printed-spread"]
    assert not held["fig2-caption-criteria"].any()
    spread = values[values.key == "appF-printed-spread"].value
    assert len(spread) == 3 and (spread > 0.1).all()


# --- figures for the page: legible in the book's text column -----------------------------------------------------

from tests.helpers import page_check as _legibility  # noqa: E402


def test_fig1_and_fig2_fit_the_text_column():
    from analysis.plotting import CONTENT_PX

    scores = ch.fig1_scores()
    problems, width = _legibility(ch.plot_fig1(scores, ch.fig1_aggregates(scores)))
    assert problems == [] and width < 1.7 * CONTENT_PX
    pairings = ch.fig2_pairings(200, rng=1)
    problems, width = _legibility(ch.plot_fig2(pairings, ch.fig2_summary(pairings)))
    assert problems == [] and width < 1.7 * CONTENT_PX

