"""The chapter's sampling experiments: Fig. 1's tie-probability sweep, Fig. 2's stability curves (with and without
synthetic ties), the three random binary models of Sec. 5 and Fig. 3's synthetic detection experiment."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ... import aggregate, sweeps
from ...agreement import spearman_rows, spearman_summary
from ...validation import check_count, check_rng

# -- Fig. 1: the tie-probability sweep --------------------------------------------------------------------------------


def tie_grid(step: float) -> np.ndarray:
    """0 to 1 by ``step`` (1 included), rounded so that 0.01 * k prints as itself."""
    return np.round(np.append(np.arange(0.0, 1.0, step), 1.0), 10)


def tie_sweep(quality: pd.DataFrame, probabilities, *, rng, n_trials: int) -> pd.DataFrame:
    """Fig. 1: for each tie probability, ``n_trials`` sampled match sets (12·m·ln m per pair, each match turned into a
    tie with that probability), BT on each, and its Spearman correlation with the models' mean quality. One row per
    probability: mean, 2.5% and 97.5% percentiles of the correlation, and the observed tie share."""
    m = sweeps.matches(quality)
    average = quality.mean().to_numpy()
    gen = np.random.default_rng(rng)
    rows = []
    for q in probabilities:
        strengths = sweeps.bradley_terry_trials(m, gen, n_trials, tie_probability=float(q))
        rho = spearman_rows(strengths, average)
        rows.append({"tie_probability": float(q), **spearman_summary(rho), "undefined": int(np.isnan(rho).sum())})
    return pd.DataFrame(rows)


# -- Fig. 2: comparisons needed for a stable ranking ------------------------------------------------------------------

#: comparisons per pair behind Fig. 2's reference ranking
REFERENCE_SIZE = 100_000


def stability_panels(panels: dict, sizes, rngs, *, n_trials: int, tie_probabilities=None) -> dict:
    """Fig. 2 on several datasets: ``panels`` maps a title to its (instances x models) quality frame, ``rngs`` gives
    one stream per panel, ``tie_probabilities`` (default none) one synthetic tie probability per panel; returns
    title -> (:func:`~analysis.sweeps.stability_curve`, 12·m·ln m)."""
    ties = [0.0] * len(panels) if tie_probabilities is None else list(tie_probabilities)
    out = {}
    for (title, quality), rng, p in zip(panels.items(), rngs, ties, strict=True):
        m = sweeps.matches(quality)
        out[title] = (sweeps.stability_curve(m, sizes, rng, n_trials=n_trials, reference_size=REFERENCE_SIZE,
                                             tie_probability=float(p)),
                      sweeps.sample_size(len(m.systems), 10**9))
    return out


def stability_at_marker(quality: pd.DataFrame, *, rng, n_trials: int) -> pd.DataFrame:
    """Fig. 2's measure at the red line only: :func:`~analysis.sweeps.stability_curve` at 12·m·ln m comparisons per
    pair (one row), against the ranking on :data:`REFERENCE_SIZE` comparisons per pair."""
    m = sweeps.matches(quality)
    return sweeps.stability_curve(m, [sweeps.sample_size(len(m.systems), 10**9)], rng, n_trials=n_trials,
                                  reference_size=REFERENCE_SIZE)


def tie_stability(quality: pd.DataFrame, probabilities, sizes, *, rng, n_trials: int) -> dict:
    """Fig. 2 on one dataset with synthetic ties: one :func:`~analysis.sweeps.stability_curve` per tie probability
    (each sampled match a tie with that probability; the reference untied), titled "<p> ties"."""
    streams = check_rng(rng).spawn(len(probabilities))
    return stability_panels({f"{float(p):.0%} added ties": quality for p in probabilities}, sizes, streams,
                            n_trials=n_trials, tie_probabilities=probabilities)


# -- Sec. 5: three random binary models -------------------------------------------------------------------------------


def random_binary_models(*, rng, n_instances: int = 1000, n_models: int = 3, n_repeats: int = 1000) -> pd.DataFrame:
    """Sec. 5's simulation, repeated: ``n_models`` models output uniform random labels for ``n_instances`` random
    binary gold labels. Per repetition: the models' accuracy, BT from every instance's matches (a model wins when it
    is right and the other wrong; both right or both wrong is a tie) and BT from one sample of 12·m·ln m matches per
    pair, and the Spearman correlations of the two BTs with accuracy; the mean accuracy, ROC AUC and F1 of the
    models (:func:`binary_global_scores`) and whether the three global scores order the models alike."""
    gen = np.random.default_rng(rng)
    rows = []
    for r in range(n_repeats):
        gold = gen.integers(0, 2, n_instances)
        predictions = gen.integers(0, 2, (n_instances, n_models))
        correct = pd.DataFrame((predictions == gold[:, None]).astype(float),
                               columns=[f"model {k + 1}" for k in range(n_models)])
        accuracy, auc, f1 = binary_global_scores(gold, predictions)
        m = sweeps.matches(correct)
        full = aggregate.bradley_terry(correct).to_numpy()
        sampled = sweeps.bradley_terry_trials(m, gen, 1)[0]
        ranks = [rankdata(s) for s in (accuracy, auc, f1)]
        rows.append({"repeat": r, "accuracy_spread": float(accuracy.max() - accuracy.min()),
                     "accuracy_mean": float(accuracy.mean()), "auc_mean": float(auc.mean()),
                     "f1_mean": float(f1.mean()),
                     "global_agree": bool(all(np.array_equal(ranks[0], x) for x in ranks[1:])),
                     "tie_share": m.tie_share(),
                     "spearman_full": float(spearman_rows(full[None], accuracy)[0]),
                     "spearman_sampled": float(spearman_rows(sampled[None], accuracy)[0])})
    return pd.DataFrame(rows)


def binary_global_scores(gold: np.ndarray, predictions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accuracy, ROC AUC and positive-class F1 of each column of 0/1 ``predictions`` against 0/1 ``gold`` (for 0/1
    scores ROC AUC is the mean of the true positive and true negative rates)."""
    gold = np.asarray(gold)[:, None].astype(bool)
    pred = np.asarray(predictions).astype(bool)
    tp, tn = (pred & gold).sum(axis=0), (~pred & ~gold).sum(axis=0)
    fp, fn = (pred & ~gold).sum(axis=0), (~pred & gold).sum(axis=0)
    accuracy = (tp + tn) / len(gold)
    auc = (tp / (tp + fn) + tn / (tn + fp)) / 2
    f1 = np.divide(2 * tp, 2 * tp + fp + fn, out=np.zeros(len(tp)), where=(2 * tp + fp + fn) > 0)
    return accuracy, auc, f1


def random_binary_summary(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "BT on every instance": table["spearman_full"].describe()[["mean", "min", "max"]],
        "BT on 12·m·ln m sampled matches": table["spearman_sampled"].describe()[["mean", "min", "max"]],
    }).T.assign(**{"share at -0.5": [float((table[c].round(2) == -0.5).mean()) for c in
                                      ("spearman_full", "spearman_sampled")]})


# -- Fig. 3: how large a difference can pairwise comparison see? ------------------------------------------------------

#: matches per repetition in Fig. 3: 12·m·ln m for two models (16) and for CEval's six (129), and 1,000
FIG3_SIZES = (16, 129, 1000)


def difference_grid(steps: int = 100) -> np.ndarray:
    """Fig. 3's grid: scaling factors from 0.9 to 1.0 in ``steps`` steps."""
    return np.linspace(0.9, 1.0, check_count(steps, "steps", minimum=2))


def detection_curve(factors, sizes=FIG3_SIZES, *, rng, n_repeats: int = 1000) -> pd.DataFrame:
    """Fig. 3, as we read its one-paragraph description: two models, A and B; on each of n instances A's decision
    value for the gold class is uniform on [0, 1] and B's is f times an independent uniform, f on the grid
    (1 - f is "the difference in class probability"). Per repetition, pairwise comparison ranks A first when A wins
    more of the n matches (with two models BT orders them by wins, ties as half), the global score when A's mean
    decision value is higher; an exact tie counts as half correct. One row per (n, f): the share of
    ``n_repeats`` repetitions ranking A first. The same draws serve every f (common random numbers)."""
    gen = check_rng(rng)
    n_repeats = check_count(n_repeats, "n_repeats")
    rows = []
    for n in sizes:
        a = gen.random((n_repeats, check_count(n, "size")))
        b = gen.random((n_repeats, n))
        for f in factors:
            margin = np.sign(a - f * b).sum(axis=1)
            gap = a.mean(axis=1) - f * b.mean(axis=1)
            rows.append({"matches": int(n), "factor": float(f), "difference": round(1 - float(f), 12),
                         "pairwise": float(((margin > 0) + 0.5 * (margin == 0)).mean()),
                         "global": float(((gap > 0) + 0.5 * (gap == 0)).mean())})
    return pd.DataFrame(rows)
