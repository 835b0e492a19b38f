"""The perturbation experiments per pair (Tables 2-3, Fig. 1), the raw scores the divisions need, and beyond the
paper a bootstrap over HITs, one of Sec. 8's remedies and the rank-sum variant."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ... import wmt
from ... import wmt_stability as ws
from ...plotting import MISSING
from .packages import CHANGE_COLUMNS, MEASURES, STYLE_TOTALS, experiment_label, fractions, pair_names, per_pair_draws

PER_PAIR_COLUMNS = ["collection", "year", "pair", "style", "experiment", "n_systems", *CHANGE_COLUMNS, "discordant",
                    "tau_distance", "reversals"]


def stability_per_pair(coded: dict, info: pd.DataFrame, *, divisors, variant, alpha, by="worker") -> pd.DataFrame:
    """``wmt_stability_per_pair.csv``: one row per (pair, experiment) (:func:`analysis.wmt_stability.experiments`)."""
    rows = [{"collection": k[0], "year": info.loc[k, "year"], "pair": k[1], "style": info.loc[k, "style"], **r}
            for k, (pj, raw, _) in coded.items() for r in ws.experiments(
                pj, raw, divisors=divisors, variant=variant, alpha=alpha, by=by, unknown_raw="keep_z")]
    return pd.DataFrame(rows, columns=PER_PAIR_COLUMNS)


#: footnote 15's low-performing systems: the last third of the original ranking (HUMAN systems apart)
LOW_SHARE = 1 / 3


def inflate_low(pj: ws.PairJudgments, raw: np.ndarray | None, factors, *, variant: str, alpha: float,
                share: float = LOW_SHARE) -> list[dict]:
    """Footnote 15 (§5.2), beyond what the paper ran: the reverse of Fig. 1, the raw scores of the low-performing
    systems (the last ``share`` of the original ranking, HUMAN systems apart) multiplied by each factor, capped at
    the scale's 100 (a score of 0 stays 0, one of the readings the paper leaves open), and every worker who judged
    them restandardised; a worker with such a judgment whose raw scores are not all known keeps its published z (as
    Fig. 1's ``keep_z``). One row per factor, against the original ranking (:func:`analysis.wmt_stability.comparison`).
    No rows without raw scores."""
    if raw is None:
        return []
    original = ws.perturbed_ranking(pj, variant=variant, alpha=alpha)
    candidates = [s for s in original.systems if ws.HUMAN_MARK not in s]
    low = candidates[len(candidates) - max(1, int(np.ceil(share * len(candidates)))):]
    inflated = np.isin(pj.system, [pj.systems.index(s) for s in low]) & pj.scored
    touched = np.bincount(pj.worker, inflated, pj.worker.max() + 1)[pj.worker] > 0
    unknown = np.bincount(pj.worker, np.isnan(raw), pj.worker.max() + 1)[pj.worker] > 0
    needs = touched & ~unknown
    rows = []
    for factor in factors:
        values = np.where(needs, np.where(inflated, np.minimum(raw * factor, 100.0), raw), pj.z)
        perturbed = ws.ranking(pj, wmt.z_scores(values, pj.worker, None, pj.pool), variant=variant, alpha=alpha)
        rows.append({"experiment": f"inflate_{factor:g}", "low_systems": len(low),
                     **ws.comparison(perturbed, original)})
    return rows


def inflation_per_pair(coded: dict, info: pd.DataFrame, *, factors, variant, alpha) -> pd.DataFrame:
    """``wmt_fn15_inflation_per_pair.csv``: :func:`inflate_low` on every pair with raw scores."""
    return pd.DataFrame([{"collection": k[0], "pair": k[1], "style": info.loc[k, "style"], **r}
                         for k, (pj, raw, _) in coded.items()
                         for r in inflate_low(pj, raw, factors, variant=variant, alpha=alpha)])


def inflation_values(inflation: pd.DataFrame, per_pair: pd.DataFrame) -> pd.DataFrame:
    """Claim values for footnote 15's "similar effect": per factor and measure, the share of the SR+DC pairs (of the
    style totals) changed by inflating the low systems minus the share changed by dividing the human scores by the
    same number (Fig. 1), on the pairs both ran on."""
    keys = ["collection", "pair"]
    plus = inflation[inflation["collection"].isin(STYLE_TOTALS) & (inflation["style"] == "SR+DC")]
    rows = []
    for experiment, part in plus.groupby("experiment", sort=False):
        divided = per_pair[per_pair["experiment"] == experiment.replace("inflate_", "divide_")]
        both = part.merge(divided, on=keys, suffixes=("", "_divided"))
        for column, measure in zip(CHANGE_COLUMNS, MEASURES):
            rows.append({"key": "fn15-inflate-minus-divide", "detail": f"{experiment}, {measure}",
                         "value": float(both[column].mean() - both[f"{column}_divided"].mean()) if len(both)
                         else np.nan})
    return pd.DataFrame(rows)


def extremes(coded: dict, *, variant: str, alpha: float) -> pd.DataFrame:
    """Table 3's systems to remove: the first and last of each original ranking, HUMAN systems included (as the
    paper's scripts read them from the original ranking file)."""
    systems = [(*k, ws.perturbed_ranking(pj, variant=variant, alpha=alpha).systems) for k, (pj, _, _) in coded.items()]
    out = pd.DataFrame([(c, p, s[0], s[-1]) for c, p, s in systems],
                       columns=["collection", "pair", "highest", "lowest"])
    human = [out[end].str.contains(ws.HUMAN_MARK, regex=False) for end in ("highest", "lowest")]
    return out.assign(human_removed=human[0] | human[1])


def lines_per_pair(coded: dict, *, by: str = "worker", variant: str, alpha: float) -> pd.Series:
    """Significance lines in each pair's original ranking (all systems)."""
    return pd.Series({k: int(ws.perturbed_ranking(pj, by=by, variant=variant, alpha=alpha).clusters.max())
                      for k, (pj, _, _) in coded.items()}, dtype=int)


def hits_per_worker(coded: dict) -> float:
    """Mean number of HITs per worker over the pairs of ``coded`` (judgments with a HIT id)."""
    pairs = [np.unique(np.column_stack([pj.worker, pj.hit])[pj.hit >= 0], axis=0) for pj, _, _ in coded.values()]
    return float(np.mean([len(p) / len(np.unique(p[:, 0])) for p in pairs if len(p)]))


def raw_coverage(coded: dict) -> pd.DataFrame:
    """Per pair: the share of raw scores published and known after :func:`analysis.wmt_stability.reconstruct_raw`,
    and of judgments left undivided by Fig. 1 (a worker with REF or HUMAN items but unknown raws keeps its z)."""
    rows = pd.DataFrame([{"collection": k[0], "pair": k[1], **c, "undivided": int((~ws.divisible(pj, raw)).sum())}
                         for k, (pj, raw, c) in coded.items()]).rename(columns={"workers_known": "workers_fully_known"})
    shares = ["raw_published", "raw_known", "undivided"]
    return rows.assign(**rows[shares].div(rows["judgments"], axis=0))


def _raw_version(variants: pd.DataFrame, label: str) -> dict:
    """One version of the per-worker mean/sd (``variant`` ``label``): its pairs, judgments and how its raws look."""
    part = variants[variants["variant"] == label]
    n = part["judgments"].sum()
    return {"pairs": len(part), "judgments": int(n),
            "integer": float(part["share_integer"].mul(part["judgments"]).sum() / n),
            "max-distance": float(part["max_distance_to_integer"].max()), "outside": int(part["outside_0_100"].sum()),
            "contradicted": int(part["single_segments_disagreeing"].sum()),
            "single": int(part["single_segments"].sum())}


def raw_numbers(coverage: pd.DataFrame, variants: pd.DataFrame, recovery: pd.DataFrame,
                unperturbed: pd.DataFrame) -> dict:
    """The raw scores' numbers for the page, under the keys it pastes: the two per-worker mean/sd versions of
    2021-22, :func:`recovery_check`, 2018's recovery (:func:`raw_coverage`) and the unperturbed rankings against the
    official ones."""
    with_ref, without_ref = _raw_version(variants, "with REF items"), _raw_version(variants, "without REF items")
    old = coverage[coverage["collection"] == "newstest2018"]
    known = float(old["raw_known"].mul(old["judgments"]).sum())
    return {
        "raw-with-pairs": with_ref["pairs"], "raw-with-judgments": with_ref["judgments"],
        "raw-with-integer": with_ref["integer"], "raw-with-max-distance": with_ref["max-distance"],
        "raw-with-outside": with_ref["outside"], "raw-with-contradicted": with_ref["contradicted"],
        "raw-with-single": with_ref["single"],
        "raw-without-pairs": without_ref["pairs"], "raw-without-judgments": without_ref["judgments"],
        "raw-without-integer": without_ref["integer"], "raw-without-max-distance": without_ref["max-distance"],
        "raw-without-outside": without_ref["outside"], "raw-without-contradicted": without_ref["contradicted"],
        "raw-without-single": without_ref["single"],
        "raw-hidden": int(recovery["hidden"].sum()), "raw-recovered": int(recovery["recovered"].sum()),
        "raw-recovered-share": recovery["recovered"].sum() / recovery["hidden"].sum(),
        "raw-recovered-wrong": int(recovery["disagreeing"].sum()), "raw-2018-judgments": int(old["judgments"].sum()),
        "raw-2018-known": known, "raw-2018-known-share": float(known / old["judgments"].sum()),
        "raw-2018-complete": int((old["workers_fully_known"] == old["workers"]).sum()), "raw-2018-pairs": len(old),
        "raw-undivided": pair_names(coverage[coverage["undivided"] > 0]),
        "raw-undivided-max": float(coverage["undivided"].max()),
        "raw-unperturbed-same": int((unperturbed["order_match"] & unperturbed["clusters_match"]).sum()),
        "raw-unperturbed-pairs": len(unperturbed)}


def bootstrap(coded: dict, info, *, seed: int, n_resamples: int, experiments, variant, alpha) -> pd.DataFrame:
    """Beyond the paper: the experiments on bootstrap resamples of HITs per pair of the style totals (Facebook's have
    no HITs), by :func:`~.packages.per_pair_draws`."""
    return per_pair_draws(ws.bootstrap_experiments, {k: (pj, raw) for k, (pj, raw, _) in coded.items()}, info,
                          seed=seed, n_resamples=n_resamples, variant=variant, alpha=alpha,
                          only=list(experiments), unknown_raw="keep_z")


def bootstrap_summary(boot: pd.DataFrame, per_pair: pd.DataFrame) -> pd.DataFrame:
    """Per style and experiment: the pairs changed on the full data, their mean and 90% interval over resamples, and
    the pairs changed in most resamples."""
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS)].groupby(["style", "experiment"])[CHANGE_COLUMNS]
    observed = observed.sum()
    rows = []
    for (style, experiment), part in boot.groupby(["style", "experiment"], sort=True):
        counts = part.groupby("resample")[CHANGE_COLUMNS].sum()
        share = part.groupby(["collection", "pair"])[CHANGE_COLUMNS].mean()
        row = {"style": style, "experiment": experiment, "pairs": len(share)}
        for c, m in zip(CHANGE_COLUMNS, MEASURES):
            row |= {f"{m}_observed": observed[c].get((style, experiment), np.nan), f"{m}_mean": counts[c].mean(),
                    f"{m}_interval": f"{np.percentile(counts[c], 5):.0f}-{np.percentile(counts[c], 95):.0f}",
                    f"{m}_most_resamples": int((share[c] > 0.5).sum())}
        rows.append(row)
    return pd.DataFrame(rows)


def bootstrap_view(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`bootstrap_summary` as read on the page."""
    view = summary.assign(experiment=summary["experiment"].map(experiment_label))
    view = view.set_index(["style", "experiment"])[["pairs"]]
    for m in MEASURES:
        view[f"Δ{m}: observed | resampled mean (90%)"] = [
            f"{MISSING if pd.isna(o) else f'{o:.0f}'} | {mean:.1f} ({interval})"
            for o, mean, interval in zip(summary[f"{m}_observed"], summary[f"{m}_mean"], summary[f"{m}_interval"])]
    return view


def style_contrast(boot: pd.DataFrame) -> pd.DataFrame:
    """Per experiment and measure: the share of resamples in which more (fewer) SR+DC than SR-DC pairs change."""
    counts = boot.groupby(["experiment", "style", "resample"])[CHANGE_COLUMNS].sum().set_axis(MEASURES, axis=1)
    diff = counts.xs("SR+DC", level="style") - counts.xs("SR-DC", level="style")
    share = {label: flags.groupby(level="experiment").mean().stack()
             for label, flags in (("SR+DC more", diff > 0), ("SR+DC fewer", diff < 0))}
    return pd.DataFrame(share).rename_axis(["experiment", "measure"])


def noise_vs_perturbation(summary: pd.DataFrame, shares: pd.DataFrame) -> pd.DataFrame:
    """``wmt_noise_vs_perturbation.csv``: per style, experiment and measure, the pairs a perturbation changes against
    the mean number resampling alone changes (``noise`` of :func:`~.experiments.bootstrap_summary`)."""
    noise = summary[summary["experiment"] == "noise"].melt("style", [f"{m}_mean" for m in MEASURES], "measure",
                                                           "resampling_mean")
    noise["measure"] = noise["measure"].str.removesuffix("_mean")
    part = shares.rename(columns={"group": "style"}).merge(noise, on=["style", "measure"])
    part = part.sort_values("style", kind="stable", ignore_index=True)  # SR+DC first
    return part.assign(pairs=part["pairs"].astype(int), perturbation=part["changed"].astype(int),
                       exceeds_noise=part["changed"] > part["resampling_mean"])[
        ["style", "experiment", "measure", "pairs", "perturbation", "resampling_mean", "exceeds_noise"]]


def bootstrap_numbers(boot: pd.DataFrame, summary: pd.DataFrame, contrast: pd.DataFrame,
                      noise: pd.DataFrame) -> dict:
    """The bootstrap's numbers for the page, under the keys it pastes (``noise``: :func:`noise_vs_perturbation`)."""
    s = summary[summary["experiment"] == "noise"].set_index("style")
    beyond = noise[noise["style"] == "SR+DC"].groupby("measure")["exceeds_noise"]
    return {"boot-resamples": int(boot["resample"].nunique()),
            "boot-rerun": ", ".join(experiment_label(e) for e in contrast.index.unique(0) if e != "noise"),
            "boot-noise-plus-more": float(contrast.loc[("noise", "rank"), "SR+DC more"]),
            "boot-beyond-rank": int(beyond.sum()["rank"]), "boot-beyond-cluster": int(beyond.sum()["cluster"]),
            "boot-perturbations": int(beyond.size()["cluster"]),
            "boot-plus-pairs": int(s.loc["SR+DC", "pairs"]), "boot-plus-rank": float(s.loc["SR+DC", "rank_mean"]),
            "boot-plus-cluster": float(s.loc["SR+DC", "cluster_mean"]),
            "boot-minus-pairs": int(s.loc["SR-DC", "pairs"]), "boot-minus-rank": float(s.loc["SR-DC", "rank_mean"]),
            "boot-minus-cluster": float(s.loc["SR-DC", "cluster_mean"])}


def remedy_per_hit(coded: dict, info: pd.DataFrame, per_pair: pd.DataFrame, *, divisors, variant,
                   alpha) -> pd.DataFrame:
    """Sec. 8's "normalize over annotators (rather than over HITs)": pairs changed per experiment and measure with z
    per worker (``per_pair``) and per HIT, on 2021-22 to-English (where every judgment has a HIT id)."""
    news = ("newstest2021-toen", "newstest2022-toen")
    per_hit = stability_per_pair({k: v for k, v in coded.items() if k[0] in news}, info, divisors=divisors,
                                 variant=variant, alpha=alpha, by="hit")
    both = pd.concat({"worker": per_pair[per_pair["collection"].isin(news)], "hit": per_hit}, names=["standardised"])
    groups = both.reset_index("standardised").groupby(["standardised", "experiment"], sort=False)
    counts = groups[CHANGE_COLUMNS].sum().set_axis(pd.Index(MEASURES, name="measure"), axis=1).stack().rename("changed")
    return counts.reset_index().join(groups.size().rename("pairs"), on=["standardised", "experiment"])


def remedy_view(long: pd.DataFrame) -> pd.DataFrame:
    """``wmt_remedy_per_hit.csv``: :func:`remedy_per_hit` as changed/pairs, experiments by measure and z."""
    labels = {"worker": "z per worker (WMT)", "hit": "z per HIT"}
    view = long.assign(standardised=long["standardised"].map(labels),
                       value=[f"{c}/{n}" for c, n in zip(long["changed"], long["pairs"])])
    view = view.pivot(index="experiment", columns=["measure", "standardised"], values="value")
    columns = pd.MultiIndex.from_product([["rank", "cluster", "both"], sorted(labels.values())],
                                         names=[None, "standardised"])
    return view.reindex(columns=columns).reindex(list(ws.EXPERIMENTS)).rename_axis("experiment")


def remedy_totals(long: pd.DataFrame) -> pd.DataFrame:
    """``wmt_remedy_totals.csv``: Sec. 8, per measure the pairs changed over all experiments with z per worker and
    per HIT (:func:`~.experiments.remedy_per_hit`), and the experiments in which each changes fewer."""
    wide = long.pivot_table(index=["measure", "experiment"], columns="standardised", values="changed")
    w, h = wide["worker"], wide["hit"]
    t = pd.DataFrame({"experiments": 1, "per_worker": w, "per_hit": h, "experiments_per_worker_fewer": w < h,
                      "experiments_per_hit_fewer": h < w}).groupby(level="measure").sum().astype(int).loc[MEASURES]
    return t.assign(per_worker_fewer=t["per_worker"] < t["per_hit"], value=t["per_worker"] - t["per_hit"]).reset_index()


def remedy_numbers(totals: pd.DataFrame, lines_worker: pd.Series, lines_hit: pd.Series, hits: float) -> dict:
    """Sec. 8's numbers for the page, under the keys it pastes: :func:`remedy_totals` and the lines each z starts
    from."""
    t = totals.set_index("measure")
    lines = {"worker": int(lines_worker.sum()), "hit": int(lines_hit.sum())}
    return {"remedy-experiments": int(t.loc["rank", "experiments"]), "remedy-lines-worker": lines["worker"],
            "remedy-lines-hit": lines["hit"], "remedy-pairs": len(lines_worker), "remedy-hits-per-worker": float(hits),
            "remedy-rank-worker": int(t.loc["rank", "per_worker"]), "remedy-rank-hit": int(t.loc["rank", "per_hit"]),
            "remedy-rank-worker-fewer": int(t.loc["rank", "experiments_per_worker_fewer"]),
            "remedy-rank-hit-fewer": int(t.loc["rank", "experiments_per_hit_fewer"]),
            "remedy-cluster-worker": int(t.loc["cluster", "per_worker"]),
            "remedy-cluster-hit": int(t.loc["cluster", "per_hit"]),
            "remedy-cluster-worker-fewer": int(t.loc["cluster", "experiments_per_worker_fewer"]),
            "remedy-cluster-hit-fewer": int(t.loc["cluster", "experiments_per_hit_fewer"]),
            "remedy-per-line-worker": int(t.loc["cluster", "per_worker"]) / max(lines["worker"], 1),
            "remedy-per-line-hit": int(t.loc["cluster", "per_hit"]) / max(lines["hit"], 1)}


def variant_sensitivity(coded: dict, info: pd.DataFrame, computed: dict, *, divisors, alpha) -> pd.DataFrame:
    """Tables 2-3 and Fig. 1's counts with each rank-sum variant; ``computed``: {variant: :func:`stability_per_pair`}
    already at hand."""
    counts = {}
    for variant in wmt.RANK_SUM_VARIANTS:
        table = computed[variant] if variant in computed else stability_per_pair(coded, info, divisors=divisors,
                                                                                 variant=variant, alpha=alpha)
        counts[variant] = fractions(table[table["collection"].isin(STYLE_TOTALS)], ["experiment", "style"])
    return pd.concat(counts, names=["variant"]).reset_index().pivot(index=["experiment", "style"], columns="variant")


def variant_view(variants: pd.DataFrame) -> pd.DataFrame:
    """:func:`variant_sensitivity` in the paper's order (Tables 2, 3, Fig. 1): per measure the count with WMT's test,
    then ``→`` and the count with the paper's p where they differ."""
    def order(experiment: str) -> tuple:
        divisor = experiment.removeprefix("divide_")
        return (1, float(divisor)) if divisor != experiment else (0, ws.EXPERIMENTS.index(experiment))

    variants = variants.iloc[sorted(range(len(variants)), key=lambda k: order(variants.index[k][0]))]
    out = pd.DataFrame(index=variants.index)
    for measure in MEASURES:
        ours, paper = variants[(measure, "greater")], variants[(measure, "scipy<1.7")]
        out[f"Δ{measure}"] = [a if a == b else f"{a} → {b}" for a, b in zip(ours, paper)]
    return out.rename(index=experiment_label, level="experiment")


def recovery_check(coded: dict, segments: pd.DataFrame) -> pd.DataFrame:
    """2018's raw recovery (:func:`analysis.wmt_stability.reconstruct_raw`) checked on 2021-22: per pair, every raw
    but the singly judged segments' (what 2018 has) hidden, then the hidden raws recovered and those that disagree."""
    rows = []
    for (collection, pair), (pj, _, _) in coded.items():
        if collection not in ("newstest2021-toen", "newstest2022-toen"):
            continue
        if np.isnan(pj.raw).any():
            raise ValueError(f"{collection} {pair}: the check needs every raw score")
        counts = np.bincount(pj.key[pj.scored], minlength=len(pj.key_names))
        single = pj.scored & (counts[pj.key] == 1)
        hidden = replace(pj, raw=np.where(single, pj.raw, np.nan))
        seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
        recovered, _ = ws.reconstruct_raw(hidden, seg)
        found = ~single & ~np.isnan(recovered)
        rows.append({"collection": collection, "pair": pair, "hidden": int((~single).sum()),
                     "recovered": int(found.sum()), "disagreeing": int((recovered[found] != pj.raw[found]).sum())})
    return pd.DataFrame(rows)
