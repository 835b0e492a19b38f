"""Readings of the paper's protocol (Levtsov & Ustalov 2025, Secs. 4-6), each measured before and after: the
lexicon models centred on their predicted class, C.2's appended strings as long as its rise in ED implies, and the
stand-in's gold by majority vote."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from ... import aggregate, sweeps
from ...data import published
from ...sweeps import copies_ap
from . import classification as cls
from .views import label, place


def argmax_accuracy(baselines: pd.DataFrame, models) -> pd.Series:
    """Per model the accuracy of its most confident class (Sec. 5's output), which need not be its prediction."""
    labels, _, values = cls.sst5_arrays(baselines)
    return pd.Series({m: float((cls.most_confident(values[m]) == labels).mean()) for m in models})


def b1_orders(before: pd.Series, after: pd.Series) -> pd.DataFrame:
    """B.1's BT for our models, renormalised over them (a BT ratio does not depend on the other models), next to
    ours before and after centring, each with its place."""
    paper = published.frame("gvp", "appendix_b1").set_index("model")["bt"].loc[list(after.index)]
    bt = pd.DataFrame({"paper": paper, "before": before.loc[paper.index], "after": after})
    places = bt.rank(ascending=False, method="min").astype(int)
    return pd.DataFrame({"paper_bt": paper, "paper_bt_renormalised": paper / paper.sum(),
                         "paper_place": places["paper"], "bt_before": bt["before"], "place_before": places["before"],
                         "bt_after": after, "place_after": places["after"]}).rename_axis("model")


def ed_rise(texts: pd.DataFrame, reference: pd.Series, penalised: pd.DataFrame) -> float:
    """Mean rise in mean edit distance from each model to its penalised copy ("Penalized <model>")."""
    from rapidfuzz.distance import Levenshtein

    ref = reference.loc[texts.index].to_numpy()
    pairs = [(texts[m].to_numpy(), penalised[f"Penalized {m}"].to_numpy()) for m in texts.columns]
    return float(np.mean([sum(Levenshtein.distance(new[r], ref[r]) - Levenshtein.distance(old[r], ref[r])
                              for r in np.flatnonzero(new != old)) / len(texts) for old, new in pairs]))


def _binary_summary(scores: pd.DataFrame, labels: pd.Series, zero_one: str) -> dict:
    """The stand-in's numbers the gold can move (Table 4's AP with BT from every sentence)."""
    binarised = cls.binary_quality(cls.binarise(scores), labels)
    measures = cls.binary_measures(scores, labels)
    measures["bt"] = aggregate.bradley_terry(cls.binary_quality(scores, labels))
    measures["bt_bin"] = aggregate.bradley_terry(binarised)
    out = {"lowest accuracy": measures["acc"].min(), "highest accuracy": measures["acc"].max(),
           "Spearman accuracy–BT": spearmanr(measures["acc"], measures["bt"]).statistic,
           "Spearman accuracy–BT (binarised)": spearmanr(measures["acc"], measures["bt_bin"]).statistic,
           "BT place of the 0/1 model": float(place(measures["bt"], zero_one)),
           "ties after binarising": sweeps.matches(binarised).tie_share()}
    for name, copies in (("binarised", cls.binarise(scores)), ("penalised", cls.penalise_errors(scores, labels))):
        both = scores.join(copies.add_prefix("Copy "))
        table = cls.binary_measures(both, labels).join(aggregate.bradley_terry(cls.binary_quality(both, labels)))
        ap = copies_ap(table[["mae", "bt"]], scores.columns)
        out[f"AP, {name} copies: MAE"], out[f"AP, {name} copies: BT"] = ap["mae"], ap["bt"]
    return {k: float(v) for k, v in out.items()}


def binary_gold_change(scores: pd.DataFrame, labels: pd.Series, zero_one: str = "Decision Tree") -> pd.DataFrame:
    """The stand-in with SST's labels and with its models' majority vote as gold, next to the paper's Jigsaw."""
    vote, splits = cls.majority_gold(scores)
    paper_a1 = published.frame("gvp", "appendix_a1").set_index("model")
    t2, t4 = cls.published_matrix("table2"), published.item("gvp", "table4")
    paper = {"lowest accuracy": paper_a1["acc"].min(), "highest accuracy": paper_a1["acc"].max(),
             "Spearman accuracy–BT": t2.loc["acc", "bt"], "Spearman accuracy–BT (binarised)": t2.loc["acc", "bt_bin"],
             "BT place of the 0/1 model": float(place(paper_a1["bt"], "XGBoost")), "ties after binarising": 0.88,
             **{f"AP, {n} copies: {m}": v for n, k in (("binarised", "binary"), ("penalised", "penalized"))
                for m, v in (("MAE", t4[f"{k}_ap"]["mae"]), ("BT", np.mean(t4[f"bt_{k}"])))}}
    table = pd.DataFrame({"sst_labels": _binary_summary(scores, labels, zero_one),
                          "majority_vote": _binary_summary(scores, vote.loc[scores.index], zero_one)})
    table["paper_jigsaw"] = pd.Series(paper)
    table.attrs["agreement"] = float((vote.loc[labels.index] == labels).mean())
    table.attrs["splits"] = splits
    return table.rename_axis("measure")


def protocol_table(baselines: dict, orders: pd.DataFrame, table3: dict, rises: dict, gold: pd.DataFrame,
                   lexicon=cls.LEXICON) -> pd.DataFrame:
    """Every protocol change measured, one row per measure: before, after and the paper's value (``baselines``: SST-5
    before and after centring the ``lexicon`` models; ``table3``: Spearman matrices; ``rises``: C.2's rise in ED)."""
    centred = "lexicon decision values centred on the predicted class"
    argmax = {k: argmax_accuracy(baselines[k], lexicon) for k in ("before", "after")}
    paper_acc = published.frame("gvp", "appendix_b1").set_index("model")["acc"]
    rows = [(centred, f"{m}: accuracy of the most confident class", argmax["before"][m], argmax["after"][m],
             paper_acc[m]) for m in lexicon]
    rows.append((centred, "Spearman of BT with the paper's B.1 BT (same models)",
                 *(float(spearmanr(orders["paper_bt"], orders[f"bt_{k}"]).statistic) for k in ("before", "after")),
                 np.nan))
    rows += [(centred, f"Table 3: {label(a)} – {label(b)}", table3["before"].loc[a, b], table3["after"].loc[a, b],
              table3["paper"].loc[a, b]) for a, b in itertools.combinations(table3["paper"].columns, 2)]
    rows.append(("appended strings as long as Appendix C.2 implies", "mean rise in ED", rises["before"],
                 rises["after"], rises["paper"]))
    rows += [("binary stand-in's gold by majority vote of its models", m, *r)
             for m, r in gold[["sst_labels", "majority_vote", "paper_jigsaw"]].iterrows()]
    return pd.DataFrame(rows, columns=["change", "measure", "before", "after", "paper"])
