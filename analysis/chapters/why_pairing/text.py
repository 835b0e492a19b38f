"""Chapter 00's tables as the page shows them (rankings in words, the summary read down, tie policies in words) and
:func:`claim_values`, the tidy table the claims registry reads (Peyrard et al. 2021, §1-3, Appendices A.1, B, F;
``data/published/claims/paired.toml``). The page's sentences are in the notebook's markdown."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

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


def fig1_statements_table(checks: dict) -> pd.DataFrame:
    """:func:`.experiments.fig1_checks` as a table: where the paper says it, the statement, and whether the
    authors' scores bear it out."""
    return pd.DataFrame([{"where": where, "statement": statement, "holds": "yes" if holds else "no"}
                         for where, statements in checks.items() for statement, holds in statements.items()])


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


def appendix_f_display(table: pd.DataFrame) -> pd.DataFrame:
    """Appendix F's table for the page: the tie policy in words (:data:`TIE_POLICIES`) instead of its code."""
    return table.assign(ties=table["ties"].map(TIE_POLICIES)).rename(columns={"ties": "tie policy"})


# -- the values the claims registry reads ---------------------------------------------------------------------------

def claim_values(*, fig1_checks: dict, pairings_summary: pd.DataFrame, fig2_summary: pd.DataFrame,
                 prop1_setups: pd.DataFrame, appendix_f: pd.DataFrame) -> pd.DataFrame:
    """The tidy table behind the registry's records of this chapter: one row per (key, detail) with a number
    (``value``) or a test result (``holds``). ``fig1_checks``: :func:`.experiments.fig1_checks`."""
    rows = []

    def add(key, detail, value=np.nan, holds=None):
        rows.append({"key": key, "detail": detail, "value": value, "holds": holds})

    for where, key in (("caption", "fig1"), ("§1", "fig1-intro"), ("§3", "fig1-section3")):
        for detail, holds in fig1_checks[where].items():
            add(key, detail, holds=holds)
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
