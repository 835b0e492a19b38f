"""Chapter ``00_why_pairing_matters``: the paired paper's small, exact illustrations (Peyrard et al. 2021, §1-3:
Fig. 1, Table 2 / App. A.1, Fig. 2, Prop. 1 / App. B, App. F), one section per paper item with its computation,
figure and claim values (``data/published/claims/paired.toml``)."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from mpl_toolkits.axes_grid1 import make_axes_locatable

from .. import aggregate, pairwise
from ..comparisons import TIES
from ..data import published
from ..validation import check_rng
from .common import SEED, Param

CHAPTER = "00_why_pairing_matters"
PARAMETERS = {
    "seed": SEED,
    "n_per_type": Param("int", low=2, quick=100),
    "n_fig2": Param("int", low=2, quick=400),
    "n_prop1_setups": Param("int", low=1, quick=200),
}

# -- Fig. 1 --------------------------------------------------------------------------------------------------------


def fig1_scores() -> pd.DataFrame:
    """Fig. 1's five scores of A, B and C, as the authors' notebook draws them (``data/published/paired.toml``,
    ``fig1_scores``: Intuition.ipynb of epfl-dlab/BT-eval, cell 5)."""
    return pd.DataFrame(published.load("paired")["fig1_scores"], columns=list("ABC"),
                        index=pd.RangeIndex(1, 6, name="instance"), dtype=float)


def fig1_aggregates(scores: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"mean": aggregate.mean(scores), "median": aggregate.median(scores),
                         "bt": aggregate.bradley_terry(scores)})


def _section3_checks(scores: pd.DataFrame, aggregates: pd.DataFrame) -> dict[str, bool]:
    """§3's statements about Fig. 1 (A worse than C on all instances but one with the medians 10 vs. 7, B better
    than C on all but one, A and B equivalent for MEAN and MEDIAN) on ``scores`` named as §3 names them."""
    but_one = pairwise.win_tie_matrices(scores)[0] == len(scores) - 1
    mean, median = aggregates["mean"], aggregates["median"]
    return {"C beats A on all instances but one": but_one.loc["C", "A"],
            "median of A above median of C (10 vs. 7)": (median["A"], median["C"]) == (10, 7),
            "B beats C on all instances but one": but_one.loc["B", "C"],
            "A and B equal for MEAN and MEDIAN": (np.isclose(mean["A"], mean["B"])
                                                  and np.isclose(median["A"], median["B"]))}


def notebook_names(scores: pd.DataFrame) -> pd.DataFrame:
    """Fig. 1's scores named as the authors' notebook names its lists (B = y_b, C = y_c), which §3 uses: the
    figure's legend swaps B and C (its B is y_c, its C is y_b; ``data/published/paired.toml``, ``fig1_scores``)."""
    return scores.rename(columns={"B": "C", "C": "B"})[list(scores.columns)]


def fig1_checks(scores: pd.DataFrame, aggregates: pd.DataFrame) -> pd.DataFrame:
    """One row per statement the paper makes about Fig. 1's scores (the caption, §1 and §3 describe the example
    differently) with its claim ``key`` and whether ``scores`` bear it out; §3's statements are checked under the
    legend's names (``fig1-section3``) and under the notebook's names §3 uses (``fig1-section3-notebook-names``)."""
    but_one = pairwise.win_tie_matrices(scores)[0] == len(scores) - 1  # [a, b]: a beats b on all instances but one
    mean, median, bt = aggregates["mean"], aggregates["median"], aggregates["bt"]
    renamed = notebook_names(scores)
    checks = {
        ("caption", "fig1"): {"all means equal": np.allclose(mean, mean.iloc[0]),
                              "C beats A on all instances but one": but_one.loc["C", "A"],
                              "B beats A on all instances but one": but_one.loc["B", "A"],
                              "BT: C > A and B > A": bt["C"] > bt["A"] < bt["B"],
                              "median of A above median of B": median["A"] > median["B"]},
        ("§1", "fig1-intro"): {"B beats A on all instances but one": but_one.loc["B", "A"],
                               "median of A above median of B": median["A"] > median["B"]},
        ("§3", "fig1-section3"): _section3_checks(scores, aggregates),
        ("§3, notebook's names", "fig1-section3-notebook-names"): _section3_checks(renamed, fig1_aggregates(renamed)),
    }
    return pd.DataFrame([{"where": where, "key": key, "detail": statement, "holds": bool(holds)}
                         for (where, key), statements in checks.items() for statement, holds in statements.items()])


def ranking(values: pd.Series) -> str:
    """Systems from best to worst, ``=`` between equal values: ``"B > C > A"``, ``"A = B > C"``."""
    ordered = values.sort_values(ascending=False, kind="stable")
    signs = np.where(np.isclose(ordered.to_numpy()[1:], ordered.to_numpy()[:-1]), "=", ">")
    return str(ordered.index[0]) + "".join(f" {sign} {name}" for sign, name in zip(signs, ordered.index[1:]))


def plot_fig1(scores: pd.DataFrame, aggregates: pd.DataFrame) -> plt.Figure:
    """Fig. 1: (a) each system's score per test instance, (b) MEAN, MEDIAN and BT per system, BT rescaled to the
    largest mean (strengths have no unit of their own)."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.3), gridspec_kw={"width_ratios": [1.35, 1]})
    palette = dict(zip(scores.columns, sns.color_palette("colorblind", len(scores.columns))))
    for system in scores:
        axes[0].plot(scores.index, scores[system], marker="o", lw=1.5, label=system, color=palette[system])
    axes[0].set(xlabel="test instance", ylabel="evaluation score", title="(a) scores", xticks=scores.index)
    ranked = aggregates[["mean", "median", "bt"]].copy()
    ranked["bt"] = ranked["bt"] / ranked["bt"].max() * ranked["mean"].max()  # BT on the score scale, for display
    ranked.columns = ["MEAN", "MEDIAN", "BT\n(rescaled)"]
    ranked.T.plot.bar(ax=axes[1], color=[palette[s] for s in ranked.index], rot=0, legend=False)
    axes[1].set(title="(b) aggregates", ylabel="aggregate")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, title="system", loc="center left", bbox_to_anchor=(1.0, 0.55), frameon=False)
    fig.tight_layout()
    return fig


# -- Table 2 / Appendix A.1 -----------------------------------------------------------------------------------------

def table2_strengths() -> pd.DataFrame:
    """The paper's Table 2 (strengths of S and B per instance type), from ``data/published/paired.toml``."""
    t2 = published.item("paired", "table2")
    return pd.DataFrame([t2["S"], t2["B"]], index=["S", "B"], columns=t2["types"])


def fixed_marginal_pairings(strengths: pd.DataFrame, n_per_type: int, rng) -> pd.DataFrame:
    """App. A.1, one row per permutation of S's type strengths: ``n_per_type`` N(lambda, 1) scores per type, S's
    block for type perm[t] paired with B's for type t, so S's sample (its marginal) never changes, only the pairing."""
    lam = strengths.loc[["S", "B"]].to_numpy(float)
    blocks = lam[:, :, None] + check_rng(rng).standard_normal((2, lam.shape[1], n_per_type))  # S's, then B's noise
    perms = np.array(list(itertools.permutations(range(lam.shape[1]))))
    s, b = blocks[0][perms].reshape(len(perms), -1), blocks[1].ravel()
    return pd.DataFrame({
        "permutation of S": [" ".join(str(p + 1) for p in perm) for perm in perms],
        "mean S - mean B": s.mean(axis=1) - b.mean(),
        "median S - median B": np.median(s, axis=1) - np.median(b),
        "P(S > B)": [pairwise.prob_better(row, b).prob for row in s],
        "BT strength of S": [aggregate.bradley_terry(pd.DataFrame({"S": row, "B": b}))["S"] for row in s],
        "types won by S": (lam[0][perms] > lam[1]).sum(axis=1),
    })


def pairings_summary(pairings: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "permutations": [len(pairings)],
        "distinct mean S - mean B": [pairings["mean S - mean B"].round(9).nunique()],
        "distinct median S - median B": [pairings["median S - median B"].round(9).nunique()],
        "min P(S > B)": [pairings["P(S > B)"].min()],
        "max P(S > B)": [pairings["P(S > B)"].max()],
        "share where BT prefers B": [(pairings["BT strength of S"] < 0.5).mean()],
    })


#: the summary's rows as a reader reads them (the page shows it read down)
SUMMARY_LABELS = {
    "permutations": "permutations of S's type strengths",
    "distinct mean S - mean B": "distinct values of mean S − mean B",
    "distinct median S - median B": "distinct values of median S − median B",
    "min P(S > B)": "smallest P(S > B)",
    "max P(S > B)": "largest P(S > B)",
    "share where BT prefers B": "share of pairings where BT prefers B",
}


# -- Fig. 2 ---------------------------------------------------------------------------------------------------------

def fig2_pairings(n: int, rng) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Three pairings (sorted, shifted by 30% of the ranks, independent) of the same two samples, so identical
    marginals: a two-mode mixture ("easy" and "hard" instances), B slightly better on average."""
    gen = check_rng(rng)
    a = np.sort(np.concatenate([gen.normal(0.3, 0.08, n // 2), gen.normal(0.7, 0.08, n - n // 2)]))
    b = np.sort(a + 0.03 + gen.normal(0, 0.01, n))
    return {
        "sorted pairing": (a, b),
        "shifted pairing": (a, np.roll(b, int(0.3 * n))),  # rank i of A with rank i - shift of B
        "independent pairing": (a, gen.permutation(b)),
    }


def fig2_summary(pairings: dict[str, tuple[np.ndarray, np.ndarray]]) -> pd.DataFrame:
    """Per pairing: means, medians, P(B > A) and which system MEAN, MEDIAN and BT prefer."""
    t = pd.DataFrame.from_dict({title: {"mean A": xa.mean(), "mean B": xb.mean(), "median A": np.median(xa),
                                        "median B": np.median(xb), "P(B > A)": pairwise.prob_better(xb, xa).prob}
                                for title, (xa, xb) in pairings.items()}, orient="index").rename_axis("pairing")
    return t.assign(**{"MEAN prefers": np.where(t["mean B"] > t["mean A"], "B", "A"),
                       "MEDIAN prefers": np.where(t["median B"] > t["median A"], "B", "A"),
                       "BT prefers": np.where(t["P(B > A)"] > 0.5, "B", "A")})


def plot_fig2(pairings: dict[str, tuple[np.ndarray, np.ndarray]], summary: pd.DataFrame) -> plt.Figure:
    """Fig. 2: one panel per pairing, instances at (score of A, score of B) with marginal densities, means, medians,
    the diagonal and the half-plane BT prefers shaded in its winner's colour."""
    fig = plt.figure(figsize=(8.4, 3.2))
    grid = fig.add_gridspec(1, len(pairings), wspace=0.3, bottom=0.22)
    colors = {"A": sns.color_palette("colorblind")[2], "B": sns.color_palette("colorblind")[0]}
    lo, hi = -0.05, 1.05
    for k, (title, (xa, xb)) in enumerate(pairings.items()):
        ax = fig.add_subplot(grid[0, k])
        ax.set_aspect("equal", adjustable="box")
        divider = make_axes_locatable(ax)
        ax_top = divider.append_axes("top", 0.45, pad=0.04, sharex=ax)
        ax_right = divider.append_axes("right", 0.45, pad=0.04, sharey=ax)
        p_b = summary.loc[title, "P(B > A)"]
        winner = "B" if p_b > 0.5 else "A"  # B wins above the diagonal, A below
        ax.fill_between([lo, hi], [lo, hi], hi if winner == "B" else lo, color=colors[winner], alpha=0.12, lw=0)
        ax.scatter(xa, xb, s=2, alpha=0.35, color="0.25", rasterized=True)
        ax.plot([lo, hi], [lo, hi], color="black", lw=1)
        # the means and medians nearly coincide here: each is a marker on its own edge (means on the top and right
        # edges, medians on the bottom and left ones), so neither can hide the other
        for stat, marker_a, marker_b, at, face in (("mean", "v", "<", hi, "white"), ("median", "^", ">", lo, None)):
            ax.plot(summary.loc[title, f"{stat} A"], at, marker=marker_a, ms=8, mec=colors["A"], mew=1.6,
                    color=face or colors["A"], clip_on=False, zorder=5)
            ax.plot(at, summary.loc[title, f"{stat} B"], marker=marker_b, ms=8, mec=colors["B"], mew=1.6,
                    color=face or colors["B"], clip_on=False, zorder=5)
        sns.kdeplot(x=xa, ax=ax_top, color=colors["A"], fill=True, bw_adjust=0.6)
        sns.kdeplot(y=xb, ax=ax_right, color=colors["B"], fill=True, bw_adjust=0.6)
        ax_top.axis("off")
        ax_right.axis("off")
        ax.set(xlim=(lo, hi), ylim=(lo, hi), xticks=[0, 0.5, 1], yticks=[0, 0.5, 1], xlabel="score of A",
               ylabel="score of B" if k == 0 else "")
        ax_top.set_title(f"{title.removesuffix(' pairing')}: P(B > A) = {p_b:.2f}\nBT prefers {winner}", fontsize=10)
    handles = [
        plt.Line2D([], [], ls="", marker="v", ms=8, mec="0.3", mew=1.6, color="white",
                   label="means (top and right edges)"),
        plt.Line2D([], [], ls="", marker="^", ms=8, mec="0.3", color="0.3", label="medians (bottom and left edges)"),
        plt.Line2D([], [], color="black", label="$X_A = X_B$"),
        *(plt.Rectangle((0, 0), 1, 1, color=colors[s], alpha=0.25, lw=0, label=f"half-plane where {s} wins more")
          for s in "BA"),
    ]
    fig.legend(handles=handles, loc="upper center", ncol=2, frameon=False, bbox_to_anchor=(0.5, 0.1), fontsize=10)
    return fig


# -- Prop. 1 / Appendix B -------------------------------------------------------------------------------------------

PROP1_KINDS = ("continuous, odd n", "continuous, even n", "types and outliers", "discrete 1-5 ratings")
#: Prop. 1's three decisions and the column of :func:`prop1_setups` with each one's sign
PROP1_DECISIONS = {"MEAN": "mean sign", "MEDIAN": "median sign", "BT (median of differences)": "median(A-B) sign"}


def prop1_random_setup(kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Scores of A and B for one random two-system setup of ``kind`` (one of :data:`PROP1_KINDS`)."""
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


def prop1_setups(n_setups: int, rng) -> pd.DataFrame:
    """Prop. 1 checked numerically: per random setup (the kinds in turn), the sign of BT's, MEAN's and MEDIAN's
    decisions, of wins - losses and of the median of differences."""
    gen = check_rng(rng)
    rows = []
    for kind in (PROP1_KINDS[i % len(PROP1_KINDS)] for i in range(n_setups)):
        a, b = prop1_random_setup(kind, gen)
        bt, d = aggregate.bradley_terry(pd.DataFrame({"A": a, "B": b})), a - b
        rows.append([kind, len(a), bt["A"] - bt["B"], np.sum(d > 0) - np.sum(d < 0), np.median(d),
                     a.mean() - b.mean(), np.median(a) - np.median(b)])
    t = pd.DataFrame(rows, columns=["kind", "n", "BT sign", "wins - losses sign", "median(A-B) sign", "mean sign",
                                    "median sign"])
    return t.assign(**{column: np.sign(t[column]).astype(int) for column in t.columns[2:]})


def prop1_summary(setups: pd.DataFrame) -> pd.DataFrame:
    """Per kind of setup (in turn), its number of setups and how often BT's decision equals each sign."""
    bt, decisive = setups["BT sign"], setups["BT sign"] != 0
    agrees = pd.DataFrame({
        "BT = sign(wins - losses)": bt == setups["wins - losses sign"],
        "BT = sign(median of differences)": bt == setups["median(A-B) sign"],
        "... among decisive BT (no tie in wins)": (bt == setups["median(A-B) sign"]).where(decisive),
        "BT ties (wins = losses)": ~decisive,
        "MEAN agrees with BT": setups["mean sign"] == bt,
        "MEDIAN agrees with BT": setups["median sign"] == bt,
    }).groupby(setups["kind"], sort=False).mean()
    return agrees.assign(setups=setups.groupby("kind", sort=False).size())[["setups", *agrees.columns]]


def prop1_non_implications(setups: pd.DataFrame) -> pd.DataFrame:
    """§3: "none of the conditions implies any other condition in Prop. 1". Per ordered pair (X, Y) of decisions,
    the setups where X's condition holds (sign > 0) and Y's does not: a count above 0 shows X does not imply Y."""
    return pd.DataFrame([{"condition": x, "without": y,
                          "setups": int(((setups[PROP1_DECISIONS[x]] > 0) & (setups[PROP1_DECISIONS[y]] <= 0)).sum())}
                         for x, y in itertools.permutations(PROP1_DECISIONS, 2)])


# -- Appendix F -----------------------------------------------------------------------------------------------------

def appendix_f_table() -> pd.DataFrame:
    """App. F's example: BT strengths (tight tolerance) of A and B alone and with the printed C = [3, 2, 1] (which
    ties A and B on the second instance) or the cyclic C = [3, 1, 2], under every tie policy."""
    scores = pd.DataFrame({"A": [1, 2, 3], "B": [2, 3, 1], "C printed": [3, 2, 1], "C cyclic": [3, 1, 2]}, dtype=float)
    rows = []
    for ties, third in itertools.product(TIES, ([], ["C printed"], ["C cyclic"])):
        bt = aggregate.bradley_terry(scores[["A", "B", *third]], ties=ties, tol=1e-15)
        rows.append({"systems": ", ".join(bt.index), "ties": ties, **bt.set_axis(["A", "B", "C"][:len(bt)])})
    return pd.DataFrame(rows)


# -- the values the claims registry reads (Fig. 1's are :func:`fig1_checks`' rows) ------------------------------------

def fig2_caption_checks(fig2_summary: pd.DataFrame) -> list[tuple]:
    """Fig. 2's caption's two geometric criteria read on each pairing (x = A's score, y = B's): (i) the means'
    prolongations meeting above the line X_A = X_B, i.e. B's mean above A's, "then MEAN predicts that A is better";
    (ii) more mass in the upper-left triangle (B above A on most instances), "then BT predicts that A is better".
    Each row holds when the caption's prediction is the mechanism's decision (the body text of §3 states the
    criteria the other way round: above the line, B is better)."""
    rows = []
    for pairing, r in fig2_summary.iterrows():
        means_above = r["mean B"] > r["mean A"]
        mass_upper_left = r["P(B > A)"] > 0.5
        rows += [("fig2-caption-criteria", f"(i) {pairing}: means meet {'above' if means_above else 'below'} the "
                  "diagonal, caption: MEAN prefers " + ("A" if means_above else "B"), np.nan,
                  ("A" if means_above else "B") == r["MEAN prefers"]),
                 ("fig2-caption-criteria", f"(ii) {pairing}: more mass "
                  f"{'upper-left' if mass_upper_left else 'lower-right'}"
                  ", caption: BT prefers " + ("A" if mass_upper_left else "B"), np.nan,
                  ("A" if mass_upper_left else "B") == r["BT prefers"])]
    return rows


def claim_values(pairings_summary: pd.DataFrame, fig2_summary: pd.DataFrame, non_implications: pd.DataFrame,
                 appendix_f: pd.DataFrame) -> pd.DataFrame:
    """The claim values of App. A.1, Fig. 2, Prop. 1 and App. F: a number (``value``) or a test (``holds``)."""
    s = pairings_summary.iloc[0]
    middle = fig2_summary.iloc[len(fig2_summary) // 2]
    printed = appendix_f[appendix_f.systems == "A, B, C printed"]
    spread = printed[["A", "B", "C"]].max(axis=1) - printed[["A", "B", "C"]].min(axis=1)
    rows = [("appA1", "one mean difference over all permutations", np.nan, s["distinct mean S - mean B"] == 1),
            ("appA1", "one median difference over all permutations", np.nan, s["distinct median S - median B"] == 1),
            ("appA1", "the pairing changes: P(S > B) varies", np.nan, s["max P(S > B)"] > s["min P(S > B)"]),
            ("fig2", "identical means and medians in every pairing", np.nan,
             (fig2_summary[["mean A", "mean B", "median A", "median B"]].round(9).nunique() == 1).all()),
            ("fig2", "middle pairing: BT prefers A while MEAN and MEDIAN prefer B", np.nan,
             middle["BT prefers"] == "A" and middle["MEAN prefers"] == "B" == middle["MEDIAN prefers"])]
    rows += fig2_caption_checks(fig2_summary)
    rows += [("prop1-no-implication", f"{r.condition} without {r.without}", r.setups, r.setups > 0)
             for r in non_implications.itertuples()]
    rows += [("appF-printed-spread", f"ties={ties}", value, None) for ties, value in zip(printed["ties"], spread)]
    return pd.DataFrame(rows, columns=["key", "detail", "value", "holds"])
