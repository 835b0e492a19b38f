"""Chapter 00 (analysis.chapters.why_pairing): what each paper item's helper computes."""

import numpy as np

from analysis.chapters.why_pairing import experiments, figures, text


def test_fig1_authors_scores_bear_out_the_caption_and_section_1_not_section_3():
    """The authors' notebook's scores (Intuition.ipynb, cell 5): equal means; C and B each beat A on four of five
    instances; medians A 11, B 7, C 11, so §3's "10 vs. 7", "B outperforms C" and "A and B equivalent for MEDIAN"
    fail."""
    scores = experiments.fig1_scores()
    assert scores["A"].tolist() == [1, 5, 11, 12, 17] and scores["C"].tolist() == [5, 11, 12, 17, 1]
    checks = experiments.fig1_checks(scores, experiments.fig1_aggregates(scores))
    assert all(checks["caption"].values()) and all(checks["§1"].values()), checks
    assert checks["§3"] == {"C beats A on all instances but one": True, "median of A above median of C (10 vs. 7)": False,
                            "B beats C on all instances but one": False, "A and B equal for MEAN and MEDIAN": False}
    broken = scores.assign(C=scores["C"] + 1)  # C's mean moves
    assert not all(experiments.fig1_checks(broken, experiments.fig1_aggregates(broken))["caption"].values())
    table = text.fig1_statements_table(checks)
    assert list(table.columns) == ["where", "statement", "holds"] and len(table) == 11


def test_fixed_marginal_pairings_keep_the_marginals_and_change_the_pairing():
    strengths = experiments.table2_strengths()
    assert strengths.loc["S"].tolist() == [23, 50, 40, 70, 60] and strengths.loc["B"].tolist() == [28, 45, 30, 65, 50]
    pairings = experiments.fixed_marginal_pairings(strengths, 50, rng=0)
    summary = experiments.pairings_summary(pairings).iloc[0]
    assert summary["permutations"] == 120
    assert summary["distinct mean S - mean B"] == 1 and summary["distinct median S - median B"] == 1
    assert summary["min P(S > B)"] < 0.5 < summary["max P(S > B)"]
    identity = pairings.set_index("permutation of S").loc["1 2 3 4 5"]
    assert identity["types won by S"] == 4 and identity["P(S > B)"] > 0.5


def test_fig2_pairings_share_their_marginals():
    pairings = experiments.fig2_pairings(400, rng=1)
    summary = experiments.fig2_summary(pairings)
    assert summary["mean B"].nunique() == 1 and summary["median A"].nunique() == 1
    assert (summary["MEAN prefers"] == "B").all() and summary.loc["shifted pairing", "BT prefers"] == "A"


def test_prop1_bt_is_always_the_sign_of_wins_minus_losses():
    setups = experiments.prop1_setups(80, rng=2)
    summary = experiments.prop1_summary(setups)
    assert list(summary.index) == list(experiments.PROP1_KINDS) and summary["setups"].sum() == 80
    assert (summary["BT = sign(wins - losses)"] == 1.0).all()
    assert summary.loc["continuous, odd n", "BT = sign(median of differences)"] == 1.0


def test_appendix_f_cyclic_third_system_equalises_all_strengths():
    table = experiments.appendix_f_table()
    cyclic = table[(table.systems == "A, B, C cyclic")]
    np.testing.assert_allclose(cyclic[["A", "B", "C"]].to_numpy(), 1 / 3, atol=1e-6)
    alone = table[table.systems == "A, B"]
    np.testing.assert_allclose(alone["B"], 2 / 3, atol=1e-6)


# --- the tables as the page shows them, and the claim values ----------------------------------------------------------

def test_ranking_marks_ties_and_order():
    import pandas as pd

    assert text.ranking(pd.Series({"A": 1.0, "B": 3.0, "C": 2.0})) == "B > C > A"
    assert text.ranking(pd.Series({"A": 10.0, "B": 10.0, "C": 7.0})) == "A = B > C"


def test_prop1_non_implications_count_the_setups_that_separate_each_pair():
    import pandas as pd

    setups = pd.DataFrame({"mean sign": [1, 1, -1], "median sign": [1, -1, 1], "median(A-B) sign": [1, 0, -1]})
    table = text.prop1_non_implications(setups).set_index(["condition", "without"]).setups
    assert table[("MEAN", "MEDIAN")] == 1 and table[("MEDIAN", "MEAN")] == 1
    assert table[("BT (median of differences)", "MEAN")] == 0 and table[("MEAN", "BT (median of differences)")] == 1


def test_appendix_f_strengths_and_claim_values():
    table = experiments.appendix_f_table()
    alone = table[table.systems == "A, B"]
    assert np.allclose(alone["B"], 2 / 3) and np.allclose(table[table.systems == "A, B, C cyclic"][["A", "B", "C"]], 1 / 3)
    scores = experiments.fig1_scores()
    pairings = experiments.fixed_marginal_pairings(experiments.table2_strengths(), 50, rng=0)
    values = text.claim_values(
        fig1_checks=experiments.fig1_checks(scores, experiments.fig1_aggregates(scores)),
        pairings_summary=experiments.pairings_summary(pairings),
        fig2_summary=experiments.fig2_summary(experiments.fig2_pairings(400, rng=1)),
        prop1_setups=experiments.prop1_setups(80, rng=2), appendix_f=table)
    assert list(values.columns) == ["key", "detail", "value", "holds"]
    held = values.dropna(subset=["holds"]).set_index(["key", "detail"]).holds
    assert held["fig1"].all() and held["fig1-intro"].all() and held["appA1"].all() and held["fig2"].all()
    assert not held["fig1-section3"].all()  # §3 describes another example than the authors' scores
    spread = values[values.key == "appF-printed-spread"].value
    assert len(spread) == 3 and (spread > 0.1).all()


# --- figures for the page: legible in the book's text column -----------------------------------------------------

from tests.helpers import page_check as _legibility  # noqa: E402


def test_fig1_and_fig2_fit_the_text_column():
    from analysis.plotting import CONTENT_PX

    scores = experiments.fig1_scores()
    problems, width = _legibility(figures.plot_fig1(scores, experiments.fig1_aggregates(scores)))
    assert problems == [] and width < 1.7 * CONTENT_PX
    pairings = experiments.fig2_pairings(200, rng=1)
    problems, width = _legibility(figures.plot_fig2(pairings, experiments.fig2_summary(pairings)))
    assert problems == [] and width < 1.7 * CONTENT_PX


def test_appendix_f_is_shown_with_its_tie_policies_in_words():
    shown = text.appendix_f_display(experiments.appendix_f_table())
    assert "ties" not in shown.columns and set(shown["tie policy"]) == set(text.TIE_POLICIES.values())
