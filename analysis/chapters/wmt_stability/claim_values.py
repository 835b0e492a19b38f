"""Tidy tables and checks the claims registry (``data/published/claims/wmt.toml``) reads: the shares of pairs
changed by style (Sec. 5.2's contrast), the perturbations against resampling alone, Sec. 8's totals, and the
qualitative checks (one boolean per part of a claim)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .packages import CHANGE_COLUMNS, STYLE_TOTALS

MEASURES = [c.replace("_changed", "") for c in CHANGE_COLUMNS]
#: the differences of shares that carry Sec. 5.2's contrast: (label, minuend group, subtrahend group)
CONTRASTS = (("SR+DC minus SR-DC", "SR+DC", "SR-DC"), ("REF items only minus SR-DC", "SR+DC, REF items only", "SR-DC"))


def change_shares(per_pair: pd.DataFrame, human_pairs=()) -> pd.DataFrame:
    """``wmt_change_shares.csv``: per experiment and measure (rank, cluster, both), the pairs changed, the pairs and
    their share for each style (packages in :data:`STYLE_TOTALS`) and for the SR+DC pairs that rank a HUMAN system
    (``human_pairs``) or only have REF items, then the differences of shares in :data:`CONTRASTS` (share only):
    the contrast of Tables 2-3 and Fig. 1 (Sec. 5.2)."""
    part = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    human = {tuple(k) for k in human_pairs}
    has_human = np.array([(c, p) in human for c, p in zip(part["collection"], part["pair"])], dtype=bool)
    plus = (part["style"] == "SR+DC").to_numpy()
    masks = {"SR+DC": plus, "SR-DC": (part["style"] == "SR-DC").to_numpy(),
             "SR+DC, HUMAN system": plus & has_human, "SR+DC, REF items only": plus & ~has_human}
    rows = []
    for experiment in dict.fromkeys(part["experiment"]):
        here = (part["experiment"] == experiment).to_numpy()
        for measure, column in zip(MEASURES, CHANGE_COLUMNS):
            shares = {}
            for group, mask in masks.items():
                flags = part.loc[here & mask, column].astype(bool)
                if len(flags):
                    shares[group] = float(flags.mean())
                    rows.append({"experiment": experiment, "measure": measure, "group": group,
                                 "changed": int(flags.sum()), "pairs": len(flags), "share": shares[group]})
            for label, a, b in CONTRASTS:
                if a in shares and b in shares:
                    rows.append({"experiment": experiment, "measure": measure, "group": label, "changed": np.nan,
                                 "pairs": np.nan, "share": shares[a] - shares[b]})
    return pd.DataFrame(rows, columns=["experiment", "measure", "group", "changed", "pairs", "share"])


def noise_vs_perturbation(summary: pd.DataFrame, shares: pd.DataFrame) -> pd.DataFrame:
    """``wmt_noise_vs_perturbation.csv``: per style, experiment and measure, the pairs the perturbation changes on
    the full data against the mean number that resampling the HITs alone changes (``noise`` of
    :func:`bootstrap_summary`), and whether the perturbation changes more (``exceeds_noise``)."""
    noise = summary[summary["experiment"] == "noise"].set_index("style")
    rows = []
    for style in ("SR+DC", "SR-DC"):
        if style not in noise.index:
            continue
        for r in shares[shares["group"] == style].itertuples(index=False):
            mean = float(noise.loc[style, f"{r.measure}_mean"])
            rows.append({"style": style, "experiment": r.experiment, "measure": r.measure, "pairs": int(r.pairs),
                         "perturbation": int(r.changed), "resampling_mean": mean,
                         "exceeds_noise": bool(r.changed > mean)})
    return pd.DataFrame(rows)


def remedy_totals(long: pd.DataFrame) -> pd.DataFrame:
    """``wmt_remedy_totals.csv``: per measure, the pairs changed summed over the experiments with z per worker and
    with z per HIT (``long``: :func:`remedy_long`), the experiments in which each changes fewer pairs, and whether
    z per worker (what Sec. 8 recommends) changes fewer in total (``value``: per worker minus per HIT)."""
    wide = long.pivot_table(index=["measure", "experiment"], columns="standardised", values="changed")
    rows = []
    for measure in MEASURES:
        w, h = wide.loc[measure, "worker"], wide.loc[measure, "hit"]
        rows.append({"measure": measure, "experiments": len(w), "per_worker": int(w.sum()), "per_hit": int(h.sum()),
                     "experiments_per_worker_fewer": int((w < h).sum()),
                     "experiments_per_hit_fewer": int((h < w).sum()),
                     "per_worker_fewer": bool(w.sum() < h.sum()), "value": int(w.sum() - h.sum())})
    return pd.DataFrame(rows)


def check_rows(check: str, parts: dict, values=None) -> pd.DataFrame:
    """The claim values (:meth:`~analysis.plotting.Outputs.values`) of one check (``key``): one boolean per part (``detail``), and beside it the number the test reads
    (``values``, one per part, in the part's order; empty when the test reads none), which the claims show."""
    values = [np.nan] * len(parts) if values is None else [float(v) for v in values]
    return pd.DataFrame({"key": check, "detail": list(parts), "holds": [bool(v) for v in parts.values()],
                         "value": values})


def item_type_checks(judgments: pd.DataFrame, collections) -> pd.DataFrame:
    """Table 1: every package in ``collections`` holds all four item types (SYSTEM, REPEAT, REF, BAD_REF)."""
    types = {"SYSTEM", "REPEAT", "REF", "BAD_REF"}
    return check_rows("table1_all_item_types", {
        c: types <= set(judgments.loc[judgments["collection"] == c, "item_type"]) for c in collections})


def human_seen_checks(composition: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5.1: in every pair that ranks a HUMAN system, some workers saw its output and some did not."""
    rows = composition[composition["workers_saw_human"] > 0]
    return check_rows("section51_human_seen_by_some", {
        f"{c} {p}": 0 < s < 1 for c, p, s in zip(rows["collection"], rows["pair"], rows["workers_saw_human"])},
        rows["workers_saw_human"])


def growth_checks(shares: pd.DataFrame, style: str = "SR-DC") -> pd.DataFrame:
    """Fig. 1: for ``style``, the share of pairs changed never falls as the divisor grows and ends higher than it
    starts, per measure (with the growth from the smallest divisor to the largest)."""
    part = shares[(shares["group"] == style) & shares["experiment"].str.startswith("divide_")]
    part = part.assign(divisor=part["experiment"].str.removeprefix("divide_").astype(float)).sort_values("divisor")
    parts, growth = {}, []
    for measure in MEASURES:
        values = part.loc[part["measure"] == measure, "share"].to_numpy()
        parts[measure] = len(values) > 1 and bool(np.all(np.diff(values) >= 0)) and values[-1] > values[0]
        growth.append(values[-1] - values[0] if len(values) else np.nan)
    return check_rows("fig1_sr_minus_grows", parts, growth)


def missing_pairs_checks(segments: pd.DataFrame, collection: str = "newstest2020",
                         pairs=("en-km", "en-ps")) -> pd.DataFrame:
    """App. A: "2020 en-{km, ps} appear to be missing from the released data": each pair is absent from the
    collection's official segment scores (while the collection holds other pairs)."""
    held = set(segments.loc[segments["collection"] == collection, "pair"])
    return check_rows("appA_2020_missing_pairs", {p: bool(held) and p not in held for p in pairs})
