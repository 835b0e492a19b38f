"""The sentences the notebook prints under each table and figure: what was measured, next to what the paper says."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...data import published
from ...sweeps import lowest_ap, settling_point
from .ceval import penalty_rise
from .published import published_matrix

# -- CEval and the sampling experiments -------------------------------------------------------------------------------


def table6_text(table6: pd.DataFrame, scores_c2: pd.DataFrame) -> str:
    paper = published.item("gvp", "table6")
    rise_paper = penalty_rise(published.frame("gvp", "appendix_c2"))
    return (f"With ED and WER oriented as distances (lower is better) their AP is {table6.loc['ed', 'ap']:.2f} and "
            f"{table6.loc['wer', 'ap']:.2f}; chrF {table6.loc['chrf', 'ap']:.2f} and BT {table6.loc['bt', 'ap']:.2f} "
            f"(paper: ED {paper['ap']['ed']}, WER {paper['ap']['wer']}, chrF {paper['ap']['chrf']}, BT "
            f"{paper['bt'][0]}–{paper['bt'][1]}). The paper's ED and WER values are near the smallest AP possible "
            "with six relevant of twelve (0.35), which is what ranking the penalised copies (larger distances) on "
            "top gives: consistent with ED and WER read as higher-is-better, likely an orientation slip. Read that "
            f"way they come out here at {table6.loc['ed', 'ap_higher_is_better']:.2f} and "
            f"{table6.loc['wer', 'ap_higher_is_better']:.2f}. Our appended strings (1,000 random letters and "
            f"spaces; the paper gives neither length nor alphabet) raise a model's mean ED by {penalty_rise(scores_c2):.0f} "
            f"characters on average, the paper's by {rise_paper:.0f}, so the absolute C.2 values differ. "
            "chrF and BT put every original above its own penalised copy but interleave the models, as in the paper; "
            "correctly oriented, the distances do at least as well.")


def tie_sweep_text(sweep: pd.DataFrame) -> str:
    defined = sweep.dropna(subset=["spearman_mean"])
    above = defined[defined["spearman_mean"] >= 0.8]["tie_probability"]
    at_half = defined.loc[(defined["tie_probability"] - 0.5).abs().idxmin()]
    start = defined.iloc[0]
    return (f"Without added ties the mean correlation is already {start['spearman_mean']:.2f}, not 1: BT and mean chrF "
            "disagree on the order of some close models (per-review wins and average quality are different things). "
            f"It stays at or above 0.8 up to a tie probability of {above.max():.2f} (paper: 0.8 up "
            f"to 50% ties); at p = 0.5 it is {at_half['spearman_mean']:.2f}, with 95% of the trials between "
            f"{at_half['spearman_low']:.2f} and {at_half['spearman_high']:.2f}. Ties dilute the evidence rather than "
            "bias it: each drawn match is a tie at random, so the remaining decided matches still favour the better "
            "model, only fewer of them. At p = 1 every match is a tie and BT has no ranking to give.")


def tie_cost_text(curves: dict) -> str:
    """Sec. 7's claim that ties make BT need more comparisons: the mean number of misplaced models of each curve
    where the first (untied) curve settles and at the grid's end."""
    first = next(iter(curves.values()))[0]
    point = settling_point(first)
    point = first["comparisons"].iloc[-1] if not np.isfinite(point) else point
    end = first["comparisons"].iloc[-1]
    parts = []
    for title, (curve, _) in curves.items():
        at = curve.set_index("comparisons")["changes_mean"]
        parts.append(f"{title}: {at[point]:.2f} at {point:.0f} and {at[end]:.2f} at {end:.0f}")
    return ("Mean number of misplaced models, against the ranking from 100,000 untied comparisons per pair — "
            + "; ".join(parts) + ". Ties do not bias the ranking, but a tie carries no evidence about the order, "
            "so with more ties more comparisons are needed for the same stability: the paper's point holds.")


def stability_text(curves: dict) -> str:
    """One sentence per Fig. 2 panel: where 12·m·ln m falls on the curve and where the curve settles."""
    parts = []
    for title, (curve, marker) in curves.items():
        at = curve.iloc[(curve["comparisons"] - marker).abs().argmin()]
        settled = settling_point(curve)
        parts.append(f"{title}: at 12·m·ln m = {marker} comparisons per pair ({at['comparisons']:.0f} on the grid) "
                     f"{at['changed_share']:.0%} of the trials rank some model elsewhere than the reference, "
                     f"{at['changes_mean']:.2f} models on average; the mean "
                     + (f"stays at 0.1 or below from {settled:.0f} comparisons per pair on." if np.isfinite(settled)
                        else f"is still {curve['changes_mean'].iloc[-1]:.2f} at {curve['comparisons'].iloc[-1]:.0f}."))
    return (" ".join(parts) + " The rule is a compromise between cost and stability, not a guarantee: how many "
            "comparisons suffice depends on how close the models are.")


def random_binary_text(table: pd.DataFrame) -> str:
    spread = table["accuracy_spread"]
    return (f"The three accuracies are 0.5 only to one decimal: they differ by {spread.mean():.3f} on average "
            f"(up to {spread.max():.3f}). BT fitted on every instance orders the models exactly as accuracy does in "
            f"all {len(table)} repetitions (Spearman 1), because a model's wins minus losses against another equal "
            "its correct answers minus the other's. BT on one sample of 12·3·ln 3 = 39 matches per pair correlates "
            f"{table['spearman_sampled'].mean():.2f} with accuracy on average and exactly −0.5 in "
            f"{(table['spearman_sampled'].round(2) == -0.5).mean():.0%} of the repetitions: the paper's −0.5 is one "
            "draw of sampling noise between models whose true quality is identical, not a bias of pairwise "
            "comparison. (With about half of the matches tied and only 39 per pair, the sample cannot separate "
            "accuracy differences of a few percentage points.)")


def detection_text(curve: pd.DataFrame) -> str:
    at = curve[np.isclose(curve["difference"], curve["difference"].max())].set_index("matches")
    parts = [f"{n} matches: {row['pairwise']:.2f} pairwise vs {row['global']:.2f} global" for n, row in at.iterrows()]
    return (f"At the largest difference on the grid ({at['difference'].iloc[0]:.2f}) the probability of the correct "
            "order is " + "; ".join(parts) + ". Whether 10% is enough depends on how many matches there are, "
            "and on the same draws the mean of the decision values finds the better model at least as often as the count "
            "of wins: a match keeps only the sign of each difference, the mean keeps its size.")


# -- SST-5 and the binary stand-in ------------------------------------------------------------------------------------


def _ap(table: pd.DataFrame, experiment: str, measure: str, column: str = "ap") -> float:
    return float(table.set_index(["experiment", "measure"]).loc[(experiment, measure), column])


def table3_text(table3: pd.DataFrame) -> str:
    paper = published_matrix("table3")
    return (f"Table 3 with the five models here: accuracy and F1 correlate {table3.loc['acc', 'f1']:.2f}, accuracy "
            f"and BT on raw decision values {table3.loc['acc', 'bt']:.2f}, F1 and BT {table3.loc['f1', 'bt']:.2f}, "
            f"accuracy and BTbin {table3.loc['acc', 'bt_bin']:.2f} (the paper's eight models: "
            f"{paper.loc['acc', 'f1']:.2f}, {paper.loc['acc', 'bt']:.2f}, {paper.loc['f1', 'bt']:.2f} and "
            f"{paper.loc['acc', 'bt_bin']:.2f}). With five models, swapping two neighbours moves Spearman's ρ by "
            "0.1, so these correlations say little on their own.")


def sst5_text(b1: pd.DataFrame, tie_share_gold: float, tie_share_binary: float) -> str:
    here = b1.dropna(subset=["acc"])
    gap = (here[["acc", "f1"]] - here[["paper_acc", "paper_f1"]].to_numpy()).abs().max(axis=1)
    exact = [m for m in here.index if gap[m] < 0.0005]
    order = " > ".join(here["bt"].sort_values(ascending=False).index)
    notes = {"VADER": "the vaderSentiment package rather than NLTK's copy of the lexicon",
             "fastText": "training is stochastic and the paper's model file is not published"}
    others = [f"{m} by up to {gap[m]:.3f}" + (f" ({notes[m]})" if m in notes else "") for m in here.index
              if m not in exact]
    listed = ", ".join(exact[:-1]) + " and " + exact[-1] if len(exact) > 1 else "".join(exact)
    return (f"Accuracy and F1 equal the paper's to the third decimal for {listed or 'no model'}: the paper re-ran "
            "prrao87's code, whose pipelines are rebuilt here with its settings, and its F1 is the support-weighted "
            "one. " + ("They differ for " + "; ".join(others) + ". " if others else "")
            + f"BT on the gold-class decision values orders the models {order}. The paper's text says the SVM "
            "\"rose to the top of the Bradley–Terry ranking due to its more extreme confidence scores\"; its own B.1 "
            f"ranks it {int(b1['paper_bt'].rank(ascending=False, method='min')['SVM'])} of "
            f"{int(b1['paper_bt'].notna().sum())} by BT, ours {int(here['bt'].rank(ascending=False, method='min')['SVM'])}"
            f" of {len(here)}. "
            f"{tie_share_gold:.0%} of the matches on raw decision values are ties, {tie_share_binary:.0%} after "
            "binarising (the paper: about two thirds). BT strengths sum to 1 over the five models here and over "
            "eight in the paper, so only their order compares.")


def sst5_binarised_text(b2: pd.DataFrame, b1: pd.DataFrame, copies: pd.DataFrame, table5: pd.DataFrame) -> str:
    here = b2.dropna(subset=["acc"])
    order = " > ".join(here["bt"].sort_values(ascending=False).index)
    changed = [m for m in here.index if abs(here.loc[m, "acc"] - b1.loc[m, "acc"]) > 0.0005]
    originals = copies.loc[list(here.index)]
    floor = lowest_ap(len(here), 2 * len(here))
    return (f"Binarised on their own (B.2), BT orders the models {order}; in the paper's B.2 the SVM jumps to the "
            f"top (BT {b2.loc['SVM', 'paper_bt']:.3f}). The most confident class differs from the predicted one for "
            + (", ".join(changed) if changed else "no model")
            + " (their decision values come from other code than their predictions, see B.1), so their B.2 "
            "accuracy differs from B.1's; for the others it is B.1's. The paper's B.2 accuracies are lower than its "
            "B.1 accuracies for every model, logistic regression and fastText included, while its F1 values are "
            "B.1's: we could not tell what that column measures. With the copies (Table 5; the paper's column "
            "says binarised, its text cites the table for the penalised experiment, so both are here): accuracy "
            "and F1 tell a model from its binarised copy only where the copy's class differs from the predicted one "
            f"(AP {_ap(table5, 'binary', 'acc'):.2f} and {_ap(table5, 'binary', 'f1'):.2f}; the paper: ACC 1, F1 "
            f"0.5). BT ranks the originals above their binarised copies (AP {_ap(table5, 'binary', 'bt'):.2f}, "
            f"{_ap(table5, 'binary', 'bt', 'ap_low'):.2f}–{_ap(table5, 'binary', 'bt', 'ap_high'):.2f} over "
            "sampled match sets; the paper: 0.70–0.71): a copy beats its original only where the model is right, "
            f"and every model here is right on fewer than half of the sentences (accuracy at most "
            f"{originals['acc'].max():.2f}). MAE, not in the paper's table, prefers the binarised copies (AP "
            f"{_ap(table5, 'binary', 'mae'):.2f}; the lowest possible with {len(here)} originals among "
            f"{2 * len(here)} is {floor:.2f}). Penalised copies are never closer to the gold class than their "
            f"originals: BT puts the originals on top (AP {_ap(table5, 'penalized', 'bt'):.2f}), MAE mostly "
            f"({_ap(table5, 'penalized', 'mae'):.2f}); accuracy and F1 see the same classes as for the binarised "
            "copies.")


def binary_a1_text(a1: pd.DataFrame, table2: pd.DataFrame, ties_raw: float, ties_binary: float) -> str:
    tree = a1.loc["Decision Tree"]
    bt_rank = a1["bt"].rank(ascending=False).astype(int)
    without = a1.drop(index="Decision Tree")[["acc", "bt"]].corr(method="spearman").loc["acc", "bt"]
    sharp = a1[["acc", "bt", "sharpness"]].corr(method="spearman")
    paper = published_matrix("table2")
    return (f"The decision tree, whose decision values are 0 or 1 only, has the lowest accuracy ({tree['acc']:.3f}) "
            f"but BT ranks it {bt_rank['Decision Tree']} of {len(a1)} ({tree['bt']:.3f}): a match only asks which "
            "model is closer to the label, so a confident right answer beats every hedged one, whatever the "
            "models' accuracies — the paper's XGBoost (lowest accuracy, highest BT in A.1). More generally BT follows "
            "how sharp a model's decision values are rather than how often they are right: its Spearman correlation "
            f"with the mean distance of the decision values from 0.5 is {sharp.loc['bt', 'sharpness']:.2f}, while "
            f"sharpness and accuracy correlate {sharp.loc['acc', 'sharpness']:.2f}. The global measures agree with "
            "each other (Spearman accuracy–AUC "
            f"{table2.loc['acc', 'auc']:.2f}, accuracy–F1 {table2.loc['acc', 'f1']:.2f}) and BT stands apart "
            f"(accuracy–BT {table2.loc['acc', 'bt']:.2f}, {without:.2f} without the tree; AUC–BT "
            f"{table2.loc['auc', 'bt']:.2f}; the paper's Jigsaw: {paper.loc['acc', 'bt']:.2f} and "
            f"{paper.loc['auc', 'bt']:.2f}). On binarised decision values {ties_binary:.0%} of the matches are ties "
            f"(raw: {ties_raw:.1%}; the paper's Jigsaw: 88%), a match is won by the model that is right where the "
            f"other is wrong, and BTbin follows accuracy (Spearman {table2.loc['acc', 'bt_bin']:.2f}; the paper: "
            f"{paper.loc['acc', 'bt_bin']:.2f}).")


def table4_text(table4: pd.DataFrame, a2: pd.DataFrame) -> str:
    def ap(experiment, measure):
        return _ap(table4, experiment, measure)

    def bt(experiment):
        return (f"{ap(experiment, 'bt'):.3f} ({_ap(table4, experiment, 'bt', 'ap_low'):.3f}–"
                f"{_ap(table4, experiment, 'bt', 'ap_high'):.3f} over sampled match sets)")

    originals = a2[~a2.index.str.startswith("Binarized ")]
    floor = lowest_ap(len(originals), 2 * len(originals))
    return (f"Binarising: MAE and BT both prefer the over-confident copies (AP {ap('binary', 'mae'):.2f} and "
            f"{bt('binary')}; the paper: 0.38 and 0.33–0.34; the lowest AP possible with {len(originals)} originals "
            f"among {2 * len(originals)}, every copy above every original, is {floor:.3f}). For 0/1 decision "
            "values MAE is the error rate, below "
            "every hedged original's MAE; in BT a copy beats its original on every sentence the model gets right and "
            f"every model here gets more than half right (accuracy at least {originals['acc'].min():.2f}). AUC "
            f"still prefers most originals ({ap('binary', 'auc'):.2f}; the paper: 0.90), F1 cannot tell them apart "
            f"({ap('binary', 'f1'):.2f}, as in the paper). Penalising every mistake: AUC puts the originals on top "
            f"({ap('penalized', 'auc'):.2f}; the paper: 0.94), MAE mostly ({ap('penalized', 'mae'):.2f}; the "
            "paper: 0.86 — the penalised copies of the sharpest models stay above some originals), BT "
            f"too ({bt('penalized')}; the paper: 0.59–0.66) — a penalised copy ties its original where the model "
            "is right and loses where it is wrong, so it always ranks below its own original, but the copies of "
            f"strong models stay above weak originals; F1 again {ap('penalized', 'f1'):.2f}. The penalised decision "
            "tree equals the tree, as the paper's penalised XGBoost equals XGBoost.")


# -- llmfao and the closing paragraph ---------------------------------------------------------------------------------


def llmfao_text(rule: dict, sweep: pd.DataFrame, ranks: pd.DataFrame, rho_boot: np.ndarray,
                curve: pd.DataFrame) -> str:
    above = sweep.dropna(subset=["spearman_mean"])
    above = above[above["spearman_mean"] >= 0.8]
    width = (ranks["rank_high"] - ranks["rank_low"])
    half = curve.iloc[-1]
    return (f"llmfao has {rule['judgments']:,} judgments of {rule['models']} models, {rule['tie_share']:.0%} of them "
            f"ties; {rule['pairs_compared']} of the {rule['pairs']:,} pairs are judged at all, a median of "
            f"{rule['median_per_pair']:.0f} times (at most {rule['max_per_pair']}). The paper's rule asks "
            f"{rule['required_per_pair']:,} comparisons per pair, {rule['required_total']:,} in all: "
            f"{rule['pairs_with_enough']} pairs have that many, so the rule always falls back to all judgments. "
            "Adding ties: the correlation with the ranking from all judgments stays at or above 0.8 until "
            + (f"{above['tie_share'].max():.0%}" if len(above) else "—")
            + " of the judgments are ties (data's own ties included). Resampling each pair's judgments: the mean "
            f"Spearman correlation with the reference is {np.nanmean(rho_boot):.2f}, but a model's 95% rank range "
            f"spans {width.median():.0f} places for the median model (up to {width.max():.0f}). Two disjoint random "
            f"halves of the judgments (about {half['judgments']:,.0f} each) give rankings that correlate "
            f"{half['spearman_mean']:.2f} on average (2.5% percentile {half['spearman_low']:.2f}), a model moving "
            f"{half['rank_displacement']:.1f} places between them on average.")


def recommendations_text(table2: pd.DataFrame, table4: pd.DataFrame, table5: pd.DataFrame, ceval_sweep: pd.DataFrame,
                         llmfao_sweep: pd.DataFrame, split_half: pd.DataFrame, detection: pd.DataFrame) -> str:
    """The closing paragraph: the paper's recommendations against what this chapter measured."""
    def threshold(sweep, column):
        above = sweep.dropna(subset=["spearman_mean"])
        above = above[above["spearman_mean"] >= 0.8]
        return f"{above[column].max():.0%}" if len(above) else "no"

    ap = table4.set_index(["experiment", "measure"])["ap"]
    ap5 = table5.set_index(["experiment", "measure"])["ap"]
    half = split_half.iloc[-1]
    big = detection[np.isclose(detection["difference"], detection["difference"].max())]
    small = big[big["matches"] == big["matches"].min()].iloc[0]
    return (
        "*Compare pairwise only models whose decision values share a domain* holds on the binary stand-in: sharper "
        f"decision values win matches, so BT correlates only {table2.loc['acc', 'bt']:.2f} with accuracy there and "
        f"prefers binarised copies to their originals (AP {ap[('binary', 'bt')]:.2f}). Which way it errs depends on "
        "accuracy: a confident copy wins where the model is right, so with accuracies below one half (SST-5) BT "
        f"prefers the originals instead (AP {ap5[('binary', 'bt')]:.2f}). *BT's ranking survives many ties* holds, "
        "more strongly than the paper's 50%, for the test the paper ran (agreement at a fixed number of matches): "
        f"the correlation stays at or above 0.8 up to {threshold(ceval_sweep, 'tie_probability')} synthetic ties "
        f"on CEval and up to {threshold(llmfao_sweep, 'tie_share')} ties in all on llmfao's real judgments; its "
        "other claim, that many ties make BT need many more comparisons, holds too (Fig. 2 with ties). *12·m·ln m "
        "comparisons per pair give a stable ranking* cannot even be tried on llmfao: it asks thousands of judgments "
        "per pair where the data has a median of five. There the ranking from all the data is itself uncertain — "
        f"two disjoint halves of the judgments correlate {half['spearman_mean']:.2f}, a model moving "
        f"{half['rank_displacement']:.1f} places between them — so ranks need intervals. *Pairwise comparison "
        "needs non-negligible differences* holds in our reading of Fig. 3, where the global mean, on the same "
        f"draws, does at least as well (at a difference of {small['difference']:.2f} with "
        f"{int(small['matches'])} matches: {small['global']:.2f} vs {small['pairwise']:.2f}); that is a property "
        "of well-behaved decision values: with rare but large errors (CEval's penalised outputs) the count of wins "
        "is the steadier one, which is the paper's case for pairwise comparison."
    )
