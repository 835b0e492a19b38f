"""One form for every kind of pairwise evidence: weighted pairs of systems with an outcome, ties explicit.

A score matrix (Peyrard et al. 2021: every pair compared on every test instance), a list of judgments (llmfao, an
arena or LLM-judge file: ``model_a, model_b, winner``), bootstrap resamples and sampled trials (Levtsov & Ustalov
2025, Secs. 6-7) all become :class:`Comparisons`: row k says that ``systems[left[k]]`` met ``systems[right[k]]``
``weight[k]`` times with ``outcome[k]`` (+1 left won, -1 right won, 0 a tie). Rows belong to *units* (a test
instance, a judgment): resampling reweights units, never single rows, so an instance's comparisons stay together.

:func:`win_matrices` is the one builder of Bradley-Terry win matrices from them, under one tie vocabulary
(:data:`TIES`): ``"half"`` (a tie is half a win for each system, the default everywhere), ``"drop"`` (a tie is no
comparison), ``"loss"`` (a tie is a win for the right-hand, i.e. later, system: what the BT-eval code of Peyrard
et al. did; use it only to reproduce that paper), or a number w in [0, 1]: a tie credits w wins to each side
(evalica's ``tie_weight``; 0.5 is ``"half"``, 0 is ``"drop"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from numbers import Real

import numba
import numpy as np
import pandas as pd
from scipy import sparse

from .validation import TIE_POLICIES, check_scores, real_array, system_names

#: Tie policies by name (:data:`analysis.validation.TIE_POLICIES`): the share of a tie credited to (left, right).
TIES = dict(zip(TIE_POLICIES, ((0.5, 0.5), (0.0, 0.0), (0.0, 1.0))))
#: What a tie is when none is named.
DEFAULT_TIES = "half"
#: The tie policies as the pages name them, once: in a sentence or a table (``TIE_WORDS``) and in a figure's legend
#: (``TIE_SHORT``); "loss" is what the paired paper's published code did.
TIE_WORDS = {"half": "a tie is half a win each", "drop": "ties dropped",
             "loss": "a tie is a win for the later system (the paired paper's code)"}
TIE_SHORT = {"half": "tie = half a win", "drop": "ties dropped", "loss": "tie = win for later system"}


def tie_credit(ties) -> tuple[float, float]:
    """(left share, right share) of a tie under ``ties``: a name of :data:`TIES` or a number w in [0, 1] (w each)."""
    if isinstance(ties, str):
        if ties not in TIES:
            raise ValueError(f"unknown tie policy {ties!r}; expected one of {list(TIES)} or a number in [0, 1]")
        return TIES[ties]
    if isinstance(ties, Real) and not isinstance(ties, bool) and 0 <= float(ties) <= 1:
        return float(ties), float(ties)
    raise ValueError(f"unknown tie policy {ties!r}; expected one of {list(TIES)} or a number in [0, 1]")


@dataclass(frozen=True)
class Comparisons:
    """Pairwise evidence (see the module docstring). ``unit[k]`` is the unit (0 .. ``n_units`` - 1) row k belongs
    to; bootstrap and subsampling weights are given per unit."""

    systems: tuple[str, ...]
    left: np.ndarray  # int64 system index
    right: np.ndarray  # int64 system index, != left
    outcome: np.ndarray  # int8: +1 left won, -1 right won, 0 tie
    weight: np.ndarray  # float64 >= 0
    unit: np.ndarray  # int64 in [0, n_units)
    n_units: int

    def __len__(self) -> int:
        return len(self.outcome)

    def tie_share(self) -> float:
        """Share of the (weighted) comparisons that are ties."""
        total = self.weight.sum()
        return float(self.weight[self.outcome == 0].sum() / total) if total else float("nan")

    def pair_counts(self) -> pd.Series:
        """Weighted comparisons per unordered pair of system indices (pairs never compared are absent)."""
        a, b = np.minimum(self.left, self.right), np.maximum(self.left, self.right)
        counts = pd.Series(self.weight, index=pd.MultiIndex.from_arrays([a, b])).groupby(level=[0, 1]).sum()
        return counts[counts > 0]


def comparison_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Strict-win and tie counts between all columns of a (instances x systems) float array.

    Returns ``(wins, ties)``, both (systems x systems) int64: ``wins[i, j]`` is the number of instances on which
    system i scores strictly higher than system j, ``ties[i, j]`` the number on which they are equal (diagonal 0).
    Compiled: one pass over each pair's two columns counts both directions; no Python loop over instances or pairs.
    """
    n_instances = values.shape[0]
    wins = _count_wins(np.ascontiguousarray(values.T))  # each system's scores contiguous
    # every instance is a win, a loss or a tie for each pair, so ties need no second comparison
    ties = n_instances - wins - wins.T
    np.fill_diagonal(ties, 0)
    return wins, ties


@numba.njit(cache=True)
def _count_wins(by_system):  # pragma: no cover (compiled)
    n = by_system.shape[0]
    wins = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n, 4):
            _pair_counts(by_system, i, j, min(j + 4, n), wins)
    return wins


@numba.njit(cache=True)
def _pair_counts(by_system, i, start, stop, wins):  # pragma: no cover (compiled)
    """``wins[i, j]`` (how often system i scores above j) and ``wins[j, i]`` for ``start <= j < stop``, at most
    four systems j at once: each score of system i is read once for all four."""
    a = by_system[i]
    if stop - start < 4:
        for j in range(start, stop):
            b = by_system[j]
            above = below = 0
            for k in range(len(a)):
                above += a[k] > b[k]
                below += a[k] < b[k]
            wins[i, j], wins[j, i] = above, below
        return
    b0, b1, b2, b3 = by_system[start], by_system[start + 1], by_system[start + 2], by_system[start + 3]
    u0 = u1 = u2 = u3 = d0 = d1 = d2 = d3 = 0
    for k in range(len(a)):
        x = a[k]
        u0 += x > b0[k]
        d0 += x < b0[k]
        u1 += x > b1[k]
        d1 += x < b1[k]
        u2 += x > b2[k]
        d2 += x < b2[k]
        u3 += x > b3[k]
        d3 += x < b3[k]
    wins[i, start], wins[start, i] = u0, d0
    wins[i, start + 1], wins[start + 1, i] = u1, d1
    wins[i, start + 2], wins[start + 2, i] = u2, d2
    wins[i, start + 3], wins[start + 3, i] = u3, d3


def _make(systems, left, right, outcome, weight=None, unit=None, n_units=None) -> Comparisons:
    left = np.asarray(left, dtype=np.int64)
    right = np.asarray(right, dtype=np.int64)
    outcome = np.asarray(outcome, dtype=np.int8)
    weight = np.ones(len(left)) if weight is None else np.asarray(weight, dtype=np.float64)
    if unit is None:
        unit, n_units = np.arange(len(left), dtype=np.int64), len(left)
    return Comparisons(tuple(systems), left, right, outcome, weight, np.asarray(unit, dtype=np.int64), int(n_units))


def from_scores(scores: pd.DataFrame, *, by_instance: bool = False) -> Comparisons:
    """Every pair of systems compared on every test instance of a score matrix (rows instances, columns systems;
    higher is better), the pair's earlier column on the left.

    By default the comparisons are counted: three rows per pair (left wins, tie, right wins) weighted by their
    numbers of instances (:func:`counted`). With ``by_instance``, one row per (instance, pair) with weight 1 and
    the instance as its unit, for resampling instances (:func:`win_matrices` with per-instance weights)."""
    values = check_scores(scores)
    systems = system_names(scores.columns, "system names (columns)")
    i, j = np.triu_indices(values.shape[1], 1)
    if by_instance:
        n = len(values)
        outcome = np.sign(values[:, i] - values[:, j]).astype(np.int8)  # (instances, pairs)
        return _make(systems, np.tile(i, n), np.tile(j, n), outcome.ravel(),
                     unit=np.repeat(np.arange(n), len(i)), n_units=n)
    wins, ties = comparison_counts(values)
    left, right, outcome, unit = _counted_layout(values.shape[1])
    weight = np.empty(len(outcome))
    weight[0::3], weight[1::3], weight[2::3] = wins[i, j], ties[i, j], wins[j, i]
    return Comparisons(systems, left, right, outcome, weight, unit, len(unit))


@lru_cache(maxsize=64)
def _counted_layout(n_systems: int) -> tuple[np.ndarray, ...]:
    """(left, right, outcome, unit) of :func:`counted` for every pair of ``n_systems`` systems (read-only: cached,
    since a score matrix's BT fit would otherwise spend most of its time building them)."""
    i, j = np.triu_indices(n_systems, 1)
    arrays = (np.repeat(i, 3).astype(np.int64), np.repeat(j, 3).astype(np.int64),
              np.tile(np.array([1, 0, -1], dtype=np.int8), len(i)), np.arange(3 * len(i), dtype=np.int64))
    for a in arrays:
        a.flags.writeable = False
    return arrays


def counted(systems, pairs, left_wins, ties, right_wins) -> Comparisons:
    """Counted comparisons: for each row ``(a, b)`` of ``pairs`` (system indices), three rows (a wins, tie, b wins)
    weighted by the given counts, each row its own unit (so that many trials' counts can also be given as
    (trials x 3·pairs) ``weights`` to :func:`win_matrices`, with unit counts here)."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    p = len(pairs)
    if ((pairs < 0) | (pairs >= len(systems))).any() or (pairs[:, 0] == pairs[:, 1]).any():
        raise ValueError(f"pairs must hold two different system indices in [0, {len(systems)}) each")
    counts = np.column_stack([real_array(c, "counts").reshape(p) for c in (left_wins, ties, right_wins)])
    if not np.isfinite(counts).all() or (counts < 0).any():
        raise ValueError("counts must be finite and non-negative")
    return _make(systems, np.repeat(pairs[:, 0], 3), np.repeat(pairs[:, 1], 3), np.tile([1, 0, -1], p),
                 counts.ravel())


def from_judgments(left, right, winner, weight=None) -> Comparisons:
    """One row (and unit) per judgment from equal-length sequences: the two systems' names and ``winner`` in
    {"left", "right", "tie"}; optional non-negative ``weight`` per judgment. Systems are sorted by name; a name is
    a string or an integer, and two names may not differ only in type (``1`` and ``"1"``). Names held as pandas
    categoricals (a judgment file's reader gives them) are read through their codes, never converted per row."""
    categorical = all(isinstance(getattr(x, "dtype", None), pd.CategoricalDtype) for x in (left, right))
    winner = np.asarray(winner, dtype=object)
    if not categorical:
        left, right = (np.asarray(x, dtype=object) for x in (left, right))
    if not (np.ndim(left) == np.ndim(right) == winner.ndim == 1) or not len(left) == len(right) == len(winner) \
            or not len(left):
        raise ValueError("left, right and winner must be non-empty one-dimensional sequences of equal length")
    systems, lcode, rcode = (_category_codes if categorical else _name_codes)(left, right)
    bad = set(pd.unique(winner)) - {"left", "right", "tie"}
    if bad:
        raise ValueError(f"winner must be 'left', 'right' or 'tie', got {sorted(map(str, bad))}")
    if (lcode == rcode).any():
        raise ValueError(f"{int((lcode == rcode).sum())} judgments compare a system with itself")
    if weight is not None:
        weight = real_array(weight, "weight")
        if weight.shape != (len(left),) or not np.isfinite(weight).all() or (weight < 0).any():
            raise ValueError("weight must hold one finite non-negative number per judgment")
    outcome = np.select([winner == "left", winner == "right"], [1, -1], 0)
    return _make(systems, lcode, rcode, outcome, weight)


def _name_codes(left: np.ndarray, right: np.ndarray) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The sorted systems and each judgment's two codes, from object arrays of names."""
    both = np.concatenate([left, right])
    if pd.api.types.infer_dtype(both, skipna=False) == "string":  # names all text (a judgment file): vectorised
        distinct = list(pd.unique(both))
    else:
        plain = [m.item() if isinstance(m, np.generic) else m for m in both]  # np.int64(1) is the name 1
        distinct = list({(type(m), m): m for m in plain}.values())  # 1 and True would be one set element
    systems = tuple(sorted(system_names(distinct)))
    index = pd.Index(systems)
    return systems, index.get_indexer(left.astype(str)), index.get_indexer(right.astype(str))


def _category_codes(left, right) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The sorted systems (the categories in use) and each judgment's two codes, from pandas categoricals."""
    left, right = (pd.Series(x).cat.remove_unused_categories() for x in (left, right))
    systems = tuple(sorted(system_names(list(left.cat.categories.union(right.cat.categories)))))
    index = pd.Index(systems)
    return (systems, index.get_indexer(left.cat.categories)[left.cat.codes.to_numpy()],
            index.get_indexer(right.cat.categories)[right.cat.codes.to_numpy()])


def _credits(c: Comparisons, ties, as_tie: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Wins credited to each row's left and right system (``weight`` times); with ``as_tie`` every row is a tie."""
    left_share, right_share = tie_credit(ties)
    tie = np.ones(len(c), bool) if as_tie else c.outcome == 0
    to_left = np.where(tie, left_share, (c.outcome > 0).astype(float)) * c.weight
    to_right = np.where(tie, right_share, (c.outcome < 0).astype(float)) * c.weight
    return to_left, to_right


def _credit_matrix(c: Comparisons, ties, as_tie: bool) -> sparse.csr_matrix:
    """(units x systems²) credit: entry (u, a·n + b) = wins credited to a over b by unit u's comparisons."""
    n = len(c.systems)
    to_left, to_right = _credits(c, ties, as_tie)
    rows = np.concatenate([c.unit, c.unit])
    cells = np.concatenate([c.left * n + c.right, c.right * n + c.left])
    data = np.concatenate([to_left, to_right])
    return sparse.csr_matrix((data, (rows, cells)), shape=(c.n_units, n * n))


def win_matrices(c: Comparisons, ties=DEFAULT_TIES, weights=None, tie_mask=None) -> np.ndarray:
    """(trials x systems x systems) Bradley-Terry win matrices: ``[t, a, b]`` = the (possibly fractional) number of
    comparisons a won against b in trial t, ties credited by ``ties`` (see :func:`tie_credit`).

    ``weights`` (trials x units) multiply each unit's comparisons in each trial (bootstrap counts, a 0/1
    subsample); default: one trial with every unit once. ``tie_mask`` (same shape, boolean) turns every comparison
    of a unit into a tie in that trial (synthetic ties, Levtsov & Ustalov Fig. 1)."""
    n = len(c.systems)
    if weights is None:
        weights = np.ones((1, c.n_units))
    if not (isinstance(weights, np.ndarray) and weights.dtype == np.float64):  # read, never written: no copy needed
        weights = real_array(weights, "weights")
    if weights.ndim != 2 or weights.shape[1] != c.n_units:
        raise ValueError(f"weights must be (trials x {c.n_units} units), got shape {weights.shape}")
    if weights.size and not (weights.min() >= 0 and weights.max() < np.inf):  # one test for NaN, < 0 and inf
        raise ValueError("weights must be finite and non-negative (how often each unit counts in each trial)")
    weights = np.ascontiguousarray(weights)
    real = _credit_matrix(c, ties, as_tie=False)
    if tie_mask is None:
        flat = _weighted_sum(real, weights)
    else:
        tie_mask = np.asarray(tie_mask, dtype=bool)
        if tie_mask.shape != weights.shape:
            raise ValueError(f"tie_mask must have the shape of weights {weights.shape}, got {tie_mask.shape}")
        flat = _weighted_sum(real, weights * ~tie_mask) + _weighted_sum(_credit_matrix(c, ties, True),
                                                                         weights * tie_mask)
    return flat.reshape(-1, n, n)


def _weighted_sum(credit: sparse.csr_matrix, weights: np.ndarray) -> np.ndarray:
    """(trials x cells) ``weights @ credit`` for a (units x cells) credit matrix: each cell's products summed over
    the units in order, as scipy's ``(credit.T @ weights.T).T`` does (bit for bit, tested), without its transposed
    copies of the weights and of the result."""
    out = np.zeros((len(weights), credit.shape[1]))
    credit.eliminate_zeros()  # a product 0 adds +0 to a sum that is never -0: skipping it leaves every bit
    _weighted_sum_kernel(credit.indptr.astype(np.int64), credit.indices.astype(np.int64), credit.data,
                         np.ascontiguousarray(weights), out)
    return out


@numba.njit(cache=True)
def _weighted_sum_kernel(indptr, indices, data, weights, out):  # pragma: no cover (compiled)
    for t in range(weights.shape[0]):
        for unit in range(weights.shape[1]):
            w = weights[t, unit]
            for k in range(indptr[unit], indptr[unit + 1]):
                out[t, indices[k]] += data[k] * w


def score_win_matrices(stack: np.ndarray, ties=DEFAULT_TIES) -> np.ndarray:
    """(trials x systems x systems) win matrices of a (trials x instances x systems) stack of score matrices, every
    pair compared on every instance, ties credited by ``ties``: trial t equals
    ``win_matrix(from_scores(<stack[t] as a DataFrame>), ties)`` exactly (tested), without building the comparisons.
    The stack is assumed valid (finite, as :func:`analysis.validation.check_scores` makes sure)."""
    left_share, right_share = tie_credit(ties)
    out = np.empty((len(stack), stack.shape[2], stack.shape[2]))
    for t, values in enumerate(stack):
        _score_wins(np.ascontiguousarray(values.T), left_share, right_share, out[t])
    return out


@numba.njit(cache=True)
def _score_wins(by_system, left_share, right_share, out):  # pragma: no cover (compiled)
    """``out = wins + ties * share`` from :func:`comparison_counts`' wins and ties (int64, as floats), ``share`` the
    left share above the diagonal and the right share below: a tie of the pair (i < j) credits the earlier column i
    with the left share, j with the right share."""
    n, m = by_system.shape
    wins = _count_wins(by_system)
    out[:] = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            tied = float(m - wins[i, j] - wins[j, i])
            out[i, j] = float(wins[i, j]) + tied * left_share
            out[j, i] = float(wins[j, i]) + tied * right_share


def win_matrix(c: Comparisons, ties=DEFAULT_TIES) -> np.ndarray:
    """The (systems x systems) win matrix of every comparison once: :func:`win_matrices`' single trial, summed
    directly (equal to it, tested)."""
    n = len(c.systems)
    to_left, to_right = _credits(c, ties)
    flat = np.bincount(c.left * n + c.right, weights=to_left, minlength=n * n)
    flat += np.bincount(c.right * n + c.left, weights=to_right, minlength=n * n)
    return flat.reshape(n, n)
