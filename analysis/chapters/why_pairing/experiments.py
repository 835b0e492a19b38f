"""Chapter 00's computations per paper item: Fig. 1's scores and aggregates, Table 2 / Appendix A.1's pairings with
fixed marginals, Fig. 2's pairings, Prop. 1's random two-system setups and Appendix F's three-system example
(Peyrard et al. 2021, §1-3, Appendices A.1, B, F)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ... import aggregate, pairwise
from ...data import published
from ...validation import check_rng

# -- Fig. 1 --------------------------------------------------------------------------------------------------------

def fig1_scores() -> pd.DataFrame:
    """Fig. 1's five scores of A, B and C, as the authors' notebook draws them (``data/published/paired.toml``,
    ``fig1_scores``: Intuition.ipynb of epfl-dlab/BT-eval, cell 5)."""
    typed = published.load("paired")["fig1_scores"]
    return pd.DataFrame({name: typed[name] for name in "ABC"}, index=pd.RangeIndex(1, 6, name="instance"),
                        dtype=float)


def fig1_aggregates(scores: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({"mean": aggregate.mean(scores), "median": aggregate.median(scores),
                         "bt": aggregate.bradley_terry(scores)})


def fig1_checks(scores: pd.DataFrame, aggregates: pd.DataFrame) -> dict[str, dict[str, bool]]:
    """Each statement the paper makes about Fig. 1's scores, and whether ``scores`` bear it out, by where it is made:
    the caption, §1 and §3 (which describe the example differently)."""
    wins, _ = pairwise.win_tie_matrices(scores)
    agg = aggregates
    equal_means = bool(np.allclose(agg["mean"], agg["mean"].iloc[0]))
    return {
        "caption": {"all means equal": equal_means,
                    "C beats A on all instances but one": int(wins.loc["C", "A"]) == len(scores) - 1,
                    "B beats A on all instances but one": int(wins.loc["B", "A"]) == len(scores) - 1,
                    "BT: C > A and B > A": bool(agg.loc["C", "bt"] > agg.loc["A", "bt"] < agg.loc["B", "bt"]),
                    "median of A above median of B": bool(agg.loc["A", "median"] > agg.loc["B", "median"])},
        "§1": {"B beats A on all instances but one": int(wins.loc["B", "A"]) == len(scores) - 1,
               "median of A above median of B": bool(agg.loc["A", "median"] > agg.loc["B", "median"])},
        "§3": {"C beats A on all instances but one": int(wins.loc["C", "A"]) == len(scores) - 1,
               "median of A above median of C (10 vs. 7)": (agg.loc["A", "median"], agg.loc["C", "median"]) == (10, 7),
               "B beats C on all instances but one": int(wins.loc["B", "C"]) == len(scores) - 1,
               "A and B equal for MEAN and MEDIAN": bool(np.isclose(agg.loc["A", "mean"], agg.loc["B", "mean"])
                                                         and np.isclose(agg.loc["A", "median"], agg.loc["B", "median"]))},
    }


# -- Table 2 / Appendix A.1 -----------------------------------------------------------------------------------------

def table2_strengths() -> pd.DataFrame:
    """The paper's Table 2 (strengths of S and B per instance type), from ``data/published/paired.toml``."""
    t2 = published.item("paired", "table2")
    return pd.DataFrame([t2["S"], t2["B"]], index=["S", "B"], columns=t2["types"])


def fixed_marginal_pairings(strengths: pd.DataFrame, n_per_type: int, rng) -> pd.DataFrame:
    """App. A.1: for every permutation of S's type strengths, ``n_per_type`` instances per type with scores
    N(lambda, 1), S's block for type perm[t] paired with B's block for type t. S's sample (so its marginal, mean
    and median) is the same for every permutation; only the pairing with B changes. One row per permutation."""
    gen = check_rng(rng)
    lam_s = strengths.loc["S"].to_numpy(float)
    lam_b = strengths.loc["B"].to_numpy(float)
    n_types = len(lam_s)
    noise_s = gen.standard_normal((n_types, n_per_type))
    noise_b = gen.standard_normal((n_types, n_per_type))
    b_scores = (lam_b[:, None] + noise_b).ravel()
    rows = []
    for perm in itertools.permutations(range(n_types)):
        s_scores = (lam_s[:, None] + noise_s)[list(perm)].ravel()
        bt = aggregate.bradley_terry(pd.DataFrame({"S": s_scores, "B": b_scores}))
        rows.append({
            "permutation of S": " ".join(str(p + 1) for p in perm),
            "mean S - mean B": s_scores.mean() - b_scores.mean(),
            "median S - median B": np.median(s_scores) - np.median(b_scores),
            "P(S > B)": pairwise.prob_better(s_scores, b_scores).prob,
            "BT strength of S": bt["S"],
            "types won by S": int(np.sum(lam_s[list(perm)] > lam_b)),
        })
    return pd.DataFrame(rows)


def pairings_summary(pairings: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "permutations": [len(pairings)],
        "distinct mean S - mean B": [pairings["mean S - mean B"].round(9).nunique()],
        "distinct median S - median B": [pairings["median S - median B"].round(9).nunique()],
        "min P(S > B)": [pairings["P(S > B)"].min()],
        "max P(S > B)": [pairings["P(S > B)"].max()],
        "share where BT prefers B": [(pairings["BT strength of S"] < 0.5).mean()],
    })


def pairings_examples(pairings: pd.DataFrame) -> pd.DataFrame:
    """Five pairings spread over the range of P(S > B): the two lowest, the median one, the two highest."""
    return pairings.sort_values("P(S > B)").iloc[[0, 1, len(pairings) // 2, -2, -1]].reset_index(drop=True)


# -- Fig. 2 ---------------------------------------------------------------------------------------------------------

def fig2_pairings(n: int, rng) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Three pairings of the same two samples (so identical marginals): sorted, shifted by 30% of the ranks, and
    independent. The scores are a two-mode mixture ("easy" and "hard" instances), B slightly better on average."""
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
    rows = []
    for title, (xa, xb) in pairings.items():
        p_b = pairwise.prob_better(xb, xa).prob
        rows.append({
            "pairing": title, "mean A": xa.mean(), "mean B": xb.mean(), "median A": np.median(xa),
            "median B": np.median(xb), "P(B > A)": p_b,
            "MEAN prefers": "B" if xb.mean() > xa.mean() else "A",
            "MEDIAN prefers": "B" if np.median(xb) > np.median(xa) else "A",
            "BT prefers": "B" if p_b > 0.5 else "A",
        })
    return pd.DataFrame(rows).set_index("pairing")


# -- Prop. 1 / Appendix B -------------------------------------------------------------------------------------------

PROP1_KINDS = ("continuous, odd n", "continuous, even n", "types and outliers", "discrete 1-5 ratings")


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
    """Prop. 1 checked numerically: per random setup (the kinds in turn), the sign of BT's decision, of wins - losses,
    of the median of differences, and of MEAN's and MEDIAN's decisions."""
    gen = check_rng(rng)
    rows = []
    for i in range(n_setups):
        kind = PROP1_KINDS[i % len(PROP1_KINDS)]
        a, b = prop1_random_setup(kind, gen)
        bt = aggregate.bradley_terry(pd.DataFrame({"A": a, "B": b}))
        d = a - b
        rows.append({
            "kind": kind,
            "n": len(a),
            "BT sign": np.sign(bt["A"] - bt["B"]).astype(int),
            "wins - losses sign": int(np.sign(np.sum(d > 0) - np.sum(d < 0))),
            "median(A-B) sign": int(np.sign(np.median(d))),
            "mean sign": int(np.sign(a.mean() - b.mean())),
            "median sign": int(np.sign(np.median(a) - np.median(b))),
        })
    return pd.DataFrame(rows)


def _prop1_rates(g: pd.DataFrame) -> pd.Series:
    decisive = g["BT sign"] != 0
    return pd.Series({
        "setups": int(len(g)),
        "BT = sign(wins - losses)": (g["BT sign"] == g["wins - losses sign"]).mean(),
        "BT = sign(median of differences)": (g["BT sign"] == g["median(A-B) sign"]).mean(),
        "... among decisive BT (no tie in wins)": (g.loc[decisive, "BT sign"]
                                                   == g.loc[decisive, "median(A-B) sign"]).mean(),
        "BT ties (wins = losses)": (~decisive).mean(),
        "MEAN agrees with BT": (g["mean sign"] == g["BT sign"]).mean(),
        "MEDIAN agrees with BT": (g["median sign"] == g["BT sign"]).mean(),
    })


def prop1_summary(setups: pd.DataFrame) -> pd.DataFrame:
    """Per kind of setup, how often BT's decision equals each sign."""
    summary = setups.groupby("kind", sort=False)[setups.columns.drop("kind")].apply(_prop1_rates)
    return summary.astype({"setups": int})


# -- Appendix F -----------------------------------------------------------------------------------------------------

def appendix_f_table(tol: float = 1e-15) -> pd.DataFrame:
    """App. F's example: BT strengths of A and B alone and with the printed C = [3, 2, 1] or the cyclic C = [3, 1, 2],
    under every tie policy (the printed C ties A and B on the second instance)."""
    scores = pd.DataFrame({"A": [1, 2, 3], "B": [2, 3, 1], "C printed": [3, 2, 1], "C cyclic": [3, 1, 2]}, dtype=float)
    rows = []
    for ties in ("half", "drop", "loss"):
        two = aggregate.bradley_terry(scores[["A", "B"]], ties=ties, tol=tol)
        rows.append({"systems": "A, B", "ties": ties, "A": two["A"], "B": two["B"], "C": np.nan})
        for c in ("C printed", "C cyclic"):
            three = aggregate.bradley_terry(scores[["A", "B", c]], ties=ties, tol=tol)
            rows.append({"systems": f"A, B, {c}", "ties": ties, "A": three["A"], "B": three["B"], "C": three[c]})
    return pd.DataFrame(rows)
