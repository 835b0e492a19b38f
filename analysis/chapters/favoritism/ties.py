"""Chapter ``04_favoritism``: ties made visible (issue 28). Sample-level accuracy (Def. 11) counts a *matching tie*
(human and metric both "=") as agreement, so it moves with how often the humans tie: the tie shares beside Fig. 4's
summary, the paper's printed accuracies between our two readings, and the ties that are identical outputs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import favi
from .experiments import KEYS, score_matrices
from .figures import setting_index

#: the tie columns that :func:`with_ties` adds to Fig. 4's summary (from :func:`.checks.tie_shares`)
TIE_COLUMNS = ["human_tie_share", "metric_tie_share", "matching_tie_share", "sample_accuracy_without_tie_credit"]


def with_ties(summary: pd.DataFrame, ties: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4's per-metric summary (:func:`.experiments.metric_summary`) with the tie shares of each setting:
    how often the humans tie, the metric ties, both tie, and the sample-level accuracy without the matching ties'
    credit (the lower reading; ``sample_accuracy`` is the upper, Def. 11's)."""
    out = summary.merge(ties[[*KEYS, *TIE_COLUMNS]], on=KEYS, how="left", validate="one_to_one")
    if out[TIE_COLUMNS].isna().any().any():
        raise ValueError("some settings of the summary have no tie shares")
    return out


def half_printed(value: float) -> float:
    """Half a unit of the last digit a printed value shows (0.07 -> 0.005, 0.348 -> 0.0005)."""
    decimals = len(f"{value}".split(".")[1]) if "." in f"{value}" else 0
    return 0.5 * 10 ** -decimals


def between_readings(paper: float, low: float, high: float) -> bool:
    """Whether a printed sample-level accuracy lies between our two readings (without and with the matching ties'
    credit), ends included at the printed value's rounding (:func:`half_printed`)."""
    if any(pd.isna(v) for v in (paper, low, high)):
        return False
    half = half_printed(paper)
    return bool(low - half <= paper <= high + half)


# -- where the metric ties come from: identical outputs -----------------------------------------------------------

def identical_output_ties(scores: pd.DataFrame, texts: dict[str, pd.DataFrame], cases) -> pd.DataFrame:
    """Per case (dataset, aspect, rater) whose dataset has registered outputs (``texts``: dataset -> item, system,
    text): over the pairs of systems that both have outputs, the usable (item, pair) comparisons, how many have
    identical outputs, the metric's ties and how many of them are identical outputs, the same for the humans."""
    rows = []
    for dataset, aspect, rater in cases:
        if dataset not in texts:
            continue
        matrices = score_matrices(scores, dataset)
        cells = favi.pair_cells(matrices[aspect], matrices[rater])
        # items x systems codes of the outputs (equal codes: identical texts), -1 where no text
        outputs = texts[dataset].set_index(["item", "system"])["text"]
        codes = pd.Series(pd.factorize(outputs)[0], index=outputs.index).unstack("system").reindex(index=cells.items)
        a, b = (codes.reindex(columns=list(systems)).fillna(-1).to_numpy(dtype=np.int64)
                for systems in (cells.system_a, cells.system_b))
        with_text = (a >= 0) & (b >= 0)
        usable = (cells.code >= 0) & with_text
        same = usable & (a == b)
        metric_ties, human_ties = favi.metric_ties(cells.code) & usable, favi.human_ties(cells.code) & usable
        n_metric, n_human = int(metric_ties.sum()), int(human_ties.sum())
        rows.append({"dataset": dataset, "aspect": aspect, "rater": rater,
                     "pairs_with_text": int(with_text.any(axis=0).sum()), "comparisons": int(usable.sum()),
                     "identical_outputs": int(same.sum()),
                     "matching_ties_identical": int((metric_ties & human_ties & same).sum()), "metric_ties": n_metric,
                     "metric_ties_identical": int((metric_ties & same).sum()),
                     "metric_ties_identical_share": (metric_ties & same).sum() / n_metric if n_metric else np.nan,
                     "human_ties": n_human, "human_ties_identical": int((human_ties & same).sum()),
                     "human_ties_identical_share": (human_ties & same).sum() / n_human if n_human else np.nan})
    return pd.DataFrame(rows)


def identical_page(identical: pd.DataFrame) -> pd.DataFrame:
    """:func:`identical_output_ties` as shown: per setting the comparisons, the identical outputs, and the metric's
    and the humans' ties with the share that identical outputs explain."""
    return pd.DataFrame({
        ("", "comparisons"): identical["comparisons"].to_numpy(),
        ("", "identical outputs"): identical["identical_outputs"].to_numpy(),
        ("metric", "ties"): identical["metric_ties"].to_numpy(),
        ("metric", "share from identical outputs"): identical["metric_ties_identical_share"].to_numpy(),
        ("humans", "ties"): identical["human_ties"].to_numpy(),
        ("humans", "share from identical outputs"): identical["human_ties_identical_share"].to_numpy(),
    }, index=setting_index(identical))
