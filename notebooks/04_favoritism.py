# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Favoritism of automatic preference metrics (von Däniken et al. 2024, the Favi-Score)
#
# {cite:t}`vondaniken2024favi` argue that sign accuracy, how often a metric agrees with human raters, misses *whom
# its errors favour*: a metric can agree with the humans on most items and still reorder the systems. They compare a
# metric's preference ratings of a system pair (+: the first system's output is better, =: equal, −: the second's)
# with the humans' on the same items. From the 3×3 confusion matrix C (rows: human rating, columns: metric rating,
# both in the order +, =, −) the **{term}`Favi-Score`** is
#
# > {term}`Φ <Phi (Φ)>`(C) = Σ<sub>m,n</sub> W<sub>mn</sub> C<sub>mn</sub> / E, with the error costs
# > W = [[0, −1, −2], [1, 0, −1], [2, 1, 0]],
#
# the mean cost of an error (E = number of errors), positive when the errors favour the first system; by Lemma 1 it
# is also (mar(d̂) − mar(d)) / E, the change in the outcome margin per error. This chapter rebuilds the paper's
# examples, Table 1, Figs. 1 and 4–6, Appendix D's case studies and Appendix C.2.1 on the data that can be reached,
# with the compendium's own implementation, and adds what the paper leaves out: an interval and a test for every Φ,
# and whether Φ measures a preference for systems or only a noisy metric shrinking the humans' margins.
#
# ```{include} ../claims/04_favoritism.md
# ```

# %% tags=["parameters"]
seed = 2024  # the bootstrap and permutation draws come from a stream named after their item, seeded by this
datasets = ["wmt22-ende", "wmt22-zhen", "wmt21-ende", "summeval", "usr-tc", "usr-pc"]  # favi_scores datasets
n_resamples = 1000  # bootstrap resamples and sign-flip permutations per Φ; no-favoritism draws of Fig. 5a
alpha = 0.05  # significance level of the sign tests of the win graphs and of the test that Φ is zero
sign_test_ties = "drop"  # sign test with ties dropped (the conventional test) or shared by "half" between the systems
summeval_aspect = "expert_consistency"  # the SummEval expert rating in Figs. 4-5 (Appendix D uses consistency)
n_splits = 20  # random halvings of the items per dataset for the split-half attenuation reading
output_root = None  # where artefacts go (the batch runner passes its staging folder; None: scratch/, for runs by hand)

# %%
import numpy as np
import pandas as pd

from analysis.chapters import favoritism
from analysis.chapters.common import Timings, glue_values, glue_verdicts, outputs
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
)
from analysis.data import load_table
from analysis.data.favi import TEXT_DATASETS, output_texts, wmt22_zhen_documents
from analysis.data.published import item as paper_item
from analysis.plotting import set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(favoritism, globals())  # checks the parameters first
timings = Timings()
with timings.measure("load the tables"):
    scores = load_table("favi_scores")
    h2h = load_table("favi_llm_h2h")
    texts = {d: output_texts(d) for d in TEXT_DATASETS if d in datasets}  # the registered system outputs


def selected(cases):
    """The (dataset, aspect, rater) cases whose dataset this run includes."""
    return [c for c in cases if c[0] in datasets]


with timings.measure("all system pairs, with intervals and tests"):
    pairs = experiments.per_pair(scores, datasets, n_resamples=n_resamples, rng=stream(seed, "phi per pair"))
out.table(pairs[experiments.PER_PAIR_COLUMNS], "favi_per_pair", index=False)
out.table(pairs, "favi_per_pair_with_intervals", index=False)  # + E, margins, interval, p-value, null |Φ|
data_table = out.table(table1.table1(scores, pairs), "favi_table1_data", index=False)
tie_shares = out.table(fig4.tie_shares(pairs), "favi_tie_shares", index=False)
with timings.measure("per-metric summary"):
    summary = fig4.metric_summary(pairs, alpha=alpha, ties=sign_test_ties)
out.table(summary, "favi_fig4_summary", index=False)
fig4_rows = summary.query("dataset != 'summeval' or aspect == @summeval_aspect")  # Fig. 4: one human rating each
attenuation = out.table(uncertainty.attenuation_table(pairs), "favi_attenuation")
tests = out.table(uncertainty.multiple_testing(pairs, alpha=alpha, n_resamples=n_resamples), "favi_multiple_testing",
                  index=False)
items = data_table.set_index("data")["items_max"]
mt_labels = [experiments.DATASETS[d] for d in datasets if d.startswith("wmt")]
all_tests = tests.set_index("data").loc["all datasets"]
glue_values({
    "n_pairs": len(pairs),
    "n_settings": len(summary),
    "alpha": alpha,
    "noise_above": int((summary["mean_abs_favi"] > summary["null_mean_abs_favi"]).sum()),
    "noise_tests": int(all_tests["tests"]),
    "noise_significant": all_tests["significant_share"],
    "noise_bh": all_tests["significant_bh_share"],
    "noise_smallest_p": all_tests["smallest_p"],
    "att_summeval": attenuation.loc["SummEval", "favours_weaker"],
    "att_tc": attenuation.loc["USR TopicalChat", "favours_weaker"],
    "att_pc": attenuation.loc["USR PersonaChat", "favours_weaker"],
    "att_mt_min": attenuation.loc[mt_labels, "favours_weaker"].min(),
    "att_mt_max": attenuation.loc[mt_labels, "favours_weaker"].max(),
    "items_summeval": int(items["SummEval"]),
    "items_mt_min": int(items[mt_labels].min()),
    "items_mt_max": int(items[mt_labels].max()),
    "summeval_rating": experiments.aspect_label(summeval_aspect),  # SummEval's human rating in words (Figs. 4, 11)
})
# the paper's printed values the text quotes (data/published/favi.toml)
paper = {k: paper_item("favi", k) for k in ("table1", "section2", "section7", "appendix_c21", "appendix_d")}
paper_table1 = {row["domain"]: row for row in paper["table1"]["rows"]}
paper_margin = {row["rater"]: row["margin"] for row in paper["section2"]["rows"]}
paper_appd = {row["metric"]: row for row in paper["appendix_d"]["rows"]}
paper_systems = paper_table1["WMT22"]["systems"]
glue_values({
    "paper_wmt21_items": paper_table1["WMT21"]["ratings_per_pair"],
    "paper_systems": paper_systems,
    "paper_pairs": paper_systems * (paper_systems - 1) // 2,
    "paper_summeval_pairs": paper_table1["SummEval"]["systems"] * (paper_table1["SummEval"]["systems"] - 1) // 2,
    "paper_mqm_margin": paper_margin["MQM"],
    "paper_comet_margin": paper_margin["COMET-22"],
    "paper_fig1_agreement": paper["section2"]["graph_agreement_comet22"],
    "paper_rho_a": paper["section7"]["rho_abs_favi_system_agreement"],
    "paper_rho_b": paper["section7"]["rho_favi_sample_accuracy"],
    "paper_c21_accuracy": paper["appendix_c21"]["accuracy"],
    "paper_c21_alpha": paper["appendix_c21"]["krippendorff_alpha"],
    "paper_chatgpt_system": paper_appd["ChatGPT"]["system"],
    "paper_bleu_system": paper_appd["BLEU"]["system"],
    "paper_rouge_system": paper_appd["ROUGE"]["system"],
    "paper_bertscore_system": paper_appd["BertScore"]["system"],
    "paper_rouge_sample": paper_appd["ROUGE"]["sample"],
})

# %% [markdown]
# (favi-findings)=
# ## What the regenerated evidence says
#
# * **Favoritism or attenuation?** A metric that only adds noise shrinks every margin towards zero, so by Lemma 1 its
#   Φ "favours" whichever system the humans rate lower. Φ favours the humans' weaker system in
#   {glue:text}`att_summeval:.0%` of SummEval's pairs, {glue:text}`att_tc:.0%` and {glue:text}`att_pc:.0%` of the
#   dialogue stand-ins' and {glue:text}`att_mt_min:.0%` to {glue:text}`att_mt_max:.0%` of the three MT datasets'.
#   The reading of Φ as a preference for particular systems, dataset by dataset (at most half of the pairs favouring
#   the weaker system): **{glue:md}`verdict-attenuation:myst`** on the same items,
#   **{glue:md}`verdict-attenuation-split-half:myst`** on split halves, which remove the noise the two measures share
#   ({ref}`favi-attenuation`).
# * **Does every metric favour?** {glue:text}`noise_above` of the {glue:text}`n_settings` settings (a dataset, a
#   human rating, a metric) have a mean |Φ| above what a metric with the same errors in random directions gives: the
#   paper's "every metric exhibits a certain degree of favoritism" is **{glue:md}`verdict-fig4-every-metric:myst`**.
#   After a {term}`Benjamini–Hochberg correction` {glue:text}`noise_bh:.0%` of the {glue:text}`noise_tests:,` pairs
#   have a Φ beyond chance; that every dataset has such pairs:
#   **{glue:md}`verdict-fig4-favoritism-beyond-chance:myst`**.
# * **Domains (Fig. 4).** That MT metrics show less favoritism than summarization metrics, on raw mean |Φ|:
#   **{glue:md}`verdict-fig4-mt-lower:myst`**. Measured above the no-favoritism level, which falls as a
#   pair's errors grow (an MT pair has {glue:text}`items_mt_min:,` to {glue:text}`items_mt_max:,` items, SummEval's
#   {glue:text}`items_summeval`): **{glue:md}`verdict-fig4-mt-lower-beyond-noise:myst`** ({ref}`favi-fig4`).
# * **Φ and ranking errors (Fig. 5).** The inverse correlation of |Φ| with the pair's sign agreement is
#   **{glue:md}`verdict-fig5a-rho:myst`** ({term}`ρ <Spearman's rho (ρ)>` = {glue:text}`f5_rho:.2f`); stronger than for
#   metrics with the same errors in random directions: **{glue:md}`verdict-fig5a-no-favoritism:myst`**. That |Φ| says
#   more about ranking errors than sample-level accuracy (§6) is **{glue:md}`verdict-section6-insight:myst`**
#   ({ref}`favi-fig5`).
# * **Whom the metrics favour (Fig. 6, App. D).** COMET-22, the paper's example, is reachable only on zh-en, where its
#   strong disfavour of refB is **{glue:md}`verdict-fig6-refb:myst`** and of M2M100
#   **{glue:md}`verdict-fig6-m2m100:myst`**. On the paper's own WMT22 en-de data, {term}`BLEU`'s disfavour of refB and
#   Online-W is **{glue:md}`verdict-appD3-bleu-systems:myst`**; on SummEval, {term}`ROUGE`'s favour of M11 and disfavour
#   of M0 and M1 is **{glue:md}`verdict-appD2-rouge-systems:myst`** ({ref}`favi-fig6`, {ref}`favi-appendix-d`).
# * **The definitions and an LLM judge.** The worked example of Fig. 2: **{glue:md}`verdict-fig2-favi:myst`**; that of
#   Fig. 3: **{glue:md}`verdict-fig3-favi-accuracy:myst`**. Lemma 1 on all {glue:text}`n_pairs:,` real pairs:
#   **{glue:md}`verdict-lemma1:myst`**; Lemma 2: **{glue:md}`verdict-lemma2:myst`**. ChatGPT's SummEval judgments agree
#   with themselves in the other presentation order on {glue:text}`c21_accuracy:.0%` of the items: the asymmetry of App.
#   C.2.1 is **{glue:md}`verdict-c21-asymmetric:myst`** ({ref}`favi-appendix-c21`).
#
# Not testable here: COMET-22 on WMT22 en-de (§2's margins, Fig. 1's graph, Fig. 6's QUARTZ_TuneReranking) and the
# paper's chatbot data; *What differs* at the end lists every substitute. The details page holds the checks behind
# the numbers: the lemmas on every pair, §2, the noise test, the appendices' case studies, ties and documents.

# %% [markdown]
# (favi-fig2-fig3)=
# ## Figs. 2–3: the worked examples
#
# The paper's five confusion matrices, through the same code as the real data: Φ and sample-level accuracy beside the
# paper's, then the errors by the system they favour and the metric's outcome d̂.

# %%
examples = out.table(definitions.worked_examples(), "favi_fig2_fig3_examples")
assert np.allclose(examples["favi"].round(3), examples["paper_favi"])
examples_scores, examples_counts = definitions.examples_page(examples)
show(examples_scores)
show(examples_counts)

# %% [markdown]
# C₁ and C₂ make the same number of errors, all for π₁, but C₁'s are severe (− read as +, cost 2); C₃'s errors
# cancel; C₄'s severe errors for π₁ outweigh its mild ones for π₂. C₅ (Fig. 3) makes more errors for π₂ but more
# severe ones for π₁ (second table); its metric outcome d̂ is the paper's printed fourth row.

# %% [markdown] tags=["details-opening"]
# This page checks the chapter's numbers case by case: Lemmas 1 and 2 on every real pair, Table 1's raters and
# sources, §2's example, Fig. 4's domains and ties, Φ against a metric without favoritism, Appendix D's case studies
# and printed values, Appendix C.2.1's LLM judge, ties and documents, and the run times.

# %% [markdown] tags=["details"]
# (favi-lemmas)=
# ## Lemmas 1 and 2 on every real pair

# %% tags=["hide-output"]
lemmas = out.table(definitions.lemma_checks(pairs), "favi_lemma_checks")
assert lemmas.loc["Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|", "value"] < 1e-12
assert lemmas.loc["Lemma 2: ... of which the margin signs differ", "value"] == 0
show(definitions.lemmas_page(lemmas))

# %% [markdown]
# Φ is undefined, and left out, for a pair without errors (E = 0). The last row counts pairs whose margins keep
# their sign although Φ ≠ 0: App. B's point that the converse of Lemma 2 fails
# ({glue:md}`verdict-lemma2-converse:myst`). The definitions are checked as properties of the implementation's outputs
# on every pair: Defs. 4–7 ({glue:md}`verdict-defs4-7-implementation:myst`), Def. 9's range
# ({glue:md}`verdict-def9-range:myst`), Def. 10's system-level accuracy over all N = C(|Π|, 2) pairs
# ({glue:md}`verdict-def10-system-accuracy:myst`), Def. 11's identity ({glue:md}`verdict-def11-identity:myst`), App. A's
# enumeration ({glue:md}`verdict-appA-enumeration:myst`) and the Limitations' single error
# ({glue:md}`verdict-limitations-one-error:myst`).

# %% [markdown]
# (favi-table1)=
# ## The data (Table 1)
#
# Per dataset, every system's human and automatic rating of every item; scalar ratings become preferences by
# comparing the two systems' scores on an item (App. C.1, Def. 13: higher is better, equal scores a tie), and an item
# counts for a pair only when both systems have both ratings. Each dataset beside the row of the paper's it stands
# for:

# %% tags=["hide-output"]
show(table1.table1_beside_paper(data_table))
wmt21 = data_table.set_index("data").loc["WMT21 en-de"]
glue_values({"wmt21_rated": int(wmt21["rated_items_max"]), "wmt21_segments": int(wmt21["dataset_items"]),
             "wmt21_systems": int(wmt21["systems_rated"])})

# %% [markdown]
# WMT22 zh-en stands in for the neural metrics the paper used on en-de, USR's TopicalChat and PersonaChat for the
# paper's chatbot data; WMT22's refA, the reference the metrics score against, is left out (Table 1's item counts are
# {glue:md}`verdict-table1-items:myst`, its systems {glue:md}`verdict-table1-systems:myst`).

# %% [markdown] tags=["details"]
# (favi-table1-sources)=
# ## Table 1's raters and sources

# %% tags=["hide-output"]
show(table1.table1_page(data_table, scores).rename(columns={  # headers short enough for a tablet
    "Systems with human ratings": "Systems rated", "Systems compared by Φ": "Systems compared",
    "Items per system pair": "Items per pair"}))
show(experiments.in_words(pd.DataFrame(paper["table1"]["rows"])))

# %% [markdown]
# Φ compares fewer systems than have human ratings where a rater covers fewer systems or a reference is left out.
# Equal scores are a tie, and so are scores closer than 10⁻⁹: equal scores computed along different floating-point
# paths, such as two ROUGE F-measures of the same counts, differ by up to about 10⁻¹³ here, while the smallest real
# difference is about 10⁻⁸. WMT21 en-de's human ratings cover {glue:text}`wmt21_rated:,` of its
# {glue:text}`wmt21_segments:,` segments for each of its {glue:text}`wmt21_systems` systems, against the paper's
# |E| = {glue:text}`paper_wmt21_items:,`; the paper does not say how it counted.
#
# The data: SummEval {cite:p}`fabbri2021summeval` and WMT21 en-de {cite:p}`freitag2021experts` are the paper's, with
# lexical metrics computed here. WMT22 en-de {cite:p}`freitag2022results` is the paper's, with the raters reachable
# for it (SEScoreX, {term}`GEMBA` {cite:p}`kocmi2023large`) and BLEU {cite:p}`papineni2002bleu` and {term}`chrF`
# computed here with sacreBLEU {cite:p}`post2018call` for the systems whose outputs are reachable. WMT22 zh-en
# carries the neural metrics the paper used on en-de (COMET-22, BLEURT-20 {cite:p}`sellam2020bleurt`, UniTE,
# MetricX), whose en-de scores are published in mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here.
# The paper's chatbot data (BST with five trained dialogue metrics, from {cite:t}`deriu2023correction`) is not
# reachable either; the USR ratings {cite:p}`mehri2020usr` of TopicalChat {cite:p}`gopalakrishnan2019topicalchat` and
# PersonaChat {cite:p}`zhang2018personalizing` responses, with {term}`BT-eval`'s metric scores
# {cite:p}`peyrard2021bteval`, stand in, with few items per pair (|Φ| is coarse there: the paper's *Robustness*
# limitation).

# %% [markdown] tags=["details"]
# (favi-section2)=
# ## §2: Online-W vs. JDExploreAcademy
#
# The paper motivates Φ with one pair of WMT22 en-de: COMET-22 keeps the sign of the {term}`MQM` margin of Online-W over
# JDExploreAcademy but widens it, from {glue:text}`paper_mqm_margin:g` to {glue:text}`paper_comet_margin:g` points.

# %% tags=["hide-output"]
if "wmt22-ende" in datasets:
    margins = out.table(cases.margin_example(pairs), "favi_section2_margins")
    show(cases.margins_page(margins), digits=1)
    glue_values({"s2_margin": margins.loc["MQM", "margin"], "s2_items": int(margins.loc["MQM", "items"])})

# %% [markdown]
# Under MQM the margin is {glue:text}`s2_margin:+.1f` points of {glue:text}`s2_items:,` items (the paper's shares
# are {glue:md}`verdict-section2-mqm-shares:myst`). COMET-22's en-de segment scores are not reachable, so the table
# gives the margin under each automatic rater that is: a margin of MQM's sign but larger widens it, as COMET-22 does in
# the paper; one of the other sign reverses it.

# %% [markdown]
# (favi-fig1)=
# ## Fig. 1: win graphs, humans vs. metric
#
# The paper's Fig. 1 draws the humans' and COMET-22's win graphs of WMT22 en-de; COMET-22's en-de scores are not
# reachable, so COMET-22 on WMT22 zh-en stands in. Ties carry no sign ({cite:t}`coakley1996versions` review ways to
# treat them): the conventional sign test drops them. The paper's "system-level agreement" is read as the share of
# pairs whose verdict (A wins, B wins, neither) is the same in both graphs.

# %%
case_list = selected([("wmt22-zhen", "MQM", "COMET-22"), ("wmt22-ende", "MQM", "BLEU"),
                  ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"), ("summeval", summeval_aspect, "ROUGE_L"),
                  ("usr-tc", "USR_Overall", "BERTScore")])
fig6_cases = selected([("wmt22-zhen", "MQM", "COMET-22")])


def case(dataset, aspect, rater, per_system=True):
    """A case figure and the numbers its caption states."""
    table = experiments.setting_table(pairs, dataset, aspect, rater)
    return (cases.plot_case(table, rater=rater, aspect=aspect, alpha=alpha, ties=sign_test_ties,
                            per_system=per_system), cases.case_numbers(table, alpha=alpha, ties=sign_test_ties))


fig, n = case("wmt22-zhen", "MQM", "COMET-22", per_system=False)
out.figure(fig, "favi_fig1_standin_comet22_zhen")
glue_values({
    "arrows_level": 1 - alpha,  # the arrows of every case figure's win graphs
    "arrows_ties": {"drop": "ties dropped", "half": "ties shared equally between the two systems"}[sign_test_ties],
    "case_fig1_systems": n["systems"], "case_fig1_agreement": n["agreement"], "case_fig1_pairs": n["pairs"],
    "case_fig1_items": n["items"], "case_fig1_system": n["system"], "case_fig1_sample": n["sample"],
    "case_fig1_mean_abs_favi": n["mean_abs_favi"],
})

# %% [markdown]
# ```{glue:figure} favi_fig1_standin_comet22_zhen
# :name: favi_fig1_standin_comet22_zhen
# :figclass: compendium-figure
# :alt: Win graphs of the humans' MQM ratings and of COMET-22 on WMT22 zh-en.
#
# Win graphs of (a) the humans' MQM ratings and (b) COMET-22 on WMT22 zh-en: a stand-in for the paper's Fig. 1, on
# {glue:text}`case_fig1_systems` systems.
#
# An arrow A → B: A is rated better than B on significantly more of their shared items (two-sided sign test at
# {glue:text}`arrows_level:.0%`, {glue:md}`arrows_ties`); arrows implied by a chain of others are left out. Red and
# dashed: a win of the metric that the humans' graph does not imply. The two graphs' verdicts agree on
# {glue:text}`case_fig1_agreement:.0%` of the {glue:text}`case_fig1_pairs` pairs ({glue:md}`case_fig1_items` items
# each); system-level sign accuracy {glue:text}`case_fig1_system:.3f`, sample-level {glue:text}`case_fig1_sample:.3f`,
# mean |Φ| {glue:text}`case_fig1_mean_abs_favi:.3f`. Each system's Φ against the others, panel (c) of the paper's case
# figures, is in {numref}`favi_fig6_per_system`. The paper's Fig. 1 is COMET-22 on WMT22 en-de with
# {glue:text}`paper_systems` systems, whose scores, published in mt-metrics-eval v2 {cite:p}`mtmetricseval`, are not
# reachable here; WMT22 zh-en {cite:p}`freitag2022results` has other systems and another human reference.
# ```

# %%
graphs = out.table(cases.graph_summary(pairs, case_list, alpha=alpha), "favi_win_graph_agreement", index=False)
layers = out.table(cases.win_graph_layers(pairs, case_list, alpha=alpha, ties=sign_test_ties), "favi_win_graph_layers",
                   index=False)
per_system = out.table(cases.per_system(pairs), "favi_per_system", index=False)

# %% [markdown]
# Red and dashed are COMET-22's wins that the humans' graph does not imply. That M2M100 is last in both graphs, as
# in the paper's, is {glue:md}`verdict-fig6-m2m100-last:myst`. On the paper's own WMT22 en-de data, that the humans put
# refB and Online-W at the top is {glue:md}`verdict-fig1-human-top:myst`; that graph, with BLEU's and {term}`GEMBA`'s
# beside it, is among the case figures of Appendix D on the details page ({ref}`favi-case-figures`).

# %% [markdown]
# (favi-fig4)=
# ## Fig. 4: sign accuracies and mean |Φ| per metric

# %%
out.figure(fig4.plot_fig4(fig4_rows), "favi_fig4_accuracy_and_favi")

# %% [markdown]
# ```{glue:figure} favi_fig4_accuracy_and_favi
# :name: favi_fig4_accuracy_and_favi
# :figclass: compendium-figure
# :alt: Sign accuracies and mean |Φ| of every automatic rater, one panel per dataset.
#
# Sample-level (orange) and system-level (blue) sign accuracy (left axis of each panel) and mean |Φ| over system pairs
# with ± its sd (green, right axis) of every automatic rater, per dataset: the paper's Fig. 4 on the data at hand.
#
# Grey: the mean |Φ| a rater with the same errors and no favoritism would show (beyond the paper,
# {numref}`favi_noise_vs_observed`). One row per rater, where the paper draws lines across the metrics of a domain.
# WMT22 zh-en stands in for WMT22 en-de's neural metrics (COMET-22, BLEURT-20, UniTE, MetricX); USR TopicalChat and USR
# PersonaChat stand in for the paper's BST chatbot data (not reachable). SummEval's human rating is the
# {glue:md}`summeval_rating`; its metrics are lexical ones computed here.
# ```

# %%
domains = out.table(fig4.domain_comparison(fig4_rows), "favi_domain_comparison", index=False)
d = domains.set_index("domain")
mt4 = fig4_rows[fig4_rows["domain"] == "machine translation"]


def mt_share(column):
    """MT's value of a domain comparison ``column`` as a share of summarization's."""
    return d.loc["machine translation", column] / d.loc["summarization", column]


glue_values({
    "dom_mt_min": d.loc["machine translation", "min_mean_abs_favi"],
    "dom_mt_max": d.loc["machine translation", "max_mean_abs_favi"],
    "dom_sum_min": d.loc["summarization", "min_mean_abs_favi"],
    "dom_sum_max": d.loc["summarization", "max_mean_abs_favi"],
    "dom_dia_min": d.loc["dialogue", "min_mean_abs_favi"],
    "dom_dia_max": d.loc["dialogue", "max_mean_abs_favi"],
    "dom_null_mt": d.loc["machine translation", "median_null_mean_abs_favi"],
    "dom_null_sum": d.loc["summarization", "median_null_mean_abs_favi"],
    "dom_null_dia": d.loc["dialogue", "median_null_mean_abs_favi"],
    "dom_mt_lower": d.loc["summarization", "mt_lower_share"],
    "dom_mt_median_share": mt_share("median_mean_abs_favi"),
    "dom_mt_sd_share": mt_share("median_sd_abs_favi"),
    "dom_mt_excess_share": mt_share("median_excess"),
    "dom_mt_excess_lower": d.loc["summarization", "mt_excess_lower_share"],
    "mt_settings": len(mt4),
    "mt_more_human_ties": int((mt4["human_tie_share"] > mt4["metric_tie_share"]).sum()),
    "mt_system_accuracy_min": mt4["system_accuracy"].min(),
    "mt_system_accuracy_max": mt4["system_accuracy"].max(),
    "mt_sample_accuracy_min": mt4["sample_accuracy"].min(),
    "mt_sample_accuracy_max": mt4["sample_accuracy"].max(),
    "mt_human_tie_share_min": mt4["human_tie_share"].min(),
    "mt_human_tie_share_max": mt4["human_tie_share"].max(),
    "mt_metric_tie_share_min": mt4["metric_tie_share"].min(),
    "mt_metric_tie_share_max": mt4["metric_tie_share"].max(),
})

# %% [markdown]
# Mean |Φ| ranges from {glue:text}`dom_mt_min:.2f` to {glue:text}`dom_mt_max:.2f` for the MT metrics, from
# {glue:text}`dom_sum_min:.2f` to {glue:text}`dom_sum_max:.2f` for summarization and from {glue:text}`dom_dia_min:.2f`
# to {glue:text}`dom_dia_max:.2f` for the dialogue stand-ins. The claims compare the domains' medians over their
# settings: MT's median mean |Φ| is {glue:text}`dom_mt_median_share:.0%` of summarization's and its median sd
# {glue:text}`dom_mt_sd_share:.0%` ({glue:md}`verdict-fig4-mt-lower:myst`); its median excess over the no-favoritism
# level (the grey ticks) is {glue:text}`dom_mt_excess_share:.0%` of summarization's
# ({glue:md}`verdict-fig4-mt-lower-beyond-noise:myst`). That level (median {glue:text}`dom_null_mt:.2f` for MT,
# {glue:text}`dom_null_sum:.2f` for summarization) falls as a pair's errors grow, so raw mean |Φ| across domains
# mixes favoritism with sample size.

# %% [markdown] tags=["details"]
# (favi-fig4-domains)=
# ## Fig. 4's domains and ties

# %% tags=["hide-output"]
show(fig4.domains_page(domains))

# %% [markdown]
# Paired with a summarization metric, the MT metric has the lower mean |Φ| in {glue:text}`dom_mt_lower:.0%` of the
# couples, and the lower excess over the no-favoritism level in {glue:text}`dom_mt_excess_lower:.0%`; the median
# no-favoritism level of the dialogue stand-ins is {glue:text}`dom_null_dia:.2f`. The MT metrics reach system-level
# accuracy {glue:text}`mt_system_accuracy_min:.2f`–{glue:text}`mt_system_accuracy_max:.2f` with sample-level accuracy
# {glue:text}`mt_sample_accuracy_min:.2f`–{glue:text}`mt_sample_accuracy_max:.2f`. Ties weigh on the latter
# ({ref}`favi-ties`): MQM ties on {glue:text}`mt_human_tie_share_min:.0%`–{glue:text}`mt_human_tie_share_max:.0%` of a
# pair's items, the metrics on {glue:text}`mt_metric_tie_share_min:.0%`–{glue:text}`mt_metric_tie_share_max:.0%`, and
# every human tie a metric breaks counts as an error ({glue:text}`mt_more_human_ties` of the {glue:text}`mt_settings` MT
# settings have more human than metric ties). The values drawn, for all four SummEval aspects:
# {download}`Fig. 4 as CSV <../04_favoritism/favi_fig4_summary.csv>`; the tie shares of every setting:
# {download}`tie shares <../04_favoritism/favi_tie_shares.csv>`.

# %% [markdown]
# (favi-attenuation)=
# ## Beyond the paper: favoritism or attenuation?
#
# The paper reads Φ as a metric's preference for particular systems. But a metric that merely adds noise shrinks every
# margin, so by Lemma 1 its Φ ≈ −mar(d)/E: it seems to favour whichever system the humans rate lower. On the same
# items Φ = (mar(d̂) − mar(d))/E and −mar(d)/E share the humans' margin, so noise in that margin alone correlates
# them; a split-half design removes the shared term: the items are halved at random, each pair is oriented by its
# human winner on one half and Φ is computed on the other (both ways round, over several halvings).

# %% tags=["hide-output"]
with timings.measure("split-half attenuation"):
    split = out.table(uncertainty.split_half_attenuation(scores, datasets, n_splits=n_splits,
                                                         rng=stream(seed, "split halves")),
                      "favi_attenuation_split_half")
show(uncertainty.split_half_page(attenuation, split))

# %% [markdown]
# The share of pairs whose Φ favours the humans' weaker system, and Spearman's ρ between Φ and −mar(d)/E (1: Φ is
# pure attenuation), on the same items and on split halves. Where Φ mostly favours the weaker system and follows
# −mar(d)/E closely, it measures how a noisy metric shrinks the humans' margins more than a preference for
# particular systems; where it does neither, the metrics' margins differ from the humans' in both directions and Φ
# can point to real favourites. The reading of Φ as favoritism, dataset by dataset (in the table's order: at most
# half of the pairs favouring the weaker system): {glue:md}`verdict-attenuation:myst` on the same items
# ({glue:md}`ours-attenuation`), {glue:md}`verdict-attenuation-split-half:myst` on split halves
# ({glue:md}`ours-attenuation-split-half`).

# %% [markdown] tags=["details"]
# (favi-noise)=
# ## Φ against a metric without favoritism
#
# The paper reports Φ without uncertainty and names this as a limitation (*Robustness*). Here each Φ gets a bootstrap
# interval over items (over documents too on WMT22 zh-en, {ref}`favi-document-bootstrap`) and a sign-flip permutation
# test: exchanging the human and the metric rating of an item negates its error cost and keeps E, so under "the two
# ratings are exchangeable" Φ is a sum of randomly signed costs. Its mean |Φ| is the grey tick of
# {numref}`favi_fig4_accuracy_and_favi`.

# %%
out.figure(uncertainty.plot_noise(summary), "favi_noise_vs_observed")
glue_values({"n_resamples": n_resamples})

# %% [markdown]
# ```{glue:figure} favi_noise_vs_observed
# :name: favi_noise_vs_observed
# :figclass: compendium-figure
# :alt: Observed mean |Φ| of every setting against the mean |Φ| of a rater without favoritism.
#
# Observed mean |Φ| of every setting (a dataset, a human rating and an automatic rater) against the mean |Φ| a rater
# with the same errors and no favoritism would show: beyond the paper.
#
# The expected value averages, per pair, {glue:text}`n_resamples:,` draws that give each error a random direction (the
# sign-flip null). Dashed: observed = expected; {glue:text}`noise_above` of the {glue:text}`n_settings` settings lie
# above it.
# ```

# %%
ratio = (summary["mean_abs_favi"] / summary["null_mean_abs_favi"]).groupby(summary["dataset"]).median()
glue_values({"noise_ratio_min": ratio.min(), "noise_ratio_max": ratio.max()})

# %% [markdown]
# Per dataset, the median setting's mean |Φ| is {glue:text}`noise_ratio_min:.1f` to
# {glue:text}`noise_ratio_max:.1f` times the no-favoritism level. Of the {glue:text}`noise_tests:,` pairs tested,
# {glue:text}`noise_significant:.0%` have p < {glue:text}`alpha`; read as one family with the Benjamini–Hochberg
# correction (false discovery rate {glue:text}`alpha`), {glue:text}`noise_bh:.0%` do (a permutation p-value cannot be
# smaller than {glue:text}`noise_smallest_p:.2g`, which bounds what the correction keeps). But the test only says that
# the metric's margin differs from the humans' (each error's cost is the metric's rating minus the human's), not that
# the metric *prefers* a system ({ref}`favi-attenuation`). Per dataset, then the attenuation reading among the pairs
# whose test is significant, with the items per pair:

# %% tags=["hide-output"]
show(experiments.in_words(tests.set_index("data").drop(columns="smallest_p")))
show(experiments.in_words(attenuation).join(items.rename("items per pair")))

# %% [markdown]
# (favi-fig5)=
# ## Fig. 5: Φ against sign accuracy

# %%
fig5_pairs = pairs.query("dataset != 'summeval' or aspect == @summeval_aspect")  # Fig. 4's settings
null_rhos = fig5.no_favoritism_rho(fig5_pairs, n_draws=n_resamples, rng=stream(seed, "fig5a without favoritism"))
values = (fig5.fig5_values(fig5_pairs, fig4_rows, null_rhos) | appendix_d.appendix_d_values(tie_shares, summeval_aspect)
          | appendix_c21.first_position(h2h))
out.values(values)
top_accuracy = out.table(fig5.top_accuracy_favi(fig5_pairs, n_resamples=n_resamples, alpha=alpha,
                                                  rng=stream(seed, "fig5b top accuracy")), "favi_fig5b_high_accuracy",
                         index=False).iloc[0]
fig5_rho = out.table(fig5.fig5_correlations(fig5_pairs), "favi_fig5_correlations")
out.figure(fig5.plot_fig5(fig5_pairs), "favi_fig5_favi_vs_accuracy")
glue_values({"f5_pairs": int((fig5_pairs["total_error"] > 0).sum())})

# %% [markdown]
# ```{glue:figure} favi_fig5_favi_vs_accuracy
# :name: favi_fig5_favi_vs_accuracy
# :figclass: compendium-figure
# :alt: Φ of the system pairs by whether the metric keeps their margin sign, and against sample-level accuracy.
#
# (a) |Φ| of the system pairs whose margin sign the metric keeps (1) or changes (0), and (b) Φ against the pair's
# sample-level sign accuracy: the paper's Fig. 5, on the {glue:text}`f5_pairs:,` pairs with an error of the settings of
# Fig. 4 ({numref}`favi_fig4_accuracy_and_favi`).
#
# In (b) a point is coloured by whether the pair's margin signs agree, where the paper colours it by the metric's
# system-level accuracy. Φ is positive when the metric's errors favour the pair's alphabetically first system.
# ```

# %%
show(experiments.in_words(fig5_rho))
v = pd.Series(values)
glue_values({
    "f5_differ": v["fig5a.median_abs_favi_signs_differ"],
    "f5_agree": v["fig5a.median_abs_favi_signs_agree"],
    "f5_rho": fig5_rho["spearman_rho"].iloc[0],
    "f5_rho_b": fig5_rho["spearman_rho"].iloc[1],
    "f5_acc": v["section6.rho_sample_accuracy_agreement_pairs"],
    "f5_null": v["fig5a.no_favoritism_rho_mean"],
    "f5_null_low": v["fig5a.no_favoritism_rho_low"],
    "f5_null_high": v["fig5a.no_favoritism_rho_high"],
    "f5_null_p": v["fig5a.no_favoritism_share_at_or_below"],
    "f5b_top": top_accuracy["top_share"],
    "f5b_threshold": top_accuracy["top_accuracy_threshold"],
    "f5b_diff": top_accuracy["value"],
    "f5b_low": top_accuracy["low"],
    "f5b_high": top_accuracy["high"],
    "f5b_level": 1 - alpha,
})

# %% [markdown]
# Pairs whose margins change sign under the metric have a median |Φ| of {glue:text}`f5_differ:.2f`, pairs whose
# signs agree {glue:text}`f5_agree:.2f` ({glue:md}`verdict-fig5a-larger:myst`). The paper calls the pattern expected by
# Lemma 2, but Lemma 1 explains part of it without any favoritism (a sign change needs |Φ| ≥ |mar(d)|/E): metrics
# with the same errors in random directions give ρ = {glue:text}`f5_null:.2f` on average
# ({glue:text}`f5_null_low:.2f` to {glue:text}`f5_null_high:.2f` in 95% of the draws), one at or below ours in a
# share {glue:text}`f5_null_p:.3f` of the draws (stronger than without favoritism:
# {glue:md}`verdict-fig5a-no-favoritism:myst`). Signed Φ against sample-level accuracy, ρ = {glue:text}`f5_rho_b:.2f`
# against the paper's {glue:text}`paper_rho_b:.2f`, is {glue:md}`verdict-fig5b-rho:myst`; its sign flips with the order
# of the pair, so it cannot correlate with anything symmetric. For "very high sample-level accuracies are
# associated with smaller Favi-Scores" the paper gives no threshold: the top {glue:text}`f5b_top:.0%` of the pairs
# (accuracy ≥ {glue:text}`f5b_threshold:.2f`) have a median |Φ| {glue:text}`f5b_diff:+.4f` from the others'
# ({glue:text}`f5b_level:.0%` bootstrap interval over the pairs {glue:text}`f5b_low:+.3f` to
# {glue:text}`f5b_high:+.3f`): {glue:md}`verdict-fig5b-high-accuracy:myst`. Sample-level accuracy correlates with the
# sign agreement at ρ = {glue:text}`f5_acc:.2f`, against |Φ|'s {glue:text}`f5_rho:.2f`, so §6's insight is
# {glue:md}`verdict-section6-insight:myst` (the pairs share systems and human ratings, so no p-value is given).

# %% [markdown]
# (favi-fig6)=
# ## Fig. 6: Φ per system, one against all

# %%
if fig6_cases:
    out.figure(cases.plot_fig6(pairs, fig6_cases), "favi_fig6_per_system")
    glue_values({"fig6_settings": " and ".join(experiments.setting_name(dataset, rater)
                                               for dataset, _, rater in fig6_cases)})

# %% [markdown]
# ```{glue:figure} favi_fig6_per_system
# :name: favi_fig6_per_system
# :figclass: compendium-figure
# :alt: Box plots of each system's Φ against every other system, for COMET-22 on WMT22 zh-en.
#
# Φ of each system against every other system (positive: the metric favours it), systems sorted by their median Φ: the
# paper's Fig. 6, for {glue:md}`fig6_settings`.
#
# A box spans the middle half of a system's Φ values, its line is the median; whiskers reach the farthest value within
# 1.5 box widths of the box, points beyond are drawn singly. The paper's Fig. 6 is COMET-22 on WMT22 en-de, whose scores
# are published in mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here: COMET-22 on WMT22 zh-en stands in,
# with other systems and another human reference.
# ```

# %%
if fig6_cases:
    show(cases.systems_page(per_system, fig6_cases), digits=2)

# %% [markdown]
# The systems the paper names, and the MBR-decoded systems: each one's median Φ and against how many opponents its Φ
# is positive or negative. The paper's COMET-22 disfavours refB against every system; on zh-en that is
# {glue:md}`verdict-fig6-refb:myst`, and its disfavouring of M2M100 (last in both of the paper's graphs; in ours
# {glue:md}`verdict-fig6-m2m100-last:myst`) is {glue:md}`verdict-fig6-m2m100:myst`. QUARTZ_TuneReranking, which the
# paper's COMET-22 favours, is not among the zh-en systems ({glue:md}`verdict-fig6-quartz:myst`).

# %% [markdown] tags=["details"]
# (favi-appendix-d)=
# ## Appendix D: the case studies
#
# The paper's appendix shows, per case, the humans' and the metric's win graphs and each system's Φ against the
# others (its Figs. 8–13), with the three measures in the figure's title; here the cases that can be rebuilt, their
# win graphs, which systems each metric favours and disfavours most, and the printed values.

# %% [markdown]
# (favi-case-figures)=
# ### The case figures (Figs. 10–13)

# %%
fig, n = case("wmt22-ende", "MQM", "BLEU")
out.figure(fig, "favi_fig13_bleu_ende")
glue_values({
    "case_fig13_systems": n["systems"], "case_fig13_agreement": n["agreement"], "case_fig13_pairs": n["pairs"],
    "case_fig13_items": n["items"], "case_fig13_system": n["system"], "case_fig13_sample": n["sample"],
    "case_fig13_mean_abs_favi": n["mean_abs_favi"],
})

# %% [markdown]
# ```{glue:figure} favi_fig13_bleu_ende
# :name: favi_fig13_bleu_ende
# :figclass: compendium-figure
# :alt: Win graphs of the humans' MQM ratings and of BLEU on WMT22 en-de, and each system's Φ.
#
# Win graphs of (a) the humans' MQM ratings and (b) BLEU on WMT22 en-de, and (c) each system's Φ against every other
# system: the paper's Fig. 13, on {glue:text}`case_fig13_systems` systems.
#
# An arrow A → B: A is rated better than B on significantly more of their shared items (two-sided sign test at
# {glue:text}`arrows_level:.0%`, {glue:md}`arrows_ties`); arrows implied by a chain of others are left out. Red and
# dashed: a win of the metric that the humans' graph does not imply. The two graphs' verdicts agree on
# {glue:text}`case_fig13_agreement:.0%` of the {glue:text}`case_fig13_pairs` pairs ({glue:md}`case_fig13_items` items
# each); system-level sign accuracy {glue:text}`case_fig13_system:.3f`, sample-level {glue:text}`case_fig13_sample:.3f`,
# mean |Φ| {glue:text}`case_fig13_mean_abs_favi:.3f`. Sentence BLEU {cite:p}`papineni2002bleu` is computed here for the
# systems whose outputs are reachable; the paper's {glue:text}`paper_systems` include QUARTZ_TuneReranking and M2M100,
# whose outputs are published in mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here.
# ```

# %%
fig, n = case("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT")
out.figure(fig, "favi_fig12_standin_gemba_chatgpt_ende")
glue_values({
    "case_fig12_systems": n["systems"], "case_fig12_agreement": n["agreement"], "case_fig12_pairs": n["pairs"],
    "case_fig12_items": n["items"], "case_fig12_system": n["system"], "case_fig12_sample": n["sample"],
    "case_fig12_mean_abs_favi": n["mean_abs_favi"],
})

# %% [markdown]
# ```{glue:figure} favi_fig12_standin_gemba_chatgpt_ende
# :name: favi_fig12_standin_gemba_chatgpt_ende
# :figclass: compendium-figure
# :alt: Win graphs of the humans' MQM ratings and of GEMBA-DA-ChatGPT on WMT22 en-de, and each system's Φ.
#
# Win graphs of (a) the humans' MQM ratings and (b) GEMBA-DA-ChatGPT on WMT22 en-de, and (c) each system's Φ against
# every other system: a stand-in for the paper's Fig. 12, on {glue:text}`case_fig12_systems` systems.
#
# An arrow A → B: A is rated better than B on significantly more of their shared items (two-sided sign test at
# {glue:text}`arrows_level:.0%`, {glue:md}`arrows_ties`); arrows implied by a chain of others are left out. Red and
# dashed: a win of the metric that the humans' graph does not imply. The two graphs' verdicts agree on
# {glue:text}`case_fig12_agreement:.0%` of the {glue:text}`case_fig12_pairs` pairs ({glue:md}`case_fig12_items` items
# each); system-level sign accuracy {glue:text}`case_fig12_system:.3f`, sample-level {glue:text}`case_fig12_sample:.3f`,
# mean |Φ| {glue:text}`case_fig12_mean_abs_favi:.3f`. The paper's Fig. 12 asks ChatGPT which of the two translations is
# better; GEMBA-DA's scalar ChatGPT scores {cite:p}`kocmi2023large` stand in, and every WMT22 en-de system with MQM
# ratings except the metrics' reference refA is compared (the paper: {glue:text}`paper_systems`).
# ```

# %%
fig, n = case("summeval", summeval_aspect, "ROUGE_L")
out.figure(fig, "favi_fig11_rouge_summeval")
glue_values({
    "case_fig11_systems": n["systems"], "case_fig11_agreement": n["agreement"], "case_fig11_pairs": n["pairs"],
    "case_fig11_items": n["items"], "case_fig11_system": n["system"], "case_fig11_sample": n["sample"],
    "case_fig11_mean_abs_favi": n["mean_abs_favi"],
})

# %% [markdown]
# ```{glue:figure} favi_fig11_rouge_summeval
# :name: favi_fig11_rouge_summeval
# :figclass: compendium-figure
# :alt: Win graphs of the SummEval experts' ratings and of ROUGE-L, and each system's Φ.
#
# Win graphs of (a) the humans' {glue:md}`summeval_rating` ratings and (b) ROUGE-L on SummEval, and (c) each system's Φ
# against every other system: the paper's Fig. 11, on {glue:text}`case_fig11_systems` systems.
#
# An arrow A → B: A is rated better than B on significantly more of their shared items (two-sided sign test at
# {glue:text}`arrows_level:.0%`, {glue:md}`arrows_ties`); arrows implied by a chain of others are left out. Red and
# dashed: a win of the metric that the humans' graph does not imply. The two graphs' verdicts agree on
# {glue:text}`case_fig11_agreement:.0%` of the {glue:text}`case_fig11_pairs` pairs ({glue:md}`case_fig11_items` items
# each); system-level sign accuracy {glue:text}`case_fig11_system:.3f`, sample-level {glue:text}`case_fig11_sample:.3f`,
# mean |Φ| {glue:text}`case_fig11_mean_abs_favi:.3f`. The paper does not say which ROUGE it uses; ROUGE-L
# {cite:p}`lin2004rouge` is computed here from the published summaries, and a human rating is the mean of the three
# experts' {cite:p}`fabbri2021summeval`.
# ```

# %%
fig, n = case("usr-tc", "USR_Overall", "BERTScore")
out.figure(fig, "favi_case_bertscore_usr_tc")
glue_values({
    "case_fig10_systems": n["systems"], "case_fig10_agreement": n["agreement"], "case_fig10_pairs": n["pairs"],
    "case_fig10_items": n["items"], "case_fig10_system": n["system"], "case_fig10_sample": n["sample"],
    "case_fig10_mean_abs_favi": n["mean_abs_favi"],
})

# %% [markdown]
# ```{glue:figure} favi_case_bertscore_usr_tc
# :name: favi_case_bertscore_usr_tc
# :figclass: compendium-figure
# :alt: Win graphs of the humans' overall ratings and of BERTScore on USR TopicalChat, and each system's Φ.
#
# Win graphs of (a) the humans' overall ratings and (b) BERTScore on USR TopicalChat, and (c) each system's Φ against
# every other system: a stand-in for the paper's Fig. 10, on {glue:text}`case_fig10_systems` systems.
#
# An arrow A → B: A is rated better than B on significantly more of their shared items (two-sided sign test at
# {glue:text}`arrows_level:.0%`, {glue:md}`arrows_ties`); arrows implied by a chain of others are left out. Red and
# dashed: a win of the metric that the humans' graph does not imply. The two graphs' verdicts agree on
# {glue:text}`case_fig10_agreement:.0%` of the {glue:text}`case_fig10_pairs` pairs ({glue:md}`case_fig10_items` items
# each); system-level sign accuracy {glue:text}`case_fig10_system:.3f`, sample-level {glue:text}`case_fig10_sample:.3f`,
# mean |Φ| {glue:text}`case_fig10_mean_abs_favi:.3f`. The paper's Fig. 10 is BertScore on SummEval, whose BertScore
# scores are not reachable here; BERTScore {cite:p}`zhang2020bertscore` on USR's TopicalChat ratings
# {cite:p}`mehri2020usr` stands in for it and for the paper's chatbot cases (its Figs. 8-9 on BST), with few items per
# pair.
# ```

# %% tags=["hide-output"]
show(cases.graphs_page(graphs).rename(columns={"significant for humans": "humans",  # short enough for a tablet
                                              "significant for the metric": "metric", "verdicts agree": "agree"}))
show(cases.favourites_page(per_system, layers, case_list).rename(columns={
    "Φ > 0 against": "Φ > 0", "Φ < 0 against": "Φ < 0", "row, humans' graph": "humans' row",
    "row, metric's graph": "metric's row"}), digits=2)

# %% [markdown]
# The first table counts, with ties dropped and with ties split, the pairs each graph finds significant (the
# humans', the metric's) and the share of pairs whose verdicts agree. The second names, per setting, the system the
# metric favours most and the one it disfavours most (highest and lowest median Φ against the others) and their rows in
# the two graphs (row 1 is the top). That the humans put refB and Online-W at the top of WMT22 en-de is
# {glue:md}`verdict-fig1-human-top:myst`; that M11 is the worst system by the human ranking of SummEval's consistency
# (App. D.2: in the last row of the humans' graph) is {glue:md}`verdict-appD2-m11-human-worst:myst`. The paper's shares
# for its {glue:text}`paper_systems` WMT22 systems, {glue:text}`paper_fig1_agreement:g`% (Fig. 1),
# {glue:text}`paper_chatgpt_system:g` and {glue:text}`paper_bleu_system:g` (App. D.3), are by Def. 10 shares of all
# their {glue:text}`paper_pairs` pairs (N = C(|Π|, 2)); checked as such: **{glue:md}`verdict-pairs36-consistent:myst`**
# (What differs gives the fractions that fit).

# %% [markdown]
# (favi-appendix-d-values)=
# ### The printed values

# %% tags=["hide-output"]
appd = out.table(appendix_d.appendix_d(summary), "favi_appendix_d_cases")
show(appendix_d.appendix_d_page(appd))
show(appendix_d.appendix_d_ties_page(appd))
rouge = tie_shares.set_index(["dataset", "aspect", "rater"]).loc[("summeval", summeval_aspect, "ROUGE_L")]
glue_values({
    "appd_human_tie": rouge["human_tie_share"],
    "appd_metric_tie": rouge["metric_tie_share"],
    "appd_both_tie": rouge["matching_tie_share"],
    "appd_without": rouge["sample_accuracy_without_tie_credit"],
    "appd_with": rouge["sample_accuracy"],
    "appd_implied": v["appD.implied_human_tie_share_rouge"],
})

# %% [markdown]
# The rows differ in their raters: ROUGE-L and sentence BLEU are computed here on the paper's data, GEMBA's scalar
# ChatGPT scores stand in for the paper's pairwise ChatGPT prompt, and BLEU covers only the systems whose outputs are
# reachable (the paper's {glue:text}`paper_systems` include QUARTZ_TuneReranking and M2M100). The three values are
# {glue:md}`verdict-appD-sample:myst` (sample-level accuracy), {glue:md}`verdict-appD-favi:myst` (mean |Φ|) and
# {glue:md}`verdict-appD-system:myst` (system-level accuracy). The paper's SummEval system-level accuracies
# ({glue:text}`paper_rouge_system:g` for ROUGE, {glue:text}`paper_bertscore_system:g` for BertScore) are by Def. 10
# shares of all SummEval's {glue:text}`paper_summeval_pairs` pairs; checked as such:
# **{glue:md}`verdict-pairs120-consistent:myst`** (What differs gives the fractions that fit). Among the WMT22 en-de
# raters here, App. D.3's places of ChatGPT are {glue:md}`verdict-appD3-chatgpt-ranks:myst` and BLEU's lowest
# system-level accuracy is {glue:md}`verdict-appD3-bleu-lowest:myst`; that ChatGPT disfavours refB and favours M2M100 is
# {glue:md}`verdict-appD3-chatgpt-systems:myst`.
#
# Sample-level accuracy has two readings: Def. 11's, which counts a matching tie as agreement, and one that credits
# only agreeing + and − (second table). The paper's sample-level accuracy checked against both readings: for ChatGPT
# **{glue:md}`verdict-appD-readings-chatgpt:myst`**, for BLEU **{glue:md}`verdict-appD-readings-bleu:myst`** and for
# ROUGE **{glue:md}`verdict-appD-readings-rouge:myst`**. On SummEval ({glue:md}`summeval_rating`) our experts' mean
# ratings tie on {glue:text}`appd_human_tie:.0%` of a pair's items, ROUGE-L on {glue:text}`appd_metric_tie:.1%`, both on
# {glue:text}`appd_both_tie:.1%`, so the accuracy is {glue:text}`appd_without:.3f` without the matching ties' credit
# and {glue:text}`appd_with:.3f` with it. At ROUGE-L's accuracy on the items our experts do not tie, the paper's
# {glue:text}`paper_rouge_sample:g` would need a human tie share of about {glue:text}`appd_implied:.0%`.

# %% [markdown] tags=["details"]
# (favi-appendix-c21)=
# ## Appendix C.2.1: is an LLM judge symmetric in the order of presentation?
#
# The paper collected GPT-3.5's preferences for WMT22 pairs in both orders; those ratings are not reachable here.
# ChatGPT's SummEval head-to-head judgments {cite:p}`wu2023large` exist in both orders, so the same check runs on
# them. α is computed with the krippendorff package, checked in the tests against the published example of
# {cite:t}`krippendorff2011computing`.

# %% tags=["hide-output"]
h2h_ratings = appendix_c21.h2h_ratings(h2h)
symmetry = out.table(appendix_c21.symmetry_table(h2h_ratings), "favi_appendix_c21_symmetry")
confusion = appendix_c21.symmetry_confusion(h2h_ratings)
show(experiments.in_words(symmetry))
show(confusion)
c = confusion.to_numpy()
glue_values({
    "c21_accuracy": symmetry.loc["all aspects", "accuracy"],
    "c21_alpha": symmetry.loc["all aspects", "alpha_nominal"],
    "c21_reversals": (c[0, 2] + c[2, 0]) / (c.sum() - c.trace()),
    "c21_first": v["c21.first_position_share"],
    "c21_p": v["c21.first_position_pvalue"],
})

# %% [markdown]
# ChatGPT gives the same preference in both orders on {glue:text}`c21_accuracy:.0%` of the SummEval items, with
# nominal α = {glue:text}`c21_alpha:.3f` (the paper's asymmetry {glue:md}`verdict-c21-asymmetric:myst`; its values,
# {glue:text}`paper_c21_accuracy:.0%` and α = {glue:text}`paper_c21_alpha:g` on other data,
# {glue:md}`verdict-c21-values:myst`); {glue:text}`c21_reversals:.0%` of the inconsistent judgments are full reversals
# (+ ↔ −). Of the judgments that prefer one summary, {glue:text}`c21_first:.1%` name the one shown first (binomial
# test against half: p = {glue:text}`c21_p:.2g`). Where that test finds no position preference, the inconsistency is
# instability per item rather than a bias towards one position.
#
# Beyond the paper, the same judgments as a preference *metric* against the experts, for each presentation order:

# %% tags=["hide-output"]
h2h_metric = out.table(appendix_c21.h2h_favi(h2h_ratings), "favi_chatgpt_h2h_as_metric", index=False)
show(experiments.in_words(h2h_metric, pairs="system pairs"))
wide = h2h_metric.pivot_table(index="aspect", columns="order", values="system_accuracy")
gap = (wide["original"] - wide["toggled"]).abs()
glue_values({
    "h2h_pairs": int(h2h_metric["pairs"].max()),
    "h2h_step": 1 / h2h_metric["pairs"].max(),
    "h2h_gap": gap.max(),
    "h2h_worst": gap.idxmax(),
    "h2h_original": wide.loc[gap.idxmax(), "original"],
    "h2h_toggled": wide.loc[gap.idxmax(), "toggled"],
})

# %% [markdown]
# With {glue:text}`h2h_pairs` system pairs, system-level accuracy moves in steps of {glue:text}`h2h_step:.2f`;
# between the two presentation orders it differs by up to {glue:text}`h2h_gap:.2f` ({glue:md}`h2h_worst`:
# {glue:text}`h2h_original:.2f` in the original order, {glue:text}`h2h_toggled:.2f` in the toggled one).

# %% [markdown] tags=["details"]
# (favi-details)=
# ## Ties and documents
#
# Two things the sections above take for granted: what sample-level accuracy counts as agreement, and whether WMT's
# segments are independent items.

# %% [markdown]
# (favi-ties)=
# ### Ties, made visible
#
# Sample-level accuracy (Def. 11) counts a *matching tie*, humans and metric both saying "=", as agreement, so it
# rises with how often the humans tie. The paper gives no tie shares; here they are, with the accuracy that credits
# only agreeing + and −, for the settings on the paper's data and the zh-en stand-in:

# %%
ties_page = fig4.fig4_ties_page(fig4_rows)
out.figure(fig4.plot_fig4_ties(ties_page), "favi_fig4_ties")
glue_values({"ties_settings": len(ties_page)})

# %% [markdown]
# ```{glue:figure} favi_fig4_ties
# :name: favi_fig4_ties
# :figclass: compendium-figure
# :alt: Tie shares of the humans, the metric and both, and sample-level accuracy with and without matching ties.
#
# The ties behind sample-level accuracy in the {glue:text}`ties_settings` settings of Fig. 4 on the paper's own data and
# the zh-en stand-in: (a) the share of comparisons (item and system pair) on which the humans, the metric and both say
# "equal"; (b) sample-level sign accuracy without credit for matching ties (open) and with it, as Def. 11 counts
# (filled).
#
# The paper reports only Def. 11's reading (its Fig. 4) and no tie shares; the gap in (b) is the matching ties' share,
# so it grows with how often both tie. WMT22 zh-en stands in for WMT22 en-de's neural metrics (COMET-22, BLEURT-20,
# UniTE, MetricX).
# ```

# %% tags=["hide-output"]
identical_cases = [c for c in map(tuple, fig4_rows[["dataset", "aspect", "rater"]].to_numpy()) if c[0] in texts]
identical = out.table(fig4.identical_output_ties(scores, texts, identical_cases), "favi_identical_output_ties",
                      index=False)
show(fig4.identical_page(identical))
ende = identical[identical["dataset"] == "wmt22-ende"].iloc[0]
glue_values({
    "ident_every": int((identical["metric_ties_identical"] == identical["identical_outputs"]).sum()),
    "ident_raters": len(identical),
    "ident_ende": ende["identical_outputs"] / ende["comparisons"],
    "ident_ende_human": ende["human_ties_identical"] / ende["identical_outputs"],
    "ident_ende_human_share": ende["human_ties_identical_share"],
})

# %% [markdown]
# Where the systems' outputs are registered, a tie can be traced to identical outputs (the table above gives each
# metric's share). {glue:text}`ident_every` of the {glue:text}`ident_raters` metrics tie every pair of identical
# outputs. On WMT22 en-de {glue:text}`ident_ende:.1%` of the comparisons are of identical outputs; the humans tie
# {glue:text}`ident_ende_human:.0%` of them, which makes {glue:text}`ident_ende_human_share:.0%` of the humans' ties.

# %% [markdown]
# (favi-document-bootstrap)=
# ### Segments come in documents
#
# Outside WMT22 zh-en the intervals and p-values treat items as independent, but WMT's segments come in documents (a
# document's segments share a topic, a domain and often their errors). WMT22 zh-en's document ids are registered, so
# there its Φ intervals are also drawn by resampling whole documents.

# %% tags=["hide-output"]
if "wmt22-zhen" in datasets:
    documents = wmt22_zhen_documents()
    with timings.measure("document bootstrap (WMT22 zh-en)"):
        intervals = uncertainty.document_bootstrap(scores, pairs, documents, dataset="wmt22-zhen",
                                                   n_resamples=n_resamples, rng=stream(seed, "document bootstrap"))
    out.table(intervals, "favi_document_bootstrap_pairs", index=False)
    doc_summary = out.table(uncertainty.bootstrap_summary(intervals), "favi_document_bootstrap", index=False)
    show(uncertainty.bootstrap_page(doc_summary))
    row = doc_summary.set_index("rater").loc["all raters"]
    glue_values({
        "doc_documents": documents.nunique(),
        "doc_segments": len(documents),
        "doc_ratio": row["width_ratio"],
        "doc_width": row["doc_width"],
        "doc_item_width": row["item_width"],
        "doc_item_excl": row["item_excludes_zero"],
        "doc_doc_excl": row["doc_excludes_zero"],
    })

# %% [markdown]
# On WMT22 zh-en ({glue:text}`doc_documents:,` documents, {glue:text}`doc_segments:,` segments) the document
# bootstrap's 95% intervals are a median {glue:text}`doc_ratio:.2f` times as wide as the item bootstrap's (median
# width {glue:text}`doc_width:.3f` against {glue:text}`doc_item_width:.3f`), and the share of pairs whose interval
# excludes 0 goes from {glue:text}`doc_item_excl:.0%` to {glue:text}`doc_doc_excl:.0%`. That intervals treating
# segments as independent are narrower, so that Φ needs the probabilistic treatment the paper leaves out:
# **{glue:md}`verdict-robustness-document-bootstrap:myst`**. Every pair's two intervals:
# {download}`document and item bootstrap per pair <../04_favoritism/favi_document_bootstrap_pairs.csv>`.

# %%
out.values(fig4.fig4_checks(fig4_rows, domains) | fig5.fig5_checks(v) | appendix_d.appendix_d3_checks(fig4_rows)
           | cases.graph_row_checks(layers) | appendix_d.appendix_d_reading_checks(appd)
           | definitions.definition_checks(pairs) | definitions.paper_example_checks()
           | {"appD3.m2m100_ranking_unchanged": cases.ranking_unchanged(pairs, "wmt22-ende", "MQM", "GEMBA-DA-ChatGPT",
                                                                         "M2M100_1.2B-B4")})
verdicts = glue_verdicts(out)  # every claim of this chapter, for the text above

# %% [markdown] tags=["details"]
# ## Run time

# %% tags=["hide-input"]
show(timings.table(), digits=1)

# %% [markdown]
# ## What differs from the paper, and why
#
# ````{dropdown} Every claim not reproduced in full, with the reason it differs
# ```{include} ../claims/04_favoritism_differs.md
# ```
# ````
#
# * **Data.** The paper's chatbot data (BST with DEB, GRADE, HolisticEval, MAUDE, USL-H, from
#   {cite:t}`deriu2023correction`) is not reachable here: USR's TopicalChat and PersonaChat with {term}`BT-eval`'s
#   metric scores stand in. The SummEval metrics are lexical ones computed here from the published outputs (the paper's
#   BertScore, BLANC, CIDEr, S3, SummaQA and SUPERT scores are not in the reachable files). WMT21 en-de has sentence
#   BLEU and {term}`chrF` only, computed here against reference C. The WMT22 en-de segment scores of COMET-22,
#   BLEURT-20, UniTE and MetricX, and the outputs of QUARTZ_TuneReranking and M2M100, are published in mt-metrics-eval
#   v2 {cite:p}`mtmetricseval` but not reachable here: WMT22 zh-en stands in for the neural metrics, and BLEU and chrF
#   on en-de cover only the systems whose outputs are reachable. The paper's selection of WMT22 en-de systems cannot
#   be identified exactly from its text, so every system with {term}`MQM` ratings except the metrics' reference refA is
#   used.
# * **Judges.** GEMBA-DA's scalar ChatGPT scores stand in for the paper's pairwise ChatGPT prompt (App. C.2); a
#   scalar judge is symmetric by construction. App. C.2.1 runs on ChatGPT's SummEval head-to-head judgments
#   {cite:p}`wu2023large`.
# * **Sign test and ties.** The paper cites {cite:t}`coakley1996versions` without saying which version; we drop ties
#   and show the split version beside it.
# * **Sample-level accuracy** counts matching ties as correct (Def. 11), so it depends on how often the humans tie;
#   SummEval's human ratings here are means of three experts. Fig. 4's and App. D's values are given with and
#   without that credit ({ref}`favi-ties`), and App. D's printed values are checked against both readings.
# * **Table 1** counts the systems with human ratings and, beside them, those Φ compares (a rater may cover fewer
#   systems, and a metric's reference is left out).
# * **Not in the paper:** intervals and tests for Φ (a document bootstrap on WMT22 zh-en, the tests read as one
#   family with the Benjamini–Hochberg correction), the attenuation reading on the same items and on split halves,
#   and ChatGPT's head-to-head judgments as a metric.

# %% [markdown]
# ## What to take away
#
# * The definitions against the paper's worked example (Fig. 2): **{glue:md}`verdict-fig2-favi:myst`**; that every
#   metric shows some favoritism: **{glue:md}`verdict-fig4-every-metric:myst`**. A metric that only adds noise already
#   "favours" the humans' weaker system (Lemma 1); read that way, Φ as a preference:
#   **{glue:md}`verdict-attenuation:myst`** on the same items, **{glue:md}`verdict-attenuation-split-half:myst`** on
#   split halves.
# * |Φ| and ranking errors: the inverse correlation, **{glue:md}`verdict-fig5a-rho:myst`**; |Φ| telling more than
#   sample-level accuracy, **{glue:md}`verdict-section6-insight:myst`**.
