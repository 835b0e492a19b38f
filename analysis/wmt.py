"""WMT's direct-assessment (DA) scoring procedure (Knowles 2021, Sec. 2; Graham et al. 2016).

1. Each worker's raw 0-100 scores are standardised with the mean and standard deviation (ddof = 1, as R's ``sd``)
   of *all* the worker's scores, including REF, BAD_REF and REPEAT items (Knowles 2021, Eq. 1).
2. Only SYSTEM and REPEAT items count towards a system; their scores are first averaged per (system, segment) so
   that a segment judged several times does not weigh more (the official scripts key segments by system and
   segment id; the published document ids are per-HIT instances and are not part of the key).
3. A system's score is the mean of its segment scores.

The input is a frame of judgments with the columns of the ``wmt_judgments`` table (``worker``, ``system``,
``segment``, ``item_type`` and the score column); :func:`system_scores` reproduces the official system z scores from
the published per-judgment z to floating-point precision (tests/test_wmt.py).
"""

from __future__ import annotations

import pandas as pd

#: item types that count towards a system's score; REF and BAD_REF are quality control only
SCORED_TYPES = ("SYSTEM", "REPEAT")


def _require(judgments: pd.DataFrame, columns: list[str]) -> None:
    if not isinstance(judgments, pd.DataFrame):
        raise TypeError("judgments must be a pandas DataFrame")
    missing = [c for c in columns if c not in judgments.columns]
    if missing:
        raise ValueError(f"judgments lack the column(s) {missing}")
    if judgments.empty:
        raise ValueError("judgments are empty")


def standardise(judgments: pd.DataFrame, value: str = "raw", by: str | list[str] = "worker") -> pd.Series:
    """Per-worker z of ``value`` over all of the worker's items (Knowles 2021, Eq. 1; ddof = 1).

    The organisers' scripts standardise each language pair's file on its own, so a worker who judged two pairs has
    one mean and sd per pair: pass ``by=["worker", "pair"]`` to reproduce them (the Facebook-Wikipedia package has
    such a worker). A worker with a single judgment or constant scores has no defined z; that is an error, not a
    silent NaN.
    """
    keys = [by] if isinstance(by, str) else list(by)
    _require(judgments, [value, *keys])
    scores = judgments[value]
    if scores.isna().any():
        raise ValueError(f"{value} has missing values; standardise only judgments whose {value} is known")
    groups = scores.groupby([judgments[k] for k in keys], sort=False)
    sd = groups.transform("std")
    if sd.isna().any() or (sd == 0).any():
        bad = judgments.loc[sd.isna() | (sd == 0), keys].drop_duplicates().head(5).to_numpy().tolist()
        raise ValueError(f"worker(s) {bad} have fewer than two judgments or constant scores: z is undefined")
    return (scores - groups.transform("mean")) / sd


def segment_scores(judgments: pd.DataFrame, value: str = "z") -> pd.DataFrame:
    """Mean ``value`` and judgment count per (system, segment) over SYSTEM and REPEAT items."""
    _require(judgments, ["system", "segment", "item_type", value])
    kept = judgments[judgments["item_type"].isin(SCORED_TYPES)]
    if kept[value].isna().any():
        raise ValueError(f"{value} has missing values among SYSTEM/REPEAT judgments")
    grouped = kept.groupby(["system", "segment"], sort=False, observed=True)[value]
    return grouped.agg(score="mean", n="size").reset_index()


def system_scores(judgments: pd.DataFrame, value: str = "z") -> pd.DataFrame:
    """Official-style system scores: the mean of the segment means; best first.

    Returns a frame indexed by system with ``score``, ``n_segments`` and ``n_judgments``.
    """
    segments = segment_scores(judgments, value)
    out = segments.groupby("system", sort=False, observed=True).agg(
        score=("score", "mean"), n_segments=("score", "size"), n_judgments=("n", "sum"))
    return out.sort_values("score", ascending=False, kind="stable")
