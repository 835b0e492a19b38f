"""What several of the chapter's modules share: the Spearman correlations between measures (Tables 2, 3, 7).
Correlations between rankings are :func:`analysis.agreement.spearman_rows`; the average precision of originals
over their copies (Tables 4-6) is :func:`analysis.sweeps.copies_ap`."""

from __future__ import annotations

import pandas as pd


def spearman_table(scores: pd.DataFrame, columns) -> pd.DataFrame:
    """Spearman correlations between the models' scores under each measure (Tables 2, 3, 7); signs as the paper
    prints them (ED and WER are lower-is-better, so they correlate negatively with chrF and BT)."""
    return scores[list(columns)].corr(method="spearman").round(2)
