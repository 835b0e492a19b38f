"""The values the claims registry (``data/published/claims/synthesis.toml``) reads, one dict per study: a number, a
yes/no, or a test with the number it compared (shown beside its verdict), each computed from the study's summary
tables. The notebook records them with :meth:`~analysis.plotting.Outputs.values`, which also glues each as
``value-<measure>`` for the text."""

from __future__ import annotations

import pandas as pd

#: mechanisms that compare systems with each other (they can reorder the rest when a system is removed)
PAIRWISE = ("bt", "elo", "trueskill")


def stability_values(trade: pd.DataFrame) -> dict:
    t = trade.set_index("mechanism")
    pairwise = t.loc[list(PAIRWISE), "reordered_any"]
    return {
        "alone_reordered_max": float(t.loc[["mean", "median"], ["reordered_best", "reordered_worst"]].max().max()),
        "bt_reordered": float(t.loc["bt", "reordered_any"]),
        "bt_most_stable_pairwise": (float(pairwise.drop("bt").min() - pairwise["bt"]),
                                    bool(pairwise.idxmin() == "bt" and (pairwise.drop("bt") > pairwise["bt"]).all())),
        "bt_iia_share": float(t.loc["bt", "iia_violation_share"]),
        "bt_tau_drop": float(t.loc["bt", "tau_drop"]),
        "mean_tau_drop": float(t.loc["mean", "tau_drop"]),
        "bt_tau_drop_permute": float(t.loc["bt", "tau_drop_permute"]),
        "mean_tau_drop_permute": float(t.loc["mean", "tau_drop_permute"]),
        "bt_more_robust_than_mean": (float(t.loc["mean", "tau_drop"] - t.loc["bt", "tau_drop"]),
                                     bool(t.loc["bt", "tau_drop"] < t.loc["mean", "tau_drop"])),
    }


def wmt_values(summary: pd.DataFrame, null_test: pd.DataFrame | None = None) -> dict:
    s = summary.set_index(["experiment", "mechanism"])["reordered"]
    ends = ["remove_best", "remove_worst"]
    z_ends, bt_ends = s.loc[[(e, "z") for e in ends]].mean(), s.loc[[(e, "bt") for e in ends]].mean()
    out = {"z_ends_reordered": float(z_ends), "bt_ends_reordered": float(bt_ends),
           "bt_more_stable_ends": (float(z_ends - bt_ends), bool(bt_ends < z_ends))}
    if ("remove_random_mid", "z") in s.index:
        out["z_null_reordered"] = float(s[("remove_random_mid", "z")])
        out["bt_null_reordered"] = float(s[("remove_random_mid", "bt")])
        if null_test is not None:
            p = float(null_test.set_index("mechanism").loc["z", "p_value"])
            out["z_ends_null_p"] = p
            out["z_ends_above_null"] = (p, bool(z_ends > s[("remove_random_mid", "z")] and p < 0.05))
    return out


def favoritism_values(summary: pd.DataFrame, difference: dict) -> dict:
    s = summary.set_index("mechanism")
    return {"bt_minus_mean_rho": float(difference["difference"]), "bt_minus_mean_rho_low": float(difference["low"]),
            "bt_minus_mean_rho_high": float(difference["high"]), "bt_flipped": float(s.loc["bt", "flipped"]),
            "mean_flipped": float(s.loc["mean", "flipped"]), "bt_with_phi": float(s.loc["bt", "with_phi"]),
            "mean_with_phi": float(s.loc["mean", "with_phi"]),
            "bt_follows_phi_more": bool(difference["low"] > 0)}


def ties_values(marker: pd.DataFrame, costs: pd.DataFrame, sweep: pd.DataFrame) -> dict:
    m = marker.set_index("ties")
    by_p = sweep.groupby(["ties", "tie_probability"])["misplaced_share"].mean()
    low = min(p for p in sweep["tie_probability"].unique() if p > 0) if (sweep["tie_probability"] > 0).any() else 0.0
    return {"stable_share_half": float(m.loc["half", "stable_share"]),
            "misplaced_half": float(m.loc["half", "misplaced_share"]),
            "misplaced_drop": float(m.loc["drop", "misplaced_share"]),
            "rho_tie_rate_half": float(m.loc["half", "rho_tie_rate"]),
            "pairs_moved_drop": float(costs["pairs_moved_drop"].mean()),
            "pairs_moved_loss": float(costs["pairs_moved_loss"].mean()),
            "loss_injected_excess": float(by_p[("loss", low)] - by_p[("half", low)]),
            "half_injected_cost": float(by_p[("half", low)] - by_p[("half", 0.0)]) if ("half", 0.0) in by_p.index
            else float("nan"),
            "loss_moves_more_than_drop": (float(costs["pairs_moved_loss"].mean() - costs["pairs_moved_drop"].mean()),
                                          bool(costs["pairs_moved_loss"].mean() > costs["pairs_moved_drop"].mean())),
            "injected_probability": float(low)}
