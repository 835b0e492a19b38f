"""The numbers and names the page's text pastes (MyST-NB glue; the sentences are the notebook's markdown): one
function per section, each returning ``{key: value}`` computed from the chapter's tables, a number or a list of
names (a string, "none" when empty). No verdict is computed here: those are the claims registry's."""

from __future__ import annotations

import pandas as pd

from .packages import STYLE_TOTALS
from .views import PACKAGE_SHORT, experiment_label

SR_PLUS = ("newstest2021-toen", "newstest2022-toen")


def pair_name(collection: str, pair: str) -> str:
    """A pair with its package's short name: ``de-en 2022``."""
    return f"{pair} {PACKAGE_SHORT.get(collection, collection)}"


def names(rows: pd.DataFrame) -> str:
    """The pairs of ``rows`` (columns ``collection``, ``pair``) by :func:`pair_name`, or "none"."""
    return ", ".join(pair_name(c, p) for c, p in zip(rows["collection"], rows["pair"])) or "none"


def replication_numbers(done: pd.DataFrame, printed: dict) -> dict:
    """Sec. 3 / App. A (``done``: the replication rows with judgments or segment scores; ``printed``:
    :func:`.replication.printed_pvalues`)."""
    compared = done["clusters_match_greater"].notna()
    return {"pairs": len(done), "z-largest": float(done["max_abs_z_diff"].max()),
            "order": int(done["order_match"].sum()), "compared": int(compared.sum()),
            "clusters-1sided": int(done["clusters_match_greater"].eq(True).sum()),
            "clusters-old": int(done["clusters_match_scipy<1.7"].eq(True).sum()),
            "verdicts-1sided": int(done["verdicts_differ_greater"].sum()),
            "verdicts-old": int(done["verdicts_differ_scipy<1.7"].sum()),
            "printed": printed["printed"], "printed-diff": printed["max_abs_diff"],
            "printed-packages": " and ".join(PACKAGE_SHORT.get(c, c) for c in printed["collections"])}


def raw_numbers(coverage: pd.DataFrame, variants: pd.DataFrame, recovery: pd.DataFrame,
                unperturbed: pd.DataFrame) -> dict:
    """Where Fig. 1's raw scores come from: the two per-worker mean/sd files of 2021-22 (``variants``), the recovery
    check (``recovery``), 2018's recovery (``coverage``) and the unperturbed rankings (``unperturbed``)."""
    numbers = {}
    for label, key in (("with REF items", "with"), ("without REF items", "without")):
        part = variants[variants["variant"] == label]
        numbers |= {f"{key}-pairs": len(part), f"{key}-judgments": int(part["judgments"].sum()),
                    f"{key}-integer": float(part["share_integer"].mul(part["judgments"]).sum()
                                            / part["judgments"].sum()),
                    f"{key}-max-distance": float(part["max_distance_to_integer"].max()),
                    f"{key}-outside": int(part["outside_0_100"].sum()),
                    f"{key}-contradicted": int(part["single_segments_disagreeing"].sum()),
                    f"{key}-single": int(part["single_segments"].sum())}
    old = coverage[~coverage["collection"].isin([*SR_PLUS, "wikipedia2021-fb"])]
    undivided = coverage[coverage["undivided"] > 0]
    return numbers | {
        "hidden": int(recovery["hidden"].sum()), "recovered": int(recovery["recovered"].sum()),
        "recovered-share": recovery["recovered"].sum() / recovery["hidden"].sum(),
        "recovered-wrong": int(recovery["disagreeing"].sum()),
        "2018-judgments": int(old["judgments"].sum()),
        "2018-known": float(old["raw_known"].mul(old["judgments"]).sum()),
        "2018-known-share": float(old["raw_known"].mul(old["judgments"]).sum() / old["judgments"].sum()),
        "2018-complete": int((old["workers_fully_known"] == old["workers"]).sum()), "2018-pairs": len(old),
        "undivided": names(undivided), "undivided-max": float(coverage["undivided"].max()),
        "unperturbed-same": int((unperturbed["order_match"] & unperturbed["clusters_match"]).sum()),
        "unperturbed-pairs": len(unperturbed)}


def ref_share_numbers(composition: pd.DataFrame, lowest: int = 3) -> dict:
    """Sec. 5.1: the lowest 2018 shares of workers who saw REF items, the 2018 pairs without HIT ids, the SR+DC
    stand-ins' shares and who saw a HUMAN system."""
    y2018 = composition[composition["collection"] == "newstest2018"].sort_values("workers_saw_ref")
    plus = composition[composition["collection"].isin(SR_PLUS)]
    worst = plus.loc[plus["workers_saw_ref"].idxmin()]
    human = composition[composition["workers_saw_human"] > 0]
    return {"lowest-2018": ", ".join(f"{p} {s:.1%}" for p, s in
                                     zip(y2018["pair"].head(lowest), y2018["workers_saw_ref"].head(lowest))),
            "no-hit-id-2018": ", ".join(y2018.loc[y2018["hits"].isna(), "pair"]) or "none",
            "plus-every": int((plus["workers_saw_ref"] == 1).sum()), "plus-pairs": len(plus),
            "plus-lowest": float(worst["workers_saw_ref"]), "plus-lowest-pair": pair_name(worst["collection"],
                                                                                          worst["pair"]),
            "human-workers-min": float(human["workers_saw_human"].min()),
            "human-workers-max": float(human["workers_saw_human"].max()),
            "human-hits-min": float(human["hits_saw_human"].min()),
            "human-hits-max": float(human["hits_saw_human"].max())}


def table3_numbers(removed: pd.DataFrame, lines: pd.Series, info: pd.DataFrame) -> dict:
    """Table 3: the pairs whose removed highest or lowest system is a HUMAN one, and the median number of
    significance lines per pair of each style (``lines``: per pair, the packages of :data:`STYLE_TOTALS` counted)."""
    humans = removed[removed["human_removed"]]
    lines = lines[[k[0] in STYLE_TOTALS for k in lines.index]]
    style = pd.Series([info.loc[k, "style"] for k in lines.index], index=lines.index)
    return {"human-removed": ", ".join(f"{pair_name(r.collection, r.pair)} "
                                       f"({r.highest if 'HUMAN' in r.highest else r.lowest})"
                                       for r in humans.itertuples(index=False)) or "none",
            "lines-plus": float(lines[style == "SR+DC"].median()),
            "lines-minus": float(lines[style == "SR-DC"].median())}


def ranges_numbers(ranges: pd.DataFrame) -> dict:
    """The paper's 2018 range against ours (:func:`.paper2020.paper_2018_ranges`): cells inside the range our pairs
    allow, and those outside."""
    out = ranges[~ranges["inside"]]
    return {"inside": int(ranges["inside"].sum()), "cells": len(ranges),
            "outside": "; ".join(f"{experiment_label(r.experiment)} {r.measure}: {r.value} against "
                                 f"{r.low}–{r.high}" for r in out.itertuples(index=False))
            or "none"}


def human_last(removed: pd.DataFrame, summary: pd.DataFrame) -> str:
    """The pairs of the trajectory summary whose lowest system is a HUMAN one, with its name, or "none"."""
    last = removed[removed["lowest"].str.contains("HUMAN") & removed["collection"].isin(summary["collection"])]
    return ", ".join(f"{pair_name(r.collection, r.pair)} ({r.lowest})" for r in last.itertuples(index=False)) or "none"


def fig4_numbers(summary: pd.DataFrame, sr_dc: pd.DataFrame) -> dict:
    """Sec. 5.4 (``summary``: the pairs drawn, :func:`fig4_summary`; ``sr_dc``: every 2018 pair with HIT ids)."""
    share = sr_dc["hits_with_every_system"]
    fewest = sr_dc.loc[share.idxmin()]
    minus = summary[summary["style"] == "SR-DC"]
    return {"plus-min-share": float(summary.loc[summary["style"] == "SR+DC", "min_share"].min()),
            "minus-every": float(minus["hits_with_every_system"].min()), "minus-pair": names(minus),
            "sr-dc-pairs": len(sr_dc), "sr-dc-min": float(share.min()), "sr-dc-max": float(share.max()),
            "sr-dc-fewest": pair_name(fewest["collection"], fewest["pair"])}


def fig5_numbers(variance: pd.DataFrame, summary: pd.DataFrame) -> dict:
    """Sec. 6: the one-way variance shares (``variance``: :func:`fig5_variance`) and the joint fit (``summary``:
    :func:`.documents.document_summary`)."""
    v, s = variance.set_index("scores"), summary.iloc[0]
    return {"documents": int(v.loc["raw", "documents"]), "systems": int(v.loc["raw", "systems"]),
            "judged": float(v.loc["raw", "cells_judged"]),
            **{f"{scores}-{what}": float(v.loc[scores, f"{what}_omega2"]) for scores in ("raw", "z")
               for what in ("documents", "systems")},
            **{key: float(s[key]) for key in ("sd_document_effects", "sd_system_effects", "median_abs_shift",
                                              "max_abs_shift", "median_neighbour_gap", "share_reordered")},
            **{key: int(s[key]) for key in ("shift_beyond_gap", "pairs_reordered")}, "fit-systems": int(s["systems"])}


def controls_numbers(summary: pd.DataFrame, strata: pd.DataFrame, close: pd.DataFrame) -> dict:
    """The matched nulls (``summary``: :func:`.controls.null_summary`), the closeness of the systems (``close``) and
    its strata (the contrast after the nulls is the claims registry's)."""
    s = summary.set_index(["control", "style"])
    numbers = {}
    for control, key in (("remove_mid", "mid"), ("remove_random_judgments", "random")):
        for style, tag in (("SR+DC", "plus"), ("SR-DC", "minus")):
            row = s.loc[(control, style)]
            row = row.iloc[0] if isinstance(row, pd.DataFrame) else row
            numbers |= {f"{key}-{tag}-{m}": float(row[f"{m}_null"]) for m in ("rank", "cluster")}
            if control == "remove_random_judgments":
                numbers |= {f"human-{tag}-{m}": float(row[f"{m}_observed"]) for m in ("rank", "cluster")}
    news = close[close["collection"].isin(STYLE_TOTALS)].groupby("style")[["median_gap", "z_range"]].median()
    closer = strata[strata["stratum"] == "closer"].set_index("style")
    return numbers | {
        "reversals": float(summary["reversals_observed"].mul(summary["pairs"]).sum()),
        "reversals-null": float(summary["reversals_null"].max()),
        "gap-plus": float(news.loc["SR+DC", "median_gap"]), "gap-minus": float(news.loc["SR-DC", "median_gap"]),
        "range-plus": float(news.loc["SR+DC", "z_range"]), "range-minus": float(news.loc["SR-DC", "z_range"]),
        "cut": float(strata["cut"].iloc[0]),
        **{f"closer-{tag}-{key}": float(closer.loc[style, column]) for style, tag in (("SR+DC", "plus"),
                                                                                       ("SR-DC", "minus"))
           for key, column in (("changed", "cluster_changed"), ("pairs", "pairs"),
                               ("null", "null_cluster_changed"))}}


def bootstrap_numbers(boot: pd.DataFrame, summary: pd.DataFrame, contrast: pd.DataFrame,
                      noise: pd.DataFrame) -> dict:
    """The bootstrap over HITs: resamples, what resampling alone changes, how many perturbations change more
    SR+DC rankings than it (``noise``: :func:`noise_vs_perturbation`) and the perturbations rerun."""
    s = summary.set_index(["style", "experiment"])
    plus_noise = noise[noise["style"] == "SR+DC"]
    perturbations = [e for e in contrast.index.get_level_values(0).unique() if e != "noise"]
    numbers = {"resamples": int(boot["resample"].nunique()), "rerun": ", ".join(map(experiment_label, perturbations)),
               "noise-plus-more": float(contrast.loc[("noise", "rank"), "SR+DC more"])}
    for style, tag in (("SR+DC", "plus"), ("SR-DC", "minus")):
        row = s.loc[(style, "noise")]
        numbers |= {f"{tag}-pairs": int(row["pairs"]), f"{tag}-rank": float(row["rank_mean"]),
                    f"{tag}-cluster": float(row["cluster_mean"])}
    for measure in ("rank", "cluster"):
        rows = plus_noise[plus_noise["measure"] == measure]
        numbers |= {f"beyond-{measure}": int(rows["exceeds_noise"].sum()), "perturbations": len(rows)}
    return numbers


def remedy_numbers(totals: pd.DataFrame, lines_worker: pd.Series, lines_hit: pd.Series, hits: float) -> dict:
    """Sec. 8: z per worker against z per HIT summed over the experiments (``totals``: :func:`remedy_totals`), and
    the significance lines each starts from."""
    t = totals.set_index("measure")
    numbers = {"experiments": int(t.loc["rank", "experiments"]), "lines-worker": int(lines_worker.sum()),
               "lines-hit": int(lines_hit.sum()), "pairs": len(lines_worker), "hits-per-worker": float(hits)}
    for m in ("rank", "cluster"):
        numbers |= {f"{m}-worker": int(t.loc[m, "per_worker"]), f"{m}-hit": int(t.loc[m, "per_hit"]),
                    f"{m}-worker-fewer": int(t.loc[m, "experiments_per_worker_fewer"]),
                    f"{m}-hit-fewer": int(t.loc[m, "experiments_per_hit_fewer"])}
    return numbers | {"per-line-worker": numbers["cluster-worker"] / max(numbers["lines-worker"], 1),
                      "per-line-hit": numbers["cluster-hit"] / max(numbers["lines-hit"], 1)}


def variant_numbers(variants: pd.DataFrame) -> dict:
    """The rank-sum variants (:func:`variant_sensitivity`): the cells whose count differs between the two tests."""
    measures = ("rank", "cluster", "both")
    differ = sum(int((variants[(m, "greater")] != variants[(m, "scipy<1.7")]).sum()) for m in measures)
    return {"differ": differ, "cells": len(variants) * len(measures)}


def pair_counts(per_pair: pd.DataFrame) -> dict:
    """The pairs the style totals count (SR+DC, SR-DC: :data:`~.packages.STYLE_TOTALS`), those shown but left out
    of them (the Facebook package), and the significant reversals over every perturbed ranking (every experiment,
    every pair)."""
    pairs = per_pair[["collection", "pair", "style"]].drop_duplicates()
    counted = pairs["collection"].isin(STYLE_TOTALS)
    return {"plus": int((counted & pairs["style"].eq("SR+DC")).sum()),
            "minus": int((counted & pairs["style"].eq("SR-DC")).sum()), "other": int((~counted).sum()),
            "rankings": len(per_pair), "reversals": int(per_pair["reversals"].sum())}
