"""Favoritism of automatic preference ratings: the Favi-Score of von Däniken, Deriu, Tuggener, Cieliebak (2024).

A *preference rating* compares the outputs of two systems on one input: ``+`` (the first is better), ``=`` (equal)
or ``-`` (the second is better), stored here as the integers +1, 0, -1. Human ratings ``r^H`` are the reference,
automatic ratings ``r^A`` (a metric, an LLM judge) are evaluated against them:

- Def. 13: a scalar score becomes a preference rating by comparing the two systems' scores (:func:`derived_preferences`;
  scores closer than :data:`TIE_TOLERANCE`, floating-point round-off of equal scores, are a tie);
- Def. 4: the 3x3 confusion matrix ``C[m, n]`` = #items with human rating m and metric rating n, rows and columns in
  the order (+, =, -) (:func:`confusion_matrix`);
- Defs. 5-7: errors, the total error E (off-diagonal sum), outcomes d = (d+, d=, d-) and margins d+ - d-;
- Def. 8: the error cost W (:data:`COST`); Def. 9: Φ(C) = Σ W_mn C_mn / E (:func:`favi_score`), in [-2, 2], positive
  when the errors favour the first system. **Φ is undefined when E = 0** (the metric agrees with the humans on every
  item): it is returned as NaN, never as 0;
- Lemma 1: Φ = (mar(d̂) - mar(d)) / E; Lemma 2: Φ = 0 implies the same sign of the margins;
- Defs. 10-11: system-level and sample-level sign accuracy (:func:`sign_accuracies`).

:func:`favi_table` computes all of it for every pair of systems of a (dataset, human rater, metric) at once from two
score matrices. Beyond the paper (its "Robustness" limitation asks for a probabilistic treatment),
:func:`favi_uncertainty` gives Φ a bootstrap interval over items and a sign-flip permutation test of "no
favoritism"; the sign-test win graphs of its Fig. 1 are :func:`significance_outcomes` and :func:`win_graph`, and the
order-symmetry check of an LLM judge (App. C.2.1) is :func:`preference_symmetry`.
"""

from __future__ import annotations

from dataclasses import dataclass

import krippendorff
import networkx as nx
import numpy as np
import pandas as pd

from .pairwise import adjust_pvalues, sign_test_pvalues
from .validation import check_count, check_number, check_rng, check_scores, check_tie_policy, real_array

#: Def. 8, the directed error cost; rows = human rating, columns = metric rating, both in the order (+, =, -)
COST = np.array([[0, -1, -2], [1, 0, -1], [2, 1, 0]], dtype=np.int64)
#: the rating symbols in matrix order and their integer codes
SYMBOLS = ("+", "=", "-")
_VALUES = {"+": 1, "=": 0, "-": -1, "−": -1}
#: column names of the confusion-matrix cells in :func:`favi_table` (c_<human><metric>, p/e/m = +, =, -)
CELLS = tuple(f"c_{h}{m}" for h in "pem" for m in "pem")
_DIAGONAL = np.array([0, 4, 8])
#: Def. 13's ties: two scores of one item closer than this are equal (=). Equal scores computed along different
#: floating-point paths (ROUGE's F-measure of the same counts, a mean of the same ratings summed in another order)
#: differ by a few units in their last place: up to about 4e-14 on the 0-100 scales of this compendium's data,
#: while the smallest real difference between two systems' scores of one item there is about 7e-9 (COMET-22, WMT22
#: zh-en). Exact equality would count the round-off as preferences.
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class FaviResult:
    """Everything the paper defines for one system pair (or, stacked, for many: then every field is an array with
    the leading shape of the input). ``outcome_*`` = (d+, d=, d-)."""

    confusion: np.ndarray
    n_items: int | np.ndarray
    total_error: int | np.ndarray
    outcome_human: np.ndarray
    outcome_metric: np.ndarray
    margin_human: int | np.ndarray
    margin_metric: int | np.ndarray
    favi: float | np.ndarray
    sample_accuracy: float | np.ndarray
    system_sign_agrees: bool | np.ndarray


@dataclass(frozen=True)
class SignAccuracy:
    """Defs. 10-11 over a set of system pairs: ``sample`` = Σ diagonal / Σ items, ``system`` = share of pairs whose
    human and metric margins have the same sign; ``pairs`` and ``items`` say over how much."""

    sample: float
    system: float
    pairs: int
    items: int


@dataclass(frozen=True)
class Symmetry:
    """App. C.2.1: a judge's ratings of (A, B) against its ratings of (B, A) mapped back to (A, B)'s frame."""

    confusion: np.ndarray
    n_items: int
    accuracy: float
    alpha_nominal: float
    alpha_ordinal: float


def as_ratings(ratings, name: str = "ratings") -> np.ndarray:
    """Preference ratings as an int8 array of +1/0/-1. Accepts the symbols ``+ = -`` (or ``−``), or the integers
    +1, 0, -1; anything else (an unknown symbol, NaN, 2, 0.5) is a ValueError naming the value."""
    arr = np.asarray(ratings)
    if arr.dtype.kind == "O" and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in arr.ravel()):
        arr = arr.astype(np.int64)
    if arr.dtype.kind in "USO":
        flat = arr.ravel()
        unknown = sorted({str(v) for v in flat if not isinstance(v, str) or v not in _VALUES})
        if unknown:
            raise ValueError(f"{name}: unknown rating symbol(s) {unknown[:5]}; expected one of {list(SYMBOLS)}")
        return np.array([_VALUES[v] for v in flat], dtype=np.int8).reshape(arr.shape)
    values = real_array(arr, name)
    bad = ~np.isin(values, (-1.0, 0.0, 1.0))
    if bad.any():
        raise ValueError(f"{name} must be +1, 0 or -1 (or '+', '=', '-'); found {np.unique(values[bad])[:5].tolist()}")
    return values.astype(np.int8)


def derived_preferences(first, second, *, tol: float = TIE_TOLERANCE) -> np.ndarray:
    """Def. 13: the preference rating derived from scalar scores of the first and second system on the same
    items, +1 where the first scores higher, -1 where lower, 0 where equal: closer than ``tol`` (default
    :data:`TIE_TOLERANCE`, the floating-point round-off of equal scores). Higher must mean better."""
    a = real_array(first, "scores of the first system")
    b = real_array(second, "scores of the second system")
    if a.shape != b.shape:
        raise ValueError(f"scores of the two systems must have the same shape, got {a.shape} and {b.shape}")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("scores contain NaN (an unrated item); keep only items both systems have ratings for")
    check_number(tol, "tol", low=0)
    return _sign(a, b, tol)


def _paired_ratings(human, metric) -> tuple[np.ndarray, np.ndarray]:
    h = as_ratings(human, "human ratings")
    m = as_ratings(metric, "metric ratings")
    if h.shape != m.shape:
        raise ValueError(f"human and metric ratings must have the same length/shape, got {h.shape} and {m.shape}")
    if h.ndim == 0 or h.shape[-1] == 0:
        raise ValueError("no rated items: a confusion matrix needs at least one item")
    return h, m


def confusion_matrix(human, metric) -> np.ndarray:
    """Def. 4: counts C[m, n] of items rated m by humans and n by the metric, order (+, =, -). The last axis holds
    the items; leading axes (e.g. many system pairs) are kept: shape (..., 3, 3)."""
    h, m = _paired_ratings(human, metric)
    code = (1 - h.astype(np.int64)) * 3 + (1 - m.astype(np.int64))  # 0..8, row-major over (human, metric)
    lead = code.shape[:-1]
    flat = code.reshape(-1, code.shape[-1]) + 9 * np.arange(int(np.prod(lead, dtype=int)))[:, None]
    counts = np.bincount(flat.ravel(), minlength=9 * flat.shape[0])
    return counts.reshape(*lead, 3, 3)


def favi_score(confusion) -> float | np.ndarray:
    """Def. 9: Φ(C) = Σ_mn W_mn C_mn / E over the last two axes of ``confusion`` (shape (..., 3, 3)); NaN where
    E = 0 (no error: Φ is undefined)."""
    c = _check_confusion(confusion)
    error = c.sum(axis=(-2, -1)) - np.trace(c, axis1=-2, axis2=-1)
    cost = (COST * c).sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = np.where(error > 0, cost / np.where(error > 0, error, 1), np.nan)
    return float(phi) if phi.ndim == 0 else phi


def _check_confusion(confusion) -> np.ndarray:
    c = real_array(confusion, "confusion matrix")
    if c.shape[-2:] != (3, 3):
        raise ValueError(f"a confusion matrix is 3x3 (rows human +,=,-; columns metric +,=,-), got shape {c.shape}")
    if np.isnan(c).any() or (c < 0).any() or (c % 1 != 0).any():
        raise ValueError("a confusion matrix holds non-negative whole counts")
    return c.astype(np.int64)


def summarize(confusion) -> FaviResult:
    """Defs. 4-11 read off one confusion matrix (or a stack of them, shape (..., 3, 3))."""
    c = _check_confusion(confusion)
    n = c.sum(axis=(-2, -1))
    diagonal = np.trace(c, axis1=-2, axis2=-1)
    d_human = c.sum(axis=-1)  # rows: human rating
    d_metric = c.sum(axis=-2)  # columns: metric rating
    margin_h = d_human[..., 0] - d_human[..., 2]
    margin_m = d_metric[..., 0] - d_metric[..., 2]
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = np.where(n > 0, diagonal / np.where(n > 0, n, 1), np.nan)
    scalar = c.ndim == 2
    pick = (lambda v: v.item()) if scalar else (lambda v: v)
    return FaviResult(
        confusion=c, n_items=pick(n), total_error=pick(n - diagonal), outcome_human=d_human, outcome_metric=d_metric,
        margin_human=pick(margin_h), margin_metric=pick(margin_m), favi=favi_score(c),
        sample_accuracy=pick(accuracy), system_sign_agrees=pick(np.sign(margin_h) == np.sign(margin_m)))


def favi(human, metric) -> FaviResult:
    """The Favi-Score and its companions for paired preference ratings (symbols or +1/0/-1; items on the last axis)."""
    return summarize(confusion_matrix(human, metric))


# --- every system pair of a (dataset, human rater, metric) at once ------------------------------------------------

def _score_matrix(scores: pd.DataFrame, name: str) -> pd.DataFrame:
    """An items x systems score matrix in which NaN means "not rated" (:func:`~analysis.validation.check_scores`),
    with unique item labels."""
    values = check_scores(scores, allow_missing=True, name=name)
    if scores.index.has_duplicates:
        raise ValueError(f"{name}: duplicated items (rows) "
                         f"{scores.index[scores.index.duplicated()].unique().tolist()[:5]}")
    return pd.DataFrame(values, index=scores.index, columns=scores.columns)


def _pair_codes(human: pd.DataFrame, metric: pd.DataFrame):
    """The pairs (system_a < system_b as strings) that share at least one fully rated item, and per (item, pair) the
    confusion cell 0..8 of the pair's ratings, -1 where the item lacks one of the four scores."""
    h = _score_matrix(human, "human scores")
    m = _score_matrix(metric, "metric scores")
    if set(h.columns) != set(m.columns) or set(h.index) != set(m.index):
        only = sorted(map(str, (set(h.columns) ^ set(m.columns)) | (set(h.index) ^ set(m.index))))[:5]
        raise ValueError(f"human and metric scores must cover the same items and systems; differing: {only}")
    systems = np.array(sorted(h.columns, key=str), dtype=object)
    hv = h.loc[:, systems].to_numpy()
    mv = m.loc[h.index, systems].to_numpy()
    a, b = np.triu_indices(len(systems), k=1)
    rated = ~(np.isnan(hv) | np.isnan(mv))  # items x systems
    valid = rated[:, a] & rated[:, b]
    # cell = 3 * (1 - human sign) + (1 - metric sign), with the signs of Def. 13 (ties within TIE_TOLERANCE)
    code = 4 - 3 * _sign(hv[:, a], hv[:, b]) - _sign(mv[:, a], mv[:, b])
    code[~valid] = -1
    used = valid.any(axis=0)
    return systems[a[used]], systems[b[used]], code[:, used]


def _sign(x: np.ndarray, y: np.ndarray, tol: float = TIE_TOLERANCE) -> np.ndarray:
    """Def. 13 element-wise: +1 where x exceeds y by at least ``tol``, -1 where y exceeds x by it, 0 otherwise (a
    tie, NaN included: NaN compares False)."""
    d = x - y
    return (d >= tol).astype(np.int8) - (d <= -tol).astype(np.int8)


def favi_table(human: pd.DataFrame, metric: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of systems (``system_a`` < ``system_b`` as strings; positive Φ favours ``system_a``) from
    two items x systems score matrices with the same items and systems (NaN = not rated; higher = better).

    Ratings follow Def. 13 on each pair; an item counts for a pair only when both systems have both scores. Pairs
    without any such item are left out. Columns: system_a, system_b, n_items, the nine cells ``c_pp`` ... ``c_mm``
    (c_<human><metric>, p/e/m = +, =, -), total_error, margin_human, margin_metric, favi (NaN when there is no
    error), sample_accuracy, system_sign_agrees. Vectorised over items and pairs (one bincount)."""
    return _table(*_pair_codes(human, metric))


def _table(system_a: np.ndarray, system_b: np.ndarray, code: np.ndarray) -> pd.DataFrame:
    """:func:`favi_table` from the pairs and per-(item, pair) cells of :func:`_pair_codes`."""
    n_pairs = code.shape[1]
    pair = np.broadcast_to(np.arange(n_pairs), code.shape)
    keep = code >= 0
    counts = np.bincount(pair[keep] * 9 + code[keep], minlength=9 * n_pairs).reshape(n_pairs, 3, 3)
    result = summarize(counts)
    columns = {"system_a": system_a, "system_b": system_b, "n_items": result.n_items,
               **dict(zip(CELLS, counts.reshape(n_pairs, 9).T))}
    for name in ("total_error", "margin_human", "margin_metric", "favi", "sample_accuracy", "system_sign_agrees"):
        columns[name] = getattr(result, name)
    return pd.DataFrame(columns)


def preference_table(system_a, system_b, human, metric) -> pd.DataFrame:
    """:func:`favi_table` from preference ratings given directly, one observation per row (an LLM judge's and the
    humans' verdicts on the same item and pair of systems): ``system_a``/``system_b`` the pair, ``human`` and
    ``metric`` its two ratings (+1: ``system_a`` preferred, 0 equal, -1 ``system_b``), each row counted in its
    pair's confusion matrix (Def. 4). Pairs are ordered ``system_a < system_b`` as strings; a row given the other
    way round has its ratings negated."""
    a, b = (np.asarray(x, dtype=object).astype(str) for x in (system_a, system_b))
    h, m = (np.asarray(x) for x in (human, metric))
    if not (len(a) == len(b) == len(h) == len(m)) or not len(a):
        raise ValueError("system_a, system_b, human and metric must be non-empty and of equal length")
    for name, x in (("human", h), ("metric", m)):
        if not np.isin(x, (-1, 0, 1)).all():
            raise ValueError(f"{name} ratings must be +1, 0 or -1")
    if (a == b).any():
        raise ValueError("a pair compares a system with itself")
    flip = a > b
    first, second = np.where(flip, b, a), np.where(flip, a, b)
    sign = np.where(flip, -1, 1)
    code = (1 - sign * h.astype(np.int64)) * 3 + (1 - sign * m.astype(np.int64))
    pairs, pair = np.unique(np.column_stack([first, second]), axis=0, return_inverse=True)
    pair = pair.ravel()
    counts = np.bincount(pair * 9 + code, minlength=9 * len(pairs)).reshape(len(pairs), 3, 3)
    result = summarize(counts)
    columns = {"system_a": pairs[:, 0], "system_b": pairs[:, 1], "n_items": result.n_items,
               **dict(zip(CELLS, counts.reshape(len(pairs), 9).T))}
    for name in ("total_error", "margin_human", "margin_metric", "favi", "sample_accuracy", "system_sign_agrees"):
        columns[name] = getattr(result, name)
    return pd.DataFrame(columns)


def pair_intervals(table: pd.DataFrame, *, n_resamples: int = 1000, rng=None, level: float = 0.95) -> pd.DataFrame:
    """:func:`favi_uncertainty`'s interval and test for a table whose pairs have their own items (each
    :func:`preference_table` row is one item of one pair), computed from each pair's confusion matrix alone:
    resampling a pair's items with replacement is a multinomial draw over its nine cells, and the sign-flip null
    of "no favoritism" flips the cost of each of its errors, Φ* = (Σ ±1 over the cost-1 errors + 2 Σ ±1 over the
    cost-2 errors) / E, two binomial draws. Adds ``low``, ``high``, ``p_value``, ``null_mean_abs``."""
    n_resamples = check_count(n_resamples, "n_resamples")
    level = check_number(level, "level", low=0, high=1, low_open=True, high_open=True)
    gen = check_rng(rng)
    c = confusions(table).reshape(len(table), 9)
    n = c.sum(axis=1)
    cost = COST.ravel().astype(np.float64)
    error = (~np.isin(np.arange(9), _DIAGONAL)).astype(np.float64)
    e1, e2 = c[:, np.abs(cost) == 1].sum(axis=1), c[:, np.abs(cost) == 2].sum(axis=1)
    low, high, p, null_abs = (np.full(len(table), np.nan) for _ in range(4))
    tail = (1 - level) / 2 * 100
    rated = np.flatnonzero(n > 0)
    step = max(1, (1 << 22) // (9 * n_resamples))  # pairs per block: bounded memory
    for first in range(0, len(rated), step):
        k = rated[first:first + step]
        draws = gen.multinomial(n[k][:, None], (c[k] / n[k][:, None])[:, None, :], size=(len(k), n_resamples))
        with np.errstate(invalid="ignore", divide="ignore"):
            boot = (draws @ cost) / (draws @ error)  # pairs x resamples; NaN/inf where a draw has no error
        boot[~np.isfinite(boot)] = np.nan
        some = np.isfinite(boot).any(axis=1)
        if some.any():
            low[k[some]], high[k[some]] = np.nanpercentile(boot[some], [tail, 100 - tail], axis=1)
        flips = (2 * gen.binomial(e1[k][:, None], 0.5, (len(k), n_resamples)) - e1[k][:, None]
                 + 2 * (2 * gen.binomial(e2[k][:, None], 0.5, (len(k), n_resamples)) - e2[k][:, None]))
        total = (e1 + e2)[k]
        with np.errstate(invalid="ignore", divide="ignore"):
            null = np.abs(flips / total[:, None])
        observed = np.abs(table["favi"].to_numpy()[k])
        has = total > 0
        p[k[has]] = (1 + (null[has] >= observed[has, None] - 1e-12).sum(axis=1)) / (1 + n_resamples)
        null_abs[k[has]] = null[has].mean(axis=1)
    return table.assign(low=low, high=high, p_value=p, null_mean_abs=null_abs)


def confusions(table: pd.DataFrame) -> np.ndarray:
    """The (pairs, 3, 3) confusion matrices of a :func:`favi_table`."""
    return table[list(CELLS)].to_numpy(dtype=np.int64).reshape(-1, 3, 3)


def sign_accuracies(table: pd.DataFrame) -> SignAccuracy:
    """Defs. 10-11 over the pairs of a :func:`favi_table`: sample level pools the items of all pairs (Σ diagonal /
    Σ items, the paper's "overall score"); system level is the share of pairs with agreeing margin signs."""
    if len(table) == 0:
        raise ValueError("no system pairs: sign accuracy is undefined")
    c = confusions(table)
    items = int(c.sum())
    return SignAccuracy(sample=float(np.trace(c, axis1=1, axis2=2).sum() / items),
                        system=float(table["system_sign_agrees"].mean()), pairs=len(table), items=items)


def one_vs_all(table: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6: every pair's Φ seen from each of its two systems (positive = the metric favours ``system``):
    columns system, opponent, favi."""
    forward = table[["system_a", "system_b", "favi"]].set_axis(["system", "opponent", "favi"], axis=1)
    backward = forward.assign(system=table["system_b"], opponent=table["system_a"], favi=-table["favi"])
    return pd.concat([forward, backward], ignore_index=True)


def favi_uncertainty(human: pd.DataFrame, metric: pd.DataFrame, *, n_resamples: int = 1000, rng=None,
                     level: float = 0.95) -> pd.DataFrame:
    """Beyond the paper: how much of a pair's Φ is noise. The :func:`favi_table` with four more columns:

    - ``low``, ``high``: a percentile bootstrap interval at ``level``, resampling the dataset's items with
      replacement (one draw of items shared by all pairs; resamples without an error are skipped);
    - ``p_value``: a sign-flip permutation test of H0 "no favoritism". Exchanging the human and metric rating of an
      item turns its error cost W_mn into W_nm = -W_mn and leaves E unchanged, so under H0 (the two ratings are
      exchangeable within an item) Φ* = Σ_i s_i cost_i / E with independent signs s_i = ±1. p = (1 + #{|Φ*| >=
      |Φ|}) / (1 + n_resamples);
    - ``null_mean_abs``: the mean |Φ*|, i.e. the |Φ| a metric with the same errors but no favoritism would show.
    """
    n_resamples = check_count(n_resamples, "n_resamples")
    level = check_number(level, "level", low=0, high=1, low_open=True, high_open=True)
    rng = check_rng(rng)
    system_a, system_b, code = _pair_codes(human, metric)
    table = _table(system_a, system_b, code)
    code = code[(code >= 0).any(axis=1)]  # items no pair can use carry no information
    valid = code >= 0
    cost = np.where(valid, COST.ravel()[np.where(valid, code, 0)], 0).astype(np.float64)  # items x pairs
    error = (valid & ~np.isin(code, _DIAGONAL)).astype(np.float64)
    n_items = len(code)
    draws = rng.integers(0, n_items, size=(n_resamples, n_items))
    rows = np.arange(n_resamples)[:, None] * n_items
    weights = np.bincount((rows + draws).ravel(), minlength=n_resamples * n_items).reshape(n_resamples, n_items)
    weights = weights.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = (weights @ cost) / (weights @ error)
    boot[~np.isfinite(boot)] = np.nan
    tail = (1 - level) / 2 * 100
    low, high = (np.nanpercentile(boot, q, axis=0) if np.isfinite(boot).any() else np.nan
                 for q in (tail, 100 - tail))
    signs = rng.integers(0, 2, size=(n_resamples, n_items)) * 2.0 - 1.0
    total = error.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        null = (signs @ cost) / total
        exceed = (np.abs(null) >= np.abs(table["favi"].to_numpy()) - 1e-12).sum(axis=0)
    return table.assign(low=low, high=high, p_value=np.where(total > 0, (1 + exceed) / (1 + n_resamples), np.nan),
                        null_mean_abs=np.where(total > 0, np.abs(null).mean(axis=0), np.nan))


# --- sign-test win graphs (Fig. 1, Figs. 8-13) --------------------------------------------------------------------

def significance_outcomes(table: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Per pair of a :func:`favi_table`, the sign-test verdict of the human and of the metric ratings: +1 when
    ``system_a`` is significantly preferred (p < ``alpha``), -1 when ``system_b`` is, 0 otherwise.

    Ties (=) carry no sign; Coakley & Heise (1996) review the ways to handle them. ``"drop"`` is the conventional
    conditional test (ties removed, n = d+ + d-), ``"half"`` shares them equally between the two systems (an odd
    one dropped), which makes the test more conservative the more ties there are (the tie names of
    :func:`analysis.pairwise.sign_test`)."""
    alpha = check_number(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    check_tie_policy(ties, ("drop", "half"))
    c = confusions(table)
    out = table[["system_a", "system_b"]].copy()
    for who, d in (("human", c.sum(axis=2)), ("metric", c.sum(axis=1))):
        wins, losses = d[:, 0], d[:, 2]
        if ties == "half":
            wins, losses = wins + d[:, 1] // 2, losses + d[:, 1] // 2
        p = sign_test_pvalues(wins, losses)
        out[f"{who}_pvalue"] = p
        out[who] = np.where(p < alpha, np.sign(wins - losses), 0).astype(np.int64)
    return out


def graph_agreement(outcomes: pd.DataFrame) -> float:
    """§2: the share of system pairs on which the metric's significance verdict (a wins, b wins, neither) equals the
    humans' (61.1% for COMET-22 on WMT22 en-de in the paper)."""
    if len(outcomes) == 0:
        raise ValueError("no system pairs")
    return float((outcomes["human"] == outcomes["metric"]).mean())


def win_graph(outcomes: pd.DataFrame, who: str = "human", *, reduce: bool = True) -> nx.DiGraph:
    """The win graph of ``who`` ("human" or "metric"): every system a node, an edge winner -> loser for every
    significant verdict, transitive edges removed (``networkx.transitive_reduction``) when the graph is acyclic.
    A cycle (possible: significance is not transitive) keeps all edges and sets ``graph.graph["cyclic"]``. Nodes
    and edges are in sorted order, so drawings do not depend on the hash seed."""
    if who not in ("human", "metric"):
        raise ValueError(f"who must be 'human' or 'metric', got {who!r}")
    graph = nx.DiGraph()
    graph.add_nodes_from(sorted(set(outcomes["system_a"]) | set(outcomes["system_b"]), key=str))
    for a, b, verdict in outcomes[["system_a", "system_b", who]].itertuples(index=False):
        if verdict:
            graph.add_edge(*((a, b) if verdict > 0 else (b, a)))
    graph.graph["cyclic"] = not nx.is_directed_acyclic_graph(graph)
    if reduce and not graph.graph["cyclic"]:
        reduced = nx.transitive_reduction(graph)  # its edge order follows set iteration, i.e. the hash seed
        graph = nx.DiGraph(**graph.graph)
        graph.add_nodes_from(sorted(reduced.nodes, key=str))
        graph.add_edges_from(sorted(reduced.edges, key=lambda e: (str(e[0]), str(e[1]))))
    return graph


def graph_layers(graph: nx.DiGraph) -> list[list]:
    """Rows for drawing a win graph top-down: a system's row is the length of the longest chain of wins above it
    (unbeaten systems first). Cyclic graphs are layered on their strongly connected components."""
    dag = nx.condensation(graph)
    depth: dict[int, int] = {}
    for node in nx.topological_sort(dag):
        depth[node] = max((depth[p] + 1 for p in dag.predecessors(node)), default=0)
    rows: list[list] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for node, members in dag.nodes(data="members"):
        rows[depth[node]].extend(sorted(members, key=str))
    return [sorted(row, key=str) for row in rows]


# --- App. C.2.1: order symmetry of an LLM preference judge ---------------------------------------------------------

def preference_symmetry(original, reversed_back) -> Symmetry:
    """How a judge's ratings of (A, B) agree with its ratings of the same items shown as (B, A), the latter already
    mapped back to (A, B)'s frame (so a perfectly symmetric judge gives equal ratings): the confusion matrix (rows
    original), the share of equal ratings and Krippendorff's α between the two orders (the ``krippendorff``
    package; nominal, and ordinal on the order - < = < +)."""
    o, r = _paired_ratings(original, reversed_back)
    if o.ndim != 1:
        raise ValueError(f"ratings must be one-dimensional, got shape {o.shape}")
    data = np.vstack([o, r]).astype(float)
    return Symmetry(
        confusion=confusion_matrix(o, r), n_items=len(o), accuracy=float((o == r).mean()),
        alpha_nominal=float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")),
        alpha_ordinal=float(krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal")))


# --- beyond the paper: the pairs' cells, halves, clustered bootstrap, multiple testing ------------------------------

@dataclass(frozen=True)
class PairCells:
    """Per (item, pair) the confusion cell of a pair's ratings on an item: ``code`` (items x pairs) holds
    3 * (1 - human sign) + (1 - metric sign), i.e. 0..8 in the row-major order of :data:`CELLS`, and -1 where the
    item lacks one of the pair's four scores. ``items`` are the rows' labels, ``system_a`` < ``system_b`` (as
    strings) the pairs' systems (only pairs with at least one usable item)."""

    items: pd.Index
    system_a: np.ndarray
    system_b: np.ndarray
    code: np.ndarray

    def table(self, rows=None) -> pd.DataFrame:
        """:func:`favi_table` on the items selected by the boolean mask ``rows`` (all items when None); a pair
        without any selected item has ``n_items`` 0 and a NaN Φ."""
        code = self.code if rows is None else np.where(np.asarray(rows, dtype=bool)[:, None], self.code, -1)
        return _table(self.system_a, self.system_b, code)


def pair_cells(human: pd.DataFrame, metric: pd.DataFrame) -> PairCells:
    """The per-(item, pair) confusion cells behind :func:`favi_table` (same checks, same pairs, same order):
    ``pair_cells(h, m).table()`` equals ``favi_table(h, m)``."""
    system_a, system_b, code = _pair_codes(human, metric)
    items = _score_matrix(human, "human scores").index
    return PairCells(items=items, system_a=system_a, system_b=system_b, code=code)


def human_ties(code: np.ndarray) -> np.ndarray:
    """Where the humans tie (=) in cells of :class:`PairCells` (False where the item is not usable)."""
    return (code >= 0) & (code // 3 == 1)


def metric_ties(code: np.ndarray) -> np.ndarray:
    """Where the metric ties (=) in cells of :class:`PairCells` (False where the item is not usable)."""
    return (code >= 0) & (code % 3 == 1)


def favi_bootstrap(human: pd.DataFrame, metric: pd.DataFrame, *, groups=None, n_resamples: int = 1000, rng=None,
                   level: float = 0.95) -> pd.DataFrame:
    """Beyond the paper: a percentile bootstrap interval (``low``, ``high``) for every pair's Φ, resampling whole
    ``groups`` of items (e.g. documents: one label per row of ``human``, a cluster bootstrap) with replacement,
    or single items when ``groups`` is None. One draw is shared by all pairs; resamples without an error are
    skipped. With ``groups=None`` and every item usable by some pair, the interval equals
    :func:`favi_uncertainty`'s for the same ``rng`` state (the same draws)."""
    n_resamples = check_count(n_resamples, "n_resamples")
    level = check_number(level, "level", low=0, high=1, low_open=True, high_open=True)
    rng = check_rng(rng)
    cells = pair_cells(human, metric)
    table = cells.table()
    if groups is None:
        label = np.arange(len(cells.items))
    else:
        group = pd.Series(groups)
        if len(group) != len(cells.items):
            raise ValueError(f"groups has {len(group)} labels for {len(cells.items)} items")
        if group.isna().any():
            raise ValueError("groups contains a missing label: every item needs its group")
        label = pd.factorize(group.to_numpy())[0]
    usable = (cells.code >= 0).any(axis=1)
    code, label = cells.code[usable], pd.factorize(label[usable])[0]
    valid = code >= 0
    cost = np.where(valid, COST.ravel()[np.where(valid, code, 0)], 0).astype(np.float64)
    error = (valid & ~np.isin(code, _DIAGONAL)).astype(np.float64)
    n_groups = int(label.max()) + 1 if len(label) else 0
    draws = rng.integers(0, n_groups, size=(n_resamples, n_groups))
    rows = np.arange(n_resamples)[:, None] * n_groups
    counts = np.bincount((rows + draws).ravel(), minlength=n_resamples * n_groups).reshape(n_resamples, n_groups)
    weights = counts[:, label].astype(np.float64)  # an item weighs as often as its group was drawn
    with np.errstate(invalid="ignore", divide="ignore"):
        boot = (weights @ cost) / (weights @ error)
    boot[~np.isfinite(boot)] = np.nan
    tail = (1 - level) / 2 * 100
    finite = np.isfinite(boot).any(axis=0)
    low = np.full(boot.shape[1], np.nan)
    high = np.full(boot.shape[1], np.nan)
    if finite.any():
        low[finite], high[finite] = (np.nanpercentile(boot[:, finite], q, axis=0) for q in (tail, 100 - tail))
    return table.assign(low=low, high=high)


def benjamini_hochberg(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (the step-up false discovery rate procedure): reject at FDR q where the
    adjusted value is <= q; NaN (a test not run) stays NaN and does not count among the m tests
    (:func:`analysis.pairwise.adjust_pvalues`)."""
    return adjust_pvalues(pvalues, "bh")
