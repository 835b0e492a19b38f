"""Chapter 03's packages and pairs (which WMT packages are shown and how, each pair's coded judgments, names in
words) and what the paper items' modules share: Tables 2-3's cells, per-pair random draws, claim-check rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws
from ...processes import process_pool

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
PACKAGE_SHORT = {"newstest2018": "2018", "newstest2019": "2019", "newstest2020": "2020", "newstest2021-toen": "2021",
                 "wikipedia2021-fb": "2021 FB", "newstest2022-toen": "2022"}
#: the experiments of :data:`analysis.wmt_stability.EXPERIMENTS` (and the bootstrap's "noise") in words
EXPERIMENT_LABELS = {"remove_human": "remove HUMAN and REF", "remove_lowest": "remove the lowest system",
                     "remove_highest": "remove the highest system", "noise": "none (resampling only)"}


def coded_pairs(judgments: pd.DataFrame, segments: pd.DataFrame, packages) -> dict:
    """(collection, pair) -> (PairJudgments, reconstructed raw, raw coverage summary)."""
    out = {}
    for collection in packages:
        for pair, rows in judgments[judgments["collection"] == collection].groupby("pair", sort=True):
            coded = ws.code_pair(rows)
            seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
            out[collection, pair] = (coded, *ws.reconstruct_raw(coded, seg))
    return out


def _draws(args):
    function, key, inputs, seed, options = args
    rows = function(*inputs, np.random.default_rng(seed), **options)
    return pd.DataFrame(rows).assign(collection=key[0], pair=key[1])


def per_pair_draws(function, inputs: dict, info: pd.DataFrame, *, seed: int, **options) -> pd.DataFrame:
    """``function(*inputs[pair], rng, **options)`` (its rows) for every pair of the style totals in worker processes,
    with the pair's collection, pair and style; one seed spawned per pair, so the number of processes does not
    matter."""
    keys = [k for k in inputs if k[0] in STYLE_TOTALS]
    seeds = np.random.SeedSequence(seed).spawn(len(keys))
    with process_pool() as pool:
        table = pd.concat(pool.map(_draws, [(function, k, inputs[k], s, options) for k, s in zip(keys, seeds)]),
                          ignore_index=True)
    return table.assign(style=[info.loc[k, "style"] for k in zip(table["collection"], table["pair"])])


def pair_info(judgments: pd.DataFrame) -> pd.DataFrame:
    return judgments[["collection", "year", "pair", "style"]].drop_duplicates().set_index(["collection", "pair"])


def pair_label(collection: str, pair: str) -> str:
    """A pair in words, for captions: ``de-en, 2021 to-English (SR+DC)``."""
    return f"{pair}, {PACKAGES[collection][0] if collection in PACKAGES else collection}"


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
    if "experiment" in frame.columns:
        return frame.assign(experiment=frame["experiment"].map(experiment_label))
    return frame.rename(index=experiment_label, level="experiment")


def fractions(part: pd.DataFrame, by) -> pd.DataFrame:
    """Per group of ``by`` (sorted), "changed/pairs" per measure: the cells of Tables 2-3."""
    groups = part.groupby(by)[CHANGE_COLUMNS]
    return groups.sum().astype(str).add("/" + groups.size().astype(str), axis=0).set_axis(MEASURES, axis=1)


def check_rows(check: str, parts: dict, values=None) -> pd.DataFrame:
    """The claim values (:meth:`~analysis.recorder.Outputs.values`) of one check: one boolean per part, and beside
    it the number the test reads (``values``, one per part), which the claims show."""
    values = [np.nan] * len(parts) if values is None else [float(v) for v in values]
    return pd.DataFrame({"key": check, "detail": list(parts), "holds": [bool(v) for v in parts.values()],
                         "value": values})
