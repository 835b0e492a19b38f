"""Chapter 02's setups and §5's inventory (Peyrard et al. 2021, §5, Appendix A.3). A *setup* is one (collection,
dataset, metric) score matrix of the ``paired_setups`` table. Also what every paper item of the chapter shares: the
names of mechanisms, pairs and measures, test sets drawn from the setups, and the claim values' tidy rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import aggregate
from ...agreement import compare_rankings, pair_label
from ...data import published
from ...validation import check_rng
from ..common import metric_label

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
PAPER = ("mean", "median", "bt")
#: Table 1's pairs, in its order; also Fig. 4's.
TABLE1_PAIRS = (("mean", "median"), ("mean", "bt"), ("median", "bt"))
MEASURES = {"disagree": "Disagree", "top1": "≠ SotA", "top3": "≠ Top-3"}
#: The paired paper's tie rule, as BT-eval's code has it: a tie is a win for the later column (BT and Elo; TrueSkill
#: still rates it a draw). Tables 1 and 4 run with it and with the notebook's ``variant_ties``; the rest of the chapter
#: (Table 3, Figs. 4 and 6, the top-k tie cut) with it alone. The page words them as
#: :data:`analysis.comparisons.TIE_WORDS` and ``TIE_SHORT`` do.
PAPER_TIES = "loss"
#: The task of each collection (Fig. 4b).
TASKS = dict.fromkeys(("WMT17", "WMT18", "WMT19"), "translation") | {
    "TAC": "summarization", "CNNDM": "summarization", "COCO": "captioning", "Dialogue": "dialogue"}
KEYS = ["collection", "dataset", "metric"]
#: Half a unit of the last printed digit: Tables 1 and 4 print whole percents, Table 3 and Fig. 6 two decimals.
PERCENT_ROUNDING = 0.005


def claim_rows(rows: list[tuple]) -> pd.DataFrame:
    """``(key, detail, value, holds)`` tuples as the claims registry's tidy table. A test that finds no data is
    recorded as not holding, never left out, so every record has a value under every profile."""
    return pd.DataFrame(rows, columns=["key", "detail", "value", "holds"])


def pair_title(name: str) -> str:
    """``"mean_bt"`` -> ``"MEAN vs. BT"``."""
    return pair_label(tuple(name.split("_")))


def subsample(matrix: pd.DataFrame, size: int, rng) -> pd.DataFrame:
    """``size`` test instances drawn without replacement, kept in their original order."""
    gen = check_rng(rng)
    if not 1 <= size <= len(matrix):
        raise ValueError(f"cannot draw {size} of {len(matrix)} test instances")
    rows = np.sort(gen.choice(len(matrix), size=size, replace=False))
    return matrix.iloc[rows].reset_index(drop=True)


def fraction_size(n: int, fraction: float) -> int:
    """The number of test instances pandas' ``sample(frac=fraction)`` draws (BT-eval's sub-samples), at least 2."""
    return max(2, round(fraction * n))


def dataset_then_metric(setups):
    """``pick(gen)``, drawing a setup as BT-eval's notebook does: a dataset uniformly, then one of its metrics."""
    by_dataset: dict[tuple, list] = {}
    for key, matrix in setups:
        by_dataset.setdefault(key[:2], []).append((key, matrix))
    groups = list(by_dataset.values())

    def pick(gen):
        candidates = groups[gen.integers(len(groups))]
        return candidates[gen.integers(len(candidates))]
    return pick


def compare_draws(drawn) -> pd.DataFrame:
    """MEAN, MEDIAN and BT (the paper's tie handling) compared on each drawn ``(key, size, draw, matrix)``, a row
    per draw. The draws of one setup and size share their systems, so BT fits them in one batch."""
    if not drawn:
        return pd.DataFrame()
    meta = pd.DataFrame([(*key, size, draw) for key, size, draw, _ in drawn], columns=[*KEYS, "size", "draw"])
    parts = []
    for positions in meta.groupby([*KEYS, "size"], sort=False).indices.values():
        matrices = [drawn[p][3] for p in positions]
        # each matrix's own array (its memory layout decides the bits of its mean, as in aggregate.mean)
        values = [m.to_numpy(dtype=np.float64, na_value=np.nan) for m in matrices]
        stack = np.stack(values)
        fit = aggregate.bradley_terry_stack(stack, matrices[0].columns, ties=PAPER_TIES)
        measures = compare_rankings({"mean": np.stack([v.mean(axis=0) for v in values]),
                                     "median": np.stack([np.median(v, axis=0) for v in values]),
                                     "bt": fit.strengths}, k=3)
        parts.append(pd.DataFrame({"n_instances": stack.shape[1], "n_systems": stack.shape[2], **measures,
                                   "bt_degenerate": fit.degenerate}, index=positions))
    frame = pd.concat(parts).sort_index().astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})
    return frame.join(meta).assign(task=lambda f: f.collection.map(TASKS))


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
    """§5's three totals counted as BT-eval's notebook counts them, from one row per dataset: setups = Σ metrics,
    system pairs = Σ metrics · C(systems, 2), test instances = Σ instances (each dataset once, not per metric)."""
    pairs = datasets.systems * (datasets.systems - 1) // 2
    return pd.Series({"setups": int(datasets.metrics.sum()), "system_pairs": int((datasets.metrics * pairs).sum()),
                      "test_instances": int(datasets.instances.sum())})


def dataset_inventory(inventory_frame: pd.DataFrame) -> pd.DataFrame:
    """Our setups per dataset, in the columns of the paper's Appendix A.3 (``data/published/paired``)."""
    return inventory_frame.groupby(["collection", "dataset"], sort=False).agg(
        instances=("instances", "first"), systems=("systems", "first"), metrics=("metric", "size")).reset_index()


def section5_values(section5: pd.DataFrame, inventory: pd.DataFrame) -> pd.DataFrame:
    """Claim values: §5's totals, tasks and metrics counted on ours, and the totals of each reading of Appendix A.3."""
    names = published.item("paired", "metrics")
    totals = ("setups", "system_pairs", "test_instances")
    tasks = {TASKS.get(c) for c in inventory.collection} & set(names["tasks"])
    rows = [("section5", k, float(section5.loc["ours", k]), None) for k in totals]
    rows += [("section5", "tasks", float(len(tasks)), None),
             ("section5", "the paper's metrics among ours", float(len(set(names["names"]) & set(inventory.metric))),
              None)]
    for key, row in (("appA3-list", "Appendix A.3's list"), ("appA3-lt-en", "Appendix A.3 + WMT19 lt-en")):
        rows += [(key, k, float(section5.loc[row, k]), None) for k in totals]
    return claim_rows(rows)


#: Appendix A.3's collections whose data is a stand-in here, and the collection standing in for each
A3_STAND_INS = {"CNN/DM": "CNNDM", "MSCOCO": "COCO"}


def appa3_values(paper_a3: pd.DataFrame, ours_a3: pd.DataFrame) -> pd.DataFrame:
    """Claim values: per dataset of Appendix A.3, our test instances and whether our instances and systems are the
    paper's (a dataset missing from this run does not hold); :data:`A3_STAND_INS` under their own key."""
    ours = ours_a3.assign(key=ours_a3.collection.astype(str) + "/" + ours_a3.dataset.astype(str).str.lower())
    rows = []
    for r in paper_a3.itertuples():
        if r.collection in A3_STAND_INS:
            key, found = "appA3-sizes-stand-in", ours[ours.collection == A3_STAND_INS[r.collection]]
        else:  # the paper's TAC08 is our TAC "08"
            key, found = "appA3-sizes", ours[ours.key == f"{r.collection}/{r.dataset.removeprefix('TAC').lower()}"]
        detail = f"{r.collection} {r.dataset}: {r.instances:,} instances, {r.systems} systems"
        if len(found) != 1:
            rows.append((key, detail + " (not in this run)", np.nan, False))
            continue
        got = found.iloc[0]
        rows.append((key, detail, float(got.instances),
                     bool(int(got.instances) == int(r.instances) and int(got.systems) == int(r.systems))))
    return claim_rows(rows)


def metric_numbers(inventory_frame: pd.DataFrame) -> dict:
    """For the page: our metric names against the paper's 18, shared, missing and extra (spelt as the paper does)."""
    paper = set(published.item("paired", "metrics")["names"])
    ours = set(inventory_frame.metric)
    return {"metrics-ours": len(ours), "metrics-paper": len(paper), "metrics-shared": len(ours & paper),
            "metrics-missing": ", ".join(metric_label(m) for m in sorted(paper - ours)) or "none",
            "metrics-extra": ", ".join(metric_label(m) for m in sorted(ours - paper)) or "none"}


#: the collections standing in for the paper's (CNN/DM and MSCOCO): every other collection is the paper's own setups
#: (TAC and Dialogue as BT-eval publishes them, WMT17-19 re-scored from the paper's system outputs)
STAND_IN_COLLECTIONS = frozenset(A3_STAND_INS.values())


def paper_data_shares(per_setup: pd.DataFrame, iia: pd.DataFrame) -> pd.DataFrame:
    """Claim values for the data categories: the share of the setups that are the paper's own (``data-share-setups``)
    and of App. F's violations on full test sets (reversed or tied) found in them (``data-share-appf``), so that a
    claim counts as tested on the paper's data only when most of its evidence is."""
    own = ~per_setup.collection.isin(STAND_IN_COLLECTIONS)
    full = iia[iia["size"].astype(str) == "full"]
    found = full.reversed + full.tied
    appf = float(found[~full.collection.isin(STAND_IN_COLLECTIONS)].sum() / found.sum()) if found.sum() else np.nan
    return claim_rows([("data-share-setups", None, float(own.mean()) if len(own) else np.nan, None),
                       ("data-share-appf", None, appf, None)])
