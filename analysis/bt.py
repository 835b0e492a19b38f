"""The one Bradley-Terry core: every BT strength in the compendium is fitted here.

The MM algorithm of Peyrard et al. (2021), Appendix E (Hunter 2004): start at lambda = 1/2, apply eq. (3),
lambda_i <- W_i / sum_j (w_ij + w_ji) / (lambda_i + lambda_j), normalise to sum 1 (eq. 4), stop once the squared
change ||lambda(t+1) - lambda(t)||^2 is below ``tol`` (the paper's code's rule). A single fit is a batch of one:
:func:`fit` takes one (systems x systems) win matrix or a (trials x systems x systems) stack, and every trial runs
the same iteration, frozen at its own stopping point, so a stack gives bit for bit the strengths of fitting its
trials one by one.

Degenerate inputs are reported in the result, not by warnings. Pairs never compared contribute nothing; if the
comparison graph is disconnected, strengths of its components are not comparable and :func:`fit` raises a
``ValueError`` naming them. A system without any win gets strength exactly 0 (the boundary maximiser). Beyond that,
the likelihood has a finite maximiser iff the graph "i beat j at least once" among the systems with a win is
strongly connected (Zermelo 1929; Ford 1957; Hunter 2004, Assumption 1); otherwise :attr:`BTFit.never_lose` and
:attr:`BTFit.never_win` name the groups that never lose (resp. never win) against the others: their place in the
ranking is right, the size of their strengths is an artefact of ``tol``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse.csgraph import connected_components

from .validation import check_count, check_number, real_array

#: the paper's stopping rule: squared change of the strengths below this
TOL = 1e-9
MAX_ITER = 10_000


class ConvergenceWarning(RuntimeWarning):
    """The Bradley-Terry iteration stopped at ``max_iter`` before meeting its tolerance."""


@dataclass(frozen=True, eq=False)  # compared by identity: pandas compares a Series' attrs when concatenating
class BTFit:
    """A Bradley-Terry fit of one or more trials. ``strengths`` (trials x systems) sum to 1 per trial;
    ``iterations`` and ``converged`` per trial; ``never_lose`` / ``never_win``: per trial, the groups of systems
    (tuples of names) without a finite maximum-likelihood strength (empty when the fit is regular)."""

    systems: tuple[str, ...]
    strengths: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    never_lose: tuple[tuple[tuple, ...], ...]
    never_win: tuple[tuple[tuple, ...], ...]
    tol: float
    max_iter: int

    @property
    def degenerate(self) -> np.ndarray:
        """Per trial: no finite maximum-likelihood estimate (a group never loses or never wins)."""
        return np.array([bool(a or b) for a, b in zip(self.never_lose, self.never_win)])

    def series(self, trial: int = 0, name: str = "bt") -> pd.Series:
        """One trial's strengths as a Series indexed by system."""
        return pd.Series(self.strengths[trial], index=list(self.systems), name=name)


def unbounded_groups(wins: np.ndarray, names=None) -> tuple[list, list]:
    """Groups of systems whose BT strengths have no finite, tol-independent fit, for one win matrix:
    (groups that never lose against the others, groups that never win against them), each group a list of names.

    A system without any win gets strength exactly 0 and leaves the others' fit unchanged, so it is set aside.
    Among the rest, the likelihood has a finite maximiser iff "i beat j at least once" is strongly connected."""
    n = wins.shape[0]
    off = ~np.eye(n, dtype=bool)
    beats = (wins > 0) & off
    if beats[off].all():
        return [], []
    rest = np.flatnonzero(beats.any(axis=1))
    if len(rest) < 2:
        return [], []
    sub = beats[np.ix_(rest, rest)]
    n_groups, label = connected_components(sub, directed=True, connection="strong")
    if n_groups == 1:
        return [], []
    between = sub & (label[:, None] != label[None, :])
    beaten = np.zeros(n_groups, bool)
    beaten[label[np.nonzero(between)[1]]] = True  # someone outside the group beat one inside it
    winning = np.zeros(n_groups, bool)
    winning[label[np.nonzero(between)[0]]] = True
    names = list(range(n)) if names is None else list(names)
    members = [[names[rest[i]] for i in np.flatnonzero(label == g)] for g in range(n_groups)]
    return ([m for g, m in enumerate(members) if not beaten[g]], [m for g, m in enumerate(members) if not winning[g]])


def components(wins: np.ndarray) -> list[list[int]]:
    """The connected components (system indices) of the comparison graph of one win matrix: systems linked by
    at least one comparison (won, lost or tied with nonzero credit)."""
    games = (wins + wins.T) > 0
    np.fill_diagonal(games, False)
    n_components, labels = connected_components(games, directed=False)
    return [np.flatnonzero(labels == c).tolist() for c in range(n_components)]


def finite(wins) -> np.ndarray:
    """Per trial of a win matrix or stack: whether BT has a finite estimate with every system above 0, i.e. the
    graph of wins is strongly connected (every system beats, through some chain, every other)."""
    stack = _stack(wins)
    return np.array([connected_components(w > 0, directed=True, connection="strong")[0] == 1 for w in stack])


def _stack(wins) -> np.ndarray:
    wins = real_array(wins, "wins")
    stack = wins[None] if wins.ndim == 2 else wins
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] < 2:
        raise ValueError(f"wins must be a square matrix over at least two systems or a (trials x systems x systems) "
                         f"stack, got shape {wins.shape}")
    if not np.isfinite(stack).all() or (stack < 0).any():
        raise ValueError("wins must be finite non-negative counts without NaN")
    return np.ascontiguousarray(stack)  # sums along rows in memory order, so the bits never depend on the layout


def fit(wins, *, tol: float = TOL, max_iter: int = MAX_ITER, systems=None) -> BTFit:
    """Fit Bradley-Terry strengths to a win matrix (``wins[i, j]``: comparisons i won against j, possibly
    fractional) or to a (trials x systems x systems) stack of them; see the module docstring. ``systems`` names
    the systems (default "0", "1", ...). A trial that reaches ``max_iter`` is flagged in ``converged`` and one
    :class:`ConvergenceWarning` says how many did."""
    check_number(tol, "tol", low=0, low_open=True)
    max_iter = check_count(max_iter, "max_iter")
    stack = _stack(wins)
    n_trials, n, _ = stack.shape
    systems = tuple(str(s) for s in (range(n) if systems is None else systems))
    if len(systems) != n:
        raise ValueError(f"{len(systems)} system names for {n} systems")
    eye = np.eye(n, dtype=bool)
    games = np.ascontiguousarray(stack + stack.transpose(0, 2, 1))
    games[:, eye] = 0.0
    never = games == 0
    never_lose, never_win = [()] * n_trials, [()] * n_trials
    for t in np.flatnonzero((never & ~eye).any(axis=(1, 2)) | ((stack == 0) & ~eye).any(axis=(1, 2))):
        if (never[t] & ~eye).any():
            parts = components(stack[t])
            if len(parts) > 1:
                where = f"trial {t}: " if n_trials > 1 else ""
                groups = [[systems[i] for i in part] for part in parts]
                raise ValueError(f"{where}the comparison graph is disconnected (no comparison joins these groups of "
                                 f"systems, so their strengths cannot be put on one scale): {groups}")
        lose, win = unbounded_groups(stack[t], systems)
        never_lose[t], never_win[t] = tuple(map(tuple, lose)), tuple(map(tuple, win))
    total_wins = stack.sum(axis=2) - np.diagonal(stack, axis1=1, axis2=2)
    pad = never.astype(np.float64)  # never-compared pairs (the diagonal at least) add 0 and must not divide by 0
    strengths = np.empty((n_trials, n))
    iterations = np.full(n_trials, max_iter, dtype=np.int64)
    active = np.arange(n_trials)  # the trials still iterating, and their games, pads, wins, strengths
    single = n_trials == 1  # a batch of one iterates on 2-D views: the same arithmetic, less overhead per step
    g, p, w = (games[0], pad[0], total_wins[0]) if single else (games, pad, total_wins)
    s = np.full(w.shape, 0.5)
    buf = np.empty(g.shape)
    for iteration in range(1, max_iter + 1):
        np.add(s[..., :, None], s[..., None, :], out=buf)
        buf += p
        np.divide(g, buf, out=buf)
        new = w / buf.sum(axis=-1)
        new /= new.sum(axis=-1, keepdims=True)
        change = np.sum((new - s) ** 2, axis=-1)
        s = new
        done = np.atleast_1d(change < tol)
        if done.any():
            strengths[active[done]] = s[done] if not single else s
            iterations[active[done]] = iteration
            keep = ~done
            active = active[keep]
            if not len(active):
                break
            g, p, w, s = g[keep], p[keep], w[keep], s[keep]
            buf = np.empty(g.shape)
    else:
        strengths[active] = s
    converged = np.ones(n_trials, dtype=bool)
    converged[active] = False
    if len(active):
        warnings.warn(f"Bradley-Terry did not converge to tol={tol} in {max_iter} iterations in {len(active)} of "
                      f"{n_trials} trials", ConvergenceWarning, stacklevel=2)
    return BTFit(systems, strengths, iterations, converged, tuple(never_lose), tuple(never_win), float(tol),
                 int(max_iter))
