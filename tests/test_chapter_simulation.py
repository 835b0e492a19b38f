"""Chapter 01 (analysis.chapters.simulation): the grid runner, its summaries and the example setup."""

import numpy as np
import pandas as pd
import pytest

from analysis import simulate
from analysis.chapters import simulation

GRID = dict(n_types=[1, 3], outlier_fraction=[0.0, 0.025], n_systems=[3], n_instances=[10, 30])


def test_grid_runner_is_deterministic_and_times_each_run():
    runner = simulation.GridRunner(3, GRID, 2, 100.0, 50)
    first, second = runner.run("a"), runner.run("b")
    pd.testing.assert_frame_equal(first, second)
    assert set(runner.timings) == {"a", "b"} and runner.n_setups == 16 == len(first)
    panels = runner.panels(first)
    pd.testing.assert_frame_equal(panels, runner.panels(second))
    assert set(panels.panel) == set("abcdefgh")
    values = simulation.fig3_claim_values(panels, first, "section4")
    assert set(values.key) == {"ab-equal", "b-improves", "a-deteriorates", "c-outliers", "d-median-fails",
                               "f-median-worse", "gh-bt-minus", "setups"}
    assert values.set_index("key").loc["setups", "value"] == 16
    text = simulation.panels_text(panels, values)
    assert "*f* = 0 to *f* = 0.025" in text and "From 1 to 3 types" in text and text.count("\n* ") == 3


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


def test_fig3_panels_use_the_simulation_grid_keys():
    assert {x for *_, x in simulate.FIG3_PANELS} <= set(simulation.X_LABELS)


def test_example_story_states_the_examples_own_numbers():
    example = simulation.example_setup(2021, 100.0)
    story = simulation.example_story(example)
    best = example.latent.idxmax()
    assert story.startswith(f"The strongest system by the latent λ, {best}, wins")
    assert "BT:" in story and "MEAN:" in story


def _panels(tau: dict, low: dict, high: dict) -> pd.DataFrame:
    """A panel summary for panels c and d (x = 0 and 1), from {(panel, x, mechanism): value} dicts."""
    rows = [{"panel": p, "x_value": x, "mechanism": m, "tau": tau[k], "low": low[k], "high": high[k]}
            for k in tau for p, x, m in [k]]
    return pd.DataFrame(rows)


def test_a_failure_is_an_interval_entirely_below_the_first_one():
    keys = [(p, x, m) for p in "cd" for x in (0, 1) for m in simulation.PAPER]
    tau = dict.fromkeys(keys, 0.6)
    low, high = dict.fromkeys(keys, 0.55), dict.fromkeys(keys, 0.65)
    tau[("c", 1, "mean")], low[("c", 1, "mean")], high[("c", 1, "mean")] = 0.2, 0.1, 0.3  # MEAN drops clear
    low[("d", 1, "median")], high[("d", 1, "median")] = 0.5, 0.56  # moved, but still overlapping: no failure
    panels = _panels(tau, low, high)
    per_setup = pd.DataFrame({"n_types": [1, 3, 3], "outlier_fraction": [0, 0, 0.1], "tau_mean": [0.5, 0.5, 0.5],
                              "tau_median": [0.5, 0.4, 0.3], "tau_bt": [0.6, 0.6, 0.6]})
    values = simulation.fig3_claim_values(panels, per_setup, "r").set_index(["key", "detail"])
    assert values.loc[("c-outliers", "MEAN fails"), "holds"] and values.loc[("c-outliers", "BT unaffected"), "holds"]
    assert not values.loc[("d-median-fails", "MEDIAN"), "holds"]
    assert values.loc[("f-median-worse", "MEDIAN, types and outliers minus types only"), "value"] == pytest.approx(-0.1)
    assert values.loc[("gh-bt-minus", "BT − MEAN"), "value"] == pytest.approx(0.1)
    text = simulation.panels_text(panels, values.reset_index())
    assert "(a failure): MEAN." in text and "Failing: none." in text


def test_readings_sequential_and_ties_text_branch_on_the_numbers():
    table = pd.DataFrame({"setups": [10, 10], "MEAN": [0.7, 0.2], "MEDIAN": [0.5, 0.4], "BT": [0.6, 0.6]},
                         index=["text", "code"])
    assert "depends on how the generator is read" in simulation.readings_text(table)
    assert "same mechanism is best" in simulation.readings_text(table.assign(BT=0.9))
    everything = pd.DataFrame({"n_types": [1, 3], "outlier_fraction": [0, 0], "tau_median": [0.6, 0.2],
                               "tau_bt": [0.6, 0.55], "tau_elo": [0.5, 0.45], "tau_trueskill": [0.5, 0.5]})
    text = simulation.sequential_text(everything)
    assert "exceeds Elo's by 0.100" in text and "like BT, Elo and TrueSkill lose less than MEDIAN" in text
    text = simulation.sequential_text(everything.assign(tau_elo=[0.95, 0.3]))
    assert "falls short of Elo's" in text and "losing less than MEDIAN: BT, TrueSkill" in text
    row = pd.Series({"tie rate": 0.25, "half − loss": 0.2, "95% low": 0.1, "95% high": 0.3})
    assert "costs BT accuracy" in simulation.ties_text(row, 1.0)
    assert "within the resampling noise" in simulation.ties_text(row.replace({0.1: -0.1}), 1.0)
    assert "does better here" in simulation.ties_text(row.replace({0.2: -0.2, 0.1: -0.3, 0.3: -0.1}), 1.0)


# -- figures for the page: two panels per row, captions computed from the runs ----------------------------------------

from tests.helpers import page_check as _legibility  # noqa: E402


def test_fig3_is_laid_out_two_panels_per_row_and_legible():
    runner = simulation.GridRunner(3, GRID, 2, 100.0, 20)
    panels = runner.panels(runner.run("a"))
    fig = simulation.plot_fig3(panels, simulation.PAPER)
    assert [ax.get_title() for ax in fig.axes[:2]] == ["(a) easy cases", "(b) easy cases"]
    assert not fig._suptitle  # the caption says what the figure is
    problems, width = _legibility(fig)
    assert problems == [] and width < 1200
    problems, _ = _legibility(simulation.plot_example_setup(simulation.example_setup(2021, 100.0)))
    assert problems == []


def test_fig3_captions_count_the_setups_and_name_the_reading():
    per_setup = pd.DataFrame({"tau_mean": range(16)})
    caption = simulation.fig3_caption("section4", per_setup, simulation.PAPER, 1000)
    first, legend = caption.split("\n\n")
    assert first.startswith("Kendall's τ between the latent system strengths λ and the rankings by MEAN, MEDIAN and "
                            "BT on 16 simulated setups: Section 4's generator")
    assert "(1,000 resamples)" in legend and "numref" not in legend and "two panels per row" in legend
    variant = simulation.fig3_caption("code-outliers", per_setup, simulation.PAPER, 50, reference="fig_main")
    assert "{cite:p}`peyrard2021bteval`" in variant and "as {numref}`fig_main`; only the generator's" in variant
    sequential = simulation.fig3_caption("section4", per_setup, ("bt", "elo", "trueskill"), 50, reference="fig_main")
    assert "rankings by BT, Elo and TrueSkill" in sequential and "applies Elo and TrueSkill to real data only" in sequential
    example = simulation.example_setup(2021, 100.0)
    assert simulation.example_caption(example).startswith(
        "Scores of 3 simulated systems on 30 test instances of 3 types, sorted by type, with 1 outlier instance")


def test_ties_table_is_shown_with_its_policies_in_words():
    summary = pd.DataFrame({"tie rate": [0.2], "BT ties=loss": [0.5], "BT ties=half": [0.6], "half − loss": [0.1]})
    shown = simulation.ties_display(summary)
    assert list(shown.columns) == ["tie rate", "BT, ties to the later column", "BT, ties as half wins",
                                   "difference (half wins − later column)"]
    assert not any("=" in c for c in shown.columns)
