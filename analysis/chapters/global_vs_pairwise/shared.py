"""What several of the chapter's modules share: the orientation of the measures, the Spearman correlations between
measures and between rankings, and the average precision of originals over their copies (Tables 4-6)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.metrics import average_precision_score

#: measures for which a smaller value is better (distances and errors); every other measure is higher-is-better
LOWER_IS_BETTER = ("ed", "wer", "mae")


def spearman_table(scores: pd.DataFrame, columns) -> pd.DataFrame:
    """Spearman correlations between the models' scores under each measure (Tables 2, 3, 7); signs as the paper
    prints them (ED and WER are lower-is-better, so they correlate negatively with chrF and BT)."""
    return scores[list(columns)].corr(method="spearman").round(2)


def spearman_rows(rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Spearman correlation of each row with ``reference`` (NaN where a row is constant)."""
    rows = np.where(np.ptp(rows, axis=1, keepdims=True) < 1e-12, np.nan, rows)  # equal strengths: no order
    ranked = stats.rankdata(rows, axis=1)
    ref = stats.rankdata(reference)
    a = ranked - ranked.mean(axis=1, keepdims=True)
    b = ref - ref.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (a @ b) / np.sqrt((a**2).sum(axis=1) * (b**2).sum())


def spearman_summary(rho: np.ndarray) -> dict:
    """Mean and 2.5-97.5% percentiles of the defined correlations (NaN ones — all strengths equal, e.g. every
    match a tie — have no ranking to correlate); NaN when none is defined."""
    defined = np.asarray(rho)[~np.isnan(rho)]
    if not len(defined):
        return {"spearman_mean": np.nan, "spearman_low": np.nan, "spearman_high": np.nan}
    return {"spearman_mean": float(defined.mean()), "spearman_low": float(np.percentile(defined, 2.5)),
            "spearman_high": float(np.percentile(defined, 97.5))}


def copies_ap(measures: pd.DataFrame, originals, lower_is_better=LOWER_IS_BETTER) -> pd.Series:
    """Per measure (column of ``measures``, one row per model): the average precision of ranking the models by it,
    the ``originals`` relevant — 1 when every original is above every copy (Tables 4-6). Measures in
    ``lower_is_better`` are negated first."""
    relevant = measures.index.isin(list(originals))
    if relevant.all() or not relevant.any():
        raise ValueError("copies_ap needs both originals and copies among the models")
    return pd.Series({c: average_precision_score(relevant, -measures[c] if c in lower_is_better else measures[c])
                      for c in measures.columns}, name="ap")


def lowest_ap(relevant: int, total: int) -> float:
    """The smallest average precision possible: all ``relevant`` items ranked below the others."""
    return float(np.mean([(i + 1) / (total - relevant + i + 1) for i in range(relevant)]))
