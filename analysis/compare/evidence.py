"""What a score matrix with missing scores (NaN: a system not scored on an instance) says about each pair of
systems: the instances both have, P(A > B) on them, the paired tests, and the comparisons Bradley-Terry, Elo and
TrueSkill use; a mean that is fair across systems scored on different instances; adjusted p-values.

On a complete matrix every function here gives what the complete-matrix functions give (tested).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import sparse

from ..comparisons import Comparisons, tie_credit
from ..pairwise import ADJUSTMENTS, adjust_pvalues, sign_test, wilcoxon
from ..validation import system_names

ADJUST = ADJUSTMENTS


def pair_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wins, ties, common): per ordered pair, the instances where both are scored and the row system scores higher
    (equal; in total). Vectorised over blocks of instances."""
    present = ~np.isnan(values)
    filled = np.where(present, values, 0.0)
    n, s = values.shape
    wins = np.zeros((s, s), dtype=np.int64)
    ties = np.zeros((s, s), dtype=np.int64)
    block = max(1, (1 << 22) // max(1, s * s))
    for start in range(0, n, block):
        v = filled[start:start + block].T
        both = present[start:start + block].T
        both = both[:, None, :] & both[None, :, :]
        wins += np.count_nonzero((v[:, None, :] > v[None, :, :]) & both, axis=2)
        ties += np.count_nonzero((v[:, None, :] == v[None, :, :]) & both, axis=2)
    common = present.T.astype(np.int64) @ present.astype(np.int64)
    np.fill_diagonal(ties, 0)
    return wins, ties, common


def instance_comparisons(values: np.ndarray, systems) -> Comparisons:
    """One comparison per (instance, pair of systems both scored on it), its unit the instance: what BT, Elo and
    TrueSkill are fitted to, and what the bootstrap resamples (whole instances)."""
    n, s = values.shape
    i, j = np.triu_indices(s, 1)
    rows, cols = [], []
    step = max(1, (1 << 23) // max(1, len(i)))
    left, right, outcome, unit = [], [], [], []
    for start in range(0, n, step):
        part = values[start:start + step]
        a, b = part[:, i], part[:, j]
        ok = ~(np.isnan(a) | np.isnan(b))
        r, p = np.nonzero(ok)
        left.append(i[p])
        right.append(j[p])
        outcome.append(np.sign(a[r, p] - b[r, p]).astype(np.int8))
        unit.append(r + start)
    del rows, cols
    cat = np.concatenate
    return Comparisons(system_names(systems), cat(left).astype(np.int64), cat(right).astype(np.int64), cat(outcome),
                       np.ones(sum(map(len, left))), cat(unit).astype(np.int64), n)


def credit_matrix(c: Comparisons, ties) -> sparse.csr_matrix:
    """(units x systems²) sparse: the wins each unit credits to each ordered pair (ties shared by ``ties``), so that
    ``weights @ credit_matrix`` is the flattened win matrix of each trial of unit weights."""
    n = len(c.systems)
    to_left, to_right = tie_credit(ties)
    won_left = np.where(c.outcome > 0, 1.0, np.where(c.outcome == 0, to_left, 0.0)) * c.weight
    won_right = np.where(c.outcome < 0, 1.0, np.where(c.outcome == 0, to_right, 0.0)) * c.weight
    rows = np.concatenate([c.unit, c.unit])
    cols = np.concatenate([c.left * n + c.right, c.right * n + c.left])
    data = np.concatenate([won_left, won_right])
    keep = data != 0
    return sparse.csr_matrix((data[keep], (rows[keep], cols[keep])), shape=(c.n_units, n * n))


def pairwise_tables(values: np.ndarray, names, *, tests: bool = True) -> dict[str, pd.DataFrame]:
    """Per pair of systems on the instances both have: ``common`` (their number), ``prob`` (P(row beats column),
    ties as half), ``sign_p`` (sign test, ties dropped) and ``wilcoxon_p`` (signed-rank test); diagonals empty."""
    names = pd.Index([str(x) for x in names])
    wins, ties, common = pair_counts(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(common > 0, (wins + 0.5 * ties) / common, np.nan)
    np.fill_diagonal(share, np.nan)
    out = {"common": pd.DataFrame(common, index=names, columns=names),
           "prob": pd.DataFrame(share, index=names, columns=names)}
    if not tests:
        return out
    s = len(names)
    sign_p, wil_p = np.full((s, s), np.nan), np.full((s, s), np.nan)
    complete = not np.isnan(values).any()
    for a, b in zip(*np.triu_indices(s, 1)):
        x, y = values[:, a], values[:, b]
        if not complete:
            both = ~(np.isnan(x) | np.isnan(y))
            x, y = x[both], y[both]
        if len(x) == 0:
            continue
        sign_p[a, b] = sign_p[b, a] = sign_test(x, y).pvalue
        wil_p[a, b] = wil_p[b, a] = wilcoxon(x, y).pvalue
    out["sign_p"] = pd.DataFrame(sign_p, index=names, columns=names)
    out["wilcoxon_p"] = pd.DataFrame(wil_p, index=names, columns=names)
    return out


def adjust(p: pd.DataFrame, method: str = "holm") -> pd.DataFrame:
    """Adjusted p-values of a symmetric matrix of pairwise p-values (each pair once): Holm's step-down
    (family-wise error, the default) or Benjamini-Hochberg (false discovery rate); ``"none"`` leaves them
    (:func:`analysis.pairwise.adjust_pvalues`)."""
    if method not in ADJUST:
        raise ValueError(f"unknown adjustment {method!r}; expected one of {list(ADJUST)}")
    values = p.to_numpy(dtype=float)
    i, j = np.triu_indices(len(values), 1)
    out = np.full(values.shape, np.nan)
    out[i, j] = out[j, i] = adjust_pvalues(values[i, j], method)
    return pd.DataFrame(out, index=p.index, columns=p.columns)


def holm(p) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values (:func:`analysis.pairwise.adjust_pvalues`)."""
    return adjust_pvalues(p, "holm")


def adjusted_mean(values: np.ndarray, weights: np.ndarray | None = None, *, tol: float = 1e-10,
                  max_iter: int = 500) -> np.ndarray:
    """Per system, its mean as if it had been scored on every instance: the least-squares fit of
    score(instance, system) = instance effect + system effect to the scores present (a two-way additive model,
    fitted by alternating means), reported as system effect + the average instance effect. Equal to the mean on a
    complete matrix. ``weights`` (trials x instances) fits one trial per row (bootstrap counts); returns
    (trials x systems), or (systems,) without weights."""
    present = ~np.isnan(values)
    x = np.where(present, values, 0.0)
    m = present.astype(float)
    single = weights is None
    w = np.ones((1, len(values))) if single else np.asarray(weights, dtype=float)
    row_n = m.sum(axis=1)  # systems per instance
    col_n = w @ m  # (trials x systems): weighted instances per system
    theta = (w @ x) / np.where(col_n > 0, col_n, np.nan)
    safe_rows = np.where(row_n > 0, row_n, 1.0)
    for _ in range(max_iter):
        mu = (x @ np.ones(values.shape[1]))[None, :] - theta @ m.T  # trials x instances: sum of (x - theta)
        mu /= safe_rows
        new = (w @ x - (w * mu) @ m) / np.where(col_n > 0, col_n, np.nan)
        done = np.nanmax(np.abs(new - theta)) < tol
        theta = new
        if done:
            break
    level = (w * mu).sum(axis=1, keepdims=True) / w.sum(axis=1, keepdims=True)
    out = theta + level
    return out[0] if single else out
