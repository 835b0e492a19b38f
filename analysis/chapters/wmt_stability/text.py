"""Sentences for the page: what Figs. 4-5, the bootstrap, the per-HIT remedy and the rank-sum variant show."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .experiments import cooccurrence_share


def fig4_text(coded: dict, keys) -> str:
    parts = []
    for key in keys:
        share = cooccurrence_share(coded[key][0], "hit").to_numpy()
        off = share[~np.eye(len(share), dtype=bool)]
        parts.append(f"{key[1]} ({key[0]}): a system's HITs hold a given other system {off.mean():.0%} of the time "
                     f"on average (range {off.min():.0%}–{off.max():.0%})")
    return ("Fig. 4, as shares of the row system's HITs (the paper shows counts): " + "; ".join(parts) + ". In SR-DC "
            "every HIT holds (nearly) every system; in SR+DC a system meets a given other in only some of its "
            "HITs, so which systems its scores are standardised against differs from system to system.")


def omega_squared(values: pd.Series, groups: pd.Series) -> float:
    """One-way ω² (Hays): the share of variance a factor explains, corrected for its number of levels (a factor
    with many levels explains some variance by chance alone; ω² is about 0 then)."""
    g = values.groupby(groups)
    grand, n, k = values.mean(), len(values), g.ngroups
    between = (g.size() * (g.mean() - grand) ** 2).sum()
    within = ((values - g.transform("mean")) ** 2).sum()
    mean_within = within / (n - k)
    return float((between - (k - 1) * mean_within) / (between + within + mean_within))


def fig5_text(raw_matrix: pd.DataFrame, z_matrix: pd.DataFrame) -> str:
    """How much of the (document, system) cell variance documents and systems explain (ω², raw and z)."""
    shares = {}
    for label, matrix in (("raw", raw_matrix), ("z", z_matrix)):
        long = matrix.stack().rename("value").reset_index()
        shares[label] = (omega_squared(long["value"], long["test_document"]),
                         omega_squared(long["value"], long["system"]))
    judged = raw_matrix.notna().mean().mean()
    return (f"{len(raw_matrix)} documents × {raw_matrix.shape[1]} systems, {judged:.0%} of the cells judged. "
            f"Documents explain ω² = {shares['raw'][0]:.2f} of the cell variance and systems {shares['raw'][1]:.2f} "
            f"(one-way, corrected for the number of levels; on z scores, which remove each worker's leniency, "
            f"{shares['z'][0]:.2f} and {shares['z'][1]:.2f}). A cell is usually one worker's judgments of one "
            "document, so part of the document effect may still be the worker's; but the document a system happened "
            "to be judged on moves its scores more than which system it is, the paper's §6 point, and every system "
            "is judged on a different subset of documents.")


def bootstrap_text(summary: pd.DataFrame, contrast: pd.DataFrame) -> str:
    s = summary.set_index(["style", "experiment"])
    noise = {style: s.loc[(style, "noise")] for style in ("SR+DC", "SR-DC") if (style, "noise") in s.index}
    perturbations = [e for e in contrast.index.get_level_values(0).unique() if e != "noise"]
    rank_more = min(contrast.loc[(e, "rank"), "SR+DC more"] for e in perturbations)
    cluster_more = {e: contrast.loc[(e, "cluster"), "SR+DC more"] for e in perturbations}
    text = []
    if len(noise) == 2:
        noise_rank_more = contrast.loc[("noise", "rank"), "SR+DC more"] if ("noise", "rank") in contrast.index else 0
        text.append(
            f"Resampling HITs alone changes the order in {noise['SR+DC']['rank_mean']:.1f} of 13 SR+DC and "
            f"{noise['SR-DC']['rank_mean']:.1f} of 13 SR-DC rankings on average, and the clusters in "
            f"{noise['SR+DC']['cluster_mean']:.1f} and {noise['SR-DC']['cluster_mean']:.1f}: more than any "
            "perturbation changes them. A changed order or cluster on its own is therefore weak evidence about a "
            f"ranking, and the SR+DC orders are the more fragile ones (more of them change in {noise_rank_more:.0%} "
            "of the resamples).")
    text.append(
        "Against the unperturbed ranking *of the same resample*, more SR+DC than SR-DC pairs change their order in "
        + ("every resample" if rank_more == 1 else f"at least {rank_more:.0%} of the resamples")
        + " for every experiment, and their clusters in " + ", ".join(
            f"{v:.0%} ({e})" for e, v in cluster_more.items()) + " of the resamples. So the contrast of Tables 2–3 "
        "does not hinge on which HITs were collected; but part of it may be that the SR+DC systems here are closer "
        "together (their orders also break more easily under resampling), and it cannot tell the protocol apart "
        "from the other differences between these packages (year, systems, HUMAN systems in six SR+DC pairs).")
    return " ".join(text)


def remedy_text(remedy: pd.DataFrame, lines_worker: pd.Series, lines_hit: pd.Series, hits: float) -> str:
    def total(column):
        return sum(int(v.split("/")[0]) for v in remedy[column].dropna())

    w, h = "z per worker (WMT)", "z per HIT"
    return (f"Summed over the experiments, the status quo (z per worker, what §8 recommends keeping) changes the order "
            f"{total(('rank', w))} times and the clusters {total(('cluster', w))} times; z per HIT "
            f"{total(('rank', h))} and {total(('cluster', h))} times. Per-worker z keeps the order steadier; per-HIT "
            f"z moves the clusters less, and its original rankings also have fewer lines ({lines_hit.sum()} against "
            f"{lines_worker.sum()} over the 13 pairs). A worker here did {hits:.1f} HITs on average, so the two "
            "choices are close; neither removes the SR+DC instability. As §8 says, workers would also have to see comparable "
            "mixes of systems.")


def variant_text(variants: pd.DataFrame) -> str:
    same = all((variants[(c, "greater")] == variants[(c, "scipy<1.7")]).all() for c in ("rank", "cluster", "both"))
    return ("Every count is the same with both tests: the lines they disagree on are not in the pairs' perturbed "
            "rankings here." if same else
            "The counts differ between the tests in some rows: the lines they disagree on matter here.")


def share_range(values: pd.Series) -> str:
    return f"{values.min():.0%}–{values.max():.0%}"
