"""Study 3 — favoritism and aggregation (von Däniken et al. 2024 × Peyrard et al. 2021).

A system pair is *flipped* by a mechanism when the automatic rater's ranking orders it differently from the human
one. By the Favi-Score paper's Lemma 1, Φ·E is exactly the shift of the pair's win margin, and BT on a balanced
design orders systems by wins, so BT's flips should follow Φ more closely than MEAN's, which sees score sizes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from ... import aggregate, favi
from ...plotting import MECHANISM_LABELS
from ...validation import check_rng
from .wmt_pairs import plot_two_bars

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
#: systems left out per dataset: WMT22's refA is the reference the metrics score against (as chapter 04)
EXCLUDED_SYSTEMS = {"wmt22-ende": ("refA",), "wmt22-zhen": ("refA",)}


def settings(scores: pd.DataFrame, datasets) -> list[tuple[str, str, str, str]]:
    """(domain, dataset, human rater, automatic rater) for every human rating against every automatic rater."""
    kinds = scores[["domain", "dataset", "rater", "rater_kind"]].drop_duplicates()
    if unknown := sorted(set(datasets) - set(kinds["dataset"])):
        raise ValueError(f"no Favi-Score data for datasets {unknown}")
    human = kinds["rater_kind"] == "human"
    pairs = kinds[human].merge(kinds[~human], on=["domain", "dataset"], suffixes=("", "_auto"))
    pairs = pairs.assign(order=pairs["dataset"].map({d: i for i, d in enumerate(datasets)})).dropna(subset="order")
    return list(pairs.sort_values("order", kind="stable")[["domain", "dataset", "rater", "rater_auto"]]
                .itertuples(index=False, name=None))


def complete_pair(scores: pd.DataFrame, dataset: str, human: str, rater: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The human's and the rater's items x systems matrices, complete (as the mechanisms need): the systems both
    rated, the items where each of them has both scores."""
    part = scores[(scores["dataset"] == dataset) & scores["rater"].isin([human, rater])
                  & ~scores["system"].isin(EXCLUDED_SYSTEMS.get(dataset, ()))]
    if part.duplicated(["item", "rater", "system"]).any():
        raise ValueError(f"{dataset}: more than one score for some (item, rater, system)")
    wide = part.pivot_table(index="item", columns=["rater", "system"], values="score", aggfunc="first")
    h, m = wide[human], wide[rater]
    systems = sorted(set(h.columns[h.notna().any()]) & set(m.columns[m.notna().any()]))
    items = h[systems].notna().all(axis=1) & m[systems].notna().all(axis=1)
    return tuple(x.loc[items, systems].rename_axis(index=None, columns=None) for x in (h, m))


def flips(human: pd.DataFrame, metric: pd.DataFrame, fns: dict) -> pd.DataFrame:
    """Per system pair: Φ, both win margins, and per mechanism whether the rater's aggregate orders the pair
    differently from the human's (a tie against an order counts), which way, and whether either aggregate ties it
    (how MEDIAN flips most pairs: medians of ratings with few values often coincide)."""
    table = favi.favi_table(human, metric)
    out = table[["system_a", "system_b", "n_items", "margin_human", "margin_metric", "favi"]].copy()
    a, b = out["system_a"], out["system_b"]
    for name, fn in fns.items():
        h, m = fn(human), fn(metric)
        sh = np.sign(h[a].to_numpy() - h[b].to_numpy())
        sm = np.sign(m[a].to_numpy() - m[b].to_numpy())
        out[f"flip_{name}"] = sh != sm
        out[f"favours_{name}"] = np.where(sh != sm, np.sign(sm - sh), 0)  # +1: the rater moved a up
        out[f"human_tie_{name}"], out[f"rater_tie_{name}"] = sh == 0, sm == 0
    return out


def per_pair(scores: pd.DataFrame, datasets, mechanisms=MECHANISMS, min_items: int = 10) -> pd.DataFrame:
    """:func:`flips` for every setting of ``datasets`` with at least ``min_items`` complete items and three systems."""
    fns = aggregate.mechanisms("half", mechanisms)
    frames = [flips(h, m, fns).assign(domain=domain, dataset=dataset, human=human, rater=rater, items=len(h))
              for domain, dataset, human, rater in settings(scores, datasets)
              for h, m in [complete_pair(scores, dataset, human, rater)] if len(h) >= min_items and h.shape[1] >= 3]
    if not frames:
        raise ValueError("no setting has enough complete items")
    return pd.concat(frames, ignore_index=True)


def summary(pairs: pd.DataFrame, mechanisms=MECHANISMS) -> pd.DataFrame:
    """Per mechanism: the share of pairs flipped (all, |Φ| above and at most its median), Spearman's ρ(|Φ|, flip),
    the share of flips with Φ ≠ 0 moved Φ's way, and the shares flipped through a tie and tied by the humans."""
    valid = pairs[pairs["favi"].notna()]
    phi, sign = valid["favi"].abs(), np.sign(valid["favi"])
    strong = phi > phi.median()
    frame = pd.DataFrame([
        {"mechanism": m, "pairs": len(valid), "flipped": flip.mean(),
         "flipped_high_phi": flip[strong].mean(), "flipped_low_phi": flip[~strong].mean(),
         "rho_abs_phi": stats.spearmanr(phi, flip).statistic if flip.nunique() > 1 else np.nan,
         "with_phi": (sign[moved] == valid[f"favours_{m}"][moved]).mean() if moved.any() else np.nan,
         "flipped_by_tie": (flip & (tied | valid[f"rater_tie_{m}"])).mean(), "human_tied": tied.mean()}
        for m in mechanisms
        for flip, tied in [(valid[f"flip_{m}"].astype(bool), valid[f"human_tie_{m}"].astype(bool))]
        for moved in [flip & (sign != 0)]])
    return frame.assign(phi_gap=frame["flipped_high_phi"] - frame["flipped_low_phi"])


def by_dataset(pairs: pd.DataFrame, mechanisms=MECHANISMS) -> pd.DataFrame:
    """Part of :func:`summary` per dataset and mechanism."""
    frames = [summary(part, mechanisms).assign(dataset=dataset, settings=part.groupby(["human", "rater"]).ngroups)
              for dataset, part in pairs[pairs["favi"].notna()].groupby("dataset", sort=False)]
    columns = ["dataset", "mechanism", "settings", "pairs", "flipped", "rho_abs_phi", "human_tied"]
    return pd.concat(frames, ignore_index=True)[columns]


def rho_difference(pairs: pd.DataFrame, first: str = "bt", second: str = "mean", *, n_resamples: int = 1000,
                   rng, level: float = 0.95) -> dict:
    """ρ(|Φ|, flip of ``first``) − ρ(|Φ|, flip of ``second``) over all pairs, with a percentile interval from a
    bootstrap over settings (a setting's pairs share its items and raters, so settings are the resampled unit)."""
    gen = check_rng(rng)
    valid = pairs[pairs["favi"].notna()].reset_index(drop=True)
    phi = valid["favi"].abs().to_numpy()
    f1, f2 = (valid[f"flip_{m}"].to_numpy(float) for m in (first, second))
    members = list(valid.groupby(["dataset", "human", "rater"], sort=False).indices.values())

    def diff(idx):
        return stats.spearmanr(phi[idx], f1[idx]).statistic - stats.spearmanr(phi[idx], f2[idx]).statistic

    draws = np.array([diff(np.concatenate([members[g] for g in gen.integers(0, len(members), len(members))]))
                      for _ in range(n_resamples)])
    tail = (1 - level) / 2 * 100
    return {"first": first, "second": second, "difference": diff(np.arange(len(valid))),
            "low": float(np.nanpercentile(draws, tail)), "high": float(np.nanpercentile(draws, 100 - tail)),
            "settings": len(members), "pairs": len(valid)}


def favoritism_values(summary: pd.DataFrame, difference: dict) -> dict:
    """Study 3's claim values; ``difference``: :func:`rho_difference`'s."""
    s = summary.set_index("mechanism")
    return {"bt_minus_mean_rho": difference["difference"], "bt_minus_mean_rho_low": difference["low"],
            "bt_minus_mean_rho_high": difference["high"],
            "bt_flipped": s.loc["bt", "flipped"], "mean_flipped": s.loc["mean", "flipped"],
            "bt_with_phi": s.loc["bt", "with_phi"], "mean_with_phi": s.loc["mean", "with_phi"],
            "bt_follows_phi_more": difference["low"] > 0}


def plot_favoritism(summary: pd.DataFrame) -> plt.Figure:
    """Per mechanism: the share of pairs flipped, among pairs with low and with high |Φ|."""
    return plot_two_bars([MECHANISM_LABELS[m] for m in summary["mechanism"]],
                         (summary["flipped_low_phi"], "#bbbbbb", "|Φ| at most the median"),
                         (summary["flipped_high_phi"], "#444444", "|Φ| above the median"),
                         "system pairs the rater's\nranking orders differently")
