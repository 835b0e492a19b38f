"""Levtsov & Ustalov (2025), Secs. 5-6 and Appendices A-B: SST-5 with the baselines trained here (B.1-B.2, Tables
3 and 5) and the binary stand-in for the unreachable Jigsaw submissions (A.1-A.3, Tables 2 and 4). A match goes to
the model whose decision value is closer to the gold answer (Sec. 3's g); the *copies* experiments of Sec. 6 add a
binarised or penalised copy of every model and ask, by average precision, whether a measure still ranks the
originals above them."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.metrics import accuracy_score, average_precision_score, f1_score, roc_auc_score

from ... import aggregate, sweeps
from ...data import published
from ...data.baselines import CLASSES, one_hot, simulated_scores
from ...sweeps import copies_ap
from ...validation import check_rng
from .views import names, place, ranking


def _bt(quality: pd.DataFrame, rng, n_trials: int) -> pd.DataFrame:
    return sweeps.bradley_terry_interval(sweeps.matches(quality), rng, n_trials)


def spearman_table(scores: pd.DataFrame, columns) -> pd.DataFrame:
    """Spearman correlations between the models' scores under each measure (Tables 2, 3, 7), rounded as printed."""
    return scores[list(columns)].corr(method="spearman").round(2)


def published_matrix(name: str) -> pd.DataFrame:
    """A correlation table as the paper prints it (``table2``, ``table3``, ``table7``)."""
    item = published.item("gvp", name)
    return pd.DataFrame(item["matrix"], index=item["columns"], columns=item["columns"])


def correlation_values(matrix: pd.DataFrame, item: str) -> dict:
    """Claim values: a correlation table's upper triangle, ``{"<item> <a>-<b>": value}`` in column order."""
    return {f"{item} {a}-{b}": float(matrix.loc[a, b]) for a, b in itertools.combinations(matrix.columns, 2)}


def with_bt_interval(ap: pd.DataFrame, quality: pd.DataFrame, originals, *, rng, n_trials: int,
                     confidence: float = 0.95) -> pd.DataFrame:
    """``ap`` (a row per measure) with BT's 95% interval as the paper gives it (Tables 4-6), over sampled match sets."""
    draws = sweeps.bradley_terry_trials(sweeps.matches(quality), rng, n_trials)
    relevant = quality.columns.isin(list(originals))
    aps = np.array([average_precision_score(relevant, row) for row in draws])
    tail = (1 - confidence) / 2 * 100
    ap = ap.assign(ap_low=np.nan, ap_high=np.nan)
    ap.loc["bt", ["ap_low", "ap_high"]] = float(np.percentile(aps, tail)), float(np.percentile(aps, 100 - tail))
    return ap


def copies_experiment(measures: pd.DataFrame, quality: pd.DataFrame, originals, *, rng, n_trials: int):
    """Sec. 6: the measures joined with BT, and each measure's AP of the originals on top (BT's with its interval)."""
    table = measures.join(aggregate.bradley_terry(quality))
    return table, with_bt_interval(copies_ap(table, originals).to_frame(), quality, originals, rng=rng,
                                   n_trials=n_trials)


def ap_versus_paper(ours: dict[str, pd.DataFrame], item: str) -> pd.DataFrame:
    """Tables 4-5: per (experiment, measure) our AP (:func:`copies_experiment`) and the paper's (BT: its interval)."""
    paper = published.item("gvp", item)
    table = pd.concat(ours, names=["experiment", "measure"]).reset_index()
    keys = list(zip(table["experiment"], table["measure"]))
    table["paper_ap"] = [paper.get(f"{e}_ap", {}).get(m, np.nan) for e, m in keys]
    table["paper_low"], table["paper_high"] = zip(*[paper.get(f"bt_{e}", [np.nan] * 2) if m == "bt"
                                                    else [np.nan] * 2 for e, m in keys])
    return table


def sst5_arrays(baselines: pd.DataFrame) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Gold labels, and per model its predicted classes and (sentences x 5) decision values."""
    models = {m: rows.sort_values("sentence") for m, rows in baselines.groupby("model", sort=False)}
    labels = next(iter(models.values()))["label"].to_numpy()
    for model, rows in models.items():
        if not np.array_equal(labels, rows["label"].to_numpy()):
            raise ValueError(f"model {model!r} is scored on other sentences or labels than the first model")
    return (labels, {m: rows["prediction"].to_numpy() for m, rows in models.items()},
            {m: rows[[f"score_{c}" for c in CLASSES]].to_numpy() for m, rows in models.items()})


def _gold_class(values: dict, labels: np.ndarray) -> pd.DataFrame:
    """(sentences x models) decision value of the gold class."""
    return pd.DataFrame({m: v[np.arange(len(labels)), labels - 1] for m, v in values.items()})


#: the models whose decision values prrao87's explainer simulates (a normal density around a class)
LEXICON = ("TextBlob", "VADER")


def centre_lexicon(baselines: pd.DataFrame, models=LEXICON) -> pd.DataFrame:
    """The lexicon models' simulated decision values centred on the class they predict, not on the explainer's
    binning (Sec. 5 takes the class with the highest decision value as the output)."""
    unknown = set(models) - set(baselines["model"])
    if unknown:
        raise ValueError(f"no such model in the baselines: {sorted(unknown)}")
    out = baselines.copy()
    rows = out["model"].isin(list(models)).to_numpy()
    out.loc[rows, [f"score_{c}" for c in CLASSES]] = simulated_scores(out.loc[rows, "prediction"].to_numpy(float))
    return out


def most_confident(values: np.ndarray) -> np.ndarray:
    """The class with the highest decision value (Sec. 5's "most confident response"), not always the predicted one."""
    return np.array(CLASSES)[np.asarray(values).argmax(axis=1)]


#: the two readings of Sec. 5's binarisation, "assigning 1 to each model's most confident response and 0 to all
#: others, i.e., by rounding each output to the nearest integer": "argmax" (1 on the most confident class, the
#: chapter's reading) and "round" (each class's decision value rounded on its own, so a sentence whose most
#: confident class is below 0.5 gets no class at all)
BINARISATIONS = ("argmax", "round")


def binarised(values: np.ndarray, reading: str = "argmax") -> np.ndarray:
    """Decision values binarised by ``reading`` (:data:`BINARISATIONS`); rounding sends 0.5 to 0."""
    if reading not in BINARISATIONS:
        raise ValueError(f"reading must be one of {BINARISATIONS}, got {reading!r}")
    values = np.asarray(values, dtype=float)
    return one_hot(most_confident(values)) if reading == "argmax" else np.rint(values).clip(0, 1)


def binarised_class(values: np.ndarray, reading: str = "argmax") -> np.ndarray:
    """The class a binarised model answers: its class with a 1, 0 (never right) where it has none."""
    hard = binarised(values, reading)
    return np.where(hard.any(axis=1), np.array(CLASSES)[hard.argmax(axis=1)], 0)


def sst5_quality(baselines: pd.DataFrame, reading: str = "argmax") -> tuple[pd.DataFrame, pd.DataFrame]:
    """(sentences x models) decision value of the gold class (Sec. 5: the more confident wins), raw and binarised."""
    labels, _, values = sst5_arrays(baselines)
    return _gold_class(values, labels), _gold_class({m: binarised(v, reading) for m, v in values.items()}, labels)


def sst5_measures(labels: np.ndarray, predictions: dict, values: dict) -> pd.DataFrame:
    """Accuracy, support-weighted F1 (which reproduces B.1) and MAE against the one-hot gold, one row per model."""
    gold = one_hot(labels)
    return pd.DataFrame({m: {"acc": accuracy_score(labels, predictions[m]),
                             "f1": f1_score(labels, predictions[m], average="weighted"),
                             "mae": float(np.abs(gold - values[m]).mean())} for m in predictions}).T


def _with_paper(table: pd.DataFrame, item: str) -> pd.DataFrame:
    """``table`` next to the paper's appendix ``item`` (columns "paper_..."), in the paper's model order."""
    theirs = published.frame("gvp", item).set_index("model").add_prefix("paper_")
    return table.join(theirs, how="outer").loc[list(theirs.index)].rename_axis("model")


def sst5_point_measures(baselines: pd.DataFrame) -> pd.DataFrame:
    """Table 3's columns for the models trained here (Appendix B.1), BT and BTbin from every sentence."""
    labels, predictions, values = sst5_arrays(baselines)
    gold, binary = sst5_quality(baselines)
    table = sst5_measures(labels, predictions, values)[["acc", "f1"]]
    table["bt"], table["bt_bin"] = aggregate.bradley_terry(gold), aggregate.bradley_terry(binary)
    return table[["acc", "bt", "f1", "bt_bin"]]


def appendix_b1(baselines: pd.DataFrame, *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix B.1 for the models trained here, with BT's 95% interval, next to the paper's rows."""
    point = sst5_point_measures(baselines)
    table = point[["acc", "f1"]].join(_bt(sst5_quality(baselines)[0], rng, n_trials)).join(point["bt_bin"])
    return _with_paper(table, "appendix_b1")


def appendix_b2(baselines: pd.DataFrame, *, rng, n_trials: int, reading: str = "argmax") -> pd.DataFrame:
    """Appendix B.2: the models binarised by ``reading`` on their own, next to the paper's rows."""
    labels, _, values = sst5_arrays(baselines)
    hard = {m: binarised_class(v, reading) for m, v in values.items()}
    table = sst5_measures(labels, hard, values)[["acc", "f1"]]
    return _with_paper(table.join(_bt(sst5_quality(baselines, reading)[1], rng, n_trials)), "appendix_b2")


def sst5_copies(baselines: pd.DataFrame, kind: str, *, rng, n_trials: int):
    """Table 5: the models and their copies, ``kind`` "binarized" (one-hot on the most confident class) or
    "penalized" (one-hot only where that class is wrong), and each measure's AP (:func:`copies_experiment`)."""
    if kind not in ("binarized", "penalized"):
        raise ValueError(f"kind must be 'binarized' or 'penalized', got {kind!r}")
    labels, predictions, values = sst5_arrays(baselines)
    originals = list(values)
    for m in originals:
        hard = most_confident(values[m])
        right = (hard == labels)[:, None] if kind == "penalized" else False
        predictions[f"{kind.capitalize()} {m}"] = hard
        values[f"{kind.capitalize()} {m}"] = np.where(right, values[m], one_hot(hard))
    return copies_experiment(sst5_measures(labels, predictions, values), _gold_class(values, labels), originals,
                             rng=rng, n_trials=n_trials)


def sst5_b2_facts(b2: pd.DataFrame, b1: pd.DataFrame) -> dict:
    """For the page, B.2, under the keys the page pastes: the binarised BT order, the models whose accuracy differs
    from B.1's (their most confident class is not always the predicted one), and the paper's B.2 against its B.1."""
    here = b2.dropna(subset=["acc"])
    changed = [m for m in here.index if not np.isclose(here.loc[m, "acc"], b1.loc[m, "acc"])]
    paper = published.frame("gvp", "appendix_b2").set_index("model")
    paper_b1 = published.frame("gvp", "appendix_b1").set_index("model").reindex(paper.index)
    return {"b2_order": ranking(here["bt"]), "b2_paper_top": str(b2["paper_bt"].idxmax()),
            "b2_changed": names(changed), "b2_paper_n": len(paper),
            "b2_paper_acc_lower": int((paper["acc"] < paper_b1["acc"]).sum()),
            "b2_paper_f1_same": int((paper["f1"] == paper_b1["f1"]).sum())}


def sst5_values(b1: pd.DataFrame, b2: pd.DataFrame, b2_rounded: pd.DataFrame, ties: dict, at_marker: dict) -> dict:
    """Claim values, SST-5 (Appendix B, §5): the SVM's BT place in B.1 and in B.2 by both readings; per reading
    ("binarised", "rounded") the share of ties and of sampled sets at 12·m·ln m that change BT's ranking."""
    changed = {k: float(curve["changed_share"].iloc[0]) for k, (curve, _) in at_marker.items()}
    return {"b1 svm bt place": place(b1["bt"].dropna(), "SVM"), "b2 svm bt place": place(b2["bt"].dropna(), "SVM"),
            "sst5 ties after binarising": float(ties["binarised"]),
            "sst5 binarised changed share at marker": changed["binarised"],
            "b2 rounded svm bt place": place(b2_rounded["bt"].dropna(), "SVM"),
            "sst5 rounded ties after binarising": float(ties["rounded"]),
            "sst5 rounded changed share at marker": changed["rounded"]}


def bt_place_interval(quality: pd.DataFrame, model: str, *, rng, n_resamples: int,
                      confidence: float = 0.95) -> dict:
    """``model``'s BT place (1 = first) on the (items x models) ``quality``, and over ``n_resamples`` bootstrap
    resamples of the items (one batched fit): the percentile interval of its place (``low``, ``high``) and the share of
    resamples in which it is first."""
    gen = check_rng(rng)
    values = quality.to_numpy(dtype=float)
    draws = values[gen.integers(0, len(values), (n_resamples, len(values)))]
    strengths = aggregate.bradley_terry_stack(draws, list(quality.columns)).strengths
    k = list(quality.columns).index(model)
    places = 1 + (strengths > strengths[:, [k]]).sum(axis=1)  # ties share the best place, as :func:`place`
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(places, tail, method="lower"), np.percentile(places, 100 - tail, method="higher")
    return {"value": place(aggregate.bradley_terry(quality), model), "low": float(low), "high": float(high),
            "first": float(np.mean(places == 1))}


def svm_top_rows(b1_quality: pd.DataFrame, b2_quality: pd.DataFrame, b1: pd.DataFrame, *, rng,
                 n_resamples: int) -> pd.DataFrame:
    """Claim values, the SVM on top of BT (§5, Appendices B.1-B.2) with an item bootstrap: per appendix its BT place
    with the 95% interval of its place (``svm bt place interval``) and the share of resamples it is first; and §5's
    pattern on B.1 (``b1 svm top above a higher-f1 model``): the number of models with a higher F1 than the SVM's
    that BT ranks below it, holding when there is one and the SVM is first in most resamples."""
    gen = check_rng(rng)
    rows = []
    for name, quality in (("B.1", b1_quality), ("B.2", b2_quality)):
        at = bt_place_interval(quality, "SVM", rng=gen, n_resamples=n_resamples)
        rows += [{"key": "svm bt place interval", "detail": name, "value": at["value"], "low": at["low"],
                  "high": at["high"]},
                 {"key": "svm first share", "detail": name, "value": at["first"]}]
        if name == "B.1":
            first = at["first"]
    strengths = aggregate.bradley_terry(b1_quality)
    f1 = b1["f1"].dropna()
    above = [m for m in f1.index if m != "SVM" and f1[m] > f1["SVM"] and strengths[m] < strengths["SVM"]]
    rows.append({"key": "b1 svm top above a higher-f1 model", "value": float(len(above)),
                 "holds": bool(above) and first > 0.5})
    return pd.DataFrame(rows)


def binary_scores(table: pd.DataFrame) -> tuple[pd.Series, pd.DataFrame]:
    """Gold labels (0/1) and (sentences x models) P(positive) of ``sst5_binary_baselines``."""
    scores = table.pivot(index="sentence", columns="model", values="score")[list(table["model"].unique())]
    if scores.isna().any().any():
        raise ValueError("some model has no score for some test sentence")
    labels = table.drop_duplicates("sentence").set_index("sentence")["label"].loc[scores.index]
    return labels.astype(int), scores.rename_axis(columns=None)


def majority_gold(scores: pd.DataFrame) -> tuple[pd.Series, int]:
    """The paper's Jigsaw gold (Sec. 4, "the majority vote from the model-generated responses") for the stand-in,
    an even split to the side of the mean decision value; and the number of even splits."""
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
    """Sec. 6, "Penalized Decision Values": binarised where the model is wrong, unchanged where it is right."""
    hard = binarise(scores)
    return scores.mask(hard.ne(labels, axis=0), hard)


def binary_measures(scores: pd.DataFrame, labels: pd.Series) -> pd.DataFrame:
    """Accuracy, ROC AUC and F1 of the thresholded decision values, and their MAE; one row per model."""
    hard = binarise(scores)
    return pd.DataFrame({m: {"acc": accuracy_score(labels, hard[m]), "auc": roc_auc_score(labels, scores[m]),
                             "f1": f1_score(labels, hard[m]),
                             "mae": float((scores[m] - labels).abs().mean())} for m in scores.columns}).T


def appendix_a1(scores: pd.DataFrame, labels: pd.Series, *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix A.1 for the stand-in, by accuracy, with (not in the paper) *sharpness*: mean |decision value - 0.5|."""
    table = binary_measures(scores, labels)[["acc", "auc", "f1"]].join(
        _bt(binary_quality(scores, labels), rng, n_trials))
    table["bt_bin"] = aggregate.bradley_terry(binary_quality(binarise(scores), labels))
    table["sharpness"] = (scores - 0.5).abs().mean()
    return table[["acc", "auc", "bt", "bt_low", "bt_high", "f1", "bt_bin", "sharpness"]].sort_values(
        "acc", ascending=False).rename_axis("model")


def binary_copies(scores: pd.DataFrame, labels: pd.Series, copies: pd.DataFrame, prefix: str, *, rng,
                  n_trials: int):
    """Appendix A.2 / A.3 and Table 4: the models and their ``copies`` ("<prefix> <model>"), with 1 - MAE (the
    paper's "Accuracy" column there), and each measure's AP."""
    both = scores.join(copies.add_prefix(f"{prefix} "))
    measures = binary_measures(both, labels)
    table, ap = copies_experiment(measures, binary_quality(both, labels), scores.columns, rng=rng, n_trials=n_trials)
    table.insert(1, "one_minus_mae", 1 - table["mae"])
    return table.rename_axis("model"), ap.loc[["mae", "auc", "bt", "f1"]]


def binary_a1_facts(a1: pd.DataFrame, table2: pd.DataFrame, zero_one: str = "Decision Tree",
                    paper_zero_one: str = "XGBoost") -> dict:
    """For the page, A.1 and Table 2, under the keys the page pastes: the 0/1 model's places (the paper's XGBoost's)
    and BT's correlations."""
    paper = published.frame("gvp", "appendix_a1").set_index("model")
    sharp = a1[["acc", "bt", "sharpness"]].corr(method="spearman")
    return {"a1_n": len(a1), "a1_acc_place": place(a1["acc"], zero_one), "a1_bt_place": place(a1["bt"], zero_one),
            "a1_paper_n": len(paper), "a1_paper_acc_place": place(paper["acc"], paper_zero_one),
            "a1_paper_bt_place": place(paper["bt"], paper_zero_one),
            "a1_bt_sharpness": float(sharp.loc["bt", "sharpness"]), "a1_bt_acc": float(sharp.loc["bt", "acc"]),
            "a1_bt_acc_without": float(
                a1.drop(index=zero_one)[["acc", "bt"]].corr(method="spearman").loc["acc", "bt"]),
            "a1_bt_auc": float(table2.loc["auc", "bt"]),
            "a1_global_min": float(min(table2.loc[a, b] for a, b in itertools.combinations(["acc", "auc", "f1"], 2))),
            "a1_btbin_acc": float(table2.loc["acc", "bt_bin"])}


def binary_values(a1: pd.DataFrame, table2: pd.DataFrame, a2: pd.DataFrame, a3: pd.DataFrame,
                  ties_binary: float, zero_one: str = "Decision Tree") -> dict:
    """Claim values, the stand-in (Appendix A, Table 2, §5), among them whether the binarised copies keep each
    global score's order (§5's "did not change any of the rankings built using global scores")."""
    glob, measures = ["acc", "auc", "f1"], ["acc", "auc", "f1", "mae"]
    bt = a1[["acc", "bt", "sharpness"]].corr(method="spearman").loc["bt"].abs()
    lead = bt["sharpness"] - bt["acc"]
    apart = table2.loc[glob, glob].min().min() - table2.loc["bt", glob].abs().max()  # the diagonal's 1 is no minimum
    originals, copies = a2.loc[a1.index], a2.loc[[f"Binarized {m}" for m in a1.index]].set_axis(a1.index)
    f1_gap = (copies["f1"] - originals["f1"]).abs().max()
    tree_gap = (a3.loc[f"Penalized {zero_one}", measures] - a3.loc[zero_one, measures]).abs().max()
    kept = {m: float(spearmanr(originals[m], copies[m]).statistic) for m in glob}
    return {"a1 zero-one accuracy place from bottom": int(a1["acc"].rank(method="min")[zero_one]),
            "a1 zero-one bt place": place(a1["bt"], zero_one),
            "bt follows sharpness over accuracy": (float(lead), bool(lead > 0)),
            "table2 global agree and bt apart": (float(apart), bool(apart > 0)),
            "a2 binarised copies keep f1": (float(f1_gap), bool(f1_gap <= 1e-8)),
            **{f"binarised keeps the {m} order": (rho, bool(rho > 1 - 1e-12)) for m, rho in kept.items()},
            "a3 penalised zero-one unchanged": (float(tree_gap), bool(tree_gap <= 1e-8)),
            "binary ties after binarising": float(ties_binary)}
