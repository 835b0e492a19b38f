"""Chapter 04 (analysis.chapters.favoritism): the chapter's helpers on hand-made inputs."""

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import FancyArrowPatch

from analysis import favi
from analysis.chapters.favoritism import (
    appendix_c21,
    appendix_d,
    cases,
    definitions,
    experiments,
    fig4,
    fig5,
    table1,
    uncertainty,
    wingraphs,
)
from analysis.data import published
from tests.helpers import page_check


def test_head_to_head_ratings_are_oriented_lexicographically():
    h2h = pd.DataFrame({
        "aspect": ["coherence"] * 4, "system_1": ["M9", "M9", "M10", "M10"], "system_2": ["M10", "M10", "M9", "M9"],
        "document": ["d1", "d1", "d2", "d2"], "order": ["original", "toggled"] * 2,
        "response": ["A", "A", "C", "B"], "preferred": ["M9", "M10", "tie", "M9"],
        "expert_1": [4.0, 4.0, 2.0, 2.0], "expert_2": [3.0, 3.0, 2.5, 2.5]})
    out = appendix_c21.h2h_ratings(h2h).set_index("document")
    # system_a = "M10" < "M9"; on d1 the experts prefer M9 (4 > 3) -> -1; on d2 M9 has 2.5 > 2 -> -1
    assert out.loc["d1", ["original", "toggled", "expert"]].tolist() == [-1, 1, -1]
    assert out.loc["d2", ["original", "toggled", "expert"]].tolist() == [0, -1, -1]
    assert (out["system_a"] == "M10").all()


def test_attenuation_reading_recognises_a_pure_noise_metric():
    rng = np.random.default_rng(0)
    quality = np.linspace(0, 2, 6)
    human = pd.DataFrame(quality + rng.normal(0, 1, (300, 6)), columns=list("abcdef")).round(0)
    noise = pd.DataFrame(rng.normal(0, 1, (300, 6)), columns=list("abcdef"))  # knows nothing about quality
    pairs = favi.favi_table(human, noise).assign(dataset="summeval", p_value=0.0)
    table = uncertainty.attenuation_table(pairs)
    assert table["favours_weaker"].item() == 1.0 and table["rho_favi_attenuation"].item() > 0.9


# --- the tables the claims registry reads -------------------------------------------------------------------------

def _pairs(rows):
    """A per-pair table from (dataset, rater, system_a, system_b, favi, confusion 3x3) rows."""
    out = []
    for dataset, rater, a, b, phi, c in rows:
        c = np.asarray(c)
        out.append({"domain": "d", "dataset": dataset, "aspect": "h", "rater": rater, "system_a": a, "system_b": b,
                    "n_items": int(c.sum()), **dict(zip(favi.CELLS, c.ravel())), "favi": phi})
    return pd.DataFrame(out)


def test_tie_shares_pool_the_pairs_and_split_the_tie_credit():
    c1 = [[2, 1, 0], [1, 2, 0], [0, 0, 4]]  # 10 items: humans tie on 3, metric on 3, both on 2
    c2 = [[5, 0, 0], [0, 0, 0], [0, 0, 5]]  # 10 items, no tie
    ties = fig4.tie_shares(_pairs([("x", "m", "a", "b", 0.0, c1), ("x", "m", "a", "c", 0.0, c2)])).iloc[0]
    assert ties["items"] == 20 and ties["human_tie_share"] == 3 / 20 and ties["metric_tie_share"] == 3 / 20
    assert ties["matching_tie_share"] == 2 / 20 and ties["sample_accuracy"] == 18 / 20
    assert ties["sample_accuracy_without_tie_credit"] == 16 / 20


def test_the_implied_human_tie_share_gives_back_the_accuracy_it_was_asked_for():
    ties = pd.Series({"human_tie_share": 0.5, "matching_tie_share": 0.02, "sample_accuracy_without_tie_credit": 0.3})
    h = appendix_d.implied_human_tie_share(0.1, ties)
    assert np.isclose((1 - h) * 0.3 / 0.5 + 0.02, 0.1) and h > 0.5
    assert appendix_d.implied_human_tie_share(0.5, ties) < 0.5  # a higher accuracy needs fewer human ties


def test_per_system_sees_each_pair_from_both_systems():
    table = cases.per_system(_pairs([("x", "m", "a", "b", 0.5, np.eye(3)), ("x", "m", "a", "c", 0.3, np.eye(3)),
                                      ("x", "m", "b", "c", -0.2, np.eye(3))])).set_index("system")
    assert table.loc["a", "median_favi"] == 0.4 and table.loc["a", "share_favoured"] == 1.0
    assert table.loc["c", "share_disfavoured"] == 0.5 and table.loc["b", "opponents"] == 2


def test_domain_comparison_counts_couples_and_ties_half():
    rows = pd.DataFrame({"domain": ["machine translation"] * 2 + ["summarization"] * 2,
                         "mean_abs_favi": [0.1, 0.3, 0.3, 0.5], "sd_abs_favi": [0.1, 0.1, 0.2, 0.2],
                         "null_mean_abs_favi": [0.0, 0.0, 0.3, 0.3]})
    d = fig4.domain_comparison(rows).set_index("domain")
    assert d.loc["summarization", "mt_lower_share"] == (1 + 1 + 0.5 + 1) / 4
    assert d.loc["summarization", "mt_excess_lower_share"] == 1 / 4  # excess: MT 0.1, 0.3; summ 0, 0.2
    assert np.isnan(d.loc["machine translation", "mt_lower_share"])


def test_first_position_reads_the_response_letter():
    h2h = pd.DataFrame({"response": ["A", "A: Summary #1 is more fluent.", "B", "C", " B: Summary #2 ..."]})
    assert appendix_c21.first_position(h2h) == {"c21.first_position_share": 0.5, "c21.first_position_pvalue": 1.0}


def _check_inputs(mt_median=0.2, mt_excess=0.1, differ=0.3, agree=0.1, top_layer=("refB", "Online-W")):
    values = {"fig5a.median_abs_favi_signs_differ": differ, "fig5a.median_abs_favi_signs_agree": agree,
              "section6.rho_abs_favi_agreement_pairs": -0.3, "section6.rho_sample_accuracy_agreement_pairs": 0.2,
              "section6.rho_mean_abs_favi_system_accuracy_metrics": -0.1,
              "section6.rho_sample_accuracy_system_accuracy_metrics": 0.4}
    summary = pd.DataFrame({"mean_abs_favi": [0.2, 0.3], "null_mean_abs_favi": [0.1, 0.1],
                            "dataset": ["wmt22-ende", "usr-tc"], "pairs": [30, 10]})
    domains = pd.DataFrame({"domain": ["machine translation", "summarization"],
                            "median_mean_abs_favi": [mt_median, 0.3], "median_sd_abs_favi": [0.1, 0.2],
                            "median_excess": [mt_excess, 0.2]})
    layers = pd.DataFrame({"dataset": "wmt22-ende", "aspect": "MQM", "graph": "human", "rater": "r",
                           "system": ["refB", "Online-W", "X"], "layer": [0 if s in top_layer else 1
                                                                          for s in ("refB", "Online-W", "X")]})
    checks = fig4.fig4_checks(summary, domains) | fig5.fig5_checks(values) | cases.graph_row_checks(layers)
    return pd.DataFrame([(k, v, h) for k, (v, h) in checks.items()], columns=["key", "value", "holds"]).set_index("key")


def test_claim_checks_follow_the_numbers_both_ways():
    found = _check_inputs()
    yes = found["holds"]
    assert yes["fig4.mt_median_below_summarization"] and yes["fig4.mt_excess_below_summarization"]
    assert yes["fig5a.larger_when_signs_differ"]
    assert yes["section6.favi_beats_accuracy_pairs"] and not yes["section6.favi_beats_accuracy_metrics"]
    assert yes["fig1.refB_top_of_mqm_graph"] and yes["fig1.onlineW_top_of_mqm_graph"]
    assert yes["fig4.every_setting_above_null"]
    no = _check_inputs(mt_median=0.4, mt_excess=0.3, differ=0.1, agree=0.3, top_layer=("refB",))
    assert not no["holds"][["fig4.mt_median_below_summarization", "fig4.mt_excess_below_summarization",
                            "fig5a.larger_when_signs_differ", "fig1.onlineW_top_of_mqm_graph"]].any()
    # each check with the number it compares, which the claims' "Ours" shows
    value = found["value"]
    assert value["fig4.every_setting_above_null"] == 1.0
    assert value["fig4.paper_data_share_pairs"] == pytest.approx(0.75)  # USR's pairs stand in for the paper's
    assert value["fig4.mt_median_below_summarization"] == pytest.approx(0.2 / 0.3)
    assert value["fig4.summarization_sd_above_mt"] == pytest.approx(0.1 / 0.2)
    assert value["fig4.mt_excess_below_summarization"] == pytest.approx(0.1 / 0.2)
    assert value["fig5a.larger_when_signs_differ"] == pytest.approx(0.2)
    assert value["section6.favi_beats_accuracy_pairs"] == pytest.approx(0.1)
    assert value["section6.favi_beats_accuracy_metrics"] == pytest.approx(-0.3)
    assert value["fig1.refB_top_of_mqm_graph"] == 0 and no["value"]["fig1.onlineW_top_of_mqm_graph"] == 1
    assert no["value"]["fig5a.larger_when_signs_differ"] == pytest.approx(-0.2)


def test_graph_row_checks_count_the_rows_above_the_top_and_below_the_bottom():
    layers = pd.DataFrame({"dataset": ["summeval"] * 3 + ["wmt22-zhen"] * 6,
                           "aspect": ["expert_consistency"] * 3 + ["MQM"] * 6, "rater": ["r"] * 3 + ["COMET-22"] * 6,
                           "graph": ["human"] * 3 + ["human"] * 3 + ["metric"] * 3,
                           "system": ["M0", "M20", "M11", "a", "M2M100_1.2B-B4", "b", "a", "M2M100_1.2B-B4", "b"],
                           "layer": [0, 1, 2, 0, 2, 1, 0, 1, 2]})
    found = cases.graph_row_checks(layers)
    assert found["appD2.m11_last_in_human_graph"] == (0, True)
    assert found["fig6.m2m100_last_in_human_graph"][1]
    assert found["fig6.m2m100_last_in_metric_graph"] == (1, False)
    assert "fig1.refB_top_of_mqm_graph" not in found  # no WMT22 en-de graph drawn: no check


def test_appendix_d_reading_checks_give_the_gap_outside_the_two_readings():
    cases = pd.DataFrame({"paper_sample": [0.07, 0.348, 0.31], "sample_without_tie_credit": [0.2, 0.15, 0.26],
                          "sample": [0.22, 0.47, 0.3]},
                         index=pd.Index(["ROUGE", "ChatGPT", "BLEU"], name="paper_metric"))
    found = appendix_d.appendix_d_reading_checks(cases)
    assert found["appD.readings_rouge"][0] == pytest.approx(0.07 - (0.2 - 0.005))
    assert found["appD.readings_chatgpt"] == (0, True)
    assert found["appD.readings_bleu"][0] == pytest.approx(0.31 - (0.3 + 0.005))
    assert not found["appD.readings_rouge"][1] and not found["appD.readings_bleu"][1]


def test_top_accuracy_favi_compares_the_top_tenth_with_an_interval():
    rng = np.random.default_rng(3)
    accuracy = rng.random(400)
    pairs = pd.DataFrame({"total_error": 5, "sample_accuracy": accuracy,
                          "favi": np.where(accuracy > 0.9, 0.1, 0.8) * rng.choice([-1, 1], 400)})
    row = fig5.top_accuracy_favi(pairs, n_resamples=50, rng=np.random.default_rng(0)).iloc[0]
    assert row["value"] == pytest.approx(-0.7) and row["low"] <= row["value"] <= row["high"] < 0 and row["holds"]
    same = pairs.assign(favi=rng.normal(0, 0.5, 400))  # |Φ| unrelated to accuracy: the interval spans 0
    row = fig5.top_accuracy_favi(same, n_resamples=200, rng=np.random.default_rng(0)).iloc[0]
    assert row["low"] < 0 < row["high"] and not row["holds"]
    again = fig5.top_accuracy_favi(same, n_resamples=200, rng=np.random.default_rng(0)).iloc[0]
    assert again.equals(row)


def test_worked_examples_count_fig3s_errors_by_the_system_they_favour():
    c5 = definitions.worked_examples().loc["C5"]
    assert c5[["errors_for_first", "errors_for_second", "severe_for_first", "severe_for_second"]].tolist() == \
        [200, 280, 90, 60]
    assert c5[["metric_plus", "metric_tie", "metric_minus"]].tolist() == [470, 310, 220]


def test_lemma_checks_count_the_converses_counter_examples():
    pairs = favi.favi_table(pd.DataFrame({"a": [1, 2, 3, 4.0], "b": [0, 0, 0, 0.0]}),
                            pd.DataFrame({"a": [1, 1, 1, 0.0], "b": [0, 1, 0, 0.0]}))
    lemmas = definitions.lemma_checks(pairs)["value"]
    assert lemmas["Lemma 2's converse: pairs with Φ ≠ 0 whose margin signs agree"] == 1


# --- the tables that replace the prose's lists ----------------------------------------------------------------

def _per_system_and_layers():
    per_system = pd.DataFrame({"dataset": "wmt22-zhen", "aspect": "MQM", "rater": "m",
                               "system": ["a", "b", "refB", "c_bestmbr"], "median_favi": [0.5, 0.0, -0.4, 0.1],
                               "share_favoured": [1.0, 1 / 3, 0.0, 2 / 3],
                               "share_disfavoured": [0.0, 1 / 3, 1.0, 1 / 3], "opponents": 3})
    layers = pd.DataFrame({"dataset": "wmt22-zhen", "aspect": "MQM", "rater": "m",
                           "graph": ["human"] * 4 + ["metric"] * 3,
                           "system": ["a", "b", "refB", "c_bestmbr", "a", "b", "c_bestmbr"],
                           "layer": [2, 1, 0, 1, 0, 1, 1], "layers": [3] * 4 + [2] * 3})
    return per_system, layers


def test_favourites_page_names_the_extremes_with_their_rows_in_both_graphs():
    per_system, layers = _per_system_and_layers()
    page = cases.favourites_page(per_system, layers, [("wmt22-zhen", "MQM", "m"), ("summeval", "c", "m")])
    assert page.index.tolist() == [("m on WMT22 zh-en", "favoured most"), ("m on WMT22 zh-en", "disfavoured most")]
    top, bottom = page.iloc[0], page.iloc[1]
    assert top["system"] == "a" and top["Φ > 0 against"] == "3 of 3" and top["median Φ"] == 0.5
    assert top["row, humans' graph"] == "3 of 3" and top["row, metric's graph"] == "1 of 2"
    assert bottom["system"] == "refB" and bottom["Φ < 0 against"] == "3 of 3"
    assert bottom["row, metric's graph"] == "—"  # a system missing from a graph
    assert not any("_" in c for c in page.columns)


def test_systems_page_lists_the_named_and_the_mbr_systems():
    per_system, _ = _per_system_and_layers()
    page = cases.systems_page(per_system, [("wmt22-zhen", "MQM", "m")])
    assert page.index.get_level_values("system").tolist() == ["refB", "c_bestmbr"]
    assert page.loc[("m on WMT22 zh-en", "refB"), "Φ < 0 against"] == "3 of 3"
    assert page.loc[("m on WMT22 zh-en", "c_bestmbr"), "Φ > 0 against"] == "2 of 3"


def test_errors_without_favoritism_already_correlate_with_sign_changes():
    """Lemma 1: a sign change needs |Φ| >= |mar(d)| / E, so random error directions give a negative ρ (Fig. 5a)."""
    rows = []
    for k in range(100):
        margin = 1 if k % 2 else 12  # close pairs flip often, distant ones rarely
        c = [[10 + margin, 3, 3], [3, 10, 3], [3, 3, 10]]  # 18 errors, human margin = margin
        rows.append(("x", "m", f"a{k}", f"b{k}", 0.0, c))
    pairs = _pairs(rows)
    pairs = pairs.assign(total_error=18, margin_human=pairs["c_pp"] + pairs["c_pe"] + pairs["c_pm"] - 16)
    rhos = fig5.no_favoritism_rho(pairs, n_draws=20, rng=np.random.default_rng(0))
    assert len(rhos) == 20 and np.all(np.abs(rhos) <= 1) and rhos.mean() < -0.1
    again = fig5.no_favoritism_rho(pairs, n_draws=20, rng=np.random.default_rng(0))
    assert np.array_equal(rhos, again)


# --- the figures laid out for the page ------------------------------------------------------------------------------

#: long system names like WMT's, to test the layouts at their hardest
LONG_NAMES = ["JDExploreAcademy", "QUARTZ_TuneReranking", "M2M100_1.2B-B4", "comet_bestmbr", "bleurt_bestmbr",
              "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y", "refB", "Lan-Bridge", "PROMT", "OpenNMT",
              "Nucleus Decoding (p = 0.3)"]


def _pairs_with_intervals(systems=LONG_NAMES, items=80, dataset="wmt22-ende", rater="BLEU", seed=0):
    """A per-pair table as :func:`analysis.chapters.favoritism.experiments.per_pair` makes it, from random scores."""
    rng = np.random.default_rng(seed)
    quality = np.linspace(0, 2, len(systems))
    human = pd.DataFrame(quality + rng.normal(0, 1.5, (items, len(systems))), columns=systems).round(0)
    metric = pd.DataFrame(quality[::-1] * 0.3 + rng.normal(0, 1, (items, len(systems))), columns=systems)
    table = favi.favi_uncertainty(human, metric, n_resamples=20, rng=rng)
    return table.assign(domain="machine translation", dataset=dataset, aspect="MQM", rater=rater)


def _legible(fig):
    """The problems :class:`analysis.recorder.Outputs` would refuse the figure for (empty: it is accepted)."""
    return page_check(fig)[0]


def test_node_label_cuts_long_names_where_the_longer_line_is_shortest():
    assert wingraphs.node_label("refB") == "refB"
    assert wingraphs.node_label("JDExploreAcademy") == "JDExplore\nAcademy"
    assert wingraphs.node_label("M2M100_1.2B-B4") == "M2M100_\n1.2B-B4"
    assert wingraphs.node_label("Nucleus Decoding (p = 0.3)") == "Nucleus Decoding\n(p = 0.3)"
    assert wingraphs.node_label("eTranslation") == "eTranslation"  # "e" alone would be too short a piece
    assert wingraphs.node_label("abcdefghijklmnop") == "abcdefghijklmnop"  # no place to cut


def test_reader_labels_of_raters_aspects_and_settings():
    assert experiments.setting_name("usr-tc", "ROUGE_WE_1") == "ROUGE-WE-1 on USR TopicalChat"
    assert experiments.setting_index(pd.DataFrame({"dataset": ["wmt22-zhen"], "rater": ["BLEU"]})).tolist() == \
        ["BLEU on WMT22 zh-en"]
    assert experiments.aspect_label("expert_consistency") == "experts' consistency"
    assert experiments.aspect_label("USR_Overall") == "overall" and experiments.aspect_label("MQM") == "MQM"
    assert experiments.setting_name("summeval", "ROUGE_L") == "ROUGE-L on SummEval"


def test_fig4_columns_balance_the_two_columns():
    assert fig4.fig4_columns([5, 9, 2, 5, 13, 13]) == 4  # 21 + 8 title rows against 26 + 4
    assert fig4.fig4_columns([3, 3]) == 1 and fig4.fig4_columns([7]) == 1
    assert fig4.fig4_columns([1, 1, 10]) == 2


def test_box_exit_and_spread_put_arrow_ends_on_the_box_border():
    assert wingraphs.box_exit((0, 0), (1, 0.5), (0, -3)) == pytest.approx((0, -0.52))  # straight down
    assert wingraphs.box_exit((0, 0), (1, 0.5), (4, 1)) == pytest.approx((1.02, 0.255))  # out of the right side
    assert wingraphs.box_exit((0, 0), (1, 0.5), (0.2, 0.1)) == (0.2, 0.1)  # the target is inside: unchanged
    # aimed at a point off the centre, the exit is still on the border of the box around the centre
    x, y = wingraphs.box_exit((0.5, 0), (1, 0.5), (0.5, -3), centre=(0, 0))
    assert (x, y) == pytest.approx((0.5, -0.52))
    assert wingraphs.spread((0, 0), (1.2, 0.4), (1, -1)) == pytest.approx((0.3, 0))
    assert wingraphs.spread((0, 0), (1.2, 0.4), (10, -1)) == pytest.approx((0.4, 0))  # at most a third of the width


def test_smooth_path_is_a_line_for_two_points_and_passes_through_more():
    line = wingraphs.smooth_path([(0, 0), (1, -1)])
    assert line.vertices.tolist() == [[0, 0], [1, -1]]
    curve = wingraphs.smooth_path([(0, 0), (1, -1), (0, -2)])
    assert curve.vertices[0].tolist() == [0, 0] and curve.vertices[-1].tolist() == [0, -2]
    assert [1, -1] in curve.vertices.tolist()  # the waypoint is on the curve (a Bézier piece ends there)


def test_crossings_and_the_layer_order_that_removes_them():
    graph = nx.DiGraph([("a", "y"), ("b", "x")])
    assert wingraphs.crossings(graph, [["a", "b"], ["x", "y"]]) == 1
    assert wingraphs.crossings(graph, [["a", "b"], ["y", "x"]]) == 0
    layout = wingraphs.layout_win_graph(graph)
    assert wingraphs.crossings(graph, layout.layers) == 0


def test_layout_win_graph_keeps_the_rows_and_boxes_apart_and_routes_long_arrows():
    graph = nx.DiGraph([("top", "JDExploreAcademy"), ("top", "QUARTZ_TuneReranking"), ("JDExploreAcademy", "low"),
                        ("top", "low"), ("QUARTZ_TuneReranking", "low")])
    layout = wingraphs.layout_win_graph(graph)
    assert [sorted(row) for row in layout.layers] == [sorted(r) for r in favi.graph_layers(graph)]
    middle = sorted(layout.layers[1], key=lambda n: layout.pos[n][0])
    (x1, _), (x2, _) = layout.pos[middle[0]], layout.pos[middle[1]]
    assert x2 - x1 >= (layout.size[middle[0]][0] + layout.size[middle[1]][0]) / 2  # no overlap
    assert len(layout.routes[("top", "low")]) == 1 and layout.routes[("top", "JDExploreAcademy")] == []
    assert layout.labels["QUARTZ_TuneReranking"] == "QUARTZ_Tune\nReranking"


def test_draw_win_graph_ends_arrows_at_the_boxes_and_marks_wins_the_reference_lacks():
    human = nx.DiGraph([("a", "b"), ("b", "c")])
    metric = nx.DiGraph([("a", "c"), ("c", "b")])
    layout = wingraphs.layout_win_graph(metric)
    fig, ax = plt.subplots()
    wingraphs.draw_win_graph(ax, metric, reference=human, layout=layout)
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == 2
    red = [a for a in arrows if a.get_linestyle() == "--"]
    assert len(red) == 1  # c -> b: the humans' closure has b -> c; a -> c is implied by a -> b -> c
    for u, v in metric.edges:
        points = wingraphs.arrow_points(layout, u, v)
        for node, point in ((u, points[0]), (v, points[-1])):
            (cx, cy), (w, h) = layout.pos[node], layout.size[node]
            on_top_or_bottom = np.isclose(abs(point[1] - cy), h / 2 + 0.02) and abs(point[0] - cx) <= w / 2 + 0.02
            on_a_side = np.isclose(abs(point[0] - cx), w / 2 + 0.02) and abs(point[1] - cy) <= h / 2 + 0.02
            assert on_top_or_bottom or on_a_side
    plt.close(fig)


@pytest.mark.parametrize("per_system", [True, False])
def test_plot_case_fits_the_page_with_fifteen_long_named_systems(per_system):
    table = _pairs_with_intervals()
    fig = cases.plot_case(table, rater="BLEU", aspect="MQM", per_system=per_system)
    assert len([ax for ax in fig.axes if not ax.axison]) == 2  # the two graphs
    assert len(fig.axes) == 2 + per_system
    assert _legible(fig) == []


def test_the_other_figures_fit_the_page():
    pairs = pd.concat([_pairs_with_intervals(rater=r, seed=k) for k, r in enumerate(["BLEU", "chrF", "COMET-22"])]
                      + [_pairs_with_intervals(LONG_NAMES[:5], dataset="usr-tc", rater=r, seed=k).assign(
                          domain="dialogue", aspect="USR_Overall") for k, r in enumerate(["ROUGE_WE_1", "S3_pyr"])],
                      ignore_index=True)
    summary = fig4.metric_summary(pairs)
    ties = fig4.tie_shares(pairs)  # each setting's tie shares ride along
    assert len(summary) == 5 and summary["matching_tie_share"].tolist() == ties["matching_tie_share"].tolist()
    assert _legible(fig4.plot_fig4(summary)) == []
    assert _legible(fig5.plot_fig5(pairs)) == []
    assert _legible(cases.plot_fig6(pairs, [("wmt22-ende", "MQM", "BLEU"), ("usr-tc", "USR_Overall",
                                                                              "S3_pyr")])) == []
    assert _legible(uncertainty.plot_noise(summary)) == []


# --- the numbers the case figures' captions state ----------------------------------------------------------------

def test_case_numbers_compute_the_numbers_of_the_papers_figure_titles():
    table = _pairs_with_intervals(systems=LONG_NAMES[:6])
    n = cases.case_numbers(table)
    assert n["systems"] == 6 and n["pairs"] == 15 and n["items"] == "80"
    assert n["agreement"] == favi.graph_agreement(favi.significance_outcomes(table))
    assert n["mean_abs_favi"] == pytest.approx(table["favi"].abs().mean())
    accuracy = favi.sign_accuracies(table)
    assert (n["system"], n["sample"]) == (accuracy.system, accuracy.sample)
    uneven = cases.case_numbers(table.assign(n_items=np.arange(len(table)) + 1200), ties="half")
    assert uneven["items"] == "1,200–1,214"


# --- the tables for the page ------------------------------------------------------------------------------------

def test_table1_page_names_the_ratings_and_writes_item_ranges():
    saved = pd.DataFrame({"domain": ["summarization", "dialogue"], "data": ["SummEval", "USR TopicalChat"],
                          "systems": [16, 5], "items_min": [100, 1200], "items_max": [100, 1315],
                          "automatic": ["BLEU, ROUGE_L", "S3_pyr"], "systems_rated": [16, 6],
                          "systems_compared_min": [16, 4], "systems_compared_max": [16, 5]})
    scores = pd.DataFrame({"dataset": ["summeval", "summeval", "summeval", "usr-tc"],
                           "rater": ["expert_coherence", "expert_fluency", "BLEU", "USR_Overall"],
                           "rater_kind": ["human", "human", "metric", "human"]})
    page = table1.table1_page(saved, scores)
    assert page.columns.tolist() == ["Domain", "Data", "Systems with human ratings", "Systems compared by Φ",
                                     "Items per system pair", "Human ratings", "Automatic raters"]
    assert page["Systems with human ratings"].tolist() == [16, 6]
    assert page["Systems compared by Φ"].tolist() == ["16", "4–5"]
    assert page["Items per system pair"].tolist() == ["100", "1,200–1,315"]
    assert page["Human ratings"].tolist() == ["experts' coherence, fluency", "overall"]
    assert page["Automatic raters"].tolist() == ["BLEU, ROUGE-L", "S3-pyr"]
    paper = experiments.in_words(pd.DataFrame(published.item("favi", "table1")["rows"]))
    assert paper.columns.tolist() == ["Domain", "Data", "Metrics", "Systems", "Items per system pair"]


def test_examples_page_splits_the_worked_examples_in_two():
    scores, counts = definitions.examples_page(definitions.worked_examples())
    assert scores.shape == (5, 7) and counts.shape == (5, 7)
    assert scores.loc["C5", "Φ"] == pytest.approx(-0.104, abs=5e-4) and counts.loc["C5", "d̂ ="] == 310


def test_page_tables_put_words_in_the_headers():
    margins = pd.DataFrame([[100, 30.0, 20.0, 10.0, 31.0, 19.0, 12.0]], index=pd.Index(["ROUGE_L"], name="rater"),
                           columns=["items", "better", "worse", "margin", "paper_better", "paper_worse",
                                    "paper_margin"])
    page = cases.margins_page(margins)
    assert page.index.tolist() == ["ROUGE-L"] and page[("paper (%)", "margin")].item() == 12.0
    graphs = pd.DataFrame({"dataset": ["summeval"], "aspect": ["c"], "rater": ["ROUGE_L"], "pairs": [10],
                           "human_edges_drop": [4], "metric_edges_drop": [3], "agreement_drop": [0.7],
                           "human_edges_half": [2], "metric_edges_half": [3], "agreement_half": [0.6]})
    page = cases.graphs_page(graphs)
    assert page.index.tolist() == ["ROUGE-L on SummEval"] and page.shape == (1, 7)
    assert page[("ties split", "significant for humans")].item() == 2 and page[("", "pairs")].item() == 10
    domains = pd.DataFrame({"domain": ["machine translation", "dialogue"], "settings": [16, 26],
                            "min_mean_abs_favi": [0.1, 0.7], "median_mean_abs_favi": [0.2, 0.9],
                            "max_mean_abs_favi": [0.34, 1.3], "median_sd_abs_favi": [0.16, 0.7],
                            "median_null_mean_abs_favi": [0.03, 0.26], "median_excess": [0.17, 0.67],
                            "mt_lower_share": [np.nan, 1.0], "mt_excess_lower_share": [np.nan, 0.571]})
    page = fig4.domains_page(domains)
    assert page.columns.tolist() == ["machine translation", "dialogue"] and page.shape == (9, 2)
    assert page.loc["settings"].tolist() == ["16", "26"] and page.loc["highest mean |Φ|", "dialogue"] == "1.30"
    assert page.loc["couples where MT's excess is lower"].tolist() == ["—", "57%"]
    appd = appendix_d.appendix_d(pd.DataFrame(columns=["dataset", "aspect", "rater"]))
    page = appendix_d.appendix_d_page(appd)
    assert page.loc["ROUGE", ("", "here")] == "ROUGE-L on SummEval" and page.loc["BertScore", ("", "here")] == \
        "not reachable"
    assert page.loc["BLEU", ("system-level accuracy", "paper")] == 0.7


def test_small_tables_are_renamed_for_readers():
    correlations = experiments.in_words(pd.DataFrame(columns=["spearman_rho", "pairs", "paper"]))
    assert correlations.columns.tolist() == ["Spearman's ρ", "pairs", "paper's ρ"]
    symmetry = experiments.in_words(pd.DataFrame(columns=["items", "accuracy", "alpha_nominal", "alpha_ordinal"]))
    assert symmetry.columns.tolist() == ["items", "same preference in both orders", "Krippendorff's α, nominal",
                                         "α, ordinal"]
    h2h = experiments.in_words(pd.DataFrame(columns=["aspect", "order", "pairs", "sample_accuracy",
                                                "system_accuracy", "mean_abs_favi"]), pairs="system pairs")
    assert "_" not in "".join(h2h.columns) and "system pairs" in h2h.columns
    attenuation = experiments.in_words(pd.DataFrame(columns=["pairs", "favours_weaker", "rho_favi_attenuation",
                                                        "favours_weaker_significant"]))
    assert attenuation.columns[-1] == f"… among pairs with p < {experiments.ATTENUATION_ALPHA:g}"
    tests = experiments.in_words(pd.DataFrame(columns=["tests", "significant_share", "significant_bh_share"]))
    assert tests.columns.tolist() == ["pairs tested", "significant, uncorrected",
                                      "significant after Benjamini–Hochberg"]
    lemmas = definitions.lemmas_page(pd.DataFrame({"value": [4048.0, 2.2e-16, 0.0]},
                                             index=pd.Index(["pairs", "Lemma 1", "none"], name="check")))
    assert lemmas["value"].tolist() == ["4,048", "2.2e-16", "0"] and lemmas.columns.tolist() == ["check", "value"]
    assert table1.human_ratings_label(["MQM"]) == "MQM"


def test_the_margin_example_without_its_pair_is_refused_naming_it():
    item = published.item("favi", "section2")
    pairs = pd.DataFrame({"dataset": ["wmt22-ende"], "system_a": ["X"], "system_b": ["Y"]})
    with pytest.raises(ValueError, match=f"wmt22-ende: no pair {item['system']} vs {item['opponent']}"):
        cases.margin_example(pairs)


def test_paper_example_checks_def8_section1_and_section6():
    from analysis.chapters.favoritism import definitions

    checks = definitions.paper_example_checks()
    assert checks["def8.cost_matrix_as_printed"] == (9.0, True)  # every entry of W as Def. 8 prints it
    assert checks["sec1.ten_percent_errors_reverse_the_pair"] == (1.0, True)  # ten errors of cost 1: Φ = 1
    assert checks["sec6.accuracy_depends_on_items_favi_does_not"] == (0.0, True)


def test_ranking_unchanged_counts_the_systems_pairs_whose_margin_signs_differ():
    from analysis.chapters.favoritism import cases

    pairs = pd.DataFrame({"dataset": "d", "aspect": "a", "rater": "r", "system_a": ["M", "M", "X"],
                          "system_b": ["X", "Y", "Y"], "system_sign_agrees": [True, True, False]})
    assert cases.ranking_unchanged(pairs, "d", "a", "r", "M") == (0.0, True)
    assert cases.ranking_unchanged(pairs, "d", "a", "r", "Y") == (1.0, False)
    assert cases.ranking_unchanged(pairs, "d", "a", "other", "M") == (0.0, False)  # no such setting: not shown


def test_the_paper_data_share_counts_pairs_outside_the_usr_stand_ins():
    from analysis.chapters.favoritism import fig4 as fig4_module

    summary = pd.DataFrame({"dataset": ["summeval", "usr-tc", "wmt22-zhen", "usr-pc"], "pairs": [20, 5, 10, 5]})
    assert fig4_module.paper_data_share(summary) == pytest.approx(30 / 40)
