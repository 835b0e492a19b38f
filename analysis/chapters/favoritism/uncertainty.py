"""Chapter ``04_favoritism``, beyond the paper: how much of Φ is noise, read three ways — intervals from resampling
WMT22 zh-en's documents rather than its segments (:func:`document_bootstrap`), the thousands of sign-flip tests read
as one family (:func:`multiple_testing`), and the attenuation reading on split halves of the items
(:func:`split_half_attenuation`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import favi
from ...validation import check_rng
from .experiments import KEYS, dataset_label, score_matrices, settings

# -- the document-level bootstrap -----------------------------------------------------------------------------------


def document_bootstrap(scores: pd.DataFrame, pairs: pd.DataFrame, documents: pd.Series, *, dataset: str,
                       n_resamples: int, rng, level: float = 0.95) -> pd.DataFrame:
    """Every pair of ``dataset``'s settings with its item-bootstrap interval (from ``pairs``, :func:`.per_pair`)
    and a document-bootstrap interval (:func:`analysis.favi.favi_bootstrap` with ``documents``, the document of
    every item), with both widths."""
    plan = settings(scores, [dataset])
    matrices = score_matrices(scores, dataset)
    frames = []
    for row in plan.itertuples(index=False):
        human, metric = matrices[row.aspect], matrices[row.rater]
        missing = human.index.difference(documents.index)
        if len(missing):
            raise ValueError(f"{dataset}: items without a document, e.g. {list(missing[:3])}")
        table = favi.favi_bootstrap(human, metric, groups=documents.reindex(human.index).to_numpy(),
                                    n_resamples=n_resamples, rng=rng, level=level)
        frames.append(table.assign(dataset=dataset, aspect=row.aspect, rater=row.rater))
    doc = pd.concat(frames, ignore_index=True).rename(columns={"low": "doc_low", "high": "doc_high"})
    item = pairs[pairs["dataset"] == dataset][[*KEYS, "system_a", "system_b", "favi", "low", "high"]]
    out = item.merge(doc[["dataset", "aspect", "rater", "system_a", "system_b", "doc_low", "doc_high"]],
                     on=["dataset", "aspect", "rater", "system_a", "system_b"], how="inner", validate="one_to_one")
    return out.assign(item_width=out["high"] - out["low"], doc_width=out["doc_high"] - out["doc_low"])


def bootstrap_summary(intervals: pd.DataFrame) -> pd.DataFrame:
    """Per rater of :func:`document_bootstrap` and over all: the median interval width of each bootstrap, the
    median ratio of the widths, and the share of pairs whose interval excludes 0 under each."""
    rows = []
    for rater, part in [*intervals.groupby("rater", sort=False), ("all raters", intervals)]:
        rows.append({"rater": rater, "pairs": len(part), "item_width": part["item_width"].median(),
                     "doc_width": part["doc_width"].median(),
                     "width_ratio": (part["doc_width"] / part["item_width"]).median(),
                     "item_excludes_zero": ((part["low"] > 0) | (part["high"] < 0)).mean(),
                     "doc_excludes_zero": ((part["doc_low"] > 0) | (part["doc_high"] < 0)).mean()})
    return pd.DataFrame(rows)


# -- multiple testing -------------------------------------------------------------------------------------------------

def multiple_testing(pairs: pd.DataFrame, *, alpha: float, n_resamples: int) -> pd.DataFrame:
    """The sign-flip tests of all pairs as one family: per dataset and over all, the tests, the share with
    p < ``alpha`` and the share still significant after the Benjamini-Hochberg correction at false discovery rate
    ``alpha`` over the whole family; ``smallest_p`` is the smallest p-value ``n_resamples`` permutations can give."""
    tested = pairs[pairs["p_value"].notna()]
    adjusted = pd.Series(favi.benjamini_hochberg(tested["p_value"].to_numpy()), index=tested.index)
    rows = []
    for name, part in [*tested.groupby("dataset", sort=False), ("all datasets", tested)]:
        label = name if name == "all datasets" else dataset_label(name)
        rows.append({"data": label, "tests": len(part), "significant_share": (part["p_value"] < alpha).mean(),
                     "significant_bh_share": (adjusted[part.index] <= alpha).mean(),
                     "smallest_p": 1 / (1 + n_resamples)})
    return pd.DataFrame(rows)


# -- the attenuation reading with split halves --------------------------------------------------------------------

def split_half_attenuation(scores: pd.DataFrame, datasets, *, n_splits: int, rng) -> pd.DataFrame:
    """On the same items Φ and −mar(d)/E share the humans' margin, so noise in that margin alone correlates them.
    Per dataset: split its items at random into two halves (``n_splits`` times, one split shared by all its
    settings), orient each pair by the humans' margin on one half and compute Φ on the other (both ways round).
    ``favours_weaker``: the share of (pair, split, direction) whose Φ favours the system the humans rate lower on
    the orienting half; ``rho``: Spearman's ρ between that Φ and −mar(d)/E there, averaged over the splits."""
    rng = check_rng(rng)
    plan = settings(scores, datasets)
    rows = []
    for dataset, group in plan.groupby("dataset", sort=False):
        matrices = score_matrices(scores, dataset)
        cells = [favi.pair_cells(matrices[r.aspect], matrices[r.rater]) for r in group.itertuples(index=False)]
        n_items = len(cells[0].items)
        agree, rhos = [], []
        for _ in range(n_splits):
            first = np.zeros(n_items, dtype=bool)
            first[rng.permutation(n_items)[: n_items // 2]] = True
            phi, orient = [], []
            for c in cells:
                halves = (c.table(first), c.table(~first))
                for orienting, evaluating in (halves, halves[::-1]):
                    keep = ((orienting["margin_human"] != 0) & (orienting["total_error"] > 0)
                            & (evaluating["total_error"] > 0)).to_numpy()
                    phi.append(evaluating["favi"].to_numpy()[keep])
                    orient.append((-orienting["margin_human"] / orienting["total_error"]).to_numpy()[keep])
            phi, orient = np.concatenate(phi), np.concatenate(orient)
            agree.append(np.sign(phi) == np.sign(orient))
            rhos.append(stats.spearmanr(phi, orient).statistic if len(phi) > 2 else np.nan)
        agree = np.concatenate(agree)
        rows.append({"dataset": dataset_label(dataset), "comparisons": len(agree),
                     "favours_weaker": float(agree.mean()) if len(agree) else np.nan,
                     "rho": float(np.nanmean(rhos)) if np.isfinite(rhos).any() else np.nan})
    return pd.DataFrame(rows).set_index("dataset")


def split_half_page(same: pd.DataFrame, split: pd.DataFrame) -> pd.DataFrame:
    """The attenuation reading on the same items (:func:`.experiments.attenuation_table`) beside the split-half
    one (:func:`split_half_attenuation`)."""
    out = pd.DataFrame({("same items", "Φ favours the weaker"): same["favours_weaker"],
                        ("same items", "ρ(Φ, −mar(d)/E)"): same["rho_favi_attenuation"],
                        ("split halves", "Φ favours the weaker"): split["favours_weaker"],
                        ("split halves", "ρ(Φ, −mar(d)/E)"): split["rho"]})
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out.rename_axis("data")


def bootstrap_page(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`bootstrap_summary` as shown."""
    out = summary.set_index("rater")
    return pd.DataFrame({
        ("", "pairs"): out["pairs"],
        ("median width of the 95% interval", "items"): out["item_width"],
        ("median width of the 95% interval", "documents"): out["doc_width"],
        ("median width of the 95% interval", "ratio"): out["width_ratio"],
        ("interval excludes 0", "items"): out["item_excludes_zero"],
        ("interval excludes 0", "documents"): out["doc_excludes_zero"],
    }).rename(index=lambda r: r.replace("_", "-")).rename_axis("rater")
