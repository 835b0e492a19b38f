"""The chapter's tables as a reader sees them (the saved CSVs keep codes and full precision), and Table 1."""

from __future__ import annotations

import itertools
import math

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

#: the paper items of the paper-against-itself table (:func:`.self_check.paper_consistency`) in words
ITEMS = {"table2": "Table 2", "table3": "Table 3", "table4-binary": "Table 4 (binarised copies)",
         "table4-penalized": "Table 4 (penalised copies)", "table5": "Table 5", "table6": "Table 6",
         "table7": "Table 7", "appB2-ratio": "Appendix B.2's BT ratio", "sec5-svm": "§5's SVM on top"}


def label(code) -> str:
    """A code of the saved tables in words (:data:`LABELS`); anything else unchanged."""
    return LABELS.get(code, code) if isinstance(code, str) else code


def labelled(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every column and index label that is a code in words (all levels)."""
    return frame.rename(columns=label, index=label)


def names(items) -> str:
    """'a', 'a and b', 'a, b and c'; 'none' when empty."""
    items = [str(n) for n in items]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else (items[0] if items else "none")


def ranking(values: pd.Series) -> str:
    """The index of ``values`` from the highest value down: 'A > B > C'."""
    return " > ".join(map(str, values.sort_values(ascending=False).index))


def place(values: pd.Series, model: str) -> int:
    """1-based place of ``model`` by ``values``, highest first (ties share the best place)."""
    return int(values.rank(ascending=False, method="min")[model])


def table1(datasets: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Table 1 (§4) for the (instances x models) data at hand: examples, methods, pairs of outputs compared."""
    return pd.DataFrame([{"dataset": name, "examples": len(q), "methods": q.shape[1],
                          "pairs": len(q) * math.comb(q.shape[1], 2)} for name, q in datasets.items()])


def interval(low: pd.Series, high: pd.Series, digits: int = 3) -> pd.Series:
    """An interval as one text column, ``low–high`` (whole ends as integers); missing where an end is."""
    def end(v: float) -> str:
        return f"{v:.0f}" if float(v).is_integer() else f"{v:.{digits}f}"

    return pd.Series([np.nan if pd.isna(a) or pd.isna(b) else f"{end(a)}–{end(b)}"
                      for a, b in zip(low, high)], index=low.index, dtype=object)


def versus_paper(frame: pd.DataFrame, measures) -> pd.DataFrame:
    """Columns grouped by measure (Appendices A-B): ours ("here"), the 95% interval and the paper's value where
    ``frame`` has them, then the other columns; one header row when nothing compares."""
    columns, used = {}, set()
    for m in measures:
        columns[(label(m), "here")] = frame[m]
        if {f"{m}_low", f"{m}_high"} <= set(frame.columns):
            columns[(label(m), "95% interval")] = interval(frame[f"{m}_low"], frame[f"{m}_high"])
        if f"paper_{m}" in frame.columns:
            columns[(label(m), "paper")] = frame[f"paper_{m}"]
        used |= {m, f"{m}_low", f"{m}_high", f"paper_{m}"}
    columns |= {(label(c), ""): frame[c] for c in frame.columns if c not in used}
    if not any(kind == "paper" for _, kind in columns):  # nothing to compare with: one header row
        columns = {group if kind in ("here", "") else f"{group} {kind}": values
                   for (group, kind), values in columns.items()}
    return pd.DataFrame(columns, index=frame.index).rename(index=label)


def correlation_pairs(matrices: dict) -> pd.DataFrame:
    """Correlation matrices (source -> matrix) as one row per pair of measures, one column per source."""
    pairs = list(itertools.combinations(next(iter(matrices.values())).columns, 2))
    return pd.DataFrame({source: [m.loc[a, b] if a in m.index and b in m.columns else np.nan for a, b in pairs]
                         for source, m in matrices.items()},
                        index=pd.Index([f"{label(a)} – {label(b)}" for a, b in pairs], name="measures"))


def ranks_view(ranks: pd.DataFrame, top: int = 12) -> pd.DataFrame:
    """llmfao's bootstrap ranks of the ``top`` models: BT strength, rank and the range of ranks."""
    head = ranks.head(top)
    return pd.DataFrame({"BT strength": head["bt"], "rank": head["rank"].astype(int),
                         "95% of resampled ranks": interval(head["rank_low"], head["rank_high"], 0)},
                        index=head.index)


def _span(low: float, high: float, digits: int) -> str:
    """An interval in words: ``low–high``, or ``low to high`` when a minus sign would run into the dash."""
    return f"{low:.{digits}f}{'–' if low >= 0 else ' to '}{high:.{digits}f}"


def self_check_view(consistency: pd.DataFrame, items, agree: pd.Series) -> pd.DataFrame:
    """Rows of :func:`.self_check.paper_consistency` for ``items`` in words, with :func:`.self_check.agrees`."""
    rows = consistency[consistency["item"].isin(list(items))]
    special = {"svm/textblob": "BT of the SVM / BT of TextBlob", "svm-bt-rank": "the SVM's BT place"}
    digits = {"sec5-svm": 0, "appB2-ratio": 1}
    printed = [_span(r.printed_low, r.printed_high, 2) if pd.notna(r.printed_low) else
               f"{r.printed:.{digits.get(r.item, 2)}f}" for r in rows.itertuples()]
    ties = [_span(r.tie_low, r.tie_high, 3) if r.tie_high - r.tie_low > 1e-9 else np.nan for r in rows.itertuples()]
    return pd.DataFrame({"paper item": rows["item"].map(lambda i: ITEMS.get(i, i)),
                         "recomputed": [special.get(p, " – ".join(map(label, p.split("-")))) for p in rows["pair"]],
                         "from": rows["source"], "printed": printed, "from the appendix": rows["recomputed"],
                         "over the orders of ties": ties,
                         "agrees": agree.loc[rows.index].map({True: "yes", False: "no"})}).reset_index(drop=True)
