"""Chapter 02's setups: the ``paired_setups`` table as one score matrix per (collection, dataset, metric), test sets
drawn from them, and the inventory of what we have (§5's totals, Appendix A.3's columns); with the names of the
mechanisms, pairs and measures every part of the chapter uses."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...validation import check_rng

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
PAPER = ("mean", "median", "bt")
#: Table 1's pairs, in its order; also Fig. 4's.
TABLE1_PAIRS = (("mean", "median"), ("mean", "bt"), ("median", "bt"))
#: Table 3's pairs, in its column order.
TABLE3_PAIRS = (("mean", "bt"), ("median", "bt"), ("mean", "median"))
MEASURES = {"disagree": "Disagree", "top1": "≠ SotA", "top3": "≠ Top-3"}
#: The two tie policies of the chapter in words, for the page (the package's ``ties=`` codes are not for readers).
TIE_LABELS = {"loss": "ties to the later column", "half": "ties as half wins"}
#: The task of each collection (Fig. 4b).
TASKS = {
    "TAC": "summarization",
    "CNNDM": "summarization",
    "WMT17": "translation",
    "WMT18": "translation",
    "WMT19": "translation",
    "COCO": "captioning",
    "Dialogue": "dialogue",
}
KEYS = ["collection", "dataset", "metric"]


# -- setups ---------------------------------------------------------------------------------------------------------

def subsample(matrix: pd.DataFrame, size: int, rng) -> pd.DataFrame:
    """``size`` test instances drawn without replacement, kept in their original order."""
    gen = check_rng(rng)
    if not 1 <= size <= len(matrix):
        raise ValueError(f"cannot draw {size} of {len(matrix)} test instances")
    rows = np.sort(gen.choice(len(matrix), size=size, replace=False))
    return matrix.iloc[rows].reset_index(drop=True)


def pick_setup(setups, wanted) -> tuple[tuple[str, str, str], pd.DataFrame]:
    """The setup ``wanted`` = (collection, dataset, metric) if present, else the first WMT setup, else the first."""
    available = dict(setups)
    key = tuple(wanted)
    if key not in available:
        wmt = [k for k in available if k[0].startswith("WMT")]
        key = wmt[0] if wmt else sorted(available)[0]
    return key, available[key]


# -- inventory ------------------------------------------------------------------------------------------------------

def inventory(setups) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per setup with its size, a summary per collection with a total row)."""
    frame = pd.DataFrame([dict(zip(KEYS, k)) | {"instances": m.shape[0], "systems": m.shape[1]} for k, m in setups])
    summary = frame.groupby("collection", sort=False).agg(
        setups=("metric", "size"), datasets=("dataset", "nunique"), metrics=("metric", "nunique"),
        instances=("instances", "median"), systems=("systems", "median"))
    summary.loc["total"] = [len(frame), frame[["collection", "dataset"]].drop_duplicates().shape[0],
                            frame.metric.nunique(), frame.instances.median(), frame.systems.median()]
    return frame, summary


def section5_totals(datasets: pd.DataFrame) -> pd.Series:
    """§5's three totals counted as BT-eval's notebook counts them, from one row per dataset (``instances``,
    ``systems``, ``metrics``): setups = Σ metrics, system pairs = Σ metrics · C(systems, 2), test instances =
    Σ instances (each dataset once, not once per metric)."""
    pairs = datasets.systems * (datasets.systems - 1) // 2
    return pd.Series({"setups": int(datasets.metrics.sum()), "system_pairs": int((datasets.metrics * pairs).sum()),
                      "test_instances": int(datasets.instances.sum())})


def dataset_inventory(inventory_frame: pd.DataFrame) -> pd.DataFrame:
    """Our setups per dataset, in the columns of the paper's Appendix A.3 (``data/published/paired``)."""
    return inventory_frame.groupby(["collection", "dataset"], sort=False).agg(
        instances=("instances", "first"), systems=("systems", "first"), metrics=("metric", "size")).reset_index()

