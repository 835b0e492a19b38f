"""§7 of Knowles (2021): the metrics' Pearson correlations under resampled human rankings
(analysis.chapters.wmt_stability.section7), against scipy, brute-force loops and a hand-made pair."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import pearsonr

from analysis.chapters.wmt_stability import section7


@given(st.integers(3, 8), st.integers(1, 4), st.integers(1, 4), st.integers(0, 10_000))
@settings(max_examples=30, deadline=None)
def test_pearson_rows_equals_scipy(k, n, m, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(n, k)), rng.normal(size=(m, k))
    expected = np.array([[pearsonr(x, y)[0] for y in b] for x in a])
    np.testing.assert_allclose(section7.pearson_rows(a, b), expected, atol=1e-12)


@given(st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=1, max_size=5),
       st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_discordant_pairs_equals_a_loop(rows, reference):
    rows, reference = np.array(rows, float), np.array(reference, float)
    expected = [sum((r[i] - r[j]) * (reference[i] - reference[j]) < 0 for i, j in itertools.combinations(range(4), 2))
                for r in rows]
    assert section7._discordant_pairs(rows, reference).tolist() == expected


def _pair(seed=0, n_systems=6, n_segments=40):
    """A 2020 pair whose systems differ in quality, and three metrics: one tracking the human z closely, one
    loosely, one at random."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0.6, -0.6, n_systems)
    systems = [f"sys{k}.{100 + k}" for k in range(n_systems)]
    segments = pd.DataFrame([
        {"collection": "newstest2020", "year": 2020, "pair": "xx-en", "system": s, "segment": g,
         "raw": 50.0, "z": q + rng.normal(0, 1), "n": 1}
        for s, q in zip(systems, quality) for g in range(n_segments)])
    metrics = pd.DataFrame([
        {"metric": name, "kind": "baseline", "pair": "xx-en", "reference": "newstest2020", "system": s,
         "score": q * weight + rng.normal(0, noise)}
        for name, weight, noise in (("close", 1, 0.01), ("loose", 1, 0.3), ("random", 0, 1))
        for s, q in zip(systems, quality)])
    return segments, metrics


def test_consequences_on_a_hand_made_pair():
    segments, metrics = _pair()
    table = section7.consequences(segments, metrics, seed=3, n_resamples=200)
    row, pooled = table.iloc[0], table.iloc[-1]
    assert row["pair"] == "xx-en" and pooled["pair"] == "all"
    assert row["systems"] == 6 and row["metrics"] == 3 and row["metric_pairs"] == 3
    assert row["top_metric"] == "close"
    assert 0 <= row["rank_only_metrics_reordered"] <= row["rank_only"] <= 200
    assert pooled["rank_only"] == row["rank_only"]
    again = section7.consequences(segments, metrics, seed=3, n_resamples=200)
    pd.testing.assert_frame_equal(table, again)  # same seed, same numbers
    numbers = section7.page_numbers(table)
    assert numbers["sec7-pairs"] == 1 and numbers["sec7-resamples"] == 200


def test_a_metric_missing_a_system_is_left_out_and_too_few_pairs_fail_clearly():
    segments, metrics = _pair()
    partial = metrics[~((metrics["metric"] == "loose") & (metrics["system"] == "sys0.100"))]
    official, wide = section7.pair_inputs(segments, partial, "xx-en")
    assert list(wide.columns) == ["close", "random"]
    with pytest.raises(ValueError, match="no 2020 pair"):
        section7.consequences(segments, metrics.assign(pair="yy-en"), seed=0, n_resamples=5)


@pytest.mark.parametrize("n_resamples", [1, 7])
def test_resampled_z_draws_each_system_from_its_own_segments(n_resamples):
    segments, _ = _pair(n_segments=1)  # one segment per system: every resample is that segment's z
    systems = sorted(segments["system"])
    z = section7.resampled_z(segments, "xx-en", systems, np.random.default_rng(0), n_resamples)
    expected = segments.set_index("system").loc[systems, "z"].to_numpy()
    np.testing.assert_array_equal(z, np.tile(expected, (n_resamples, 1)))
