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
# An automatic metric can agree with human raters on most items and still get a system ranking wrong: what matters
# is *whom its errors favour*. The paper compares a metric's preference ratings (+: the first system's output is
# better, =: equal, −: the second's is better) with the humans' on the same items of a system pair. From the 3×3
# confusion matrix C (rows: human rating, columns: metric rating, both in the order +, =, −) it defines the
# **Favi-Score**
#
# > Φ(C) = Σ<sub>m,n</sub> W<sub>mn</sub> C<sub>mn</sub> / E, with the error costs W = [[0, −1, −2], [1, 0, −1], [2, 1, 0]],
#
# the expected cost of an error (E = number of errors), positive when the errors favour the first system. By
# Lemma 1 it is also (mar(d̂) − mar(d)) / E, the change in the outcome margin per error. This chapter rebuilds the
# paper on the data that can be reached (see *What differs*), with `analysis.favi`, a small library for any metric:
#
# * **Figs. 2–3** and **Lemmas 1–2** — the worked examples, and the lemmas on every real system pair;
# * **Table 1** — the data at hand next to the paper's;
# * **§2, Fig. 1, Figs. 8–13** — the margin example and the sign-test win graphs, humans vs. metric;
# * **Figs. 4–6** — sign accuracies and mean |Φ| per metric, |Φ| vs. agreement, per-system Φ;
# * **Appendix D** — the case studies; **Appendix C.2.1** — the order symmetry of an LLM judge;
# * beyond the paper: an interval and a test for every Φ, and whether Φ measures favoritism or attenuation.

# %% tags=["parameters"]
seed = 2024  # the bootstrap and permutation draws come from a stream named after their item, seeded by this
datasets = ["wmt22-ende", "wmt22-zhen", "wmt21-ende", "summeval", "usr-tc", "usr-pc"]  # favi_scores datasets
n_resamples = 1000  # bootstrap resamples and sign-flip permutations per Φ
alpha = 0.05  # significance level of the win graphs’ sign tests and of the test of Φ = 0
sign_test_ties = "drop"  # sign test with ties dropped (the conventional test) or shared by "half" between the systems
summeval_aspect = "expert_consistency"  # the SummEval expert rating in Figs. 4-5 (Appendix D uses consistency)
output_root = None  # where artefacts go (the batch runner passes its staging folder; None: scratch/, for runs by hand)

# %%
import numpy as np
from IPython.display import Markdown, display

from analysis.chapters import favoritism as ch
from analysis.chapters.common import Timings, outputs
from analysis.data import load_table
from analysis.plotting import set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(ch, globals())  # checks the parameters first
timings = Timings()
with timings.measure("load the tables"):
    scores = load_table("favi_scores")
    h2h = load_table("favi_llm_h2h")


def selected(cases):
    """The (dataset, aspect, rater) cases whose dataset this run includes."""
    return [c for c in cases if c[0] in datasets]


# %% [markdown]
# ## Figs. 2–3: the worked examples
#
# The paper's five confusion matrices, through the same code as the real data (`favi.summarize`):

# %%
examples = out.table(ch.worked_examples(), "favi_fig2_fig3_examples")
assert np.allclose(examples["favi"].round(3), examples["paper_favi"])
show(examples)

# %% [markdown]
# C₁ and C₂ both make 10 errors for π₁, but C₁'s are severe (− read as +, cost 2); C₃'s errors cancel; C₄'s
# severe errors for π₁ outweigh its mild ones for π₂. C₅ (Fig. 3) makes more errors for π₂ (280 vs. 200) but more
# severe ones for π₁ (90 vs. 60): Φ = −50/480 = −0.104, with sample-level accuracy 520/1000 = 0.52, as printed.
#
# ## The data (Table 1)
#
# `favi_scores` holds, per dataset, every system's human and automatic rating of every item. As in the paper
# (Appendix C.1, Def. 13), scalar ratings become preferences by comparing the two systems' scores on an item
# (higher is better; equal scores are a tie). An item counts for a pair only when both systems have both ratings.

# %%
with timings.measure("all system pairs, with intervals and tests"):
    pairs = ch.per_pair(scores, datasets, n_resamples=n_resamples, rng=stream(seed, "phi per pair"))
out.table(pairs[ch.PER_PAIR_COLUMNS], "favi_per_pair", index=False)
out.table(pairs, "favi_per_pair_with_intervals", index=False)  # + E, margins, interval, p-value, null |Φ|
table1 = out.table(ch.table1(scores, pairs), "favi_table1_data", index=False)
show(table1)
show(ch.published_table1())

# %% [markdown]
# Ours above, the paper's Table 1 below. The paper's chatbot data (BST, five trained dialogue metrics) is not
# reachable; the USR TopicalChat and
# PersonaChat ratings with the 13 BT-eval metrics stand in (60 items per pair: |Φ| is coarse there, see the
# *Robustness* limitation). SummEval and WMT21 are the paper's datasets with lexical metrics computed here; WMT22
# en-de is the paper's data with the raters published for it (SEScoreX, GEMBA) and BLEU and chrF computed here for
# the ten systems whose outputs are published, and WMT22 zh-en carries the neural metrics the paper used on en-de
# (COMET-22, BLEURT-20, UniTE, MetricX). Raters cover different systems, so the number of pairs differs between
# raters of one dataset (Fig. 4's table gives it). WMT22's refA is left out: it is the reference the metrics
# score against, and GEMBA and SEScoreX give it Φ ≈ +1.2 against every system.
#
# ## Lemmas 1 and 2 on every real pair

# %%
lemmas = out.table(ch.lemma_checks(pairs), "favi_lemma_checks")
assert lemmas.loc["Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|", "value"] < 1e-12
assert lemmas.loc["Lemma 2: ... of which the margin signs differ", "value"] == 0
show(lemmas)

# %% [markdown]
# Lemma 1 holds to rounding on every pair and Lemma 2's implication has no counter-example; no pair is without
# errors, so Φ is defined everywhere here (`favi` returns NaN when E = 0).
#
# ## §2: Online-W vs. JDExploreAcademy
#
# The paper motivates Φ with one pair of WMT22 en-de: under MQM, Online-W is better on 24.1% of the items and worse on
# 18.6%; under COMET-22, 57.5% and 42.2%.

# %%
if "wmt22-ende" in datasets:
    margins = out.table(ch.margin_example(pairs), "favi_section2_margins")
    show(margins)
    display(Markdown(
        f"The MQM shares are reproduced exactly ({margins.loc['MQM', 'better']:.1f}% and "
        f"{margins.loc['MQM', 'worse']:.1f}% of {margins.loc['MQM', 'items']:.0f} items). COMET-22's en-de segment "
        "scores are not published, so the automatic rows are the raters that are: SEScoreX stretches the margin "
        "as COMET-22 does in the paper, GEMBA-GPT4 keeps it, and GEMBA-ChatGPT, BLEU and chrF reverse it."))

# %% [markdown]
# ## Fig. 1 and Figs. 8–13: win graphs, humans vs. metric
#
# An edge A → B when A is preferred significantly more often than B (two-sided exact sign test, p < `alpha`),
# with transitive edges removed (`networkx.transitive_reduction`); red: an edge the humans' graph does not imply.
# Ties carry no sign, and Coakley & Heise (1996) review many ways to treat them; we use the conventional test,
# ties dropped (`sign_test_ties`), and show how much the verdicts change when ties are split equally instead.
# We read the paper's 61.1% "system-level agreement" of Fig. 1 as the share of pairs whose verdict (A wins, B
# wins, neither) is the same in both graphs (it would be 22 of 36 pairs for nine systems). That is an
# interpretation, and it cannot be checked: COMET-22's en-de scores are not published.

# %%
cases = selected([("wmt22-zhen", "MQM", "COMET-22"), ("wmt22-ende", "MQM", "BLEU"),
                  ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"), ("summeval", summeval_aspect, "ROUGE_L"),
                  ("usr-tc", "USR_Overall", "BERTScore")])
names = {"wmt22-zhen": "fig1_standin_comet22_zhen", "GEMBA-DA-ChatGPT": "fig12_standin_gemba_chatgpt_ende",
         "BLEU": "fig13_bleu_ende", "summeval": "fig11_rouge_summeval", "usr-tc": "case_bertscore_usr_tc"}
for dataset, aspect, rater in cases:
    table = ch.setting_table(pairs, dataset, aspect, rater)
    name = names.get(dataset, names.get(rater))
    out.figure(ch.plot_case(table, rater=rater, aspect=aspect, dataset=dataset, alpha=alpha, ties=sign_test_ties),
               f"favi_{name}")

# %%
graphs = out.table(ch.graph_summary(pairs, cases, alpha=alpha), "favi_win_graph_agreement", index=False)
show(graphs)

# %% [markdown]
# **COMET-22 on zh-en** (the stand-in for Fig. 1) lifts `comet_bestmbr`, decoded by minimum Bayes risk with COMET
# itself, from the humans' third row to its top row, and gives it and `bleurt_bestmbr` the largest positive Φ —
# favoritism with an obvious cause (`bleu_bestmbr` is not favoured). **ROUGE on SummEval consistency** reproduces
# the paper's Fig. 11 story: M11 is strongly favoured; M0 and M1 are disfavoured, and so are M5 and M2. On the
# dialogue stand-in only a handful of pairs are significant with 60 items, so its graphs are sparse.
# **GEMBA's ChatGPT scores on en-de** (the stand-in for Fig. 12) disfavour refB against every system and favour
# M2M100 without lifting it from the last row, as the paper reports for its pairwise ChatGPT judge.
#
# ## Fig. 4: sign accuracies and mean |Φ| per metric

# %%
with timings.measure("per-metric summary"):
    summary = ch.metric_summary(pairs, alpha=alpha, ties=sign_test_ties)
out.table(summary, "favi_fig4_summary", index=False)
fig4 = ch.fig4_scope(summary, summeval_aspect)
out.figure(ch.plot_fig4(fig4), "favi_fig4_accuracy_and_favi")
show(fig4.drop(columns=["domain"]))

# %%
mt = fig4[fig4["domain"] == "machine translation"]
other = fig4[fig4["domain"] != "machine translation"]
display(Markdown(
    f"As in the paper, every metric has Φ ≠ 0 (whether that is favoritism is the last section's question), and "
    f"machine-translation metrics lower mean |Φ| ({mt['mean_abs_favi'].min():.2f}–{mt['mean_abs_favi'].max():.2f}) "
    f"than summarization and dialogue metrics ({other['mean_abs_favi'].min():.2f}–"
    f"{other['mean_abs_favi'].max():.2f}). The MT metrics reach system-level accuracy {mt['system_accuracy'].min():.2f}–"
    f"{mt['system_accuracy'].max():.2f} with sample-level accuracy of only {mt['sample_accuracy'].min():.2f}–"
    f"{mt['sample_accuracy'].max():.2f}: MQM rates many segments of two systems equal (both perfect) where the "
    "continuous metrics rarely tie. The domains also differ in size: with E in the hundreds (WMT) the mean |Φ| of a "
    "metric without favoritism (grey dashes, beyond the paper, see the last section) is a few hundredths, with "
    "E of a few dozen (dialogue) it is a few tenths, so part of the domain contrast is sample size. The full "
    "table, with all four SummEval aspects, is `favi_fig4_summary.csv`."))

# %% [markdown]
# ## Appendix D: the case studies

# %%
appendix_d = out.table(ch.appendix_d(summary), "favi_appendix_d_cases")
show(appendix_d)

# %% [markdown]
# The summarization case matches in direction and size for |Φ| and system-level accuracy (ROUGE-L: see the table)
# but not for sample-level accuracy, which depends on how human ties are formed: the paper's 0.07 suggests far more
# items where the experts see no difference than our mean-of-three-experts Likert ratings give. The WMT22 en-de
# rows differ in their raters: GEMBA's scalar ChatGPT scores stand in for the paper's pairwise ChatGPT prompt, and
# sentence BLEU is computed here for 9 MT systems and ref-B (the paper's nine include QUARTZ_TuneReranking and
# M2M100, whose outputs are not published).
#
# ## Fig. 5: Φ against sign accuracy

# %%
fig5_pairs = ch.fig4_scope(pairs, summeval_aspect)
fig5 = out.table(ch.fig5_correlations(fig5_pairs), "favi_fig5_correlations")
out.figure(ch.plot_fig5(fig5_pairs), "favi_fig5_favi_vs_accuracy")
show(fig5)

# %% [markdown]
# Pairs whose margins change sign under the metric have larger |Φ| (by Lemma 1 a sign change needs |Φ| ≥
# |mar(d)|/E), a weak negative rank correlation as in the paper. The correlation of Φ with sample-level accuracy is
# near zero, as printed, but that is partly by construction: the sign of Φ flips with the order of the pair
# (lexicographic here and in the paper), so signed Φ cannot correlate with anything symmetric. With |Φ| it stays
# small. The pairs are not independent (the same human ratings serve every metric, pairs share systems), so no
# p-value is given.
#
# ## Fig. 6: Φ per system, one against all

# %%
fig6_cases = selected([("wmt22-zhen", "MQM", "COMET-22"), ("wmt22-ende", "MQM", "BLEU")])
if fig6_cases:
    out.figure(ch.plot_fig6(pairs, fig6_cases), "favi_fig6_per_system")

# %% [markdown]
# The paper's Fig. 6 shows COMET-22 disfavouring ref-B and M2M100 on en-de. On zh-en COMET-22 also disfavours
# M2M100 (the weakest system) and favours the MBR systems; the human reference refB is mildly favoured here. BLEU on
# en-de disfavours the human reference refB against every system, and Online-W against most, as the paper reports
# for BLEU (Fig. 13).
#
# ## Appendix C.2.1: is an LLM judge symmetric in the order of presentation?
#
# The paper collected GPT-3.5's preference for WMT22 pairs in both orders (69% equal, Krippendorff's α 0.249); that
# data is not published. ChatGPT's SummEval head-to-head judgments (Wu et al. 2023) exist in both orders, so the
# same check runs on them. α is the `krippendorff` package's, checked in the tests against Krippendorff's (2011)
# published example (nominal α = 0.743).

# %%
h2h_ratings = ch.h2h_ratings(h2h)
symmetry = out.table(ch.symmetry_table(h2h_ratings), "favi_appendix_c21_symmetry")
confusion = ch.symmetry_confusion(h2h_ratings)
show(symmetry)
show(confusion)

# %%
overall = symmetry.loc["all aspects"]
confusion = confusion.to_numpy()
reversals = (confusion[0, 2] + confusion[2, 0]) / (confusion.sum() - np.trace(confusion))
display(Markdown(
    f"ChatGPT gives the same preference in both orders on {overall['accuracy']:.0%} of the SummEval items (the "
    f"paper: 69% for GPT-3.5 on WMT22), with nominal α = {overall['alpha_nominal']:.3f} (paper: 0.249). "
    f"{reversals:.0%} of the inconsistent judgments are full reversals (+ ↔ −), about as many in each direction, so "
    "there is no net preference for the first or the second position: the judgments are unstable per item."))

# %% [markdown]
# Beyond the paper, the same judgments as a
# preference *metric* against the experts, for each presentation order (11 system pairs only,
# so system-level accuracy moves in steps of 0.09: relevance's 0.73 vs. 0.27 between the orders is that instability
# again):

# %%
h2h_metric = out.table(ch.h2h_favi(h2h_ratings), "favi_chatgpt_h2h_as_metric", index=False)
show(h2h_metric)

# %% [markdown]
# ## Beyond the paper: how much of Φ is noise, and is it favoritism?
#
# The paper reports Φ without uncertainty and names this as a limitation (*Robustness*). `favi.favi_uncertainty`
# gives each Φ a bootstrap interval over items and a sign-flip permutation test: exchanging the human and the
# metric rating of an item negates its error cost and keeps E, so under "the two ratings are exchangeable" Φ is a
# sum of randomly signed costs. Its mean |Φ| is the grey dash of Fig. 4.

# %%
out.figure(ch.plot_noise(summary), "favi_noise_vs_observed")
attenuation = out.table(ch.attenuation_table(pairs), "favi_attenuation")
show(attenuation)
share = (pairs["p_value"] < alpha).mean()
display(Markdown(
    f"{share:.0%} of the {len(pairs):,} pairs have a Φ that chance alone would rarely give (p < {alpha}), and "
    f"{(summary['mean_abs_favi'] > summary['null_mean_abs_favi']).sum()} of {len(summary)} settings have a mean |Φ| "
    "above the no-favoritism level, far above it on WMT (where E is in the hundreds). "
    "But the test only says that the metric's margin differs from the humans' (each error's cost is the metric's "
    "rating minus the human's), not that the metric *prefers* a system. A metric that merely adds noise shrinks "
    "every margin, so by Lemma 1 its Φ ≈ −mar(d)/E: it seems to favour whichever system the humans rate lower. On "
    f"SummEval and the dialogue data Φ tracks −mar(d)/E closely (ρ "
    f"{attenuation['rho_favi_attenuation'].drop(['WMT22 en-de', 'WMT22 zh-en', 'WMT21 en-de'], errors='ignore').min():.2f}"
    f"–{attenuation['rho_favi_attenuation'].max():.2f}) and mostly favours the weaker system: there Φ measures "
    "attenuation more than preference — or noise in the humans' own margins, which gives the same pattern "
    "(Φ and −mar(d)/E share a term), and with 60–100 items those margins are noisy. On WMT22 the link is weaker "
    "or reversed (ρ "
    f"{', '.join(f'{v:.2f}' for v in attenuation['rho_favi_attenuation'].filter(like='WMT22'))}): the metrics "
    "there stretch margins as often as they shrink them (MQM ties that a metric breaks towards the better system), "
    "and system-specific favourites such as the MBR systems stand out. Reading Φ next to −mar(d)/E separates "
    "the cases; the intervals and p-values treat items as independent, which WMT's documents are not."))

# %% [markdown]
# ## What differs from the paper, and why
#
# * **Data.** The paper's chatbot data (BST with DEB, GRADE, HolisticEval, MAUDE, USL-H) is not reachable: USR's
#   TopicalChat and PersonaChat with the 13 BT-eval metrics stand in, so the dialogue numbers (and the DEB/MAUDE
#   pair values of Appendix D.1) cannot be compared. The SummEval metrics used here are BLEU, chrF and ROUGE-1/2/L
#   computed from the published outputs (BertScore, BLANC, CIDEr, S3, SummaQA and SUPERT scores are not in the
#   reachable files). WMT21 en-de has BLEU and chrF only (computed here against reference C, for the 8 MT systems
#   and references A and D), not BLEURT, COMET or C-SPEC. WMT22 en-de has MQM for 16 systems; the paper selected
#   nine (it names ref-B, Online-W, QUARTZ_TuneReranking, JDExploreAcademy and M2M100), which cannot be identified
#   exactly from the text, so every system with ratings except the metrics' reference refA is used. BLEU and chrF
#   cover only the ten systems whose outputs are published (not QUARTZ, M2M100 or the MBR systems).
# * **Metrics.** COMET-22, BLEURT-20, UniTE and MetricX are published by mt-metrics-eval for WMT22 zh-en, not en-de:
#   zh-en stands in for the paper's Figs. 1 and 6. GEMBA-DA's scalar ChatGPT scores stand in for the paper's
#   pairwise ChatGPT prompt (Appendix C.2); a scalar judge is symmetric by construction.
# * **Reproduced exactly:** the worked examples (Figs. 2–3), Lemmas 1–2 on every pair (they hold by algebra; the
#   check is of the code), §2's MQM shares (24.1% and 18.6%). The 61.1% of Fig. 1 is read as the share of pairs
#   with the same sign-test verdict (22/36 for nine systems), an interpretation that cannot be checked without
#   COMET-22's en-de scores. The paper's Appendix D accuracies (0.852, 0.7) are not all multiples of 1/36, so its
#   WMT22 pair set may not be exactly 36 pairs.
# * **Sign test and ties.** The paper cites Coakley & Heise (1996) without saying which version; we drop ties and
#   show the split version beside it.
# * **Sample-level accuracy** depends on how often humans tie. SummEval's human ratings here are means of three
#   experts; the paper's 0.07 for ROUGE on consistency implies many more human ties than that.
# * **Not in the paper:** intervals and tests for Φ, the attenuation reading, and ChatGPT's head-to-head judgments
#   as a metric.
#
# ## Run time

# %%
show(timings.table())
