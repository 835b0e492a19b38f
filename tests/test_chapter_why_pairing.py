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


# --- the page's sentences branch on the numbers, and the claim values ------------------------------------------------

def test_ranking_marks_ties_and_order():
    import pandas as pd

    assert why_pairing.ranking(pd.Series({"A": 1.0, "B": 3.0, "C": 2.0})) == "B > C > A"
    assert why_pairing.ranking(pd.Series({"A": 10.0, "B": 10.0, "C": 7.0})) == "A = B > C"


def test_fig1_text_names_the_disagreement_only_when_there_is_one():
    scores = why_pairing.fig1_scores()
    aggregates = why_pairing.fig1_aggregates(scores)
    text = why_pairing.fig1_text(scores, aggregates)
    assert "MEDIAN and BT disagree on *A* versus *C*" in text and "BT can: B > A" in text
    shifted = scores.assign(B=scores["A"] + 1, C=scores["A"] + 2)  # every mechanism: C > B > A
    text = why_pairing.fig1_text(shifted, why_pairing.fig1_aggregates(shifted))
    assert "disagree" not in text and "cannot tell" not in text and "MEAN: C > B > A" in text


def test_pairings_text_follows_the_summary():
    pairings = why_pairing.fixed_marginal_pairings(why_pairing.table2_strengths(), 50, rng=0)
    summary = why_pairing.pairings_summary(pairings)
    text = why_pairing.pairings_text(pairings, summary)
    assert text.startswith("All 120 pairings share one mean difference") and "in favour of *S*" in text
    assert "stronger system on 4 of 5 types" in text
    moved = summary.assign(**{"distinct mean S - mean B": 3})
    assert why_pairing.pairings_text(pairings, moved).startswith("The 120 pairings have 3 distinct mean differences")


def test_fig2_text_says_where_bt_departs():
    summary = why_pairing.fig2_summary(why_pairing.fig2_pairings(400, rng=1))
    text = why_pairing.fig2_text(summary)
    assert "share their means and medians; MEAN and MEDIAN prefer *B* in all of them" in text
    assert "Shifted pairing: P(B > A) = 0.30, BT prefers *A* and departs" in text
    assert "Sorted pairing: P(B > A) = 1.00, BT prefers *B* and agrees" in text
    changed = summary.assign(**{"mean A": [0.1, 0.2, 0.3]})
    assert why_pairing.fig2_text(changed).startswith("The pairings' means and medians differ")


def test_prop1_text_states_the_caveats_only_when_a_kind_departs():
    import pandas as pd

    summary = why_pairing.prop1_summary(why_pairing.prop1_setups(80, rng=2))
    text = why_pairing.prop1_text(summary)
    assert "in every setup." in text.split(".")[0] + "." and "continuous, odd n, in every setup" in text
    assert "Where it does not" in text  # even n and discrete ratings depart at this size
    exact = summary.assign(**{"BT = sign(median of differences)": 1.0})
    assert "Where it does not" not in why_pairing.prop1_text(exact)
    worse = summary.assign(**{"BT = sign(wins - losses)": pd.Series([1.0, 0.5, 1.0, 1.0], index=summary.index)})
    assert "in 50% of setups at worst (continuous, even n)" in why_pairing.prop1_text(worse)


def test_prop1_text_splits_the_disagreements_into_bt_ties_and_decisive_bt_as_the_setups_do():
    """The shares the sentence gives, recounted setup by setup: a disagreement is a BT tie iff wins = losses."""
    setups = why_pairing.prop1_setups(400, rng=2)
    text = why_pairing.prop1_text(why_pairing.prop1_summary(setups))
    for kind, rows in setups.groupby("kind", sort=False):
        off = rows[rows["BT sign"] != rows["median(A-B) sign"]]
        if off.empty:
            continue
        tied = (off["BT sign"] == 0).mean()
        where = "all of them BT ties" if tied == 1 else "none of them BT ties" if tied == 0 else f"{tied:.0%} of them"
        assert f"{kind}, {len(off) / len(rows):.0%} of the setups ({where}" in text, (kind, text)


def test_prop1_non_implications_count_the_setups_that_separate_each_pair():
    import pandas as pd

    setups = pd.DataFrame({"mean sign": [1, 1, -1], "median sign": [1, -1, 1], "median(A-B) sign": [1, 0, -1]})
    table = why_pairing.prop1_non_implications(setups).set_index(["condition", "without"]).setups
    assert table[("MEAN", "MEDIAN")] == 1 and table[("MEDIAN", "MEAN")] == 1
    assert table[("BT (median of differences)", "MEAN")] == 0 and table[("MEAN", "BT (median of differences)")] == 1


def test_appendix_f_text_and_claim_values():
    table = why_pairing.appendix_f_table()
    text = why_pairing.appendix_f_text(table)
    assert "Alone, *B* has strength 0.6667 under every tie policy." in text
    assert "With the cyclic *C* all three strengths are 0.3333 under every policy" in text
    assert "With the printed *C* the strengths are equal under no policy" in text
    flat = table.copy()
    flat.loc[flat.systems == "A, B, C printed", ["A", "B", "C"]] = 1 / 3
    assert "With the printed *C* all three strengths are 0.3333" in why_pairing.appendix_f_text(flat)
    scores = why_pairing.fig1_scores()
    pairings = why_pairing.fixed_marginal_pairings(why_pairing.table2_strengths(), 50, rng=0)
    values = why_pairing.claim_values(
        fig1_aggregates=why_pairing.fig1_aggregates(scores), pairings_summary=why_pairing.pairings_summary(pairings),
        fig2_summary=why_pairing.fig2_summary(why_pairing.fig2_pairings(400, rng=1)),
        prop1_setups=why_pairing.prop1_setups(80, rng=2), appendix_f=table)
    assert list(values.columns) == ["key", "detail", "value", "holds"]
    held = values.dropna(subset=["holds"]).set_index(["key", "detail"]).holds
    assert held["fig1"].all() and held["appA1"].all() and held["fig2"].all()
    assert not held[("fig1-intro", "median of A above median of B")]  # §1 against §3: equal medians
    spread = values[values.key == "appF-printed-spread"].value
    assert len(spread) == 3 and (spread > 0.1).all()


# --- figures for the page: captions computed from the data, figures legible in the book's text column ---------------

from tests.helpers import page_check as _legibility  # noqa: E402


def test_fig1_and_fig2_fit_the_text_column():
    from analysis.plotting import CONTENT_PX

    scores = why_pairing.fig1_scores()
    problems, width = _legibility(why_pairing.plot_fig1(scores, why_pairing.fig1_aggregates(scores)))
    assert problems == [] and width < 1.7 * CONTENT_PX
    pairings = why_pairing.fig2_pairings(200, rng=1)
    problems, width = _legibility(why_pairing.plot_fig2(pairings, why_pairing.fig2_summary(pairings)))
    assert problems == [] and width < 1.7 * CONTENT_PX


def test_fig1_and_fig2_captions_state_the_computed_data():
    scores = why_pairing.fig1_scores()
    caption = why_pairing.fig1_caption(why_pairing.fig1_aggregates(scores))
    assert caption.startswith("Scores of 3 systems (A, B, C) on five test instances, all with mean 10:")
    assert "\n\n" in caption and "The paper's Fig. 1" in caption
    unequal = why_pairing.fig1_aggregates(scores.assign(C=scores["C"] + 1))
    assert "with means A 10, B 10, C 11:" in why_pairing.fig1_caption(unequal)
    pairings = why_pairing.fig2_pairings(400, rng=1)
    caption = why_pairing.fig2_caption(pairings, why_pairing.fig2_summary(pairings))
    assert caption.startswith("The same two samples of 400 synthetic scores paired in 3 ways (sorted, shifted, "
                              "independent)") and "The paper's Fig. 2" in caption


def test_appendix_f_is_shown_with_its_tie_policies_in_words():
    shown = why_pairing.appendix_f_display(why_pairing.appendix_f_table())
    assert "ties" not in shown.columns and set(shown["tie policy"]) == set(why_pairing.TIE_POLICIES.values())
    text = why_pairing.appendix_f_text(why_pairing.appendix_f_table())
    assert "(with ties as half a win each: A 0.262, B 0.410, C 0.328)" in text and "`" not in text
