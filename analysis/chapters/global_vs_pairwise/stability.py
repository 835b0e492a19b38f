"""The chapter's sampling experiments (Levtsov & Ustalov 2025, Secs. 5 and 7): Fig. 1's tie sweep, Fig. 2's
stability curves, §5's three random binary models and Fig. 3's detection experiment."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import rankdata, spearmanr

from ... import aggregate, sweeps
from ...agreement import spearman_rows, spearman_summary
from ...data import published
from ...validation import check_rng


def tie_grid(step: float) -> np.ndarray:
    """0 to 1 by ``step`` (1 included), rounded so that 0.01 * k prints as itself."""
    return np.round(np.append(np.arange(0.0, 1.0, step), 1.0), 10)


def tie_sweep(quality: pd.DataFrame, probabilities, *, rng, n_trials: int) -> pd.DataFrame:
    """Fig. 1: per tie probability, BT on ``n_trials`` sampled match sets (12·m·ln m per pair, each match a tie with
    that probability) and the Spearman correlation with the mean quality: mean, middle 95%, undefined trials."""
    m, average, gen = sweeps.matches(quality), quality.mean().to_numpy(), np.random.default_rng(rng)
    rhos = [spearman_rows(sweeps.bradley_terry_trials(m, gen, n_trials, tie_probability=float(q)), average)
            for q in probabilities]
    return pd.DataFrame([{"tie_probability": float(q), **spearman_summary(rho), "undefined": int(np.isnan(rho).sum())}
                         for q, rho in zip(probabilities, rhos)])


def tie_sweep_facts(sweep: pd.DataFrame, near: float) -> dict:
    """For the page, Fig. 1, under the keys the page pastes: the mean correlation without ties, and mean and middle
    95% at the p nearest ``near``."""
    defined = sweep.dropna(subset=["spearman_mean"])
    row = defined.loc[(defined["tie_probability"] - near).abs().idxmin()]
    return {"fig1_start": float(defined["spearman_mean"].iloc[0]), "fig1_p": float(row["tie_probability"]),
            "fig1_at_p": float(row["spearman_mean"]), "fig1_at_p_low": float(row["spearman_low"]),
            "fig1_at_p_high": float(row["spearman_high"])}


def largest_above(sweep: pd.DataFrame, column: str, level: float) -> float:
    """Claim value, Fig. 1 (also on llmfao): the largest ``column`` whose mean correlation is at least ``level``."""
    return float(sweep.loc[sweep["spearman_mean"] >= level, column].max())


#: comparisons per pair behind Fig. 2's reference ranking
REFERENCE_SIZE = 100_000


def stability_panels(panels: dict, sizes, rngs, *, n_trials: int, tie_probabilities=None) -> dict:
    """Fig. 2: title -> (:func:`~analysis.sweeps.stability_curve`, 12·m·ln m) per (instances x models) quality in
    ``panels``, one rng and synthetic tie probability (the reference untied) each; ``sizes`` None: 12·m·ln m only."""
    ties = [0.0] * len(panels) if tie_probabilities is None else list(tie_probabilities)
    out = {}
    for (title, quality), rng, p in zip(panels.items(), rngs, ties, strict=True):
        m = sweeps.matches(quality)
        marker = sweeps.sample_size(len(m.systems), 10**9)
        out[title] = (sweeps.stability_curve(m, [marker] if sizes is None else sizes, rng, n_trials=n_trials,
                                             reference_size=REFERENCE_SIZE, tie_probability=float(p)), marker)
    return out


def at_marker(curve: pd.DataFrame, marker: int) -> pd.Series:
    """The row of a Fig. 2 curve on the grid point nearest 12·m·ln m."""
    return curve.iloc[(curve["comparisons"] - marker).abs().argmin()]


def stability_view(curves: dict) -> pd.DataFrame:
    """Fig. 2's curves read at 12·m·ln m (its nearest grid point) and at the grid's end, one row per curve."""
    rows = {title: (marker, at_marker(curve, marker), curve.iloc[-1]) for title, (curve, marker) in curves.items()}
    return pd.DataFrame.from_dict({title: {
        "12·m·ln m": marker, "nearest grid point": int(at["comparisons"]),
        "trials misplacing a model there": at["changed_share"], "models misplaced there (mean)": at["changes_mean"],
        f"models misplaced at {end['comparisons']:,.0f} (mean)": end["changes_mean"]}
        for title, (marker, at, end) in rows.items()}, orient="index")


def stability_values(curves: dict, names, tie_curves: dict) -> dict:
    """Claim values, Fig. 2 and §7, at 12·m·ln m: per panel (``names``) the mean misplaced models and the share of
    changed rankings; per tie curve the mean misplaced models, and whether it rises with every step up in the ties."""
    rows = {name: at_marker(curve, marker) for name, (curve, marker) in zip(names, curves.values(), strict=True)}
    values = {f"fig2 {name} {what} at marker": float(row[column]) for name, row in rows.items()
              for what, column in (("misplaced", "changes_mean"), ("changed share", "changed_share"))}
    at = [float(at_marker(curve, marker)["changes_mean"]) for curve, marker in tie_curves.values()]
    values |= {f"ties {title} misplaced at marker": v for title, v in zip(tie_curves, at)}
    values["ties misplaced at marker rises with ties"] = (float(np.min(np.diff(at))), bool(np.all(np.diff(at) > 0)))
    return values


def random_binary_models(*, rng, n_instances: int = 1000, n_models: int = 3, n_repeats: int = 1000) -> pd.DataFrame:
    """Sec. 5's simulation, repeated: ``n_models`` uniform random labellers of binary gold labels; per repetition
    the global scores and the Spearman correlation with accuracy of BT on every instance and on a 12·m·ln m sample."""
    gen = np.random.default_rng(rng)
    rows = []
    for r in range(n_repeats):
        gold = gen.integers(0, 2, n_instances)
        predictions = gen.integers(0, 2, (n_instances, n_models))
        correct = pd.DataFrame((predictions == gold[:, None]).astype(float),
                               columns=[f"model {k + 1}" for k in range(n_models)])
        accuracy, auc, f1 = binary_global_scores(gold, predictions)
        m = sweeps.matches(correct)
        bts = np.array([aggregate.bradley_terry(correct).to_numpy(), sweeps.bradley_terry_trials(m, gen, 1)[0]])
        full, sampled = spearman_rows(bts, accuracy)
        rows.append({"repeat": r, "accuracy_spread": float(accuracy.max() - accuracy.min()),
                     "accuracy_mean": float(accuracy.mean()), "auc_mean": float(auc.mean()),
                     "f1_mean": float(f1.mean()),
                     "global_agree": bool((rankdata([accuracy, auc, f1], axis=1) == rankdata(accuracy)).all()),
                     "tie_share": m.tie_share(), "spearman_full": float(full), "spearman_sampled": float(sampled)})
    return pd.DataFrame(rows)


def binary_global_scores(gold: np.ndarray, predictions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accuracy, ROC AUC (for 0/1 scores the mean of the true positive and negative rates) and F1 per column."""
    gold = np.asarray(gold)[:, None].astype(bool)
    pred = np.asarray(predictions).astype(bool)
    tp, tn = (pred & gold).sum(axis=0), (~pred & ~gold).sum(axis=0)
    fp, fn = (pred & ~gold).sum(axis=0), (~pred & gold).sum(axis=0)
    accuracy = (tp + tn) / len(gold)
    auc = (tp / (tp + fn) + tn / (tn + fp)) / 2
    f1 = np.divide(2 * tp, 2 * tp + fp + fn, out=np.zeros(len(tp)), where=(2 * tp + fp + fn) > 0)
    return accuracy, auc, f1


def random_binary_summary(table: pd.DataFrame) -> pd.DataFrame:
    """§5's random models: BT's correlation with accuracy (mean, range, share at the paper's -0.5) both ways."""
    return pd.DataFrame({
        "BT on every instance": table["spearman_full"].describe()[["mean", "min", "max"]],
        "BT on 12·m·ln m sampled matches": table["spearman_sampled"].describe()[["mean", "min", "max"]],
    }).T.assign(**{"share at -0.5": [float((table[c].round(2) == -0.5).mean()) for c in
                                      ("spearman_full", "spearman_sampled")]})


def random_binary_facts(table: pd.DataFrame) -> dict:
    """For the page, §5's random models, under the keys the page pastes, with one sample's size and the paper's value
    of its correlation."""
    paper = published.item("gvp", "section5_random_binary")["spearman_bt"]
    return {"random_repeats": len(table), "random_spread_mean": float(table["accuracy_spread"].mean()),
            "random_global_agree": table["global_agree"].mean(),
            "random_full_agree": float((table["spearman_full"] == 1).mean()),
            "random_sample": sweeps.sample_size(3, 10**9),
            "random_sampled_mean": float(table["spearman_sampled"].mean()),
            "random_at_paper": float((table["spearman_sampled"].round(2) == paper).mean()),
            "random_paper": float(paper)}


def random_binary_values(table: pd.DataFrame) -> dict:
    """Claim values, §5's random models; with the share of draws whose sampled BT correlates negatively with the
    global scores (the paper's sign) and at or below the paper's value."""
    paper = published.item("gvp", "section5_random_binary")["spearman_bt"]
    sampled = table["spearman_sampled"]
    return {"random mean accuracy": float(table["accuracy_mean"].mean()),
            "random mean auc": float(table["auc_mean"].mean()), "random mean f1": float(table["f1_mean"].mean()),
            "random global scores agree": float(table["global_agree"].mean()),
            "random sampled bt spearman": float(sampled.mean()),
            "random sampled bt spearman negative share": float((sampled < 0).mean()),
            "random sampled bt spearman at or below paper share": float((sampled.round(2) <= paper).mean())}


#: Fig. 3's matches per repetition (12·m·ln m for two models and for CEval's six, 1,000) and scaling factors f
FIG3_SIZES = (16, 129, 1000)
FIG3_FACTORS = np.linspace(0.9, 1.0, 100)


def detection_curve(factors, sizes=FIG3_SIZES, *, rng, n_repeats: int = 1000) -> pd.DataFrame:
    """Fig. 3 as we read its one paragraph: A's decision values uniform on [0, 1], B's f times another uniform. Per
    (n, f) the share of repetitions ranking A first by wins (two-model BT) and by the mean, a tie half correct."""
    gen = check_rng(rng)
    draws = {n: (gen.random((n_repeats, n)), gen.random((n_repeats, n))) for n in sizes}

    def correct(margin):  # the share of repetitions ranking A first, a tie half correct
        return float(((margin > 0) + 0.5 * (margin == 0)).mean())

    return pd.DataFrame([{"matches": int(n), "factor": float(f), "difference": round(1 - float(f), 12),
                          "pairwise": correct(np.sign(a - f * b).sum(axis=1)),
                          "global": correct(a.mean(axis=1) - f * b.mean(axis=1))}
                         for n, (a, b) in draws.items() for f in factors])


def detection_values(curve: pd.DataFrame, n_repeats: int) -> dict:
    """Claim values, Fig. 3, per number of matches: whether pairwise's share of correct orders rises with the
    difference, the mean gap global - pairwise, and the share at 10% less two binomial standard errors."""
    values = {}
    for n, part in curve.groupby("matches"):
        rho = float(spearmanr(part["difference"], part["pairwise"]).statistic)
        values[f"fig3 rises with difference {n}"] = (rho, rho > 0)
        values[f"fig3 global minus pairwise {n}"] = float((part["global"] - part["pairwise"]).mean())
        share = float(part.loc[(part["difference"] - 0.1).abs().idxmin(), "pairwise"])
        values[f"fig3 pairwise at 10% lower end {n}"] = share - 2 * math.sqrt(share * (1 - share) / n_repeats)
    return values
