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
# # Beyond the papers: each paper's question asked of the others' data
#
# The four papers each look at one corner of one question: how should per-instance evaluation results become a
# ranking we can trust? {cite:t}`peyrard2021better` compare aggregation mechanisms on simulated and real setups,
# {cite:t}`knowles2021stability` asks whether WMT's rankings survive the removal of a system,
# {cite:t}`vondaniken2024favi` measure how much an automatic rater favours one system of a pair, and
# {cite:t}`levtsov2025confidence` ask how many comparisons and which tie handling a pairwise ranking needs. None
# tests its claims on the others' data. This chapter does, in four studies, each with a figure, a table and
# conclusions computed from the numbers; each conclusion is also a row of the claims registry, with the hypothesis
# it tests in place of a published value. A short guide for practitioners closes the chapter.
#
# ```{include} ../claims/06_synthesis.md
# ```

# %% tags=["parameters"]
seed = 29
collections = None  # None: every collection of the paired chapter's real setups; or a list such as ["TAC", "WMT19"]
metrics = ["ROUGE_L"]  # studies 1 and 4: the metric of each setup (None: every metric; ROUGE-L scores every dataset)
iia_triples = 50  # study 1: random triples of systems per setup in the IIA search
sim_datasets = 10  # study 1: simulated datasets per cell of the small simulation grid
wmt_collections = None  # study 2: None for every SR+DC collection of the WMT judgments
null_draws = 10  # study 2: random mid-ranked systems removed per language pair (the matched null)
favi_datasets = ["wmt22-ende", "wmt22-zhen", "wmt21-ende", "summeval", "usr-tc", "usr-pc"]  # study 3
n_resamples = 1000  # study 3: bootstrap resamples over settings
sweep_sizes = [10, 30, 100, 300, 1000, 3000, 10000]  # study 4: comparisons per system pair
sweep_trials = 50  # study 4: draws per setup, size and policy
tie_probabilities = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]  # study 4: injected tie probabilities
output_root = None  # where artefacts go (the batch runner passes its staging folder; None: scratch/, for runs by hand)

# %% tags=["hide-input"]
import pandas as pd
from IPython.display import Markdown, display

from analysis.chapters import synthesis
from analysis.chapters.common import Timings, glue_values, glue_verdicts, metric_label, outputs
from analysis.chapters.synthesis import favoritism, stability, ties, wmt_pairs
from analysis.comparisons import TIE_WORDS
from analysis.data import load_table
from analysis.data.paired import iter_setups
from analysis.data.tables import sidecar_path
from analysis.files import sha256_file
from analysis.plotting import MECHANISM_LABELS, set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(synthesis, globals(), data={f"{t}.json (sha256 of the table's input list)": sha256_file(sidecar_path(t))
                                          for t in ("paired_setups", "wmt_judgments", "favi_scores")})
paired = load_table("paired_setups")
if metrics is not None:
    paired = paired[paired["metric"].isin(metrics)]
setups = list(iter_setups(paired, collections))
timings = Timings()
scored_with = ", ".join(map(metric_label, metrics)) if metrics else "every metric"
glue_values({"n_setups": len(setups), "n_setup_datasets": len({key[:2] for key, _ in setups}),
             "scored_with": scored_with})

# %% [markdown]
# (synthesis-stability)=
# ## Study 1 — stability against robustness
#
# Knowles' test asks whether a ranking of the other systems changes when the best or the worst system is removed;
# Appendix F of the paired paper asks whether {term}`BT`'s order of two systems changes when a third is added (a
# violation of the independence of irrelevant alternatives, *{term}`IIA`*). Both are run here with all five mechanisms
# (ties as half a win) on the paired chapter's real setups, the same ones as Study 4: {glue:text}`n_setups` setups from
# {glue:text}`n_setup_datasets` datasets, scored with {glue:md}`scored_with`. Beside them, each mechanism's agreement
# with the latent ranking and its loss of agreement when outliers are added, from a fresh small run of the paired
# paper's simulation, under both of its outlier models (the text's scores permuted across systems, and the
# published code's adversarial scores that rank the systems roughly upside down). {term}`MEAN` and {term}`MEDIAN` score
# each system on its own column, so they cannot reorder the others: their rows are computed like the rest, as a check on
# the machinery.

# %%
with timings.measure("Study 1: remove-a-system and IIA on the real setups"):
    removal, iia = stability.real_setup_tests(setups, iia_triples, stream(seed, "study1 iia"))
with timings.measure("Study 1: simulation"):
    sim = stability.simulation(seed, sim_datasets)
out.table(removal, "synthesis_stability_removal", index=False)
out.table(iia, "synthesis_stability_iia", index=False)
out.table(sim, "synthesis_stability_simulation", index=False)
trade = out.table(stability.tradeoff(removal, iia, sim), "synthesis_stability_tradeoff", index=False)
show(trade.drop(columns=["scores_alone", "reordered_any", "tau_drop"]).rename(columns={
    "reordered_best": "reordered, best removed", "reordered_worst": "reordered, worst removed",
    "iia_violation_share": "IIA violations", "tau_clean": "τ, no outliers", "tau_drop_permute": "τ lost, permuted",
    "tau_drop_adversarial": "τ lost, adversarial"}).assign(mechanism=trade["mechanism"].map(MECHANISM_LABELS))
     .set_index("mechanism"), 3)
by_mechanism = trade.set_index("mechanism")
glue_values({
    "s1_bt_reordered_any": by_mechanism.loc["bt", "reordered_any"],
    "s1_elo_reordered_any": by_mechanism.loc["elo", "reordered_any"],
    "s1_trueskill_reordered_any": by_mechanism.loc["trueskill", "reordered_any"],
    "s1_bt_iia_violation_share": by_mechanism.loc["bt", "iia_violation_share"],
    "s1_elo_iia_violation_share": by_mechanism.loc["elo", "iia_violation_share"],
    "s1_trueskill_iia_violation_share": by_mechanism.loc["trueskill", "iia_violation_share"],
    "s1_most_robust": MECHANISM_LABELS[by_mechanism["tau_drop"].idxmin()],
    "s1_closest": MECHANISM_LABELS[by_mechanism["tau_clean"].idxmax()],
})

# %% tags=["hide-input"]
out.figure(stability.plot_tradeoff(trade), "synthesis_stability_tradeoff")
glue_values({"s1_sim_setups": len(sim), "iia_triples": iia_triples})

# %% [markdown]
# ```{glue:figure} synthesis_stability_tradeoff
# :name: synthesis_stability_tradeoff
# :figclass: compendium-figure
# :alt: Each mechanism's share of real setups reordered by removing a system, against its tau in a simulation.
#
# Stability against robustness for the five mechanisms. Horizontal: the share of {glue:text}`n_setups` real setups of
# the paired chapter whose remaining systems are reordered when the mechanism's best or worst system is removed (the
# mean of the two). Vertical: (a) Kendall τ to the latent ranking and (b) the τ lost between no outliers and the most
# (2.5%) adversarial outliers of the paper's published code, in {glue:text}`s1_sim_setups` simulated setups of the
# paired paper's generator on a small grid. Squares: MEAN and MEDIAN, which score each system alone and so sit at zero
# on the horizontal axis (a check on the machinery). No paper draws this; the IIA search
# ({glue:text}`iia_triples` random triples per setup) is in the table.
# ```

# %% [markdown]
# Of the mechanisms that compare systems, BT reorders the remaining systems in
# {glue:text}`s1_bt_reordered_any:.0%` of the setups when their best or their worst system is removed (averaged over
# the two), {term}`Elo` in {glue:text}`s1_elo_reordered_any:.0%` and {term}`TrueSkill` in
# {glue:text}`s1_trueskill_reordered_any:.0%`. The hypothesis that BT, whose strengths do not depend on the order of the
# comparisons, is the most stable of the three **{glue:md}`verdict-s1-bt-most-stable:myst`**. BT violates the
# independence of irrelevant alternatives in {glue:text}`s1_bt_iia_violation_share:.1%` of the checked triples, Elo in
# {glue:text}`s1_elo_iia_violation_share:.1%` and TrueSkill in {glue:text}`s1_trueskill_iia_violation_share:.1%`; that
# BT's violations are rare on real setups, not only in the appendix's constructed example,
# **{glue:md}`verdict-s1-bt-iia:myst`**. Apart from the hypotheses, the sanity line: MEAN and MEDIAN never reorder the
# others (their largest share of setups reordered is {glue:text}`value-alone_reordered_max:.0%`), a check of the code,
# which stops the chapter if it fails, not a finding.
#
# In the simulation, {glue:md}`s1_most_robust` loses the least agreement with the latent ranking to adversarial
# outliers, and {glue:md}`s1_closest` is the closest to the latent ranking without them. The published code's
# adversarial outliers cost BT {glue:text}`value-bt_tau_drop:.2f` of Kendall {term}`τ <Kendall's tau (τ)>` and MEAN
# {glue:text}`value-mean_tau_drop:.2f`; the text's permuted outliers cost them
# {glue:text}`value-bt_tau_drop_permute:.2f` and {glue:text}`value-mean_tau_drop_permute:.2f`. That BT loses less than
# MEAN to the adversarial outliers **{glue:md}`verdict-s1-outliers:myst`**.

# %% [markdown]
# (synthesis-wmt)=
# ## Study 2 — paired comparisons inside WMT
#
# WMT's direct assessments score one translation at a time, and the official ranking averages each worker's
# standardised scores. But one worker scores several systems in one {term}`HIT`, so the same data imply paired
# preferences: the worker's mean score of one system against their mean score of another in the same HIT.
# Bradley–Terry on these preferences and the official z-score means then go through Knowles' perturbations on the
# document-context ({term}`SR+DC`) data. A matched null removes a random system from the middle of both rankings instead
# of an end.

# %%
wmt_table = load_table("wmt_judgments")
with timings.measure("Study 2: WMT perturbations, z-means and paired BT"):
    wmt_runs, language_pairs = wmt_pairs.sr_dc_study(wmt_table, null_draws, stream(seed, "study2 null"),
                                                     wmt_collections)
same_segment = wmt_pairs.same_segment_pairs(wmt_table[wmt_table["style"] == "SR+DC"])
out.table(wmt_runs, "synthesis_wmt_runs", index=False)
out.table(language_pairs, "synthesis_wmt_pairs", index=False)
wmt_summary = out.table(wmt_pairs.summary(wmt_runs), "synthesis_wmt_summary", index=False)
wmt_null = out.table(wmt_pairs.ends_against_null(wmt_runs), "synthesis_wmt_ends_against_null", index=False)
show(wmt_summary.assign(experiment=wmt_summary["experiment"].map(wmt_pairs.EXPERIMENT_LABELS),
                        mechanism=wmt_summary["mechanism"].map(wmt_pairs.MECHANISMS)).rename(columns={
    "runs": "rankings", "reordered": "share reordered", "pairs_reordered": "system pairs reordered"}), 3)
glue_values({
    "wmt_language_pairs": len(language_pairs),
    "wmt_preferences": int(language_pairs["preferences"].sum()),
    "wmt_tie_share": language_pairs["preferences"].mul(language_pairs["tie_share"]).sum()
    / language_pairs["preferences"].sum(),
    "wmt_same_segment": same_segment,
    "wmt_ordered_differently": language_pairs["pairs_ordered_differently"].sum()
    / language_pairs["system_pairs"].sum(),
})

# %% tags=["hide-input"]
out.figure(wmt_pairs.plot_wmt(wmt_summary), "synthesis_wmt_perturbations")
glue_values({"null_draws": null_draws})

# %% [markdown]
# ```{glue:figure} synthesis_wmt_perturbations
# :name: synthesis_wmt_perturbations
# :figclass: compendium-figure
# :alt: Share of WMT rankings reordered by each perturbation, for z-score means and for BT on paired preferences.
#
# Knowles' perturbations on {glue:text}`wmt_language_pairs` SR+DC language pairs (WMT21–22 to English
# {cite:p}`akhbardeh2021findings,kocmi2022findings` and the 2021 Facebook Wikipedia pairs, all counted in the
# {glue:text}`wmt_language_pairs`; removing HUMAN and REF applies only to the pairs that have them): the share of
# rankings whose remaining order changes, for the official z-score means and for Bradley–Terry on the paired
# preferences of the same judgments (a worker's mean score of two systems in one HIT, ties as half). The null removes
# a random system that neither mechanism ranks first or last ({glue:text}`null_draws` draws per pair). Knowles
# compared clusters too; here only the order is.
# ```

# %% [markdown]
# The {glue:text}`wmt_language_pairs` SR+DC language pairs hold {glue:text}`wmt_preferences:,` paired preferences
# (one per worker, HIT and pair of systems both scored in it; {glue:text}`wmt_tie_share:.1%` ties) and
# {glue:text}`wmt_same_segment` cases of a worker scoring two systems on the same segment. Before any perturbation,
# z-means and paired BT order {glue:text}`wmt_ordered_differently:.0%` of the system pairs differently.
#
# Removing the best or the worst system changes the remaining order of the z-score ranking in
# {glue:text}`value-z_ends_reordered:.0%` of the cases and of BT on paired preferences in
# {glue:text}`value-bt_ends_reordered:.0%`: the hypothesis that paired aggregation is the more stable
# **{glue:md}`verdict-s2-paired-more-stable:myst`**. The matched null, removing a random mid-ranked system, reorders
# z-means in {glue:text}`value-z_null_reordered:.0%` and BT in {glue:text}`value-bt_null_reordered:.0%` of the draws.
# That removing an end of the z ranking disturbs it more than removing a mid-ranked system (one-sided
# {term}`Wilcoxon signed-rank test` over the language pairs, each pair's ends against its own null draws: p =
# {glue:text}`value-z_ends_null_p:.2g`) **{glue:md}`verdict-s2-ends-above-null:myst`**.

# %% [markdown]
# (synthesis-favi)=
# ## Study 3 — favoritism and aggregation
#
# For every {term}`Favi-Score` dataset and every (human rating, automatic rater) of it, both are aggregated by each
# mechanism, and a system pair is *flipped* when the rater's ranking orders it differently from the human one.
# By Lemma 1 of {cite:t}`vondaniken2024favi`, a pair's {term}`Φ <Phi (Φ)>` times its number of errors is exactly the
# shift of its win margin; BT follows win margins, MEAN follows score sizes. So the hypothesis: BT's flips follow |Φ|
# more closely.

# %%
favi_scores = load_table("favi_scores")
with timings.measure("Study 3: mechanisms on human and automatic scores"):
    favi_pairs = favoritism.per_pair(favi_scores, favi_datasets)
    favi_summary = favoritism.summary(favi_pairs)
    favi_diff = favoritism.rho_difference(favi_pairs, n_resamples=n_resamples, rng=stream(seed, "study3 boot"))
out.table(favi_pairs, "synthesis_favi_pairs", index=False)
out.table(favi_summary, "synthesis_favi_summary", index=False)
out.table(pd.DataFrame([favi_diff]), "synthesis_favi_rho_difference", index=False)
show(favi_summary.drop(columns=["pairs", "phi_gap"]).rename(columns={
    "flipped_high_phi": "flipped, high |Φ|", "flipped_low_phi": "flipped, low |Φ|", "rho_abs_phi": "ρ(|Φ|, flip)",
    "with_phi": "flips Φ's way", "flipped_by_tie": "flipped through a tie", "human_tied": "tied by the humans"})
     .assign(mechanism=favi_summary["mechanism"].map(MECHANISM_LABELS))
     .set_index("mechanism"), 3)

# %% tags=["hide-input"]
glue_values({
    "favi_settings": favi_pairs.groupby(["dataset", "human", "rater"]).ngroups,
    "favi_pairs": int(favi_summary["pairs"].iloc[0]),
    "favi_datasets": favi_pairs["dataset"].nunique(),
    "favi_median_flipped": favi_summary.set_index("mechanism").loc["median", "flipped"],
})
out.figure(favoritism.plot_favoritism(favi_summary), "synthesis_favi_flips")

# %% [markdown]
# ```{glue:figure} synthesis_favi_flips
# :name: synthesis_favi_flips
# :figclass: compendium-figure
# :alt: Per mechanism, the share of system pairs a rater orders differently from humans, for small and large Phi.
#
# Favoritism and aggregation: for each mechanism, the share of system pairs that an automatic rater's ranking orders
# differently from the human ranking, among pairs with small and with large |Φ| (split at the median), over
# {glue:text}`favi_pairs:,` pairs in {glue:text}`favi_settings` (human rating, rater) settings of the Favi-Score
# datasets (as the Favi-Score chapter builds them; only items every system has both scores for).
#
# Not in any of the papers: von Däniken et al. report Φ per pair, not how it moves each mechanism's ranking.
# ```

# %% tags=["hide-input"]
by_dataset = out.table(favoritism.by_dataset(favi_pairs), "synthesis_favi_by_dataset", index=False)
display(Markdown("Per dataset and mechanism: " + out.download("synthesis_favi_by_dataset", "the flips and ρ") + "."))
median = favi_summary.set_index("mechanism").loc["median"]
tied_most = by_dataset[by_dataset["mechanism"] == "median"].set_index("dataset")["human_tied"]
glue_values({
    "favi_median_by_tie": median["flipped_by_tie"],
    "favi_median_untied": median["flipped"] - median["flipped_by_tie"],
    "favi_median_human_tied": median["human_tied"],
    "favi_median_tied_dataset": tied_most.idxmax(),
    "favi_median_tied_dataset_share": tied_most.max(),
})

# %% [markdown]
# Over {glue:text}`favi_pairs:,` system pairs in {glue:text}`favi_settings` (human rating, automatic rater)
# settings, the rater's ranking orders a pair differently from the human ranking for
# {glue:text}`value-mean_flipped:.0%` of the pairs under MEAN, {glue:text}`value-bt_flipped:.0%` under BT and
# {glue:text}`favi_median_flipped:.0%` under MEDIAN. MEDIAN's flips come mostly from ties:
# {glue:text}`favi_median_by_tie:.0%` of the pairs are flipped because one of the two median rankings ties them and
# the other does not. Human ratings that take few values (Likert points; {term}`MQM` error scores, zero for most
# segments) give many systems the same median: the human medians tie {glue:text}`favi_median_human_tied:.0%` of the
# pairs, and {glue:text}`favi_median_tied_dataset_share:.0%` of them on {glue:md}`favi_median_tied_dataset`. Without
# those ties MEDIAN flips {glue:text}`favi_median_untied:.0%` of the pairs. Flips go the way Φ says the rater favours in
# {glue:text}`value-bt_with_phi:.0%` of BT's flips and {glue:text}`value-mean_with_phi:.0%` of MEAN's: that BT's flips
# follow Φ's direction **{glue:md}`verdict-s3-flips-with-phi:myst`**.
#
# The Spearman correlation of |Φ| with BT's flips minus that with MEAN's is {glue:text}`value-bt_minus_mean_rho:+.3f`
# (95% interval over settings {glue:text}`value-bt_minus_mean_rho_low:+.3f` to
# {glue:text}`value-bt_minus_mean_rho_high:+.3f`). The hypothesis, that favoritism moves the BT ranking more than the
# mean ranking (the interval above zero), **{glue:md}`verdict-s3-bt-follows-phi:myst`**; an interval below zero would
# say the reverse, and one across zero that favoritism moves both alike.

# %% [markdown]
# (synthesis-ties)=
# ## Study 4 — ties and sample size on real setups
#
# {cite:t}`levtsov2025confidence` recommend {term}`12·m·ln m <twelve m ln m (12·m·ln m)>` comparisons per pair of *m*
# systems and count a tie as half a win. Here both are tried on the paired chapter's real setups: BT rankings from
# sampled comparisons against the setup's own BT ranking on all its instances, under the three tie policies, for numbers
# of comparisons around the recommendation and with ties injected as in the paper's Fig. 1.

# %%
with timings.measure("Study 4: sample-size and tie sweeps"):
    curves, tie_sweep, tie_costs = ties.study(setups, sweep_sizes, tie_probabilities, sweep_trials,
                                              stream(seed, "study4 sweeps"))
out.table(curves, "synthesis_ties_curves", index=False)
out.table(tie_sweep, "synthesis_ties_sweep", index=False)
out.table(tie_costs, "synthesis_ties_real_costs", index=False)
marker = out.table(ties.marker_summary(curves, tie_costs), "synthesis_ties_marker", index=False)
show(marker.assign(ties=marker["ties"].map(TIE_WORDS)).rename(columns={
    "ties": "tie policy", "every_instance": "setups taking every instance", "misplaced_share": "systems out of place",
    "stable_share": "stable setups",
    "rho_tie_rate": "ρ(tie rate, instability)"}).set_index("tie policy"), 3)
half = marker.set_index("ties").loc["half"]
glue_values({
    "ties_marker_setups": int(half["setups"]),
    "ties_stable_setups": int(round(half["stable_share"] * half["setups"])),
    "ties_every_instance": int(half["every_instance"]),
    "ties_real_setups": len(tie_costs),
    "ties_median_tie_rate": tie_costs["tie_rate"].median(),
})

# %% tags=["hide-input"]
out.figure(ties.plot_ties(curves, tie_sweep), "synthesis_ties_sweeps")
glue_values({"sweep_trials": sweep_trials})

# %% [markdown]
# ```{glue:figure} synthesis_ties_sweeps
# :name: synthesis_ties_sweeps
# :figclass: compendium-figure
# :alt: Share of systems out of place in BT rankings from sampled comparisons, by sample size and by injected ties.
#
# Ties and sample size on {glue:text}`n_setups` real setups (one per dataset, scored with {glue:md}`scored_with`): the
# share of systems whose BT position differs from the setup's own BT ranking on all instances, mean over setups of
# {glue:text}`sweep_trials` draws each, under the three tie policies. (a) against the number of comparisons per system
# pair, with each setup's value at 12·m·ln m (dots, ties as half); (b) at 12·m·ln m, against the probability that a
# drawn comparison is turned into a tie, as the global-vs-pairwise paper's Fig. 1 does on its data. Draws follow the
# paper's rule: with replacement from the setup's instances, or every instance once where the setup has no more than
# that (multinomial draws per pair, the same distribution as drawing instances).
# ```

# %% [markdown]
# At 12·m·ln m comparisons per pair, BT with ties as half wins leaves on average {glue:text}`value-misplaced_half:.0%`
# of a setup's systems out of place against its own ranking on all instances ({glue:text}`value-misplaced_drop:.0%`
# with ties dropped). Stable there, with at most a tenth of their systems out of place: {glue:text}`ties_stable_setups`
# of the {glue:text}`ties_marker_setups` setups ({glue:text}`value-stable_share_half:.0%`). Of these setups,
# {glue:text}`ties_every_instance` have no more test instances than 12·m·ln m: by the paper's rule every draw then
# takes each instance once and returns the setup's own ranking, so they are stable there by construction. The hypothesis
# that 12·m·ln m stabilises most of these rankings **{glue:md}`verdict-s4-marker-stable:myst`**.
#
# The setups' real ties (a median of {glue:text}`ties_median_tie_rate:.1%` of the comparisons) reorder
# {glue:text}`value-pairs_moved_drop:.1%` of the system pairs of the full-data ranking on average when dropped instead
# of halved, and {glue:text}`value-pairs_moved_loss:.1%` when given to the later system. That dropping them hardly
# changes the ranking **{glue:md}`verdict-s4-drop-vs-half:myst`**; that giving them to the later system, as the paired
# paper's code does, moves it more than dropping them **{glue:md}`verdict-s4-loss-costs:myst`**. Across setups, the tie
# rate and the instability at 12·m·ln m correlate with Spearman {term}`ρ <Spearman's rho (ρ)>` =
# {glue:text}`value-rho_tie_rate_half:.2f`. Turning {glue:text}`value-injected_probability:.0%` of the drawn comparisons
# into ties adds {glue:text}`value-half_injected_cost:.1%` of misplaced systems with ties as half wins and
# {glue:text}`ties_loss_injected_cost:.1%` when they go to the later system.

# %% tags=["hide-input"]
# the values the claims registry reads (data/published/claims/synthesis.toml), then its verdicts for the text
studies = {"stability": stability.stability_values(trade), "wmt": wmt_pairs.wmt_values(wmt_summary, wmt_null),
           "favoritism": favoritism.favoritism_values(favi_summary, favi_diff),
           "ties": ties.ties_values(marker, tie_costs, tie_sweep)}
for measures in studies.values():
    out.values(measures)
glue_values({"ties_loss_injected_cost": studies["ties"]["half_injected_cost"]
             + studies["ties"]["loss_injected_excess"]})
verdicts = glue_verdicts(out)

# %% [markdown]
# (synthesis-guide)=
# ## A practitioner's guide, from the numbers above
#
# Each recommendation rests on one of the studies and on the claims it names; where the setups, language pairs or
# settings behind it are few, it says how many.
#
# * **Mechanism.** MEAN and MEDIAN score each system on its own column, so adding or removing a system cannot
#   reorder the others. That holds by construction (the sanity check only confirms the code, and stops the chapter
#   if it fails) and says nothing about how well they rank. What was measured: against
#   the human rankings of Study 3, the rater's ranking orders {glue:text}`value-mean_flipped:.0%` of the system pairs
#   differently under MEAN, {glue:text}`value-bt_flipped:.0%` under BT and {glue:text}`favi_median_flipped:.0%` under
#   MEDIAN, where {glue:text}`favi_median_by_tie:.0%` of all pairs flip through tied medians: on ratings with few
#   distinct values, MEDIAN's ties decide its ranking, so report them as ties or rank by MEAN. Among the pairwise
#   mechanisms, take the one that reordered least when an end system was removed: BT reordered
#   {glue:text}`s1_bt_reordered_any:.0%` of the setups, Elo {glue:text}`s1_elo_reordered_any:.0%` and TrueSkill
#   {glue:text}`s1_trueskill_reordered_any:.0%` (BT the most stable of the three:
#   **{glue:md}`verdict-s1-bt-most-stable:myst`**). See {ref}`synthesis-stability` and {ref}`synthesis-favi`.
# * **Outliers.** In the simulation adversarial outliers cost BT {glue:text}`value-bt_tau_drop:.2f` and MEAN
#   {glue:text}`value-mean_tau_drop:.2f` of Kendall τ (BT the more robust: **{glue:md}`verdict-s1-outliers:myst`**).
#   Where a few instances may be wildly off, weigh that robustness against the pairwise mechanisms' instability
#   ({ref}`synthesis-stability`).
# * **Human judgments scored one system at a time (WMT {term}`DA`).** BT on preferences paired by worker and HIT
#   reordered {glue:text}`value-bt_ends_reordered:.0%` of the rankings when an end system was removed, the official
#   z-means {glue:text}`value-z_ends_reordered:.0%` (pairing the more stable:
#   **{glue:md}`verdict-s2-paired-more-stable:myst`**). Where pairing is not the more stable, keep the official z-means
#   and report their clusters; pairing is worth trying where the rating interface shows several systems on the same
#   segment (these judgments hold {glue:text}`wmt_same_segment` such cases; {ref}`synthesis-wmt`). Evidence:
#   {glue:text}`wmt_language_pairs` language pairs, with preferences across the documents of a HIT.
# * **Metric favoritism.** Spearman ρ of |Φ| with BT's errors minus that with MEAN's:
#   {glue:text}`value-bt_minus_mean_rho:+.3f` (95% interval {glue:text}`value-bt_minus_mean_rho_low:+.3f` to
#   {glue:text}`value-bt_minus_mean_rho_high:+.3f`; favoritism moves BT more:
#   **{glue:md}`verdict-s3-bt-follows-phi:myst`**). Whichever mechanism you use, check Φ per system pair
#   ({ref}`synthesis-favi`). Evidence: {glue:text}`favi_settings` settings in {glue:text}`favi_datasets` datasets.
# * **How many comparisons.** 12·m·ln m comparisons per pair left {glue:text}`value-misplaced_half:.0%` of the systems
#   out of place on these real setups (enough for most of them: **{glue:md}`verdict-s4-marker-stable:myst`**). Where
#   systems are close, draw more, or report BT's interval rather than a single order ({ref}`synthesis-ties`).
# * **Ties.** Count a tie as half a win or drop it: on these setups the two differ on
#   {glue:text}`value-pairs_moved_drop:.1%` of the system pairs. Counting it for one side makes the ranking depend on
#   the order of the columns; giving it to the later system, as the paired paper's code does, reordered
#   {glue:text}`value-pairs_moved_loss:.1%` of the pairs (more than dropping: **{glue:md}`verdict-s4-loss-costs:myst`**)
#   and put {glue:text}`value-loss_injected_excess:.0%` more of the systems out of place once ties are injected
#   ({ref}`synthesis-ties`). Evidence: {glue:text}`ties_real_setups` setups, scored with {glue:md}`scored_with`.

# %% [markdown]
# ## Run time

# %% tags=["hide-input"]
show(timings.table(), 1)

# %% [markdown]
# ## What does not hold, and what this chapter leaves out
#
# ```{include} ../claims/06_synthesis_differs.md
# ```
#
# What the chapter leaves out, and why:
#
# * **Setups.** By default studies 1 and 4 use one metric per dataset (ROUGE-L, which scores every dataset) to keep
#   the chapter within minutes; a rerun of the chapter can take the other metrics.
# * **Pairs inside WMT.** No worker scored two systems on the same segment or document in these packages, so the
#   paired preferences compare a worker's scores of two systems within one HIT, across its documents. Knowles'
#   division of the HUMAN systems' raw scores is left out: a worker's preference between two other systems does not
#   change with it, so for BT it moves only the preferences that involve a {term}`HUMAN system`.
# * **Clusters.** Knowles counts changes of significance clusters too; Study 2 counts only changes of order.
# * **Simulation.** Study 1's simulation is a small corner of the paired paper's grid (see its table), re-run here
#   rather than read from the simulation chapter.
