"""Baselines trained here for Levtsov & Ustalov (2025): the ``sst5_baselines`` table (Sec. 4, Appendix B) and the
``sst5_binary_baselines`` table, the binary task standing in for the unreachable Jigsaw submissions (Sec. 5-6,
Appendix A).

The paper re-ran the eight baselines of prrao87/fine-grained-sentiment. The five that need no pretrained weights are
trained or applied here on the registered SST-5 files, with nothing downloaded: VADER and TextBlob (their lexicons
ship with the packages), TF-IDF + logistic regression, TF-IDF + linear SVM (scikit-learn) and fastText. Flair-ELMo,
Flair-BERT and the fine-tuned Transformer need pretrained weights and are left out.

Every model gives a predicted class and five *decision values* per test sentence, one per class 1-5, following
prrao87's code, which the paper re-ran: predictions as its ``classifiers.py`` makes them (with them, accuracy and F1
of TextBlob, VADER, logistic regression and the SVM reproduce Appendix B.1 exactly), decision values as its
``explainer.py`` makes them, the only class scores that code produces:

* TextBlob and VADER: the score cut into five equal-width bins over the test set's range (``pd.cut``) predicts;
  the decision values are the explainer's *simulated* probabilities, a normal density (sd 0.5) centred on a class
  binned from the score — for VADER from the compound score without the offset TextBlob's explainer applies, as in
  that code (so every VADER score below 0.2 is centred on class 1);
* logistic regression: word counts, TF-IDF, multinomial logistic regression (newton-cg), its probabilities;
* SVM: the hinge-loss linear SGD classifier predicts; the decision values are the probabilities of the explainer's
  modified-Huber SGD classifier (same features and regularisation), the only SVM class scores in that code;
* fastText: prrao87's hyper-parameters (100 epochs, lr 0.5, word 3-grams, window 3, dimension 100), trained on the
  shuffled training file (see :func:`_fasttext`), its probabilities.

Training uses the train split only, single-threaded with fixed seeds, so the table is deterministic; the table
system rebuilds it only when the SST-5 files, the package versions or :data:`REVISION` change (:func:`provenance`).

The binary stand-in: SST-5's sentences without the neutral class, labels 1-2 negative (0) and 4-5 positive (1) —
the sentence-level binary SST, 6,920 training and 1,821 test sentences. Eight models give one decision value per
test sentence, the probability of the positive class: TF-IDF logistic regression, a linear SVM calibrated by
scikit-learn's 5-fold sigmoid (Platt) calibration, multinomial naive Bayes on word counts, fastText, 15-nearest
neighbours (cosine on TF-IDF; its probabilities are multiples of 1/15), VADER's compound score and TextBlob's
polarity mapped from [-1, 1] to [0, 1], and a fully grown decision tree on word counts whose decision values are
its 0/1 predictions — the model that "outputs only decision values of 0 or 1", like the paper's XGBoost.
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
BINARY_MODELS = ("Logistic Regression", "Calibrated SVM", "Naive Bayes", "fastText", "15-NN", "VADER", "TextBlob",
                 "Decision Tree")
SST5_BINARY_BASELINES = {"model": "string", "sentence": "int64", "label": "int8", "score": "float64"}


#: bump when the training changes: the tables are rebuilt when their provenance differs from the recorded one
REVISION = 3


def provenance() -> dict:
    return {"revision": REVISION, "packages": {p: version(p) for p in PACKAGES}}


def _binned(scores: np.ndarray) -> np.ndarray:
    """prrao87's ``classifiers.py`` rule for a lexicon score: five equal-width bins over the observed range."""
    return np.asarray(pd.cut(scores, bins=5, labels=list(CLASSES)), dtype=int)


def simulated_scores(centres: np.ndarray) -> np.ndarray:
    """prrao87's ``explainer.py`` class scores for a lexicon model: a normal density (sd 0.5) over the classes 1-5
    centred on ``centres`` (which may be 6: its binning lets the top score fall outside the classes)."""
    from scipy.stats import norm

    return norm.pdf(np.array(CLASSES)[None, :], centres[:, None], scale=0.5)


def one_hot(classes) -> np.ndarray:
    """(items x 5) indicator of each item's class among :data:`CLASSES`."""
    return (np.asarray(classes)[:, None] == np.array(CLASSES)[None, :]).astype(float)


def _lexicon_scores(texts) -> tuple[np.ndarray, np.ndarray]:
    """TextBlob's polarity and VADER's compound score per text, both in [-1, 1]."""
    from textblob import TextBlob
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    vader = SentimentIntensityAnalyzer()
    return (np.array([TextBlob(t).sentiment.polarity for t in texts]),
            np.array([vader.polarity_scores(t)["compound"] for t in texts]))


def _lexicon(test: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    polarity, compound = _lexicon_scores(test["text"])
    classes = np.array(CLASSES)
    return {"TextBlob": (_binned(polarity), simulated_scores(np.digitize(5 * (polarity + 1) / 2, classes) + 1)),
            "VADER": (_binned(compound), simulated_scores(np.digitize(5 * compound, classes) + 1))}


def _linear(train: pd.DataFrame, test: pd.DataFrame) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """prrao87's scikit-learn pipelines (word counts, TF-IDF, classifier; their seeds and iteration limits)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
    from sklearn.linear_model import LogisticRegression, SGDClassifier
    from sklearn.pipeline import make_pipeline

    def fit(classifier):
        model = make_pipeline(CountVectorizer(), TfidfTransformer(), classifier).fit(train["text"], train["label"])
        if list(model.classes_) != list(CLASSES):
            raise ValueError("SST-5 training labels are not exactly the classes 1-5")
        return model

    sgd = {"penalty": "l2", "alpha": 1e-3, "random_state": 42, "max_iter": 100, "tol": None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # max_iter=100 as in prrao87's code
        lr = fit(LogisticRegression(solver="newton-cg", random_state=42, max_iter=100))
    hinge = fit(SGDClassifier(loss="hinge", learning_rate="optimal", **sgd))
    huber = fit(SGDClassifier(loss="modified_huber", **sgd))
    return {"Logistic Regression": (lr.predict(test["text"]), lr.predict_proba(test["text"])),
            "SVM": (hinge.predict(test["text"]), huber.predict_proba(test["text"]))}


def _fasttext(train: pd.DataFrame, test: pd.DataFrame, classes=CLASSES) -> np.ndarray:
    """(test sentences x classes) fastText probabilities with prrao87's hyper-parameters; ``train["label"]`` holds
    the values of ``classes``."""
    import fasttext

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "train.txt")
        with open(path, "w", encoding="utf-8") as fh:
            # SST's training file is grouped by sentiment, and fastText's SGD sees lines in file order: shuffled
            # once, with a fixed seed, as fastText's documentation advises
            for row in np.random.default_rng(0).permutation(len(train)):
                fh.write(f"__label__{train['label'].iat[row]} {train['text'].iat[row]}\n")
        model = fasttext.train_supervised(path, epoch=100, lr=0.5, wordNgrams=3, ws=3, dim=100, thread=1, seed=0,
                                          verbose=0)
    column = {c: k for k, c in enumerate(classes)}
    out = np.zeros((len(test), len(classes)))
    for row, text in enumerate(test["text"]):
        labels, probabilities = model.predict(text.replace("\n", " "), k=len(classes))
        for label, p in zip(labels, probabilities):
            out[row, column[int(label.removeprefix("__label__"))]] = p
    return out


def build_baselines(root=None) -> tuple[pd.DataFrame, list]:
    """Train / apply the five baselines; one row per (model, test sentence): its predicted class and its five
    decision values."""
    sst5, files = build_sst5(root)
    train = sst5[sst5["split"] == "train"].reset_index(drop=True)
    test = sst5[sst5["split"] == "test"].reset_index(drop=True)
    fasttext_values = _fasttext(train, test)
    scores = {**_lexicon(test), **_linear(train, test),
              "fastText": (np.array(CLASSES)[fasttext_values.argmax(axis=1)], fasttext_values)}
    parts = []
    for model in MODELS:
        prediction, values = scores[model]
        frame = pd.DataFrame({"model": model, "sentence": test["sentence"].to_numpy(),
                              "label": test["label"].to_numpy(), "prediction": prediction.astype("int8")})
        for k, c in enumerate(CLASSES):
            frame[f"score_{c}"] = values[:, k]
        parts.append(frame)
    return pd.concat(parts, ignore_index=True), files


def _binary_split(sst5: pd.DataFrame, split: str) -> pd.DataFrame:
    rows = sst5[(sst5["split"] == split) & (sst5["label"] != 3)]
    return rows.assign(label=(rows["label"] > 3).astype("int8")).reset_index(drop=True)


def _binary_scores(train: pd.DataFrame, test: pd.DataFrame) -> dict[str, np.ndarray]:
    """P(positive) per test sentence for the eight binary models (module docstring)."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.svm import LinearSVC
    from sklearn.tree import DecisionTreeClassifier

    tfidf = TfidfVectorizer(lowercase=True, ngram_range=(1, 2), min_df=1)
    x_train, x_test = tfidf.fit_transform(train["text"]), tfidf.transform(test["text"])
    counts = CountVectorizer(lowercase=True)
    c_train, c_test = counts.fit_transform(train["text"]), counts.transform(test["text"])
    y = train["label"].to_numpy()
    polarity, compound = _lexicon_scores(test["text"])
    return {
        "Logistic Regression": LogisticRegression(max_iter=2000).fit(x_train, y).predict_proba(x_test)[:, 1],
        "Calibrated SVM": CalibratedClassifierCV(LinearSVC(random_state=0), cv=5).fit(x_train, y)
        .predict_proba(x_test)[:, 1],
        "Naive Bayes": MultinomialNB().fit(c_train, y).predict_proba(c_test)[:, 1],
        "fastText": _fasttext(train, test, classes=(0, 1))[:, 1],
        "15-NN": KNeighborsClassifier(n_neighbors=15, metric="cosine").fit(x_train, y).predict_proba(x_test)[:, 1],
        "VADER": (compound + 1) / 2,
        "TextBlob": (polarity + 1) / 2,
        "Decision Tree": DecisionTreeClassifier(random_state=0).fit(c_train, y).predict(c_test).astype(float),
    }


def build_binary_baselines(root=None) -> tuple[pd.DataFrame, list]:
    """Train / apply the eight binary models; one row per (model, test sentence) with P(positive)."""
    sst5, files = build_sst5(root)
    train, test = _binary_split(sst5, "train"), _binary_split(sst5, "test")
    scores = _binary_scores(train, test)
    parts = [pd.DataFrame({"model": model, "sentence": test["sentence"].to_numpy(), "label": test["label"].to_numpy(),
                           "score": np.clip(scores[model], 0.0, 1.0)}) for model in BINARY_MODELS]
    return pd.concat(parts, ignore_index=True), files


TABLES = (Table("sst5_baselines", SST5_BASELINES, ("sst5",), build_baselines, provenance),
          Table("sst5_binary_baselines", SST5_BINARY_BASELINES, ("sst5",), build_binary_baselines, provenance))
