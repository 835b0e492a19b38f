"""Chapter ``05_global_vs_pairwise``, classification part (Levtsov & Ustalov 2025, Secs. 5-6, Appendices A-B):
SST-5 with the baselines trained here (B.1, B.2, Tables 3 and 5), and the binary task standing in for the
unreachable Jigsaw submissions (A.1-A.3, Tables 2 and 4).

A match on a test sentence goes to the model whose decision value is closer to the gold answer (Sec. 3's g): for
SST-5 the higher decision value of the gold class, for the binary task the smaller |label - P(positive)|. The
*copies* experiments of Sec. 6 add a copy of every model with adjusted decision values — binarised (Table 4's
"Binary AP", Table 5) or penalised, binarised only where the model is wrong (Table 4's "Penalized AP") — and ask
whether a measure still ranks the originals above the copies: average precision with the originals relevant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, average_precision_score, f1_score, roc_auc_score

from .. import sweeps
from ..data import published
from ..data.baselines import CLASSES, one_hot
from .global_vs_pairwise import copies_ap, lowest_ap, published_matrix


def _bt(quality: pd.DataFrame, rng, n_trials: int) -> pd.DataFrame:
    return sweeps.bradley_terry_interval(sweeps.matches(quality), rng, n_trials)


# -- average precision of the originals over their adjusted copies (Tables 4-6) -----------------------------------


def bt_ap_interval(quality: pd.DataFrame, originals, *, rng, n_trials: int, confidence: float = 0.95) -> tuple:
    """The paper's BT interval for an AP (Tables 4-6): the AP of the BT ranking of each of ``n_trials`` sampled
    match sets (12·m·ln m per pair), and its central ``confidence`` percentiles."""
    draws = sweeps.bradley_terry_trials(sweeps.matches(quality), rng, n_trials)
    relevant = quality.columns.isin(list(originals))
    aps = np.array([average_precision_score(relevant, row) for row in draws])
    tail = (1 - confidence) / 2 * 100
    return float(np.percentile(aps, tail)), float(np.percentile(aps, 100 - tail))


def copies_experiment(measures: pd.DataFrame, quality: pd.DataFrame, originals, *, rng, n_trials: int):
    """Measures (one row per model, originals and copies) joined with BT from ``quality`` on every instance, and
    the AP of every measure at putting the originals on top, BT's with its interval."""
    table = measures.join(sweeps.bradley_terry_all(sweeps.matches(quality)))
    ap = copies_ap(table, originals).to_frame()
    ap["ap_low"], ap["ap_high"] = np.nan, np.nan
    ap.loc["bt", ["ap_low", "ap_high"]] = bt_ap_interval(quality, originals, rng=rng, n_trials=n_trials)
    return table, ap


# -- SST-5: baselines trained here (Appendix B, Tables 3 and 5) -----------------------------------------------------


def sst5_values(baselines: pd.DataFrame) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Gold labels (sentences in order), and per model its predicted classes and (sentences x 5) decision
    values."""
    score_columns = [f"score_{c}" for c in CLASSES]
    labels, predictions, values = None, {}, {}
    for model, rows in baselines.groupby("model", sort=False):
        rows = rows.sort_values("sentence")
        if labels is None:
            labels = rows["label"].to_numpy()
        elif not np.array_equal(labels, rows["label"].to_numpy()):
            raise ValueError(f"model {model!r} is scored on other sentences or labels than the first model")
        predictions[model] = rows["prediction"].to_numpy()
        values[model] = rows[score_columns].to_numpy()
    return labels, predictions, values


def most_confident(values: np.ndarray) -> np.ndarray:
    """The class with the highest decision value (Sec. 5: binarising puts 1 on "each model's most confident
    response"); for prrao87's SVM and lexicon models this can differ from the class their classifier predicts."""
    return np.array(CLASSES)[np.asarray(values).argmax(axis=1)]


def sst5_quality(baselines: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(test sentences x models) decision value of the gold class (Sec. 5: "treating the model with the higher
    confidence score in each pairing as the winner"), and the same after binarising (1 for the most confident
    class, 0 for the others: 1 if that class is the gold one)."""
    labels, _, values = sst5_values(baselines)
    rows = np.arange(len(labels))
    gold = pd.DataFrame({m: v[rows, labels - 1] for m, v in values.items()})
    binary = pd.DataFrame({m: (most_confident(v) == labels).astype(float) for m, v in values.items()})
    return gold, binary


def sst5_measures(labels: np.ndarray, predictions: dict, values: dict) -> pd.DataFrame:
    """Accuracy, support-weighted F1 (which reproduces the paper's B.1) and MAE between the one-hot gold vector and
    the decision values (averaged over the five classes), one row per model."""
    gold = one_hot(labels)
    return pd.DataFrame({m: {"acc": accuracy_score(labels, predictions[m]),
                             "f1": f1_score(labels, predictions[m], average="weighted"),
                             "mae": float(np.abs(gold - values[m]).mean())} for m in predictions}).T


def appendix_b1(baselines: pd.DataFrame, *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix B.1 for the models trained here: accuracy, F1, BT on gold-class decision values with its 95%
    interval, and BT on binarised decision values (Table 3's BTbin), next to the paper's rows."""
    labels, predictions, values = sst5_values(baselines)
    gold, binary = sst5_quality(baselines)
    table = sst5_measures(labels, predictions, values)[["acc", "f1"]].join(_bt(gold, rng, n_trials))
    table["bt_bin"] = sweeps.bradley_terry_all(sweeps.matches(binary))
    theirs = published.frame("gvp", "appendix_b1").set_index("model").add_prefix("paper_")
    return table.join(theirs, how="outer").loc[list(theirs.index)].rename_axis("model")


def appendix_b2(baselines: pd.DataFrame, *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix B.2: the binarised models (1 on the most confident class, 0 elsewhere) on their own — accuracy and F1
    of that class, BT with its interval — next to the paper's rows."""
    labels, _, values = sst5_values(baselines)
    _, binary = sst5_quality(baselines)
    hard = {m: most_confident(v) for m, v in values.items()}
    table = sst5_measures(labels, hard, values)[["acc", "f1"]].join(_bt(binary, rng, n_trials))
    theirs = published.frame("gvp", "appendix_b2").set_index("model").add_prefix("paper_")
    return table.join(theirs, how="outer").loc[list(theirs.index)].rename_axis("model")


def sst5_copies(baselines: pd.DataFrame, kind: str, *, rng, n_trials: int):
    """Table 5: the five models and their adjusted copies — ``kind`` "binarized" (decision values one-hot on the most
    confident class) or "penalized" (one-hot only where that class is wrong) —: accuracy and F1 (of the classifier's
    predictions for the originals, of the most confident class for the copies), MAE, BT; and each measure's AP at
    ranking the originals on top."""
    if kind not in ("binarized", "penalized"):
        raise ValueError(f"kind must be 'binarized' or 'penalized', got {kind!r}")
    labels, predictions, values = sst5_values(baselines)
    prefix = kind.capitalize()
    copy_predictions, copy_values = {}, {}
    for m, v in values.items():
        hard = most_confident(v)
        adjusted = one_hot(hard)
        if kind == "penalized":
            adjusted = np.where((hard == labels)[:, None], v, adjusted)
        copy_predictions[f"{prefix} {m}"], copy_values[f"{prefix} {m}"] = hard, adjusted
    predictions, values = {**predictions, **copy_predictions}, {**values, **copy_values}
    rows = np.arange(len(labels))
    quality = pd.DataFrame({m: v[rows, labels - 1] for m, v in values.items()})
    originals = [m for m in predictions if m not in copy_predictions]
    return copies_experiment(sst5_measures(labels, predictions, values), quality, originals, rng=rng,
                             n_trials=n_trials)


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


# -- the binary stand-in for Jigsaw (Appendix A, Tables 2 and 4) ----------------------------------------------------


def binary_scores(table: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """Gold labels (0/1, indexed by sentence) and the (sentences x models) P(positive) of the
    ``sst5_binary_baselines`` table, models in table order."""
    scores = table.pivot(index="sentence", columns="model", values="score")[list(table["model"].unique())]
    labels = table.drop_duplicates("sentence").set_index("sentence")["label"].loc[scores.index]
    if scores.isna().any().any():
        raise ValueError("some model has no score for some test sentence")
    return labels.astype(int), scores.rename_axis(columns=None)


def binary_quality(scores: pd.DataFrame, labels: pd.Series) -> pd.DataFrame:
    """Closeness to the gold label, -|label - P(positive)| (higher is better): the match function g."""
    return -(scores.sub(labels, axis=0).abs())


def binarise(scores: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5-6: each decision value rounded to the nearest integer (0.5 goes to 0), the class the model predicts."""
    return (scores > 0.5).astype(float)


def penalise_errors(scores: pd.DataFrame, labels: pd.Series) -> pd.DataFrame:
    """Sec. 6, "Penalized Decision Values": binarised where the model is wrong (its decision value pushed to the
    wrong extreme), unchanged where it is right."""
    hard = binarise(scores)
    return scores.mask(hard.ne(labels, axis=0), hard)


def binary_measures(scores: pd.DataFrame, labels: pd.Series) -> pd.DataFrame:
    """Accuracy, ROC AUC and positive-class F1 of the thresholded decision values, and MAE between the label and
    the decision value; one row per model."""
    hard = binarise(scores)
    return pd.DataFrame({m: {"acc": accuracy_score(labels, hard[m]), "auc": roc_auc_score(labels, scores[m]),
                             "f1": f1_score(labels, hard[m]),
                             "mae": float((scores[m] - labels).abs().mean())} for m in scores.columns}).T


def appendix_a1(scores: pd.DataFrame, labels: pd.Series, *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix A.1's columns for the stand-in: Acc, AUC, BT with its interval, F1, and BT on binarised decision
    values (BTbin), sorted by accuracy as the paper's table is; and, not in the paper, each model's *sharpness*,
    the mean distance of its decision values from 0.5."""
    table = binary_measures(scores, labels)[["acc", "auc", "f1"]]
    table = table.join(_bt(binary_quality(scores, labels), rng, n_trials))
    table["bt_bin"] = sweeps.bradley_terry_all(sweeps.matches(binary_quality(binarise(scores), labels)))
    table["sharpness"] = (scores - 0.5).abs().mean()
    return table[["acc", "auc", "bt", "bt_low", "bt_high", "f1", "bt_bin", "sharpness"]].sort_values(
        "acc", ascending=False).rename_axis("model")


def binary_copies(scores: pd.DataFrame, labels: pd.Series, copies: pd.DataFrame, prefix: str, *, rng,
                  n_trials: int):
    """Appendix A.2 / A.3 and Table 4 for the stand-in: the models and their ``copies`` (named "<prefix> <model>")
    side by side: accuracy, 1 - MAE (the paper's "Accuracy" column there), AUC, BT, F1; and each measure's AP."""
    both = scores.join(copies.add_prefix(f"{prefix} "))
    measures = binary_measures(both, labels)
    table, ap = copies_experiment(measures, binary_quality(both, labels), scores.columns, rng=rng, n_trials=n_trials)
    table.insert(1, "one_minus_mae", 1 - table["mae"])
    return table.rename_axis("model"), ap.loc[["mae", "auc", "bt", "f1"]]


def ap_versus_paper(ours: dict[str, pd.DataFrame], item: str) -> pd.DataFrame:
    """Tables 4-5: one row per (experiment, measure) — AP here (BT's from every instance, with the interval over
    sampled match sets) and the paper's (BT's as the interval it prints). ``ours`` maps "binary" / "penalized" to
    a :func:`copies_experiment` AP frame; ``item`` is "table4" or "table5"."""
    paper = published.item("gvp", item)
    rows = []
    for experiment, ap in ours.items():
        printed = paper.get(f"{experiment}_ap", {})
        bt = paper.get(f"bt_{experiment}", [np.nan, np.nan])
        for measure, row in ap.iterrows():
            rows.append({"experiment": experiment, "measure": measure, "ap": row["ap"], "ap_low": row["ap_low"],
                         "ap_high": row["ap_high"], "paper_ap": printed.get(measure, np.nan),
                         "paper_low": bt[0] if measure == "bt" else np.nan,
                         "paper_high": bt[1] if measure == "bt" else np.nan})
    return pd.DataFrame(rows)


# -- sentences for the notebook --------------------------------------------------------------------------------------


def _ap(table: pd.DataFrame, experiment: str, measure: str, column: str = "ap") -> float:
    return float(table.set_index(["experiment", "measure"]).loc[(experiment, measure), column])


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
