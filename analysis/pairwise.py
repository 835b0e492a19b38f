"""Paired comparisons of systems: win/tie counts, P(A > B), paired significance tests, bootstrap intervals.

Peyrard et al. (2021) §3.2 and Appendix D: the paired t-test goes with MEAN, Mood's median test with MEDIAN, and the
sign test with BT (its statistic is the one in BT's consistency condition, Prop. 1); the Wilcoxon signed-rank test
is added because it is often recommended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .comparisons import comparison_counts
from .validation import check_count, check_number, check_pair, check_rng, check_scores, check_tie_policy, real_array


@dataclass(frozen=True)
class TestResult:
    """A test statistic and its two-sided p-value; unpacks as ``statistic, pvalue = result``."""

    statistic: float
    pvalue: float

    def __iter__(self):
        return iter((self.statistic, self.pvalue))


@dataclass(frozen=True)
class Interval:
    """A point estimate with its confidence interval; unpacks as ``estimate, low, high = interval``."""

    estimate: float
    low: float
    high: float

    def __iter__(self):
        return iter((self.estimate, self.low, self.high))


@dataclass(frozen=True)
class ProbBetter:
    """P(A > B) on paired test instances, the counts behind it and the sign-test p-value of A vs B."""

    prob: float
    pvalue: float
    wins: int
    ties: int
    losses: int


def win_tie_matrices(scores: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Win and tie count matrices of a score matrix, as DataFrames indexed by system on both axes.

    ``wins.loc[a, b]`` = number of instances where ``a`` scores strictly higher than ``b``;
    ``ties.loc[a, b]`` = number of instances where they score the same.
    """
    values = check_scores(scores)
    wins, ties = comparison_counts(values)
    names = scores.columns
    return pd.DataFrame(wins, index=names, columns=names), pd.DataFrame(ties, index=names, columns=names)


def paired_sign_counts(x: np.ndarray, y: np.ndarray) -> tuple[int, int, int]:
    """(instances where x > y, where x == y, where x < y) of two checked paired score vectors."""
    d = x - y
    return int(np.count_nonzero(d > 0)), int(np.count_nonzero(d == 0)), int(np.count_nonzero(d < 0))


def sign_test_pvalues(wins, losses) -> np.ndarray:
    """Two-sided exact sign test of P(win) = P(loss) from counts (vectorised): p = min(1, 2 P(X <= min(w, l))) with
    X ~ Binomial(w + l, 1/2), which is scipy's ``binomtest(w, w + l).pvalue``; 1 when w + l = 0."""
    w = np.asarray(wins, dtype=np.int64)
    ell = np.asarray(losses, dtype=np.int64)
    if (w < 0).any() or (ell < 0).any():
        raise ValueError("win and loss counts must be non-negative")
    n = w + ell
    p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(w, ell), n, 0.5))
    return np.where(n > 0, p, 1.0)


def sign_test(a, b, ties: str = "drop") -> TestResult:
    """Two-sided exact sign test of H0: P(A > B) = P(B > A) on paired scores.

    The statistic is the number of instances where A scores higher (after tie handling). Ties carry no sign, so they
    must be handled explicitly: ``"drop"`` (default, the textbook test: ties are removed and n shrinks) or
    ``"half"`` (ties are shared equally between A and B, an odd one is dropped; more conservative). With no
    non-tied instance there is no evidence either way: statistic 0, p-value 1.
    """
    check_tie_policy(ties, ("drop", "half"))
    x, y = check_pair(a, b)
    wins, n_ties, losses = paired_sign_counts(x, y)
    if ties == "half":
        wins += n_ties // 2
        losses += n_ties // 2
    return TestResult(float(wins), float(sign_test_pvalues(wins, losses)))


def bt_eval_sign_test(a, b) -> TestResult:
    """The sign test as BT-eval's Fig. 6 code runs it (Peyrard et al. 2021, App. D; reproduction only): the system
    BT prefers with the paper's tie rule (a tie is a win for ``b``, the later column, so ``a`` is preferred iff its
    wins >= ``b``'s wins + ties) counts its strict wins k among all n instances, ties kept in n; two-sided binomial
    test of k ~ Bin(n, 1/2). Unlike the textbook test (:func:`sign_test`, ties dropped), many ties make it reject
    even when the preferred system never loses."""
    x, y = check_pair(a, b)
    wins_a, ties, wins_b = paired_sign_counts(x, y)
    k = wins_a if wins_a >= wins_b + ties else wins_b
    return TestResult(float(k), float(stats.binomtest(k, len(x), 0.5).pvalue))


def prob_better(a, b, ties: str = "half") -> ProbBetter:
    """P(A > B): the share of paired instances on which A beats B, ties counted by ``ties`` ("half" or "drop").

    This is the two-system Bradley-Terry estimate (Peyrard et al. eq. 1: the strengths are the win counts). The
    p-value is the sign test's (ties dropped), which tests exactly whether P(A > B) differs from 1/2.
    """
    check_tie_policy(ties, ("half", "drop"))
    x, y = check_pair(a, b)
    wins, n_ties, losses = paired_sign_counts(x, y)
    if ties == "half":
        prob = (wins + 0.5 * n_ties) / len(x)
    else:
        prob = wins / (wins + losses) if wins + losses else 0.5
    return ProbBetter(float(prob), sign_test(x, y).pvalue, wins, n_ties, losses)


def paired_t(a, b) -> TestResult:
    """Paired t-test (scipy.stats.ttest_rel). All differences equal: p = 1 if they are zero, else statistic ±inf, p = 0."""
    x, y = check_pair(a, b)
    d = x - y
    if len(d) < 2:
        raise ValueError("the paired t-test needs at least two paired instances")
    if np.all(d == d[0]):
        return TestResult(0.0, 1.0) if d[0] == 0 else TestResult(float(np.sign(d[0]) * np.inf), 0.0)
    res = stats.ttest_rel(x, y)
    return TestResult(float(res.statistic), float(res.pvalue))


def wilcoxon(a, b) -> TestResult:
    """Wilcoxon signed-rank test (scipy.stats.wilcoxon, zero differences dropped). All differences zero: p = 1."""
    x, y = check_pair(a, b)
    if np.all(x == y):
        return TestResult(0.0, 1.0)
    res = stats.wilcoxon(x, y)
    return TestResult(float(res.statistic), float(res.pvalue))


def mood_median(a, b) -> TestResult:
    """Mood's median test (scipy.stats.median_test), an unpaired test of equal medians. No value on one side of the
    grand median (e.g. all scores equal): no evidence of a difference, statistic 0 and p = 1."""
    x, y = check_pair(a, b)
    grand = np.median(np.concatenate([x, y]))
    if not (np.any(np.concatenate([x, y]) > grand)):
        return TestResult(0.0, 1.0)
    res = stats.median_test(x, y)
    return TestResult(float(res.statistic), float(res.pvalue))


PAIRED_TESTS: dict[str, Callable[..., TestResult]] = {
    "t-test": paired_t,
    "Mood": mood_median,
    "sign": sign_test,
    "Wilcoxon": wilcoxon,
}


def bootstrap_ci(
    scores: pd.DataFrame,
    aggregator: Callable[[pd.DataFrame], pd.Series],
    *,
    rng,
    n_resamples: int = 1000,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Percentile bootstrap intervals of any aggregator, resampling test instances (rows) with replacement.

    Returns a DataFrame indexed by system with columns ``estimate`` (on the full data), ``low`` and ``high``.
    ``rng`` is a numpy Generator or a seed: the same seed gives the same intervals.
    """
    check_scores(scores)
    gen = check_rng(rng)
    check_number(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    n_resamples = check_count(n_resamples, "n_resamples")
    n = len(scores)
    idx = gen.integers(0, n, size=(n_resamples, n))
    frame = scores.reset_index(drop=True)
    draws = np.vstack([np.asarray(aggregator(frame.iloc[rows].reset_index(drop=True)), dtype=float) for rows in idx])
    alpha = (1 - confidence) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha], axis=0)
    estimate = np.asarray(aggregator(scores), dtype=float)
    return pd.DataFrame({"estimate": estimate, "low": low, "high": high}, index=scores.columns)


def bootstrap_mean(values, *, rng, n_resamples: int = 1000, confidence: float = 0.95) -> Interval:
    """Mean of ``values`` with a percentile bootstrap interval. Vectorised resampling; equal to
    ``scipy.stats.bootstrap(..., method="percentile")`` given the same generator (tested)."""
    gen = check_rng(rng)
    x = real_array(values, "values")
    if x.ndim != 1 or len(x) == 0:
        raise ValueError(f"values must be a non-empty 1-D array, got shape {x.shape}")
    if np.isnan(x).any():
        raise ValueError("values contain NaN; drop them first")
    if np.isinf(x).any():
        raise ValueError("values contain infinite values; their mean is not a number a bootstrap can bound")
    check_number(confidence, "confidence", low=0, high=1, low_open=True, high_open=True)
    n_resamples = check_count(n_resamples, "n_resamples")
    means = x[gen.integers(0, len(x), size=(n_resamples, len(x)))].mean(axis=1)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return Interval(float(x.mean()), float(low), float(high))


def bootstrap_summary(
    frame: pd.DataFrame,
    columns,
    *,
    rng,
    by: str | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Mean and percentile bootstrap interval of each of ``columns``, per group of ``by`` (sorted) or overall.

    Missing values are dropped per column (a column with none left is skipped). One row per (group, column):
    ``[by,] column, estimate, low, high, n``. Groups are visited in sorted order and columns in the given order,
    all drawing from the one generator, so the same seed gives the same intervals.
    """
    gen = check_rng(rng)
    n_resamples = check_count(n_resamples, "n_resamples")
    columns = list(columns)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"no column(s) {missing} to summarise; the frame has {list(frame.columns)}")
    groups = frame.groupby(by, sort=True) if by is not None else [(None, frame)]
    rows = []
    for value, group in groups:
        for column in columns:
            values = group[column].dropna()
            if len(values):
                interval = bootstrap_mean(values, rng=gen, n_resamples=n_resamples, confidence=confidence)
                rows.append(({by: value} if by is not None else {}) | {"column": column, **vars(interval),
                                                                          "n": len(values)})
    return pd.DataFrame(rows, columns=([by] if by is not None else []) + ["column", "estimate", "low", "high", "n"])


#: multiple-comparison adjustments of :func:`adjust_pvalues`
ADJUSTMENTS = ("holm", "bh", "none")


def adjust_pvalues(pvalues, method: str = "holm") -> np.ndarray:
    """Adjusted p-values of a family of tests: Holm's (1979) step-down (family-wise error: sorted ascending,
    p_(k) * (m - k + 1), running maximum, capped at 1) or Benjamini-Hochberg's step-up (false discovery rate,
    through ``scipy.stats.false_discovery_control``); ``"none"`` returns them unchanged. A NaN (a test not run) stays
    NaN and does not count among the m tests."""
    if method not in ADJUSTMENTS:
        raise ValueError(f"unknown adjustment {method!r}; expected one of {list(ADJUSTMENTS)}")
    p = real_array(pvalues, "p-values")
    if p.ndim != 1:
        raise ValueError(f"p-values must be one-dimensional, got shape {p.shape}")
    present = ~np.isnan(p)
    if ((p[present] < 0) | (p[present] > 1)).any():
        raise ValueError("p-values must lie in [0, 1]")
    out = p.copy()
    values = p[present]
    if method == "none" or not len(values):
        return out
    if method == "bh":
        out[present] = stats.false_discovery_control(values, method="bh")
        return out
    m = len(values)
    order = np.argsort(values, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate(values[order] * (m - np.arange(m))))
    back = np.empty(m)
    back[order] = stepped
    out[present] = back
    return out
