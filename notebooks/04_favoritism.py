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
# {cite:t}`vondaniken2024favi` show that an automatic metric can agree with human raters on most items and still get
# a system ranking wrong: what matters is *whom its errors favour*. The paper compares a metric's preference ratings (+: the first system's output is
# better, =: equal, −: the second's is better) with the humans' on the same items of a system pair. From the 3×3
# confusion matrix C (rows: human rating, columns: metric rating, both in the order +, =, −) it defines the
# **Favi-Score**
#
# > Φ(C) = Σ<sub>m,n</sub> W<sub>mn</sub> C<sub>mn</sub> / E, with the error costs W = [[0, −1, −2], [1, 0, −1], [2, 1, 0]],
#
# the expected cost of an error (E = number of errors), positive when the errors favour the first system. By
# Lemma 1 it is also (mar(d̂) − mar(d)) / E, the change in the outcome margin per error. This chapter rebuilds the
# paper on the data that can be reached (see *What differs*), with the compendium's own implementation, which works
# for any metric:
#
# * **Figs. 2–3** and **Lemmas 1–2** — the worked examples, and the lemmas on every real system pair;
# * **Table 1** — the data at hand next to the paper's;
# * **§2, Fig. 1, Figs. 8–13** — the margin example and the sign-test win graphs, humans vs. metric;
# * **Figs. 4–6** — sign accuracies and mean |Φ| per metric, |Φ| vs. agreement, per-system Φ;
# * **Appendix D** — the case studies; **Appendix C.2.1** — the order symmetry of an LLM judge;
# * beyond the paper: an interval and a test for every Φ, and whether Φ measures favoritism or attenuation.
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
from IPython.display import Markdown, display

from analysis.chapters import favoritism as ch
from analysis.chapters.common import Timings, outputs
from analysis.data import load_table
from analysis.data.favi import TEXT_DATASETS, output_texts, wmt22_zhen_documents
from analysis.plotting import set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(ch, globals())  # checks the parameters first
timings = Timings()
with timings.measure("load the tables"):
    scores = load_table("favi_scores")
    h2h = load_table("favi_llm_h2h")
    texts = {d: output_texts(d) for d in TEXT_DATASETS if d in datasets}  # the registered system outputs


def selected(cases):
    """The (dataset, aspect, rater) cases whose dataset this run includes."""
    return [c for c in cases if c[0] in datasets]


# %% [markdown]
# (favi-fig2-fig3)=
# ## Figs. 2–3: the worked examples
#
# The paper's five confusion matrices, through the same code as the real data: Φ and sample-level accuracy beside the
# paper's, then the errors by the system they favour and the metric's outcome d̂.

# %%
examples = out.table(ch.worked_examples(), "favi_fig2_fig3_examples")
assert np.allclose(examples["favi"].round(3), examples["paper_favi"])
examples_scores, examples_counts = ch.examples_page(examples)
show(examples_scores)
show(examples_counts)

# %% [markdown]
# C₁ and C₂ make the same number of errors, all for π₁, but C₁'s are severe (− read as +, cost 2); C₃'s errors
# cancel; C₄'s severe errors for π₁ outweigh its mild ones for π₂. C₅ (Fig. 3) makes more errors for π₂ but more
# severe ones for π₁ (second table); its metric outcome d̂ is the paper's printed fourth row.
#
# (favi-table1)=
# ## The data (Table 1)
#
# The data hold, per dataset, every system's human and automatic rating of every item. As in the paper
# (Appendix C.1, Def. 13), scalar ratings become preferences by comparing the two systems' scores on an item
# (higher is better; equal scores are a tie). An item counts for a pair only when both systems have both ratings.

# %%
with timings.measure("all system pairs, with intervals and tests"):
    pairs = ch.per_pair(scores, datasets, n_resamples=n_resamples, rng=stream(seed, "phi per pair"))
out.table(pairs[ch.PER_PAIR_COLUMNS], "favi_per_pair", index=False)
out.table(pairs, "favi_per_pair_with_intervals", index=False)  # + E, margins, interval, p-value, null |Φ|
table1 = out.table(ch.table1(scores, pairs), "favi_table1_data", index=False)
show(ch.table1_page(table1, scores))
display(Markdown(ch.table1_text(table1, ch.published_table1())))

# %% [markdown]
# The paper's Table 1, for comparison:

# %%
show(ch.published_table1_page(ch.published_table1()))

# %% [markdown]
# The paper's chatbot data (BST with five trained dialogue metrics, from {cite:t}`deriu2023correction`) is not
# reachable here; the USR ratings {cite:p}`mehri2020usr` of TopicalChat {cite:p}`gopalakrishnan2019topicalchat` and
# PersonaChat {cite:p}`zhang2018personalizing` responses, with BT-eval's metric scores {cite:p}`peyrard2021bteval`,
# stand in (few items per pair: |Φ| is coarse there, see the paper's *Robustness* limitation). SummEval
# {cite:p}`fabbri2021summeval` and WMT21 {cite:p}`freitag2021experts` are the paper's datasets with lexical metrics
# computed here; WMT22 en-de {cite:p}`freitag2022results` is the paper's data with the raters reachable for it
# (SEScoreX, GEMBA {cite:p}`kocmi2023large`) and BLEU {cite:p}`papineni2002bleu` and chrF computed here with sacreBLEU
# {cite:p}`post2018call` for the systems whose outputs are reachable; WMT22 zh-en carries the neural metrics the paper
# used on en-de (COMET-22, BLEURT-20 {cite:p}`sellam2020bleurt`, UniTE, MetricX), whose en-de scores are published in
# mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here. Raters cover different systems, so the number of
# pairs differs between raters of one dataset (the table of Fig. 4's values gives it). WMT22's refA is left out: it
# is the reference the metrics score against.
#
# (favi-lemmas)=
# ## Lemmas 1 and 2 on every real pair

# %%
lemmas = out.table(ch.lemma_checks(pairs), "favi_lemma_checks")
assert lemmas.loc["Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|", "value"] < 1e-12
assert lemmas.loc["Lemma 2: ... of which the margin signs differ", "value"] == 0
show(ch.lemmas_page(lemmas))

# %% [markdown]
# The verdicts on Lemmas 1 and 2 (claims table at the top) are read from this table; Φ is undefined, and left out, for a pair without errors (E = 0). The last
# row counts pairs whose margins keep their sign although Φ ≠ 0: App. B's point that the converse of Lemma 2 fails.
#
# (favi-section2)=
# ## §2: Online-W vs. JDExploreAcademy
#
# The paper motivates Φ with one pair of WMT22 en-de: COMET-22 keeps the sign of the MQM margin of Online-W over
# JDExploreAcademy but widens it (the paper's shares are in the table's paper columns).

# %%
if "wmt22-ende" in datasets:
    margins = out.table(ch.margin_example(pairs), "favi_section2_margins")
    show(ch.margins_page(margins), digits=1)
    display(Markdown(ch.section2_text(margins)))

# %% [markdown]
# (favi-fig1)=
# ## Fig. 1 and Figs. 8–13: win graphs, humans vs. metric
#
# An edge A → B when A is preferred significantly more often than B (two-sided exact sign test; each caption gives
# its confidence level), with transitive edges removed; red and dashed: an edge the humans' graph does not imply.
# Ties carry no sign, and {cite:t}`coakley1996versions` review many ways to treat them; by default we use the
# conventional test, ties dropped, and show how much the verdicts change
# when ties are split. We read the paper's "system-level agreement" of Fig. 1 as the share of pairs whose verdict
# (A wins, B wins, neither) is the same in both graphs. That is an interpretation, and it cannot be checked:
# COMET-22's en-de scores are published in mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here, so
# COMET-22 on zh-en stands in. The paper draws each system's Φ against the others beside the graphs; for the two
# settings of Fig. 6 that panel is left to Fig. 6.

# %%
cases = selected([("wmt22-zhen", "MQM", "COMET-22"), ("wmt22-ende", "MQM", "BLEU"),
                  ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"), ("summeval", summeval_aspect, "ROUGE_L"),
                  ("usr-tc", "USR_Overall", "BERTScore")])
fig6_cases = selected([("wmt22-zhen", "MQM", "COMET-22"), ("wmt22-ende", "MQM", "BLEU")])
names = {"wmt22-zhen": "fig1_standin_comet22_zhen", "GEMBA-DA-ChatGPT": "fig12_standin_gemba_chatgpt_ende",
         "BLEU": "fig13_bleu_ende", "summeval": "fig11_rouge_summeval", "usr-tc": "case_bertscore_usr_tc"}
for dataset, aspect, rater in cases:
    table = ch.setting_table(pairs, dataset, aspect, rater)
    name = names.get(dataset, names.get(rater))
    in_fig6 = (dataset, aspect, rater) in fig6_cases  # its per-system panel is Fig. 6's
    out.figure(ch.plot_case(table, rater=rater, aspect=aspect, dataset=dataset, alpha=alpha, ties=sign_test_ties,
                            per_system=not in_fig6), f"favi_{name}",
               ch.case_caption(table, dataset=dataset, aspect=aspect, rater=rater, alpha=alpha, ties=sign_test_ties,
                               per_system_figure="favi_fig6_per_system" if in_fig6 else None))

# %%
graphs = out.table(ch.graph_summary(pairs, cases, alpha=alpha), "favi_win_graph_agreement", index=False)
layers = out.table(ch.win_graph_layers(pairs, cases, alpha=alpha, ties=sign_test_ties), "favi_win_graph_layers",
                   index=False)
per_system = out.table(ch.per_system(pairs), "favi_per_system", index=False)
show(ch.graphs_page(graphs))
display(Markdown(ch.graphs_text(layers, per_system, graphs, cases)))

# %% [markdown]
# (favi-fig4)=
# ## Fig. 4: sign accuracies and mean |Φ| per metric

# %%
ties = out.table(ch.tie_shares(pairs), "favi_tie_shares", index=False)
with timings.measure("per-metric summary"):
    summary = ch.with_ties(ch.metric_summary(pairs, alpha=alpha, ties=sign_test_ties), ties)
out.table(summary, "favi_fig4_summary", index=False)
fig4 = ch.fig4_scope(summary, summeval_aspect)
out.figure(ch.plot_fig4(fig4), "favi_fig4_accuracy_and_favi", ch.fig4_caption(fig4, summeval_aspect))
display(Markdown(f"The values drawn, for all four SummEval aspects and with the number of pairs of every setting: "
                 f"{out.download('favi_fig4_summary', 'Fig. 4 as CSV')}."))

# %%
domains = out.table(ch.domain_comparison(fig4), "favi_domain_comparison", index=False)
show(ch.domains_page(domains))
display(Markdown(ch.fig4_text(domains, ties, fig4, ties_link=out.download("favi_tie_shares",
                                                                          "the tie shares of every setting"))))

# %% [markdown]
# Grey ticks in {numref}`favi_fig4_accuracy_and_favi`: the mean |Φ| of a metric with the same errors and no favoritism (beyond the paper, see the last
# section).
#
# (favi-ties)=
# ### Ties, made visible
#
# Sample-level accuracy (Def. 11) counts a *matching tie*, humans and metric both saying "=", as agreement, so it
# rises with how often the humans tie. The tie shares, and the accuracy without the matching ties' credit (only
# agreeing + and − count), for the settings on the paper's data and the zh-en stand-in:

# %%
ties_page = ch.fig4_ties_page(fig4)
out.figure(ch.plot_fig4_ties(ties_page), "favi_fig4_ties",
           ch.fig4_ties_caption(ties_page, fig4.loc[fig4["dataset"].isin(ch.TIE_PAGE_DATASETS), "dataset"].unique()))
display(Markdown(f"Every value, with system-level accuracy, mean |Φ| and the dialogue settings: "
                 f"{out.download('favi_fig4_summary', 'Fig. 4 as CSV')}."))

# %% [markdown]
# Where the systems' outputs are registered, a tie can be traced to identical outputs (the same text from both
# systems):

# %%
identical_cases = [c for c in map(tuple, fig4[["dataset", "aspect", "rater"]].to_numpy()) if c[0] in texts]
identical = out.table(ch.identical_output_ties(scores, texts, identical_cases), "favi_identical_output_ties",
                      index=False)
show(ch.identical_page(identical))
display(Markdown(ch.identical_text(identical)))

# %% [markdown]
# (favi-appendix-d)=
# ## Appendix D: the case studies

# %%
appendix_d = out.table(ch.appendix_d(summary), "favi_appendix_d_cases")
show(ch.appendix_d_page(appendix_d))
show(ch.appendix_d_ties_page(appendix_d))
display(Markdown(ch.readings_text(appendix_d)))

# %%
fig5_pairs = ch.fig4_scope(pairs, summeval_aspect)
null_rhos = ch.no_favoritism_rho(fig5_pairs, n_draws=n_resamples, rng=stream(seed, "fig5a without favoritism"))
values = out.table(ch.claim_values(fig5_pairs=fig5_pairs, fig4=fig4, ties=ties, h2h=h2h,
                                   summeval_aspect=summeval_aspect, null_rhos=null_rhos), "favi_claim_values",
                   index=False)
display(Markdown(ch.appendix_d_text(ties, values, summeval_aspect)))

# %% [markdown]
# The WMT22 en-de rows differ in their raters: GEMBA's scalar ChatGPT scores stand in for the paper's pairwise
# ChatGPT prompt, and sentence BLEU is computed here for the systems whose outputs are reachable (the paper's nine
# include QUARTZ_TuneReranking and M2M100, whose outputs are published in mt-metrics-eval v2 but not reachable here).
#
# (favi-fig5)=
# ## Fig. 5: Φ against sign accuracy

# %%
fig5 = out.table(ch.fig5_correlations(fig5_pairs), "favi_fig5_correlations")
out.figure(ch.plot_fig5(fig5_pairs), "favi_fig5_favi_vs_accuracy",
           ch.fig5_caption(fig5_pairs, "favi_fig4_accuracy_and_favi"))
show(ch.correlations_page(fig5))
display(Markdown(ch.fig5_text(fig5, values)))

# %% [markdown]
# The sign of Φ flips with the order of the pair (lexicographic here and in the paper), so signed Φ cannot correlate
# with anything symmetric; |Φ| is shown beside it. The pairs are not independent (the same human ratings serve every
# metric, pairs share systems), so no p-value is given.
#
# (favi-fig6)=
# ## Fig. 6: Φ per system, one against all

# %%
if fig6_cases:
    out.figure(ch.plot_fig6(pairs, fig6_cases), "favi_fig6_per_system", ch.fig6_caption(fig6_cases))
    display(Markdown(ch.fig6_text(per_system, fig6_cases)))

# %% [markdown]
# (favi-appendix-c21)=
# ## Appendix C.2.1: is an LLM judge symmetric in the order of presentation?
#
# The paper collected GPT-3.5's preferences for WMT22 pairs in both orders; those ratings are not reachable here.
# ChatGPT's SummEval head-to-head judgments {cite:p}`wu2023large` exist in both orders, so the same check runs on
# them. α is computed with the krippendorff package, checked in the tests against the published example of
# {cite:t}`krippendorff2011computing`.

# %%
h2h_ratings = ch.h2h_ratings(h2h)
symmetry = out.table(ch.symmetry_table(h2h_ratings), "favi_appendix_c21_symmetry")
confusion = ch.symmetry_confusion(h2h_ratings)
show(ch.symmetry_page(symmetry))
show(confusion)
display(Markdown(ch.symmetry_text(symmetry, confusion, values, alpha)))

# %% [markdown]
# Beyond the paper, the same judgments as a preference *metric* against the experts, for each presentation order:

# %%
h2h_metric = out.table(ch.h2h_favi(h2h_ratings), "favi_chatgpt_h2h_as_metric", index=False)
show(ch.h2h_page(h2h_metric))
display(Markdown(ch.h2h_text(h2h_metric)))

# %% [markdown]
# (favi-attenuation)=
# ## Beyond the paper: how much of Φ is noise, and is it favoritism?
#
# The paper reports Φ without uncertainty and names this as a limitation (*Robustness*). Here each Φ gets a bootstrap
# interval over items and a sign-flip permutation test: exchanging the human and the
# metric rating of an item negates its error cost and keeps E, so under "the two ratings are exchangeable" Φ is a
# sum of randomly signed costs. Its mean |Φ| is the grey tick of {numref}`favi_fig4_accuracy_and_favi`.

# %%
out.figure(ch.plot_noise(summary), "favi_noise_vs_observed", ch.noise_caption(summary, n_resamples))
tests = out.table(ch.multiple_testing(pairs, alpha=alpha, n_resamples=n_resamples), "favi_multiple_testing",
                  index=False)
display(Markdown(ch.noise_text(pairs, summary, alpha, tests)))

# %% [markdown]
# Thousands of tests at once: the share of significant pairs is read after a Benjamini–Hochberg correction over
# the whole family (a false-discovery-rate bound at the sign tests' significance level), per dataset:

# %%
show(ch.multiple_testing_page(tests))

# %% [markdown]
# (favi-document-bootstrap)=
# ### Segments come in documents
#
# The item bootstrap treats WMT's segments as independent, but they come in documents (a document's segments share
# a topic, a domain and often their errors). WMT22 zh-en's document ids are registered, so there its Φ intervals are
# also drawn by resampling whole documents:

# %%
if "wmt22-zhen" in datasets:
    documents = wmt22_zhen_documents()
    with timings.measure("document bootstrap (WMT22 zh-en)"):
        intervals = ch.document_bootstrap(scores, pairs, documents, dataset="wmt22-zhen", n_resamples=n_resamples,
                                          rng=stream(seed, "document bootstrap"))
    out.table(intervals, "favi_document_bootstrap_pairs", index=False)
    doc_summary = out.table(ch.bootstrap_summary(intervals), "favi_document_bootstrap", index=False)
    show(ch.bootstrap_page(doc_summary))
    display(Markdown(ch.bootstrap_text(doc_summary, documents, "wmt22-zhen") + " Every pair's two intervals: "
                     + out.download("favi_document_bootstrap_pairs", "document and item bootstrap per pair") + "."))

# %% [markdown]
# But the test only says that the metric's margin differs from the humans' (each error's cost is the metric's
# rating minus the human's), not that the metric *prefers* a system. A metric that merely adds noise shrinks every
# margin, so by Lemma 1 its Φ ≈ −mar(d)/E: it seems to favour whichever system the humans rate lower. Noise in the
# humans' own margins gives the same pattern (Φ and −mar(d)/E share a term).

# %%
attenuation = out.table(ch.attenuation_table(pairs), "favi_attenuation")
show(ch.attenuation_page(attenuation))
display(Markdown(ch.attenuation_text(attenuation, table1)))

# %% [markdown]
# On the same items, though, Φ = (mar(d̂) − mar(d))/E and −mar(d)/E share the humans' margin: noise in that margin
# alone correlates them. A split-half design removes the shared term: the items are halved at random, each pair is
# oriented by its human winner on one half and Φ is computed on the other (both ways round, over several halvings).

# %%
with timings.measure("split-half attenuation"):
    split = out.table(ch.split_half_attenuation(scores, datasets, n_splits=n_splits,
                                                rng=stream(seed, "split halves")), "favi_attenuation_split_half")
show(ch.split_half_page(attenuation, split))
display(Markdown(ch.split_half_text(attenuation, split)))
checks = out.table(ch.claim_checks(values=values, fig4=fig4, domains=domains, layers=layers), "favi_claim_checks",
                   index=False)

# %% [markdown]
# Reading Φ next to −mar(d)/E separates the cases; outside WMT22 zh-en the intervals and p-values treat items as
# independent, which WMT's documents are not (the document bootstrap above shows by how much that narrows them).

# %% [markdown]
# ## Run time

# %% tags=["hide-input"]
show(timings.table(), digits=1)

# %% [markdown]
# ## What differs from the paper, and why
#
# ```{include} ../claims/04_favoritism_differs.md
# ```
#
# * **Data.** The paper's chatbot data (BST with DEB, GRADE, HolisticEval, MAUDE, USL-H, from
#   {cite:t}`deriu2023correction`) is
#   not reachable here: USR's TopicalChat and PersonaChat with BT-eval's metric scores stand in. The SummEval metrics
#   are lexical ones computed here from the published outputs (the paper's BertScore, BLANC, CIDEr, S3, SummaQA and
#   SUPERT scores are not in the reachable files). WMT21 en-de has sentence BLEU and chrF only, computed here against
#   reference C. The WMT22 en-de segment scores of COMET-22, BLEURT-20, UniTE and MetricX, and the outputs of
#   QUARTZ_TuneReranking and M2M100, are published in mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable
#   here: WMT22 zh-en stands
#   in for the neural metrics, and BLEU and chrF on en-de cover only the systems whose outputs are reachable. The
#   paper's selection of WMT22 en-de systems cannot be identified exactly from its text, so every system with MQM
#   ratings except the metrics' reference refA is used.
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
