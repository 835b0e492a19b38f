"""Chapter 02's readings of the paired paper: Table 3 from sub-samples, §5's totals, BT-eval's Fig. 4(c) and Fig. 6
draws and its sign test, and the helpers that put each published number next to ours."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.agreement import measure_column
from analysis.chapters import real_setups as ch
from analysis.chapters import simulation
from analysis.data import published
from analysis.plotting import readable
from tests.helpers import random_scores


def _setups(seed=0):
    rng = np.random.default_rng(seed)
    return [(("TAC", "08", metric), random_scores(rng, 48, 5, levels=4)) for metric in ("BLEU", "ROUGE_1", "JS_1")]


# --- the published Table 3 and §5 ---------------------------------------------------------------------------------

def test_published_table3_has_every_printed_cell_once():
    t3 = ch.published_table3()
    assert len(t3) == 423  # 10 datasets x 5 groups x 3 measures x 3 pairs, less MSCOCO's 27 '-' cells
    assert not t3.duplicated(["dataset", "metric_group", "measure", "pair"]).any()
    cell = t3.set_index(["dataset", "metric_group", "measure", "pair"]).paper
    assert cell[("TAC08", "BLEU", "top1", "mean_bt")] == 0.43
    assert cell[("WMT18", "ROUGE-WE", "top3", "median_bt")] == 0.77  # printed '77'
    assert cell[("MSCOCO", "ROUGE", "top3", "mean_median")] == 0.47
    assert set(t3[t3.dataset == "MSCOCO"].metric_group) == {"BLEU", "ROUGE"}


def test_single_metric_cells_of_the_papers_own_data_have_the_grain_of_30_draws():
    """The evidence for the sub-sample reading: a share of 30 draws, rounded to two decimals."""
    t3 = ch.published_table3()
    single = t3[t3.dataset.isin(ch.TABLE3_EXACT) & t3.measure.isin(["top1", "top3"])
                & t3.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    fits = (np.round(single.paper * 30) / 30 - single.paper).abs() <= 0.0051
    assert fits.sum() == len(single) - 1 == 89


def test_section5_totals_are_appendix_a3_plus_wmt19_lt_en():
    a3 = ch.paper_inventory()
    assert len(a3) == 23 and (a3.collection.str.startswith("WMT")).sum() == 16
    lt_en = pd.DataFrame([{"collection": "WMT19", "dataset": "lt-en", "instances": 1000, "systems": 11, "metrics": 13}])
    paper = published.item("paired", "section5")
    totals = ch.section5_totals(pd.concat([a3, lt_en]))
    assert totals.to_dict() == {k: paper[k] for k in ("setups", "system_pairs", "test_instances")}
    assert ch.section5_totals(a3)["test_instances"] == paper["test_instances"] - 1000


def test_dataset_inventory_counts_metrics_per_dataset():
    frame, _ = ch.inventory(_setups())
    inv = ch.dataset_inventory(frame)
    assert inv.to_dict("records") == [{"collection": "TAC", "dataset": "08", "instances": 48, "systems": 5,
                                       "metrics": 3}]


# --- the sub-sample reading ----------------------------------------------------------------------------------------

def test_fraction_subsamples_draw_a_fifth_of_each_setup_reproducibly():
    draws = ch.fraction_subsamples(_setups(), 0.2, 4, rng=1)
    assert len(draws) == 12 and (draws.n_instances == 10).all()  # round(0.2 * 48)
    again = ch.fraction_subsamples(_setups(), 0.2, 4, rng=1)
    pd.testing.assert_frame_equal(draws, again)
    means = ch.per_setup_draw_means(draws)
    assert list(means.draws) == [4, 4, 4]
    col = measure_column(("mean", "bt"), "disagree")
    np.testing.assert_allclose(means[col], draws.groupby("metric", sort=False)[col].mean().to_numpy())


def test_table3_side_by_side_averages_the_cells_setups_and_their_draw_noise():
    setups = _setups()
    draws = ch.fraction_subsamples(setups, 0.2, 5, rng=2)
    full = ch.disagreement_rows(setups, "loss", ch.PAPER)
    side = ch.table3_side_by_side(draws, full).set_index(["dataset", "metric_group", "measure", "pair"])
    assert len(side) == 423 and list(side.columns) == ["paper", "ours", "ours_full", "setups", "noise_sd"]
    col = measure_column(("mean", "bt"), "disagree")
    bleu = side.loc[("TAC08", "BLEU", "disagree", "mean_bt")]
    assert bleu.setups == 1
    per_draw = draws[draws.metric == "BLEU"][col]
    assert bleu.ours == pytest.approx(per_draw.mean())
    assert bleu.ours_full == pytest.approx(full.loc[full.metric == "BLEU", col].iloc[0])
    assert bleu.noise_sd == pytest.approx(np.sqrt(per_draw.var(ddof=1) * (1 / 5 + 1 / 30)))
    # ROUGE here is ROUGE_1 alone; JS_1 belongs to no column; a dataset we lack has no value and 0 setups
    assert side.loc[("TAC08", "ROUGE", "disagree", "mean_bt")].setups == 1
    missing = side.loc[("TC", "BLEU", "disagree", "mean_bt")]
    assert missing.setups == 0 and np.isnan(missing.ours) and missing.paper == 0.26


def test_table3_swaps_finds_exchanged_columns_only():
    side = ch.published_table3().assign(ours_full=np.nan, setups=1, noise_sd=0.01)
    side["ours"] = side.paper
    swapped = side.copy()
    cell = (swapped.dataset == "TAC09") & (swapped.metric_group == "BLEU") & (swapped.measure == "disagree")
    a, b = cell & (swapped.pair == "mean_bt"), cell & (swapped.pair == "median_bt")
    swapped.loc[a, "ours"], swapped.loc[b, "ours"] = side.loc[b, "paper"].item(), side.loc[a, "paper"].item()
    assert ch.table3_swaps(side) == []
    assert ch.table3_swaps(swapped) == [("TAC09", "BLEU")]
    counts = ch.table3_agreement(side)
    assert (counts[("20% sub-samples", "within 0.02")] == counts[("", "cells")]).all()
    assert "look exchanged" in ch.table3_notes(swapped) and "look exchanged" not in ch.table3_notes(side)


# --- BT-eval's draws -----------------------------------------------------------------------------------------------

def test_paper_size_draws_take_a_small_setup_whole():
    draws = ch.paper_size_draws(_setups(), [10, 100], 6, rng=0)
    assert len(draws) == 12
    assert set(draws.loc[draws["size"] == 100, "n_instances"]) == {48}
    assert set(draws.loc[draws["size"] == 10, "n_instances"]) == {10}


@pytest.mark.parametrize("x,y,k", [
    ([3, 3, 3, 1, 1], [1, 1, 2, 2, 1], 3),  # a wins 3, b wins 1, one tie: a preferred (3 >= 1 + 1)
    ([3, 1, 1, 1, 1], [1, 2, 1, 1, 1], 1),  # a wins 1, b wins 1, three ties go to b: b preferred, k = 1
])
def test_bt_eval_sign_test_counts_the_preferred_systems_strict_wins_among_all(x, y, k):
    result = ch.bt_eval_sign_test(x, y)
    assert result.statistic == k
    assert result.pvalue == pytest.approx(stats.binomtest(k, len(x), 0.5).pvalue)


def test_bt_eval_sign_test_rejects_on_ties_alone():
    x = [1.0] * 2 + [0.5] * 18
    y = [0.0] * 2 + [0.5] * 18  # a never loses, but the ties go to b, which then has 0 strict wins of 20
    assert ch.bt_eval_sign_test(x, y).pvalue < 1e-5
    assert ch.PAIRED_TESTS["sign"](x, y).pvalue == pytest.approx(0.5)  # the textbook test: 2 of 2, p = 0.5


def test_paper_significance_draws_test_the_requested_number_of_pooled_pairs():
    per_pair, matrix = ch.paper_significance_draws(_setups(), n_draws=4, fraction=0.2, n_pairs=15, rng=3)
    assert len(per_pair) == 15 and list(matrix.index) == list(ch.BT_EVAL_TESTS)
    again, _ = ch.paper_significance_draws(_setups(), n_draws=4, fraction=0.2, n_pairs=15, rng=3)
    pd.testing.assert_frame_equal(per_pair, again)


def test_metric_ranks_put_the_most_affected_metric_first():
    fig4 = ch.subsampled_disagreement(_setups(), [10], 3, rng=0)
    ranks = ch.metric_ranks(fig4)
    col = "mean_bt"
    assert ranks.loc[ranks[col].idxmax(), f"{col} rank"] == 1
    assert sorted(ranks[f"{col} rank"]) == sorted(ranks[col].rank(ascending=False, method="min").astype(int))


# --- readers' tables and the simulation's example ------------------------------------------------------------------

def test_readable_prints_counts_as_integers_and_spaces_headers():
    frame = pd.DataFrame({"n_setups": [120.0, 3.0], "share_x": [0.12345, 0.5]})
    shown = readable(frame)
    assert list(shown.columns) == ["n setups", "share x"]
    assert str(shown["n setups"].dtype) == "Int64" and shown["share x"].iloc[0] == 0.123


def test_example_story_states_the_examples_own_numbers():
    example = simulation.example_setup(2021, 100.0)
    story = simulation.example_story(example)
    best = example.latent.idxmax()
    assert story.startswith(f"The strongest system by the latent λ, {best}, wins")
    assert "BT:" in story and "MEAN:" in story


def test_text_claims_give_a_verdict_computed_from_the_numbers():
    section5 = pd.DataFrame({"setups": [296, 283, 296], "system_pairs": [73471, 72756, 73471],
                             "test_instances": [91197, 90197, 91197]},
                            index=["the paper's §5", "Appendix A.3's list", "Appendix A.3 + WMT19 lt-en"])
    metrics = ["BLEU", "BERTScore", "MoverScore", "ROUGE_1"]
    ranks = pd.DataFrame({"mean_bt rank": [1, 4, 3, 2], "median_bt rank": [2, 3, 4, 1]}, index=metrics)
    size = pd.DataFrame({"size": [10, 500, 500], "pair": ["mean_bt", "mean_bt", "median_bt"],
                         "disagree": [0.2, 0.11, 0.12]})
    values = np.full((4, 4), 0.9)
    np.fill_diagonal(values, [0.4, 0.2, 0.3, 0.35])
    sig = pd.DataFrame(values, index=list(ch.BT_EVAL_TESTS), columns=list(ch.BT_EVAL_TESTS))
    iia = pd.DataFrame({"size": ["full", "full", 5], "n_instances": [40, 8, 5], "reversed": [3, 1, 2]})
    claims = ch.text_claims(section5=section5, ranks=ranks, fig4_size=size, fig4_paper_size=size, sig_paper=sig,
                            sig_full=sig, iia=iia).set_index("where")
    assert claims.loc["§5", "verdict"].startswith("reproduced")
    assert claims.loc["Fig. 4(c)", "verdict"] == "reproduced"  # 11% and 12% at sizes >= 500
    assert claims.loc["§5 / App. D", "verdict"].startswith("reproduced")
    assert claims.loc["App. F", "ours"].startswith("3 reversals in 1 of 1 setups")
    bleu, bert = claims.loc["Fig. 4(a)"].iloc[0], claims.loc["Fig. 4(a)"].iloc[1]
    assert bleu.verdict == "reproduced" and bert.verdict == "reproduced"  # ranks 3-4 of 4 are the lower half
