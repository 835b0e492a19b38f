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
# # Why pairing matters (Peyrard et al. 2021, §2–3, Appendices A.1, B, F)
#
# Every NLP system is scored on the *same* test instances, so evaluation scores come **paired**: instance *l* gives
# one score to each system. MEAN and MEDIAN summarise each system's scores on their own and throw that pairing away;
# the Bradley–Terry model (BT) is built from instance-level comparisons and keeps it. This chapter rebuilds the
# paper's small, exact illustrations of the difference:
#
# * **Fig. 1** — three systems with equal means where MEDIAN and BT disagree;
# * **Table 2 / Appendix A.1** — permuting one system's type strengths keeps both marginals but changes the pairing;
# * **Fig. 2** — three pairings with identical marginals, and the geometric reading of MEAN, MEDIAN and BT;
# * **Prop. 1 / Appendix B** — for two systems, BT decides by the sign of the median of differences;
# * **Appendix F** — BT can change the order of two systems when a third one is added.
#
# Everything below is computed by the `analysis` package; the numbers in the text are read from the computed
# tables, not typed in.

# %% tags=["parameters"]
seed = 2021  # every random draw below comes from numpy.random.default_rng(seed)
n_per_type = 2000  # Appendix A.1: test instances drawn per instance type for each of the 120 pairings
n_fig2 = 3000  # Fig. 2: test instances in each pairing plot
n_prop1_setups = 3000  # Prop. 1: random two-system setups for the numerical check
output_root = None  # where artefacts go (None: book/_generated); the batch runner sets it

# %%
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from IPython.display import Markdown, display
from mpl_toolkits.axes_grid1 import make_axes_locatable

from analysis import aggregate, pairwise
from analysis.plotting import MECHANISM_COLORS, Outputs, set_theme, show

set_theme()
rng = np.random.default_rng(seed)
out = Outputs(
    "00_why_pairing_matters",
    dict(seed=seed, n_per_type=n_per_type, n_fig2=n_fig2, n_prop1_setups=n_prop1_setups),
    root=output_root,
)


# %% [markdown]
# ## Fig. 1 — equal means, and MEDIAN and BT disagree
#
# The paper shows five scores for three systems without printing them, and its caption and body text describe the
# example slightly differently (caption: *B* beats *A* on all instances but one; body: *B* beats *C* on all but one,
# and *A* and *B* are "completely equivalent" for MEAN and MEDIAN). The scores below satisfy **every** stated
# property at once: all means are 10; *B* is a permutation of *A* (so their means *and* medians are identical);
# *C* beats *A* and *B* beats *A* on four of five instances; *B* beats *C* on four of five; the median of *A* is
# 10 and that of *C* is 7, as in the body text ("10 vs. 7").

# %%
fig1_scores = pd.DataFrame(
    {"A": [1, 5, 10, 15, 19], "B": [5, 10, 15, 19, 1], "C": [4, 7, 14, 18, 7]},
    index=pd.RangeIndex(1, 6, name="instance"),
    dtype=float,
)
fig1_aggregates = pd.DataFrame(
    {
        "mean": aggregate.mean(fig1_scores),
        "median": aggregate.median(fig1_scores),
        "bt": aggregate.bradley_terry(fig1_scores),
    }
)
wins, ties = pairwise.win_tie_matrices(fig1_scores)
checks = {
    "all means equal": bool(np.allclose(fig1_aggregates["mean"], fig1_aggregates["mean"].iloc[0])),
    "B is a permutation of A": sorted(fig1_scores["A"]) == sorted(fig1_scores["B"]),
    "C beats A on 4 of 5": int(wins.loc["C", "A"]) == 4,
    "B beats A on 4 of 5": int(wins.loc["B", "A"]) == 4,
    "B beats C on 4 of 5": int(wins.loc["B", "C"]) == 4,
    "median A = 10, median C = 7": (fig1_aggregates.loc["A", "median"], fig1_aggregates.loc["C", "median"]) == (10, 7),
}
assert all(checks.values()), checks
out.table(fig1_scores, "paired_fig1_scores")
out.table(fig1_aggregates, "paired_fig1_aggregates")
show(fig1_scores.T)
show(fig1_aggregates)

# %% tags=["hide-input"]
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [1.5, 1]})
palette = dict(zip("ABC", sns.color_palette("colorblind", 3)))
for system in fig1_scores:
    axes[0].plot(fig1_scores.index, fig1_scores[system], marker="o", lw=1.5, label=system, color=palette[system])
axes[0].set(xlabel="test instance", ylabel="evaluation score", title="Fig. 1: scores of A, B, C", xticks=fig1_scores.index)
axes[0].legend(title="system", loc="upper left")
ranked = fig1_aggregates.copy()
ranked["bt"] = ranked["bt"] / ranked["bt"].max() * ranked["mean"].max()  # put BT on the score scale for display
ranked.columns = ["MEAN", "MEDIAN", "BT (rescaled)"]
ranked.T.plot.bar(ax=axes[1], color=[palette[s] for s in ranked.index], rot=0)
axes[1].set(title="Aggregates (BT rescaled: max = 10)", ylabel="aggregate")
axes[1].legend(title="system", loc="upper left", bbox_to_anchor=(1.0, 1.0))
fig.tight_layout()
out.figure(fig, "paired_fig1_example")
plt.show()

# %% [markdown]
# MEAN cannot separate the three systems, MEDIAN ranks *A* = *B* above *C*, and BT ranks *B* > *C* > *A*. MEDIAN and
# BT disagree on *A* versus *C*: *C* scores higher than *A* on four of the five instances, but *A*'s median is higher
# because *C*'s scores jump over *A*'s only by small margins on "easy" instances. MEAN and MEDIAN see *A* and *B* as
# identical: they only look at the (identical) sets of scores, not at who wins on each instance.
#
# ## Table 2 and Appendix A.1 — same marginals, different pairings
#
# Appendix A.1 generates pairings with fixed marginals: test instances come in *k* types, and on type *t*, system
# *S* scores ~ N(λ<sub>t,S</sub>, 1). Permuting *S*'s type strengths (the columns of its row in Table 2) leaves the
# marginal distribution of *S* (a mixture over types) unchanged but pairs its scores with different *B* scores. We
# draw `n_per_type` instances of each type for all 5! = 120 permutations.

# %%
table2 = pd.DataFrame(
    {"type 1": [23, 28], "type 2": [50, 45], "type 3": [40, 30], "type 4": [70, 65], "type 5": [60, 50]},
    index=["S", "B"],
)
out.table(table2, "paired_table2_strengths")
show(table2)

# %%
lam_s = table2.loc["S"].to_numpy(float)
lam_b = table2.loc["B"].to_numpy(float)
n_types = len(lam_s)
noise_s = rng.standard_normal((n_types, n_per_type))
noise_b = rng.standard_normal((n_types, n_per_type))
rows = []
for perm in itertools.permutations(range(n_types)):
    # S's block of scores drawn for type perm[t] is paired with B's block for type t: S's sample (so its marginal,
    # mean and median) is exactly the same for every permutation; only the pairing with B changes
    s_scores = (lam_s[:, None] + noise_s)[list(perm)].ravel()
    b_scores = (lam_b[:, None] + noise_b).ravel()
    frame = pd.DataFrame({"S": s_scores, "B": b_scores})
    bt = aggregate.bradley_terry(frame)
    rows.append(
        {
            "permutation of S": " ".join(str(p + 1) for p in perm),
            "mean S - mean B": s_scores.mean() - b_scores.mean(),
            "median S - median B": np.median(s_scores) - np.median(b_scores),
            "P(S > B)": pairwise.prob_better(s_scores, b_scores).prob,
            "BT strength of S": bt["S"],
            "types won by S": int(np.sum(lam_s[list(perm)] > lam_b)),
        }
    )
pairings = pd.DataFrame(rows)
out.table(pairings, "paired_appA1_permutations", index=False)
summary = pd.DataFrame(
    {
        "permutations": [len(pairings)],
        "distinct mean S - mean B": [pairings["mean S - mean B"].round(9).nunique()],
        "distinct median S - median B": [pairings["median S - median B"].round(9).nunique()],
        "min P(S > B)": [pairings["P(S > B)"].min()],
        "max P(S > B)": [pairings["P(S > B)"].max()],
        "share where BT prefers B": [(pairings["BT strength of S"] < 0.5).mean()],
    }
)
out.table(summary, "paired_appA1_summary", index=False)
show(summary.T.rename(columns={0: "value"}))
show(pairings.sort_values("P(S > B)").iloc[[0, 1, len(pairings) // 2, -2, -1]])

# %% tags=["remove-input"]
display(
    Markdown(
        f"All {len(pairings)} pairings share one mean difference "
        f"({pairings['mean S - mean B'].iloc[0]:.2f}) and one median difference "
        f"({pairings['median S - median B'].iloc[0]:.2f}), both in favour of *S*; yet P(S > B) ranges from "
        f"{summary['min P(S > B)'].iloc[0]:.2f} to {summary['max P(S > B)'].iloc[0]:.2f}, and BT prefers *B* in "
        f"{summary['share where BT prefers B'].iloc[0]:.0%} of the pairings. Table 2's own pairing (permutation "
        f"`1 2 3 4 5`) has P(S > B) = {pairings['P(S > B)'].iloc[0]:.2f}: *S* wins on four of five types."
    )
)

# %% [markdown]
# ## Fig. 2 — the geometric reading of MEAN, MEDIAN and BT
#
# Each panel places every test instance at (score of *A*, score of *B*). The marginal densities (top: *A*, right:
# *B*) are **identical in all three panels** — the three panels hold the same two sets of scores, paired
# differently — so the means (dashed) and medians (dotted) are the same everywhere and both favour *B*. BT is a
# property of the 2-D pairing: it prefers *B* when more instances lie above the diagonal *X*<sub>A</sub> =
# *X*<sub>B</sub>. The half-plane holding more instances is shaded. The scores are a two-mode mixture (an "easy"
# and a "hard" instance type), with *B* slightly better on average.

# %% tags=["hide-input"]
base = np.sort(np.concatenate([rng.normal(0.3, 0.08, n_fig2 // 2), rng.normal(0.7, 0.08, n_fig2 - n_fig2 // 2)]))
a_sorted = base
b_sorted = np.sort(base + 0.03 + rng.normal(0, 0.01, n_fig2))
shift = int(0.3 * n_fig2)
fig2_pairings = {
    "sorted pairing": (a_sorted, b_sorted),
    "shifted pairing": (a_sorted, np.roll(b_sorted, shift)),  # pair rank i of A with rank i - shift of B
    "independent pairing": (a_sorted, rng.permutation(b_sorted)),
}
fig = plt.figure(figsize=(15, 5.2))
grid = fig.add_gridspec(1, 3, wspace=0.35)
colors = {"A": sns.color_palette("colorblind")[2], "B": sns.color_palette("colorblind")[0]}
fig2_rows = []
lo, hi = -0.05, 1.05
for k, (title, (xa, xb)) in enumerate(fig2_pairings.items()):
    ax = fig.add_subplot(grid[0, k])
    divider = make_axes_locatable(ax)
    ax_top = divider.append_axes("top", 0.7, pad=0.05, sharex=ax)
    ax_right = divider.append_axes("right", 0.7, pad=0.05, sharey=ax)
    p_b = pairwise.prob_better(xb, xa).prob
    if p_b > 0.5:
        ax.fill_between([lo, hi], [lo, hi], hi, color=colors["B"], alpha=0.12, lw=0)
    else:
        ax.fill_between([lo, hi], lo, [lo, hi], color=colors["A"], alpha=0.12, lw=0)
    ax.scatter(xa, xb, s=4, alpha=0.35, color="0.25", rasterized=True)
    ax.plot([lo, hi], [lo, hi], color="black", lw=1)
    for stat, style in (("mean", "--"), ("median", ":")):
        fa = np.mean if stat == "mean" else np.median
        ax.axvline(fa(xa), color=colors["A"], ls=style, lw=1.6)
        ax.axhline(fa(xb), color=colors["B"], ls=style, lw=1.6)
    sns.kdeplot(x=xa, ax=ax_top, color=colors["A"], fill=True, bw_adjust=0.6)
    sns.kdeplot(y=xb, ax=ax_right, color=colors["B"], fill=True, bw_adjust=0.6)
    ax_top.axis("off")
    ax_right.axis("off")
    ax.set(xlim=(lo, hi), ylim=(lo, hi), xlabel="score of A", ylabel="score of B" if k == 0 else "")
    ax_top.set_title(f"{title}\nP(B > A) = {p_b:.2f}: BT prefers {'B' if p_b > 0.5 else 'A'}", fontsize=11)
    fig2_rows.append(
        {
            "pairing": title,
            "mean A": xa.mean(),
            "mean B": xb.mean(),
            "median A": np.median(xa),
            "median B": np.median(xb),
            "P(B > A)": p_b,
            "MEAN prefers": "B" if xb.mean() > xa.mean() else "A",
            "MEDIAN prefers": "B" if np.median(xb) > np.median(xa) else "A",
            "BT prefers": "B" if p_b > 0.5 else "A",
        }
    )
handles = [
    plt.Line2D([], [], color="0.3", ls="--", label="means"),
    plt.Line2D([], [], color="0.3", ls=":", label="medians"),
    plt.Line2D([], [], color="black", label="$X_A = X_B$"),
]
fig.legend(handles=handles, loc="lower center", ncol=3, frameon=False, bbox_to_anchor=(0.5, -0.04))
out.figure(fig, "paired_fig2_pairings")
plt.show()
fig2_table = pd.DataFrame(fig2_rows).set_index("pairing")
out.table(fig2_table, "paired_fig2_summary")
show(fig2_table)

# %% [markdown]
# As in the paper's Fig. 2, the middle pairing makes *A* the better system on most instances — BT prefers *A* —
# while MEAN and MEDIAN, which only see the unchanged marginals, still prefer *B*.
#
# ## Proposition 1 — BT's two-system decision is the sign of the median of differences
#
# For two systems BT has a closed form: λ<sub>A</sub> is the number of instances *A* wins, so BT prefers *A* iff *A*
# wins on more instances than *B*. Prop. 1 states this as *M*<sub>A−B</sub> > 0, the median of the paired
# differences. We check it on `n_prop1_setups` random setups of four kinds: continuous scores with odd and even
# test-set sizes, with instance types and outliers, and discrete 1–5 ratings (which tie often).

# %% tags=["hide-input"]
def random_setup(kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.choice([5, 11, 51, 201])) if kind != "continuous, even n" else int(rng.choice([4, 10, 50, 200]))
    if kind == "discrete 1-5 ratings":
        return rng.integers(1, 6, n).astype(float), rng.integers(1, 6, n).astype(float)
    offset = rng.normal(0, 2, n) if kind == "types and outliers" else 0.0
    a = rng.normal(0.1, 1, n) + offset
    b = rng.normal(0.0, 1, n) + offset
    if kind == "types and outliers":
        outliers = rng.random(n) < 0.05
        a[outliers] -= rng.exponential(10, outliers.sum())
    return a, b


kinds = ["continuous, odd n", "continuous, even n", "types and outliers", "discrete 1-5 ratings"]
prop1_rows = []
for i in range(n_prop1_setups):
    kind = kinds[i % len(kinds)]
    a, b = random_setup(kind, rng)
    frame = pd.DataFrame({"A": a, "B": b})
    bt = aggregate.bradley_terry(frame)
    d = a - b
    prop1_rows.append(
        {
            "kind": kind,
            "n": len(a),
            "BT sign": np.sign(bt["A"] - bt["B"]).astype(int),
            "wins - losses sign": int(np.sign(np.sum(d > 0) - np.sum(d < 0))),
            "median(A-B) sign": int(np.sign(np.median(d))),
            "mean sign": int(np.sign(a.mean() - b.mean())),
            "median sign": int(np.sign(np.median(a) - np.median(b))),
        }
    )
prop1 = pd.DataFrame(prop1_rows)
prop1_summary = prop1.groupby("kind", sort=False)[prop1.columns.drop("kind")].apply(
    lambda g: pd.Series(
        {
            "setups": int(len(g)),
            "BT = sign(wins - losses)": (g["BT sign"] == g["wins - losses sign"]).mean(),
            "BT = sign(median of differences)": (g["BT sign"] == g["median(A-B) sign"]).mean(),
            "... among decisive BT (no tie in wins)": (
                g.loc[g["BT sign"] != 0, "BT sign"] == g.loc[g["BT sign"] != 0, "median(A-B) sign"]
            ).mean(),
            "BT ties (wins = losses)": (g["BT sign"] == 0).mean(),
            "MEAN agrees with BT": (g["mean sign"] == g["BT sign"]).mean(),
            "MEDIAN agrees with BT": (g["median sign"] == g["BT sign"]).mean(),
        }
    ),
).astype({"setups": int})
out.table(prop1, "paired_prop1_setups", index=False)
out.table(prop1_summary, "paired_prop1_summary")
show(prop1_summary)

# %% tags=["remove-input"]
row = prop1_summary.loc
display(
    Markdown(
        "BT's decision always equals the sign of *wins − losses* (its closed form). With continuous scores and an odd "
        f"number of instances it equals the sign of the median of differences in "
        f"{row['continuous, odd n', 'BT = sign(median of differences)']:.0%} of setups, as Prop. 1 says. The "
        "equivalence needs two caveats the proof glosses over: with an **even** number of instances, *A* and *B* can "
        f"win equally often (BT: a tie, {row['continuous, even n', 'BT ties (wins = losses)']:.0%} of those setups) while "
        "the median of differences, the mean of the two middle differences, is not zero; and with **tied scores** "
        "(discrete ratings) the median of differences can be 0 while one system wins more of the untied instances. "
        "Among setups where BT is decisive, the agreement with the median of differences is "
        f"{row['continuous, even n', '... among decisive BT (no tie in wins)']:.0%} for even n and "
        f"{row['discrete 1-5 ratings', '... among decisive BT (no tie in wins)']:.0%} for discrete ratings: BT is exactly "
        "the sign test's decision, which is the precise form of Prop. 1. With types and outliers, MEAN agrees with BT "
        f"in only {row['types and outliers', 'MEAN agrees with BT']:.0%} of setups."
    )
)

# %% [markdown]
# ## Appendix F — adding a system can change BT's order of two others
#
# BT fits all systems jointly, so it is not independent of irrelevant alternatives. The paper's example:
# 𝓜<sub>A</sub> = [1, 2, 3] and 𝓜<sub>B</sub> = [2, 3, 1] alone give *B* strength 2/3; adding
# 𝓜<sub>C</sub> = [3, 2, 1] is said to make all three equal. But this *C* **ties** *A* and *B* on the second
# instance, so the outcome depends on the tie policy; we compute it under all three, with a tight tolerance. We
# also compute the cyclic *C* = [3, 1, 2], which we believe is the intended example: *A*, *B*, *C* then form a
# Condorcet cycle (each beats the next on two of three instances).

# %%
appf = pd.DataFrame({"A": [1, 2, 3], "B": [2, 3, 1], "C printed": [3, 2, 1], "C cyclic": [3, 1, 2]}, dtype=float)
appf_rows = []
for ties_policy in ("half", "drop", "loss"):
    two = aggregate.bradley_terry(appf[["A", "B"]], ties=ties_policy, tol=1e-15)
    appf_rows.append({"systems": "A, B", "ties": ties_policy, "A": two["A"], "B": two["B"], "C": np.nan})
    for c in ("C printed", "C cyclic"):
        three = aggregate.bradley_terry(appf[["A", "B", c]], ties=ties_policy, tol=1e-15)
        appf_rows.append({"systems": f"A, B, {c}", "ties": ties_policy, "A": three["A"], "B": three["B"], "C": three[c]})
appf_table = pd.DataFrame(appf_rows)
out.table(appf_table, "paired_appF_transitivity", index=False)
show(appf_table, 4)

# %% tags=["remove-input"]
cyc = appf_table[(appf_table["systems"] == "A, B, C cyclic") & (appf_table["ties"] == "half")].iloc[0]
printed = appf_table[appf_table["systems"] == "A, B, C printed"].set_index("ties")
display(
    Markdown(
        f"Alone, *B* has strength {appf_table.iloc[0]['B']:.4f} = 2/3 under every tie policy (there is no tie between "
        f"*A* and *B*). With the cyclic *C* all three strengths are {cyc['A']:.4f}: *B* is no longer better than *A*, "
        "exactly the phenomenon Appendix F describes. With the printed *C* = [3, 2, 1] the strengths are not equal "
        f"under any policy (for example `half`: A {printed.loc['half', 'A']:.3f}, B {printed.loc['half', 'B']:.3f}, "
        f"C {printed.loc['half', 'C']:.3f}), and *B* stays above *A*."
    )
)

# %% [markdown]
# ## What differs from the paper, and why
#
# * **Fig. 1** — the paper does not print its five scores, and its caption and body text describe slightly different
#   examples. The scores here are constructed to satisfy every property either states (listed and asserted in the
#   code); the figure is therefore a faithful rebuild of the argument, not of the exact plotted values.
# * **Table 2** — the strengths are the paper's. The paper shows no numbers for the permutations; the table of
#   all 120 pairings is new, drawn with `n_per_type` instances per type and seed `seed`.
# * **Fig. 2** — the paper's three 2-D densities are not published as data; we rebuild three pairings with
#   identical marginals by construction (sorted, shifted and random couplings of the same two samples). The paper's
#   caption says "more mass in the upper-left triangle → BT predicts that A is better", while its axes put *A* on x
#   and *B* on y and its body text says the opposite (upper triangle → *B* better). We follow the body text, which
#   matches the axes.
# * **Prop. 1** — holds exactly for continuous scores and an odd number of instances. With an even number of
#   instances or tied scores, "BT consistent ⟺ *M*<sub>A−B</sub> > 0" needs the caveats shown above; the exact
#   statement is that BT's two-system decision is the sign of (wins − losses), i.e. the sign test's statistic.
# * **Appendix F** — with *C* = [3, 2, 1] as printed, BT's strengths are not all equal under any tie policy; the
#   claim holds for the cyclic *C* = [3, 1, 2], which is most likely what was meant.
# * **Ties** — BT here counts a tie as half a win (`ties="half"`). The paper's code counted a tie as a win for the
#   later system (`ties="loss"`); it makes no difference in this chapter except in Appendix F, where all three
#   policies are shown.
