"""The chapter modules: what each paper item's helper computes, on hand-made or small inputs."""

import numpy as np
import pandas as pd
import pytest

from analysis import profiles, simulate
from analysis.agreement import measure_column, pair_label
from analysis.chapters import (
    favoritism,
    global_vs_pairwise,
    real_setups,
    simulation,
    why_pairing,
    wmt_stability,
    your_own_scores,
)
from analysis.chapters.common import Timings, check_parameters, outputs
from analysis.data import published
from analysis.notebooks import chapter_parameters
from tests.helpers import random_scores

# --- common --------------------------------------------------------------------------------------------------------


def test_outputs_record_exactly_the_notebooks_declared_parameters(tmp_path):
    namespace = dict(seed=7, n_per_type=3, n_fig2=4, n_prop1_setups=5, output_root=str(tmp_path), unrelated=1)
    out = outputs(why_pairing.CHAPTER, namespace)
    assert out.parameters == dict(seed=7, n_per_type=3, n_fig2=4, n_prop1_setups=5)
    assert out.dir == tmp_path / why_pairing.CHAPTER
    del namespace["n_fig2"]
    with pytest.raises(ValueError, match=r"\['n_fig2'\] are declared but not defined"):
        outputs(why_pairing.CHAPTER, namespace)


CHAPTER_MODULES = [why_pairing, simulation, real_setups, wmt_stability, favoritism, global_vs_pairwise,
                   your_own_scores]


@pytest.mark.parametrize("module", CHAPTER_MODULES, ids=lambda m: m.CHAPTER)
def test_every_parameter_has_a_rule_and_the_defaults_and_profiles_pass_it(module):
    declared = chapter_parameters(module.CHAPTER)
    assert set(module.PARAMETERS) == set(declared) - {"output_root"}
    check_parameters(module.PARAMETERS, declared)
    for profile in profiles.PROFILES:
        check_parameters(module.PARAMETERS, declared | profiles.parameters_for(profile, module.CHAPTER))


@pytest.mark.parametrize("module,name,value,message", [
    (why_pairing, "n_per_type", "abc", "parameter n_per_type must be an integer >= 2, got 'abc'"),
    (why_pairing, "n_per_type", -5, "parameter n_per_type must be an integer >= 2, got -5"),
    (why_pairing, "seed", 7.5, "parameter seed must be an integer >= 0, got 7.5"),
    (why_pairing, "seed", True, "parameter seed must be an integer"),
    (simulation, "n_systems", [2, 1], r"parameter n_systems\[1\] must be an integer >= 2, got 1"),
    (simulation, "outlier_fractions", 0.1, "parameter outlier_fractions must be a non-empty list"),
    (simulation, "tie_resolution", 0.0, r"parameter tie_resolution must be a finite number in \(0"),
    (real_setups, "alpha", 1.5, r"parameter alpha must be a finite number in \(0, 1\)"),
    (real_setups, "fig5_setup", ["WMT19", "de-en"], "parameter fig5_setup must be 3 values"),
    (real_setups, "collections", "TAC", "parameter collections must be a non-empty list"),
    (wmt_stability, "variant", "two-sided", r"parameter variant must be one of \['scipy<1.7', 'greater'\]"),
    (wmt_stability, "divisors", [2, 1], r"parameter divisors\[1\] must be a finite number in \(1"),
    (wmt_stability, "bootstrap_experiments", ["divide_3"], r"parameter bootstrap_experiments\[0\] must be one of"),
    (favoritism, "datasets", ["wmt23"], r"parameter datasets\[0\] must be one of \['wmt22-ende'"),
    (favoritism, "sign_test_ties", "split", r"parameter sign_test_ties must be one of \['drop', 'half'\]"),
    (global_vs_pairwise, "tie_step", 0.0, r"parameter tie_step must be a finite number in \(0, 1\]"),
    (your_own_scores, "format", "xlsx", r"parameter format must be one of \['auto'"),
    (your_own_scores, "lower_is_better", "no", "parameter lower_is_better must be a bool"),
])
def test_a_bad_parameter_is_named_where_it_enters(tmp_path, module, name, value, message):
    namespace = chapter_parameters(module.CHAPTER) | {"output_root": str(tmp_path), name: value}
    with pytest.raises(ValueError, match=message):
        outputs(module, namespace)
    assert not any(tmp_path.iterdir())  # refused before anything was written


def test_timings_record_even_when_the_block_raises():
    timings = Timings()
    with timings.measure("ok"):
        pass
    with pytest.raises(RuntimeError), timings.measure("failed"):
        raise RuntimeError
    assert set(timings) == {"ok", "failed"} and list(timings.table().columns) == ["seconds"]
    assert pair_label(("mean", "average_win_rate")) == "MEAN vs. average_win_rate"


def test_published_values_carry_their_source_and_fail_clearly():
    assert published.item("paired", "section5")["system_pairs"] == 73471
    assert all("source" in v for v in published.load("paired").values())
    with pytest.raises(KeyError, match="no published item 'table9'"):
        published.item("paired", "table9")
    with pytest.raises(ValueError, match="no published values for paper 'nope'"):
        published.load("nope")


# --- 00: why pairing matters ---------------------------------------------------------------------------------------


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


# --- 01: simulation ------------------------------------------------------------------------------------------------

GRID = dict(n_types=[1, 3], outlier_fraction=[0.0, 0.025], n_systems=[3], n_instances=[10, 30])


def test_grid_runner_is_deterministic_and_times_each_run():
    runner = simulation.GridRunner(3, GRID, 2, 100.0, 50)
    first, second = runner.run("a"), runner.run("b")
    pd.testing.assert_frame_equal(first, second)
    assert set(runner.timings) == {"a", "b"} and runner.n_setups == 16 == len(first)
    panels = runner.panels(first)
    pd.testing.assert_frame_equal(panels, runner.panels(second))
    assert set(panels.panel) == set("abcdefgh")
    assert simulation.claims(panels).count("τ") == 1 and "f* = 0.025" in simulation.claims(panels)


def test_headline_and_ties_summary_average_the_right_setups():
    runner = simulation.GridRunner(4, GRID, 2, 100.0, 50)
    loss = runner.run("loss", simulation.PAPER, resolution=1.0)
    half = runner.run("half", ["bt"], ties="half", resolution=1.0)
    table = simulation.ties_table(loss, half)
    summary = simulation.ties_summary(table, rng=0, n_resamples=100)
    easy = table.query(simulation.SUBSETS["easy (a, b)"])
    assert summary.loc["easy (a, b)", "half − loss"] == pytest.approx((easy.tau_bt_half - easy.tau_bt_loss).mean())
    assert summary.loc["all (g, h)", "tie rate"] == pytest.approx(table.tie_rate.mean())
    head = simulation.headline(loss)
    assert head.loc["all (g, h)", "setups"] == len(loss) and list(head.columns) == ["setups", "MEAN", "MEDIAN", "BT"]


def test_example_setup_matches_its_description():
    example = simulation.example_setup(2021, 100.0)
    assert example.scores.shape == (30, 3) and example.outlier.sum() == 1
    assert sorted(np.unique(example.instance_type)) == [0, 1, 2]
    assert list(simulation.example_aggregates(example).columns) == ["mean", "median", "bt", "latent λ"]


# --- 02: real setups -----------------------------------------------------------------------------------------------


def _setups(seed=0, n=3):
    rng = np.random.default_rng(seed)
    return [(("TAC", "08", f"m{i}"), random_scores(rng, 12, 4, levels=2)) for i in range(n)]


def test_subsampled_disagreement_draws_each_size_and_labels_the_rows():
    setups = _setups()
    fig4 = real_setups.subsampled_disagreement(setups, [5, 12, 50], 2, rng=0)
    assert len(fig4) == 3 * (2 + 1)  # size 5 twice, size 12 = the whole setup once, 50 skipped
    assert set(fig4["size"]) == {5, 12} and (fig4.task == "summarization").all()
    summaries = real_setups.fig4_summaries(fig4, rng=0, n_resamples=50)
    assert set(summaries) == {"metric", "task", "size"}
    assert set(summaries["size"].pair) == {"mean_median", "mean_bt", "median_bt"}


def test_tie_break_sensitivity_flags_exactly_the_setups_with_a_boundary_tie():
    tied_top = pd.DataFrame({"a": [1.0, 1, 1, 1], "b": [1.0, 1, 1, 1], "c": [0.0, 0, 0, 0]})
    clear = pd.DataFrame({"a": [3.0, 3, 3, 3], "b": [2.0, 2, 2, 2], "c": [1.0, 1, 1, 1]})
    found = real_setups.tie_break_sensitivity([(("C", "d", "tied"), tied_top), (("C", "d", "clear"), clear)])
    col = measure_column(("mean", "median"), "top1")
    # MEAN and MEDIAN both tie a and b: each cut picks the same system for both, so the result does not change
    assert not found[col].any()
    counts = real_setups.tie_break_counts(found)
    assert counts.loc["MEAN vs. BT", "setups"] == 2


def test_side_by_side_puts_the_published_table_next_to_ours():
    per_setup = real_setups.disagreement_rows(_setups(), "loss", real_setups.PAPER)
    ours = {"loss": real_setups.summarise(per_setup, real_setups.TABLE1_PAIRS, rng=0, n_resamples=50)}
    table = real_setups.side_by_side(ours, real_setups.TABLE1_PAIRS)
    assert table.loc["MEAN vs. BT", ("Disagree", "paper")] == "9%"
    assert table.loc["MEDIAN vs. BT", ("≠ Top-3", "paper")] == "55%"
    assert real_setups.published_table4().shape == (10, 3) and real_setups.published_fig6().loc["Mood", "t-test"] == 0.98


def test_iia_search_and_its_summaries():
    setups = _setups(seed=5, n=2)
    iia, examples = real_setups.iia_search(setups, [5, 50], rng=0)
    assert list(iia["size"]) == ["full", 5, "full", 5]
    by_size = real_setups.iia_by_size(iia)
    assert by_size.loc["full", "setups"] == 2 and (by_size.triples == 8).all()
    assert real_setups.reversal_winner_shares(pd.DataFrame()).empty


def test_bt_probability_matrix_is_complementary():
    matrix = random_scores(np.random.default_rng(3), 40, 4)
    prob, marks = real_setups.bt_probability_matrix(matrix, 0.05)
    np.testing.assert_allclose((prob + prob.T).to_numpy()[~np.eye(4, dtype=bool)], 1.0)
    assert (marks == marks.T).all().all()


def test_fig3_panels_use_the_simulation_grid_keys():
    assert {x for *_, x in simulate.FIG3_PANELS} <= set(simulation.X_LABELS)


def test_degenerate_bt_fits_are_counted_per_setup_not_printed(recwarn):
    never_loses = pd.DataFrame({"a": [3.0, 3.0, 3.0], "b": [1.0, 2.0, 1.0], "c": [2.0, 1.0, 0.0]})
    fine = random_scores(np.random.default_rng(0), 50, 4)
    setups = [(("X", "d", "m"), never_loses), (("X", "d", "n"), fine)]
    rows = real_setups.disagreement_rows(setups, "half", names=real_setups.PAPER)
    assert rows["bt_degenerate"].tolist() == [True, False]
    assert not [w for w in recwarn if "maximum-likelihood" in str(w.message)]
    note = real_setups.degenerate_note({"setups": rows})
    assert note.startswith("BT has no finite maximum-likelihood fit in 1 of 2 setups (X d m). There a group")
    assert real_setups.degenerate_note({"setups": rows.iloc[1:]}) == (
        "BT has a finite maximum-likelihood fit in all 1 setups.")
