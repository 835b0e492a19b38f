"""Beyond the paper, controls for Sec. 5.2's "SR+DC rankings are less stable": a matched null per perturbation, how
close each pair's systems are, and the style contrast before and after subtracting the null."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import streams
from ... import wmt_stability as ws
from .packages import CHANGE_COLUMNS, MEASURES, STYLE_TOTALS, experiment_label, per_pair_draws

#: the controls, and the paper's perturbations each one is matched with
CONTROLS = {
    "remove_mid": ("remove a mid-ranked system", ("remove_lowest", "remove_highest")),
    "remove_random_judgments": ("remove as many random judgments as HUMAN and REF", ("remove_human",)),
}


def closeness(coded: dict, info: pd.DataFrame, *, variant: str, alpha: float) -> pd.DataFrame:
    """Per pair: the median z gap between neighbours and the z range of its original ranking (HUMAN systems out)."""
    rows = []
    for (collection, pair), (pj, _, _) in coded.items():
        humans = [s for s, h in zip(pj.systems, pj.human) if h]
        r = ws.perturbed_ranking(pj, cluster_exclude=humans, variant=variant, alpha=alpha)
        rows.append({"collection": collection, "pair": pair, "style": info.loc[(collection, pair), "style"],
                     "n_systems": len(r.systems), "median_gap": float(np.median(-np.diff(r.scores))),
                     "z_range": float(r.scores[0] - r.scores[-1]), "clusters": int(r.clusters.max()) + 1})
    return pd.DataFrame(rows)


def pair_null(pj: ws.PairJudgments, rng: np.random.Generator, n_draws: int, *, variant: str, alpha: float) -> list:
    """One pair's null draws (:func:`analysis.wmt_stability.comparison` rows): ``remove_mid`` removes each system
    between the first and the last in turn (as Table 3; enumerated, so exact); ``remove_random_judgments`` removes,
    ``n_draws`` times, as many random judgments as the REF and HUMAN-system ones (as Table 2)."""
    options = {"variant": variant, "alpha": alpha}
    humans = [s for s, h in zip(pj.systems, pj.human) if h]
    original, without_humans = ws.unperturbed_rankings(pj, [(), humans], **options)
    mid = [s for s in original.systems[1:-1] if s not in humans]
    # the original ranking with each mid system left out of its clusters: one standardisation, one matrix of tests
    bases = ws.unperturbed_rankings(pj, [[system] for system in mid], **options) if mid else []
    rows = [{"control": "remove_mid", "draw": k, **ws.comparison(ws.perturbed_ranking(pj, remove=[s], **options), base)}
            for k, (s, base) in enumerate(zip(mid, bases))]
    degraded = int((pj.ref | pj.human[pj.system]).sum())
    for k in range(n_draws if degraded else 0):
        keep = np.ones(pj.n, bool)
        keep[rng.choice(pj.n, degraded, replace=False)] = False
        perturbed = ws.perturbed_ranking(pj, keep=keep, cluster_exclude=humans, **options)
        rows.append({"control": "remove_random_judgments", "draw": k, **ws.comparison(perturbed, without_humans)})
    return rows


def null_controls(coded: dict, info: pd.DataFrame, *, seed: int, n_draws: int, variant: str, alpha) -> pd.DataFrame:
    """:func:`pair_null` for every pair of the style totals, by :func:`~.packages.per_pair_draws`."""
    table = per_pair_draws(pair_null, {k: (pj,) for k, (pj, _, _) in coded.items()}, info, seed=seed,
                           n_draws=n_draws, variant=variant, alpha=alpha)
    first = ["collection", "pair", "style", "control", "draw"]
    return table[first + [c for c in table.columns if c not in first]]


def null_rates(null: pd.DataFrame) -> pd.DataFrame:
    """Per (pair, control): the share of draws that change rank / clusters / both, and the mean effect sizes."""
    columns = CHANGE_COLUMNS + ["discordant", "tau_distance", "reversals"]
    return null.groupby(["collection", "pair", "style", "control"], sort=False)[columns].mean().reset_index()


def null_summary(per_pair: pd.DataFrame, null: pd.DataFrame) -> pd.DataFrame:
    """Per perturbation, matched control and style: the share of pairs changed, observed and under the null over the
    same pairs, the excess, and the mean significant reversals and Kendall-tau distance."""
    matched = pd.DataFrame([(e, c) for c, (_, es) in CONTROLS.items() for e in es], columns=["experiment", "control"])
    both = per_pair[per_pair["collection"].isin(STYLE_TOTALS)].merge(matched, on="experiment").merge(
        null_rates(null).drop(columns="style"), on=["collection", "pair", "control"], suffixes=("_observed", "_null"))
    columns = [f"{c}_{w}" for c in CHANGE_COLUMNS + ["reversals", "tau_distance"] for w in ("observed", "null")]
    out = both.groupby(["experiment", "control", "style"])[columns].agg(lambda s: s.mean())  # Series.mean's rounding
    out.columns = [c.replace("_changed", "") for c in columns]
    for m in MEASURES:
        out.insert(out.columns.get_loc(f"{m}_null") + 1, f"{m}_excess", out[f"{m}_observed"] - out[f"{m}_null"])
    out.insert(0, "pairs", both.groupby(["experiment", "control", "style"]).size())
    order = [(e, c, s) for e, c in matched.itertuples(index=False) for s in ("SR-DC", "SR+DC")]
    return out.reindex([k for k in order if k in out.index]).reset_index()


#: null contrasts drawn per perturbation for :func:`null_contrast_share` (its share is then known to about
#: sqrt(0.05 * 0.95 / 10000) = 0.002 near a 5% level)
NULL_CONTRAST_DRAWS = 10_000


def _null_draws(part: pd.DataFrame, outcomes: dict, rng, n_draws: int) -> np.ndarray:
    """(pairs x draws x measures): each (collection, pair) of ``part`` takes ``n_draws`` of its own null outcomes
    at random, pair by pair in order, the same picks for every measure."""
    keys = list(zip(part["collection"], part["pair"]))
    picks = [rng.integers(len(outcomes[k]), size=n_draws) for k in keys]
    return np.stack([outcomes[k][CHANGE_COLUMNS].to_numpy(float)[pick] for k, pick in zip(keys, picks)])


def _matched_parts(observed: pd.DataFrame, null: pd.DataFrame):
    """Per control and each perturbation it matches: (control, experiment, the observed pairs that have a null,
    their null outcomes by (collection, pair)), in :data:`CONTROLS`' order: what both null tests walk through."""
    for control, (_, experiments) in CONTROLS.items():
        outcomes = dict(list(null[null["control"] == control].groupby(["collection", "pair"], sort=False)))
        held = pd.DataFrame(list(outcomes), columns=["collection", "pair"])
        for experiment in experiments:
            yield control, experiment, observed[observed["experiment"] == experiment].merge(
                held, on=["collection", "pair"]), outcomes


def null_contrast_share(per_pair: pd.DataFrame, null: pd.DataFrame, *, seed: int,
                        n_draws: int = NULL_CONTRAST_DRAWS) -> pd.DataFrame:
    """Per perturbation and measure: the share of null style contrasts (SR+DC minus SR-DC share of pairs changed) at
    or above the observed one, a one-sided p of "SR+DC changes more often, beyond the matched null". In a null
    contrast every pair with a null takes one of its own null outcomes at random, the same picks for every measure."""
    rng = np.random.default_rng(seed)
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    rows = []
    for control, experiment, part, outcomes in _matched_parts(observed, null):
        plus = (part["style"] == "SR+DC").to_numpy()
        if not plus.any() or plus.all():
            continue
        draws = _null_draws(part, outcomes, rng, n_draws)
        contrasts = draws[plus].mean(axis=0) - draws[~plus].mean(axis=0)
        flags = part[CHANGE_COLUMNS].to_numpy(float)
        # at or above: a null contrast equal to ours (up to float round-off) counts against it
        shares = np.mean(contrasts >= flags[plus].mean(axis=0) - flags[~plus].mean(axis=0) - 1e-12, axis=0)
        rows += [{"experiment": experiment, "control": control, "measure": m, "null_contrasts": n_draws,
                  "null_share_at_or_above": float(share)} for m, share in zip(MEASURES, shares)]
    return pd.DataFrame(rows)


def null_level_share(per_pair: pd.DataFrame, null: pd.DataFrame, *, seed: int, style: str = "SR+DC",
                     n_draws: int = NULL_CONTRAST_DRAWS) -> pd.DataFrame:
    """Per perturbation and measure: the share of ``style``'s pairs changed by the perturbation (observed), and the
    share of null draws whose share of those pairs changed is at or above it, a one-sided p of "the perturbation
    changes more ``style`` rankings than its matched null does", the null's spread counted. In a null draw every
    pair takes one of its own null outcomes at random, the same picks for every measure (as in
    :func:`null_contrast_share`)."""
    rng = streams.stream(seed, f"null levels {style}")
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS) & (per_pair["style"] == style)]
    rows = []
    for control, experiment, part, outcomes in _matched_parts(observed, null):
        if part.empty:
            continue
        levels = _null_draws(part, outcomes, rng, n_draws).mean(axis=0)
        ours = part[CHANGE_COLUMNS].to_numpy(float).mean(axis=0)
        shares = np.mean(levels >= ours - 1e-12, axis=0)
        rows += [{"experiment": experiment, "control": control, "style": style, "measure": m,
                  "pairs": len(part), "observed": float(o), "null_mean": float(lv.mean()),
                  "null_draws": n_draws, "null_share_at_or_above": float(share)}
                 for m, o, lv, share in zip(MEASURES, ours, levels.T, shares)]
    return pd.DataFrame(rows)


#: resamples of the pairs for :func:`style_contrast_over_pairs` (a 2.5% percentile known to about a point)
PAIR_RESAMPLES = 2_000


def style_contrast_over_pairs(per_pair: pd.DataFrame, *, seed: int, n_resamples: int = PAIR_RESAMPLES,
                              confidence: float = 0.95) -> pd.DataFrame:
    """Per perturbation and measure: Sec. 5.2's contrast (SR+DC minus SR-DC share of pairs changed) with its
    percentile interval over resamples of the pairs, each style's pairs drawn with replacement apart (the noise of
    which pairs a year happens to have: one pair of 13 is 8 points of a share)."""
    gen = streams.stream(seed, "style contrast over pairs")
    part = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    tail = 100 * (1 - confidence) / 2
    rows = []
    for experiment, group in part.groupby("experiment", sort=False):
        flags = {style: group.loc[group["style"] == style, CHANGE_COLUMNS].to_numpy(float)
                 for style in ("SR+DC", "SR-DC")}
        if any(not len(f) for f in flags.values()):
            continue
        draws = [f[gen.integers(0, len(f), (n_resamples, len(f)))].mean(axis=1) for f in flags.values()]
        contrast = draws[0] - draws[1]
        observed = flags["SR+DC"].mean(axis=0) - flags["SR-DC"].mean(axis=0)
        low, high = np.percentile(contrast, [tail, 100 - tail], axis=0)
        rows += [{"experiment": experiment, "measure": m, "pairs_sr_plus": len(flags["SR+DC"]),
                  "pairs_sr_minus": len(flags["SR-DC"]), "contrast": float(o), "low": float(lo), "high": float(hi)}
                 for m, o, lo, hi in zip(MEASURES, observed, low, high)]
    return pd.DataFrame(rows)


def contrast_after_controls(summary: pd.DataFrame, shares: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per perturbation and measure: SR+DC minus SR-DC share changed (Sec. 5.2's contrast), under the null and in
    the excess over it; ``shares`` (:func:`null_contrast_share`) beside them."""
    wide = summary.set_index(["experiment", "control", "style"])
    wide["reversals_excess"] = wide["reversals_observed"] - wide["reversals_null"]
    plus, minus = wide.xs("SR+DC", level="style"), wide.xs("SR-DC", level="style")
    diff = (plus - minus.reindex(plus.index))[plus.index.isin(minus.index)]
    measures = ["rank", "cluster", "both", "reversals"]
    table = pd.concat({label: diff[[f"{m}_{what}" for m in measures]].set_axis(measures, axis=1).stack()
                       for label, what in (("contrast", "observed"), ("null_contrast", "null"),
                                           ("excess_contrast", "excess"))}, axis=1)
    table = table.rename_axis(["experiment", "control", "measure"]).reset_index()
    return table if shares is None else table.merge(shares, on=["experiment", "control", "measure"], how="left")


def closeness_strata(close: pd.DataFrame, per_pair: pd.DataFrame, rates: pd.DataFrame) -> pd.DataFrame:
    """Pairs of the style totals split at the median of their median neighbour gap: per stratum and style, the share
    whose clusters removing HUMAN and REF changes and the mean null rate of as many random judgments removed."""
    close = close[close["collection"].isin(STYLE_TOTALS)].copy()
    cut = close["median_gap"].median()
    close["stratum"] = np.where(close["median_gap"] < cut, "closer", "farther")
    key = ["collection", "pair"]
    observed = per_pair[per_pair["experiment"] == "remove_human"].set_index(key)["cluster_changed"].astype(float)
    null = rates[rates["control"] == "remove_random_judgments"].set_index(key)["cluster_changed"]
    close = close.join(observed.rename("observed"), on=key).join(null.rename("null"), on=key)
    out = close.groupby(["stratum", "style"]).agg(
        pairs=("pair", "size"), median_gap=("median_gap", "median"), z_range=("z_range", "median"),
        cluster_changed=("observed", "mean"), null_cluster_changed=("null", "mean"))
    return out.reset_index().assign(cut=cut)


def null_view(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`null_summary` as read on the page: per perturbation and style, "observed (null)" per measure."""
    view = pd.DataFrame({"perturbation": summary["experiment"].map(experiment_label),
                         "matched null": summary["control"].map(lambda c: CONTROLS[c][0]),
                         "style": summary["style"], "pairs": summary["pairs"]})
    for m in MEASURES:
        o, n = (summary[f"{m}_{w}"].map(lambda v: "—" if pd.isna(v) else f"{v:.0%}") for w in ("observed", "null"))
        view[f"Δ{m}"] = o + " (" + n + ")"
    view["Kendall τ distance"] = [f"{o:.3f} ({n:.3f})" for o, n in
                                  zip(summary["tau_distance_observed"], summary["tau_distance_null"])]
    if summary[["reversals_observed", "reversals_null"]].fillna(0).to_numpy().any():  # all 0: the text says so
        view["significant reversals per pair"] = [
            f"{o:.2f} ({n:.2f})" for o, n in zip(summary["reversals_observed"], summary["reversals_null"])]
    return view.set_index(["perturbation", "matched null", "style"])


def controls_numbers(summary: pd.DataFrame, strata: pd.DataFrame, close: pd.DataFrame) -> dict:
    """The controls' numbers for the page, under the keys it pastes, from :func:`null_summary`,
    :func:`closeness_strata` and :func:`closeness`."""
    s = summary.drop_duplicates(["control", "style"]).set_index(["control", "style"])
    mid, random = ("remove_mid", "remove_random_judgments")
    news = close[close["collection"].isin(STYLE_TOTALS)].groupby("style")[["median_gap", "z_range"]].median()
    closer = strata[strata["stratum"] == "closer"].set_index("style")
    return {
        "ctl-mid-plus-rank": float(s.loc[(mid, "SR+DC"), "rank_null"]),
        "ctl-mid-plus-cluster": float(s.loc[(mid, "SR+DC"), "cluster_null"]),
        "ctl-mid-minus-rank": float(s.loc[(mid, "SR-DC"), "rank_null"]),
        "ctl-mid-minus-cluster": float(s.loc[(mid, "SR-DC"), "cluster_null"]),
        "ctl-random-plus-rank": float(s.loc[(random, "SR+DC"), "rank_null"]),
        "ctl-random-plus-cluster": float(s.loc[(random, "SR+DC"), "cluster_null"]),
        "ctl-random-minus-rank": float(s.loc[(random, "SR-DC"), "rank_null"]),
        "ctl-random-minus-cluster": float(s.loc[(random, "SR-DC"), "cluster_null"]),
        "ctl-human-plus-rank": float(s.loc[(random, "SR+DC"), "rank_observed"]),
        "ctl-human-plus-cluster": float(s.loc[(random, "SR+DC"), "cluster_observed"]),
        "ctl-human-minus-rank": float(s.loc[(random, "SR-DC"), "rank_observed"]),
        "ctl-human-minus-cluster": float(s.loc[(random, "SR-DC"), "cluster_observed"]),
        "ctl-reversals": float(summary["reversals_observed"].mul(summary["pairs"]).sum()),
        "ctl-reversals-null": float(summary["reversals_null"].max()), "ctl-cut": float(strata["cut"].iloc[0]),
        "ctl-gap-plus": float(news.loc["SR+DC", "median_gap"]), "ctl-range-plus": float(news.loc["SR+DC", "z_range"]),
        "ctl-gap-minus": float(news.loc["SR-DC", "median_gap"]),
        "ctl-range-minus": float(news.loc["SR-DC", "z_range"]),
        "ctl-closer-plus-changed": float(closer.loc["SR+DC", "cluster_changed"]),
        "ctl-closer-plus-pairs": float(closer.loc["SR+DC", "pairs"]),
        "ctl-closer-plus-null": float(closer.loc["SR+DC", "null_cluster_changed"]),
        "ctl-closer-minus-changed": float(closer.loc["SR-DC", "cluster_changed"]),
        "ctl-closer-minus-pairs": float(closer.loc["SR-DC", "pairs"]),
        "ctl-closer-minus-null": float(closer.loc["SR-DC", "null_cluster_changed"])}
