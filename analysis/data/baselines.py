"""SST-5 baselines trained here (Levtsov & Ustalov 2025, Sec. 4 and Appendix B): the ``sst5_baselines`` table.

The paper re-ran the eight baselines of prrao87/fine-grained-sentiment. The five that need no pretrained weights are
trained or applied here on the registered SST-5 files, with nothing downloaded: VADER and TextBlob (their lexicons
ship with the packages), TF-IDF + logistic regression, TF-IDF + linear SVM (scikit-learn) and fastText. Flair-ELMo,
Flair-BERT and the fine-tuned Transformer need pretrained weights and are left out.

Every model gives five *decision values* per test sentence, one per class 1-5 (higher = more confident):
logistic regression and fastText their class probabilities, the SVM its one-vs-rest margins (unbounded, as in the
paper's SVM), and the two lexicon models, which only produce a score in [-1, 1], a one-hot vector of the class that
the prrao87 code assigns (the score cut into five equal-width bins over the test set) — our reading, since the
paper gives no decision values for them. Training uses the train split only (fixed hyper-parameters, no tuning),
single-threaded with fixed seeds, so the table is deterministic; the table system rebuilds it only when the SST-5
files or the package versions change (:func:`provenance`).
"""

from __future__ import annotations

import os
import tempfile
from importlib.metadata import version

import numpy as np
import pandas as pd

from .gvp import build_sst5
from .registry import Table

MODELS = ("TextBlob", "VADER", "Logistic Regression", "SVM", "fastText")
CLASSES = (1, 2, 3, 4, 5)
SST5_BASELINES = {"model": "string", "sentence": "int64", "label": "int8", "prediction": "int8",
                  **{f"score_{c}": "float64" for c in CLASSES}}
PACKAGES = ("scikit-learn", "vaderSentiment", "textblob", "fasttext-numpy2")


def provenance() -> dict:
    return {"packages": {p: version(p) for p in PACKAGES}}


def _binned(scores: np.ndarray) -> np.ndarray:
    """prrao87's rule for a lexicon score: five equal-width bins over the observed range -> classes 1-5."""
    return np.asarray(pd.cut(scores, bins=5, labels=list(CLASSES)), dtype=int)


def _one_hot(classes: np.ndarray) -> np.ndarray:
    return (classes[:, None] == np.array(CLASSES)[None, :]).astype(float)


def _lexicon(test: pd.DataFrame) -> dict[str, np.ndarray]:
    from textblob import TextBlob
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    vader = SentimentIntensityAnalyzer()
    return {"TextBlob": _one_hot(_binned(np.array([TextBlob(t).sentiment.polarity for t in test["text"]]))),
            "VADER": _one_hot(_binned(np.array([vader.polarity_scores(t)["compound"] for t in test["text"]])))}


def _linear(train: pd.DataFrame, test: pd.DataFrame) -> dict[str, np.ndarray]:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    vectorizer = TfidfVectorizer(lowercase=True, ngram_range=(1, 2), min_df=1)
    x_train = vectorizer.fit_transform(train["text"])
    x_test = vectorizer.transform(test["text"])
    lr = LogisticRegression(max_iter=2000).fit(x_train, train["label"])
    svm = LinearSVC(random_state=0).fit(x_train, train["label"])
    if list(lr.classes_) != list(CLASSES) or list(svm.classes_) != list(CLASSES):
        raise ValueError("SST-5 training labels are not exactly the classes 1-5")
    return {"Logistic Regression": lr.predict_proba(x_test), "SVM": svm.decision_function(x_test)}


def _fasttext(train: pd.DataFrame, test: pd.DataFrame) -> np.ndarray:
    import fasttext

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "train.txt")
        with open(path, "w", encoding="utf-8") as fh:
            for label, text in zip(train["label"], train["text"]):
                fh.write(f"__label__{label} {text.lower()}\n")
        model = fasttext.train_supervised(path, epoch=25, lr=0.5, wordNgrams=2, dim=100, thread=1, seed=0,
                                          verbose=0)
    out = np.zeros((len(test), len(CLASSES)))
    for row, text in enumerate(test["text"]):
        labels, probabilities = model.predict(text.lower().replace("\n", " "), k=len(CLASSES))
        for label, p in zip(labels, probabilities):
            out[row, int(label.removeprefix("__label__")) - 1] = p
    return out


def build_baselines(root=None) -> tuple[pd.DataFrame, list]:
    """Train / apply the five baselines; one row per (model, test sentence) with its five decision values."""
    sst5, files = build_sst5(root)
    train = sst5[sst5["split"] == "train"].reset_index(drop=True)
    test = sst5[sst5["split"] == "test"].reset_index(drop=True)
    scores = {**_lexicon(test), **_linear(train, test), "fastText": _fasttext(train, test)}
    parts = []
    for model in MODELS:
        values = scores[model]
        frame = pd.DataFrame({"model": model, "sentence": test["sentence"].to_numpy(),
                              "label": test["label"].to_numpy(),
                              "prediction": np.array(CLASSES)[values.argmax(axis=1)]})
        for k, c in enumerate(CLASSES):
            frame[f"score_{c}"] = values[:, k]
        parts.append(frame)
    return pd.concat(parts, ignore_index=True), files


TABLES = (Table("sst5_baselines", SST5_BASELINES, ("sst5",), build_baselines, provenance),)
