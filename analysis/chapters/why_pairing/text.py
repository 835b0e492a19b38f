"""Chapter 00's page text and claim values: each sentence about a computed table is built here from its numbers and
branches on them, and :func:`claim_values` is the tidy table the claims registry reads (Peyrard et al. 2021, §1-3,
Appendices A.1, B, F; ``data/published/claims/paired.toml``)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ... import pairwise

#: BT's tie policies in words, for the page (the package's ``ties=`` codes are not for readers)
TIE_POLICIES = {"half": "ties as half a win each", "drop": "ties dropped",
                "loss": "ties as wins for the later system (the paper's code)"}

#: The three decisions of Prop. 1 and the column of :func:`.experiments.prop1_setups` that holds each one's sign.
PROP1_DECISIONS = {"MEAN": "mean sign", "MEDIAN": "median sign", "BT (median of differences)": "median(A-B) sign"}


def ranking(values: pd.Series) -> str:
    """Systems from best to worst, ``=`` between equal values: ``"B > C > A"``, ``"A = B > C"``."""
    ordered = values.sort_values(ascending=False, kind="stable")
    text = str(ordered.index[0])
    for prev, (name, value) in zip(ordered.to_numpy(), list(ordered.items())[1:]):
        text += (" = " if np.isclose(value, prev) else " > ") + str(name)
    return text


def _in(x: float) -> str:
    return "in every setup" if x == 1 else f"in {x:.0%} of setups"


# -- Fig. 1 --------------------------------------------------------------------------------------------------------

def fig1_text(scores: pd.DataFrame, aggregates: pd.DataFrame) -> str:
    """What each mechanism does with Fig. 1's scores, and where MEDIAN and BT disagree, from the scores."""
    wins, _ = pairwise.win_tie_matrices(scores)
    n = len(scores)
    text = [f"MEAN: {ranking(aggregates['mean'])}; MEDIAN: {ranking(aggregates['median'])}; BT: "
            f"{ranking(aggregates['bt'])}."]
    flips = [(a, b) for a, b in itertools.combinations(scores.columns, 2)
             if np.sign(aggregates.loc[a, "median"] - aggregates.loc[b, "median"])
             * np.sign(aggregates.loc[a, "bt"] - aggregates.loc[b, "bt"]) < 0]
    for a, b in flips:
        hi, lo = (a, b) if aggregates.loc[a, "bt"] > aggregates.loc[b, "bt"] else (b, a)
        text.append(f"MEDIAN and BT disagree on *{a}* versus *{b}*: *{hi}* scores higher than *{lo}* on "
                    f"{int(wins.loc[hi, lo])} of {n} instances, but *{lo}*'s median is higher "
                    f"({aggregates.loc[lo, 'median']:g} vs. {aggregates.loc[hi, 'median']:g}).")
    same = [(a, b) for a, b in itertools.combinations(scores.columns, 2)
            if sorted(scores[a]) == sorted(scores[b])]
    for a, b in same:
        text.append(f"*{a}* and *{b}* have the same set of scores, so MEAN and MEDIAN cannot tell them apart; BT "
                    + ("can: " + ranking(aggregates.loc[[a, b], "bt"]) + "."
                       if not np.isclose(aggregates.loc[a, "bt"], aggregates.loc[b, "bt"]) else "cannot either."))
    return " ".join(text)


def fig1_caption(aggregates: pd.DataFrame) -> str:
    """Fig. 1's caption: what the two panels show, that the scores are constructed, and how the figure differs from
    the paper's (which shows the scores only)."""
    means = aggregates["mean"]
    equal = (f"all with mean {means.iloc[0]:g}" if np.allclose(means, means.iloc[0])
             else "with means " + ", ".join(f"{s} {v:g}" for s, v in means.items()))
    return (f"Scores of {len(aggregates)} systems ({', '.join(aggregates.index)}) on five test instances, "
            f"{equal}: (a) each system's score per instance, (b) MEAN, MEDIAN and BT per system.\n\n"
            "Constructed scores: the paper does not print its own, and these satisfy every property its caption and "
            "text state. The paper's Fig. 1 shows the scores only; panel (b) is added here, with BT's strengths "
            "rescaled so that the largest equals the largest mean (strengths have no unit of their own).")


# -- Table 2 / Appendix A.1 -----------------------------------------------------------------------------------------

def _favours(diff: float) -> str:
    return "*S*" if diff > 0 else "*B*" if diff < 0 else "neither system"


#: the summary's rows as a reader reads them (:func:`pairings_summary_view`)
SUMMARY_LABELS = {
    "permutations": "permutations of S's type strengths",
    "distinct mean S - mean B": "distinct values of mean S − mean B",
    "distinct median S - median B": "distinct values of median S − median B",
    "min P(S > B)": "smallest P(S > B)",
    "max P(S > B)": "largest P(S > B)",
    "share where BT prefers B": "share of pairings where BT prefers B",
}


def pairings_summary_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The one-row summary of the pairings (:func:`.experiments.pairings_summary`) as a column a reader reads down:
    counts as integers, shares and probabilities as decimals, rows in words."""
    row = summary.iloc[0]
    values = [int(row[k]) if k.startswith(("permutations", "distinct")) else float(row[k]) for k in SUMMARY_LABELS]
    return pd.DataFrame({"value": pd.Series(values, index=list(SUMMARY_LABELS.values()), dtype=object)})


def pairings_text(pairings: pd.DataFrame, summary: pd.DataFrame) -> str:
    """App. A.1's permutations: whether the mean and median differences stay fixed while P(S > B) and BT move, and
    how Table 2's own pairing (the first permutation) comes out."""
    s = summary.iloc[0]
    n = len(pairings)
    mean_d, med_d = pairings["mean S - mean B"], pairings["median S - median B"]
    if s["distinct mean S - mean B"] == 1 and s["distinct median S - median B"] == 1:
        fixed = (f"All {n} pairings share one mean difference ({mean_d.iloc[0]:.2f}, in favour of "
                 f"{_favours(mean_d.iloc[0])}) and one median difference ({med_d.iloc[0]:.2f}, in favour of "
                 f"{_favours(med_d.iloc[0])})")
    else:
        fixed = (f"The {n} pairings have {int(s['distinct mean S - mean B'])} distinct mean differences and "
                 f"{int(s['distinct median S - median B'])} distinct median differences")
    own = pairings.iloc[0]
    return (f"{fixed}; P(S > B) ranges from {s['min P(S > B)']:.2f} to {s['max P(S > B)']:.2f}, and BT prefers *B* "
            f"in {s['share where BT prefers B']:.0%} of the pairings. Table 2's own pairing (permutation "
            f"`{own['permutation of S']}`) has P(S > B) = {own['P(S > B)']:.2f}: *S* is the stronger system on "
            f"{int(own['types won by S'])} of {len(own['permutation of S'].split())} types.")


# -- Fig. 2 ---------------------------------------------------------------------------------------------------------

def fig2_text(summary: pd.DataFrame) -> str:
    """Which system MEAN, MEDIAN and BT prefer in each pairing of Fig. 2, and whether the marginals are shared."""
    stats = ["mean A", "mean B", "median A", "median B"]
    shared = bool((summary[stats].round(9).nunique() == 1).all())
    mean_pick, median_pick = summary["MEAN prefers"], summary["MEDIAN prefers"]
    text = [("The pairings share their means and medians" if shared else "The pairings' means and medians differ")
            + ((f"; MEAN and MEDIAN prefer *{mean_pick.iloc[0]}* in all of them." if mean_pick.iloc[0] == median_pick.iloc[0]
                else f"; MEAN prefers *{mean_pick.iloc[0]}* and MEDIAN *{median_pick.iloc[0]}* in all of them.")
               if mean_pick.nunique() == 1 and median_pick.nunique() == 1 else
               "; MEAN's and MEDIAN's preferences change between them.")]
    for name, row in summary.iterrows():
        verb = "agrees with" if row["BT prefers"] == row["MEAN prefers"] == row["MEDIAN prefers"] else "departs from"
        text.append(f"{name.capitalize()}: P(B > A) = {row['P(B > A)']:.2f}, BT prefers *{row['BT prefers']}* and "
                    f"{verb} MEAN and MEDIAN.")
    return " ".join(text)


def fig2_caption(pairings: dict, summary: pd.DataFrame) -> str:
    """Fig. 2's caption: the pairings, the data (their size, computed) and how they differ from the paper's."""
    n = len(next(iter(pairings.values()))[0])
    names = [name.removesuffix(" pairing") for name in summary.index]
    return (f"The same two samples of {n:,} synthetic scores paired in {len(names)} ways ({', '.join(names)}): each "
            "point is a test instance at (score of *A*, score of *B*), with the marginal densities of *A* (top) and "
            "*B* (right), the means (dashed), the medians (dotted, and ▲ ► on the axes), the diagonal where both "
            "scores are equal, and the half-plane holding more instances, the one BT prefers, shaded.\n\n"
            "The scores are a two-mode mixture (an easy and a hard instance type), *B* slightly better on average, "
            "so the marginals, means and medians of the panels are identical by construction (their values are in "
            "the table below). The paper's Fig. 2 shows densities of data it does not publish; its caption puts "
            "the system BT prefers on the other side of the diagonal, and we follow its body text, which matches "
            "its axes.")


# -- Prop. 1 / Appendix B -------------------------------------------------------------------------------------------

def prop1_text(summary: pd.DataFrame) -> str:
    """Prop. 1 against the numerical check, per kind of setup (:data:`.experiments.PROP1_KINDS`)."""
    wins = summary["BT = sign(wins - losses)"]
    med = summary["BT = sign(median of differences)"]
    decisive = summary["... among decisive BT (no tie in wins)"]
    text = [f"BT's decision equals the sign of *wins − losses* (its closed form) {_in(wins.min())}"
            + ("." if wins.min() == 1 else " at worst (" + str(wins.idxmin()) + ").")]
    text.append("It equals the sign of the median of differences, as Prop. 1 says: " + "; ".join(
        f"{kind}, {_in(value)}" for kind, value in med.items()) + ".")
    off = [kind for kind in med.index if med[kind] < 1]
    if off:
        ties = summary["BT ties (wins = losses)"]
        parts = []
        for k in off:
            # the disagreements split into setups where BT ties (wins = losses) and where it is decisive
            disagree = 1 - med[k]
            decisive_off = (1 - decisive[k]) * (1 - ties[k])
            tied_off = max(disagree - decisive_off, 0.0)
            where = ("all of them BT ties" if decisive_off < 5e-4 else "none of them BT ties" if tied_off < 5e-4
                     else f"{tied_off / disagree:.0%} of them BT ties")
            parts.append(f"{k}, {disagree:.0%} of the setups ({where})")
        text.append("Where it does not, they disagree in " + "; ".join(parts) + ". With an even number of instances "
                    "*A* and *B* can win equally often (a BT tie) while the median of differences (the mean of the "
                    "two middle ones) is not zero; with tied scores the median of differences can be zero, or take "
                    "the other sign, while one system wins more of the untied instances (a decisive BT).")
    if wins.min() == 1 and off:
        text.append("So BT's two-system decision is the sign of *wins − losses* (the sign test's statistic), which "
                    "the median of differences matches only in: " + ", ".join(k for k in med.index if k not in off)
                    + ".")
    mean_agree = summary["MEAN agrees with BT"]
    text.append("MEAN agrees with BT in " + ", ".join(f"{v:.0%} ({k})" for k, v in mean_agree.items()) + ".")
    return " ".join(text)


def prop1_non_implications(setups: pd.DataFrame) -> pd.DataFrame:
    """§3: "none of the conditions implies any other condition in Prop. 1". For every ordered pair (X, Y) of the
    three decisions (:data:`PROP1_DECISIONS`): the number of setups where X's condition holds (sign > 0) and Y's
    does not, so that a count above 0 shows that X does not imply Y."""
    rows = []
    for x, y in itertools.permutations(PROP1_DECISIONS, 2):
        count = int(((setups[PROP1_DECISIONS[x]] > 0) & (setups[PROP1_DECISIONS[y]] <= 0)).sum())
        rows.append({"condition": x, "without": y, "setups": count})
    return pd.DataFrame(rows)


# -- Appendix F -----------------------------------------------------------------------------------------------------

def _spread(row: pd.Series) -> float:
    return float(row[["A", "B", "C"]].max() - row[["A", "B", "C"]].min())


def _policies(codes) -> str:
    return "with " + " or with ".join(TIE_POLICIES[c] for c in codes)


def appendix_f_display(table: pd.DataFrame) -> pd.DataFrame:
    """Appendix F's table for the page: the tie policy in words (:data:`TIE_POLICIES`) instead of its code."""
    return table.assign(ties=table["ties"].map(TIE_POLICIES)).rename(columns={"ties": "tie policy"})


def appendix_f_text(table: pd.DataFrame, tol: float = 1e-9) -> str:
    """Appendix F's example under every tie policy: B's strength alone, and with the printed and the cyclic C."""
    alone = table[table.systems == "A, B"].set_index("ties")
    text = []
    if np.allclose(alone["B"], alone["B"].iloc[0], atol=tol):
        text.append(f"Alone, *B* has strength {alone['B'].iloc[0]:.4f} under every tie policy.")
    else:
        text.append("Alone, *B* has strength " + ", ".join(f"{v:.4f} ({TIE_POLICIES[k]})" for k, v in alone["B"].items())
                    + ".")
    for which in ("cyclic", "printed"):
        rows = table[table.systems == f"A, B, C {which}"].set_index("ties")
        equal = [k for k, r in rows.iterrows() if _spread(r) <= tol]
        b_first = [k for k, r in rows.iterrows() if r["B"] > r["A"] + tol]
        label = f"With the {which} *C*"
        if len(equal) == len(rows):
            text.append(f"{label} all three strengths are {rows['A'].iloc[0]:.4f} under every policy: *B* is no "
                        "longer better than *A*.")
        else:
            text.append(f"{label} the strengths are equal " + (_policies(equal) if equal else "under no policy")
                        + " (with " + TIE_POLICIES["half"] + ": "
                        + ", ".join(f"{s} {rows.loc['half', s]:.3f}" for s in "ABC") + "), and *B* "
                        + ("stays above *A* under every policy." if len(b_first) == len(rows) else
                           "stays above *A* " + (_policies(b_first) if b_first else "under no policy") + "."))
    return " ".join(text)


# -- the values the claims registry reads ---------------------------------------------------------------------------

def claim_values(*, fig1_aggregates: pd.DataFrame, pairings_summary: pd.DataFrame, fig2_summary: pd.DataFrame,
                 prop1_setups: pd.DataFrame, appendix_f: pd.DataFrame) -> pd.DataFrame:
    """The tidy table behind the registry's records of this chapter: one row per (key, detail) with a number
    (``value``) or a test result (``holds``)."""
    rows = []

    def add(key, detail, value=np.nan, holds=None):
        rows.append({"key": key, "detail": detail, "value": value, "holds": holds})

    agg = fig1_aggregates
    add("fig1", "all means equal", holds=bool(np.allclose(agg["mean"], agg["mean"].iloc[0])))
    for hi, lo in (("C", "A"), ("B", "A"), ("B", "C")):
        add("fig1", f"BT: {hi} > {lo}", holds=bool(agg.loc[hi, "bt"] > agg.loc[lo, "bt"]))
    add("fig1", "median of A (10) above median of C (7)",
        holds=bool((agg.loc["A", "median"], agg.loc["C", "median"]) == (10, 7)))
    add("fig1", "MEAN and MEDIAN cannot tell A from B", holds=bool(
        np.isclose(agg.loc["A", "mean"], agg.loc["B", "mean"]) and np.isclose(agg.loc["A", "median"],
                                                                                 agg.loc["B", "median"])))
    add("fig1-intro", "median of A above median of B", holds=bool(agg.loc["A", "median"] > agg.loc["B", "median"]))
    s = pairings_summary.iloc[0]
    add("appA1", "one mean difference over all permutations", holds=bool(s["distinct mean S - mean B"] == 1))
    add("appA1", "one median difference over all permutations", holds=bool(s["distinct median S - median B"] == 1))
    add("appA1", "the pairing changes: P(S > B) varies", holds=bool(s["max P(S > B)"] > s["min P(S > B)"]))
    stats = ["mean A", "mean B", "median A", "median B"]
    add("fig2", "identical means and medians in every pairing",
        holds=bool((fig2_summary[stats].round(9).nunique() == 1).all()))
    middle = fig2_summary.iloc[len(fig2_summary) // 2]
    add("fig2", "middle pairing: BT prefers A while MEAN and MEDIAN prefer B",
        holds=bool(middle["BT prefers"] == "A" and middle["MEAN prefers"] == "B" == middle["MEDIAN prefers"]))
    for r in prop1_non_implications(prop1_setups).itertuples():
        add("prop1-no-implication", f"{r.condition} without {r.without}", r.setups, bool(r.setups > 0))
    for ties, row in appendix_f[appendix_f.systems == "A, B, C printed"].set_index("ties").iterrows():
        add("appF-printed-spread", f"ties={ties}", _spread(row))
    return pd.DataFrame(rows)
