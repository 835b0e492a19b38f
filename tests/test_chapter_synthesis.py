"""Chapter 06_synthesis: the four studies' machinery on hand-built data, checked against direct computations
(BT fits of every pair and triple, the methods layer's instance-by-instance sampler), and its claims' verdicts
computed from the saved values (changing a value changes the verdict; the page pastes the verdicts)."""

import itertools

import numpy as np
import pandas as pd
import pytest

from analysis import (
    aggregate,
    claim_records,
    claims,
    sweeps,
    wmt_stability,
)
from analysis.chapters import synthesis
from analysis.chapters.synthesis import favoritism, stability, ties, wmt_pairs
from analysis.data.paired import iter_setups
from analysis.recorder import Outputs
from tests.helpers import page_check, random_scores

# --- study 1 -------------------------------------------------------------------------------------------------------


def test_mean_and_median_never_reorder_but_bt_can():
    # C beats A and B on many instances by a little; removing C changes nothing for MEAN, and BT's order of A, B is
    # decided by wins alone
    fns = aggregate.mechanisms("half", ("mean", "median", "bt"))
    gen = np.random.default_rng(3)
    for _ in range(20):
        rows = stability.remove_one(random_scores(gen, 15, 5, levels=3), fns)
        for row in rows:
            if row["mechanism"] in ("mean", "median"):
                assert row["pairs_reordered"] == 0 and not row["reordered"]
    # Appendix F's shape: a beats b on 3 of 5 instances; c reverses them in BT but not in MEAN
    m = pd.DataFrame({"a": [2, 2, 2, 0, 0], "b": [1, 1, 1, 3, 3], "c": [3, 3, 3, 1.5, 1.5]}, dtype=float)
    rows = {(r["mechanism"], r["removed"]): r for r in stability.remove_one(m, fns)}
    assert rows[("mean", "best")]["pairs_reordered"] == 0
    assert rows[("bt", "best")]["pairs"] == 1


def test_iia_checks_agree_with_direct_bradley_terry_fits_of_every_pair_and_triple():
    gen = np.random.default_rng(11)
    fns = aggregate.mechanisms("half", ("mean", "median", "bt"))
    for _ in range(15):
        m = random_scores(gen, 9, 5, levels=2)
        got = {r["mechanism"]: r for r in stability.iia_checks(m, fns, 100, gen)}
        checks = violations = 0
        for t in itertools.combinations(range(5), 3):
            for i, j, c in ((t[0], t[1], t[2]), (t[0], t[2], t[1]), (t[1], t[2], t[0])):
                pair = aggregate.bradley_terry(m.iloc[:, [i, j]]).to_numpy()
                trio = aggregate.bradley_terry(m.iloc[:, sorted((i, j, c))])
                alone = np.sign(np.round(pair[0] - pair[1], 9))
                if alone == 0:
                    continue
                together = np.sign(np.round(trio[m.columns[i]] - trio[m.columns[j]], 9))
                checks += 1
                violations += together != alone
        assert (got["bt"]["checks"], got["bt"]["violations"]) == (checks, violations)
        assert got["mean"]["violations"] == got["median"]["violations"] == 0


def test_tradeoff_table_and_claim_values():
    removal = pd.DataFrame({"mechanism": ["mean", "mean", "bt", "bt", "elo", "elo", "trueskill", "trueskill",
                                          "median", "median"],
                            "removed": ["best", "worst"] * 5,
                            "reordered": [False, False, True, False, True, True, True, False, False, False]})
    iia = pd.DataFrame({"mechanism": ["bt", "elo", "trueskill", "mean", "median"], "checks": [10] * 5,
                        "violations": [1, 3, 2, 0, 0]})
    sim = pd.DataFrame({"outlier_fraction": [0, 0.025, 0, 0.025], "outliers": ["permute"] * 2 + ["adversarial"] * 2,
                        **{f"tau_{m}": [0.8, 0.7, 0.8, 0.6] for m in stability.MECHANISMS}})
    trade = stability.tradeoff(removal, iia, sim)
    t = trade.set_index("mechanism")
    assert t.loc["bt", "reordered_any"] == 0.5 and t.loc["elo", "reordered_any"] == 1.0
    assert t.loc["elo", "iia_violation_share"] == pytest.approx(0.3)
    assert t.loc["mean", "tau_drop"] == pytest.approx(0.2) and t.loc["mean", "tau_drop_permute"] == pytest.approx(0.1)
    v = stability.stability_values(trade)
    # a test is saved with the number it compares: TrueSkill ties BT at 0.5, MEAN and BT lose the same τ
    assert v["alone_reordered_max"] == 0 and v["bt_most_stable_pairwise"] == (pytest.approx(0.0), False)
    assert v["bt_more_robust_than_mean"] == (pytest.approx(0.0), False)
    # the sanity line is a check of the code, not a hypothesis: MEAN reordering the others stops the chapter
    broken = trade.copy()
    broken.loc[broken.mechanism == "mean", "reordered_best"] = 0.1
    with pytest.raises(ValueError, match="bug"):
        stability.stability_values(broken)


# --- study 2 -------------------------------------------------------------------------------------------------------


def _judgments():
    rows = []
    # worker w1 in HIT h1 scores A high, B middle, C low; w2 in h2: B above A; HUMAN-X best in both
    for worker, hit, scores in (("w1", "h1", {"A": 80, "B": 50, "C": 20, "HUMAN-X": 95}),
                                ("w2", "h2", {"A": 40, "B": 60, "C": 10, "HUMAN-X": 90}),
                                ("w3", "h3", {"A": 70, "B": 55, "C": 30, "HUMAN-X": 85})):
        for seg, (system, raw) in enumerate(scores.items()):
            for rep in range(2):
                rows.append({"collection": "c", "pair": "xx-en", "style": "SR+DC", "hit": hit, "worker": worker,
                             "system": system, "document": f"d{seg}", "segment": f"s{seg}",
                             "item_type": "SYSTEM", "raw": raw + rep, "time": 1.0})
    frame = pd.DataFrame(rows)
    frame["z"] = frame.groupby("worker")["raw"].transform(lambda x: (x - x.mean()) / x.std())
    return frame


def test_preferences_are_a_workers_mean_scores_within_a_hit():
    pair = wmt_stability.code_pair(_judgments())
    prefs = wmt_pairs.preferences(pair)
    assert len(prefs) == 3 * 6  # three HITs, C(4, 2) pairs each
    ab = prefs[(prefs.left == "A") & (prefs.right == "B")]["winner"].tolist()
    assert sorted(ab) == ["left", "left", "right"]
    strengths = wmt_pairs.bt_scores(prefs)
    assert strengths.idxmax() == "HUMAN-X" and strengths.idxmin() == "C"
    assert "HUMAN-X" not in wmt_pairs.bt_scores(prefs, remove=["HUMAN-X"]).index
    assert wmt_pairs.same_segment_pairs(_judgments()) == 0


def test_perturbations_cover_every_experiment_for_both_mechanisms():
    pair = wmt_stability.code_pair(_judgments())
    runs = wmt_pairs.perturbations(pair, wmt_pairs.preferences(pair), 3, np.random.default_rng(1))
    assert set(runs["experiment"]) == set(wmt_pairs.EXPERIMENT_LABELS)
    assert set(runs["mechanism"]) == {"z", "bt"}
    human = runs[runs.experiment == "remove_human"]
    assert (human["systems"] == 3).all()
    again = wmt_pairs.perturbations(pair, wmt_pairs.preferences(pair), 3, np.random.default_rng(1))
    pd.testing.assert_frame_equal(runs, again)
    summary = wmt_pairs.summary(runs)
    assert set(summary.columns) == {"experiment", "mechanism", "runs", "reordered", "pairs_reordered"}
    fake = pd.DataFrame({"mechanism": "z", "experiment": ["remove_best"] * 10 + ["remove_random_mid"] * 10,
                         "reordered": [True] * 10 + [False] * 10})
    test = wmt_pairs.ends_against_null(fake).iloc[0]
    assert test["ends_reordered"] == 1 and test["null_reordered"] == 0
    assert test["fisher_p_draws"] == pytest.approx(1 / 184756)  # one table of C(20, 10) is this extreme
    # at the pair level: five language pairs, each with two end removals and ten null draws; the ends reorder in
    # every pair and the null in few: all five differences positive, the one-sided signed-rank p is 1/32
    rows = []
    for k in range(5):
        rows += [(f"p{k}", "remove_best", True), (f"p{k}", "remove_worst", True)]
        rows += [(f"p{k}", "remove_random_mid", d < k) for d in range(10)]
    pairs = pd.DataFrame(rows, columns=["pair", "experiment", "reordered"]).assign(mechanism="z", collection="c")
    test = wmt_pairs.ends_against_null(pairs).iloc[0]
    assert test["language_pairs"] == 5 and test["pairs_ends_above"] == 5
    assert test["p_value"] == pytest.approx(1 / 32)
    assert test["fisher_p_draws"] < test["p_value"]  # 60 draws counted as independent: far smaller
    same = pairs.assign(reordered=True)
    assert wmt_pairs.ends_against_null(same).iloc[0]["p_value"] == 1.0  # no pair differs


# --- study 3 -------------------------------------------------------------------------------------------------------


def test_flips_count_pairs_ordered_differently_and_their_direction():
    human = pd.DataFrame({"a": [3.0, 3, 3, 3], "b": [2.0, 2, 2, 2], "c": [1.0, 1, 1, 1]})
    metric = pd.DataFrame({"a": [1.0, 1, 1, 1], "b": [2.0, 2, 2, 2], "c": [0.0, 0, 0, 0]})  # favours b over a
    out = favoritism.flips(human, metric, aggregate.mechanisms("half", ("mean", "bt")))
    ab = out[(out.system_a == "a") & (out.system_b == "b")].iloc[0]
    assert ab["flip_mean"] and ab["flip_bt"] and ab["favours_bt"] == -1 and ab["favi"] < 0
    assert not out[(out.system_a == "a") & (out.system_b == "c")].iloc[0]["flip_mean"]
    summary = favoritism.summary(out.assign(dataset="d", human="h", rater="r"), ("mean", "bt"))
    # only a-b has rating errors, so only it has a Φ and enters the summary
    assert summary.set_index("mechanism").loc["bt", "pairs"] == 1
    assert summary.set_index("mechanism").loc["bt", "flipped"] == 1.0
    assert summary.set_index("mechanism").loc["bt", "with_phi"] == 1.0
    assert summary.set_index("mechanism").loc["bt", "flipped_by_tie"] == 0.0


def test_median_flips_through_tied_medians():
    # ratings with few values: the human medians of a and b tie (2 and 2), the rater's do not, so MEDIAN flips the
    # pair through the tie while MEAN (2.25 against 2) orders it alike in both
    human = pd.DataFrame({"a": [1.0, 2, 2, 4], "b": [2.0, 2, 2, 2], "c": [0.0, 0, 0, 0]})
    metric = pd.DataFrame({"a": [1.0, 2.5, 2.5, 4], "b": [2.0, 2, 2, 2], "c": [0.0, 0, 0, 0]})
    out = favoritism.flips(human, metric, aggregate.mechanisms("half", ("mean", "median")))
    ab = out[(out.system_a == "a") & (out.system_b == "b")].iloc[0]
    assert ab["flip_median"] and ab["human_tie_median"] and not ab["rater_tie_median"] and not ab["flip_mean"]
    summary = favoritism.summary(out.assign(favi=1.0), ("mean", "median")).set_index("mechanism")
    assert summary.loc["median", "flipped_by_tie"] == summary.loc["median", "flipped"] == pytest.approx(1 / 3)
    assert summary.loc["median", "human_tied"] == pytest.approx(1 / 3) and summary.loc["mean", "flipped"] == 0


def test_complete_pair_keeps_shared_systems_and_complete_items():
    rows = [("d", "x", i, s, r, k, float(v)) for i in range(4) for s, v in (("s1", i), ("s2", 2), ("s3", 5))
            for r, k in (("H", "human"), ("M", "metric"))]
    scores = pd.DataFrame(rows, columns=["domain", "dataset", "item", "system", "rater", "rater_kind", "score"])
    scores = scores[~((scores.system == "s3") & (scores.rater == "M"))]  # the metric never scored s3
    scores = scores[~((scores.item == 0) & (scores.system == "s2") & (scores.rater == "H"))]
    h, m = favoritism.complete_pair(scores, "x", "H", "M")
    assert list(h.columns) == ["s1", "s2"] and list(h.index) == [1, 2, 3]
    with pytest.raises(ValueError, match="no Favi-Score data"):
        favoritism.settings(scores, ["nope"])


# --- study 4 -------------------------------------------------------------------------------------------------------


def _shares(m) -> np.ndarray:
    outcome = sweeps.matches(m).outcome.reshape(len(m), -1)
    return np.stack([(outcome == v).mean(axis=0) for v in (1, 0, -1)], axis=1)


def test_multinomial_draws_match_the_instance_by_instance_sampler():
    """sweeps.sampled_counts' two methods, equal in distribution (the synthesis chapter's sweeps use the fast one)."""
    m = random_scores(np.random.default_rng(5), 40, 4, levels=2)
    matches = sweeps.matches(m)
    for q in (0.0, 0.3):
        _, fast = sweeps.sampled_counts(matches, np.random.default_rng(1), 4000, 25, q, cap=False, method="multinomial")
        _, slow = sweeps.sampled_counts(matches, np.random.default_rng(2), 4000, 25, q, cap=False)
        np.testing.assert_allclose(fast.mean(axis=0), slow.mean(axis=0), atol=0.25)
        assert (fast.reshape(4000, -1, 3).sum(axis=2) == 25).all()
    _, tied = sweeps.sampled_counts(matches, 1, 3, 10, 1.0, cap=False, method="multinomial")
    assert (tied.reshape(3, -1, 3)[:, :, 1] == 10).all()


def test_at_or_above_the_number_of_instances_every_instance_is_taken_once_as_the_paper_says():
    """The paper's rule (``cap``): 40 instances and 60 comparisons asked -> the setup's own 40 outcomes in every
    trial, by both methods; injected ties turn each decided comparison into a tie with the probability."""
    m = random_scores(np.random.default_rng(5), 40, 4, levels=2)
    matches = sweeps.matches(m)
    own = np.rint(_shares(m) * 40).ravel()
    _, exact = sweeps.sampled_counts(matches, 1, 5, 60, method="multinomial")
    assert (exact == own).all()
    _, slow = sweeps.sampled_counts(matches, 2, 5, 60, cap=True)
    assert (slow == own).all()
    _, fast = sweeps.sampled_counts(matches, np.random.default_rng(1), 4000, 60, 0.3, method="multinomial")
    _, slow = sweeps.sampled_counts(matches, np.random.default_rng(2), 4000, 60, 0.3, cap=True)
    np.testing.assert_allclose(fast.mean(axis=0), slow.mean(axis=0), atol=0.25)
    assert (fast.reshape(4000, -1, 3).sum(axis=2) == 40).all()
    _, below = sweeps.sampled_counts(matches, 1, 5, 39, method="multinomial")  # fewer asked than instances: drawn
    assert (below.reshape(5, -1, 3).sum(axis=2) == 39).all() and not (below == below[0]).all()


def test_sweeps_are_seeded_and_real_tie_costs_are_shares():
    m = random_scores(np.random.default_rng(2), 30, 5, levels=2)
    a = ties.setup_curves(m, [10, 50], 5, 7)
    b = ties.setup_curves(m, [10, 50], 5, 7)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["ties"]) == set(ties.POLICIES) and a["at_marker"].sum() == 3
    cost = ties.real_tie_cost(m)
    assert 0 < cost["tie_rate"] < 1 and 0 <= cost["pairs_moved_loss"] <= 1
    no_ties = ties.real_tie_cost(random_scores(np.random.default_rng(2), 30, 5))
    assert no_ties["tie_rate"] == 0 and no_ties["pairs_moved_drop"] == no_ties["pairs_moved_loss"] == 0


# --- the page: sentences and claims follow the saved numbers --------------------------------------------------------

def _save_values(root, changed=None):
    """The four studies' values saved as the chapter saves them (``Outputs.values``), ``changed`` overriding some."""
    out = Outputs(synthesis.CHAPTER, {}, root=root)
    for study in _studies().values():
        out.values({k: (changed or {}).get(k, v) for k, v in study.items()})


def _studies():
    return dict(
        stability={"alone_reordered_max": 0.0, "bt_reordered": 0.3, "bt_most_stable_pairwise": (0.05, True),
                   "bt_iia_share": 0.01, "bt_tau_drop": 0.05, "mean_tau_drop": 0.1, "bt_tau_drop_permute": 0.01,
                   "mean_tau_drop_permute": 0.0, "bt_more_robust_than_mean": True},
        wmt={"z_ends_reordered": 0.5, "bt_ends_reordered": 0.7, "bt_more_stable_ends": False,
             "z_null_reordered": 0.4, "bt_null_reordered": 0.6, "z_ends_above_null": True},
        favoritism={"bt_minus_mean_rho": 0.01, "bt_minus_mean_rho_low": -0.02, "bt_minus_mean_rho_high": 0.04,
                    "bt_flipped": 0.3, "mean_flipped": 0.28, "bt_with_phi": 0.98, "mean_with_phi": 0.96,
                    "bt_follows_phi_more": False},
        ties={"stable_share_half": 0.2, "misplaced_half": 0.19, "misplaced_drop": 0.2, "rho_tie_rate_half": 0.25,
              "pairs_moved_drop": 0.01, "pairs_moved_loss": 0.08, "loss_injected_excess": 0.5,
              "half_injected_cost": 0.02,
              "injected_probability": 0.1, "loss_moves_more_than_drop": True})


def test_claims_verdicts_follow_the_saved_values(tmp_path):
    registry = [c for c in claim_records.load() if c.paper == "synthesis"]
    assert {c.chapter for c in registry} == {synthesis.CHAPTER} and len(registry) >= 8
    _save_values(tmp_path)
    table = claims.evaluate(registry, tmp_path).set_index("id")
    assert (table["verdict"] != "not run").all(), table[table.verdict == "not run"]["reason"]
    assert table.loc["s4-marker-stable", "verdict"] == "not reproduced"
    assert table.loc["s1-bt-most-stable", "verdict"] == "reproduced"
    assert table.loc["s1-bt-iia", "our value"] == "1.0%"  # the saved number, shown in the claim's format
    assert table.loc["s1-bt-most-stable", "our value"] == "+5%"  # a test shows its number
    _save_values(tmp_path / "again", {"stable_share_half": 0.6, "bt_most_stable_pairwise": (0.05, False)})
    tmp_path = tmp_path / "again"
    table = claims.evaluate(registry, tmp_path).set_index("id")
    assert table.loc["s4-marker-stable", "verdict"] == "reproduced"
    assert table.loc["s1-bt-most-stable", "verdict"] == "not reproduced"


def test_figures_fit_the_text_column():
    trade = pd.DataFrame({"mechanism": list(stability.MECHANISMS), "reordered_any": [0, 0, 0.3, 0.8, 0.7],
                          "tau_clean": [0.7, 0.6, 0.72, 0.6, 0.62], "tau_drop": [0.1, 0.08, 0.09, 0.15, 0.12],
                          "scores_alone": [True, True, False, False, False]})
    assert page_check(stability.plot_tradeoff(trade))[0] == []
    wmt = pd.DataFrame({"experiment": list(wmt_pairs.EXPERIMENT_LABELS) * 2, "mechanism": ["z"] * 4 + ["bt"] * 4,
                        "reordered": np.linspace(0.1, 0.8, 8)})
    assert page_check(wmt_pairs.plot_wmt(wmt))[0] == []
    fav = pd.DataFrame({"mechanism": list(stability.MECHANISMS), "flipped_low_phi": [0.2] * 5,
                        "flipped_high_phi": [0.4] * 5})
    assert page_check(favoritism.plot_favoritism(fav))[0] == []
    curves = pd.DataFrame([{"collection": "c", "dataset": "d", "metric": "m", "ties": t, "comparisons": n,
                            "at_marker": n == 66, "misplaced_share": 1 / n} for t in ties.POLICIES
                           for n in (10, 66, 100)])
    sweep = pd.DataFrame([{"ties": t, "tie_probability": p, "misplaced_share": p} for t in ties.POLICIES
                          for p in (0, 0.5)])
    assert page_check(ties.plot_ties(curves, sweep))[0] == []


def test_bad_input_is_refused_with_a_clear_error():
    table = pd.DataFrame({"collection": ["A"], "dataset": ["d"], "metric": ["m"], "instance": [0], "system": ["s"],
                          "score": [1.0]})
    with pytest.raises(ValueError, match="no setups for collections"):
        list(iter_setups(table, ["B"]))
    with pytest.raises(ValueError, match="paired_setups schema"):
        list(iter_setups(table.drop(columns="score")))
    with pytest.raises(ValueError, match="no SR\\+DC judgments"):
        wmt_pairs.sr_dc_study(_judgments().assign(style="SR-DC"), 1, 1)


@pytest.mark.parametrize("bad", [{"n_trials": 0}, {"size": 0}])
@pytest.mark.parametrize("method", ["draws", "multinomial"])
def test_sampled_counts_refuses_empty_draws(bad, method):
    args = {"n_trials": 2, "size": 3} | bad
    matches = sweeps.matches(random_scores(np.random.default_rng(5), 6, 3, levels=2))
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        sweeps.sampled_counts(matches, 0, **args, method=method)


def test_sampled_counts_refuses_an_unknown_method():
    matches = sweeps.matches(random_scores(np.random.default_rng(5), 6, 3, levels=2))
    with pytest.raises(ValueError, match="method must be 'draws' or 'multinomial'"):
        sweeps.sampled_counts(matches, 0, 2, 3, method="fast")
