"""Compact tables as read on the page: short package names, experiments in words, the replication, bootstrap and
rank-sum-variant views."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...plotting import MISSING
from .packages import PACKAGES

PACKAGE_SHORT = {"newstest2018": "2018", "newstest2019": "2019", "newstest2020": "2020", "newstest2021-toen": "2021",
                 "wikipedia2021-fb": "2021 FB", "newstest2022-toen": "2022"}


#: the experiments of :data:`analysis.wmt_stability.EXPERIMENTS` (and the bootstrap's "noise") in words
EXPERIMENT_LABELS = {"remove_human": "remove HUMAN and REF", "remove_lowest": "remove the lowest system",
                     "remove_highest": "remove the highest system", "noise": "none (resampling only)"}
#: the rank-sum variants of :data:`analysis.wmt.RANK_SUM_VARIANTS` in words
VARIANT_LABELS = {"greater": "WMT's one-sided test", "scipy<1.7": "the paper's scipy < 1.7 p"}


def experiment_label(experiment: str) -> str:
    """An experiment in words: ``divide_2`` → ``divide by 2``, ``remove_human`` → ``remove HUMAN and REF``."""
    if experiment.startswith("divide_"):
        return "divide by " + experiment.removeprefix("divide_")
    return EXPERIMENT_LABELS.get(experiment, experiment)


def _experiment_order(experiment: str) -> tuple:
    """The paper's order of the experiments: Table 2, Table 3, then Fig. 1's divisors by size (not as text)."""
    if experiment.startswith("divide_"):
        return (1, float(experiment.removeprefix("divide_")))
    return (0, list(EXPERIMENT_LABELS).index(experiment) if experiment in EXPERIMENT_LABELS else len(EXPERIMENT_LABELS))


def with_experiment_labels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with its ``experiment`` column or index level in words (:func:`experiment_label`), for display."""
    out = frame.copy()
    if "experiment" in out.columns:
        out["experiment"] = out["experiment"].map(experiment_label)
    if "experiment" in (out.index.names or []):
        if isinstance(out.index, pd.MultiIndex):
            level = out.index.names.index("experiment")
            out.index = out.index.set_levels(out.index.levels[level].map(experiment_label), level=level)
        else:
            out.index = out.index.map(experiment_label)
    return out


def by_pair(frame: pd.DataFrame) -> pd.DataFrame:
    """Index a per-pair table by (package, pair) with short package names, for display."""
    out = frame.assign(package=frame["collection"].map(PACKAGE_SHORT)).set_index(["package", "pair"])
    return out.drop(columns=[c for c in ("collection", "year") if c in out.columns])


def replication_view(table: pd.DataFrame) -> pd.DataFrame:
    """The replication table as read on the page: differences in scientific notation, verdicts as yes/no."""
    rows = table[table["data"] != "ranking only"]

    def yes(value):
        return np.nan if pd.isna(value) else ("yes" if value else "no")

    def sci(value):
        return np.nan if pd.isna(value) else f"{value:.0e}"

    view = pd.DataFrame({
        "collection": rows["collection"], "pair": rows["pair"], "from": rows["data"], "systems": rows["n_systems"],
        "max Δz": rows["max_abs_z_diff"].map(sci), "max Δraw": rows["max_abs_raw_diff"].map(sci),
        "same order": rows["order_match"].map(yes),
        "same clusters (1-sided / old)": [f"{yes(a)} / {yes(b)}" for a, b in zip(
            rows["clusters_match_greater"], rows["clusters_match_scipy<1.7"])],
        "verdicts differing (1-sided / old)": [
            np.nan if pd.isna(a) else f"{a:.0f} / {b:.0f}"
            for a, b in zip(rows["verdicts_differ_greater"], rows["verdicts_differ_scipy<1.7"])],
    })
    return by_pair(view)


def bootstrap_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The bootstrap summary as read on the page: per measure "observed | mean over resamples (90% interval)"."""
    view = with_experiment_labels(summary).set_index(["style", "experiment"])[["pairs"]].copy()
    for m in ("rank", "cluster", "both"):
        observed = summary[f"{m}_observed"].map(lambda v: MISSING if pd.isna(v) else f"{v:.0f}")
        view[f"Δ{m}: observed | resampled mean (90%)"] = [
            f"{o} | {mean:.1f} ({interval})" for o, mean, interval in
            zip(observed, summary[f"{m}_mean"], summary[f"{m}_interval"])]
    return view


def replication_exceptions(view: pd.DataFrame, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of :func:`replication_view` that are not an exact replication; given the replication ``table`` it
    was built from, with the two reasons found for a difference: (system, segment) rows of the official segment
    file with no judgment behind them (which the official averages include), and whether the package's official
    cluster file agrees with its own Wilcoxon table."""
    exact = (view["max Δz"].map(lambda v: pd.isna(v) or float(v) <= 1e-9) & (view["same order"] == "yes")
             & (view["same clusters (1-sided / old)"] == "yes / yes")
             & view["verdicts differing (1-sided / old)"].map(lambda v: pd.isna(v) or v == "0 / 0"))
    if table is not None:
        rows = table[table["data"] != "ranking only"]
        phantom = rows.get("segments_without_judgments", pd.Series(np.nan, index=rows.index))
        agree = rows.get("official_files_agree", pd.Series(np.nan, index=rows.index))
        view = view.drop(columns="systems").assign(**{
            "unjudged rows": [MISSING if pd.isna(v) else f"{v:.0f}" for v in phantom],
            "files agree": [MISSING if pd.isna(v) else ("yes" if v else "no") for v in agree]})
    return view[~exact]


def disagreement_view(table: pd.DataFrame) -> pd.DataFrame:
    """The lines the two rank-sum tests disagree on (:func:`~.replication.rank_sum_disagreements`), as read on the
    page: the two systems with their z, the test that draws the line, and both p-values."""
    view = pd.DataFrame({"collection": table["collection"], "pair": table["pair"],
                         "upper (z)": [f"{s} ({z:.3f})" for s, z in zip(table["upper"], table["z_upper"])],
                         "lower (z)": [f"{s} ({z:.3f})" for s, z in zip(table["lower"], table["z_lower"])],
                         "line from": table["line_from"].map(VARIANT_LABELS),
                         "p 1-sided": table["p_greater"].round(3), "p old": table["p_old"].round(3)})
    return by_pair(view)


def variant_view(variants: pd.DataFrame) -> pd.DataFrame:
    """The rank-sum variant counts (:func:`~.experiments.variant_sensitivity`) as one cell per (experiment, style)
    and measure: the count with WMT's test, followed by ``→`` and the count with the paper's p where they differ."""
    variants = variants.iloc[sorted(range(len(variants)), key=lambda k: _experiment_order(variants.index[k][0]))]
    out = pd.DataFrame(index=variants.index)
    for measure in ("rank", "cluster", "both"):
        ours, paper = variants[(measure, "greater")], variants[(measure, "scipy<1.7")]
        out[f"Δ{measure}"] = [a if a == b else f"{a} → {b}" for a, b in zip(ours, paper)]
    return with_experiment_labels(out)


def moved_view(moved: pd.Series, top: int = 8) -> pd.DataFrame:
    """The ``top`` pairs of :func:`~.experiments.most_affected`, by package (short name) and pair."""
    head = moved.head(top)
    return pd.DataFrame({"package": [PACKAGE_SHORT.get(c, c) for c, _ in head.index],
                         "pair": [p for _, p in head.index],
                         "ranks moved over all divisions": head.to_numpy()})


#: the paper's Table 1 datasets (its package names) in words: year, platform, level and style
TABLE1_DATASETS = {
    "newstest2018-humaneval": "2018 MTurk, segment level (SR-DC)",
    "appraise-doclevel-humaneval-newstest2019": "2019 Appraise, document level (SR+DC)",
    "mturk-sntlevel-humaneval-newstest2019": "2019 MTurk, segment level (SR-DC)",
    "turkle-sntlevel-humaneval-newstest2019": "2019 Turkle, segment level (SR-DC)",
    "appraise-doclevel-humaneval-newstest2020": "2020 Appraise, document level (SR+DC)",
    "mturk-sntlevel-humaneval-newstest2020": "2020 MTurk, segment level (SR-DC)",
    "mturk-doclevel-humaneval-newstest2020": "2020 MTurk, document level (SR+DC)",
}


def table1_view(table: pd.DataFrame) -> pd.DataFrame:
    """Table 1 (:func:`~.published.table1`) with readable row labels: the paper's package names in words
    (:data:`TABLE1_DATASETS`), ours by package label (:data:`~.packages.PACKAGES`)."""
    def label(dataset: str) -> str:
        name, _, where = dataset.rpartition(" (")
        words = TABLE1_DATASETS.get(name) or (PACKAGES[name][0] if name in PACKAGES else name)
        return f"{words}: {where.rstrip(')')}"

    return table.rename(index=label)
