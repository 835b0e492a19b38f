"""How much two rankings disagree: the one home for comparing rankings.

Peyrard et al. (2021), §5, Table 1: how much two aggregation mechanisms disagree on one evaluation setup.
Also: positions and pairs that change between two rankings (Knowles 2021's remove-a-system test, Levtsov & Ustalov
2025's stability curves), rank displacement and row-wise Spearman correlations against a reference ranking.

Three measures, as in Table 1: the share of system pairs ordered differently (a rescaling of Kendall's tau), whether
the state-of-the-art (top-1) system differs, and whether the top-3 *sets* differ. Also: the conditional agreement of
significance tests (Fig. 6) and the search for BT's independence-of-irrelevant-alternatives violations (App. F).

A pair of mechanisms is a tuple of their names, ``("mean", "bt")``; names may contain underscores (evalica's
``average_win_rate``): the result columns join them (:func:`measure_column`) but nothing ever splits them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from . import comparisons
from .aggregate import AGGREGATORS
from .validation import align_series, check_scores, real_array

TIE_BREAKS = ("first", "last")


#: How a mechanism is named to readers; saved tables use the short names (``pair_name``: "mean_bt").
MECHANISM_LABELS = {"mean": "MEAN", "median": "MEDIAN", "bt": "BT", "elo": "Elo", "trueskill": "TrueSkill"}


def mechanism_label(name: str) -> str:
    return MECHANISM_LABELS.get(name, name)


def pair_label(pair: tuple[str, str]) -> str:
    """``("mean", "bt")`` -> ``"MEAN vs. BT"``: a pair of mechanisms as readers see it."""
    a, b = pair
    return f"{mechanism_label(a)} vs. {mechanism_label(b)}"


def mechanism_pairs(names) -> list[tuple[str, str]]:
    """Every unordered pair of mechanisms, in ``itertools.combinations`` order: ``[("mean", "median"), ...]``."""
    return list(combinations(names, 2))


def pair_name(pair: tuple[str, str]) -> str:
    """``("mean", "bt")`` -> ``"mean_bt"``: the row label of a pair in saved tables."""
    a, b = pair
    return f"{a}_{b}"


def measure_column(pair: tuple[str, str], measure: str) -> str:
    """The column of :func:`compare_aggregators` holding ``measure`` for ``pair``: ``"mean_bt_disagree"``."""
    return f"{pair_name(pair)}_{measure}"


def _as_vector(x, name: str) -> np.ndarray:
    arr = real_array(x, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    return arr


def _aligned(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = align_series(a, b, "score vectors", "system")
    x, y = _as_vector(a, "a"), _as_vector(b, "b")
    if len(x) != len(y):
        raise ValueError(f"score vectors must have the same length, got {len(x)} and {len(y)}")
    if len(x) < 2:
        raise ValueError("need at least two systems to compare rankings")
    return x, y


def disagreement(a, b) -> float:
    """(1 - Kendall tau_b) / 2 between two score vectors over the same systems.

    0 means the same order, 1 the reversed order; without ties it is exactly the share of system pairs ordered
    differently. Series are aligned on their index. A constant vector has no order, so tau is undefined: ValueError.
    """
    x, y = _aligned(a, b)
    if np.all(x == x[0]) or np.all(y == y[0]):
        raise ValueError("disagreement is undefined when one score vector is constant (it ranks no pair)")
    # the pair-count kernel is scipy's statistic bit for bit, without scipy's per-call overhead; O(n^2) memory
    tau = kendall_tau_b(x, y)[0] if len(x) <= 2000 else stats.kendalltau(x, y).statistic
    return float((1.0 - tau) / 2.0)


def rank_changes(rows, reference) -> np.ndarray:
    """Per row of ``rows`` (trials x systems): how many systems sit at another position than in the ranking by
    ``reference`` (higher is better; ties in either broken by system order, as a sort would)."""
    order = np.argsort(-np.asarray(reference, float), kind="stable")
    ranked = np.argsort(-np.atleast_2d(np.asarray(rows, float)), axis=1, kind="stable")
    return (ranked != order[None, :]).sum(axis=1)


def order_changes(before, after) -> int:
    """System pairs (among ``after``'s systems) that ``after`` orders differently from ``before`` (a tie in one and
    an order in the other counts); Series aligned on ``after``'s index."""
    x, y = np.asarray(before[after.index], float), np.asarray(after, float)
    differs = np.sign(x[:, None] - x[None, :]) != np.sign(y[:, None] - y[None, :])
    return int(np.triu(differs, 1).sum())


def rank_displacement(rows, reference) -> np.ndarray:
    """Per row of ``rows`` (trials x systems): the mean over systems of |rank in the row - rank in ``reference``|
    (rank 1 = highest; tied values get their average rank)."""
    ranks = stats.rankdata(-np.atleast_2d(np.asarray(rows, float)), axis=1)
    return np.abs(ranks - stats.rankdata(-np.asarray(reference, float))[None, :]).mean(axis=1)


def spearman_rows(rows, reference) -> np.ndarray:
    """Spearman's rho of each row of ``rows`` (trials x systems) with ``reference``, vectorised (equal to
    ``scipy.stats.spearmanr`` row by row); NaN where a row is constant to 1e-12 (equal strengths have no order)."""
    rows = np.atleast_2d(np.asarray(rows, float))
    rows = np.where(np.ptp(rows, axis=1, keepdims=True) < 1e-12, np.nan, rows)
    ranked = stats.rankdata(rows, axis=1)
    ref = stats.rankdata(reference)
    a = ranked - ranked.mean(axis=1, keepdims=True)
    b = ref - ref.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (a @ b) / np.sqrt((a**2).sum(axis=1) * (b**2).sum())


def spearman_summary(rho) -> dict:
    """Mean and 2.5-97.5% percentiles of the defined correlations (NaN ones — all strengths equal, e.g. every
    match a tie — have no ranking to correlate); NaN when none is defined."""
    defined = np.asarray(rho)[~np.isnan(rho)]
    if not len(defined):
        return {"spearman_mean": np.nan, "spearman_low": np.nan, "spearman_high": np.nan}
    return {"spearman_mean": float(defined.mean()), "spearman_low": float(np.percentile(defined, 2.5)),
            "spearman_high": float(np.percentile(defined, 97.5))}


def _check_k(k, n: int) -> int:
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or not 1 <= k <= n:
        raise ValueError(f"k must be an integer between 1 and the number of systems ({n}), got {k!r}")
    return int(k)


def top_k(scores, k: int, tie_break: str = "first") -> list[int]:
    """Positions of the k highest scores. Ties at the boundary are cut by position: ``"first"`` (default) keeps the
    earlier system (column), ``"last"`` the later one."""
    x = _as_vector(scores, "scores")
    k = _check_k(k, len(x))
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {list(TIE_BREAKS)}")
    if tie_break == "first":
        order = np.argsort(-x, kind="stable")
    else:
        order = len(x) - 1 - np.argsort(-x[::-1], kind="stable")
    return sorted(order[:k].tolist())


def top_k_differs(a, b, k: int, tie_break: str = "first") -> bool:
    """True when the top-k *sets* of systems differ (order inside the set does not matter; ties as in :func:`top_k`)."""
    x, y = _aligned(a, b)
    return top_k(x, k, tie_break) != top_k(y, k, tie_break)


def compare_aggregators(
    scores: pd.DataFrame,
    aggregators: Mapping[str, Callable[[pd.DataFrame], pd.Series]] | None = None,
    k: int = 3,
    tie_break: str = "first",
) -> pd.Series:
    """Aggregate one score matrix with every mechanism and compare every pair of them: one row of results.

    Returns a Series with ``n_instances``, ``n_systems`` and, for each pair ``a_b`` of mechanisms (in the given order,
    ``itertools.combinations``), ``a_b_disagree`` (:func:`disagreement`), ``a_b_top1`` and ``a_b_top{k}``
    (:func:`top_k_differs`, as 0/1, ties at the boundary cut by ``tie_break``). ``k`` is capped at the number of
    systems. Default mechanisms: mean, median, bt, elo, trueskill with their default parameters. Each aggregate is
    aligned on the score matrix's columns, so an aggregator that returns its systems in another order is compared
    system by system, not by position. ``result.attrs["aggregates"].results`` holds each mechanism's own result (BT's
    carries its fit, :class:`analysis.bt.BTFit`). Many matrices over the same systems: :func:`compare_rankings`.
    """
    check_scores(scores)
    aggregators = dict(AGGREGATORS if aggregators is None else aggregators)
    raw = {name: fn(scores) for name, fn in aggregators.items()}
    results = {name: _on_columns(value, scores.columns, name)[None, :] for name, value in raw.items()}
    n_instances, n_systems = scores.shape
    row: dict[str, float] = {"n_instances": n_instances, "n_systems": n_systems}
    row |= {column: float(value[0]) for column, value in compare_rankings(results, k, tie_break).items()}
    out = pd.Series(row)
    out.attrs["aggregates"] = Aggregates(raw)
    return out


def compare_rankings(results: Mapping[str, np.ndarray], k: int = 3, tie_break: str = "first") -> dict:
    """:func:`compare_aggregators`' measures for many trials at once: ``results`` maps each mechanism to its
    (trials x systems) aggregates (one row per score matrix, the same systems in the same order). Returns, per pair
    of mechanisms in ``itertools.combinations`` order, ``a_b_disagree`` ((1 - Kendall tau_b) / 2, NaN where either
    aggregate is constant), ``a_b_top1`` and ``a_b_top{k}`` (1.0 when the top sets differ), each an array over
    trials, equal to :func:`disagreement` and :func:`top_k_differs` trial by trial (tested)."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r}; expected one of {list(TIE_BREAKS)}")
    arrays = {}
    for name, value in results.items():
        arr = real_array(value, f"aggregate {name!r}")
        if arr.ndim != 2 or arr.shape[1] < 2:
            raise ValueError(f"aggregate {name!r} must be a (trials x systems) array over at least two systems, "
                             f"got shape {arr.shape}")
        if np.isnan(arr).any():
            raise ValueError(f"aggregate {name!r} contains NaN")
        arrays[name] = arr
    shapes = {a.shape for a in arrays.values()}
    if len(shapes) > 1:
        raise ValueError(f"every aggregate must have the same (trials x systems) shape, got {sorted(shapes)}")
    n_systems = next(iter(shapes))[1] if shapes else 0
    kk = min(int(k), n_systems)
    tops = {name: (_top_sets(a, 1, tie_break), _top_sets(a, kk, tie_break)) for name, a in arrays.items()}
    out = {}
    for pair in mechanism_pairs(arrays):
        x, y = arrays[pair[0]], arrays[pair[1]]
        out[measure_column(pair, "disagree")] = (1.0 - kendall_tau_b(x, y)) / 2.0
        out[measure_column(pair, "top1")] = (tops[pair[0]][0] != tops[pair[1]][0]).any(axis=1).astype(float)
        out[measure_column(pair, f"top{k}")] = (tops[pair[0]][1] != tops[pair[1]][1]).any(axis=1).astype(float)
    return out


def _top_sets(rows: np.ndarray, k: int, tie_break: str) -> np.ndarray:
    """Per row, the sorted positions of its k highest values (:func:`top_k`, vectorised over rows)."""
    if tie_break == "first":
        order = np.argsort(-rows, axis=1, kind="stable")
    else:
        order = rows.shape[1] - 1 - np.argsort(-rows[:, ::-1], axis=1, kind="stable")
    return np.sort(order[:, :k], axis=1)


def kendall_tau_b(x, y) -> np.ndarray:
    """Kendall's tau_b between each row of ``x`` and the same row of ``y`` (trials x systems), NaN where either row
    is constant. Bit for bit ``scipy.stats.kendalltau(x[t], y[t]).statistic`` (tested): the same integer counts of
    concordant minus discordant pairs and of ties, divided the same way, clipped to [-1, 1]. It compares every pair
    of positions, so it suits rankings of up to some thousands of systems, many at once."""
    x, y = np.atleast_2d(np.asarray(x, float)), np.atleast_2d(np.asarray(y, float))
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
    i, j = np.triu_indices(x.shape[1], 1)
    sx = (x[:, i] > x[:, j]).astype(np.int8) - (x[:, i] < x[:, j])
    sy = (y[:, i] > y[:, j]).astype(np.int8) - (y[:, i] < y[:, j])
    con_minus_dis = np.einsum("tp,tp->t", sx, sy, dtype=np.int64)
    untied_x = len(i) - np.count_nonzero(sx == 0, axis=1)
    untied_y = len(i) - np.count_nonzero(sy == 0, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = con_minus_dis / np.sqrt(untied_x) / np.sqrt(untied_y)
    tau = np.minimum(1.0, np.maximum(-1.0, tau))
    tau[(untied_x == 0) | (untied_y == 0)] = np.nan
    return tau


@dataclass(frozen=True, eq=False)  # compared by identity: pandas compares attrs when concatenating rows
class Aggregates:
    """Each mechanism's own result in :func:`compare_aggregators`' ``attrs["aggregates"]``."""

    results: dict


def _on_columns(result, columns: pd.Index, name: str) -> np.ndarray:
    """An aggregate as a float array in the score matrix's column order (a Series is aligned on its index)."""
    if isinstance(result, pd.Series):
        if not result.index.is_unique or set(result.index) != set(columns):
            raise ValueError(f"aggregator {name!r} returned systems {list(result.index)}, expected {list(columns)}")
        result = result.reindex(columns)
    return np.asarray(result, dtype=float)


def agreement_matrix(significant: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6: ``[i, j]`` = share of rows where column j is True among rows where column i is True; the diagonal is
    the share of rows where column i is True. Columns are tests, rows system pairs."""
    sig = significant.astype(bool)
    out = pd.DataFrame(index=sig.columns, columns=sig.columns, dtype=float)
    for i in sig.columns:
        given = sig[sig[i]]
        for j in sig.columns:
            out.loc[i, j] = sig[i].mean() if i == j else (given[j].mean() if len(given) else np.nan)
    return out


IIA_COLUMNS = ["a", "b", "c", "alone", "with_c", "kind", "winner_share"]


def iia_violations(matrix: pd.DataFrame, ties: str = "half") -> pd.DataFrame:
    """App. F: triples (a, b, c) where BT orders a and b one way alone and differently once c is added.

    Every pair of systems is compared on the same instances, so each pair plays the same number of games (with
    ``ties="half"`` or ``"loss"``). In such a balanced design the BT likelihood equations read
    W_i = n * sum_j lambda_i / (lambda_i + lambda_j), which increases with lambda_i: BT orders systems exactly by
    their total wins W_i. Hence, exactly and without fitting: alone, a beats b iff w_ab > w_ba; with c, iff
    w_ab + w_ac > w_ba + w_bc. (The tests check this against full Bradley-Terry fits of every triple.)

    Returns one row per violation: a, b = the pair, c = the third system, the decision alone and with c, its
    ``kind``: "reversed" (the order flips) or "tied" (a strict order becomes a tie, as in the paper's example), and
    ``winner_share``: the share of the pair's comparisons won by the pair's winner when alone. Pairs that tie when
    alone are not counted.
    """
    if ties not in ("half", "loss"):
        raise ValueError(f"ties must be 'half' or 'loss' (a balanced design), got {ties!r}")
    wins = comparisons.win_matrix(comparisons.from_scores(matrix), ties)
    n = wins.shape[0]
    head = wins - wins.T  # d[a, b] = w_ab - w_ba
    # with c: d[a, b] + (w_ac - w_bc), for every (a, b, c)
    with_c = head[:, :, None] + (wins[:, None, :] - wins[None, :, :])
    idx = np.arange(n)
    a, b, c = np.nonzero(
        (np.sign(head)[:, :, None] != np.sign(with_c))
        & (idx[:, None, None] < idx[None, :, None])  # each unordered pair once
        & (head[:, :, None] != 0)
        & (idx[None, None, :] != idx[:, None, None])
        & (idx[None, None, :] != idx[None, :, None])
    )
    names = np.asarray(matrix.columns)
    alone = np.sign(head[a, b])
    together = np.sign(with_c[a, b, c])
    games = wins[a, b] + wins[b, a]
    return pd.DataFrame({
        "a": names[a], "b": names[b], "c": names[c],
        "alone": np.where(alone > 0, "a", "b"),
        "with_c": np.select([together > 0, together < 0], ["a", "b"], "tie"),
        "kind": np.where(together == 0, "tied", "reversed"),
        "winner_share": np.maximum(wins[a, b], wins[b, a]) / games,
    }, columns=IIA_COLUMNS)
