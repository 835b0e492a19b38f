"""The one Bradley-Terry core: every BT strength in the compendium is fitted here.

The MM algorithm of Peyrard et al. (2021), Appendix E (Hunter 2004): start at lambda = 1/2, apply eq. (3),
lambda_i <- W_i / sum_j (w_ij + w_ji) / (lambda_i + lambda_j), normalise to sum 1 (eq. 4), stop once the squared
change ||lambda(t+1) - lambda(t)||^2 is below ``tol`` (the paper's code's rule). A single fit is a batch of one:
:func:`fit` takes one (systems x systems) win matrix or a (trials x systems x systems) stack, and every trial runs
the same iteration, frozen at its own stopping point, so a stack gives bit for bit the strengths of fitting its
trials one by one. The iteration is compiled (:func:`_mm`) but keeps numpy's order of operations, sums included, so
its strengths are those of the vectorised numpy transcription it replaced, bit for bit (tested).

Degenerate inputs are reported in the result, not by warnings. Pairs never compared contribute nothing; if the
comparison graph is disconnected, strengths of its components are not comparable and :func:`fit` raises a
``ValueError`` naming them. A system without any win gets strength exactly 0 (the boundary maximiser). Beyond that,
the likelihood has a finite maximiser iff the graph "i beat j at least once" among the systems with a win is
strongly connected (Zermelo 1929; Ford 1957; Hunter 2004, Assumption 1); otherwise :attr:`BTFit.never_lose` and
:attr:`BTFit.never_win` name the groups that never lose (resp. never win) against the others: their place in the
ranking is right, the size of their strengths is an artefact of ``tol``.

Two stopping rules. ``rule="mle"`` (the default): the MM start below ``tol``, then Newton's method on the
log-likelihood in the log-strengths theta (its Hessian the weighted Laplacian ``g_ij p_ij p_ji``, each step halved
until the log-likelihood rises), until the gradient ``d l / d theta_i = W_i - sum_j g_ij s_i / (s_i + s_j)`` is below
``gtol`` times the system's number of comparisons for every system: the MLE to rounding, as evalica, choix,
arena-rank and statsmodels solve it. A trial without a finite MLE (a group never loses or never wins) keeps the MM
point. ``rule="change"`` (the paper's code, BT-eval): MM alone, stopped at the squared change above, which on large
or sparse graphs is well short of the maximum-likelihood estimate (about 22 steps where the MLE takes 120; 2.3% off
at 1,000 systems); it is used only where a chapter reproduces that code (see
:func:`analysis.aggregate.bradley_terry`'s ``rule``). Either way :attr:`BTFit.gradient` reports the final
gradient's largest entry and :attr:`BTFit.iterations` the steps (MM plus Newton).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from scipy.sparse.csgraph import connected_components

from .validation import check_count, check_number, real_array

#: the paper's stopping rule: squared change of the strengths below this
TOL = 1e-9
MAX_ITER = 10_000
#: ``rule="mle"``: stop once every |d l / d theta_i| is below this times system i's number of comparisons
GTOL = 1e-12
#: ``rule="mle"``: at most this many Newton steps after MM
MAX_NEWTON = 100
RULES = ("change", "mle")


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
    #: per trial, the final gradient's largest entry max_i |d l / d theta_i| (log-likelihood in log-strengths)
    gradient: np.ndarray | None = None
    #: the stopping rule: "change" (the paper's) or "mle" (Newton to the maximum-likelihood estimate)
    rule: str = "change"

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
    return _graph_tests(_stack(wins))[2]


def _stack(wins) -> np.ndarray:
    if not (isinstance(wins, np.ndarray) and wins.dtype == np.float64):  # read, never written: no copy needed
        wins = real_array(wins, "wins")
    stack = wins[None] if wins.ndim == 2 else wins
    if stack.ndim != 3 or stack.shape[1] != stack.shape[2] or stack.shape[1] < 2:
        raise ValueError(f"wins must be a square matrix over at least two systems or a (trials x systems x systems) "
                         f"stack, got shape {wins.shape}")
    if stack.size and not (stack.min() >= 0 and stack.max() < np.inf):  # one test for NaN, < 0 and inf counts
        raise ValueError("wins must be finite non-negative counts without NaN")
    return np.ascontiguousarray(stack)  # sums along rows in memory order, so the bits never depend on the layout


def fit(wins, *, tol: float = TOL, max_iter: int = MAX_ITER, systems=None, rule: str = "mle",
        gtol: float = GTOL) -> BTFit:
    """Fit Bradley-Terry strengths to a win matrix (``wins[i, j]``: comparisons i won against j, possibly
    fractional) or to a (trials x systems x systems) stack of them; see the module docstring. ``systems`` names
    the systems (default "0", "1", ...). ``rule``: "mle" (default: MM to ``tol``, then Newton until the gradient is
    below ``gtol`` per comparison: the maximum-likelihood estimate) or "change" (the paper's stopping rule, ``tol``). A
    trial that reaches ``max_iter`` (MM under "change", :data:`MAX_NEWTON` Newton steps under "mle") is flagged in
    ``converged`` and one :class:`ConvergenceWarning` says how many did."""
    check_number(tol, "tol", low=0, low_open=True)
    max_iter = check_count(max_iter, "max_iter")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {list(RULES)}, got {rule!r}")
    check_number(gtol, "gtol", low=0, low_open=True)
    stack = _stack(wins)
    n_trials, n, _ = stack.shape
    systems = tuple(str(s) for s in (range(n) if systems is None else systems))
    if len(systems) != n:
        raise ValueError(f"{len(systems)} system names for {n} systems")
    connected, regular, _ = _graph_tests(stack)
    if not connected.all():
        t = int(np.argmin(connected))
        groups = [[systems[i] for i in part] for part in components(stack[t])]
        where = f"trial {t}: " if n_trials > 1 else ""
        raise ValueError(f"{where}the comparison graph is disconnected (no comparison joins these groups of "
                         f"systems, so their strengths cannot be put on one scale): {groups}")
    never_lose, never_win = [()] * n_trials, [()] * n_trials
    for t in () if regular.all() else np.flatnonzero(~regular):
        lose, win = unbounded_groups(stack[t], systems)
        never_lose[t], never_win[t] = tuple(map(tuple, lose)), tuple(map(tuple, win))
    strengths = np.empty((n_trials, n))
    iterations = np.full(n_trials, max_iter, dtype=np.int64)
    converged = np.ones(n_trials, dtype=bool)
    _mm(stack, float(tol), max_iter, strengths, iterations, converged)
    gradient = np.empty(n_trials)
    if rule == "mle":
        steps = np.zeros(n_trials, dtype=np.int64)
        solved = converged.copy()  # a trial without a finite MLE keeps MM's point and flag
        _newton(stack, regular, float(gtol), MAX_NEWTON, strengths, steps, solved, gradient)
        iterations += steps
        converged = solved
    else:
        _gradients(stack, strengths, gradient)
    if not converged.all():
        failed = n_trials - int(np.count_nonzero(converged))
        what = (f"tol={tol} in {max_iter} iterations" if rule == "change" else
                f"the maximum-likelihood estimate (gtol={gtol}) in {MAX_NEWTON} Newton steps")
        warnings.warn(f"Bradley-Terry did not converge to {what} in {failed} of {n_trials} trials",
                      ConvergenceWarning, stacklevel=2)
    return BTFit(systems, strengths, iterations, converged, tuple(never_lose), tuple(never_win), float(tol),
                 int(max_iter), gradient, rule)


@numba.njit(cache=True)
def _gradients(stack, strengths, out):  # pragma: no cover (compiled)
    """Per trial, max_i |W_i - sum_j g_ij s_i / (s_i + s_j)|: the gradient of the log-likelihood in the
    log-strengths (pairs never compared, and pairs of two zero strengths, add nothing)."""
    n_trials, n, _ = stack.shape
    for t in range(n_trials):
        w, s = stack[t], strengths[t]
        worst = 0.0
        for i in range(n):
            g = 0.0
            for j in range(n):
                if j != i:
                    games = w[i, j] + w[j, i]
                    total = s[i] + s[j]
                    g += w[i, j] - (games * s[i] / total if games > 0 and total > 0 else 0.0)
            worst = max(worst, abs(g))
        out[t] = worst


@numba.njit(cache=True, error_model="numpy")
def _newton(stack, regular, gtol, max_steps, strengths, steps, converged, gradient):  # pragma: no cover (compiled)
    """``rule="mle"``: from each trial's MM point, Newton's method on the log-likelihood in theta = log s over the
    systems with a positive strength (the others, without any win, stay at 0 and add nothing to the gradient or
    the Hessian), each step halved until the log-likelihood does not fall, until every |gradient_i| is at most
    ``gtol`` times system i's comparisons (or a step changes no theta by more than 1e-15). The Hessian is singular
    along the constant vector; adding a constant to every entry fixes the solution with sum(delta) = 0, which is
    the Newton step (the gradient sums to 0). Irregular trials (no finite MLE) only get their gradient."""
    n_trials, n, _ = stack.shape
    for t in range(n_trials):
        w = stack[t]
        s = strengths[t]
        active = np.flatnonzero(s > 0)
        m = len(active)
        games = np.empty((m, m))
        won = np.zeros(m)
        scale = np.zeros(m)
        for a in range(m):
            for b in range(m):
                i, j = active[a], active[b]
                games[a, b] = 0.0 if a == b else w[i, j] + w[j, i]
                won[a] += games[a, b] and w[i, j]  # a zero strength's games are all lost: they cancel out
            for j in range(n):
                if j != active[a]:
                    scale[a] += w[active[a], j] + w[j, active[a]]
        theta = np.log(s[active])
        theta -= theta.max()
        grad = np.empty(m)
        hess = np.empty((m, m))
        done = False
        for step in range(max_steps + 1):
            worst, ok = 0.0, True
            for a in range(m):
                g = won[a]
                for b in range(m):
                    if games[a, b] > 0:
                        g -= games[a, b] / (1.0 + np.exp(theta[b] - theta[a]))
                grad[a] = g
                worst = max(worst, abs(g))
                if abs(g) > gtol * max(scale[a], 1.0):
                    ok = False
            gradient[t] = worst
            if ok or not regular[t]:
                done = ok or converged[t]
                steps[t] = step
                break
            if step == max_steps:
                steps[t] = step
                break
            shift = 0.0
            for a in range(m):
                d = 0.0
                for b in range(m):
                    if games[a, b] > 0:
                        p = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
                        h = games[a, b] * p * (1.0 - p)
                        hess[a, b] = -h
                        d += h
                    else:
                        hess[a, b] = 0.0
                hess[a, a] = d
                shift = max(shift, d)
            hess += shift / m
            delta = np.linalg.solve(hess, grad)
            before = _loglik(theta, games, won)
            factor = 1.0
            for _ in range(60):
                trial = theta + factor * delta
                if _loglik(trial, games, won) >= before:
                    break
                factor *= 0.5
            largest = np.abs(factor * delta).max()
            theta = trial - trial.max()
            if largest < 1e-15:
                done = True
                steps[t] = step + 1
                break
        if regular[t]:
            e = np.exp(theta)
            e /= e.sum()
            s[:] = 0.0
            for a in range(m):
                s[active[a]] = e[a]
            converged[t] = done


@numba.njit(cache=True)
def _loglik(theta, games, won):  # pragma: no cover (compiled)
    """The log-likelihood up to a constant: sum_i W_i theta_i - sum_{i<j} g_ij log(e^theta_i + e^theta_j)."""
    m = len(theta)
    total = 0.0
    for a in range(m):
        total += won[a] * theta[a]
        for b in range(a + 1, m):
            if games[a, b] > 0:
                hi = max(theta[a], theta[b])
                total -= games[a, b] * (hi + np.log1p(np.exp(-abs(theta[a] - theta[b]))))
    return total


@numba.njit(cache=True)
def _graph_tests(stack):  # pragma: no cover (compiled)
    """Per trial of a stack: whether its comparison graph is connected (:func:`components` finds one part), whether
    it is regular (:func:`unbounded_groups` finds no group: the systems with a win are strongly connected by "beat
    at least once"; a system without a win has no way out, so no path passes through it), and whether all systems
    are strongly connected (:func:`finite`). A trial whose every pair has a win each way needs no search; the
    others are searched from one winner forwards and backwards."""
    n_trials, n, _ = stack.shape
    connected = np.ones(n_trials, dtype=np.bool_)
    regular = np.ones(n_trials, dtype=np.bool_)
    strong = np.ones(n_trials, dtype=np.bool_)
    has_win = np.empty(n, dtype=np.bool_)
    forward = np.empty(n, dtype=np.bool_)
    backward = np.empty(n, dtype=np.bool_)
    undirected = np.empty(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    for t in range(n_trials):
        w = stack[t]
        complete = True
        for i in range(n):
            for j in range(n):
                if i != j and w[i, j] == 0:
                    complete = False
                    break
            if not complete:
                break
        if complete:
            continue
        start = -1
        for i in range(n):
            has_win[i] = False
            for j in range(n):
                if i != j and w[i, j] > 0:
                    has_win[i] = True
                    break
            if has_win[i] and start < 0:
                start = i
        if start < 0:  # no win at all: nothing is compared
            connected[t] = strong[t] = False
            continue
        _reach(w, start, 1, forward, queue)
        _reach(w, start, 2, backward, queue)
        attached = True  # every system without a win was beaten by someone
        for i in range(n):
            if has_win[i]:
                if not (forward[i] and backward[i]):
                    regular[t] = False
            else:
                strong[t] = False
                beaten = False
                for j in range(n):
                    if j != i and w[j, i] > 0:
                        beaten = True
                        break
                attached = attached and beaten
        if not regular[t]:
            strong[t] = False
            connected[t] = _reach(w, start, 0, undirected, queue) == n
        else:
            connected[t] = attached
    return connected, regular, strong


@numba.njit(cache=True)
def _reach(w, start, direction, seen, queue):  # pragma: no cover (compiled)
    """Mark in ``seen`` the systems reached from ``start`` through pairs with a win either way (``direction`` 0),
    through "beat" (1) or "was beaten by" (2); returns how many."""
    n = len(seen)
    seen[:] = False
    seen[start] = True
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        i = queue[head]
        head += 1
        for j in range(n):
            if j != i and not seen[j]:
                if direction == 0:
                    linked = w[i, j] > 0 or w[j, i] > 0
                elif direction == 1:
                    linked = w[i, j] > 0
                else:
                    linked = w[j, i] > 0
                if linked:
                    seen[j] = True
                    queue[tail] = j
                    tail += 1
    return tail


@numba.njit(cache=True, error_model="numpy")  # IEEE division, as numpy
def _mm(stack, tol, max_iter, strengths, iterations, converged):  # pragma: no cover (compiled)
    """The MM iteration (module docstring) on each trial of a stack, frozen at its own stopping point. Per trial,
    ``games = wins + wins.T`` (0 on the diagonal), ``pad`` 1 where ``games`` is 0 (never-compared pairs, the
    diagonal at least: they add 0 and must not divide by 0), ``total_wins`` the row sums less the diagonal; per
    step the quotient ``games / ((s_i + s_j) + pad)``, its row sums, ``new = total_wins / row sum``,
    ``new /= sum(new)``, ``change = sum((new - s)**2)``. Compiled, but in numpy's order of operations, sums
    included (:func:`_sum`): the strengths are bit for bit those of the vectorised numpy transcription (tested)."""
    n_trials, n, _ = stack.shape
    g = np.empty((n, n))
    p = np.empty((n, n))
    w = np.empty(n)
    s = np.empty(n)
    new = np.empty(n)
    row = np.empty(n)
    for t in range(n_trials):
        wins = stack[t]
        for i in range(n):
            for j in range(n):
                g[i, j] = 0.0 if i == j else wins[i, j] + wins[j, i]
                p[i, j] = 1.0 if g[i, j] == 0 else 0.0
            w[i] = _sum(wins[i]) - wins[i, i]
        s[:] = 0.5
        stopped = False
        for iteration in range(1, max_iter + 1):
            for i in range(n):
                si = s[i]
                for j in range(n):
                    row[j] = g[i, j] / ((si + s[j]) + p[i, j])
                new[i] = w[i] / _sum(row)
            total = _sum(new)
            for i in range(n):
                new[i] = new[i] / total
            for i in range(n):
                d = new[i] - s[i]
                row[i] = d * d
            change = _sum(row)
            s[:] = new
            if change < tol:
                strengths[t] = s
                iterations[t] = iteration
                stopped = True
                break
        if not stopped:
            strengths[t] = s
            converged[t] = False


@numba.njit(cache=True)
def _sum(a):  # pragma: no cover (compiled)
    """``numpy.add.reduce`` of a contiguous float64 vector, bit for bit: the identity 0 plus numpy's pairwise sum."""
    return 0.0 + _pairwise(a, 0, len(a))


@numba.njit(cache=True)
def _pairwise(a, lo, n):  # pragma: no cover (compiled)
    """numpy's ``pairwise_sum`` of ``a[lo:lo + n]``: up to 128 terms :func:`_pairwise_block`, beyond the sum of
    the two halves (split at a multiple of 8), recursively; the recursion runs on an explicit stack (numba cannot
    cache a recursive function)."""
    if n <= 128:
        return _pairwise_block(a, lo, n)
    frame_lo, frame_n = np.empty(64, np.int64), np.empty(64, np.int64)
    frame_step, frame_left = np.zeros(64, np.int64), np.empty(64)
    frame_lo[0], frame_n[0] = lo, n
    depth, value = 0, 0.0
    while True:
        half = frame_n[depth] // 2
        half -= half % 8
        step = frame_step[depth]
        if step == 2:  # both halves summed: value holds the right one
            value = frame_left[depth] + value
            if depth == 0:
                return value
            depth -= 1
            continue
        if step == 1:  # the left half summed
            frame_left[depth] = value
            part_lo, part_n = frame_lo[depth] + half, frame_n[depth] - half
        else:
            part_lo, part_n = frame_lo[depth], half
        frame_step[depth] = step + 1
        if part_n <= 128:
            value = _pairwise_block(a, part_lo, part_n)
        else:
            depth += 1
            frame_lo[depth], frame_n[depth], frame_step[depth] = part_lo, part_n, 0


@numba.njit(cache=True)
def _pairwise_block(a, lo, n):  # pragma: no cover (compiled)
    """numpy's ``pairwise_sum`` of at most 128 terms: a plain loop below 8, else eight interleaved partial sums
    combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the remainder."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = lo + 8
    stop = lo + n - n % 8
    while i < stop:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < lo + n:
        res += a[i]
        i += 1
    return res
