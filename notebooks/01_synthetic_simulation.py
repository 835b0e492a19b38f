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
# # The 2,880-setup simulation (Peyrard et al. 2021, §4, Appendix A.2, Fig. 3)
#
# Real evaluation data never tells us which system is truly best. The paper therefore simulates evaluation setups
# whose latent system strengths λ are known, aggregates the simulated scores with MEAN, MEDIAN and BT, and measures
# Kendall's τ between each aggregate and λ. Two difficulties are switched on separately and together:
#
# * **outliers** — a fraction *f* of test instances whose scores do not come from the systems' own distributions;
# * **instance types** — *N*<sub>types</sub> kinds of test instances, each adding an offset to every system's score
#   (easy and hard instances), which is where the pairing of scores starts to matter.
#
# The grid is the paper's: *N*<sub>types</sub> ∈ {1, 3, 5, 10} × *f* ∈ {0, 0.01, 0.025} × *N*<sub>sys</sub> ∈ {2, 3,
# 5, 10, 25, 50} × *M* ∈ {10, 30, 100, 200} test instances × 10 datasets = 2,880 setups. The generator is
# `analysis.simulate`; its docstring states every modelling choice the paper leaves open. Every number in the text
# below is read from the computed tables.

# %% tags=["parameters"]
seed = 2021  # each setup's data is drawn from a stream fixed by (seed, its grid cell, its dataset number)
n_types = [1, 3, 5, 10]  # N_types
outlier_fractions = [0.0, 0.01, 0.025]  # f
n_systems = [2, 3, 5, 10, 25, 50]  # N_sys
n_instances = [10, 30, 100, 200]  # M
n_datasets = 10  # datasets per grid cell
n_resamples = 1000  # bootstrap resamples (over setups) for the 95% intervals
offset_scale = 100.0  # type offsets ~ U[0, offset_scale] (not in the paper's text; the published code's value)
tie_resolution = 1.0  # the ties experiment rounds scores to multiples of this
output_root = None  # where artefacts go (None: book/_generated); the batch runner sets it

# %% tags=["hide-input"]
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from analysis import aggregate, pairwise, simulate
from analysis.plotting import MECHANISM_COLORS, MECHANISM_LABELS, Outputs, set_theme, show

set_theme()
grid = dict(n_types=n_types, outlier_fraction=outlier_fractions, n_systems=n_systems, n_instances=n_instances)
n_setups = int(np.prod([len(v) for v in grid.values()])) * n_datasets
out = Outputs(
    "01_synthetic_simulation",
    dict(seed=seed, **grid, n_datasets=n_datasets, n_resamples=n_resamples, offset_scale=offset_scale,
         tie_resolution=tie_resolution),
    root=output_root,
)
PAPER = ["mean", "median", "bt"]
X_LABELS = {
    "n_systems": "number of systems",
    "n_instances": "number of test instances",
    "outlier_fraction": "fraction of outliers f",
    "n_types": "number of instance types",
}


def run(label: str, names=PAPER, **options) -> pd.DataFrame:
    """Run the whole grid once, timing it; the same seed gives the same datasets for every mechanism."""
    start = time.perf_counter()
    frame = simulate.run_grid(seed=seed, grid=grid, n_datasets=n_datasets, mechanism_names=names,
                              offset_scale=offset_scale, **options)
    timings[label] = time.perf_counter() - start
    return frame


def plot_fig3(summary: pd.DataFrame, names, title: str) -> plt.Figure:
    """Eight panels (a)-(h): mean tau per x value with its 95% bootstrap interval, one line per mechanism."""
    fig, axes = plt.subplots(2, 4, figsize=(12, 6.5), sharey=True)
    for ax, (label, panel_title, _, x) in zip(axes.flat, simulate.FIG3_PANELS):
        part = summary[summary.panel == label]
        values = sorted(part.x_value.unique())
        pos = {v: i for i, v in enumerate(values)}
        width = 0.5 / len(names)
        for k, name in enumerate(names):
            line = part[part.mechanism == name].sort_values("x_value")
            xs = np.array([pos[v] for v in line.x_value]) + (k - (len(names) - 1) / 2) * width * 0.6
            ax.errorbar(xs, line.tau, yerr=[line.tau - line.low, line.high - line.tau], fmt="-o", ms=4, capsize=2,
                        color=MECHANISM_COLORS[name], label=MECHANISM_LABELS[name])
        ax.set_xticks(range(len(values)), [f"{v:g}" for v in values])
        ax.set_xlabel(X_LABELS[x])
        ax.set_title(f"({label}) {panel_title}", fontsize=11)
    for ax in axes[:, 0]:
        ax.set_ylabel("Kendall's τ with the latent λ")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, ncol=len(names), loc="upper center", bbox_to_anchor=(0.5, 1.03), frameon=False)
    fig.suptitle(title, y=1.07)
    fig.tight_layout()
    return fig


SUBSETS = {  # the distinct setup subsets behind the eight panels
    "easy (a, b)": "n_types == 1 and outlier_fraction == 0",
    "outliers only (c)": "n_types == 1 and outlier_fraction > 0",
    "types only (d)": "n_types > 1 and outlier_fraction == 0",
    "types and outliers": "n_types > 1 and outlier_fraction > 0",
    "all (g, h)": "index == index",
}


def headline(per_setup: pd.DataFrame, names) -> pd.DataFrame:
    """Mean tau per mechanism over each subset of setups."""
    rows = {k: per_setup.query(q)[[f"tau_{n}" for n in names]].mean() for k, q in SUBSETS.items()}
    table = pd.DataFrame(rows).T
    table.columns = [MECHANISM_LABELS[n] for n in names]
    table.insert(0, "setups", [len(per_setup.query(q)) for q in SUBSETS.values()])
    return table


def variant(label: str, name: str, title: str, **options) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One alternative reading: run the grid, save its tables and its Fig. 3, show its headline table."""
    frame = run(label, PAPER, **options)
    out.table(frame, f"{name}_per_setup", index=False)
    panels = simulate.summarise_panels(frame, PAPER, rng=np.random.default_rng(seed), n_resamples=n_resamples)
    out.table(panels, f"{name}_summary", index=False)
    present(frame, panels, PAPER, title, name)
    return frame, panels


def present(frame: pd.DataFrame, panels: pd.DataFrame, names, title: str, name: str, headline_name=None):
    """Save and show one Fig. 3 and the headline table of its setups (saved too when ``headline_name``)."""
    figure = plot_fig3(panels, names, title)
    out.figure(figure, name)
    plt.show()
    table = headline(frame, names)
    if headline_name:
        out.table(table, headline_name)
    show(table)
    return table


timings: dict[str, float] = {}

# %% [markdown]
# ## The generator, on one setup
#
# Three systems, three instance types, 30 instances, one outlier. Each type shifts every system by the same offset,
# so the systems' score *distributions* overlap heavily while, instance by instance, the stronger system usually
# wins. MEAN and MEDIAN only see the distributions; BT sees the instance-by-instance comparisons.

# %% tags=["hide-input"]
example = simulate.simulate_setup(3, 30, 3, 0.025, rng=np.random.default_rng(seed), offset_scale=offset_scale)
fig, ax = plt.subplots(figsize=(8, 3.2))
order = np.argsort([example.instance_type[i] * 1000 + i for i in range(30)])
for j, col in enumerate(example.scores.columns):
    ax.plot(range(30), example.scores[col].to_numpy()[order], "o-", ms=4, lw=0.8,
            label=f"{col} (λ = {example.latent[col]:.2f})")
for i in np.flatnonzero(example.outlier[order]):
    ax.axvspan(i - 0.4, i + 0.4, color="0.85", zorder=0)
ax.set_xlabel("test instance (sorted by type; grey: outlier)")
ax.set_ylabel("score")
ax.legend(fontsize=8, loc="upper left")
out.figure(fig, "paired_sim_example_setup")
plt.show()
example_aggregates = pd.DataFrame(
    {name: fn(example.scores) for name, fn in aggregate.mechanisms("loss", PAPER).items()} | {"latent λ": example.latent}
)
show(example_aggregates)

# %% [markdown]
# ## Fig. 3 — the 2,880 setups
#
# Every setup is scored with MEAN, MEDIAN and BT (BT with the paper's tie handling, which cannot matter here: the
# scores are continuous). A point is the mean τ over the setups of a panel at one x value; the bars are 95%
# percentile-bootstrap intervals over those setups (1,000 resamples in the full run).

# %%
per_setup = run("MEAN, MEDIAN, BT", PAPER)
out.table(per_setup, "paired_fig3_per_setup", index=False)
summary = simulate.summarise_panels(per_setup, PAPER, rng=np.random.default_rng(seed), n_resamples=n_resamples)
out.table(summary, "paired_fig3_summary", index=False)
display(Markdown(f"{len(per_setup):,} setups simulated and aggregated in {timings['MEAN, MEDIAN, BT']:.1f} s."))

# %% [markdown]
# The figure, then the mean τ over each group of setups (the panels' subsets; (e) and (f) mix the last two rows
# with the others):

# %% tags=["hide-input"]
_ = present(per_setup, summary, PAPER, "Fig. 3 — Kendall's τ to the latent strengths (Section 4 generator)",
            "paired_fig3_simulation", "paired_fig3_headline")

# %% tags=["remove-input"]
def at(summary: pd.DataFrame, panel: str, x_value, name: str) -> float:
    return float(summary.query("panel == @panel and x_value == @x_value and mechanism == @name").tau.iloc[0])


def claims(summary: pd.DataFrame) -> str:
    f_max, t_max = max(outlier_fractions), max(n_types)
    c = {n: at(summary, "c", f_max, n) for n in PAPER}
    c0 = {n: at(summary, "c", 0.0, n) for n in PAPER}
    d = {n: at(summary, "d", t_max, n) for n in PAPER}
    d1 = {n: at(summary, "d", 1, n) for n in PAPER}
    return (
        f"* **Outliers only (c).** From *f* = 0 to *f* = {f_max}, MEAN goes from τ = {c0['mean']:.3f} to "
        f"{c['mean']:.3f}, MEDIAN from {c0['median']:.3f} to {c['median']:.3f}, BT from {c0['bt']:.3f} to "
        f"{c['bt']:.3f}.\n"
        f"* **Types only (d).** From 1 to {t_max} types, MEAN goes from {d1['mean']:.3f} to {d['mean']:.3f}, "
        f"MEDIAN from {d1['median']:.3f} to {d['median']:.3f}, BT from {d1['bt']:.3f} to {d['bt']:.3f}."
    )


display(Markdown(claims(summary)))

# %% [markdown]
# **What the panels show.** With one type and no outliers (a, b) the three mechanisms are within each other's
# intervals, and all of them improve steadily with more test instances. Against the number of systems (a) the
# picture is flatter than the paper's: two systems give τ = ±1 only, hence the wide bars, and from five systems on
# τ changes little, because λ is drawn from the same range U[0, 1] however many systems there are (the published
# code spreads a fixed total over the systems instead, which makes pairs closer as *N*<sub>sys</sub> grows).
# Instance types (d) are MEDIAN's failure: with the offsets far apart, a system's median falls inside one or two
# types only, so it is estimated from a fraction of the instances (and with an even number of types it sits in
# the gap between two types). MEAN and BT are unaffected by types, because every system gets the same offset on
# the same instance: the offsets cancel in a paired comparison and shift all means equally.
#
# **Outliers (c).** With the outliers the paper's text describes — each outlier instance's scores permuted among
# the systems — MEAN does *not* fail: a permuted score comes from another system's distribution, which under the
# Section 4 model is at most one unit of λ away, so it barely moves a mean. The paper's Fig. 3 shows MEAN failing
# with outliers; that figure was made with the published code, whose outliers are different (below).

# %% [markdown]
# ## Two readings the paper leaves open
#
# **The published code's outliers.** `simulations.py` in the BT-eval repository does not permute scores: it adds
# rows of 100·U[0, 1] scores, redrawn until they rank the systems *against* their latent order (Kendall τ < 0).
# On the Section 4 scale (λ ∈ [0, 1], σ = 1) these are huge, adversarial outliers. The grid below is the same
# seed and datasets, with those outliers in place of the permuted ones.

# %%
adversarial, adversarial_summary = variant("adversarial outliers", "paired_fig3_adversarial",
                                           "Fig. 3 with the published code's adversarial outliers",
                                           outliers="adversarial")
display(Markdown(claims(adversarial_summary)))

# %% [markdown]
# **Appendix A.2 read literally.** A.2 says the λ<sub>i,j</sub> are drawn uniformly *per type and system*, which
# contradicts Section 4 ("the same relative strength, differing only by an added offset"): each type then reorders
# the systems. The truth is taken as each system's expected score over the setup's instances, which is exactly
# what MEAN estimates, so this reading favours MEAN by construction.

# %%
appendix, appendix_summary = variant("Appendix A.2 strengths", "paired_fig3_appendix_a2",
                                     "Fig. 3 under Appendix A.2's per-type strengths", strengths="appendix_a2")

# %% tags=["remove-input"]
readings = pd.concat(
    {
        "Section 4, permuted outliers (default)": headline(per_setup, PAPER).loc["all (g, h)"],
        "Section 4, adversarial outliers (code)": headline(adversarial, PAPER).loc["all (g, h)"],
        "Appendix A.2 strengths, permuted outliers": headline(appendix, PAPER).loc["all (g, h)"],
    },
    axis=1,
).T.astype({"setups": int})
out.table(readings, "paired_fig3_readings")
best = {k: r[["MEAN", "MEDIAN", "BT"]].astype(float).idxmax() for k, r in readings.iterrows()}
show(readings)
display(Markdown(
    "Best mechanism over all setups: " + "; ".join(f"{k}: **{v}**" for k, v in best.items()) + ". "
    "Whether the paper's conclusion holds therefore depends on the reading: BT is the robust choice when outliers "
    "are large and adversarial and types shift all systems together; with mild outliers MEAN stays competitive, and "
    "when types reorder the systems (A.2) the expected score is, by definition, what MEAN targets."
))

# %% [markdown]
# ## Beyond the paper: Elo and TrueSkill
#
# Appendices G and H claim that Elo and TrueSkill, the paper's sequential alternatives to BT, lead to the same
# conclusions. Here they run on exactly the same 2,880 datasets (same seeds), with the paper's tie handling and
# the packages' default parameters (Elo k = 20; TrueSkill μ = 25, σ = 25/3).

# %%
sequential = run("Elo, TrueSkill", ["elo", "trueskill"])
ALL = PAPER + ["elo", "trueskill"]
everything = per_setup.merge(sequential[list(simulate.GRID_KEYS) + ["tau_elo", "tau_trueskill"]],
                             on=list(simulate.GRID_KEYS), validate="one_to_one")
out.table(everything, "paired_fig3_all_mechanisms_per_setup", index=False)
everything_summary = simulate.summarise_panels(everything, ALL, rng=np.random.default_rng(seed),
                                               n_resamples=n_resamples)
_ = out.table(everything_summary, "paired_fig3_all_mechanisms_summary", index=False)

# %% tags=["hide-input"]
_ = present(everything, everything_summary, ALL, "Fig. 3 with Elo and TrueSkill added (Section 4 generator)",
            "paired_fig3_all_mechanisms", "paired_fig3_all_mechanisms_headline")

# %% tags=["remove-input"]
gap = everything[["tau_elo", "tau_trueskill"]].rsub(everything.tau_bt, axis=0).mean()
display(Markdown(
    f"Over all setups, BT's τ exceeds Elo's by {gap['tau_elo']:.3f} and TrueSkill's by {gap['tau_trueskill']:.3f} on "
    "average. Elo and TrueSkill process the comparisons one game at a time, so they are order dependent and "
    "forget: with many instances per pair, Elo's fixed step k keeps the ratings noisy, while BT uses all "
    "comparisons at once. They follow BT's pattern across panels (robust to types), at a lower level."
))

# %% [markdown]
# ## Beyond the paper: ties
#
# Continuous scores never tie. Rounded scores (here to multiples of the `tie_resolution` parameter, like integer
# ratings) tie often, and then the tie policy matters. The paper's code counts a tie as a win for the later
# column of each pair (`ties="loss"`), which depends on the arbitrary column order; `ties="half"` gives each
# system half a win. Same seeds again; only the rounding is new.

# %%
tied_loss = run("ties: loss", PAPER, resolution=tie_resolution)
tied_half = run("ties: half", ["bt"], ties="half", resolution=tie_resolution)
ties_table = tied_loss.rename(columns={"tau_bt": "tau_bt_loss"}).merge(
    tied_half[list(simulate.GRID_KEYS) + ["tau_bt"]].rename(columns={"tau_bt": "tau_bt_half"}),
    on=list(simulate.GRID_KEYS), validate="one_to_one",
)
out.table(ties_table, "paired_sim_ties_per_setup", index=False)
boot = np.random.default_rng(seed)
rows = {}
for label, query in SUBSETS.items():
    part = ties_table.query(query)
    diff = pairwise.bootstrap_mean(part.tau_bt_half - part.tau_bt_loss, rng=boot, n_resamples=n_resamples)
    rows[label] = {
        "tie rate": part.tie_rate.mean(),
        "MEAN": part.tau_mean.mean(),
        "MEDIAN": part.tau_median.mean(),
        "BT ties=loss": part.tau_bt_loss.mean(),
        "BT ties=half": part.tau_bt_half.mean(),
        "half − loss": diff[0],
        "95% low": diff[1],
        "95% high": diff[2],
    }
ties_summary = pd.DataFrame(rows).T
out.table(ties_summary, "paired_sim_ties_summary")
show(ties_summary)

# %% tags=["remove-input"]
overall = ties_summary.loc["all (g, h)"]
display(Markdown(
    f"With scores rounded to multiples of {tie_resolution:g}, {overall['tie rate']:.0%} of all comparisons are "
    f"ties. Giving each tied system half a win changes BT's mean τ by {overall['half − loss']:+.3f} "
    f"(95% interval {overall['95% low']:+.3f} to {overall['95% high']:+.3f}) over all setups. Because the systems' "
    "column order is random with respect to their strength, the paper's policy adds noise rather than bias here; "
    "on real data, where column order can follow a leaderboard, it can add bias too. The noise is large: "
    f"{overall['tie rate']:.0%} of the comparisons go to whichever system happens to be the later column."
))

# %% [markdown]
# ## Run time
#
# Wall time of each grid run on this machine (one process; compiled Elo and TrueSkill):

# %% tags=["hide-input"]
timing_table = pd.Series(timings, name="seconds").to_frame()
timing_table["setups"] = n_setups
show(timing_table, 1)

# %% [markdown]
# ## What differs from the paper, and why
#
# * **No published numbers to match.** Fig. 3 is a plot without a table, so the comparison is qualitative: which
#   mechanism fails where. The headline tables above are this compendium's numbers.
# * **Generator.** The text and the published code disagree, and the text disagrees with itself:
#   - Section 4's shared type offsets are the default; Appendix A.2's per-type uniform λ is the `strengths`
#     parameter. The offset distribution is not in the text; U[0, 100] is the code's.
#   - The text's outliers (scores permuted across systems, here by a derangement so that no system keeps its own
#     score) are the default; the code's adversarial rows are the `outliers` parameter. The paper's figure shows
#     MEAN failing with outliers, which this compendium reproduces only with the code's outliers.
#   - The code's latent strengths are normalised to sum to 10 (about 10/*N*<sub>sys</sub> apart), while A.2 says
#     U[0, 1]; we follow the text. The code *appends* outlier rows and draws ⌊*M*/*N*<sub>types</sub>⌋ instances
#     per type, so its setups have slightly different sizes from *M*; here every setup has exactly *M* instances,
#     split between types as evenly as possible, with max(1, ⌊*fM*⌋) of them replaced by outliers.
#   - The code's grid has five outlier fractions (0 to 0.075); the paper's text and this chapter use three.
# * **Error bars.** The paper says 95% bootstrap intervals; its code draws ±2 × 1.96 × SEM (twice a normal 95%
#   interval). Here they are percentile-bootstrap intervals over setups.
# * **Undefined τ.** When an aggregate is constant (for example BT on two systems that win equally often, common
#   with *M* = 10), τ is undefined; the code's NaN was silently dropped from the averages, here it counts as 0.
# * **Panel subsets.** The caption does not say which setups panels (e)–(h) average over. The published code
#   labels them "types (with outliers)", "outliers (varying types)" and "all cases" but averages every setup in the
#   first two; here (e) keeps the setups that have outliers and (f) those with several types, so that each panel
#   isolates the combination its caption names. (g) and (h) average all setups.
