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

from analysis.chapters import synthesis as ch
from analysis.chapters.common import Timings, metric_label, outputs
from analysis.data import load_table
from analysis.data.tables import sidecar_path
from analysis.files import sha256_file
from analysis.plotting import MECHANISM_LABELS, set_theme, show
from analysis.streams import stream

set_theme()
out = outputs(ch, globals(), data={f"{t}.json (sha256 of the table's input list)": sha256_file(sidecar_path(t))
                                   for t in ("paired_setups", "wmt_judgments", "favi_scores")})
paired = load_table("paired_setups")
if metrics is not None:
    paired = paired[paired["metric"].isin(metrics)]
setups = list(ch.stability.iter_setups(paired, collections))
timings = Timings()
scored_with = ", ".join(map(metric_label, metrics)) if metrics else "every metric"
display(Markdown(f"Studies 1 and 4 use {len(setups)} real setups of the paired chapter: "
                 f"{len({key[:2] for key, _ in setups})} datasets, scored with {scored_with}."))

# %% [markdown]
# (synthesis-stability)=
# ## Study 1 — stability against robustness
#
# Knowles' test asks whether a ranking of the other systems changes when the best or the worst system is removed;
# Appendix F of the paired paper asks whether BT's order of two systems changes when a third is added (a violation of
# the independence of irrelevant alternatives, *IIA*). Both are run
# here with all five mechanisms (ties as half a win), on the same setups. Beside them, each mechanism's agreement
# with the latent ranking and its loss of agreement when outliers are added, from a fresh small run of the paired
# paper's simulation, under both of its outlier models (the text's scores permuted across systems, and the
# published code's adversarial scores that rank the systems roughly upside down). MEAN and MEDIAN score each system on its own column, so they cannot reorder the others: their
# rows are computed like the rest, as a check on the machinery.

# %%
with timings.measure("Study 1: remove-a-system and IIA on the real setups"):
    removal, iia = ch.stability.real_setup_tests(setups, iia_triples, stream(seed, "study1 iia"))
with timings.measure("Study 1: simulation"):
    sim = ch.stability.simulation(seed, sim_datasets)
out.table(removal, "synthesis_stability_removal", index=False)
out.table(iia, "synthesis_stability_iia", index=False)
out.table(sim, "synthesis_stability_simulation", index=False)
trade = out.table(ch.stability.tradeoff(removal, iia, sim), "synthesis_stability_tradeoff", index=False)
show(trade.drop(columns=["scores_alone", "reordered_any", "tau_drop"]).rename(columns={
    "reordered_best": "reordered, best removed", "reordered_worst": "reordered, worst removed",
    "iia_violation_share": "IIA violations", "tau_clean": "τ, no outliers", "tau_drop_permute": "τ lost, permuted",
    "tau_drop_adversarial": "τ lost, adversarial"}).assign(mechanism=trade["mechanism"].map(MECHANISM_LABELS))
     .set_index("mechanism"), 3)

# %% tags=["hide-input"]
out.figure(ch.plot_tradeoff(trade), "synthesis_stability_tradeoff",
           ch.tradeoff_caption(len(setups), len(sim), iia_triples))

# %% [markdown]
# (synthesis-wmt)=
# ## Study 2 — paired comparisons inside WMT
#
# WMT's direct assessments score one translation at a time, and the official ranking averages each worker's
# standardised scores. But one worker scores several systems in one HIT, so the same data imply paired
# preferences: the worker's mean score of one system against their mean score of another in the same HIT.
# Bradley–Terry on these preferences and the official z-score means then go through Knowles' perturbations on the
# document-context (SR+DC) data. A matched null removes a random system from the middle of both rankings instead
# of an end.

# %%
wmt_table = load_table("wmt_judgments")
with timings.measure("Study 2: WMT perturbations, z-means and paired BT"):
    wmt_runs, wmt_pairs = ch.wmt_pairs.sr_dc_study(wmt_table, null_draws, stream(seed, "study2 null"),
                                                  wmt_collections)
same_segment = ch.wmt_pairs.same_segment_pairs(wmt_table[wmt_table["style"] == "SR+DC"])
out.table(wmt_runs, "synthesis_wmt_runs", index=False)
out.table(wmt_pairs, "synthesis_wmt_pairs", index=False)
wmt_summary = out.table(ch.wmt_pairs.summary(wmt_runs), "synthesis_wmt_summary", index=False)
wmt_null = out.table(ch.wmt_pairs.ends_against_null(wmt_runs), "synthesis_wmt_ends_against_null", index=False)
show(wmt_summary.assign(experiment=wmt_summary["experiment"].map(ch.wmt_pairs.EXPERIMENT_LABELS),
                        mechanism=wmt_summary["mechanism"].map(ch.wmt_pairs.MECHANISMS)).rename(columns={
    "runs": "rankings", "reordered": "share reordered", "pairs_reordered": "system pairs reordered"}), 3)

# %% tags=["hide-input"]
out.figure(ch.plot_wmt(wmt_summary), "synthesis_wmt_perturbations", ch.wmt_caption(len(wmt_pairs), null_draws))

# %% [markdown]
# (synthesis-favi)=
# ## Study 3 — favoritism and aggregation
#
# For every Favi-Score dataset and every (human rating, automatic rater) of it, both are aggregated by each
# mechanism, and a system pair is *flipped* when the rater's ranking orders it differently from the human one.
# By Lemma 1 of {cite:t}`vondaniken2024favi`, a pair's Φ times its number of errors is exactly the shift of its win
# margin; BT follows win margins, MEAN follows score sizes. So the hypothesis: BT's flips follow |Φ| more closely.

# %%
favi_scores = load_table("favi_scores")
with timings.measure("Study 3: mechanisms on human and automatic scores"):
    favi_pairs = ch.favoritism.per_pair(favi_scores, favi_datasets)
    favi_summary = ch.favoritism.summary(favi_pairs)
    favi_diff = ch.favoritism.rho_difference(favi_pairs, n_resamples=n_resamples, rng=stream(seed, "study3 boot"))
out.table(favi_pairs, "synthesis_favi_pairs", index=False)
out.table(favi_summary, "synthesis_favi_summary", index=False)
out.table(pd.DataFrame([favi_diff]), "synthesis_favi_rho_difference", index=False)
show(favi_summary.drop(columns=["pairs", "phi_gap"]).rename(columns={
    "flipped_high_phi": "flipped, high |Φ|", "flipped_low_phi": "flipped, low |Φ|", "rho_abs_phi": "ρ(|Φ|, flip)",
    "with_phi": "flips Φ's way"}).assign(mechanism=favi_summary["mechanism"].map(MECHANISM_LABELS))
     .set_index("mechanism"), 3)

# %% tags=["hide-input"]
n_settings = favi_pairs.groupby(["dataset", "human", "rater"]).ngroups
out.figure(ch.plot_favoritism(favi_summary), "synthesis_favi_flips",
           ch.favoritism_caption(int(favi_summary["pairs"].iloc[0]), n_settings))
by_dataset = out.table(ch.favoritism.by_dataset(favi_pairs), "synthesis_favi_by_dataset", index=False)
display(Markdown("Per dataset and mechanism: " + out.download("synthesis_favi_by_dataset", "the flips and ρ") + "."))

# %% [markdown]
# (synthesis-ties)=
# ## Study 4 — ties and sample size on real setups
#
# {cite:t}`levtsov2025confidence` recommend 12·m·ln m comparisons per pair of *m* systems and count a tie as half a
# win. Here both are tried on the paired chapter's real setups: BT rankings from sampled comparisons against the
# setup's own BT ranking on all its instances, under the three tie policies, for numbers of comparisons around the
# recommendation and with ties injected as in the paper's Fig. 1.

# %%
with timings.measure("Study 4: sample-size and tie sweeps"):
    curves, tie_sweep, tie_costs = ch.ties.study(setups, sweep_sizes, tie_probabilities, sweep_trials,
                                                 stream(seed, "study4 sweeps"))
out.table(curves, "synthesis_ties_curves", index=False)
out.table(tie_sweep, "synthesis_ties_sweep", index=False)
out.table(tie_costs, "synthesis_ties_real_costs", index=False)
marker = out.table(ch.ties.marker_summary(curves, tie_costs), "synthesis_ties_marker", index=False)
show(marker.assign(ties=marker["ties"].map(ch.ties.POLICY_LABELS)).rename(columns={
    "ties": "tie policy", "misplaced_share": "systems out of place", "stable_share": "stable setups",
    "rho_tie_rate": "ρ(tie rate, instability)"}).set_index("tie policy"), 3)

# %% tags=["hide-input"]
out.figure(ch.plot_ties(curves, tie_sweep), "synthesis_ties_sweeps",
           ch.ties_caption(len(setups), sweep_trials, scored_with))

# %% tags=["hide-input"]
# the values the claims registry reads (data/published/claims/synthesis.toml)
values = out.table(ch.claim_values(
    stability=ch.stability_values(trade), wmt=ch.wmt_values(wmt_summary, wmt_null),
    favoritism=ch.favoritism_values(favi_summary, favi_diff),
    ties=ch.ties_values(marker, tie_costs, tie_sweep)), "synthesis_claim_values", index=False)
v = {s: ch.values_of(values, s) for s in ("stability", "wmt", "favoritism", "ties")}

# %% [markdown]
# ## What the four studies say
#
# **Study 1** ({ref}`synthesis-stability`).

# %% tags=["remove-input"]
display(Markdown(ch.stability_text(v["stability"], trade, len(setups))))

# %% [markdown]
# **Study 2** ({ref}`synthesis-wmt`).

# %% tags=["remove-input"]
display(Markdown(ch.wmt_text(v["wmt"], wmt_pairs, same_segment)))

# %% [markdown]
# **Study 3** ({ref}`synthesis-favi`).

# %% tags=["remove-input"]
display(Markdown(ch.favoritism_text(v["favoritism"], favi_summary, n_settings)))

# %% [markdown]
# **Study 4** ({ref}`synthesis-ties`).

# %% tags=["remove-input"]
display(Markdown(ch.ties_text(v["ties"], marker, tie_costs)))

# %% [markdown]
# (synthesis-guide)=
# ## A practitioner's guide, from the numbers above
#
# Each recommendation is computed from the studies' values and names the claim of the registry it rests on; the
# evidence is thin where the number of setups, language pairs or settings behind it is small, and each item says
# how many.

# %% tags=["remove-input"]
display(Markdown(ch.guide(v["stability"], v["wmt"], v["favoritism"], v["ties"], {
    "wmt_pairs": len(wmt_pairs), "favi_settings": n_settings, "favi_datasets": favi_pairs["dataset"].nunique(),
    "tie_setups": len(tie_costs)})))

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
#   change with it, so for BT it moves only the preferences that involve a HUMAN system.
# * **Clusters.** Knowles counts changes of significance clusters too; Study 2 counts only changes of order.
# * **Simulation.** Study 1's simulation is a small corner of the paired paper's grid (see its table), re-run here
#   rather than read from the simulation chapter.
