"""Closer to the paper's protocol where it says how (Levtsov & Ustalov 2025, Secs. 4-6): each change measured
before and after, as tables for the page.

* the lexicon models' decision values centred on the class they predict (:func:`.classification.centre_lexicon`):
  :func:`lexicon_change`, :func:`b1_orders`;
* the appended strings of Appendix C.2 as long as its printed rise in ED implies
  (:func:`.ceval.penalty_length_from_paper`): :func:`ed_rise`;
* the binary stand-in's gold labels by majority vote of its models, as the paper rebuilt Jigsaw's
  (:func:`.classification.majority_gold`): :func:`binary_gold_change`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from ... import aggregate, sweeps
from ...data import published
from ...sweeps import copies_ap
from . import classification as cls
from .self_check import b1_renormalised
from .views import label


def lexicon_change(before: pd.DataFrame, after: pd.DataFrame, models=cls.LEXICON) -> pd.DataFrame:
    """Per lexicon model: the accuracy of its predictions, of its most confident class before and after centring
    (:func:`.classification.argmax_accuracy` of the two baseline tables), and the paper's B.1 accuracy."""
    a, b = cls.argmax_accuracy(before), cls.argmax_accuracy(after)
    paper = published.frame("gvp", "appendix_b1").set_index("model")["acc"]
    return pd.DataFrame({"acc": a.loc[list(models), "acc"], "argmax_before": a.loc[list(models), "argmax_acc"],
                         "argmax_after": b.loc[list(models), "argmax_acc"], "paper_acc": paper.loc[list(models)]})


def b1_orders(before: pd.Series, after: pd.Series) -> pd.DataFrame:
    """B.1's BT renormalised over our models next to ours before and after centring, with each one's place."""
    table = b1_renormalised(after).rename(columns={"bt": "bt_after", "place": "place_after"})
    table["bt_before"] = before.loc[table.index]
    table["place_before"] = table["bt_before"].rank(ascending=False, method="min").astype(int)
    return table[["paper_bt", "paper_bt_renormalised", "paper_place", "bt_before", "place_before", "bt_after",
                  "place_after"]]


def order_agreement(table: pd.DataFrame) -> dict:
    """Spearman correlation of B.1's BT (over our models) with ours before and after (:func:`b1_orders`)."""
    return {k: float(spearmanr(table["paper_bt"], table[f"bt_{k}"]).statistic) for k in ("before", "after")}


def ed_rise(texts: pd.DataFrame, reference: pd.Series, penalised: pd.DataFrame) -> float:
    """The mean rise in mean character edit distance from each model (columns of ``texts``) to its penalised copy
    (the same columns of ``penalised``, named "Penalized <model>"), computed on the changed outputs only."""
    from rapidfuzz.distance import Levenshtein

    rises = []
    for model in texts.columns:
        new = penalised[f"Penalized {model}"]
        changed = np.flatnonzero((new != texts[model]).to_numpy())
        ref = reference.loc[texts.index].to_numpy()
        rise = sum(Levenshtein.distance(new.iat[r], ref[r]) - Levenshtein.distance(texts[model].iat[r], ref[r])
                   for r in changed)
        rises.append(rise / len(texts))
    return float(np.mean(rises))


def paper_ed_rise() -> float:
    """Appendix C.2's mean rise in ED from each model to its penalised copy."""
    from .ceval import penalty_rise

    return penalty_rise(published.frame("gvp", "appendix_c2"))


def _binary_summary(scores: pd.DataFrame, labels: pd.Series, zero_one: str) -> dict:
    """The stand-in's numbers that the gold standard moves: accuracies, Table 2's BT correlations, the 0/1 model's
    BT place, the share of ties after binarising and Table 4's AP (BT from every sentence)."""
    quality = cls.binary_quality(scores, labels)
    measures = cls.binary_measures(scores, labels)
    measures["bt"] = aggregate.bradley_terry(quality)
    measures["bt_bin"] = aggregate.bradley_terry(cls.binary_quality(cls.binarise(scores), labels))
    out = {"lowest accuracy": measures["acc"].min(), "highest accuracy": measures["acc"].max(),
           "Spearman accuracy–BT": spearmanr(measures["acc"], measures["bt"]).statistic,
           "Spearman accuracy–BT (binarised)": spearmanr(measures["acc"], measures["bt_bin"]).statistic,
           "BT place of the 0/1 model": float(measures["bt"].rank(ascending=False, method="min")[zero_one]),
           "ties after binarising": sweeps.matches(cls.binary_quality(cls.binarise(scores), labels)).tie_share()}
    for name, copies in (("binarised", cls.binarise(scores)), ("penalised", cls.penalise_errors(scores, labels))):
        both = scores.join(copies.add_prefix("Copy "))
        table = cls.binary_measures(both, labels).join(aggregate.bradley_terry(cls.binary_quality(both, labels)))
        ap = copies_ap(table[["mae", "bt"]], scores.columns)
        out[f"AP, {name} copies: MAE"], out[f"AP, {name} copies: BT"] = ap["mae"], ap["bt"]
    return {k: float(v) for k, v in out.items()}


def binary_gold_change(scores: pd.DataFrame, labels: pd.Series, zero_one: str = "Decision Tree") -> pd.DataFrame:
    """The binary stand-in with SST's own labels and with the majority vote of its models as gold, next to the
    paper's Jigsaw values where it prints them (the models' own BT places and correlations, A.1 and Table 2)."""
    vote, splits = cls.majority_gold(scores)
    paper_a1 = published.frame("gvp", "appendix_a1").set_index("model")
    t2, t4 = published.item("gvp", "table2"), published.item("gvp", "table4")
    cols = t2["columns"]
    paper = {"lowest accuracy": paper_a1["acc"].min(), "highest accuracy": paper_a1["acc"].max(),
             "Spearman accuracy–BT": t2["matrix"][0][cols.index("bt")],
             "Spearman accuracy–BT (binarised)": t2["matrix"][0][cols.index("bt_bin")],
             "BT place of the 0/1 model": float(paper_a1["bt"].rank(ascending=False, method="min")["XGBoost"]),
             "ties after binarising": 0.88,
             "AP, binarised copies: MAE": t4["binary_ap"]["mae"], "AP, penalised copies: MAE": t4["penalized_ap"]["mae"],
             "AP, binarised copies: BT": np.mean(t4["bt_binary"]), "AP, penalised copies: BT": np.mean(t4["bt_penalized"])}
    table = pd.DataFrame({"sst_labels": _binary_summary(scores, labels, zero_one),
                          "majority_vote": _binary_summary(scores, vote.loc[scores.index], zero_one)})
    table["paper_jigsaw"] = pd.Series(paper)
    table.attrs["agreement"] = float((vote.loc[labels.index] == labels).mean())
    table.attrs["splits"] = splits
    return table.rename_axis("measure")


def sst5_point_measures(baselines: pd.DataFrame) -> pd.DataFrame:
    """Table 3's columns for the models trained here, BT from every sentence (no interval): accuracy, BT, F1, BTbin."""
    labels, predictions, values = cls.sst5_values(baselines)
    gold, binary = cls.sst5_quality(baselines)
    table = cls.sst5_measures(labels, predictions, values)[["acc", "f1"]]
    table["bt"], table["bt_bin"] = aggregate.bradley_terry(gold), aggregate.bradley_terry(binary)
    return table[["acc", "bt", "f1", "bt_bin"]]


def protocol_table(lexicon: pd.DataFrame, agreement: dict, table3: dict, rises: dict, gold: pd.DataFrame) -> pd.DataFrame:
    """Every protocol change measured, one row per measure: ``change``, ``measure``, ``before``, ``after`` and the
    paper's value. ``table3`` maps "before", "after" and "paper" to Spearman matrices (the paper's over the same
    models); ``rises``: C.2's mean rise in ED "before", "after" and in the "paper"; ``gold``:
    :func:`binary_gold_change` (before: SST's labels, after: the majority vote)."""
    rows = [{"change": "lexicon decision values centred on the predicted class", "measure": f"{m}: accuracy of the "
             "most confident class", "before": r["argmax_before"], "after": r["argmax_after"], "paper": r["paper_acc"]}
            for m, r in lexicon.iterrows()]
    rows.append({"change": "lexicon decision values centred on the predicted class",
                 "measure": "Spearman of BT with the paper's B.1 BT (same models)", "before": agreement["before"],
                 "after": agreement["after"], "paper": np.nan})
    cols = list(table3["paper"].columns)
    rows += [{"change": "lexicon decision values centred on the predicted class",
              "measure": f"Table 3: {label(a)} – {label(b)}", "before": table3["before"].loc[a, b], "after": table3["after"].loc[a, b],
              "paper": table3["paper"].loc[a, b]} for i, a in enumerate(cols) for b in cols[i + 1:]]
    rows.append({"change": "appended strings as long as Appendix C.2 implies", "measure": "mean rise in ED",
                 "before": rises["before"], "after": rises["after"], "paper": rises["paper"]})
    rows += [{"change": "binary stand-in's gold by majority vote of its models", "measure": m,
              "before": r["sst_labels"], "after": r["majority_vote"], "paper": r["paper_jigsaw"]}
             for m, r in gold.iterrows()]
    return pd.DataFrame(rows)
