"""Compact tables as read on the page: short package names, the replication and bootstrap views."""

from __future__ import annotations

import pandas as pd

PACKAGE_SHORT = {"newstest2018": "2018", "newstest2019": "2019", "newstest2020": "2020", "newstest2021-toen": "2021",
                 "wikipedia2021-fb": "2021 FB", "newstest2022-toen": "2022"}


def by_pair(frame: pd.DataFrame) -> pd.DataFrame:
    """Index a per-pair table by (package, pair) with short package names, for display."""
    out = frame.assign(package=frame["collection"].map(PACKAGE_SHORT)).set_index(["package", "pair"])
    return out.drop(columns=[c for c in ("collection", "year") if c in out.columns])


def replication_view(table: pd.DataFrame) -> pd.DataFrame:
    """The replication table as read on the page: differences in scientific notation, verdicts as yes/no."""
    rows = table[table["data"] != "ranking only"]

    def yes(value):
        return "" if pd.isna(value) else ("yes" if value else "no")

    def sci(value):
        return "" if pd.isna(value) else f"{value:.0e}"

    view = pd.DataFrame({
        "collection": rows["collection"], "pair": rows["pair"], "from": rows["data"], "systems": rows["n_systems"],
        "max Δz": rows["max_abs_z_diff"].map(sci), "max Δraw": rows["max_abs_raw_diff"].map(sci),
        "same order": rows["order_match"].map(yes),
        "same clusters (1-sided / old)": [f"{yes(a)} / {yes(b)}" for a, b in zip(
            rows["clusters_match_greater"], rows["clusters_match_scipy<1.7"])],
        "verdicts differing (1-sided / old)": [
            "" if pd.isna(a) else f"{a:.0f} / {b:.0f}"
            for a, b in zip(rows["verdicts_differ_greater"], rows["verdicts_differ_scipy<1.7"])],
    })
    return by_pair(view)


def bootstrap_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The bootstrap summary as read on the page: per measure "observed | mean over resamples (90% interval)"."""
    view = summary.set_index(["style", "experiment"])[["pairs"]].copy()
    for m in ("rank", "cluster", "both"):
        observed = summary[f"{m}_observed"].map(lambda v: "–" if pd.isna(v) else f"{v:.0f}")
        view[f"Δ{m}: observed | resampled mean (90%)"] = [
            f"{o} | {mean:.1f} ({interval})" for o, mean, interval in
            zip(observed, summary[f"{m}_mean"], summary[f"{m}_interval"])]
    return view


def replication_exceptions(view: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`replication_view` that are not an exact replication."""
    exact = (view["max Δz"].map(lambda v: v == "" or float(v) <= 1e-9) & (view["same order"] == "yes")
             & (view["same clusters (1-sided / old)"] == "yes / yes")
             & (view["verdicts differing (1-sided / old)"].isin(["0 / 0", ""])))
    return view[~exact]
