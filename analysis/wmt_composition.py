"""Who judged what in a WMT package (Knowles 2021, Secs. 5.1, 5.4, 6): HIT composition, which systems share a HIT,
and test-set documents from per-HIT document instances. Re-exported by :mod:`analysis.wmt_stability`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import wmt

HUMAN_MARK = "HUMAN"  # as analysis.wmt_stability.HUMAN_MARK


def composition(judgments: pd.DataFrame) -> pd.DataFrame:
    """Per (collection, pair): workers (and HITs where known) and the share of them that judged at least one REF
    item, a HUMAN system's output, or a BAD_REF item (Knowles 2021, Sec. 5.1)."""
    item = judgments["item_type"].to_numpy(str)
    j = judgments.assign(saw_ref=item == "REF", saw_bad_ref=item == "BAD_REF",
                         saw_human=np.char.find(judgments["system"].to_numpy(str), HUMAN_MARK) >= 0
                         & np.isin(item, wmt.SCORED_TYPES))
    flags = ["saw_ref", "saw_human", "saw_bad_ref"]
    per_worker = j.groupby(["collection", "pair", "worker"], sort=False)[flags].any()
    out = per_worker.groupby(level=[0, 1], sort=False).mean().add_prefix("workers_")
    out.insert(0, "workers", per_worker.groupby(level=[0, 1], sort=False).size())
    with_hit = j.dropna(subset=["hit"])
    per_hit = with_hit.groupby(["collection", "pair", "hit"], sort=False)[flags].any()
    hits = per_hit.groupby(level=[0, 1], sort=False).mean().add_prefix("hits_")
    hits.insert(0, "hits", per_hit.groupby(level=[0, 1], sort=False).size())
    return out.join(hits).reset_index()


def cooccurrence(pair, unit: str = "hit") -> pd.DataFrame:
    """Systems x systems: in how many HITs (or workers) both systems' outputs were judged (Knowles 2021, Fig. 4);
    the diagonal counts the HITs holding each system. Only SYSTEM/REPEAT judgments count. ``pair`` is an
    :class:`analysis.wmt_stability.PairJudgments` (not imported here: wmt_stability imports this module)."""
    if unit not in ("hit", "worker"):
        raise ValueError(f"unit must be 'hit' or 'worker', got {unit!r}")
    codes = pair.hit if unit == "hit" else pair.worker
    rows = pair.scored & (codes >= 0)
    k = len(pair.systems)
    held = np.zeros((codes.max() + 1, k))
    held[codes[rows], pair.system[rows]] = 1.0
    used = held.sum(axis=0) > 0
    matrix = (held.T @ held)[np.ix_(used, used)].astype(int)
    names = [s for s, u in zip(pair.systems, used) if u]
    return pd.DataFrame(matrix, index=names, columns=names)


def recover_documents(judgments: pd.DataFrame) -> pd.Series:
    """A test-set document for each judgment of an SR+DC package, whose ``document`` ids are per-HIT instances (one
    system's translation of one document in one HIT): instances whose segment-id ranges overlap are one document
    (segment ids are consecutive within a document). Returns a document number per row (NaN without an instance)."""
    segment = pd.to_numeric(judgments["segment"], errors="coerce")
    inst = pd.DataFrame({"pair": judgments["pair"], "document": judgments["document"], "segment": segment})
    spans = inst.dropna().groupby(["pair", "document"])["segment"].agg(["min", "max"]).reset_index()
    spans = spans.sort_values(["pair", "min", "max"])
    reach = spans.groupby("pair")["max"].cummax().shift()
    starts = (spans["pair"] != spans["pair"].shift()).fillna(True) | (spans["min"] > reach).fillna(True)
    spans["doc"] = np.cumsum(starts.to_numpy(dtype=bool))
    key = pd.MultiIndex.from_frame(inst[["pair", "document"]])
    lookup = pd.Series(spans["doc"].to_numpy(), index=pd.MultiIndex.from_frame(spans[["pair", "document"]]))
    return pd.Series(lookup.reindex(key).to_numpy(), index=judgments.index, name="test_document")
