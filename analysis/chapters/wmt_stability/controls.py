"""Controls that make "SR+DC rankings are less stable" readable: a matched null for each perturbation (remove a
mid-ranked system instead of the lowest / highest; remove as many random judgments as the HUMAN and REF ones),
how close each pair's systems are, and the contrast between the styles before and after subtracting the null."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws
from ...processes import process_pool
from .packages import CHANGE_COLUMNS, STYLE_TOTALS
from .views import experiment_label

#: the controls, and the paper's perturbations each one is matched with
CONTROLS = {
    "remove_mid": ("remove a mid-ranked system", ("remove_lowest", "remove_highest")),
    "remove_random_judgments": ("remove as many random judgments as HUMAN and REF", ("remove_human",)),
}
SIZE_COLUMNS = ["discordant", "tau_distance", "reversals"]


def closeness(coded: dict, info: pd.DataFrame, *, variant: str, alpha: float) -> pd.DataFrame:
    """Per pair: how close its systems are in the original ranking (HUMAN systems left out): the median gap in z
    between neighbours and the z range (best minus worst)."""
    rows = []
    for (collection, pair), (pj, _, _) in coded.items():
        humans = [s for s, h in zip(pj.systems, pj.human) if h]
        r = ws.perturbed_ranking(pj, cluster_exclude=humans, variant=variant, alpha=alpha)
        gaps = -np.diff(r.scores)
        rows.append({"collection": collection, "pair": pair, "style": info.loc[(collection, pair), "style"],
                     "n_systems": len(r.systems), "median_gap": float(np.median(gaps)) if len(gaps) else np.nan,
                     "z_range": float(r.scores[0] - r.scores[-1]) if len(r.scores) else np.nan,
                     "clusters": int(r.clusters.max()) + 1 if len(r.clusters) else 0})
    return pd.DataFrame(rows)


def pair_null(pj: ws.PairJudgments, rng: np.random.Generator, n_draws: int, *, variant: str, alpha: float) -> list:
    """One pair's null draws (dicts with ``control``, ``draw`` and :func:`analysis.wmt_stability.comparison`):

    * ``remove_mid``: every system between the first and the last of the original ranking (HUMAN systems aside),
      removed in turn, against the original with its clusters recomputed without it (as Table 3); enumerated, so
      the rate is exact and needs no draws;
    * ``remove_random_judgments``: ``n_draws`` times, as many judgments as the pair's REF items and HUMAN-system
      judgments, drawn at random from all of them, removed; against the original (HUMAN systems out of both
      sides' clusters, as Table 2).
    """
    options = {"variant": variant, "alpha": alpha}
    humans = [s for s, h in zip(pj.systems, pj.human) if h]
    original, without_humans = ws.unperturbed_rankings(pj, [(), humans], **options)
    rows = []
    mid = [s for s in original.systems[1:-1] if s not in humans]
    # the original ranking with each mid system left out of its clusters: one standardisation, one matrix of tests
    bases = ws.unperturbed_rankings(pj, [[system] for system in mid], **options) if mid else []
    for k, (system, base) in enumerate(zip(mid, bases)):
        perturbed = ws.perturbed_ranking(pj, remove=[system], **options)
        rows.append({"control": "remove_mid", "draw": k, **ws.comparison(perturbed, base)})
    degraded = int((pj.ref | pj.human[pj.system]).sum())
    if degraded:
        base = without_humans
        for k in range(n_draws):
            keep = np.ones(pj.n, bool)
            keep[rng.choice(pj.n, degraded, replace=False)] = False
            perturbed = ws.perturbed_ranking(pj, keep=keep, cluster_exclude=humans, **options)
            rows.append({"control": "remove_random_judgments", "draw": k, **ws.comparison(perturbed, base)})
    return rows


def _null_one(args):
    key, pj, seed, n_draws, options = args
    rows = pair_null(pj, np.random.default_rng(seed), n_draws, **options)
    return pd.DataFrame(rows).assign(collection=key[0], pair=key[1])


def null_controls(coded: dict, info: pd.DataFrame, *, seed: int, n_draws: int, variant: str, alpha: float,
                  workers: int | None = None) -> pd.DataFrame:
    """:func:`pair_null` for every pair of the style totals, each pair with its own seed spawned from ``seed`` (the
    result does not depend on the number of worker processes)."""
    keys = [k for k in coded if k[0] in STYLE_TOTALS]
    seeds = np.random.SeedSequence(seed).spawn(len(keys))
    tasks = [(k, coded[k][0], s, n_draws, {"variant": variant, "alpha": alpha}) for k, s in zip(keys, seeds)]
    with process_pool(workers) as pool:
        table = pd.concat(list(pool.map(_null_one, tasks)), ignore_index=True)
    table["style"] = [info.loc[(c, p), "style"] for c, p in zip(table["collection"], table["pair"])]
    first = ["collection", "pair", "style", "control", "draw"]
    return table[first + [c for c in table.columns if c not in first]]


def null_rates(null: pd.DataFrame) -> pd.DataFrame:
    """Per (pair, control): the share of draws that change rank / clusters / both, and the mean effect sizes."""
    columns = CHANGE_COLUMNS + SIZE_COLUMNS
    out = null.groupby(["collection", "pair", "style", "control"], sort=False)[columns].mean()
    return out.reset_index()


def null_summary(per_pair: pd.DataFrame, null: pd.DataFrame) -> pd.DataFrame:
    """Per style, perturbation and measure: the share of pairs the perturbation changes, the mean null rate over the
    same pairs (its matched control), their difference (the excess), and the mean number of significant reversals
    and Kendall-tau distance, observed and under the null."""
    rates = null_rates(null).drop(columns="style")
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    rows = []
    for control, (_, experiments) in CONTROLS.items():
        for experiment in experiments:
            part = observed[observed["experiment"] == experiment].merge(
                rates[rates["control"] == control], on=["collection", "pair"], suffixes=("_observed", "_null"))
            for style, mine in ((s, part[part["style"] == s]) for s in ("SR-DC", "SR+DC")):
                if mine.empty:
                    continue
                row = {"experiment": experiment, "control": control, "style": style, "pairs": len(mine)}
                for c in CHANGE_COLUMNS + ["reversals", "tau_distance"]:
                    m = c.replace("_changed", "")
                    row |= {f"{m}_observed": float(mine[f"{c}_observed"].mean()), f"{m}_null": float(mine[f"{c}_null"].mean())}
                    if c in CHANGE_COLUMNS:
                        row[f"{m}_excess"] = row[f"{m}_observed"] - row[f"{m}_null"]
                rows.append(row)
    return pd.DataFrame(rows)


#: null contrasts drawn per perturbation for :func:`null_contrast_share` (its share is then known to about
#: sqrt(0.05 * 0.95 / 10000) = 0.002 near a 5% level)
NULL_CONTRAST_DRAWS = 10_000


def null_contrast_share(per_pair: pd.DataFrame, null: pd.DataFrame, *, seed: int,
                        n_draws: int = NULL_CONTRAST_DRAWS) -> pd.DataFrame:
    """Per perturbation and measure: the share of null style contrasts at or above the observed one, a one-sided
    p-value of "the perturbation changes SR+DC rankings more often than SR-DC rankings, beyond its matched null".

    A null contrast is the SR+DC minus the SR-DC share of pairs changed when every pair of the style totals that has
    a null (as :func:`null_summary`) takes one of its own null outcomes at random, independently of the other pairs:
    a mid-ranked system removed (for the lowest / highest), one of its random-judgment draws (for HUMAN and REF).
    ``n_draws`` such contrasts are drawn, the same picks for every measure; ``null_contrasts`` says how many."""
    rng = np.random.default_rng(seed)
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    rows = []
    for control, (_, experiments) in CONTROLS.items():
        outcomes = {key: part for key, part in null[null["control"] == control].groupby(["collection", "pair"],
                                                                                       sort=False)}
        for experiment in experiments:
            part = observed[observed["experiment"] == experiment]
            keys = list(zip(part["collection"], part["pair"]))
            present = np.array([k in outcomes for k in keys], dtype=bool)
            part, keys = part.loc[present], [k for k, p in zip(keys, present) if p]
            plus = (part["style"] == "SR+DC").to_numpy()
            if not plus.any() or plus.all():
                continue
            picks = [rng.integers(len(outcomes[k]), size=n_draws) for k in keys]
            for measure, column in zip(("rank", "cluster", "both"), CHANGE_COLUMNS):
                draws = np.stack([outcomes[k][column].to_numpy(float)[pick] for k, pick in zip(keys, picks)])
                contrasts = draws[plus].mean(axis=0) - draws[~plus].mean(axis=0)
                flags = part[column].to_numpy(float)
                contrast = flags[plus].mean() - flags[~plus].mean()
                rows.append({"experiment": experiment, "control": control, "measure": measure,
                             "null_contrasts": n_draws,
                             # at or above: a null contrast equal to ours (up to float round-off) counts against it
                             "null_share_at_or_above": float(np.mean(contrasts >= contrast - 1e-12))})
    return pd.DataFrame(rows)


def contrast_after_controls(summary: pd.DataFrame, shares: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per perturbation and measure: SR+DC minus SR-DC, in the share changed (the paper's contrast) and in the
    excess over the matched null (the contrast the controls leave); with ``shares`` (:func:`null_contrast_share`),
    the share of null contrasts at or above the observed one beside them."""
    rows = []
    for (experiment, control), part in summary.groupby(["experiment", "control"], sort=False):
        by = part.set_index("style").drop(columns=["experiment", "control"])
        if not {"SR-DC", "SR+DC"} <= set(by.index):
            continue
        by["reversals_excess"] = by["reversals_observed"] - by["reversals_null"]
        diff = by.loc["SR+DC"] - by.loc["SR-DC"]
        rows += [{"experiment": experiment, "control": control, "measure": m, "contrast": diff[f"{m}_observed"],
                  "null_contrast": diff[f"{m}_null"], "excess_contrast": diff[f"{m}_excess"]}
                 for m in ("rank", "cluster", "both", "reversals")]
    table = pd.DataFrame(rows)
    return table if shares is None else table.merge(shares, on=["experiment", "control", "measure"], how="left")


def closeness_strata(close: pd.DataFrame, per_pair: pd.DataFrame, rates: pd.DataFrame,
                     experiment: str = "remove_human", control: str = "remove_random_judgments") -> pd.DataFrame:
    """Pairs split at the median of their median neighbour gap (all pairs of the style totals): per (stratum,
    style), the number of pairs, their median gap and z range, the share whose clusters ``experiment`` changes, and
    the mean null rate of ``control`` for the same measure."""
    close = close[close["collection"].isin(STYLE_TOTALS)].copy()
    cut = close["median_gap"].median()
    close["stratum"] = np.where(close["median_gap"] < cut, "closer", "farther")
    key = ["collection", "pair"]
    observed = per_pair[per_pair["experiment"] == experiment].set_index(key)["cluster_changed"]
    null = rates[rates["control"] == control].set_index(key)["cluster_changed"]
    close = close.join(observed.rename("observed"), on=key).join(null.rename("null"), on=key)
    rows = []
    for (stratum, style), part in close.groupby(["stratum", "style"], sort=True):
        rows.append({"stratum": stratum, "style": style, "pairs": len(part), "median_gap": part["median_gap"].median(),
                     "z_range": part["z_range"].median(), "cluster_changed": part["observed"].mean(),
                     "null_cluster_changed": part["null"].mean()})
    return pd.DataFrame(rows).assign(cut=cut)


def _pct(value: float) -> str:
    return "—" if pd.isna(value) else f"{value:.0%}"


def null_view(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`null_summary` as read on the page: per perturbation and style, "observed (null)" per measure."""
    view = pd.DataFrame({"perturbation": summary["experiment"].map(experiment_label),
                         "matched null": summary["control"].map(lambda c: CONTROLS[c][0]),
                         "style": summary["style"], "pairs": summary["pairs"]})
    for m, label in (("rank", "Δrank"), ("cluster", "Δcluster"), ("both", "Δboth")):
        view[f"{label}: observed (null)"] = [f"{_pct(o)} ({_pct(n)})" for o, n in
                                             zip(summary[f"{m}_observed"], summary[f"{m}_null"])]
    view["Kendall τ distance: observed (null)"] = [f"{o:.3f} ({n:.3f})" for o, n in
                                                   zip(summary["tau_distance_observed"], summary["tau_distance_null"])]
    if summary[["reversals_observed", "reversals_null"]].fillna(0).to_numpy().any():  # all 0: the text says so
        view["significant reversals per pair: observed (null)"] = [
            f"{o:.2f} ({n:.2f})" for o, n in zip(summary["reversals_observed"], summary["reversals_null"])]
    view = view.rename(columns={c: c.replace(": observed (null)", "") for c in view.columns})
    return view.set_index(["perturbation", "matched null", "style"])


def controls_numbers(summary: pd.DataFrame, strata: pd.DataFrame, close: pd.DataFrame) -> dict:
    """The controls' text: the matched nulls' rates and the observed rates of removing HUMAN and REF (``summary``:
    :func:`null_summary`), how close the systems are (``close``: :func:`closeness`) and the closer stratum
    (``strata``: :func:`closeness_strata`)."""
    s = summary.drop_duplicates(["control", "style"]).set_index(["control", "style"])
    tags = {"SR+DC": "plus", "SR-DC": "minus"}
    numbers = {f"{key}-{tags[style]}-{m}": float(s.loc[(control, style), f"{m}_{what}"])
               for control, key, what in (("remove_mid", "mid", "null"), ("remove_random_judgments", "random", "null"),
                                          ("remove_random_judgments", "human", "observed"))
               for style in tags for m in ("rank", "cluster")}
    news = close[close["collection"].isin(STYLE_TOTALS)].groupby("style")[["median_gap", "z_range"]].median()
    closer = strata[strata["stratum"] == "closer"].set_index("style")
    return numbers | {
        "reversals": float(summary["reversals_observed"].mul(summary["pairs"]).sum()),
        "reversals-null": float(summary["reversals_null"].max()), "cut": float(strata["cut"].iloc[0]),
        **{f"{key}-{tags[style]}": float(news.loc[style, column]) for style in tags
           for key, column in (("gap", "median_gap"), ("range", "z_range"))},
        **{f"closer-{tags[style]}-{key}": float(closer.loc[style, column]) for style in tags
           for key, column in (("changed", "cluster_changed"), ("pairs", "pairs"), ("null", "null_cluster_changed"))}}
