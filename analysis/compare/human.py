"""The human column: how well the compared scores agree with human ratings of the same instances and systems —
sample- and system-level sign accuracy and the Favi-Score per pair of systems with its interval and test
(von Däniken et al. 2024), all through :mod:`analysis.favi`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .. import favi

COLUMNS = ["system_a", "system_b", "n_items", "favi", "favi_low", "favi_high", "favi_p", "sample_accuracy",
           "accuracy_low", "accuracy_high", "margin_human", "margin_metric", "system_sign_agrees"]


def wilson(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a share ``successes / n`` (NaN where n is 0)."""
    successes, n = np.asarray(successes, float), np.asarray(n, float)
    z = stats.norm.ppf((1 + confidence) / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return centre - half, centre + half


def align_human(human: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """The human ratings on the scores' instances and systems (NaN where a cell is not rated); refuses ratings that
    share no system or no instance with the scores."""
    where = f"--human {human.attrs['file']}: " if human.attrs.get("file") else ""
    human = human.copy()
    human.columns = [str(c) for c in human.columns]
    systems = [str(c) for c in scores.columns]
    shared_systems = [s for s in systems if s in human.columns]
    if len(shared_systems) < 2:
        raise ValueError(f"{where}the human ratings name {len(shared_systems)} of the compared systems; they need at "
                         f"least two (ratings' systems: {list(human.columns)[:10]})")
    index = scores.index
    if not index.isin(human.index).any():
        raise ValueError(f"{where}the human ratings share no instance id with the scores")
    return human.reindex(index=index, columns=systems)


def human_table(human: pd.DataFrame, scores: pd.DataFrame, *, n_resamples: int, rng, confidence: float = 0.95,
                lower_is_better: bool = False) -> tuple[pd.DataFrame, dict]:
    """Per pair of systems: the Favi-Score with its bootstrap interval and permutation p-value
    (:func:`analysis.favi.favi_uncertainty`, the function chapter 04 uses), the sample-level sign accuracy with a
    Wilson interval, the human and metric margins and whether their signs agree; and the overall sample- and
    system-level sign accuracies (:func:`analysis.favi.sign_accuracies`). Human ratings: higher is better."""
    metric = -scores if lower_is_better else scores
    metric = metric.set_axis([str(c) for c in metric.columns], axis=1)
    human = align_human(human, metric)
    table = favi.favi_uncertainty(human, metric, n_resamples=n_resamples, rng=rng, level=confidence)
    return _columns(table, confidence)


def _columns(table: pd.DataFrame, confidence: float) -> tuple[pd.DataFrame, dict]:
    """The human column from a Favi table with intervals (:func:`analysis.favi.favi_uncertainty` or
    :func:`analysis.favi.pair_intervals`): per pair, and the overall accuracies with Wilson intervals."""
    low, high = wilson(table["sample_accuracy"] * table["n_items"], table["n_items"], confidence)
    out = pd.DataFrame({"system_a": table["system_a"], "system_b": table["system_b"], "n_items": table["n_items"],
                        "favi": table["favi"], "favi_low": table["low"], "favi_high": table["high"],
                        "favi_p": table["p_value"], "sample_accuracy": table["sample_accuracy"],
                        "accuracy_low": low, "accuracy_high": high, "margin_human": table["margin_human"],
                        "margin_metric": table["margin_metric"],
                        "system_sign_agrees": table["system_sign_agrees"].astype(bool)})
    accuracy = favi.sign_accuracies(table)
    sample_low, sample_high = wilson(accuracy.sample * accuracy.items, accuracy.items, confidence)
    system_low, system_high = wilson(accuracy.system * accuracy.pairs, accuracy.pairs, confidence)
    summary = {"sample_accuracy": accuracy.sample, "sample_accuracy_low": float(sample_low),
               "sample_accuracy_high": float(sample_high), "system_accuracy": accuracy.system,
               "system_accuracy_low": float(system_low), "system_accuracy_high": float(system_high),
               "pairs": accuracy.pairs, "items": accuracy.items}
    return out.reset_index(drop=True), summary


def _verdicts(games: pd.DataFrame, what: str) -> tuple[pd.DataFrame, np.ndarray, int]:
    """The verdicts that count, with their file lines: weight 0 leaves a verdict out (as it is left out of BT and the
    other mechanisms); any weight other than 0 or 1 is refused, since each verdict is one rating per (item, pair)
    here and a weight cannot be honoured. Returns the kept verdicts, their lines and how many were left out."""
    lines = np.asarray(games.attrs.get("lines", np.arange(len(games)) + 2))
    where = games.attrs.get("file", f"the {what}")
    weight = games["weight"].to_numpy(dtype=float) if "weight" in games else np.ones(len(games))
    odd = (weight != 0) & (weight != 1)
    if odd.any():
        i = np.flatnonzero(odd)[0]
        raise ValueError(f"{where}: weight {weight[i]:g} on line {lines[i]}: the comparison with the human verdicts "
                         "counts each verdict once, so column 'weight' can only be 0 (left out) or 1 there")
    keep = weight > 0
    return games[keep], lines[keep], int((~keep).sum())


def _oriented(games: pd.DataFrame, what: str, lines=None) -> pd.DataFrame:
    """One row per (item, pair) with the pair as (a, b), a < b as strings, and the rating +1 (a preferred), 0, -1;
    a pair judged twice on one item is an error naming it (with the file and the two lines, when known)."""
    left, right = games["left"].astype(str).to_numpy(), games["right"].astype(str).to_numpy()
    rating = np.select([games["winner"] == "left", games["winner"] == "right"], [1, -1], 0)
    flip = left > right
    out = pd.DataFrame({"item": games["item"].to_numpy(), "a": np.where(flip, right, left),
                        "b": np.where(flip, left, right), "rating": np.where(flip, -rating, rating)})
    twice = out.duplicated(["item", "a", "b"])
    if twice.any():
        j = np.flatnonzero(twice.to_numpy())[0]
        row = out.iloc[j]
        same = (out["item"] == row["item"]) & (out["a"] == row["a"]) & (out["b"] == row["b"])
        i = np.flatnonzero(same.to_numpy())[0]
        where = (f"{games.attrs['file']}: lines {lines[i]} and {lines[j]}: " if lines is not None and
                 games.attrs.get("file") else "")
        raise ValueError(f"{where}the {what} judges item {row['item']!r} for the pair ({row['a']!r}, {row['b']!r}) "
                         "more than once; keep one verdict per item and pair")
    return out


def judge_table(judge: pd.DataFrame, human: pd.DataFrame, *, n_resamples: int, rng,
                confidence: float = 0.95) -> tuple[pd.DataFrame, dict]:
    """An automatic judge's pairwise verdicts against human verdicts on the same (item, pair of systems), the case
    the Favi-Score was made for (von Däniken et al. 2024): per pair of systems the Favi-Score (positive: the judge
    favours system A relative to the humans) with its bootstrap interval and sign-flip p-value
    (:func:`analysis.favi.pair_intervals`), the judge's sample-level accuracy (ties are a rating of their own, as
    in chapter 04) with a Wilson interval, the two margins; and the overall accuracies. Both tables: ``left``,
    ``right``, ``winner`` (left/right/tie), ``item``. Verdicts on an (item, pair) the other side lacks are left out
    and counted; so are verdicts of weight 0 (:func:`_verdicts`)."""
    judge, judge_lines, judge_zero = _verdicts(judge, "judge's file")
    human, human_lines, human_zero = _verdicts(human, "human file")
    j, h = _oriented(judge, "judge's file", judge_lines), _oriented(human, "human file", human_lines)
    both = j.merge(h, on=["item", "a", "b"], suffixes=("_judge", "_human"))
    if both.empty:
        files = (f" ({human.attrs['file']} and {judge.attrs['file']})" if human.attrs.get("file") and
                 judge.attrs.get("file") else "")
        raise ValueError(f"the human judgments share no (item, pair of systems) with the judge's{files}; check that "
                         "both files name the items the same way")
    table = favi.preference_table(both["a"], both["b"], both["rating_human"], both["rating_judge"])
    table = favi.pair_intervals(table, n_resamples=n_resamples, rng=rng, level=confidence)
    out, summary = _columns(table, confidence)
    summary.update(judge_only=int(len(j) - len(both)), human_only=int(len(h) - len(both)),
                   judge_zero_weight=judge_zero, human_zero_weight=human_zero)
    return out, summary
