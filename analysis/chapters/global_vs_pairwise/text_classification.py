"""The sentences the notebook prints under the SST-5 and binary stand-in sections (Levtsov & Ustalov 2025,
Secs. 5-6, Appendices A-B, Tables 2-5): each number is read from the computed tables and each conclusion branches on
them; the paper's values and verdicts are claims rows (``data/published/claims/gvp.toml``)."""

from __future__ import annotations

import pandas as pd

from ...data import published
from .text import PRINTED_2, PRINTED_3, ap_phrase, join


def _ap(table: pd.DataFrame, experiment: str, measure: str, column: str = "ap") -> float:
    return float(table.set_index(["experiment", "measure"]).loc[(experiment, measure), column])


def _place(values: pd.Series, model: str) -> int:
    return int(values.rank(ascending=False, method="min")[model])


def _climb(places: int) -> str:
    return f"climbs {places} place{'s' if places != 1 else ''}" if places > 0 else (
        "keeps its place" if places == 0 else f"falls {-places} place{'s' if places != -1 else ''}")


# -- SST-5 (Appendix B, Tables 3 and 5) -------------------------------------------------------------------------------


def sst5_text(b1: pd.DataFrame, tie_share_gold: float, tie_share_binary: float) -> str:
    """Appendix B.1: which models reproduce the paper's accuracy and F1, the BT order, the SVM's BT place (ours and
    in the paper's B.1), and the tie shares."""
    here = b1.dropna(subset=["acc"])
    gap = (here[["acc", "f1"]] - here[["paper_acc", "paper_f1"]].to_numpy()).abs().max(axis=1)
    exact = [m for m in here.index if gap[m] <= PRINTED_3 + 1e-12]
    notes = {"VADER": "the vaderSentiment package rather than NLTK's copy of the lexicon",
             "fastText": "training is stochastic and the paper's model file is not published"}
    others = [f"{m} by up to {gap[m]:.3f}" + (f" ({notes[m]})" if m in notes else "") for m in here.index
              if m not in exact]
    order = " > ".join(here["bt"].sort_values(ascending=False).index)
    paper_bt = b1["paper_bt"].dropna()
    return (f"Accuracy and F1 equal the paper's to its printed third decimal for {join(exact) or 'no model'}: the paper "
            "re-ran Prashanth Rao's fine-grained sentiment code, whose pipelines are rebuilt here with its settings, "
            "and its F1 is the support-weighted one. " + ("They differ for " + "; ".join(others) + ". " if others else "")
            + f"BT on the gold-class decision values orders the models {order}: the SVM is "
            f"{_place(here['bt'], 'SVM')} of {len(here)} here, {_place(paper_bt, 'SVM')} of {len(paper_bt)} in the "
            f"paper's B.1. {tie_share_gold:.0%} of the matches on raw decision values are ties, {tie_share_binary:.0%} "
            f"after binarising. BT strengths sum to 1 over the {len(here)} models here and over {len(paper_bt)} in the "
            "paper, so only their order compares.")


def table3_text(n: int, consistency: pd.DataFrame) -> str:
    """Table 3: how coarse Spearman's rho is with the ``n`` models here, and whether the paper's printed accuracy-F1
    follows from its own B.1 (:func:`.claim_values.paper_consistency`)."""
    step = 12 / (n * (n * n - 1))  # 1 - rho after one swap of neighbours: 6 * 2 / (n (n^2 - 1))
    row = consistency[(consistency["item"] == "table3") & (consistency["pair"] == "acc-f1")].iloc[0]
    follows = abs(row["printed"] - row["recomputed"]) <= PRINTED_2
    return (f"With {n} models, swapping two neighbours moves Spearman's ρ by {step:.2f}, so these correlations say "
            f"little on their own. The paper's printed accuracy–F1 correlation ({row['printed']:.2f}) "
            + ("follows from" if follows else "does not follow from")
            + f" its own Appendix B.1, which gives {row['recomputed']:.2f}.")


def sst5_binarised_text(b2: pd.DataFrame, b1: pd.DataFrame, copies: pd.DataFrame, table5: pd.DataFrame) -> str:
    """Appendix B.2 and Table 5: the binarised BT order, the models whose most confident class is not their
    prediction, what the paper's B.2 accuracy column does, and how each measure ranks originals against copies."""
    here = b2.dropna(subset=["acc"])
    order = " > ".join(here["bt"].sort_values(ascending=False).index)
    top = b2["paper_bt"].idxmax()
    changed = [m for m in here.index if abs(here.loc[m, "acc"] - b1.loc[m, "acc"]) > PRINTED_3]
    paper = published.frame("gvp", "appendix_b2").set_index("model")
    paper_b1 = published.frame("gvp", "appendix_b1").set_index("model").reindex(paper.index)
    lower = int((paper["acc"] < paper_b1["acc"]).sum())
    same_f1 = bool((paper["f1"] == paper_b1["f1"]).all())
    n = len(here)
    originals = copies.loc[list(here.index)]
    best = float(originals["acc"].max())
    text = (f"Binarised on their own (B.2), BT orders the models {order}; the paper's B.2 puts {top} on top. The most "
            "confident class differs from the predicted one for " + (join(changed) if changed else "no model")
            + (" (its decision values come from other code than its predictions, see B.1), so its B.2 accuracy "
               "differs from B.1's. " if len(changed) == 1 else
               " (their decision values come from other code than their predictions, see B.1), so their B.2 accuracy "
               "differs from B.1's. ")
            + f"The paper's B.2 accuracy is below its B.1 accuracy for {lower} of its {len(paper)} "
            "models while its F1 " + ("equals B.1's for every model" if same_f1 else "differs from B.1's")
            + ": we could not tell what that column measures. With the copies (Table 5): ")
    text += (f"accuracy puts {ap_phrase(_ap(table5, 'binary', 'acc'), n, 2 * n)}, F1 "
             f"{ap_phrase(_ap(table5, 'binary', 'f1'), n, 2 * n)} — they tell a model from its binarised copy only "
             "where the copy's class differs from the predicted one. BT puts "
             + ap_phrase(_ap(table5, 'binary', 'bt'), n, 2 * n, f"{_ap(table5, 'binary', 'bt', 'ap_low'):.2f}–"
                         f"{_ap(table5, 'binary', 'bt', 'ap_high'):.2f} over sampled match sets")
             + ": a copy beats its original only where the model is right, and ")
    text += (f"every model here is right on fewer than half of the sentences (accuracy at most {best:.2f}). " if best < 0.5
             else f"the best model here is right on {best:.0%} of the sentences. ")
    return text + (f"MAE, not in the paper's table, puts {ap_phrase(_ap(table5, 'binary', 'mae'), n, 2 * n)}. "
                   "Penalised copies are never closer to the gold class than their originals: BT puts "
                   f"{ap_phrase(_ap(table5, 'penalized', 'bt'), n, 2 * n)}, MAE "
                   f"{ap_phrase(_ap(table5, 'penalized', 'mae'), n, 2 * n)}; accuracy and F1 see the same classes as "
                   "for the binarised copies.")


# -- the binary stand-in for Jigsaw (Appendix A, Tables 2 and 4) ------------------------------------------------------


def binary_a1_text(a1: pd.DataFrame, table2: pd.DataFrame, ties_raw: float, ties_binary: float,
                   zero_one: str = "Decision Tree", paper_zero_one: str = "XGBoost") -> str:
    """Appendix A.1 and Table 2: the 0/1 model's places by accuracy and BT next to the paper's XGBoost, whether BT
    follows sharpness or accuracy, whether the global measures agree and BT stands apart, and the tie shares."""
    acc_place, bt_place = _place(a1["acc"], zero_one), _place(a1["bt"], zero_one)
    paper = published.frame("gvp", "appendix_a1").set_index("model")
    p_acc, p_bt = _place(paper["acc"], paper_zero_one), _place(paper["bt"], paper_zero_one)
    text = (f"The decision tree, whose decision values are 0 or 1 only, is {acc_place} of {len(a1)} by accuracy "
            f"({a1.loc[zero_one, 'acc']:.3f}) and {bt_place} of {len(a1)} by BT ({a1.loc[zero_one, 'bt']:.3f}); the "
            f"paper's {paper_zero_one} is {p_acc} of {len(paper)} by accuracy and {p_bt} of {len(paper)} by BT. "
            f"From accuracy to BT the tree {_climb(acc_place - bt_place)}, {paper_zero_one} {_climb(p_acc - p_bt)}"
            + (": a match only asks which model is closer to the label, so a confident right answer beats every "
               "hedged one. " if acc_place > bt_place else ". "))
    sharp = a1[["acc", "bt", "sharpness"]].corr(method="spearman")
    follows_sharp = abs(sharp.loc["bt", "sharpness"]) > abs(sharp.loc["bt", "acc"])
    text += (f"BT's Spearman correlation with sharpness (the mean distance of the decision values from 0.5) is "
             f"{sharp.loc['bt', 'sharpness']:.2f}, with accuracy {sharp.loc['bt', 'acc']:.2f}: BT follows "
             + ("how sharp a model's decision values are more closely than how often they are right. " if follows_sharp
                else "how often a model is right more closely than how sharp its decision values are. "))
    glob = ["acc", "auc", "f1"]
    among = min(table2.loc[a, b] for i, a in enumerate(glob) for b in glob[i + 1:])
    apart = among > table2.loc["bt", glob].abs().max()
    without = a1.drop(index=zero_one)[["acc", "bt"]].corr(method="spearman").loc["acc", "bt"]
    text += (f"The global measures correlate at least {among:.2f} with each other; BT correlates "
             f"{table2.loc['acc', 'bt']:.2f} with accuracy ({without:.2f} without the tree) and "
             f"{table2.loc['auc', 'bt']:.2f} with AUC" + (", so it stands apart. " if apart else
                                                          ", as high as some global pair. "))
    closer = table2.loc["acc", "bt_bin"] > table2.loc["acc", "bt"]
    return text + (f"On binarised decision values {ties_binary:.0%} of the matches are ties (raw: {ties_raw:.1%}), a "
                   "match is won by the model that is right where the other is wrong, and BTbin correlates "
                   f"{table2.loc['acc', 'bt_bin']:.2f} with accuracy, "
                   + ("closer than BT on raw decision values." if closer else
                      "no closer than BT on raw decision values."))


def table4_text(table4: pd.DataFrame, a2: pd.DataFrame, a3: pd.DataFrame, zero_one: str = "Decision Tree") -> str:
    """Table 4: how each measure ranks the originals against their binarised and their penalised copies, with the
    mechanism behind MAE's and BT's rankings checked on the tables."""
    originals = a2[~a2.index.str.startswith("Binarized ")]
    n = len(originals)

    def ranks(experiment, measure):
        note = (f"{_ap(table4, experiment, 'bt', 'ap_low'):.3f}–{_ap(table4, experiment, 'bt', 'ap_high'):.3f} over "
                "sampled match sets") if measure == "bt" else ""
        return ap_phrase(_ap(table4, experiment, measure), n, 2 * n, note)

    copies = a2.loc[[f"Binarized {m}" for m in originals.index]]
    below = int((copies["mae"].to_numpy() < originals["mae"].to_numpy()).sum())
    worst = float(originals["acc"].min())
    text = (f"Binarising: MAE puts {ranks('binary', 'mae')} — a 0/1 copy's MAE is its error rate, below its "
            f"original's MAE for {below} of {n} models — and BT {ranks('binary', 'bt')}: a copy "
            "beats its original on every sentence the model gets right, and "
            + (f"every model here gets more than half right (accuracy at least {worst:.2f}). " if worst > 0.5 else
               f"the weakest model here gets {worst:.0%} right. ")
            + f"AUC puts {ranks('binary', 'auc')}, F1 {ranks('binary', 'f1')}. ")
    same = (a3.loc[f"Penalized {zero_one}", ["acc", "auc", "f1", "mae"]].to_numpy(dtype=float)
            == a3.loc[zero_one, ["acc", "auc", "f1", "mae"]].to_numpy(dtype=float)).all()
    return text + (f"Penalising every mistake: AUC puts {ranks('penalized', 'auc')}, MAE {ranks('penalized', 'mae')}, "
                   f"BT {ranks('penalized', 'bt')} — a penalised copy ties its original "
                   "where the model is right and loses where it is wrong, so it ranks below its own original, but "
                   f"copies of strong models can stay above weak originals; F1 {ranks('penalized', 'f1')}. The "
                   "penalised decision tree " + ("equals the tree: its decision values are 0 or 1 already." if same
                                                 else "differs from the tree."))
