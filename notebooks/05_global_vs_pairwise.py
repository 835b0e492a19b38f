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
# # Global vs pairwise scores: ties, sample size, confidence (Levtsov & Ustalov 2025)
#
# {cite:t}`levtsov2025confidence` compare two ways of ranking models on one test set. A *global* score rates each
# model on its own (accuracy, F1, ROC AUC; for text, edit distance, word error rate and {term}`chrF`
# {cite:p}`popovic2015chrf`); a *pairwise* ranking fits Bradley–Terry ({term}`BT`) strengths {cite:p}`bradley1952rank`
# to matches between models, one per test instance and pair, won by the model whose output is closer to the gold answer
# (a tie when they are equally close, counted as half a win for each, as in evalica {cite:p}`ustalov2025evalica`,
# which the paper used). The paper samples {term}`12·m·ln m <twelve m ln m (12·m·ln m)>` matches per model pair (m
# models) and asks how each kind of ranking reacts to the kind of decision values a model outputs (§5), to
# over-confident models (§6), and to ties and the number of comparisons (§7).
#
# ## What the regenerated evidence says
#
# * **Decision values of a different kind (§5).** On the binary stand-in for Jigsaw, BT's ranking correlates
#   {glue:text}`a1_bt_sharpness:.2f` with how sharp the models' decision values are and {glue:text}`a1_bt_acc:.2f`
#   with their accuracy. The paper's advice, to compare only models whose decision values share a domain, needs
#   decision values of different domains, which the stand-in does not have; that their sharpness alone distorts BT
#   (our own check): **{glue:md}`verdict-sec5-same-domain:myst`** (the 0/1 model first by BT:
#   **{glue:md}`verdict-appA1-zero-one-model:myst`**).
# * **Three identical random models (§5).** BT on one sample of 12·m·ln m matches per pair correlates
#   {glue:text}`random_sampled_mean:.2f` with accuracy on average over {glue:text}`random_repeats:,` repetitions and
#   {glue:text}`random_paper`, the paper's value, in {glue:text}`random_at_paper:.0%` of them: a systematic inverse
#   correlation is **{glue:md}`verdict-random-bt-inverse:myst`**.
# * **Rare but large errors (§6).** Appending random strings to {glue:text}`c2_share:.0%` of CEval's outputs
#   moves a penalised copy {glue:text}`c2_moved_ed:.1f` places below its original under edit distance,
#   {glue:text}`c2_moved_wer:.1f` under {term}`WER` and {glue:text}`c2_moved_bt:.1f` under BT: that global distances
#   punish such errors more than BT is **{glue:md}`verdict-sec6-rare-errors:myst`**.
# * **Over-confident copies (§6).** BT's average precision of the stand-in's originals over their binarised
#   copies is {glue:text}`t4_binary_bt:.2f` (against the paper's Jigsaw interval:
#   **{glue:md}`verdict-table4-bt-binary:myst`**), over copies made confident only where they are wrong
#   {glue:text}`t4_penalized_bt:.2f` (**{glue:md}`verdict-table4-bt-penalized:myst`**).
# * **Ties (§7, Fig. 1).** BT keeps a mean correlation of {glue:text}`fig1_level` with the mean-chrF ranking up to
#   a tie probability of {glue:md}`ours-fig1-ties` (**{glue:md}`verdict-fig1-ties:myst`**), and on llmfao's real
#   judgments, beyond the paper, up to {glue:md}`ours-fig1-llmfao` ties. That ties make BT need more comparisons:
#   **{glue:md}`verdict-sec7-ties-cost:myst`**.
# * **How many comparisons (§7, Fig. 2).** At 12·m·ln m comparisons per pair, {glue:md}`ours-fig2-jigsaw` of the
#   sampled sets change BT's ranking on the binary stand-in, {glue:md}`ours-fig2-ceval` on CEval and
#   {glue:md}`ours-fig2-sst5` on SST-5; the paper's "stable" there: **{glue:md}`verdict-fig2-jigsaw:myst`** (stand-in),
#   **{glue:md}`verdict-fig2-ceval:myst`** (CEval), **{glue:md}`verdict-fig2-sst5:myst`** (SST-5).
# * **Global or pairwise on the same draws (§7, Fig. 3).** That pairwise comparison ranks two models correctly more
#   often the larger their difference: **{glue:md}`verdict-fig3-difference:myst`**. That the global mean finds the
#   better model more often than the count of wins, the abstract's "more reliable":
#   **{glue:md}`verdict-abstract-global-reliable:myst`**.
# * **The paper against itself.** {glue:text}`sc_agree` of the {glue:text}`sc_checked` printed values recomputed
#   from its own appendices come out as printed; the others are in {glue:md}`sc_failed` ({ref}`gvp-self-check`).
#
# The table below gives the headline claims' verdicts; *What differs* at the end, every claim not reproduced.
#
# ```{include} ../claims/05_global_vs_pairwise.md
# ```

# %% tags=["parameters"]
seed = 2025  # every sampled match set comes from a stream named after its paper item, seeded by this
n_trials = 1000  # sampled match sets per BT interval and per tie probability (the paper: 1,000)
tie_step = 0.01  # Fig. 1's grid of tie probabilities: 0 to 1 by this step
penalised_share = 0.05  # share of each model's outputs that get a random long string appended (Sec. 6)
n_random_repeats = 1000  # repetitions of the three-random-binary-models experiment
n_stability_trials = 100  # Fig. 2: sampled match sets per number of comparisons (the paper: 100)
stability_step = 10  # Fig. 2: 10 to 1,000 comparisons per pair by this step
stability_tie_probabilities = [0.5, 0.8]  # Fig. 2 with synthetic ties on CEval (Sec. 7, "Draws in Comparisons")
n_fig3_repeats = 1000  # Fig. 3: repetitions per difference (the paper: 1,000)
n_llmfao_trials = 200  # llmfao: trials per tie probability, bootstrap resamples, split halves per share
llmfao_tie_step = 0.05  # llmfao: tie probabilities 0 to 1 by this step
split_half_shares = [0.1, 0.2, 0.3, 0.4, 0.5]  # llmfao: share of the judgments in each of two disjoint subsets
lexicon_centre = "prediction"  # lexicon models' decision values centred on their "prediction" or the "explainer"'s
binary_gold = "sst"  # the binary stand-in's gold: SST's labels ("sst") or its models' "majority" (as Jigsaw's)
penalty_length = None  # characters appended in Sec. 6's penalty (None: the length App. C.2's rise in ED implies)
output_root = None  # where artefacts go (the batch runner passes its staging folder; None: scratch/, for runs by hand)

# %%

from analysis import comparisons, sweeps
from analysis.chapters import global_vs_pairwise
from analysis.chapters.common import Timings, glue_values, glue_verdicts, outputs
from analysis.chapters.global_vs_pairwise import (
    ceval,
    classification,
    figures,
    llmfao,
    protocol,
    self_check,
    stability,
    views,
)
from analysis.data import load_table
from analysis.data.published import frame as paper_frame
from analysis.data.published import item as paper_item
from analysis.plotting import set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(global_vs_pairwise, globals())  # checks the parameters first
timings = Timings()
with timings.measure("load the data, score every output"):
    texts, reference = ceval.ceval_outputs(load_table("ceval"))
    quality = ceval.text_quality(texts, reference)
    explainer_baselines = load_table("sst5_baselines")
    centred_baselines = classification.centre_lexicon(explainer_baselines)
    baselines = centred_baselines if lexicon_centre == "prediction" else explainer_baselines
    gold, binary = classification.sst5_quality(baselines)
    sst_labels, binary_scores = classification.binary_scores(load_table("sst5_binary_baselines"))
    majority = classification.majority_gold(binary_scores)[0].loc[sst_labels.index]
    labels = sst_labels if binary_gold == "sst" else majority
    binary_quality = classification.binary_quality(binary_scores, labels)
fig1_level = paper_item("gvp", "fig1")["threshold"]  # the correlation the paper calls strong (Fig. 1, §7)
glue_values({"fig1_level": fig1_level, "fig1_paper_share": paper_item("gvp", "fig1")["up_to_tie_share"]})

# %% [markdown]
# (gvp-table1)=
# ## The data (Table 1)
#
# **CEval** {cite:p}`nguyen2024ceval` is the paper's own text-generation data (Appendix C, Tables 6–7, Figs. 1–2).
# **SST-5** {cite:p}`socher2013recursive` has five of the paper's eight baselines, trained here with the settings of
# Prashanth Rao's code {cite:p}`rao2019finegrained`, which the paper re-ran; the other three need pretrained weights
# (Appendix B, Tables 3 and 5). **Jigsaw** {cite:p}`adams2017jigsaw` is not reachable: a binary stand-in, SST-5
# without its neutral class with classifiers trained here, one of them 0/1 only like the paper's XGBoost, takes its
# place in Appendix A, Tables 2 and 4 and Fig. 2; its numbers are not the same models or data. §5's random models and
# Fig. 3 are synthetic; llmfao's real judgments {cite:p}`ustalov2023llmfao`, beyond the paper, are on the
# {ref}`details page <gvp-llmfao>`. Examples, methods and pairs of outputs compared (examples × m choose 2):

# %%
table1 = views.table1({"CEval": quality["chrf"], "SST-5": gold, "binary stand-in (for Jigsaw)": binary_quality})
show(out.table(table1, "gvp_table1_datasets", index=False).set_index("dataset"))

# %% [markdown]
# ## §5: sensitivity to the decision values
#
# (gvp-a1)=
# ### The binary stand-in for Jigsaw: Table 2
#
# Standing in for Jigsaw's nine Kaggle submissions: eight classifiers of SST-5's sentences without the neutral class,
# among them a decision tree whose decision values are 0 or 1 only, the role of the paper's XGBoost
# ({ref}`gvp-appendix-a1`). A model wins a match when its P(positive) is closer to SST's label. Table 2:

# %%
with timings.measure("binary stand-in: Appendix A.1, Table 2"):
    a1 = classification.appendix_a1(binary_scores, labels, rng=stream(seed, "appA1 bt interval"), n_trials=n_trials)
    binarised_quality = classification.binary_quality(classification.binarise(binary_scores), labels)
    binary_ties = sweeps.matches(binarised_quality).tie_share()
out.table(a1, "gvp_appendix_a1_binary")
table2 = out.table(classification.spearman_table(a1, ["acc", "auc", "bt", "f1", "bt_bin"]), "gvp_table2_binary")
show(views.correlation_pairs({"here (stand-in)": table2,
                              "printed in the paper (Jigsaw, 9 models)": classification.published_matrix("table2")}), 2)
glue_values(classification.binary_a1_facts(a1, table2) | {"a1_ties_binarised": binary_ties})

# %% [markdown]
# The decision tree is {glue:text}`a1_acc_place` of {glue:text}`a1_n` by accuracy and {glue:text}`a1_bt_place` by
# BT; the paper's XGBoost is {glue:text}`a1_paper_acc_place` of {glue:text}`a1_paper_n` by accuracy and
# {glue:text}`a1_paper_bt_place` by BT. A match only asks which model is closer to the label, so a confident right
# answer beats every hedged one; that the 0/1 model comes first by BT is
# **{glue:md}`verdict-appA1-zero-one-model:myst`** here. Over the eight models, BT's Spearman correlation with sharpness
# (the mean distance of the decision values from 0.5) is {glue:text}`a1_bt_sharpness:.2f`, with accuracy
# {glue:text}`a1_bt_acc:.2f` ({glue:text}`a1_bt_acc_without:.2f` without the tree): that the sharpness of decision
# values of one domain distorts BT (our own check; the stand-in has no decision values of another domain):
# **{glue:md}`verdict-sec5-same-domain:myst`**.
#
# The global measures correlate at least {glue:text}`a1_global_min:.2f` with each other, BT
# {glue:text}`a1_bt_auc:.2f` with AUC: that the global scores agree and BT stands apart is
# **{glue:md}`verdict-table2-global-agree:myst`**, while the negative signs of Table 2's BT row are
# **{glue:md}`verdict-table2-signs:myst`** (they depend on which models have sharp decision values). F1 and accuracy
# correlate {glue:md}`ours-sec6-f1-viable`: §6's "F1 is a viable alternative to accuracy" is
# **{glue:md}`verdict-sec6-f1-viable:myst`** here. Binarised, {glue:text}`a1_ties_binarised:.0%` of the matches tie (the
# paper's Jigsaw share: **{glue:md}`verdict-sec5-jigsaw-ties:myst`**), and {term}`BTbin` correlates
# {glue:text}`a1_btbin_acc:.2f` with accuracy.
#
# (gvp-b1)=
# ### SST-5: Table 3
#
# The five baselines trained here: TextBlob, VADER {cite:p}`hutto2014vader`, logistic regression, a linear SVM and
# fastText {cite:p}`joulin2017bag` ({ref}`gvp-appendix-b1`). Accuracy and F1 come from the
# predictions; a model wins a BT match when its decision value for the gold class is higher. Table 3:

# %%
with timings.measure("SST-5 Appendix B.1, Table 3"):
    b1 = classification.appendix_b1(baselines, rng=stream(seed, "appB1 bt interval"), n_trials=n_trials)
out.table(b1, "gvp_appendix_b1_sst5")
trained = b1.dropna(subset=["acc"])
table3 = out.table(classification.spearman_table(trained, ["acc", "bt", "f1", "bt_bin"]), "gvp_table3_sst5")
show(views.correlation_pairs({"here": table3,
                              "printed in the paper (8 models)": classification.published_matrix("table3"),
                              "the paper's B.1–B.2, the same models": classification.spearman_table(
                                  self_check.b_tables(trained.index), ["acc", "bt", "f1", "bt_bin"])}), 2)
paper_bt = b1["paper_bt"].dropna()
glue_values({"b1_order": views.ranking(trained["bt"]), "b1_n": len(trained), "b1_paper_n": len(paper_bt),
             "b1_svm_place": views.place(trained["bt"], "SVM"), "b1_paper_svm_place": views.place(paper_bt, "SVM"),
             "b1_ties_raw": sweeps.matches(gold).tie_share(), "b1_ties_binarised": sweeps.matches(binary).tie_share(),
             "b1_swap": 12 / (len(trained) * (len(trained) ** 2 - 1))})

# %% [markdown]
# With {glue:text}`b1_n` models, swapping two neighbours moves Spearman's {term}`ρ <Spearman's rho (ρ)>` by
# {glue:text}`b1_swap:.2f`, so Table 3's correlations say little on their own; against the paper's:
# **{glue:md}`verdict-table3-values:myst`**. BT on the gold-class decision values orders the models
# {glue:md}`b1_order`: the SVM is {glue:text}`b1_svm_place` of {glue:text}`b1_n` here and
# {glue:text}`b1_paper_svm_place` of {glue:text}`b1_paper_n` in the paper's B.1 (BT strengths sum to 1 over the
# models fitted, so only their order compares). §5's SVM on top of Flair and the Transformer needs models not
# trained here; that it follows from the paper's own B.1: **{glue:md}`verdict-sec5-svm-top-from-b1:myst`**.
# {glue:text}`b1_ties_raw:.0%` of the matches on raw decision values are ties, {glue:text}`b1_ties_binarised:.0%`
# after binarising ("about two-thirds" in §5: **{glue:md}`verdict-sec5-sst5-ties:myst`**). The paper's printed
# accuracy–F1 correlation against its own B.2 accuracy: **{glue:md}`verdict-table3-acc-f1-from-b2:myst`**
# ({ref}`gvp-self-check`).
#
# (gvp-random)=
# ### Three random binary models
#
# Three models answer a binary task with uniformly random labels; the paper reads BT's negative correlation with the
# equal global scores as a bias of pairwise comparison. Over repeated draws, BT's Spearman correlation with accuracy:

# %% tags=["hide-output"]
with timings.measure("three random binary models"):
    random_models = stability.random_binary_models(rng=stream(seed, "sec5 random models"), n_repeats=n_random_repeats)
out.table(random_models, "gvp_random_binary_models", index=False)
show(stability.random_binary_summary(random_models))
glue_values(stability.random_binary_facts(random_models))

# %% [markdown]
# Over {glue:text}`random_repeats:,` repetitions the three accuracies differ by {glue:text}`random_spread_mean:.3f`
# on average; mean accuracy, ROC AUC and F1 are {glue:md}`ours-random-global-half`
# (**{glue:md}`verdict-random-global-half:myst`**), and they order the models alike in
# {glue:text}`random_global_agree:.0%` of the repetitions (the paper's one draw gave a correlation of 1:
# **{glue:md}`verdict-random-global-agree:myst`**). BT on every instance orders the models as accuracy does in
# {glue:text}`random_full_agree:.0%` of them (between binary outputs, wins minus losses equal the difference in correct
# answers); BT on one sample of {glue:text}`random_sample` matches per pair correlates
# {glue:text}`random_sampled_mean:.2f` with accuracy on average and {glue:text}`random_paper` in
# {glue:text}`random_at_paper:.0%` of the repetitions, the range one sample gives between identical models. A
# systematic inverse correlation: **{glue:md}`verdict-random-bt-inverse:myst`**.
#
# ## §6: over-confident models
#
# (gvp-a2)=
# ### The binary stand-in: Table 4
#
# §6 adds to the originals copies made over-confident: **binarised** (every decision value rounded to 0 or 1) or
# **penalised** (rounded only where the model is wrong). A good measure ranks the originals above their copies:
# average precision ({term}`AP`), 1 when every original is above every copy; for BT with its interval over sampled
# match sets and the paper's printed interval. MAE stands for A.2–A.3's "Accuracy" column (§6: "instead of
# calculating accuracy, we computed the MAE"; the copies model by model: {ref}`gvp-appendices`).

# %% tags=["hide-output"]
with timings.measure("binary stand-in: Appendix A.2-A.3, Table 4"):
    a2, binary_ap = classification.binary_copies(
        binary_scores, labels, classification.binarise(binary_scores), "Binarized",
        rng=stream(seed, "table4 binarised"), n_trials=n_trials)
    a3, penalised_ap = classification.binary_copies(
        binary_scores, labels, classification.penalise_errors(binary_scores, labels), "Penalized",
        rng=stream(seed, "table4 penalised"), n_trials=n_trials)
out.table(a2, "gvp_appendix_a2_binary")
out.table(a3, "gvp_appendix_a3_binary")
table4 = out.table(classification.ap_versus_paper({"binary": binary_ap, "penalized": penalised_ap}, "table4"),
                   "gvp_table4_binary", index=False)
show(views.labelled(table4.set_index(["experiment", "measure"])))
a2_originals, a2_copies = a2.loc[list(a1.index)], a2.loc[[f"Binarized {m}" for m in a1.index]]
t4_ap = table4.set_index(["experiment", "measure"])["ap"]
glue_values({
    "t4_binary_mae": t4_ap["binary", "mae"], "t4_binary_bt": t4_ap["binary", "bt"],
    "t4_penalized_bt": t4_ap["penalized", "bt"],
    "t4_n": len(a1), "t4_floor": sweeps.lowest_ap(len(a1), 2 * len(a1)), "t4_worst": a2_originals["acc"].min(),
    "t4_mae_below": int((a2_copies["mae"].to_numpy() < a2_originals["mae"].to_numpy()).sum())})

# %% [markdown]
# Binarising: MAE's AP is {glue:text}`t4_binary_mae:.2f` (a 0/1 copy's MAE is its error rate, below its original's
# for {glue:text}`t4_mae_below` of {glue:text}`t4_n` models); BT's is {glue:text}`t4_binary_bt:.3f`, near the lowest
# possible, {glue:text}`t4_floor:.2f`: a copy beats its original on every sentence the model gets right, and the
# weakest model here gets {glue:text}`t4_worst:.0%` right. That the binarised copies keep their originals' F1:
# **{glue:md}`verdict-appA2-f1-unchanged:myst`**. The copies keep their originals' order under accuracy, ROC AUC and F1
# with Spearman's ρ, in that order, of {glue:md}`values-sec5-binarised-global-unchanged`: §5's "did not change any of
# the rankings built using global scores" is **{glue:md}`verdict-sec5-binarised-global-unchanged:myst`** (accuracy and
# F1 see only the predicted class, which binarising keeps; ROC AUC is computed on the decision values themselves).
#
# Penalising every mistake: a penalised copy ties its original where the model is right and loses where it is wrong,
# so it ranks below its own original, but copies of strong models can stay above weak originals (BT's AP
# {glue:text}`t4_penalized_bt:.3f`). That penalising leaves the 0/1 tree unchanged:
# **{glue:md}`verdict-appA3-zero-one-unchanged:myst`**. Against the paper's Jigsaw values, MAE and AUC:
# **{glue:md}`verdict-table4-ap:myst`**; BT: **{glue:md}`verdict-table4-bt-binary:myst`** (binarised) and
# **{glue:md}`verdict-table4-bt-penalized:myst`** (penalised).
#
# (gvp-b2)=
# ### SST-5 binarised: Table 5, and two readings of the binarisation
#
# §5 binarises "by assigning 1 to each model's most confident response and 0 to all others, i.e., by rounding each
# output to the nearest integer", the same for two classes but not for SST-5's five. The chapter reads the first
# (*argmax*: 1 on the most confident class); the second (*rounded*: each decision value rounded on its own) gives a
# class 1 only above 0.5, so a model less sure than that answers no class. Table 5, with argmax copies:

# %% tags=["hide-output"]
with timings.measure("SST-5 Appendix B.2, Table 5"):
    b2 = classification.appendix_b2(baselines, rng=stream(seed, "appB2 bt interval"), n_trials=n_trials)
    b2_rounded = classification.appendix_b2(baselines, rng=stream(seed, "appB2 rounded bt interval"),
                                            n_trials=n_trials, reading="round")
    rounded = classification.sst5_quality(baselines, "round")[1]
    sst5_copies, sst5_ap = classification.sst5_copies(baselines, "binarized", rng=stream(seed, "table5 binarised"),
                                                      n_trials=n_trials)
    sst5_penalised, sst5_penalised_ap = classification.sst5_copies(
        baselines, "penalized", rng=stream(seed, "table5 penalised"), n_trials=n_trials)
out.table(b2, "gvp_appendix_b2_sst5")
out.table(b2_rounded, "gvp_appendix_b2_sst5_rounded")
out.table(sst5_copies, "gvp_table5_sst5_binarised")
out.table(sst5_penalised, "gvp_table5_sst5_penalised")
table5 = out.table(classification.ap_versus_paper({"binary": sst5_ap, "penalized": sst5_penalised_ap}, "table5"),
                   "gvp_table5_sst5", index=False)
show(views.labelled(table5.set_index(["experiment", "measure"])))
t5_ap = table5.set_index(["experiment", "measure"])["ap"]
glue_values(classification.sst5_b2_facts(b2, b1) | {
    "b2_best": sst5_copies.loc[list(trained.index), "acc"].max(),
    "b2r_order": views.ranking(b2_rounded["bt"].dropna()), "b2r_ties": sweeps.matches(rounded).tie_share(),
    "b2r_acc_min": b2_rounded["acc"].min(), "b2r_acc_min_model": b2_rounded["acc"].idxmin(),
    "t5_binary_acc": t5_ap["binary", "acc"], "t5_binary_f1": t5_ap["binary", "f1"],
    "t5_binary_bt": t5_ap["binary", "bt"]})

# %% [markdown]
# Accuracy's AP is {glue:text}`t5_binary_acc:.2f` and F1's {glue:text}`t5_binary_f1:.2f`: they tell a model from its
# binarised copy only where the copy's class differs from the predicted one (**{glue:md}`verdict-table5-ap:myst`**).
# BT's AP is {glue:text}`t5_binary_bt:.2f` (**{glue:md}`verdict-table5-bt:myst`**): a copy beats its original only where
# the model is right, and the best model here is right on {glue:text}`b2_best:.0%` of the sentences.
#
# Binarised on their own (Appendix B.2), BT orders the argmax copies {glue:md}`b2_order` and the rounded ones
# {glue:md}`b2r_order`; the paper's B.2 puts {glue:md}`b2_paper_top` on top (argmax:
# **{glue:md}`verdict-appB2-svm-top:myst`**). Rounded, binarised matches tie {glue:text}`b2r_ties:.0%` of the time
# (argmax: {glue:text}`b1_ties_binarised:.0%`) and the lowest accuracy falls to {glue:text}`b2r_acc_min:.2f`
# ({glue:md}`b2r_acc_min_model`): neither reading gives the paper's B.2 accuracies (argmax:
# **{glue:md}`verdict-appB2-acc:myst`**; both {ref}`model by model <gvp-appendix-b2>`). One verdict depends on the
# reading: §5's "the ordering remained stable across different random samples of pairs" (the share of sampled sets
# of 12·m·ln m comparisons per pair that change the 100,000-comparison ranking) is
# {glue:md}`ours-sec5-sst5-stable-samples` with argmax (**{glue:md}`verdict-sec5-sst5-stable-samples:myst`**) and
# {glue:md}`ours-sec5-sst5-stable-samples-rounded` rounded
# (**{glue:md}`verdict-sec5-sst5-stable-samples-rounded:myst`**).
#
# (gvp-c2)=
# ### CEval, penalised outputs: Table 6
#
# CEval's reviews rewritten by six methods to flip their sentiment, each output scored against the expert
# counterfactual by character edit distance ({term}`ED`), word error rate ({term}`WER`) and sentence {term}`chrF`
# (averaged over the reviews), and by BT on chrF-decided matches ({ref}`gvp-c1`). §6 appends "random
# long strings" to a random 5% of each model's outputs and asks which measures still rank the six originals above
# their six penalised copies; the strings here are random letters and spaces, as long as the paper's C.2 implies.

# %%
with timings.measure("Appendix C.1"):
    scores = ceval.global_scores(quality, rng=stream(seed, "appC1 bt interval"), n_trials=n_trials)
out.table(scores, "gvp_ceval_global_scores", index=False)
c1 = out.table(ceval.appendix_c1(scores), "gvp_appendix_c1")
missing = (texts == "").sum()  # reviews without a generation, per model
glue_values({"c1_m": texts.shape[1], "c1_size": sweeps.sample_size(texts.shape[1], len(texts)),
             "c1_instances": len(texts), "c1_missing": views.names(f"{m} ({n})" for m, n in missing.items() if n)})
with timings.measure("Appendix C.2, Table 6"):
    length = penalty_length or ceval.penalty_length_from_paper(len(texts), penalised_share)
    penalised = ceval.penalise(texts, stream(seed, "appC2 penalties"), share=penalised_share, length=length)
    quality_penalised = ceval.text_quality(penalised, reference)
    both = {name: quality[name].join(quality_penalised[name]) for name in quality}
    scores_c2 = ceval.global_scores(both, rng=stream(seed, "appC2 bt interval"), n_trials=n_trials)
out.table(scores_c2, "gvp_appendix_c2", index=False)
table6 = out.table(ceval.penalised_ap(scores_c2, both["chrf"], rng=stream(seed, "table6 bt ap interval"),
                                      n_trials=n_trials), "gvp_table6_penalised_ap")
show(views.labelled(table6))
moved = ceval.copy_displacement(scores_c2)
glue_values({"c2_originals": texts.shape[1], "c2_models": len(scores_c2), "c2_share": penalised_share,
             "c2_length": length, "c2_rise": ceval.penalty_rise(scores_c2), "c2_paper_rise": ceval.penalty_rise(),
             "c2_floor": sweeps.lowest_ap(texts.shape[1], len(scores_c2)),
             "c2_moved_ed": moved["ed"], "c2_moved_wer": moved["wer"], "c2_moved_chrf": moved["chrf"],
             "c2_moved_bt": moved["bt"],
             "t6_ed_distance": table6.loc["ed", "ap"], "t6_wer_distance": table6.loc["wer", "ap"],
             "t6_ed_higher": table6.loc["ed", "ap_higher_is_better"],
             "t6_wer_higher": table6.loc["wer", "ap_higher_is_better"]})

# %% [markdown]
# A copy sits on average {glue:text}`c2_moved_ed:.1f` places below its original under ED,
# {glue:text}`c2_moved_wer:.1f` under WER, {glue:text}`c2_moved_chrf:.1f` under chrF and
# {glue:text}`c2_moved_bt:.1f` under BT: that ED and WER punish such copies more than BT, §6's "pairwise comparisons
# can still favor promising models even when they commit rare but significant errors", is
# **{glue:md}`verdict-sec6-rare-errors:myst`**. Table 6 against the paper: ED, WER and chrF
# **{glue:md}`verdict-table6-ap:myst`**, BT **{glue:md}`verdict-table6-bt:myst`**. Ranked as distances, ED and WER have
# AP {glue:text}`t6_ed_distance:.2f` and {glue:text}`t6_wer_distance:.2f`; the paper's values follow from its own C.2
# ranked higher-is-better ({glue:text}`t6_ed_higher:.2f`, {glue:text}`t6_wer_higher:.2f` here;
# **{glue:md}`verdict-table6-from-c2:myst`**), the wrong way round ({ref}`gvp-self-check`).
#
# Table 7, Spearman correlations on CEval: its global rows are **{glue:md}`verdict-table7-global:myst`**, its BT row
# against ours **{glue:md}`verdict-table7-bt:myst`**; that row follows from C.2's run, to which §6 points for Table 7
# (**{glue:md}`verdict-table7-bt-from-c2:myst`**; {ref}`gvp-table7`).
#
# ## §7: ties, sample size, size of the difference
# (gvp-fig1)=
# ### Fig. 1: how many ties can BT take?
#
# Each sampled match between two of five CEval models is turned into a tie with probability p; BT on 12·m·ln m
# matches per pair against the ranking by mean chrF.

# %%
with timings.measure("Fig. 1 tie sweep"):
    fig1_quality = quality["chrf"][list(ceval.FIG1_MODELS)]
    sweep = stability.tie_sweep(fig1_quality, stability.tie_grid(tie_step), rng=stream(seed, "fig1 tie sweep"),
                                n_trials=n_trials)
out.table(sweep, "gvp_fig1_tie_sweep", index=False)
out.figure(figures.plot_tie_sweep(sweep, fig1_level), "gvp_fig1_tie_sweep")
glue_values(stability.tie_sweep_facts(sweep, near=paper_item("gvp", "fig1")["up_to_tie_share"]) | {
    "fig1_own_ties": sweeps.matches(fig1_quality).tie_share(), "fig1_n_models": len(ceval.FIG1_MODELS),
    "fig1_models": ", ".join(ceval.FIG1_MODELS), "tie_step": tie_step,
    "fig1_size": sweeps.sample_size(len(ceval.FIG1_MODELS), len(fig1_quality))})

# %% [markdown]
# ```{glue:figure} gvp_fig1_tie_sweep
# :name: gvp_fig1_tie_sweep
# :figclass: compendium-figure
# :alt: BT's correlation with the ranking by mean chrF of CEval models, against the probability that a match is a tie.
#
# Spearman correlation between BT's ranking and the ranking by mean chrF of {glue:text}`fig1_n_models` CEval
# generation models, when each sampled match is turned into a tie with probability p (0 to 1 by
# {glue:text}`tie_step`): the mean over {glue:text}`n_trials:,` sampled sets of {glue:text}`fig1_size:,` matches per
# pair (line) and the middle 95% of them (band); dotted, {glue:text}`fig1_level`, the correlation the paper calls
# strong.
#
# The paper's Fig. 1, on the same data {cite:p}`nguyen2024ceval`; the paper does not name its five models, here
# {glue:md}`fig1_models` (every method but the human-written Crowd counterfactuals).
# ```

# %% [markdown]
# Without added ties the mean correlation is {glue:text}`fig1_start:.2f` (per-review wins and average quality can
# order close models differently); at p = {glue:text}`fig1_p:.2f` it is {glue:text}`fig1_at_p:.2f`
# ({glue:text}`fig1_at_p_low:.2f`–{glue:text}`fig1_at_p_high:.2f` for 95% of the trials): ties drawn at random leave
# fewer decided matches, which still favour the better model. The mean stays at or above {glue:text}`fig1_level` up
# to p = {glue:md}`ours-fig1-ties` (the paper: up to {glue:text}`fig1_paper_share:.0%`):
# **{glue:md}`verdict-fig1-ties:myst`**.
#
# (gvp-fig2)=
# ### Fig. 2: how many comparisons per pair?
#
# BT rankings from a grid of comparisons per pair, each drawn with replacement many times, against the BT ranking from
# a very large number of comparisons per pair; the red line is 12·m·ln m. The paper shows Jigsaw ("a similar effect
# was observed across the other datasets"); here CEval's chrF matches, the binary stand-in and SST-5.

# %%
with timings.measure("Fig. 2 stability"):
    fig2_sizes = range(stability_step, 1001, stability_step)
    fig2_curves = stability.stability_panels({"CEval (chrF), 6 models": quality["chrf"],
                                              "binary stand-in, 8 models": binary_quality, "SST-5, 5 models": gold},
                                             fig2_sizes, [stream(seed, f"fig2 stability {k}") for k in range(3)],
                                             n_trials=n_stability_trials)
    sst5_at_marker = stability.stability_panels({"binarised": binary, "rounded": rounded}, None,
                                                [stream(seed, f"fig2 sst5 {k}") for k in ("binarised", "rounded")],
                                                n_trials=n_stability_trials)
for name, (curve, _) in zip(("ceval", "binary", "sst5"), fig2_curves.values()):
    out.table(curve, f"gvp_fig2_stability_{name}", index=False)
for reading, (curve, _) in sst5_at_marker.items():
    out.table(curve, f"gvp_fig2_stability_sst5_{reading}_at_marker", index=False)
out.figure(figures.plot_stability(fig2_curves), "gvp_fig2_stability")
glue_values({"fig2_reference_size": stability.REFERENCE_SIZE, "fig2_first": fig2_sizes[0],
             "fig2_last": fig2_sizes[-1], "stability_step": stability_step, "n_stability_trials": n_stability_trials,
             "fig2_panels": ", ".join(fig2_curves)})

# %% [markdown]
# ```{glue:figure} gvp_fig2_stability
# :name: gvp_fig2_stability
# :figclass: compendium-figure
# :alt: Models misplaced by BT on sampled comparisons, against the comparisons per pair, on three datasets.
#
# Models whose BT rank on a sampled set of comparisons differs from their rank on
# {glue:text}`fig2_reference_size:,` comparisons per pair, against the comparisons per pair
# ({glue:text}`fig2_first:,` to {glue:text}`fig2_last:,` by {glue:text}`stability_step`): mean over
# {glue:text}`n_stability_trials:,` sampled sets and 95th percentile; red, 12·m·ln m. Panels:
# {glue:md}`fig2_panels`.
#
# The paper's Fig. 2 shows Jigsaw {cite:p}`adams2017jigsaw`, not reachable here, and says the other datasets behave
# alike.
# ```

# %% [markdown]
# The paper's "stable" at 12·m·ln m, read as at most half of the sampled sets changing the ranking at all (each
# curve at the red line and at the grid's end: {ref}`gvp-fig2-ties`): on the binary stand-in for its Jigsaw curve
# {glue:md}`ours-fig2-jigsaw` of them do (**{glue:md}`verdict-fig2-jigsaw:myst`**); its "similar effect on the other
# datasets": {glue:md}`ours-fig2-ceval` on CEval (**{glue:md}`verdict-fig2-ceval:myst`**) and {glue:md}`ours-fig2-sst5`
# on SST-5 (**{glue:md}`verdict-fig2-sst5:myst`**). How many comparisons suffice depends on how close the models are,
# and the paper shows only Jigsaw's curve. With ties, more comparisons are needed (§7): the mean number of misplaced
# models at 12·m·ln m rises with every step up in a synthetic tie probability on CEval,
# **{glue:md}`verdict-sec7-ties-cost:myst`** (curves on the {ref}`details page <gvp-fig2-ties>`).

#
# (gvp-fig3)=
# ### Fig. 3: how large a difference can pairwise comparison see?
#
# The paper describes it in one paragraph (differences "subtracted from a randomly selected pair's scores", 1,000
# repetitions). Our reading: two models with per-instance decision values uniform on [0, 1], one scaled by f (1 − f
# is the difference), and how often BT (for two models, the count of wins) and the global mean rank the better model
# first, on the same draws.

# %%
with timings.measure("Fig. 3 detection"):
    detection = stability.detection_curve(stability.FIG3_FACTORS, rng=stream(seed, "fig3 detection"),
                                          n_repeats=n_fig3_repeats)
out.table(detection, "gvp_fig3_detection", index=False)
out.figure(figures.plot_detection(detection), "gvp_fig3_detection")
largest = detection[detection["difference"] == detection["difference"].max()].set_index("matches")
glue_values({"fig3_largest": largest["difference"].iloc[0], "fig3_differences": detection["difference"].nunique(),
             "fig3_sizes": ", ".join(f"{n:,}" for n in stability.FIG3_SIZES), "n_fig3_repeats": n_fig3_repeats,
             "fig3_pairwise_16": largest.loc[16, "pairwise"], "fig3_pairwise_129": largest.loc[129, "pairwise"],
             "fig3_pairwise_1000": largest.loc[1000, "pairwise"], "fig3_global_16": largest.loc[16, "global"],
             "fig3_global_129": largest.loc[129, "global"], "fig3_global_1000": largest.loc[1000, "global"]})

# %% [markdown]
# ```{glue:figure} gvp_fig3_detection
# :name: gvp_fig3_detection
# :figclass: compendium-figure
# :alt: How often the count of wins and the mean rank the better of two models first, against their difference.
#
# Probability that the better of two models is ranked first, against the difference 1 − f between them (0 to
# {glue:text}`fig3_largest:g`, {glue:text}`fig3_differences` values), by the count of wins (pairwise, BT; solid) and
# by the mean decision value (global; dashed), with {glue:md}`fig3_sizes` matches; each point over
# {glue:text}`n_fig3_repeats:,` repetitions.
#
# Our reading of the paper's one-paragraph description; the global (dashed) curves are added here.
# ```

# %% [markdown]
# At the largest difference ({glue:text}`fig3_largest:.2f`) the count of wins orders the pair correctly with
# probability {glue:text}`fig3_pairwise_16:.2f`, {glue:text}`fig3_pairwise_129:.2f` and
# {glue:text}`fig3_pairwise_1000:.2f` (16, 129 and 1,000 matches), the mean {glue:text}`fig3_global_16:.2f`,
# {glue:text}`fig3_global_129:.2f` and {glue:text}`fig3_global_1000:.2f`. That it does so more often the larger the
# difference: **{glue:md}`verdict-fig3-difference:myst`**. §7's "at least a 10% difference" is enough when the share of
# correct orders there, less two binomial standard errors, still beats a coin flip: {glue:md}`ours-fig3-ten-percent`,
# **{glue:md}`verdict-fig3-ten-percent:myst`**. That the mean finds the better model more often (mean gap over the grid
# {glue:md}`ours-abstract-global-reliable`): **{glue:md}`verdict-abstract-global-reliable:myst`**; a match keeps only
# the sign of each per-instance difference, the mean its size.
#
# (gvp-fig4)=
# ## Fig. 4: global scores or pairwise comparisons?
#
# The paper closes with a flowchart, redrawn here from its caption and §§5–8 (the text copy holds only the caption).

# %%
out.figure(figures.plot_flowchart(), "gvp_fig4_flowchart")

# %% [markdown]
# ```{glue:figure} gvp_fig4_flowchart
# :name: gvp_fig4_flowchart
# :figclass: compendium-figure
# :alt: A flowchart of when to use global scores and when pairwise comparisons.
#
# When to use global scores and when pairwise comparisons: the paper's Fig. 4, redrawn from its caption and the
# recommendations of its §§5–8 (the text copy of the paper holds only the caption).
# ```

# %% [markdown] tags=["details-opening"]
# This page checks the chapter beyond its story: llmfao's real pairwise judgments, whether ties make BT need more
# comparisons, the paper's appendices model by model, Table 7, the paper checked against itself, its protocol read
# both ways, and the run times.

# %% [markdown] tags=["details"]
# (gvp-llmfao)=
# ## Beyond the paper: llmfao's real pairwise judgments
#
# The paper never uses llmfao, and nothing here tests a number of the paper. llmfao (evalica's example data) holds
# judgments of LLMs by crowd workers, prompt by prompt, with their own ties. It is not instance-aligned like the
# paper's data: each pair of models is judged a different number of times, many pairs never. Fig. 1's experiment:
# the judgments are split at random into two halves, each judgment of one half is turned into a tie with probability
# p, and its BT ranking is compared with BT on the other half, many times per p (a reference fitted on every
# judgment would contain each trial's own judgments and flatter the agreement). Stability is measured by resampling
# each pair's judgments (bootstrap, against BT on every judgment; the table gives the twelve strongest models'
# ranges) and by ranking two disjoint random subsets of the judgments against each other.

# %%
with timings.measure("llmfao"):
    llmfao_table = load_table("llmfao")
    judgments = comparisons.from_judgments(llmfao_table["left"], llmfao_table["right"], llmfao_table["winner"])
    rule = llmfao.sampling_rule(judgments)
    llmfao_sweep = llmfao.tie_sweep(judgments, stability.tie_grid(llmfao_tie_step),
                                    rng=stream(seed, "llmfao tie sweep"), n_trials=n_llmfao_trials)
    llmfao_ranks, llmfao_rho = llmfao.bootstrap_ranks(judgments, rng=stream(seed, "llmfao bootstrap"),
                                                      n_trials=n_llmfao_trials)
    split_half = llmfao.split_half_curve(judgments, split_half_shares, rng=stream(seed, "llmfao split halves"),
                                         n_trials=n_llmfao_trials)
out.table(llmfao_sweep, "gvp_llmfao_tie_sweep", index=False)
out.table(llmfao_ranks, "gvp_llmfao_bootstrap_ranks")
out.table(split_half, "gvp_llmfao_split_half", index=False)
out.figure(figures.plot_llmfao(llmfao_sweep, split_half, fig1_level), "gvp_llmfao_sweep")
glue_values(rule | {"llmfao_sweep_own_ties": llmfao_sweep["tie_share"].min(), "n_llmfao_trials": n_llmfao_trials,
                    "llmfao_split_shares": ", ".join(f"{s:.0%}" for s in split_half["share"])})

# %% [markdown]
# ```{glue:figure} gvp_llmfao_sweep
# :name: gvp_llmfao_sweep
# :figclass: compendium-figure
# :alt: BT on llmfao's crowd judgments: agreement of two halves as ties are added, and of two disjoint subsets.
#
# BT on llmfao's {glue:text}`llmfao_judgments:,` crowd judgments of {glue:text}`llmfao_models` LLMs
# {cite:p}`ustalov2023llmfao`. (a) Spearman correlation between BT on one random half of the judgments, each turned
# into a tie with probability p, and BT on the other half, against the share of ties in the first half (the data's
# own {glue:text}`llmfao_sweep_own_ties:.0%` included): mean and middle 95% of {glue:text}`n_llmfao_trials:,` trials;
# dotted, {glue:text}`fig1_level`. (b) Spearman correlation between the BT rankings of two disjoint random subsets,
# against the judgments in each ({glue:md}`llmfao_split_shares` of them): mean and 2.5th percentile of
# {glue:text}`n_llmfao_trials:,` trials.
#
# Not in the paper, which never uses llmfao: its Figs. 1–2's questions asked of real pairwise judgments with their own
# ties. Unlike the paper's Fig. 1, the reference in (a) shares no judgment with the trials.
# ```

# %%
show(views.ranks_view(llmfao_ranks))
glue_values(llmfao.llmfao_facts(llmfao_sweep, llmfao_ranks, llmfao_rho, split_half))

# %% [markdown]
# llmfao has {glue:text}`llmfao_judgments:,` judgments of {glue:text}`llmfao_models` models,
# {glue:text}`llmfao_tie_share:.0%` of them ties; {glue:text}`llmfao_pairs_compared` of the
# {glue:text}`llmfao_pairs:,` pairs are judged at all, a median of {glue:text}`llmfao_median_per_pair:.0f` times (at
# most {glue:text}`llmfao_max_per_pair`). The paper's rule asks {glue:text}`llmfao_required_per_pair:,` comparisons
# per pair, {glue:text}`llmfao_required_total:,` in all; {glue:text}`llmfao_pairs_with_enough` pairs have that many,
# and for every other pair the rule falls back to all its judgments.
#
# Adding ties to one random half and ranking it against the other half: without added ties the halves correlate
# {glue:text}`llmfao_start:.2f` on average, and the mean stays at or above {glue:text}`fig1_level` up to
# {glue:md}`ours-fig1-llmfao` of the judgments tied, the data's own ties included
# (**{glue:md}`verdict-fig1-llmfao:myst`** against the paper's {glue:text}`fig1_paper_share:.0%` on CEval). CEval's Fig.
# 1 read the same way (its chrF matches have {glue:text}`fig1_own_ties:.1%` ties of their own, so its tie probability is
# its share of ties) starts at {glue:text}`fig1_start:.2f` and stays at or above {glue:text}`fig1_level` up to
# {glue:md}`ours-fig1-ties`; its reference is the mean chrF on the very reviews its matches are drawn from, not a
# disjoint half, so only where each curve crosses {glue:text}`fig1_level` compares, not its height.
#
# Resampling each pair's judgments, the mean Spearman correlation with BT on every judgment is
# {glue:text}`llmfao_boot_rho:.2f`, but a model's 95% rank range spans {glue:text}`llmfao_width_median:.0f` places for
# the median model (up to {glue:text}`llmfao_width_max:.0f`). Two disjoint random parts of
# {glue:text}`llmfao_small_judgments:,.0f` judgments each ({glue:text}`llmfao_small_share:.0%` of them) correlate
# {glue:text}`llmfao_small_rho:.2f` on average; two halves (about {glue:text}`llmfao_half_judgments:,.0f` each)
# {glue:text}`llmfao_half_rho:.2f` (2.5% percentile {glue:text}`llmfao_half_low:.2f`), a model moving
# {glue:text}`llmfao_half_moves:.1f` places between them on average.

# %% [markdown] tags=["details"]
# (gvp-fig2-ties)=
# ## Do ties make BT need more comparisons? (§7)
#
# §7 says that when many comparisons end in a draw, BT "required a high number of observations to achieve a stable
# ranking", but shows no curve. Fig. 2 on CEval again, with each sampled match turned into a tie with probability p,
# against the same untied reference. The tables read Fig. 2's curves (first) and these at the red line and at the
# grid's end:

# %%
with timings.measure("Fig. 2 with ties"):
    tie_curves = {"no added ties": fig2_curves["CEval (chrF), 6 models"], **stability.stability_panels(
        {f"{float(p):.0%} added ties": quality["chrf"] for p in stability_tie_probabilities}, fig2_sizes,
        stream(seed, "fig2 with ties").spawn(len(stability_tie_probabilities)), n_trials=n_stability_trials,
        tie_probabilities=stability_tie_probabilities)}
for title, (curve, _) in list(tie_curves.items())[1:]:
    out.table(curve, f"gvp_fig2_stability_ceval_ties_{title.split('%')[0]}", index=False)
out.figure(figures.plot_stability(tie_curves), "gvp_fig2_stability_ties")
glue_values({"fig2_ties_panels": ", ".join(tie_curves)})

# %% [markdown]
# ```{glue:figure} gvp_fig2_stability_ties
# :name: gvp_fig2_stability_ties
# :figclass: compendium-figure
# :alt: Models misplaced by BT on CEval's sampled comparisons, against the comparisons per pair, with added ties.
#
# Models whose BT rank on a sampled set of comparisons differs from their rank on
# {glue:text}`fig2_reference_size:,` comparisons per pair, against the comparisons per pair
# ({glue:text}`fig2_first:,` to {glue:text}`fig2_last:,` by {glue:text}`stability_step`): mean over
# {glue:text}`n_stability_trials:,` sampled sets and 95th percentile; red, 12·m·ln m. Panels:
# {glue:md}`fig2_ties_panels`.
#
# Not in the paper: its §7 says BT needs many observations when comparisons end in draws but shows no curve. CEval's
# chrF matches, each sampled match (not the reference's) turned into a tie with the probability of the panel.
# ```

# %%
show(stability.stability_view(fig2_curves), 2)
show(stability.stability_view(tie_curves), 2)

# %% [markdown]
# That the mean number of misplaced models at 12·m·ln m rises with every step up in the tie probability:
# **{glue:md}`verdict-sec7-ties-cost:myst`**. A tie carries no evidence about the order, so a sample with more ties
# holds fewer decided matches.

# %% [markdown] tags=["details"]
# (gvp-appendices)=
# ## The paper's appendices, model by model
#
# The tables behind Tables 2–7, ours beside the paper's where it prints them. The binary stand-in's copies
# (Appendices A.2–A.3) are downloads:
# {download}`A.2, binarised copies <../05_global_vs_pairwise/gvp_appendix_a2_binary.csv>`,
# {download}`A.3, penalised copies <../05_global_vs_pairwise/gvp_appendix_a3_binary.csv>`.
#
# (gvp-appendix-a1)=
# ### Appendix A.1: the binary stand-in
#
# The classifiers trained by the data preparation step on SST-5's training sentences without the neutral class:
# TF-IDF logistic regression, a calibrated linear SVM, naive Bayes, fastText, 15-nearest neighbours, VADER and
# TextBlob (their scores mapped to [0, 1]), and a fully grown decision tree whose decision values are 0 or 1 only, the
# role of the paper's XGBoost. The gold labels are SST's own (the majority vote is measured in {ref}`gvp-protocol`).

# %%
show(views.versus_paper(a1, ["acc", "auc", "bt", "f1", "bt_bin"]))

# %% [markdown]
# (gvp-appendix-b1)=
# ### Appendix B.1: SST-5
#
# TextBlob and VADER have their scores cut into five equal-width bins; logistic regression and the linear SVM work on
# TF-IDF features; Flair-ELMo, Flair-BERT and the fine-tuned Transformer need downloaded weights (their paper rows are
# shown empty). Decision values are the class scores of that code's explainer: probabilities for logistic regression
# and fastText, a modified-Huber SGD's probabilities for the SVM, simulated normal-density scores for the lexicon
# models, centred here on the class they predict, since the paper takes the class with the highest decision value as
# a model's output (the explainer's own centring is measured in {ref}`gvp-protocol`). For the SVM predictions and
# decision values come from different code, so its most confident class need not be the predicted one.

# %%
show(views.versus_paper(b1, ["acc", "f1", "bt"]))

# %% [markdown]
# Accuracy and F1 (support-weighted, as in that code) against the paper's: **{glue:md}`verdict-appB1-acc-f1:myst`**;
# where they differ, VADER's lexicon comes from the vaderSentiment package rather than NLTK's copy, and fastText's
# training is stochastic (the paper's model file is not published).
#
# (gvp-appendix-b2)=
# ### Appendix B.2: SST-5 binarised, both readings
#
# First the chapter's reading (1 on the most confident class), then each decision value rounded on its own:

# %%
show(views.versus_paper(b2, ["acc", "f1", "bt"]))
show(views.versus_paper(b2_rounded, ["acc", "f1", "bt"]))

# %% [markdown]
# The most confident class is not always the predicted one for {glue:md}`b2_changed`, so the argmax reading's
# accuracy differs from B.1's there; rounded, a model answers no class where its most confident class is below 0.5.
# In the paper's own appendices, B.2's accuracy is below B.1's for {glue:text}`b2_paper_acc_lower` of its
# {glue:text}`b2_paper_n` models while its F1 equals B.1's for {glue:text}`b2_paper_f1_same`: neither reading
# explains that column.
#
# (gvp-c1)=
# ### Appendix C.1: CEval, global scores and BT
#
# ED is rapidfuzz's Levenshtein distance (as in jiwer), WER jiwer's, chrF sacreBLEU's sentence chrF
# {cite:p}`post2018call`; BT from matches decided by chrF on every review, with a 95% interval over sampled match
# sets. Ours, the paper's, and their difference:

# %%
show(views.labelled(c1.swaplevel(axis=1)[["ed", "wer"]]))  # here, paper and difference by measure
show(views.labelled(c1.swaplevel(axis=1)[["chrf", "bt"]]))

# %% [markdown]
# BT's interval comes from {glue:text}`n_trials:,` sampled sets of {glue:text}`c1_size` matches per pair (12·m·ln m
# with m = {glue:text}`c1_m`, at most the {glue:text}`c1_instances` reviews). ED, WER and chrF against the paper's
# printed values: **{glue:md}`verdict-appC1-scores:myst`**. Reviews without a generation, {glue:md}`c1_missing` of
# them, are scored here as the empty string; the paper does not say how it scored them. The paper's BT of each model
# inside our interval, for {glue:md}`passed-appC1-bt` models: **{glue:md}`verdict-appC1-bt:myst`**.
#
# ### Appendix C.2: CEval with penalised outputs
#
# A string appended after a space adds up to its length plus one to an output's edit distance, so C.2's printed rise
# in ED gives the strings' length.

# %%
show(views.versus_paper(scores_c2.set_index("model"), ["ed", "wer", "chrf", "bt"]))

# %% [markdown]
# Our strings of {glue:text}`c2_length:,` characters raise a model's mean ED by {glue:text}`c2_rise:.0f` on average,
# the paper's by {glue:text}`c2_paper_rise:.0f`, so the absolute C.2 values differ (the lowest AP possible with
# {glue:text}`c2_originals` originals among {glue:text}`c2_models` is {glue:text}`c2_floor:.2f`). The BT order of
# C.2: **{glue:md}`verdict-appC2-bt-order:myst`**.

# %% [markdown] tags=["details"]
# (gvp-table7)=
# ## Table 7: Spearman correlations on CEval
#
# One row per pair of measures: ours, the table as printed, and the same correlations from the paper's own
# Appendices C.1 and C.2:

# %%
table7 = out.table(classification.spearman_table(scores, ["ed", "wer", "chrf", "bt"]), "gvp_table7_spearman")
table7_c1 = classification.spearman_table(paper_frame("gvp", "appendix_c1"), ["ed", "wer", "chrf", "bt"])
show(views.correlation_pairs({
    "here": table7, "printed in the paper": classification.published_matrix("table7"),
    "from the paper's C.1": table7_c1,
    "from the paper's C.2": classification.spearman_table(self_check.paper_c2_originals(), ["ed", "wer", "chrf", "bt"]),
}), 2)
glue_values({"n_trials": n_trials, "t7_gap": float((table7 - table7_c1).abs().max().max())})

# %% [markdown]
# The printed global rows: **{glue:md}`verdict-table7-global:myst`**; the printed BT row against ours:
# **{glue:md}`verdict-table7-bt:myst`**. Ours and the same correlations computed from the paper's Appendix C.1 differ by
# at most {glue:text}`t7_gap:.2f`; §6 points to Table 7 for the rankings after the penalty, so its BT row belongs to
# C.2's run (whose six original rows have C.1's ED, WER and chrF); against those rows:
# **{glue:md}`verdict-table7-bt-from-c2:myst`**.

# %% [markdown] tags=["details"]
# (gvp-self-check)=
# ## The paper checked against itself
#
# The paper's printed tables recomputed from its own appendices: Table 2 from A.1; Table 3 from B.1 (accuracy, BT,
# F1) and B.2 (its BT as BTbin); Table 4 from A.2 and A.3 (their "Accuracy" column read as 1 − MAE); Table 5 from B.1
# and B.2 (AP only: B.1's and B.2's BT are two fits whose values do not compare); Table 6 from C.2 both ways round;
# Table 7 from C.2's six original rows. Correlations are Spearman's; an AP ranks the originals above their copies.
# Where an appendix prints ties, the range over the orders of the tied values is shown too. Every row is counted by a
# record of the claims table, "paper inconsistent" where no order of the ties gives the printed value. The full
# table, with the rows recomputed for context only (Table 3 over the five models trained here, Table 5's BT, Table 7
# from C.1; column `counted`):
# {download}`the paper against itself, every row <../05_global_vs_pairwise/gvp_paper_consistency.csv>`.

# %% tags=["hide-output"]
consistency = out.table(self_check.paper_consistency(), "gvp_paper_consistency", index=False)
agree = self_check.agrees(consistency)
main = consistency["counted"]  # the checks the claims registry counts (the others are context, in the CSV)
show(views.self_check_view(consistency[main], ["table2", "table7"], agree))
show(views.self_check_view(consistency[main], ["table3", "sec5-svm"], agree))
show(views.self_check_view(consistency[main], ["table4-binary", "table4-penalized", "table5", "table6", "appB2-ratio"],
                           agree))
b2_ratio = self_check.b2_ratio_bound()
glue_values({"sc_checked": main.sum(), "sc_agree": (agree & main).sum(),
             "sc_failed": views.names(dict.fromkeys(consistency.loc[main & ~agree, "item"].map(views.ITEMS))),
             "b2ratio_fitted": b2_ratio["fitted"], "b2ratio_two_models": b2_ratio["two_models"],
             "b2ratio_printed": b2_ratio["printed"]})

# %% [markdown]
# {glue:text}`sc_agree` of the {glue:text}`sc_checked` recomputations give the printed value to its printed decimals
# for some order of the printed ties; the others are in {glue:md}`sc_failed`. Three findings stand behind them.
# Table 3's accuracy–F1 correlation does not follow from B.1's two columns (**{glue:md}`verdict-table3-from-b:myst`**);
# with B.2's accuracy in their place it is {glue:md}`ours-table3-acc-f1-from-b2`
# (**{glue:md}`verdict-table3-acc-f1-from-b2:myst`**). Table 6 from C.2 with every measure read as higher-is-better
# gives {glue:md}`ours-table6-from-c2` (**{glue:md}`verdict-table6-from-c2:myst`**), with ED and WER as the distances
# they are {glue:md}`ours-table6-from-c2-distances` (**{glue:md}`verdict-table6-from-c2-distances:myst`**). In B.2 a
# match between binarised models is decided by right or wrong only, so model i takes 0.5 + (accᵢ − accⱼ)/2 of the points
# against model j whatever their errors; BT fitted to the pair scores B.2's accuracies imply puts the SVM
# {glue:text}`b2ratio_fitted:.2f` times above TextBlob (two models alone: {glue:text}`b2ratio_two_models:.2f`), where
# B.2 prints a ratio of {glue:text}`b2ratio_printed:.1f` (**{glue:md}`verdict-appB2-bt-ratio:myst`**).

# %% [markdown] tags=["details"]
# (gvp-protocol)=
# ## Readings of the paper's protocol, measured both ways
#
# Three places where the paper's description fixes a choice that a straightforward rebuild would make otherwise, each
# measured both ways ("before": the alternative; "after": the reading the chapter uses): (1) the paper takes the class
# with the highest decision value as a model's output, so the lexicon models' simulated decision values are centred
# on the class they predict (alternative: the binning of prrao87's explainer); (2) the strings appended in §6 are as
# long as the rise in ED that Appendix C.2 prints implies (alternative: 1,000 characters); (3) the paper's Jigsaw
# gold standard was a majority vote of its models, so the binary stand-in is also scored against the majority vote of
# its eight models (here "before" is SST's own labels, which the chapter uses, "after" the vote; "paper" is Jigsaw's,
# from A.1 and Tables 2 and 4; BT is the point value on every sentence). "Paper" for Table 3 is its B.1–B.2
# restricted to the models trained here, for the rise in ED the mean over C.2's six models.

# %% tags=["hide-output"]
with timings.measure("protocol readings, both ways"):
    sst5 = {"before": explainer_baselines, "after": centred_baselines}
    point = {k: classification.sst5_point_measures(frame) for k, frame in sst5.items()}
    orders = protocol.b1_orders(point["before"]["bt"], point["after"]["bt"])
    table3_changes = {kind: classification.spearman_table(frame, ["acc", "bt", "f1", "bt_bin"]) for kind, frame in (
        *point.items(), ("paper", self_check.b_tables(list(orders.index))))}
    lengths = {"before": ceval.FIRST_PENALTY_LENGTH, "after": length}
    alternative = ceval.penalise(texts, stream(seed, "appC2 penalties"), share=penalised_share,
                                 length=lengths["before"])
    rises = {"before": protocol.ed_rise(texts, reference, alternative),
             "after": protocol.ed_rise(texts, reference, penalised),
             "paper": ceval.penalty_rise()}
    gold_change = protocol.binary_gold_change(binary_scores, sst_labels)
changes = protocol.protocol_table(sst5, orders, table3_changes, rises, gold_change)
changes = out.table(changes, "gvp_protocol_changes", index=False)
show(changes.set_index(["change", "measure"]))
show(views.labelled(out.table(orders, "gvp_appendix_b1_renormalised")))
glue_values({"protocol_agreement": gold_change.attrs["agreement"], "protocol_splits": gold_change.attrs["splits"],
             "protocol_paper_order": views.ranking(orders["paper_bt"]),
             "protocol_order": views.ranking(orders["bt_after"])})

# %% [markdown]
# The first table (under "Show code cell output") gives every measure both ways. The majority vote of the
# stand-in's models agrees with SST's labels on {glue:text}`protocol_agreement:.0%` of the sentences
# ({glue:text}`protocol_splits` even splits, settled by the mean decision value). The second table is the paper's
# B.1 BT over the five models trained here (under BT the ratio of two strengths does not depend on the other models,
# so renormalising keeps B.1's order, {glue:md}`protocol_paper_order`) next to ours ({glue:md}`protocol_order` with
# the centred lexicon models); the order claim: **{glue:md}`verdict-appB1-bt-order:myst`**.

# %% [markdown] tags=["details"]
# ## Run time

# %% tags=["hide-output"]
show(timings.table(), 1)

# %% [markdown]
# ## What differs from the paper, and why
#
# ````{dropdown} Every claim not reproduced in full, with the reason it differs
# ```{include} ../claims/05_global_vs_pairwise_differs.md
# ```
# ````
#
# `````{dropdown} Notes on data and method
# * **Jigsaw** (Kaggle submission files with a gold standard rebuilt by majority vote) is not reachable. Its tables
#   have a stand-in, SST-5 without the neutral class with classifiers trained here; model names, data and gold
#   standard differ, so only patterns compare, and every stand-in model's decision values are probabilities of the
#   positive class: the stand-in varies their sharpness, not their domain.
# * **SST-5** has the baselines that need no pretrained weights; the others are left out (their paper rows shown
#   empty). The decision values follow prrao87's explainer code, our reading of where the paper's came from, since it
#   does not say.
# * **CEval's missing generations** are scored as empty strings; the paper's handling is unknown.
# * **Binarisation** (§5): "1 to each model's most confident response" and "rounding each output to the nearest
#   integer" differ for SST-5's five classes; the chapter uses the first, and shows the second beside it where a
#   verdict depends on it ({ref}`gvp-b2`).
# * **BT** here is the fit on every instance with a 95% interval over sampled match sets; the paper's point values are
#   presumably from one sampled set (it does not say).
# * **Penalised strings**: the paper gives neither their length nor their alphabet; ours are random letters and
#   spaces, as long as the rise in ED its Appendix C.2 prints implies (see {ref}`gvp-c2`).
# * **Fig. 1's models**: the paper does not name them; we take every CEval method but Crowd (the human-written
#   counterfactuals), and compare each trial's BT with the ranking by mean chrF.
# * **Fig. 3** follows our reading of a one-paragraph description; the paper's exact simulation is unknown.
# * **Fig. 4** is redrawn from the caption and the text; the original figure is not in the text copy of the paper.
# * **llmfao** is beyond the paper, which never uses it: its section asks the paper's tie and stability questions of
#   real judgments, with a tie sweep whose reference shares no judgment with the trials.
# * **The protocol readings** (lexicon decision values centred on the predicted class, appended strings as long as
#   Appendix C.2 implies, the majority-vote gold option) are measured both ways in {ref}`gvp-protocol`.
# `````

# %% tags=["remove-input"]
# the values the claims registry reads (data/published/claims/gvp.toml), then every claim's verdict for the text
out.values({
    **classification.correlation_values(table7, "table7"), **ceval.ceval_values(scores, scores_c2),
    "fig1 tie probability at 0.8": stability.largest_above(sweep, "tie_probability", fig1_level),
    **classification.correlation_values(table3, "table3"),
    **classification.sst5_values(b1, b2, b2_rounded, {"binarised": sweeps.matches(binary).tie_share(),
                                                      "rounded": sweeps.matches(rounded).tie_share()}, sst5_at_marker),
    **classification.correlation_values(table2, "table2"),
    **classification.binary_values(a1, table2, a2, a3, binary_ties), **stability.random_binary_values(random_models),
    **stability.stability_values(fig2_curves, ("ceval", "binary", "sst5"), tie_curves),
    **stability.detection_values(detection, n_fig3_repeats),
    "llmfao tie share at 0.8": stability.largest_above(llmfao_sweep, "tie_share", fig1_level)})
out.values(classification.svm_top_rows(gold, binary, b1, rng=stream(seed, "svm top item bootstrap"),
                                       n_resamples=n_trials))
verdicts = glue_verdicts(out)

# %% [markdown]
# ## What to take away
#
# * Jigsaw is not reachable; its rows run on a binary SST-5 stand-in. 12·m·ln m comparisons per pair giving a stable
#   BT ranking: **{glue:md}`verdict-fig2-ceval:myst`** on the paper's CEval, **{glue:md}`verdict-fig2-jigsaw:myst`**
#   on the stand-in.
# * Global distances punish rare large errors more than BT: **{glue:md}`verdict-sec6-rare-errors:myst`**; ties make
#   BT need more comparisons: **{glue:md}`verdict-sec7-ties-cost:myst`**; global scores rank more reliably (Fig. 3's
#   simulated draws): **{glue:md}`verdict-abstract-global-reliable:myst`**.
