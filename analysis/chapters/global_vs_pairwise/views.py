"""The chapter's tables as a reader sees them (the saved CSVs keep their codes and full precision): measures in
words, ours next to the paper's measure by measure, BT's interval in one column, correlation matrices as one row
per pair of measures with a column per source."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

#: the codes of the saved tables (measures, their intervals, the copies experiments) in words
LABELS = {
    "ed": "ED", "wer": "WER", "chrf": "chrF", "bt": "BT", "bt_low": "BT low", "bt_high": "BT high",
    "bt_bin": "BT (binarised)", "acc": "accuracy", "auc": "ROC AUC", "f1": "F1", "mae": "MAE",
    "one_minus_mae": "1 − MAE", "ap": "AP", "ap_low": "AP low", "ap_high": "AP high", "paper_ap": "paper's AP",
    "paper_low": "paper's low", "paper_high": "paper's high", "ap_higher_is_better": "AP, read as higher is better",
    "binary": "binarised copies", "penalized": "penalised copies", "rank_low": "rank, 2.5%",
    "rank_high": "rank, 97.5%", "paper_bt": "paper's BT", "paper_bt_renormalised": "paper's BT over these models",
    "paper_place": "paper's place", "bt_before": "BT before", "place_before": "place before", "bt_after": "BT after",
    "place_after": "place after",
}


def label(code) -> str:
    """A code of the saved tables in words (:data:`LABELS`); anything else unchanged."""
    return LABELS.get(code, code) if isinstance(code, str) else code


def labelled(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every column and index label that is a code in words (all levels)."""
    return frame.rename(columns=label, index=label)


def interval(low: pd.Series, high: pd.Series, digits: int = 3) -> pd.Series:
    """An interval as one text column, ``low–high``; missing where either end is; whole ends (ranks) as
    integers."""
    def end(v: float) -> str:
        return f"{v:.0f}" if float(v).is_integer() else f"{v:.{digits}f}"

    return pd.Series([np.nan if pd.isna(a) or pd.isna(b) else f"{end(a)}–{end(b)}"
                      for a, b in zip(low, high)], index=low.index, dtype=object)


def versus_paper(frame: pd.DataFrame, measures) -> pd.DataFrame:
    """Columns grouped by measure (Appendices A-B): for each of ``measures`` ours ("here"), BT's 95% interval as one
    column, and the paper's value where ``frame`` has a ``paper_<measure>`` column; then any other column of
    ``frame`` (not an interval end) under its label. Without any paper column, one header row ("BT 95% interval")."""
    columns, used = {}, set()
    for m in measures:
        columns[(label(m), "here")] = frame[m]
        used.add(m)
        if {f"{m}_low", f"{m}_high"} <= set(frame.columns):
            columns[(label(m), "95% interval")] = interval(frame[f"{m}_low"], frame[f"{m}_high"])
            used |= {f"{m}_low", f"{m}_high"}
        if f"paper_{m}" in frame.columns:
            columns[(label(m), "paper")] = frame[f"paper_{m}"]
            used.add(f"paper_{m}")
    for c in frame.columns:
        if c not in used:
            columns[(label(c), "")] = frame[c]
    if not any(kind == "paper" for _, kind in columns):  # nothing to compare with: one header row
        columns = {group if kind in ("here", "") else f"{group} {kind}": values
                   for (group, kind), values in columns.items()}
    return pd.DataFrame(columns, index=frame.index).rename(index=label)


def side_by_side(c1: pd.DataFrame, measures) -> pd.DataFrame:
    """Appendix C.1 (:func:`~.published.appendix_c1`) for ``measures`` only, grouped by measure: here, paper and
    their difference where computed."""
    columns = {(label(m), kind): c1[(kind, m)] for m in measures for kind in ("here", "paper", "difference")
               if (kind, m) in c1.columns}
    return pd.DataFrame(columns, index=c1.index)


def correlation_pairs(matrices: dict) -> pd.DataFrame:
    """Correlation matrices (Tables 2, 3 and 7) as one row per pair of measures, in the first matrix's order, and one
    column per source (``matrices``: source -> matrix); a pair a matrix lacks is missing."""
    first = next(iter(matrices.values()))
    pairs = list(itertools.combinations(first.columns, 2))
    out = pd.DataFrame({source: [m.loc[a, b] if a in m.index and b in m.columns else np.nan for a, b in pairs]
                        for source, m in matrices.items()},
                       index=pd.Index([f"{label(a)} – {label(b)}" for a, b in pairs], name="measures"))
    return out


def ranks_view(ranks: pd.DataFrame, top: int = 12) -> pd.DataFrame:
    """llmfao's bootstrap ranks, the ``top`` models: BT strength, rank and the rank range (whole places)."""
    head = ranks.head(top)
    return pd.DataFrame({"BT strength": head["bt"], "rank": head["rank"].astype(int),
                         "95% of resampled ranks": interval(head["rank_low"], head["rank_high"], 0)},
                        index=head.index)


def _pair(pair: str) -> str:
    """A consistency table's ``pair`` in words: two measures, one measure, the B.2 ratio or the SVM's place."""
    special = {"svm/textblob": "BT of the SVM / BT of TextBlob", "svm-bt-rank": "the SVM's BT place"}
    if pair in special:
        return special[pair]
    return " – ".join(label(p) for p in pair.split("-"))


def _span(low: float, high: float, digits: int) -> str:
    """An interval in words: ``low–high``, or ``low to high`` when a minus sign would run into the dash."""
    sep = "–" if low >= 0 else " to "
    return f"{low:.{digits}f}{sep}{high:.{digits}f}"


def self_check_view(consistency: pd.DataFrame, items, agree: pd.Series) -> pd.DataFrame:
    """Rows of the paper-against-itself table (:func:`~.self_check.paper_consistency`) for ``items``, as read: the
    paper item, what is recomputed and from which appendix, the printed value (an interval as ``low–high``), the
    recomputed one (ties as average ranks), its range over the orders of the printed ties where they matter, and
    whether they agree (``agree``: :func:`~.self_check.agrees`)."""
    from .facts import ITEMS

    rows = consistency[consistency["item"].isin(list(items))]
    digits = {"sec5-svm": 0, "appB2-ratio": 1}
    printed = [_span(r.printed_low, r.printed_high, 2) if pd.notna(r.printed_low) else
               f"{r.printed:.{digits.get(r.item, 2)}f}" for r in rows.itertuples()]
    ties = [_span(r.tie_low, r.tie_high, 3) if r.tie_high - r.tie_low > 1e-9 else np.nan for r in rows.itertuples()]
    return pd.DataFrame({"paper item": rows["item"].map(lambda i: ITEMS.get(i, i)),
                         "recomputed": rows["pair"].map(_pair), "from": rows["source"], "printed": printed,
                         "from the appendix": rows["recomputed"], "over the orders of ties": ties,
                         "agrees": agree.loc[rows.index].map({True: "yes", False: "no"})}).reset_index(drop=True)
