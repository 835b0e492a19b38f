"""What several of the chapter's modules share: the Spearman correlations between measures (Tables 2, 3, 7) and
BT's interval for an average precision (Tables 4-6). Correlations between rankings are
:func:`analysis.agreement.spearman_rows`; the average precision of originals over their copies (Tables 4-6) is
:func:`analysis.sweeps.copies_ap`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import average_precision_score

from ... import sweeps


def spearman_table(scores: pd.DataFrame, columns) -> pd.DataFrame:
    """Spearman correlations between the models' scores under each measure (Tables 2, 3, 7); signs as the paper
    prints them (ED and WER are lower-is-better, so they correlate negatively with chrF and BT)."""
    return scores[list(columns)].corr(method="spearman").round(2)


def bt_ap_interval(quality: pd.DataFrame, originals, *, rng, n_trials: int, confidence: float = 0.95) -> tuple:
    """The paper's BT interval for an AP (Tables 4-6): the AP of the BT ranking of each of ``n_trials`` sampled
    match sets (12·m·ln m per pair), and its central ``confidence`` percentiles."""
    draws = sweeps.bradley_terry_trials(sweeps.matches(quality), rng, n_trials)
    relevant = quality.columns.isin(list(originals))
    aps = np.array([average_precision_score(relevant, row) for row in draws])
    tail = (1 - confidence) / 2 * 100
    return float(np.percentile(aps, tail)), float(np.percentile(aps, 100 - tail))
