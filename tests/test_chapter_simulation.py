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


def test_fig3_panels_use_the_simulation_grid_keys():
    assert {x for *_, x in simulate.FIG3_PANELS} <= set(simulation.X_LABELS)


def test_example_story_states_the_examples_own_numbers():
    example = simulation.example_setup(2021, 100.0)
    story = simulation.example_story(example)
    best = example.latent.idxmax()
    assert story.startswith(f"The strongest system by the latent λ, {best}, wins")
    assert "BT:" in story and "MEAN:" in story
