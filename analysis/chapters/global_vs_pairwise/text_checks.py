"""The sentences under the chapter's "paper against itself" and "closer to the paper's protocol" sections
(Levtsov & Ustalov 2025): every number read from the computed tables, every conclusion branching on them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .self_check import FIVE_MODELS, agrees
from .text import join

#: the paper items of the consistency table in words
ITEMS = {"table2": "Table 2", "table3": "Table 3", "table4-binary": "Table 4 (binarised copies)",
         "table4-penalized": "Table 4 (penalised copies)", "table5": "Table 5", "table6": "Table 6",
         "table7": "Table 7", "appB2-ratio": "Appendix B.2's BT ratio", "sec5-svm": "§5's SVM on top"}


def _row(consistency: pd.DataFrame, item: str, pair: str, source: str | None = None) -> pd.Series:
    rows = consistency[(consistency["item"] == item) & (consistency["pair"] == pair)]
    if source is not None:
        rows = rows[rows["source"] == source]
    return rows.iloc[0]


def self_check_text(consistency: pd.DataFrame, bound: dict) -> str:
    """The paper against itself: how many printed values follow from its appendices, which items do not, and the
    three findings behind them (Table 3's accuracy-F1, Table 6's orientation, B.2's BT ratio)."""
    ok = agrees(consistency)
    main = consistency["source"] != FIVE_MODELS
    failed = [ITEMS.get(i, i) for i in dict.fromkeys(consistency.loc[main & ~ok, "item"])]
    text = (f"Of the {int(main.sum())} recomputations of printed values from the paper's own appendices (on all its "
            f"models), {int((ok & main).sum())} give the printed value to its printed decimals, for some order of the "
            "ties the appendices print (unrounded values would order them); "
            + (f"the others are in {join(failed)}. " if failed else "so do the others. "))
    acc_f1 = _row(consistency, "table3", "acc-f1", "Appendices B.1-B.2")
    text += (f"Table 3's accuracy–F1 correlation is printed as {acc_f1['printed']:.2f}, but B.1's two columns give "
             f"{acc_f1['recomputed']:.2f}. ")
    hib = consistency[(consistency["item"] == "table6")
                      & (consistency["source"] == "Appendix C.2, every measure read as higher-is-better")]
    dist = consistency[(consistency["item"] == "table6") & (consistency["source"] == "Appendix C.2, ED and WER as distances")]
    ed_h, wer_h = hib.set_index("pair").loc[["ed", "wer"], "recomputed"]
    ed_d, wer_d = dist.set_index("pair").loc[["ed", "wer"], "recomputed"]
    printed_ed, printed_wer = hib.set_index("pair").loc[["ed", "wer"], "printed"]
    slip = abs(ed_h - printed_ed) < abs(ed_d - printed_ed) and abs(wer_h - printed_wer) < abs(wer_d - printed_wer)
    text += (f"Table 6 from C.2: read as higher-is-better, ED and WER give {ed_h:.3f} and {wer_h:.3f} (printed "
             f"{printed_ed:.2f} and {printed_wer:.2f}); as the distances they are, {ed_d:.3f} and {wer_d:.3f}"
             + (": the printed values rank the distances the wrong way round. " if slip else ". "))
    text += (f"In B.2 a match between binarised models is decided by right or wrong only, so model i takes "
             "0.5 + (accᵢ − accⱼ)/2 of the points against model j whatever their errors; with B.2's accuracies, BT "
             f"fitted to those pair scores puts the SVM {bound['fitted']:.2f} times above TextBlob (two models alone: "
             f"{bound['two_models']:.2f}), while B.2 prints a ratio of {bound['printed']:.1f}"
             + (": B.2's BT column cannot come from its accuracy column." if bound["printed"] > 2 * bound["fitted"]
                else "."))
    return text


def protocol_text(lexicon: pd.DataFrame, orders: pd.DataFrame, agreement: dict, rises: dict, lengths: dict,
                  gold: pd.DataFrame) -> str:
    """Closer to the paper's protocol: the lexicon models' accuracy of their most confident class before and after
    centring, B.1's BT order against ours, C.2's ED rise with the two string lengths, and what the majority-vote
    gold moves on the binary stand-in."""
    parts = [f"{m}: {r['argmax_before']:.3f} before, {r['argmax_after']:.3f} after (its predictions: {r['acc']:.3f}; "
             f"the paper's B.1: {r['paper_acc']:.3f})" for m, r in lexicon.iterrows()]
    text = "Accuracy of the most confident class — " + "; ".join(parts) + ". "
    paper = " > ".join(orders["paper_bt"].sort_values(ascending=False).index)
    before = " > ".join(orders["bt_before"].sort_values(ascending=False).index)
    after = " > ".join(orders["bt_after"].sort_values(ascending=False).index)
    text += (f"BT orders the five models {paper} in the paper's B.1 (renormalised over them: the order is B.1's), "
             f"{before} here before and {after} after centring (Spearman with the paper's: "
             f"{agreement['before']:.2f} before, {agreement['after']:.2f} after). ")
    text += (f"Strings of {lengths['after']:,} characters, the length C.2's printed rise implies, raise a model's mean "
             f"ED by {rises['after']:.0f} on average, against {rises['paper']:.0f} in the paper and {rises['before']:.0f} "
             f"with the {lengths['before']:,} characters used before. ")
    ties = gold.loc["ties after binarising"]
    text += (f"The majority vote of the stand-in's models agrees with SST's labels on {gold.attrs['agreement']:.0%} "
             f"of the sentences ({gold.attrs['splits']} even splits, settled by the mean decision value); it raises "
             f"the accuracies from {gold.loc['lowest accuracy', 'sst_labels']:.2f}–"
             f"{gold.loc['highest accuracy', 'sst_labels']:.2f} to {gold.loc['lowest accuracy', 'majority_vote']:.2f}–"
             f"{gold.loc['highest accuracy', 'majority_vote']:.2f} (the paper's Jigsaw: "
             f"{gold.loc['lowest accuracy', 'paper_jigsaw']:.2f}–{gold.loc['highest accuracy', 'paper_jigsaw']:.2f}). ")
    same = bool(np.isclose(ties["sst_labels"], ties["majority_vote"]))
    return text + (f"The share of ties after binarising is {ties['sst_labels']:.0%} with either gold"
                   + (": on a binary task two binarised models tie where both are right or both wrong, whatever the "
                      "label. " if same else f" ({ties['majority_vote']:.0%} with the vote). ")
                   + f"The 0/1 model's BT place moves from {gold.loc['BT place of the 0/1 model', 'sst_labels']:.0f} to "
                   f"{gold.loc['BT place of the 0/1 model', 'majority_vote']:.0f} (the paper's XGBoost: "
                   f"{gold.loc['BT place of the 0/1 model', 'paper_jigsaw']:.0f}).")
