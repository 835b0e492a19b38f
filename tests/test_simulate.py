"""The synthetic generator of Peyrard et al. (2021) §4 / App. A.2 and the Fig. 3 summaries."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis import simulate

SMALL_GRID = dict(n_types=(1, 3), outlier_fraction=(0.0, 0.025), n_systems=(3, 5), n_instances=(10, 30))


def test_paper_grid_has_2880_setups():
    cells = np.prod([len(v) for v in simulate.PAPER_GRID.values()])
    assert cells == 288 and cells * simulate.PAPER_DATASETS == 2880


@pytest.mark.parametrize("f, m, expected", [(0.0, 200, 0), (0.01, 10, 1), (0.01, 30, 1), (0.01, 200, 2),
                                            (0.025, 10, 1), (0.025, 100, 2), (0.025, 200, 5), (1.0, 7, 7)])
def test_number_of_outliers_follows_the_published_rule(f, m, expected):
    assert simulate.n_outliers(f, m) == expected


def test_section4_types_share_one_offset_per_instance():
    """Section 4: within an instance every system gets the same type offset, so without noise the score minus the
    latent strength is constant across systems."""
    setup = simulate.simulate_setup(4, 40, 5, rng=0, sigma=1e-12, offset_scale=50.0)
    residual = setup.scores.to_numpy() - setup.latent.to_numpy()[None, :]
    assert np.allclose(residual, residual[:, :1])
    per_type = pd.Series(residual[:, 0].round(6)).groupby(setup.instance_type).nunique()
    assert (per_type == 1).all() and len(per_type) == 5
    assert np.bincount(setup.instance_type).tolist() == [8] * 5  # split evenly


def test_appendix_a2_truth_is_the_expected_score():
    setup = simulate.simulate_setup(3, 7, 2, rng=1, strengths="appendix_a2", sigma=1e-12)
    assert np.allclose(setup.scores.mean(), setup.latent)


def test_permuted_outliers_are_derangements_of_the_row():
    base = simulate.simulate_setup(6, 30, 2, 0.0, rng=np.random.default_rng(5))
    # same stream up to the outlier draw: regenerate with outliers and compare the multiset of each outlier row
    setup = simulate.simulate_setup(6, 30, 2, 0.1, rng=np.random.default_rng(5))
    rows = np.flatnonzero(setup.outlier)
    assert len(rows) == 3
    for r in rows:
        assert sorted(setup.scores.iloc[r]) == pytest.approx(sorted(base.scores.iloc[r]))
        assert not np.isclose(setup.scores.iloc[r].to_numpy(), base.scores.iloc[r].to_numpy()).any()
    clean = ~setup.outlier
    assert np.array_equal(setup.scores[clean].to_numpy(), base.scores[clean].to_numpy())


def test_adversarial_outliers_rank_systems_against_their_strength():
    setup = simulate.simulate_setup(5, 40, 1, 0.1, rng=3, outliers="adversarial")
    for r in np.flatnonzero(setup.outlier):
        row = setup.scores.iloc[r].to_numpy()
        assert ((row >= 0) & (row <= 100)).all()
        assert stats.kendalltau(row, setup.latent).statistic < 0


def test_resolution_rounds_scores_and_creates_ties():
    setup = simulate.simulate_setup(5, 50, 1, rng=2, resolution=0.5)
    values = setup.scores.to_numpy()
    assert np.allclose(values * 2, np.round(values * 2))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(n_systems=1), "n_systems"),
        (dict(n_instances=0), "n_instances"),
        (dict(n_types=20, n_instances=10), "cannot exceed"),
        (dict(outlier_fraction=1.5), "outlier_fraction"),
        (dict(strengths="section5"), "strengths model"),
        (dict(outliers="swap"), "outlier model"),
        (dict(sigma=0.0), "sigma"),
        (dict(resolution=-1.0), "resolution"),
        (dict(rng=None), "rng"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    args = dict(n_systems=3, n_instances=10, n_types=1, outlier_fraction=0.0, rng=0) | kwargs
    with pytest.raises(ValueError, match=message):
        simulate.simulate_setup(**args)


def test_kendall_to_latent_counts_a_constant_aggregate_as_zero():
    assert simulate.kendall_to_latent([0.1, 0.7], [0.5, 0.5]) == 0.0
    assert simulate.kendall_to_latent([0.1, 0.7, 0.3], [1, 3, 2]) == 1.0
    assert simulate.kendall_to_latent([0.1, 0.7, 0.3], [3, 1, 2]) == -1.0


def test_run_grid_is_deterministic_and_cells_are_independent_of_the_grid():
    a = simulate.run_grid(seed=7, grid=SMALL_GRID, n_datasets=2)
    b = simulate.run_grid(seed=7, grid=SMALL_GRID, n_datasets=2)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 2 * 2 * 2 * 2 * 2
    # a sub-grid draws the very same datasets for its cells
    sub = simulate.run_grid(seed=7, grid=dict(SMALL_GRID, n_types=(3,), n_systems=(5,)), n_datasets=2)
    merged = sub.merge(a, on=list(simulate.GRID_KEYS), suffixes=("", "_full"))
    assert len(merged) == len(sub)
    for name in ("mean", "median", "bt"):
        assert np.array_equal(merged[f"tau_{name}"], merged[f"tau_{name}_full"])
    other = simulate.run_grid(seed=8, grid=SMALL_GRID, n_datasets=2)
    assert not a.filter(like="tau").equals(other.filter(like="tau"))


def test_run_grid_taus_match_scipy_on_the_regenerated_setup():
    frame = simulate.run_grid(seed=3, grid=dict(SMALL_GRID, n_types=(3,), outlier_fraction=(0.025,)), n_datasets=1,
                              mechanism_names=("mean", "median", "bt", "elo", "trueskill"))
    row = frame.iloc[-1]
    seed = simulate.setup_seed(3, 3, 0.025, int(row.n_systems), int(row.n_instances), 0)
    setup = simulate.simulate_setup(int(row.n_systems), int(row.n_instances), 3, 0.025, rng=np.random.default_rng(seed))
    assert row.tau_mean == pytest.approx(stats.kendalltau(setup.latent, setup.scores.mean()).statistic)
    assert row.tau_median == pytest.approx(stats.kendalltau(setup.latent, setup.scores.median()).statistic)
    assert row.n_outliers == 1 and row.tie_rate == 0.0


def test_the_paper_mechanisms_behave_as_section4_predicts():
    """Large-sample sanity check of the claims: MEDIAN suffers from many types, MEAN from adversarial outliers, BT
    from neither. (Averages over 40 setups, with margins far wider than the seed-to-seed spread.)"""
    grid = dict(n_types=(10,), outlier_fraction=(0.0,), n_systems=(10,), n_instances=(200,))
    types = simulate.run_grid(seed=1, grid=grid, n_datasets=40).filter(like="tau").mean()
    assert types.tau_median < types.tau_bt - 0.15 and types.tau_median < types.tau_mean - 0.15
    grid = dict(n_types=(1,), outlier_fraction=(0.025,), n_systems=(10,), n_instances=(200,))
    adv = simulate.run_grid(seed=1, grid=grid, n_datasets=40, outliers="adversarial").filter(like="tau").mean()
    assert adv.tau_mean < 0.3 < adv.tau_bt - 0.3


def test_tie_rate_counts_tied_pairs():
    values = np.array([[1.0, 1.0, 2.0], [0.0, 0.0, 0.0]])
    assert simulate._tie_rate(values) == pytest.approx((1 + 3) / (2 * 3))


def test_summarise_panels_covers_every_panel_and_x_value():
    frame = simulate.run_grid(seed=2, grid=SMALL_GRID, n_datasets=2)
    summary = simulate.summarise_panels(frame, ["mean", "bt"], rng=0, n_resamples=50)
    assert set(summary.panel) == set("abcdefgh")
    assert (summary.low <= summary.tau + 1e-12).all() and (summary.tau <= summary.high + 1e-12).all()
    g = summary.query("panel == 'g' and mechanism == 'bt'")
    assert g.n_setups.sum() == len(frame)
    expected = frame.groupby("n_systems").tau_bt.mean()
    assert np.allclose(g.set_index("x_value").tau, expected)
