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
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

from ... import aggregate, sweeps
from ...data import published
from ...data.baselines import CLASSES, one_hot, simulated_scores
from ...sweeps import copies_ap
from .shared import bt_ap_interval as bt_ap_interval


def _bt(quality: pd.DataFrame, rng, n_trials: int) -> pd.DataFrame:
    return sweeps.bradley_terry_interval(sweeps.matches(quality), rng, n_trials)


# -- average precision of the originals over their adjusted copies (Tables 4-6) ---------------------------------------


def copies_experiment(measures: pd.DataFrame, quality: pd.DataFrame, originals, *, rng, n_trials: int):
    """Measures (one row per model, originals and copies) joined with BT from ``quality`` on every instance, and
    the AP of every measure at putting the originals on top, BT's with its interval."""
    table = measures.join(aggregate.bradley_terry(quality))
    ap = copies_ap(table, originals).to_frame()
    ap["ap_low"], ap["ap_high"] = np.nan, np.nan
    ap.loc["bt", ["ap_low", "ap_high"]] = bt_ap_interval(quality, originals, rng=rng, n_trials=n_trials)
    return table, ap


# -- SST-5: baselines trained here (Appendix B, Tables 3 and 5) -------------------------------------------------------


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


#: the models whose decision values prrao87's explainer simulates (a normal density around a class)
LEXICON = ("TextBlob", "VADER")


def centre_lexicon(baselines: pd.DataFrame, models=LEXICON) -> pd.DataFrame:
    """The lexicon models' simulated decision values centred on the class they predict (the paper takes the class
    with the highest decision value as the model's output, Sec. 5), instead of on the explainer's own binning of
    the score; other models unchanged."""
    unknown = set(models) - set(baselines["model"])
    if unknown:
        raise ValueError(f"no such model in the baselines: {sorted(unknown)}")
    out = baselines.copy()
    rows = out["model"].isin(list(models)).to_numpy()
    out.loc[rows, [f"score_{c}" for c in CLASSES]] = simulated_scores(out.loc[rows, "prediction"].to_numpy(float))
    return out


def argmax_accuracy(baselines: pd.DataFrame) -> pd.DataFrame:
    """Per model: the accuracy of its predictions and of the class with its highest decision value (equal when the
    decision values agree with the predictions)."""
    labels, predictions, values = sst5_values(baselines)
    return pd.DataFrame({m: {"acc": float((predictions[m] == labels).mean()),
                             "argmax_acc": float((most_confident(values[m]) == labels).mean())}
                         for m in predictions}).T.rename_axis("model")


def most_confident(values: np.ndarray) -> np.ndarray:
    """The class with the highest decision value (Sec. 5: binarising puts 1 on "each model's most confident
    response"); for prrao87's SVM and lexicon models this can differ from the class their classifier predicts."""
    return np.array(CLASSES)[np.asarray(values).argmax(axis=1)]


#: the two readings of Sec. 5's binarisation, "assigning 1 to each model's most confident response and 0 to all
#: others, i.e., by rounding each output to the nearest integer": "argmax" (1 on the most confident class, the
#: chapter's reading) and "round" (each class's decision value rounded on its own, so a sentence whose most
#: confident class is below 0.5 gets no class at all)
BINARISATIONS = ("argmax", "round")


def binarised(values: np.ndarray, reading: str = "argmax") -> np.ndarray:
    """(sentences x 5) decision values binarised by ``reading`` (:data:`BINARISATIONS`); rounding (half to even)
    sends 0.5 to 0."""
    if reading not in BINARISATIONS:
        raise ValueError(f"reading must be one of {BINARISATIONS}, got {reading!r}")
    values = np.asarray(values, dtype=float)
    return one_hot(most_confident(values)) if reading == "argmax" else np.rint(values).clip(0, 1)


def binarised_class(values: np.ndarray, reading: str = "argmax") -> np.ndarray:
    """The class a binarised model answers: its class with a 1, 0 (no class, never right) where it has none."""
    hard = binarised(values, reading)
    return np.where(hard.any(axis=1), np.array(CLASSES)[hard.argmax(axis=1)], 0)


def sst5_quality(baselines: pd.DataFrame, reading: str = "argmax") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(test sentences x models) decision value of the gold class (Sec. 5: "treating the model with the higher
    confidence score in each pairing as the winner"), and the same after binarising by ``reading``
    (:data:`BINARISATIONS`; "argmax": 1 if the most confident class is the gold one)."""
    labels, _, values = sst5_values(baselines)
    rows = np.arange(len(labels))
    gold = pd.DataFrame({m: v[rows, labels - 1] for m, v in values.items()})
    binary = pd.DataFrame({m: binarised(v, reading)[rows, labels - 1] for m, v in values.items()})
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
    table["bt_bin"] = aggregate.bradley_terry(binary)
    theirs = published.frame("gvp", "appendix_b1").set_index("model").add_prefix("paper_")
    return table.join(theirs, how="outer").loc[list(theirs.index)].rename_axis("model")


def appendix_b2(baselines: pd.DataFrame, *, rng, n_trials: int, reading: str = "argmax") -> pd.DataFrame:
    """Appendix B.2: the models binarised by ``reading`` (:data:`BINARISATIONS`; "argmax": 1 on the most confident
    class, 0 elsewhere) on their own — accuracy and F1 of the class they then answer, BT with its interval — next to
    the paper's rows."""
    labels, _, values = sst5_values(baselines)
    _, binary = sst5_quality(baselines, reading)
    hard = {m: binarised_class(v, reading) for m, v in values.items()}
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


# -- the binary stand-in for Jigsaw (Appendix A, Tables 2 and 4) ------------------------------------------------------


def binary_scores(table: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """Gold labels (0/1, indexed by sentence) and the (sentences x models) P(positive) of the
    ``sst5_binary_baselines`` table, models in table order."""
    scores = table.pivot(index="sentence", columns="model", values="score")[list(table["model"].unique())]
    labels = table.drop_duplicates("sentence").set_index("sentence")["label"].loc[scores.index]
    if scores.isna().any().any():
        raise ValueError("some model has no score for some test sentence")
    return labels.astype(int), scores.rename_axis(columns=None)


def majority_gold(scores: pd.DataFrame) -> tuple[pd.Series, int]:
    """The paper's Jigsaw gold standard rebuilt the same way for the stand-in (Sec. 4: "the majority vote from the
    model-generated responses"): per sentence the class most models predict (decision value above 0.5); an even
    split (possible with an even number of models) goes to the side of the mean decision value, 0 when that is
    exactly 0.5. Returns the labels and the number of even splits."""
    votes = binarise(scores).sum(axis=1)
    half = scores.shape[1] / 2
    split = votes == half
    labels = (votes > half) | (split & (scores.mean(axis=1) > 0.5))
    return labels.astype(int).rename("label"), int(split.sum())


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
    table["bt_bin"] = aggregate.bradley_terry(binary_quality(binarise(scores), labels))
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
