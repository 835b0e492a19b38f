"""Perturbations of WMT rankings (analysis.wmt_stability): a loop transcription of Knowles 2021's script, invariances,
hand cases and bad input."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis import wmt
from analysis import wmt_stability as ws
from tests.reference import knowles_ranking_loop

SYSTEMS = ["A", "B", "C", "D", "HUMAN-X"]
QUALITY = {"A": 62, "B": 60, "C": 50, "D": 35, "HUMAN-X": 80}


def synthetic_pair(seed: int, n_workers: int = 12, per_worker: int = 40, human: bool = True) -> pd.DataFrame:
    """One language pair in the wmt_judgments layout: lenient and harsh workers, SYSTEM/REPEAT judgments of
    segments shared across workers, REF and BAD_REF items, raw 0-100 integers and their worker z."""
    rng = np.random.default_rng(seed)
    systems = SYSTEMS if human else SYSTEMS[:-1]
    rows = []
    for w in range(n_workers):
        bias = rng.normal(0, 12)
        for k in range(per_worker):
            system = systems[rng.integers(len(systems))]
            kind = rng.choice(["SYSTEM", "SYSTEM", "SYSTEM", "SYSTEM", "REPEAT", "REF", "BAD_REF"])
            base = {"REF": 85, "BAD_REF": 15}.get(str(kind), QUALITY[system])
            raw = float(np.clip(np.round(base + bias + rng.normal(0, 15)), 0, 100))
            rows.append({"collection": "synthetic", "year": 2099, "pair": "xx-yy", "style": "SR+DC",
                         "hit": f"h{w}-{k // 20}", "worker": f"w{w}", "system": system, "document": f"d{k // 5}",
                         "segment": str(rng.integers(15)), "item_type": str(kind), "raw": raw, "time": float(k)})
    frame = pd.DataFrame(rows)
    frame["z"] = wmt.standardise(frame).to_numpy()
    return frame


def loop_rows(frame: pd.DataFrame) -> list:
    return list(frame[["worker", "system", "segment", "item_type", "raw"]].itertuples(index=False, name=None))


def as_lines(ranking: ws.Ranking) -> list:
    return list(np.diff(ranking.clusters) > 0) + [False]


# --- the pipeline against the paper's script -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("case", [
    {}, {"remove_human": True}, {"remove": ("C",)}, {"divide": 2.0}, {"divide": 10.0, "sig_remove": ("HUMAN-X",)},
    {"sig_remove": ("D",)}, {"variant": "greater"},
])
def test_vectorised_rankings_equal_a_loop_transcription_of_the_papers_script(seed, case):
    frame = synthetic_pair(seed)
    pair = ws.code_pair(frame)
    expected = knowles_ranking_loop(loop_rows(frame), **case)
    options = {"remove": case.get("remove", ()), "remove_human": case.get("remove_human", False),
               "divide": case.get("divide", 1.0), "cluster_exclude": case.get("sig_remove", ()),
               "variant": case.get("variant", "scipy<1.7")}
    ours = ws.perturbed_ranking(pair, raw=pair.raw, **options)
    assert list(ours.systems) == [s for s, _, _ in expected]
    np.testing.assert_allclose(ours.scores, [z for _, z, _ in expected], atol=1e-12)
    assert as_lines(ours) == [line for _, _, line in expected]


@settings(max_examples=8, deadline=None)  # each example codes two pairs (about 2 s)
@given(st.integers(0, 2**31), st.lists(st.tuples(st.floats(0.2, 5), st.floats(-40, 40)), min_size=12, max_size=12))
def test_ranking_is_invariant_to_a_per_worker_affine_rescaling_of_raw_scores(seed, maps):
    frame = synthetic_pair(seed % 1000)
    scale = np.array([a for a, _ in maps])[frame["worker"].str[1:].astype(int)]
    shift = np.array([b for _, b in maps])[frame["worker"].str[1:].astype(int)]
    moved = frame.assign(raw=frame["raw"] * scale + shift)
    a, b = ws.code_pair(frame), ws.code_pair(moved)
    keep = np.ones(a.n, bool)
    ra = ws.ranking(a, wmt.z_scores(a.raw, a.worker, keep, a.pool))
    rb = ws.ranking(b, wmt.z_scores(b.raw, b.worker, keep, b.pool))
    assert ra.systems == rb.systems and list(ra.clusters) == list(rb.clusters)
    np.testing.assert_allclose(ra.scores, rb.scores, atol=1e-10)


@pytest.mark.parametrize("seed", [3, 4])
def test_removing_and_restandardising_z_equals_recomputing_from_raw(seed):
    frame = synthetic_pair(seed)
    pair = ws.code_pair(frame)
    for options in ({"remove": ["B"]}, {"remove_human": True}, {"remove": ["A", "D"]}):
        from_z = ws.perturbed_ranking(pair, **options)  # restandardises the published z
        kept = frame[~frame["system"].isin(options.get("remove", []))]
        if options.get("remove_human"):
            kept = kept[~kept["system"].str.contains("HUMAN") & (kept["item_type"] != "REF")]
        kept = kept.assign(z=wmt.standardise(kept).to_numpy())
        from_raw = wmt.system_scores(kept)
        assert list(from_z.systems) == list(from_raw.index)
        np.testing.assert_allclose(from_z.scores, from_raw["score"], atol=1e-12)


def test_divisions_only_touch_workers_with_ref_or_human_items():
    frame = synthetic_pair(5)
    pair = ws.code_pair(frame)
    raw = pair.raw.copy()
    # a worker with REF items and an unknown raw makes the division refuse, unless left out with keep=
    raw[np.flatnonzero(pair.ref)[0]] = np.nan
    with pytest.raises(ValueError, match="raw scores are missing"):
        ws.perturbed_ranking(pair, divide=2.0, raw=raw)
    keep = ws.divisible(pair, raw)
    assert (~keep).sum() == (pair.worker == pair.worker[np.flatnonzero(pair.ref)[0]]).sum()
    ws.perturbed_ranking(pair, divide=2.0, raw=raw, keep=keep)
    # dividing by 1 is the original ranking
    assert ws.perturbed_ranking(pair, divide=1.0).systems == ws.perturbed_ranking(pair).systems


def test_reconstruct_raw_recovers_hidden_scores_from_worker_maps_and_segment_sums():
    frame = synthetic_pair(6)
    pair = ws.code_pair(frame)
    segments = frame[frame["item_type"].isin(wmt.SCORED_TYPES)].groupby(["system", "segment"])["raw"].agg(
        raw="mean", n="size").reset_index()
    hidden = frame.copy()
    rng = np.random.default_rng(0)
    hidden.loc[rng.random(len(frame)) < 0.8, "raw"] = np.nan
    # one worker keeps a single known raw: only the segment sums can recover it
    solo = hidden["worker"] == "w0"
    hidden.loc[solo, "raw"] = np.nan
    hidden.loc[solo.idxmax(), "raw"] = frame.loc[solo.idxmax(), "raw"]
    coded = ws.code_pair(hidden)
    only_maps, _ = ws.reconstruct_raw(coded)
    both, summary = ws.reconstruct_raw(coded, segments)
    known = ~np.isnan(both)
    np.testing.assert_array_equal(both[known], pair.raw[known])
    assert np.isnan(only_maps).sum() > np.isnan(both).sum()
    assert summary["raw_known"] == known.sum() and summary["workers"] == 12


def test_bootstrap_is_deterministic_and_unit_weights_are_the_plain_ranking():
    pair = ws.code_pair(synthetic_pair(7))
    a = ws.bootstrap_experiments(pair, pair.raw, np.random.default_rng(1), 3)
    b = ws.bootstrap_experiments(pair, pair.raw, np.random.default_rng(1), 3)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["experiment"]) <= {*ws.EXPERIMENTS, "noise"}
    ones = ws.perturbed_ranking(pair, weights=np.ones(pair.n))
    plain = ws.perturbed_ranking(pair)
    assert ones.systems == plain.systems
    np.testing.assert_allclose(ones.scores, plain.scores, atol=1e-12)
    # a weight of 2 on every judgment of one HIT is that HIT drawn twice (the copy under its own HIT id, so that it
    # is not taken for a re-duplicated row): the same z and (system, segment) means as the materialised resample;
    # each cell then counts the mean multiplicity of its judgments in the system mean (and the rank-sum test)
    twice = synthetic_pair(7)
    doubled = pd.concat([twice, twice[twice["hit"] == "h0-0"].assign(hit="copy")], ignore_index=True)
    weights = np.where(twice["hit"] == "h0-0", 2.0, 1.0)
    coded = ws.code_pair(doubled)
    z_weighted = wmt.z_scores(pair.z, pair.worker, None, pair.pool, weights)
    z_doubled = wmt.z_scores(coded.z, coded.worker, None, coded.pool)
    system, mean, cell_weight = ws.segment_cells(pair, z_weighted, weights)
    system_d, mean_d = ws.segment_means(coded, z_doubled)
    np.testing.assert_allclose(mean, mean_d, atol=1e-12)
    assert (system == system_d).all()
    counts = np.bincount(pair.key[pair.scored], minlength=len(pair.key_names))
    counts_d = np.bincount(coded.key[coded.scored], minlength=len(coded.key_names))
    judged = counts > 0
    np.testing.assert_allclose(cell_weight, counts_d[judged] / counts[judged])
    expected = np.bincount(system, cell_weight * mean, len(pair.systems)) / np.bincount(system, cell_weight,
                                                                                      len(pair.systems))
    ranking = ws.perturbed_ranking(pair, weights=weights)
    order = [pair.systems.index(s) for s in ranking.systems]
    np.testing.assert_allclose(ranking.scores, expected[order], atol=1e-12)


def test_bad_input_is_a_clear_error():
    frame = synthetic_pair(8)
    with pytest.raises(ValueError, match="exactly one"):
        ws.code_pair(pd.concat([frame, frame.assign(pair="zz-yy")]))
    pair = ws.code_pair(frame)
    with pytest.raises(ValueError, match="unknown systems"):
        ws.perturbed_ranking(pair, remove=["nope"])
    with pytest.raises(ValueError, match="needs raw"):
        ws.perturbed_ranking(pair, divide=2.0)
    with pytest.raises(ValueError, match="positive"):
        ws.perturbed_ranking(pair, divide=0.0)
    with pytest.raises(ValueError, match="variant"):
        wmt.rank_sum_pvalues([0, 1], [0.0, 1.0], 2, "two-sided")
    with pytest.raises(ValueError, match="finite"):
        wmt.rank_sum_pvalues([0, 1], [0.0, np.nan], 2)
    with pytest.raises(ValueError, match="unknown experiments"):
        ws.experiments(pair, only=["remove_everything"])


# --- effect sizes, weighted tests, one p-value matrix for every exclusion, controls ----------------------------------

def test_effect_sizes_by_hand():
    # same systems, B and C swapped inside one cluster: one discordant pair, no significant reversal
    sizes = wmt.ranking_effect_sizes(["A", "B", "C", "D"], [0, 1, 1, 2], ["A", "C", "B", "D"], [0, 1, 1, 2])
    assert sizes == {"discordant": 1, "tau_distance": 1 / 6, "reversals": 0}
    # A above D in strictly ordered clusters in one, D above A in strictly ordered clusters in the other
    sizes = wmt.ranking_effect_sizes(["A", "B", "D"], [0, 1, 2], ["D", "B", "A"], [0, 1, 2])
    assert sizes["discordant"] == 3 and sizes["tau_distance"] == 1.0 and sizes["reversals"] == 3
    # a swap across clusters that merge in the other ranking is no significant reversal
    sizes = wmt.ranking_effect_sizes(["A", "B"], [0, 1], ["B", "A"], [0, 0])
    assert sizes == {"discordant": 1, "tau_distance": 1.0, "reversals": 0}
    with pytest.raises(ValueError):
        wmt.ranking_effect_sizes(["A", "B"], [0, 1], ["A", "C"], [0, 1])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_weighted_rank_sum_equals_duplicated_observations(seed):
    rng = np.random.default_rng(seed)
    n, k = 60, 4
    groups = rng.integers(0, k, n)
    scores = np.round(rng.normal(size=n), 1)  # ties on purpose
    weights = rng.integers(0, 4, n)
    weighted = wmt.rank_sum_pvalues(groups, scores, k, "greater", weights.astype(float))
    duplicated = wmt.rank_sum_pvalues(np.repeat(groups, weights), np.repeat(scores, weights), k, "greater")
    np.testing.assert_allclose(weighted, duplicated, equal_nan=True, atol=1e-12)
    np.testing.assert_allclose(wmt.rank_sum_pvalues(groups, scores, k, "greater", np.ones(n)),
                               wmt.rank_sum_pvalues(groups, scores, k, "greater"), equal_nan=True)
    with pytest.raises(ValueError):
        wmt.rank_sum_pvalues(groups, scores, k, "greater", -np.ones(n))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_pvalue_matrix_serves_every_exclusion(seed):
    pj = ws.code_pair(synthetic_pair(seed))
    excludes = [(), ["HUMAN-X"], ["A"], ["D", "HUMAN-X"]]
    together = ws.unperturbed_rankings(pj, excludes)
    for exclude, ranking in zip(excludes, together):
        alone = ws.perturbed_ranking(pj, cluster_exclude=exclude)
        assert ranking.systems == alone.systems and (ranking.clusters == alone.clusters).all()
        np.testing.assert_allclose(ranking.scores, alone.scores)
    last = ws.unperturbed_rankings(pj, [(), lambda r: [r.systems[-1]]])[1]
    assert last.systems == together[0].systems[:-1]


def test_weighted_cells_count_as_often_as_their_judgments_were_drawn():
    pj = ws.code_pair(synthetic_pair(4))
    # integer weights per judgment = duplicating every judgment that many times; with all weights 2 nothing changes
    twice = ws.perturbed_ranking(pj, weights=np.full(pj.n, 2.0))
    once = ws.perturbed_ranking(pj)
    assert twice.systems == once.systems and (twice.clusters == once.clusters).all()
    system, _, cell_weight = ws.segment_cells(pj, pj.z, np.full(pj.n, 2.0))
    assert np.allclose(cell_weight, 2.0) and len(system) == len(cell_weight)
    _, _, plain = ws.segment_cells(pj, pj.z)
    assert (plain == 1).all()


def _numpy_segment_cells(pair, values, weights):
    """:func:`analysis.wmt_stability.segment_cells` as numpy code (``bincount``s per key)."""
    rows = pair.scored & ~np.isnan(values)
    w = rows.astype(float) if weights is None else rows * weights
    n_keys = len(pair.key_system)
    key_weight = np.bincount(pair.key, w, n_keys)
    key_sum = np.bincount(pair.key, w * np.where(rows, values, 0.0), n_keys)
    present = key_weight > 0
    if weights is None:
        cell_weight = np.ones(int(present.sum()))
    else:
        cell_weight = key_weight[present] / np.bincount(pair.key, rows.astype(float), n_keys)[present]
    return pair.key_system[present], key_sum[present] / key_weight[present], cell_weight


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_segment_cells_are_bit_for_bit_the_numpy_computation(seed):
    rng = np.random.default_rng(seed)
    pj = ws.code_pair(synthetic_pair(seed))
    for weights in (None, rng.integers(0, 3, pj.n).astype(float)):
        values = wmt.z_scores(pj.z, pj.worker, rng.random(pj.n) < 0.9, pj.pool, weights)  # NaN where left out
        got, expected = ws.segment_cells(pj, values, weights), _numpy_segment_cells(pj, values, weights)
        assert (got[0] == expected[0]).all() and got[0].dtype == expected[0].dtype
        for a, b in zip(got[1:], expected[1:]):
            assert a.shape == b.shape and (a.view(np.int64) == b.view(np.int64)).all()


def test_experiments_skip_only_the_bases_they_do_not_need():
    pj = ws.code_pair(synthetic_pair(5))
    raw = pj.raw
    every = pd.DataFrame(ws.experiments(pj, raw, unknown_raw="keep_z"))
    some = pd.DataFrame(ws.experiments(pj, raw, only=["remove_human", "divide_2"], unknown_raw="keep_z"))
    expected = every[every["experiment"].isin(["remove_human", "divide_2"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(some, expected, check_exact=True)
