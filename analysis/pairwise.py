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
from .validation import (
    check_count,
    check_number,
    check_pair,
    check_pairs,
    check_rng,
    check_scores,
    check_tie_policy,
    real_array,
)


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
    """Paired t-test (scipy.stats.ttest_rel). All differences equal: p = 1 if they are zero, else statistic ±inf,
    p = 0."""
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


# -- the paired tests on many pairs at once -------------------------------------------------------------------------
# Each ``*_batch`` function takes two (pairs x instances) arrays, row k holding the paired scores of pair k, and
# returns the statistics and p-values of the one-pair function on every row, equal to it bit for bit (tested): where
# scipy works along an axis it is called once on the rows (contiguous per pair, as in the one-pair call), with every
# row's method chosen as the one-pair call would choose it; special cases are handled as there.

@dataclass(frozen=True)
class TestResults:
    """Statistics and two-sided p-values of one test on many pairs (arrays, one entry per pair); unpacks as
    ``statistics, pvalues = results``."""

    statistic: np.ndarray
    pvalue: np.ndarray

    def __iter__(self):
        return iter((self.statistic, self.pvalue))


def _fill(size: int, statistic: float, pvalue: float) -> tuple[np.ndarray, np.ndarray]:
    return np.full(size, statistic, dtype=float), np.full(size, pvalue, dtype=float)


def sign_test_batch(a, b, ties: str = "drop") -> TestResults:
    """:func:`sign_test` on every row of two (pairs x instances) arrays."""
    check_tie_policy(ties, ("drop", "half"))
    x, y = check_pairs(a, b)
    d = x - y
    wins, n_ties, losses = (np.count_nonzero(d > 0, axis=1), np.count_nonzero(d == 0, axis=1),
                            np.count_nonzero(d < 0, axis=1))
    if ties == "half":
        wins, losses = wins + n_ties // 2, losses + n_ties // 2
    return TestResults(wins.astype(float), np.asarray(sign_test_pvalues(wins, losses), dtype=float))


def bt_eval_sign_test_batch(a, b) -> TestResults:
    """:func:`bt_eval_sign_test` on every row of two (pairs x instances) arrays (scipy's ``binomtest`` once per
    distinct count)."""
    x, y = check_pairs(a, b)
    d = x - y
    wins_a, n_ties, wins_b = (np.count_nonzero(d > 0, axis=1), np.count_nonzero(d == 0, axis=1),
                              np.count_nonzero(d < 0, axis=1))
    k = np.where(wins_a >= wins_b + n_ties, wins_a, wins_b)
    distinct, back = np.unique(k, return_inverse=True)
    pvalues = np.array([stats.binomtest(int(count), x.shape[1], 0.5).pvalue for count in distinct], dtype=float)
    return TestResults(k.astype(float), pvalues[back].reshape(k.shape))


def paired_t_batch(a, b) -> TestResults:
    """:func:`paired_t` on every row of two (pairs x instances) arrays (one ``ttest_rel`` along the rows)."""
    x, y = check_pairs(a, b)
    if x.shape[1] < 2:
        raise ValueError("the paired t-test needs at least two paired instances")
    d = x - y
    statistic, pvalue = _fill(len(d), 0.0, 1.0)
    constant = np.all(d == d[:, :1], axis=1)
    moving = constant & (d[:, 0] != 0)
    statistic[moving], pvalue[moving] = np.sign(d[moving, 0]) * np.inf, 0.0
    rest = ~constant
    if rest.any():
        res = stats.ttest_rel(x[rest], y[rest], axis=-1)
        statistic[rest], pvalue[rest] = res.statistic, res.pvalue
    return TestResults(statistic, pvalue)


def mood_median_batch(a, b) -> TestResults:
    """:func:`mood_median` on every row of two (pairs x instances) arrays: scipy's ``median_test`` (ties below,
    Yates-corrected Pearson chi-square of the 2 x 2 table) computed for all rows at once, its steps as scipy's."""
    x, y = check_pairs(a, b)
    both = np.concatenate([x, y], axis=1)
    grand = np.median(both, axis=1, keepdims=True)
    statistic, pvalue = _fill(len(x), 0.0, 1.0)
    rest = np.any(both > grand, axis=1)
    if rest.any():
        x, y, grand = x[rest], y[rest], grand[rest]
        above = np.stack([np.count_nonzero(x > grand, axis=1), np.count_nonzero(y > grand, axis=1)], axis=1)
        table = np.stack([above, x.shape[1] - above], axis=1).astype(np.float64)  # (pairs, 2, 2), ties below
        expected = table.sum(axis=2, keepdims=True) * table.sum(axis=1, keepdims=True) / table.sum(axis=(1, 2),
                                                                                                  keepdims=True)
        diff = expected - table  # Yates' continuity correction, as scipy.stats.chi2_contingency
        observed = table + np.minimum(0.5, np.abs(diff)) * np.sign(diff)
        res = stats.power_divergence(observed.reshape(-1, 4), expected.reshape(-1, 4), ddof=2, axis=-1, lambda_=1)
        statistic[rest], pvalue[rest] = res.statistic, res.pvalue
    return TestResults(statistic, pvalue)


#: the largest number of instances at which scipy's ``wilcoxon(method="auto")`` may choose an exact or permutation
#: test; above it, the normal approximation
WILCOXON_EXACT_MAX = 50
#: the largest number of instances at which it runs a (complete) permutation test when there are ties or zeros
WILCOXON_PERMUTATION_MAX = 13


def wilcoxon_methods(d: np.ndarray) -> np.ndarray:
    """The method scipy's ``wilcoxon(x, y)`` (``method="auto"``, zeros dropped) chooses for each row of the
    (pairs x instances) differences ``d``: "exact" (at most 50 instances, no zero difference and no tie among the
    absolute differences), else "permutation" (at most 13 instances), else "asymptotic"."""
    n = d.shape[1]
    if n > WILCOXON_EXACT_MAX:
        return np.full(len(d), "asymptotic", dtype=object)
    magnitude = np.sort(np.abs(d), axis=1)
    zeros = magnitude[:, 0] == 0
    tied = np.any((magnitude[:, 1:] == magnitude[:, :-1]) & (magnitude[:, 1:] != 0), axis=1)
    odd = "permutation" if n <= WILCOXON_PERMUTATION_MAX else "asymptotic"
    return np.where(zeros | tied, odd, "exact").astype(object)


def wilcoxon_batch(a, b) -> TestResults:
    """:func:`wilcoxon` on every row of two (pairs x instances) arrays, each row with the method scipy's
    ``method="auto"`` would choose for it alone (:func:`wilcoxon_methods`): one scipy call for the exact rows, one
    for the asymptotic ones, and :func:`wilcoxon_sign_flips` for the permutation ones."""
    x, y = check_pairs(a, b)
    d = x - y
    statistic, pvalue = _fill(len(x), 0.0, 1.0)
    rest = ~np.all(d == 0, axis=1)
    methods = wilcoxon_methods(d)
    for method in ("exact", "asymptotic"):
        rows = rest & (methods == method)
        if rows.any():
            res = stats.wilcoxon(x[rows], y[rows], axis=-1, method=method)
            statistic[rows], pvalue[rows] = res.statistic, res.pvalue
    rows = rest & (methods == "permutation")
    if rows.any():
        statistic[rows], pvalue[rows] = wilcoxon_sign_flips(d[rows])
    return TestResults(statistic, pvalue)


def wilcoxon_sign_flips(d) -> TestResults:
    """The two-sided Wilcoxon signed-rank test (zero differences dropped) by its complete sign-flip null
    distribution, on every row of the (pairs x instances) differences ``d`` (at most 13 instances): what scipy's
    ``wilcoxon`` runs through ``permutation_test`` when there are ties or zeros, bit for bit (tested).

    The rank sums are multiples of 1/2, exact in floating point, so the counts of the 2^n sign flips with a
    positive-rank sum at most / at least the observed one are exact, and p = 2 min(count) / 2^n as scipy computes
    it (its tolerance for numerically distinct equal values changes no comparison here)."""
    d = np.asarray(d, dtype=float)
    n = d.shape[1]
    if n > WILCOXON_PERMUTATION_MAX:
        raise ValueError(f"the complete sign-flip distribution is only run up to {WILCOXON_PERMUTATION_MAX} instances")
    nonzero = d != 0
    ranks = stats.rankdata(np.where(nonzero, np.abs(d), np.inf), method="average", axis=1) * nonzero
    positive = d > 0
    r_plus = (positive * ranks).sum(axis=1)
    r_minus = ((d < 0) * ranks).sum(axis=1)
    flips = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool)  # (2^n, n): which signs are flipped
    null = np.stack([((positive[k] ^ flips) & nonzero[k]) @ ranks[k] for k in range(len(d))], axis=1)
    less = np.count_nonzero(null <= r_plus, axis=0) / 2**n
    greater = np.count_nonzero(null >= r_plus, axis=0) / 2**n
    return TestResults(np.minimum(r_plus, r_minus), np.clip(np.minimum(less, greater) * 2, 0.0, 1.0))


#: the batched version of each one-pair test: ``BATCHED[test](a, b)`` = ``test`` on every row of ``a`` and ``b``
BATCHED: dict[Callable[..., TestResult], Callable[..., TestResults]] = {
    paired_t: paired_t_batch,
    mood_median: mood_median_batch,
    sign_test: sign_test_batch,
    wilcoxon: wilcoxon_batch,
    bt_eval_sign_test: bt_eval_sign_test_batch,
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
