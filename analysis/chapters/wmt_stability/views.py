"""Names and compact tables for the page: packages, pairs and experiments in words, and the replication, bootstrap
and rank-sum-variant views."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...plotting import MISSING

PACKAGE_SHORT = {"newstest2018": "2018", "newstest2019": "2019", "newstest2020": "2020", "newstest2021-toen": "2021",
                 "wikipedia2021-fb": "2021 FB", "newstest2022-toen": "2022"}
#: the experiments of :data:`analysis.wmt_stability.EXPERIMENTS` (and the bootstrap's "noise") in words
EXPERIMENT_LABELS = {"remove_human": "remove HUMAN and REF", "remove_lowest": "remove the lowest system",
                     "remove_highest": "remove the highest system", "noise": "none (resampling only)"}
#: the rank-sum variants of :data:`analysis.wmt.RANK_SUM_VARIANTS` in words
VARIANT_LABELS = {"greater": "WMT's one-sided test", "scipy<1.7": "the paper's scipy < 1.7 p"}


def pair_name(collection: str, pair: str) -> str:
    """A pair with its package's short name: ``de-en 2022``."""
    return f"{pair} {PACKAGE_SHORT.get(collection, collection)}"


def pair_names(rows: pd.DataFrame, system: str | None = None) -> str:
    """The pairs of ``rows`` by :func:`pair_name`, each with its ``system`` column in brackets when given, or "none"."""
    systems = rows[system] if system else [None] * len(rows)
    return ", ".join(pair_name(c, p) + (f" ({s})" if s else "")
                     for c, p, s in zip(rows["collection"], rows["pair"], systems)) or "none"


def experiment_label(experiment: str) -> str:
    """An experiment in words: ``divide_2`` → ``divide by 2``, ``remove_human`` → ``remove HUMAN and REF``."""
    if experiment.startswith("divide_"):
        return "divide by " + experiment.removeprefix("divide_")
    return EXPERIMENT_LABELS.get(experiment, experiment)


def with_experiment_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its ``experiment`` column or index level in words."""
    out = frame.copy()
    if "experiment" in out.index.names:
        out = out.rename(index=experiment_label, level="experiment")
    if "experiment" in out.columns:
        out["experiment"] = out["experiment"].map(experiment_label)
    return out


def by_pair(frame: pd.DataFrame) -> pd.DataFrame:
    """A per-pair table indexed by (short package name, pair)."""
    out = frame.assign(package=frame["collection"].map(PACKAGE_SHORT)).set_index(["package", "pair"])
    return out.drop(columns=[c for c in ("collection", "year") if c in out.columns])


def _yes(value) -> str | float:
    return np.nan if pd.isna(value) else ("yes" if value else "no")


def replication_view(table: pd.DataFrame) -> pd.DataFrame:
    """The replication table as read on the page."""
    rows = table[table["data"] != "ranking only"]
    view = pd.DataFrame({
        "collection": rows["collection"], "pair": rows["pair"], "from": rows["data"], "systems": rows["n_systems"],
        **{label: rows[column].map(lambda v: np.nan if pd.isna(v) else f"{v:.0e}")
           for label, column in (("max Δz", "max_abs_z_diff"), ("max Δraw", "max_abs_raw_diff"))},
        "same order": rows["order_match"].map(_yes),
        "same clusters (1-sided / old)": [f"{_yes(a)} / {_yes(b)}" for a, b in zip(
            rows["clusters_match_greater"], rows["clusters_match_scipy<1.7"])],
        "verdicts differing (1-sided / old)": [
            np.nan if pd.isna(a) else f"{a:.0f} / {b:.0f}"
            for a, b in zip(rows["verdicts_differ_greater"], rows["verdicts_differ_scipy<1.7"])],
    })
    return by_pair(view)


def replication_exceptions(view: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`replication_view` not replicated exactly, with the two reasons found for a difference:
    official segment rows with no judgment behind them, and official cluster and Wilcoxon files that disagree."""
    exact = (view["max Δz"].map(lambda v: pd.isna(v) or float(v) <= 1e-9) & (view["same order"] == "yes")
             & (view["same clusters (1-sided / old)"] == "yes / yes")
             & view["verdicts differing (1-sided / old)"].map(lambda v: pd.isna(v) or v == "0 / 0"))
    rows = table[table["data"] != "ranking only"]
    view = view.drop(columns="systems").assign(**{
        "unjudged rows": [MISSING if pd.isna(v) else f"{v:.0f}" for v in rows["segments_without_judgments"]],
        "files agree": [MISSING if pd.isna(v) else _yes(v) for v in rows["official_files_agree"]]})
    return view[~exact]


def bootstrap_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The bootstrap summary as read on the page."""
    view = with_experiment_labels(summary).set_index(["style", "experiment"])[["pairs"]]
    for m in ("rank", "cluster", "both"):
        observed = summary[f"{m}_observed"].map(lambda v: MISSING if pd.isna(v) else f"{v:.0f}")
        view[f"Δ{m}: observed | resampled mean (90%)"] = [
            f"{o} | {mean:.1f} ({interval})" for o, mean, interval in
            zip(observed, summary[f"{m}_mean"], summary[f"{m}_interval"])]
    return view


def disagreement_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`~.replication.rank_sum_disagreements` as read on the page."""
    view = pd.DataFrame({"collection": table["collection"], "pair": table["pair"],
                         "upper (z)": [f"{s} ({z:.3f})" for s, z in zip(table["upper"], table["z_upper"])],
                         "lower (z)": [f"{s} ({z:.3f})" for s, z in zip(table["lower"], table["z_lower"])],
                         "line from": table["line_from"].map(VARIANT_LABELS),
                         "p 1-sided": table["p_greater"].round(3), "p old": table["p_old"].round(3)})
    return by_pair(view)


def variant_view(variants: pd.DataFrame) -> pd.DataFrame:
    """:func:`~.experiments.variant_sensitivity` in the paper's order (Tables 2, 3, Fig. 1): per measure the count
    with WMT's test, then ``→`` and the count with the paper's p where they differ."""
    def order(experiment: str) -> tuple:
        if experiment.startswith("divide_"):
            return (1, float(experiment.removeprefix("divide_")))
        return (0, list(EXPERIMENT_LABELS).index(experiment) if experiment in EXPERIMENT_LABELS else 99)

    variants = variants.iloc[sorted(range(len(variants)), key=lambda k: order(variants.index[k][0]))]
    out = pd.DataFrame(index=variants.index)
    for measure in ("rank", "cluster", "both"):
        ours, paper = variants[(measure, "greater")], variants[(measure, "scipy<1.7")]
        out[f"Δ{measure}"] = [a if a == b else f"{a} → {b}" for a, b in zip(ours, paper)]
    return with_experiment_labels(out)
