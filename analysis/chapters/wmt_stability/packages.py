"""Chapter 03's packages and pairs: which WMT packages are shown and how, and each pair's coded judgments."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws

#: the packages with per-judgment data, in the order they are shown; label and what they stand for
PACKAGES = {
    "newstest2018": ("2018 (SR-DC)", "the paper's own 2018 data (13 pairs with judgments; de-en as segment scores)"),
    "newstest2021-toen": ("2021 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "newstest2022-toen": ("2022 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "wikipedia2021-fb": ("2021 Facebook-Wikipedia", "two professional evaluators per pair; no REF or HUMAN items"),
}
#: packages in the by-style totals: Facebook-Wikipedia's one or two evaluators judged everything, so it has no HIT
#: composition to speak of and is shown on its own
STYLE_TOTALS = ("newstest2018", "newstest2021-toen", "newstest2022-toen")
CHANGE_COLUMNS = ["rank_changed", "cluster_changed", "both_changed"]
MEASURES = [c.replace("_changed", "") for c in CHANGE_COLUMNS]


def coded_pairs(judgments: pd.DataFrame, segments: pd.DataFrame, packages) -> dict:
    """(collection, pair) -> (PairJudgments, reconstructed raw, raw coverage summary)."""
    out = {}
    for collection in packages:
        for pair, rows in judgments[judgments["collection"] == collection].groupby("pair", sort=True):
            coded = ws.code_pair(rows)
            seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
            out[collection, pair] = (coded, *ws.reconstruct_raw(coded, seg))
    return out


def pair_info(judgments: pd.DataFrame) -> pd.DataFrame:
    return judgments[["collection", "year", "pair", "style"]].drop_duplicates().set_index(["collection", "pair"])


def human_pairs(coded: dict) -> list:
    """(collection, pair) keys of the pairs that rank a HUMAN system."""
    return [k for k, (pj, _, _) in coded.items() if pj.human.any()]


#: the pairs of the paper's own Figs. 2-5 (its text), none of them reachable here
PAPER_PAIRS = {"fig2": "en-de 2020", "fig3": "zh-en 2020", "fig4": "en-lt 2019", "fig5": "en-lt 2019"}


def pair_label(collection: str, pair: str) -> str:
    """A pair in words, for captions: ``de-en, 2021 to-English (SR+DC)``."""
    return f"{pair}, {PACKAGES[collection][0] if collection in PACKAGES else collection}"


def check_rows(check: str, parts: dict, values=None) -> pd.DataFrame:
    """The claim values (:meth:`~analysis.plotting.Outputs.values`) of one check: one boolean per part, and beside
    it the number the test reads (``values``, one per part), which the claims show."""
    values = [np.nan] * len(parts) if values is None else [float(v) for v in values]
    return pd.DataFrame({"key": check, "detail": list(parts), "holds": [bool(v) for v in parts.values()],
                         "value": values})
