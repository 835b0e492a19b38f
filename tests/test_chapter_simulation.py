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
    assert set(runner.timings) == {"a", "b"} and len(first) == 16
    panels = runner.panels(first)
    pd.testing.assert_frame_equal(panels, runner.panels(second))
    assert set(panels.panel) == set("abcdefgh")
    values = simulation.fig3_claim_values(panels, first, "section4", seed=3, n_resamples=50)
    assert set(values.key) == {"section4." + k for k in {"ab-equal", "b-improves", "a-deteriorates",
                                                         "b-improves-interval", "a-deteriorates-interval",
                                                         "c-outliers", "e-outliers", "d-median-fails",
                                                         "f-median-worse", "gh-bt-minus", "setups"}}
    assert values.set_index("key").loc["section4.setups", "value"] == 16
    ends = simulation.panel_ends(panels, "c")
    assert (ends["from"], ends["to"]) == (0.0, 0.025)
    c = panels[(panels.panel == "c") & (panels.mechanism == "bt")].set_index("x_value").tau
    assert ends["bt-from"] == c[0.0] and ends["bt-to"] == c[0.025]


def test_run_reading_saves_the_per_setup_and_panel_tables(tmp_path):
    from analysis.recorder import Outputs

    out = Outputs("ch", {}, root=tmp_path)
    runner = simulation.GridRunner(3, GRID, 2, 100.0, 20)
    frame, panels = simulation.run_reading(runner, out, "a", "x", outliers="adversarial")
    assert (tmp_path / "ch" / "x_per_setup.csv").is_file() and (tmp_path / "ch" / "x_summary.csv").is_file()
    assert len(frame) == 16 and set(panels.panel) == set("abcdefgh") and set(runner.timings) == {"a"}


def test_headline_and_ties_summary_average_the_right_setups():
    runner = simulation.GridRunner(4, GRID, 2, 100.0, 50)
    loss = runner.run("loss", simulation.PAPER, resolution=1.0)
    half = runner.run("half", ["bt"], ties="half", resolution=1.0)
    table = simulation.join_runs(loss, half, ["tau_bt"], suffixes=("_loss", "_half"))
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


def test_example_numbers_are_the_examples_own():
    example = simulation.example_setup(2021, 100.0)
    numbers = simulation.example_numbers(example)
    best = example.latent.idxmax()
    assert numbers["example-best"] == best and numbers["example-instances"] == 30
    assert {numbers["example-other-1"], numbers["example-other-2"]} == set(example.scores.columns) - {best}
    other = numbers["example-other-1"]
    assert numbers["example-wins-1"] == int((example.scores[best] > example.scores[other]).sum())
    aggregates = simulation.example_aggregates(example)
    assert numbers["example-first-mean"] == aggregates["mean"].idxmax()  # continuous scores: no tie for MEAN
    assert (set(numbers["example-first-bt"].split(" and "))
            == set(aggregates.index[aggregates.bt == aggregates.bt.max()]))


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
    values = simulation.fig3_claim_values(panels, per_setup, "r", seed=3, n_resamples=50).set_index(["key", "detail"])
    assert values.loc[("r.c-outliers", "MEAN fails"), "holds"]
    assert values.loc[("r.c-outliers", "BT unaffected"), "holds"]
    assert not values.loc[("r.d-median-fails", "MEDIAN"), "holds"]
    worse = values.loc[("r.f-median-worse", "MEDIAN, types and outliers minus types only"), "value"]
    assert worse == pytest.approx(-0.1)
    assert values.loc[("r.gh-bt-minus", "BT − MEAN"), "value"] == pytest.approx(0.1)
    # the differences carry their bootstrap interval over setups: BT − MEAN is 0.1 on every setup, so its interval
    # is the point; MEDIAN's one setup per group resamples to itself
    assert tuple(values.loc[("r.gh-bt-minus", "BT − MEAN"), ["low", "high"]]) == pytest.approx((0.1, 0.1))
    assert tuple(values.loc[("r.f-median-worse", "MEDIAN, types and outliers minus types only"), ["low", "high"]]) \
        == pytest.approx((-0.1, -0.1))
    again = simulation.fig3_claim_values(panels, per_setup, "r", seed=3, n_resamples=50)
    pd.testing.assert_frame_equal(again.set_index(["key", "detail"]), values)


def test_mean_difference_interval_resamples_each_group_apart():
    estimate, low, high = simulation.mean_difference_interval([1.0, 2.0, 3.0], [0.0, 0.0], rng=0, n_resamples=400)
    assert estimate == pytest.approx(2.0) and 1.0 <= low < 2.0 < high <= 3.0
    assert np.isnan(simulation.mean_difference_interval([], [1.0], rng=0, n_resamples=10)[0])


def test_sequential_numbers():
    everything = pd.DataFrame({"n_types": [1, 3], "outlier_fraction": [0, 0], "tau_median": [0.6, 0.2],
                               "tau_bt": [0.6, 0.55], "tau_elo": [0.5, 0.45], "tau_trueskill": [0.5, 0.5]})
    numbers = simulation.sequential_numbers(everything)
    assert numbers["seq-bt-minus-elo"] == pytest.approx(0.1)
    assert numbers["seq-bt-minus-trueskill"] == pytest.approx(0.075)
    assert numbers["seq-types-median"] == pytest.approx(-0.4) and numbers["seq-types-elo"] == pytest.approx(-0.05)
    assert numbers["seq-types-trueskill"] == pytest.approx(0.0) and numbers["seq-types-bt"] == pytest.approx(-0.05)


# -- figures for the page: two panels per row ----------------------------------------

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


def test_a_change_with_more_systems_or_instances_is_read_on_the_intervals():
    """Fig. 3(a, b): a mechanism deteriorates (improves) when its interval at the last x lies wholly below (above)
    its interval at the first; a point estimate that only moves inside the intervals is neither. Panel (e) reads
    "MEAN fails, MEDIAN and BT unaffected" as panel (c) does."""
    keys = [(p, x, m) for p in "abe" for x in (0, 1) for m in simulation.PAPER]
    tau = dict.fromkeys(keys, 0.6)
    low, high = dict.fromkeys(keys, 0.55), dict.fromkeys(keys, 0.65)
    low[("a", 1, "mean")], high[("a", 1, "mean")] = 0.3, 0.5  # MEAN: clear drop with more systems
    low[("a", 1, "bt")], high[("a", 1, "bt")] = 0.5, 0.56  # BT: moved down, still overlapping
    low[("b", 1, "median")], high[("b", 1, "median")] = 0.7, 0.8  # MEDIAN: clear rise with more instances
    low[("e", 1, "mean")], high[("e", 1, "mean")] = 0.1, 0.3  # MEAN fails in (e)
    per_setup = pd.DataFrame({"n_types": [1, 3, 3], "outlier_fraction": [0, 0, 0.1], "tau_mean": [0.5, 0.5, 0.5],
                              "tau_median": [0.5, 0.4, 0.3], "tau_bt": [0.6, 0.6, 0.6]})
    values = (simulation.fig3_claim_values(_panels(tau, low, high), per_setup, "r", seed=3, n_resamples=50)
              .set_index(["key", "detail"]).holds)
    assert values[("r.a-deteriorates-interval", "MEAN")] and not values[("r.a-deteriorates-interval", "BT")]
    assert values[("r.b-improves-interval", "MEDIAN")] and not values[("r.b-improves-interval", "MEAN")]
    assert values[("r.e-outliers", "MEAN fails")] and values[("r.e-outliers", "BT unaffected")]
