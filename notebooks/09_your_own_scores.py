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
# # Your own scores: compare any systems with every method in the book
#
# You have per-instance scores for a few systems (one score per test instance and system, from any metric or
# rater). This chapter asks of them what the four papers ask of theirs — {cite:t}`peyrard2021better`,
# {cite:t}`knowles2021stability`, {cite:t}`vondaniken2024favi` and {cite:t}`levtsov2025confidence`: **which system
# is best, by how much, is the ranking robust, and do the aggregation methods agree?** It runs on an example shipped
# with the compendium (its provenance is in the examples folder's README): one of the paired paper's own setups,
# dialogue responses to TopicalChat {cite:p}`gopalakrishnan2019topicalchat` scored by {term}`chrF++`.
#
# **Run it on your file.** Either the command line, which prints the same tables (two commands from a fresh clone):
#
# ```bash
# make setup
# # add --lower-is-better for error metrics
# .venv/bin/python -m analysis compare my_scores.csv --out my_report/
# ```
#
# or this notebook with your parameters, through the batch runner or papermill:
#
# ```bash
# .venv/bin/jupytext --to ipynb notebooks/09_your_own_scores.py -o /tmp/yours.ipynb
# .venv/bin/papermill /tmp/yours.ipynb /tmp/yours-out.ipynb \
#     -p scores_path $PWD/my_scores.csv -p output_root /tmp/yours
# ```
#
# Accepted files: **long** CSV/Parquet with columns `instance, system, score` (a file with extra columns, such as a
# metric's name, is cut to one slice of them in the parameters cell), **wide** CSV/Parquet with one column per
# system (the layout of the paired paper's code {cite:p}`peyrard2021bteval`), a **score file** of Google's
# mt-metrics-eval {cite:p}`mtmetricseval` (system, a tab, the score, per line), or — on the command line and in
# the section on pairwise judgments below — **pairwise judgments** (`model_a, model_b, winner`). Systems scored on
# different instances are compared pair by pair on the instances both have (the section on incomplete files
# below). A file that cannot be compared fairly — a missing or repeated column, a duplicated (instance, system) row,
# a non-numeric, infinite or date score, fewer than two systems — stops with an error naming the file and the line
# or column.

# %% tags=["parameters"]
# relative paths are read from the repository root
scores_path = "examples/topicalchat_chrfpp.csv"  # your score file
format = "auto"  # "auto", "long", "wide" or "mtme"
# long format with several metrics: {"metric": "BLEU"} keeps one slice of the file
where = None
# systems scored on different instances: "pairwise" (auto's choice) compares each pair
# on the instances both have; "intersect" keeps the common ones; "exact" refuses
align = "auto"
lower_is_better = False  # True for error metrics (TER, MQM): the lowest ranks first
# BT and Elo: a tie is half a win ("half") or a win for the later column
# ("loss", the paired paper's code)
ties = "half"
seed = 2021  # the bootstrap's random stream
n_resamples = 1000  # bootstrap resamples (over instances) for MEAN, MEDIAN and BT
n_resamples_sequential = 100  # ... for Elo and TrueSkill (they replay every game)
alpha = 0.05  # level of the pairwise tests (after Holm's adjustment over the pairs)
incomplete_path = "examples/wmt20_zhen_incomplete.csv"  # systems on different instances
# pairwise judgments (model_a, model_b, winner)
judgments_path = "examples/llmfao_judgments.csv"
# the SummEval aspect of the LLM-judge example: "coherence", "consistency", "fluency", "relevance"
judge_aspect = "relevance"
# where artefacts go (the batch runner passes its staging folder; None: scratch/, by hand)
output_root = None

# %% tags=["hide-input"]
import numpy as np
from IPython.display import Markdown, display

from analysis.chapters import your_own_scores as ch
from analysis.chapters.common import glue_values, outputs
from analysis.compare import compare, figures, report
from analysis.plotting import set_theme, show

set_theme()
out = outputs(ch, globals())
scores = ch.load(scores_path, format, where=where, align=align)
glue_values({
    "file_path": f"`{scores_path}`",
    "file_systems": scores.shape[1],
    "file_instances": scores.shape[0],
    "file_present": int(scores.notna().to_numpy().sum()),
    "file_cells": scores.size,
    "file_direction": "lower is better" if lower_is_better else "higher is better",
})

# %% [markdown]
# **{glue:text}`file_systems` systems × {glue:text}`file_instances:,` test instances** read from
# {glue:md}`file_path`, {glue:text}`file_present:,` of their {glue:text}`file_cells:,` scores present (where some
# are missing, each pair of systems is compared on the instances both have); {glue:md}`file_direction`, and every
# mechanism ranks the best first.

# %% [markdown]
# ## Which system is best, and by how much?
#
# Five aggregation mechanisms, each with a 95% percentile-bootstrap interval over test instances (the test set is
# resampled with replacement; {cite:t}`peyrard2021better` §2–3, Appendix G):
#
# * **{term}`MEAN`** and **{term}`MEDIAN`** summarise each system's scores on their own;
# * **{term}`BT`** (Bradley–Terry, {cite:t}`bradley1952rank`) is fitted to the instance-by-instance comparisons of every
#   pair of systems; its strengths sum to 1 and λ<sub>A</sub> / (λ<sub>A</sub> + λ<sub>B</sub>) is the modelled
#   chance that *A* beats *B*;
# * **{term}`Elo`** {cite:p}`elo1978rating` and **{term}`TrueSkill`** {cite:p}`herbrich2007trueskill` rate the same
#   comparisons one game at a time; since their result depends on the order of the games, both the estimate and every
#   resample are averaged over random orders, so that each estimate lies inside its interval.
#
# Beside BT, each system's 95% interval of its rank (over the same resamples) and its statistically tied group: a
# new group starts at a system that every system of the group above beats significantly (sign test, adjusted for
# the number of pairs). The ranks column gives each system's rank under the five mechanisms in that order.

# %%
result = compare(scores, ties=ties, rng=seed, n_resamples=n_resamples,
                 n_resamples_sequential=n_resamples_sequential, alpha=alpha,
                 lower_is_better=lower_is_better)
out.table(result.systems, "yours_systems")
for view in ch.ranking_views(result):
    show(view)
mine = ch.page_numbers(result, alpha)
glue_values({
    "yours_systems": mine["systems"],
    "yours_instances": mine["instances"],
    "yours_pairs": mine["pairs"],
    "yours_resamples": mine["resamples"],
    "yours_resamples_sequential": mine["resamples_sequential"],
    "yours_orders": mine["orders"],
    "yours_alpha": alpha,
    "yours_sign_different": mine["sign_different"],
    "yours_wilcoxon_different": mine["wilcoxon_different"],
    "yours_groups": mine["groups"],
    "yours_mechanism_pairs": mine["mechanism_pairs"],
    "yours_best_differs": mine["best_differs"],
    "yours_top3_differs": mine["top3_differs"],
    "yours_pairs_ordered_differently": mine["pairs_ordered_differently"],
    "yours_best": ch.best_by_mechanism(result),
    "yours_adjustment": ch.ADJUSTMENTS[result.settings["adjust"]],
    "yours_interval": ch.INTERVALS[result.settings["interval"]],
    "label_chars": figures.LABEL_CHARS,
})

# %% tags=["hide-input"]
out.figure(figures.plot_mechanisms(result), "yours_mechanisms")

# %% [markdown]
# ```{glue:figure} yours_mechanisms
# :name: yours_mechanisms
# :figclass: compendium-figure
# :alt: Each mechanism's score for each system with its 95% interval, systems in BT's order.
#
# Each mechanism's score for each of the {glue:text}`yours_systems` systems with its 95% {glue:md}`yours_interval`
# interval over the {glue:text}`yours_instances:,` test instances ({glue:text}`yours_resamples:,` resamples for MEAN,
# MEDIAN and BT, {glue:text}`yours_resamples_sequential:,` for Elo and TrueSkill); systems in BT's order, best first.
# Elo and TrueSkill are averaged over {glue:text}`yours_orders` random orders of the games (each resample over one),
# so neither depends on the file's order; every interval contains its estimate.
#
# The scales differ: MEAN and MEDIAN are in the score's units, BT strengths sum to 1, Elo and TrueSkill are ratings.
# In the figure, names longer than {glue:text}`label_chars` characters are cut short (…) and names its fonts cannot
# draw are shown by their row in the table (#k); the table has them whole.
# ```

# %% [markdown]
# ## Which differences are real?
#
# For each pair, the share of test instances on which the row system scores higher (a tie counts half) — the
# pairwise view the paired paper recommends (its Fig. 5) — with the sign test, ties dropped (the conventional
# version; {cite:t}`coakley1996versions` review the others; a tie adds half to both sides of the share, so the test
# of wins against losses is a test of whether the share differs from ½), and Wilcoxon's
# signed-rank test (which also weighs the size of the differences). With many systems, many pairs are tested, so
# the p-values are adjusted for their number (Holm's step-down method, which keeps the chance of any false
# finding below the level; Benjamini–Hochberg's, which keeps the share of false findings below it, is an option).

# %% tags=["hide-input"]
out.table(result.prob, "yours_prob_better")
out.table(result.sign_p, "yours_sign_test_p")
out.table(result.wilcoxon_p, "yours_wilcoxon_p")
out.table(result.sign_p_adj, "yours_sign_test_p_adjusted")
out.table(result.wilcoxon_p_adj, "yours_wilcoxon_p_adjusted")
out.figure(figures.plot_prob(result, alpha), "yours_pairwise")

# %% [markdown]
# ```{glue:figure} yours_pairwise
# :name: yours_pairwise
# :figclass: compendium-figure
# :alt: For each pair of systems, the share of test instances on which the row system scores higher.
#
# For each pair of the {glue:text}`yours_systems` systems, the share of test instances on which the row system scores
# higher (a tie counts half); * marks the pairs the sign test finds different at p < {glue:text}`yours_alpha:g`
# ({glue:text}`yours_sign_different` of {glue:text}`yours_pairs`), † those Wilcoxon's signed-rank test does
# ({glue:text}`yours_wilcoxon_different` of {glue:text}`yours_pairs`), with {glue:md}`yours_adjustment` adjustment for
# the number of pairs. Systems in BT's order, best first.
#
# The paired paper's Fig. 5 draws the same pairwise view with BT's modelled probabilities
# {cite:p}`peyrard2021better`; here the observed shares.
# ```

# %% [markdown]
# ## Do the mechanisms agree on this data?
#
# The paired paper's Table 1 measures, on this one setup: the share of system pairs two mechanisms order
# differently ((1 − Kendall τ<sub>b</sub>) / 2), and whether they pick a different best system or a different top-3
# set.

# %%
out.table(result.disagreement, "yours_disagreement")
show(ch.disagreement_view(result), 2)

# %% [markdown]
# The best system by each mechanism — {glue:md}`yours_best`. {glue:text}`yours_best_differs` of the
# {glue:text}`yours_mechanism_pairs` pairs of mechanisms disagree on the best system and
# {glue:text}`yours_top3_differs` on the top-3 set; on average they order
# {glue:text}`yours_pairs_ordered_differently:.0%` of the system pairs differently. Read this against the tests
# above: the sign tests find {glue:text}`yours_sign_different` of the {glue:text}`yours_pairs` pairs of systems
# different (with {glue:md}`yours_adjustment` adjustment); the number of statistically tied groups they split the
# systems into is {glue:text}`yours_groups`. Where the systems a mechanism ranks first are in one tied group, the
# mechanisms' disagreement on the best system is within the noise of this test set, not a difference between the
# mechanisms.

# %% [markdown]
# ## Is the ranking stable when the field changes?
#
# {cite:t}`knowles2021stability` asks whether a ranking changes when a system that is not being compared is added or
# removed. Here each mechanism is re-run without its best and without its worst system, and the pairs of remaining
# systems it now orders differently are counted. MEAN and MEDIAN score each system alone, so they never change;
# BT, Elo and TrueSkill fit all systems together and can (the paper's Appendix F).

# %% tags=["hide-output"]
out.table(result.stability, "yours_stability", index=False)
show(report.stability_summary(result))

# %% [markdown]
# ## When systems are scored on different instances
#
# Real evaluations are rarely complete: human raters, WMT's direct assessment, arenas and LLM-judge runs score each
# system on a different subset of the test set. Dropping every instance some system lacks can throw most of the data
# away; instead, every pair of systems is compared on the instances both have. Bradley–Terry, Elo and TrueSkill need
# no complete matrix: they are fitted to all these comparisons. MEAN and MEDIAN then average different instances per
# system and are not comparable; the **adjusted mean** is: it fits score = instance difficulty + system effect to the
# scores present (a two-way additive model) and reports each system's effect on the average instance. The example is
# a slice of WMT20 Chinese→English's official segment scores {cite:p}`barrault2020findings` (its provenance is in
# the examples folder's README).

# %% tags=["hide-output"]
partial = compare(ch.load(incomplete_path), rng=seed, n_resamples=n_resamples,
                  n_resamples_sequential=n_resamples_sequential, alpha=alpha)
out.table(partial.systems, "yours_incomplete_systems")
out.table(partial.common, "yours_incomplete_common")
for view in ch.ranking_views(partial):
    show(view)

# %% tags=["hide-input"]
common = partial.common.to_numpy()[np.triu_indices(len(partial.common), 1)]
part = ch.page_numbers(partial, alpha)
glue_values({
    "incomplete_systems": part["systems"],
    "incomplete_instances": part["instances"],
    "incomplete_resamples": part["resamples"],
    "incomplete_resamples_sequential": part["resamples_sequential"],
    "incomplete_least": int(partial.systems["instances"].min()),
    "incomplete_most": int(partial.systems["instances"].max()),
    "incomplete_pair_least": int(common.min()),
    "incomplete_pair_most": int(common.max()),
    "incomplete_comparisons": int(partial.settings["n_comparisons"]),
    "incomplete_moved": ch.places_moved(partial),
})
out.figure(figures.plot_mechanisms(partial), "yours_incomplete_mechanisms")

# %% [markdown]
# ```{glue:figure} yours_incomplete_mechanisms
# :name: yours_incomplete_mechanisms
# :figclass: compendium-figure
# :alt: Each mechanism's score for each system of the incomplete example with its 95% interval.
#
# The incomplete example: each mechanism's score for each of the {glue:text}`incomplete_systems` systems with its 95%
# percentile-bootstrap interval over the {glue:text}`incomplete_instances:,` segments
# ({glue:text}`incomplete_resamples:,` resamples, {glue:text}`incomplete_resamples_sequential:,` for Elo and
# TrueSkill). MEAN and MEDIAN average each system's own segments, so they are not comparable between systems; BT, Elo
# and TrueSkill are fitted to every pair's shared segments. Systems in BT's order, best first. In the figure, long
# names are cut short (…); the table has them whole.
# ```

# %% [markdown]
# Each system is scored on {glue:text}`incomplete_least:,` to {glue:text}`incomplete_most:,` of the
# {glue:text}`incomplete_instances:,` instances, and each pair of systems shares {glue:text}`incomplete_pair_least:,`
# to {glue:text}`incomplete_pair_most:,` of them: BT, Elo, TrueSkill, P(A > B) and the tests use every pair's shared
# instances ({glue:text}`incomplete_comparisons:,` comparisons in all). MEAN's order and the adjusted mean's differ
# in {glue:text}`incomplete_moved` of the {glue:text}`incomplete_systems` places: where they differ, MEAN rewards
# the systems that happened to be scored on easier instances.

# %% [markdown]
# ## Pairwise judgments
#
# Arena-style and LLM-judge evaluations record judgments, not scores: which of two systems' outputs was better, or
# a tie. Such a file (columns `model_a`, `model_b`, `winner`, optionally `weight`) is compared with BT, Elo,
# TrueSkill and the average win rate, each with an interval over judgments; the tests are sign tests per pair. The
# example is every judgment between the eight most-judged models of llmfao {cite:p}`ustalov2023llmfao`.

# %% tags=["hide-output"]
from analysis.compare.judgments import compare_judgments

judged = compare_judgments(ch.load_judgments(judgments_path), rng=seed,
                           n_resamples=n_resamples,
                           n_resamples_sequential=n_resamples_sequential, alpha=alpha)
out.table(judged.systems, "yours_judgments_systems")
out.table(judged.prob, "yours_judgments_prob_better")
for view in ch.ranking_views(judged):
    show(view)

# %% tags=["hide-input"]
judged_numbers = ch.page_numbers(judged, alpha)
glue_values({
    "judged_systems": judged_numbers["systems"],
    "judged_instances": judged_numbers["instances"],
    "judged_resamples": judged_numbers["resamples"],
    "judged_resamples_sequential": judged_numbers["resamples_sequential"],
    "judged_orders": judged_numbers["orders"],
    "judged_groups": judged_numbers["groups"],
    "judged_adjustment": ch.ADJUSTMENTS[judged.settings["adjust"]],
    "judged_widest": ch.widest_rank_intervals(judged),
})
out.figure(figures.plot_mechanisms(judged), "yours_judgments_mechanisms")

# %% [markdown]
# ```{glue:figure} yours_judgments_mechanisms
# :name: yours_judgments_mechanisms
# :figclass: compendium-figure
# :alt: Each mechanism's score for each model of the pairwise-judgment example with its 95% interval.
#
# Each mechanism's score for each of the {glue:text}`judged_systems` models of the pairwise example with its 95%
# percentile-bootstrap interval over its {glue:text}`judged_instances:,` judgments
# ({glue:text}`judged_resamples:,` resamples, {glue:text}`judged_resamples_sequential:,` for Elo and TrueSkill, which
# are averaged over {glue:text}`judged_orders` random orders of the judgments); models in BT's order, best first. The
# win rate is each model's share of wins (ties half) averaged over its opponents, as evalica
# {cite:p}`ustalov2025evalica` computes it. In the figure, long names are cut short (…); the table has them whole.
# ```

# %% [markdown]
# {glue:text}`judged_systems` systems and {glue:text}`judged_instances:,` judgments. With
# {glue:md}`judged_adjustment` adjustment for the number of pairs, the number of statistically tied groups the sign
# tests split them into is {glue:text}`judged_groups`; the widest 95% rank interval is
# {glue:md}`judged_widest`.

# %% [markdown]
# ## Human ratings beside the scores
#
# Given human ratings of the same instances and systems, the command also asks whether the scores agree with the
# humans: the sample-level sign accuracy (the share of instance pairs both order the same way) and the system-level
# one (the share of system pairs with the same winner), each with a {term}`Wilson interval`, and, per pair of systems,
# the {term}`Favi-Score` of {cite:t}`vondaniken2024favi` — does the metric favour one of the two relative to the humans?
# — with a bootstrap interval and a permutation test, computed by the same functions as the Favi-Score chapter:
#
# ```bash
# .venv/bin/python -m analysis compare metric_scores.csv --human human_ratings.csv
# ```
#
# ## An LLM judge against human experts
#
# An automatic judge is a preference metric, the case the Favi-Score was made for: given the humans' verdicts on the
# same items and pairs of systems (`--human`, both files with an item-id column), the command reports how often the
# judge agrees with them and, per pair of systems, whether its errors favour one of the two. A per-judgment covariate
# can also be taken out of the ranking (`--covariates`, the "style control" of arena leaderboards): BT is fitted
# jointly with it, and the covariate's coefficient says how much it sways the judge.
#
# The example is real: ChatGPT's head-to-head verdicts on SummEval summaries {cite:p}`wu2023large`, each pair of
# summaries shown in both orders, against the mean ratings of SummEval's experts {cite:p}`fabbri2021summeval` for
# the same aspect (equal means are a tie), with a covariate that is 1 in every judgment: the summary shown first.
# Its coefficient is the judge's preference for the first position in log-odds, which the two orders make
# measurable. The command below reruns the example from the chapter's two files, linked after it:
#
# ```bash
# .venv/bin/python -m analysis compare yours_llm_judge.csv \
#     --human yours_llm_experts.csv --covariates first
# ```

# %% tags=["hide-input"]
from analysis.compare.human import judge_table
from analysis.data import load_table
from analysis.data.scorefiles import read_judgments

judge_file, experts_file = ch.llm_judge_files(load_table("favi_llm_h2h"), judge_aspect)
out.table(judge_file, "yours_llm_judge", index=False)
out.table(experts_file, "yours_llm_experts", index=False)
judge = read_judgments(out.dir / "yours_llm_judge.csv", item=True, covariates=["first"])
experts = read_judgments(out.dir / "yours_llm_experts.csv", item=True)
common = dict(rng=seed, n_resamples=n_resamples, n_resamples_sequential=n_resamples_sequential, alpha=alpha)
judged_llm = compare_judgments(judge, covariates=["first"], **common)
judged_experts = compare_judgments(experts, **common)
agreement, overall = judge_table(judge, experts, n_resamples=n_resamples, rng=seed)
out.table(agreement, "yours_llm_judge_vs_experts", index=False)
position = judged_llm.settings["covariates"]["first"]
out.table(ch.position_table(position), "yours_llm_judge_position")
glue_values({
    "judge_items": overall["items"],
    "judge_accuracy": overall["sample_accuracy"],
    "judge_accuracy_low": overall["sample_accuracy_low"],
    "judge_accuracy_high": overall["sample_accuracy_high"],
    "judge_pairs": overall["pairs"],
    "judge_system_accuracy": overall["system_accuracy"],
    "position_coef": position["coef"],
    "position_low": position["low"],
    "position_high": position["high"],
})

# %% tags=["remove-input"]
display(Markdown(f"The judge's verdicts: {out.download('yours_llm_judge')}; the experts': "
                 f"{out.download('yours_llm_experts')}."))

# %% tags=["remove-input", "hide-output"]
show(ch.llm_judge_ranking(judged_llm, judged_experts))
show(ch.agreement_view(agreement))

# %% [markdown]
# Over {glue:text}`judge_items:,` items the judge gives the experts' verdict on {glue:text}`judge_accuracy:.1%`
# (95% interval {glue:text}`judge_accuracy_low:.1%` to {glue:text}`judge_accuracy_high:.1%`; a tie is a verdict of
# its own, as in the Favi-Score chapter), and it names the same winner as the experts for
# {glue:text}`judge_system_accuracy:.0%` of the {glue:text}`judge_pairs` pairs of systems. The first position's
# coefficient is {glue:text}`position_coef:+.2f` (95% interval {glue:text}`position_low:+.2f` to
# {glue:text}`position_high:+.2f`): positive values mean that the judge prefers whichever summary it reads first.
# Every pair is shown in both orders equally often, which already balances position in the plain ranking: here the
# covariate measures the bias more than it corrects the ranking. The first table sets the judge's plain and
# position-controlled BT strengths beside the experts'; the second gives
# each pair's Favi-Score (positive: the judge favours system A relative to the experts) and the judge's accuracy on
# its items. Items are (document, order), so the two orders of one document count as two items; their verdicts are
# not independent, and the intervals are somewhat too narrow for it.
#
# ## Limits
#
# * **Elo and TrueSkill intervals** use fewer resamples than MEAN, MEDIAN and BT (the parameters cell sets both
#   numbers; the first figure's caption gives them), because each resample replays every game; their intervals are
#   therefore coarser.
# * **Order dependence.** The paper's tool plays Elo's and TrueSkill's games in one fixed order (pairs in column
#   order, instances in row order); here they are averaged over random orders instead, so they can differ from the
#   paper's tool on the same data (the compendium's chapters on the paired paper use the paper's order).
