"""Appendix C.2.1 on ChatGPT's SummEval head-to-head judgments: their symmetry in the order of presentation, their
position bias, and (beyond the paper) the judgments as a preference metric against the experts."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import favi
from ...data import published


def h2h_ratings(h2h: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's SummEval head-to-head judgments as preference ratings of system_a < system_b, in both presentation
    orders, with the experts' (Def. 13 on their mean ratings)."""
    swap = h2h["system_1"] > h2h["system_2"]
    frame = h2h.assign(system_a=h2h["system_1"].where(~swap, h2h["system_2"]),
                       system_b=h2h["system_2"].where(~swap, h2h["system_1"]),
                       expert=favi.derived_preferences(h2h["expert_1"], h2h["expert_2"]) * np.where(swap, -1, 1))
    frame["rating"] = np.select([frame["preferred"] == frame["system_a"], frame["preferred"] == frame["system_b"],
                                 frame["preferred"] == "tie"], [1, -1, 0], default=99)
    if len(unknown := frame.loc[frame["rating"] == 99, "preferred"].unique()):
        raise ValueError(f"head-to-head judgments naming neither system: {unknown[:5]}")
    out = frame.pivot_table(index=["aspect", "system_a", "system_b", "document", "expert"], columns="order",
                            values="rating", aggfunc="first").reset_index().rename_axis(columns=None)
    if out[["original", "toggled"]].isna().any().any():
        raise ValueError("some head-to-head judgments lack their other presentation order")
    return out.astype({"original": "int8", "toggled": "int8", "expert": "int8"})


def symmetry_confusion(ratings: pd.DataFrame) -> pd.DataFrame:
    s = favi.preference_symmetry(ratings["original"].to_numpy(), ratings["toggled"].to_numpy())
    labels = ["+ (a better)", "= (tie)", "- (b better)"]
    return pd.DataFrame(s.confusion, index=pd.Index(labels, name="original order"),
                        columns=pd.Index(labels, name="toggled order"))


def symmetry_table(ratings: pd.DataFrame) -> pd.DataFrame:
    """App. C.2.1 per aspect and overall: how often ChatGPT keeps its preference when the order is toggled, and
    Krippendorff's α between the orders."""
    paper = published.item("favi", "appendix_c21")
    rows = [{"aspect": aspect, "items": s.n_items, "accuracy": s.accuracy, "alpha_nominal": s.alpha_nominal,
             "alpha_ordinal": s.alpha_ordinal}
            for aspect, part in [*ratings.groupby("aspect"), ("all aspects", ratings)]
            for s in [favi.preference_symmetry(part["original"].to_numpy(), part["toggled"].to_numpy())]]
    rows.append({"aspect": "paper: GPT-3.5 on WMT22 en-de", "items": np.nan, "accuracy": paper["accuracy"],
                 "alpha_nominal": paper["krippendorff_alpha"], "alpha_ordinal": np.nan})
    return pd.DataFrame(rows).set_index("aspect")


def h2h_favi(ratings: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's head-to-head judgments as a preference metric against the experts, per aspect and order."""
    rows = []
    for (aspect, order), part in ratings.melt(id_vars=["aspect", "system_a", "system_b", "document", "expert"],
                                              value_vars=["original", "toggled"], var_name="order",
                                              value_name="judge").groupby(["aspect", "order"]):
        grouped = part.groupby(["system_a", "system_b"], sort=True)
        c = np.stack([favi.confusion_matrix(g["expert"].to_numpy(), g["judge"].to_numpy()) for _, g in grouped])
        r = favi.summarize(c)
        rows.append({"aspect": aspect, "order": order, "pairs": len(c),
                     "sample_accuracy": np.trace(c, axis1=1, axis2=2).sum() / c.sum(),
                     "system_accuracy": r.system_sign_agrees.mean(), "mean_abs_favi": np.nanmean(np.abs(r.favi))})
    return pd.DataFrame(rows)


def first_position(h2h: pd.DataFrame) -> dict[str, float]:
    """App. C.2.1's position bias: the share of preferences naming the summary shown first, and its binomial p-value."""
    letter = h2h["response"].astype(str).str.strip().str[0]
    first, second = int((letter == "A").sum()), int((letter == "B").sum())
    return {"c21.first_position_share": first / (first + second),
            "c21.first_position_pvalue": float(stats.binomtest(first, first + second, 0.5).pvalue)}
