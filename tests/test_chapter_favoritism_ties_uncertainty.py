"""Chapter 04 (analysis.chapters.favoritism): ties made visible, Table 1's counts, the document bootstrap,
the Benjamini-Hochberg reading of the sign-flip tests and the split-half attenuation reading, on hand-made inputs."""

import numpy as np
import pandas as pd
import pytest

from analysis import favi
from analysis.chapters.favoritism import appendix_d, definitions, experiments, fig4, fig5, table1, uncertainty


def _long(dataset, matrices: dict, kinds: dict) -> pd.DataFrame:
    """A favi_scores-like table from {rater: items x systems DataFrame} and {rater: rater_kind}."""
    frames = []
    for rater, matrix in matrices.items():
        long = matrix.rename_axis(index="item", columns="system").stack(future_stack=True).rename("score")
        frames.append(long.reset_index().assign(domain="d", dataset=dataset, rater=rater, rater_kind=kinds[rater]))
    out = pd.concat(frames, ignore_index=True)
    out["item"] = out["item"].astype(str)
    return out[["domain", "dataset", "item", "system", "rater", "rater_kind", "score"]]


# --- ties -------------------------------------------------------------------------------------------------------------

def test_reading_gap_widens_the_ends_by_the_printed_rounding():
    assert appendix_d.reading_gap(0.31, 0.258, 0.422) == 0
    assert appendix_d.reading_gap(0.07, 0.202, 0.215) < 0
    assert appendix_d.reading_gap(0.3, 0.304, 0.5) == 0  # 0.3 stands for [0.25, 0.35)
    assert appendix_d.reading_gap(0.348, 0.3486, 0.5) < 0  # three decimals: half a thousandth
    assert np.isnan(appendix_d.reading_gap(0.3, np.nan, 0.5))


def _summary_with_ties():
    return pd.DataFrame({
        "domain": "d", "dataset": ["summeval", "wmt22-ende", "wmt22-ende"],
        "aspect": ["expert_consistency", "MQM", "MQM"], "rater": ["ROUGE_L", "GEMBA-DA-ChatGPT", "BLEU"],
        "pairs": 10, "sample_accuracy": [0.215, 0.475, 0.422], "system_accuracy": [0.6, 0.7, 0.7],
        "mean_abs_favi": [0.3, 0.2, 0.2], "human_tie_share": [0.67, 0.51, 0.54], "metric_tie_share": [0.01, 0.59, 0.21],
        "matching_tie_share": [0.01, 0.32, 0.16], "sample_accuracy_without_tie_credit": [0.202, 0.154, 0.258]})


def test_appendix_d_says_which_printed_accuracies_lie_between_the_readings():
    cases = appendix_d.appendix_d(_summary_with_ties())
    assert cases["paper_between"].to_dict() == {"BertScore": False, "ROUGE": False, "ChatGPT": True, "BLEU": True}
    assert cases.loc["BLEU", "sample_without_tie_credit"] == 0.258
    page = appendix_d.appendix_d_ties_page(cases)
    assert list(page.index) == ["ROUGE", "ChatGPT", "BLEU"]  # BertScore has no setting here
    assert page[("sample-level accuracy", "paper's between the two")].tolist() == ["no", "yes", "yes"]
    assert page.loc["ChatGPT", ("sample-level accuracy", "without tie credit")] == pytest.approx(0.154, abs=5e-4)


def test_fig4_ties_page_keeps_the_paper_datasets_in_order():
    page = fig4.fig4_ties_page(_summary_with_ties())
    assert list(page.index) == ["GEMBA-DA-ChatGPT on WMT22 en-de", "BLEU on WMT22 en-de", "ROUGE-L on SummEval"]
    assert page.shape[1] == 7 and page[("ties", "both")].tolist() == [0.32, 0.16, 0.01]


def test_the_ties_figure_is_legible_with_every_setting_of_the_full_run():
    """21 settings (the full run's) stay legible at the page's width."""
    from tests.helpers import legible

    base = fig4.fig4_ties_page(_summary_with_ties())
    page = pd.concat([base] * 7).set_axis([f"metric {k} on WMT22 zh-en" for k in range(21)])
    assert legible(fig4.plot_fig4_ties(page)) <= 1396  # shown at 55% or more of its width


def test_identical_outputs_are_counted_among_the_ties():
    items = pd.Index(["0", "1", "2"])
    human = pd.DataFrame({"a": [1.0, 2.0, 1.0], "b": [1.0, 1.0, 1.0], "c": [3.0, 2.0, 1.0]}, index=items)
    metric = pd.DataFrame({"a": [5.0, 5.0, 1.0], "b": [5.0, 4.0, 2.0], "c": [5.0, 5.0, 2.0]}, index=items)
    scores = _long("summeval", {"H": human, "M": metric}, {"H": "human", "M": "metric"})
    texts = pd.DataFrame({"item": ["0", "0", "0", "1", "1", "1", "2", "2"],
                          "system": ["a", "b", "c", "a", "b", "c", "a", "b"],
                          "text": ["s", "s", "t", "u", "v", "u", "w", "w"]})  # c has no text for item 2
    row = fig4.identical_output_ties(scores, {"summeval": texts}, [("summeval", "H", "M")]).iloc[0]
    # by hand (item 2 has no text for c, so 3 + 3 + 1 comparisons):
    # pairs (a,b), (a,c), (b,c); item 0: H 1,1,3 M 5,5,5; item 1: H 2,1,2 M 5,4,5; item 2: H 1,1,1 M 1,2,2 (c: no text)
    assert row["comparisons"] == 7 and row["identical_outputs"] == 3  # (a,b)@0, (a,c)@1, (a,b)@2
    assert row["metric_ties"] == 4 and row["metric_ties_identical"] == 2  # ties: (a,b)@0 (a,c)@0 (b,c)@0 (a,c)@1
    assert row["human_ties"] == 3 and row["human_ties_identical"] == 3  # (a,b)@0, (a,c)@1, (a,b)@2
    assert row["matching_ties_identical"] == 2 and row["metric_ties_identical_share"] == 0.5
    page = fig4.identical_page(pd.DataFrame([row]))
    assert page.index.tolist() == ["M on SummEval"] and page[("metric", "share from identical outputs")].item() == 0.5


# --- Table 1 ----------------------------------------------------------------------------------------------------------

def test_table1_counts_rated_and_compared_systems_and_the_items_they_share():
    rng = np.random.default_rng(0)
    human = pd.DataFrame(rng.normal(size=(6, 4)), columns=list("abcd"), index=[str(i) for i in range(6)])
    human.iloc[4:] = np.nan  # 4 of 6 items rated, for every system
    metric = human.copy()[["a", "b", "c"]].assign(d=np.nan) + 1  # the metric covers three systems
    scores = _long("wmt21-ende", {"MQM": human, "BLEU": metric}, {"MQM": "human", "BLEU": "metric"})
    pairs = experiments.per_pair(scores, ["wmt21-ende"], n_resamples=5, rng=0)
    counts = table1.table1(scores, pairs).iloc[0]
    assert (counts["systems_rated"], counts["systems_compared_min"], counts["systems_compared_max"]) == (4, 3, 3)
    assert counts["rated_items_max"] == 4 and counts["dataset_items"] == 6 and counts["same_rated_items"]
    assert counts["data"] == "WMT21 en-de" and (counts["human_raters"], counts["automatic_raters"]) == (1, 1)


# --- multiple testing, document bootstrap, split halves ---------------------------------------------------------------

def test_multiple_testing_reads_the_family_with_benjamini_hochberg():
    pairs = pd.DataFrame({"dataset": ["summeval"] * 3 + ["usr-tc"] * 2,
                          "p_value": [0.001, 0.02, 0.04, 0.03, np.nan]})
    tests = uncertainty.multiple_testing(pairs, alpha=0.05, n_resamples=999).set_index("data")
    # 4 tests: adjusted 0.004, 0.04, 0.04, 0.04 (0.04*4/4=0.04, 0.03*4/3=0.04, 0.02*4/2=0.04) -> all at FDR 0.05
    assert tests.loc["all datasets", "tests"] == 4 and tests.loc["all datasets", "significant_bh_share"] == 1.0
    strict = uncertainty.multiple_testing(pairs, alpha=0.035, n_resamples=999)
    by_data = strict.set_index("data")
    assert by_data.loc["SummEval", "significant_share"] == 2 / 3
    assert by_data.loc["SummEval", "significant_bh_share"] == 1 / 3
    assert tests.loc["all datasets", "smallest_p"] == 0.001
    assert by_data.loc["all datasets", "significant_share"] == 0.75
    assert by_data.loc["all datasets", "significant_bh_share"] == 0.25


def _mt_scores(documents=12, per_document=10, systems="abcde", seed=0):
    """Items in documents whose metric errors are shared within a document (a document effect)."""
    rng = np.random.default_rng(seed)
    n = documents * per_document
    items = [str(i) for i in range(n)]
    quality = np.linspace(0, 1, len(systems))
    human = pd.DataFrame(quality + rng.normal(0, 1, (n, len(systems))), columns=list(systems), index=items)
    doc_effect = np.repeat(rng.normal(0, 2, (documents, len(systems))), per_document, axis=0)
    metric = human + doc_effect
    docs = pd.Series(np.repeat([f"doc{k}" for k in range(documents)], per_document), index=items)
    return _long("wmt22-zhen", {"MQM": human, "COMET-22": metric}, {"MQM": "human", "COMET-22": "metric"}), docs


def test_document_bootstrap_is_wider_when_errors_cluster_in_documents():
    scores, docs = _mt_scores()
    pairs = experiments.per_pair(scores, ["wmt22-zhen"], n_resamples=300, rng=1)
    intervals = uncertainty.document_bootstrap(scores, pairs, docs, dataset="wmt22-zhen", n_resamples=300, rng=2)
    assert len(intervals) == 10 and (intervals["doc_low"] <= intervals["favi"]).all()
    summary = uncertainty.bootstrap_summary(intervals).set_index("rater")
    assert summary.loc["all raters", "width_ratio"] > 1.3
    again = uncertainty.document_bootstrap(scores, pairs, docs, dataset="wmt22-zhen", n_resamples=300, rng=2)
    pd.testing.assert_frame_equal(intervals, again)
    with pytest.raises(ValueError, match="without a document"):
        uncertainty.document_bootstrap(scores, pairs, docs.iloc[1:], dataset="wmt22-zhen", n_resamples=5, rng=0)


def test_split_halves_keep_the_attenuation_of_a_noise_metric_and_lose_that_of_noisy_humans():
    rng = np.random.default_rng(0)
    n, systems = 400, list("abcdef")
    items = [str(i) for i in range(n)]
    # real quality differences, a metric that knows none of them: attenuation survives the split
    human = pd.DataFrame(np.linspace(0, 2, 6) + rng.normal(0, 1, (n, 6)), columns=systems, index=items).round(0)
    noise = pd.DataFrame(rng.normal(0, 1, (n, 6)), columns=systems, index=items)
    real = _long("summeval", {"H": human, "M": noise}, {"H": "human", "M": "metric"})
    # no quality differences at all: on the same items Φ tracks −mar(d)/E through the shared human margin only
    many = [f"s{k:02d}" for k in range(30)]  # many systems, so that ρ over their pairs is not a few systems' luck
    flat = pd.DataFrame(rng.normal(0, 1, (200, 30)), columns=many, index=items[:200]).round(0)
    null = _long("usr-tc", {"H": flat, "M": pd.DataFrame(rng.normal(0, 1, (200, 30)), columns=many, index=items[:200])},
                 {"H": "human", "M": "metric"})
    scores = pd.concat([real, null], ignore_index=True)
    split = uncertainty.split_half_attenuation(scores, ["summeval", "usr-tc"], n_splits=4, rng=5)
    pairs = experiments.per_pair(scores, ["summeval", "usr-tc"], n_resamples=5, rng=0)
    same = uncertainty.attenuation_table(pairs)
    assert split.loc["SummEval", "favours_weaker"] > 0.9 and split.loc["SummEval", "rho"] > 0.6
    assert same.loc["USR TopicalChat", "rho_favi_attenuation"] > 0.5  # the shared term
    assert abs(split.loc["USR TopicalChat", "rho"]) < 0.2
    assert abs(split.loc["USR TopicalChat", "favours_weaker"] - 0.5) < 0.1
    again = uncertainty.split_half_attenuation(scores, ["summeval", "usr-tc"], n_splits=4, rng=5)
    pd.testing.assert_frame_equal(split, again)
    page = uncertainty.split_half_page(same, split)
    assert page.shape == (2, 4)


# --- audit follow-ups: App. D.3's comparisons, the 120 SummEval pairs -------------------------------------------------

def test_appendix_d3_checks_compare_among_the_en_de_raters():
    fig4 = pd.DataFrame({"dataset": "wmt22-ende", "rater": ["GEMBA-DA-ChatGPT", "BLEU", "chrF", "SEScoreX"],
                         "system_accuracy": [0.68, 0.67, 0.69, 0.77], "sample_accuracy": [0.47, 0.42, 0.41, 0.43],
                         "mean_abs_favi": [0.23, 0.18, 0.17, 0.19], "null_mean_abs_favi": 0.0})
    yes = {key: holds for key, (_, holds) in appendix_d.appendix_d3_checks(fig4).items()}
    assert all(yes[k] for k in ("appD3.chatgpt_lower_system_accuracy", "appD3.chatgpt_highest_sample_accuracy",
                                "appD3.chatgpt_highest_mean_abs_favi", "appD3.bleu_lowest_system_accuracy"))
    no = appendix_d.appendix_d3_checks(fig4.assign(sample_accuracy=[0.4, 0.42, 0.41, 0.43],
                                                   system_accuracy=[0.9, 0.7, 0.69, 0.77]))
    assert not any(no[k][1] for k in ("appD3.chatgpt_lower_system_accuracy", "appD3.chatgpt_highest_sample_accuracy",
                                      "appD3.bleu_lowest_system_accuracy"))


def test_claim_values_put_the_printed_summeval_shares_on_the_120_pair_grid():
    v = appendix_d.appendix_d_values(pd.DataFrame(columns=["dataset", "aspect", "rater"]), "expert_consistency")
    assert v["pairs120.appD_rouge_system"] == 76 / 120  # 0.633 -> 0.6333
    assert v["pairs120.appD_bertscore_system"] == 95 / 120 and abs(95 / 120 - 0.789) > 0.0005  # no multiple fits
    # Def. 10's N = C(|Π|, 2) with Table 1's nine WMT22 systems: 36 pairs; 61.1% is 22 of them, 0.852 is none
    assert v["pairs36.fig1_agreement"] == 22 / 36 and v["pairs36.appD_chatgpt_system"] == 31 / 36
    assert abs(31 / 36 - 0.852) > 0.0005 and v["pairs36.appD_bleu_system"] == 25 / 36
    # Fig. 5a: the share of no-favoritism draws whose ρ is at or below the observed ρ (a one-sided p-value)
    rng = np.random.default_rng(0)
    pairs = pd.DataFrame({"total_error": 5, "favi": rng.normal(size=40), "system_sign_agrees": rng.random(40) > 0.5,
                          "sample_accuracy": rng.random(40)})
    fig4 = pd.DataFrame({"mean_abs_favi": rng.random(5), "system_accuracy": rng.random(5),
                         "sample_accuracy": rng.random(5)})
    rho = fig5.fig5_values(pairs, fig4, np.zeros(3))["section6.rho_abs_favi_agreement_pairs"]
    values = fig5.fig5_values(pairs, fig4, np.array([rho - 0.1, rho, rho + 0.1, rho + 0.2]))
    assert values["fig5a.no_favoritism_share_at_or_below"] == 0.5


def test_definition_checks_hold_on_the_implementation_and_catch_a_wrong_table():
    rng = np.random.default_rng(1)
    human = pd.DataFrame(rng.integers(1, 4, size=(30, 4)).astype(float), columns=list("abcd"))
    metric = pd.DataFrame(rng.normal(size=(30, 4)), columns=list("abcd"))
    table = favi.favi_table(human, metric)
    found = definitions.definition_checks(table)
    assert len(found) == 9 and all(holds for _, holds in found.values())
    broken = table.assign(total_error=table["total_error"] + 1, favi=table["favi"] + 3)
    bad = {key: holds for key, (_, holds) in definitions.definition_checks(broken).items()}
    assert not bad["def6.total_error_off_diagonal"] and not bad["def9.range_minus2_to_2"]
    assert bad["appA.cost_is_item_margin_change"] and bad["limitations.one_error_phi_is_1_or_2"]  # not from the table
    # Def. 10: the system-level accuracy counts all C(4, 2) = 6 pairs, and equals eq. 7 from the margins
    assert definitions.system_accuracy_pairs(table) == (1.0, True)
    assert definitions.system_accuracy_pairs(table.iloc[1:]) == (5 / 6, True)
    assert not definitions.definition_checks(table.iloc[1:])["def10.system_accuracy_over_all_pairs"][1]
    flipped = table.assign(system_sign_agrees=~table["system_sign_agrees"].astype(bool))
    assert definitions.system_accuracy_pairs(flipped) == (1.0, False)
    numbers = {key: value for key, (value, _) in found.items()}
    assert numbers["def4.cells_count_every_item"] == 0 and numbers["appA.cost_is_item_margin_change"] == 9
    assert numbers["limitations.one_error_phi_is_1_or_2"] == 6 and numbers["def11.sample_accuracy_identity"] < 1e-12
    assert numbers["def9.range_minus2_to_2"] == np.nanmax(np.abs(table["favi"]))
    assert definitions.definition_checks(broken)["def6.total_error_off_diagonal"][0] == len(table)
