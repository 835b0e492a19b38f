"""Aggregation mechanisms: per-system scores from a score matrix (rows = test instances, columns = systems).

Peyrard et al. (2021) §2.2 (MEAN, MEDIAN, BT), Appendix E (the BT fit) and Appendix G (Elo, TrueSkill). Every
aggregator validates its input (see :mod:`analysis.validation`) and returns a pandas Series indexed by system, in
column order; a higher value means a stronger system.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np
import pandas as pd
import trueskill as trueskill_pkg
from scipy.sparse.csgraph import connected_components

from . import _kernels
from .pairwise import comparison_counts, win_matrix
from .validation import check_count, check_number, check_scores, check_tie_policy, real_array


class ConvergenceWarning(RuntimeWarning):
    """The Bradley-Terry iteration stopped at ``max_iter`` before meeting its tolerance."""


class DegenerateWarning(RuntimeWarning):
    """Bradley-Terry has no finite maximum-likelihood estimate: some systems never lose (or never win) against the
    others, so their strengths run to the boundary and the fitted values depend on ``tol``."""


def mean(scores: pd.DataFrame) -> pd.Series:
    """MEAN: the average score of each system over the test instances."""
    values = check_scores(scores)
    return pd.Series(values.mean(axis=0), index=scores.columns, name="mean")


def median(scores: pd.DataFrame) -> pd.Series:
    """MEDIAN: the median score of each system over the test instances."""
    values = check_scores(scores)
    return pd.Series(np.median(values, axis=0), index=scores.columns, name="median")


@contextmanager
def degenerate_fits():
    """Collect the :class:`DegenerateWarning` of every Bradley-Terry fit in the block instead of printing them:
    ``with degenerate_fits() as caught: ...``; afterwards ``caught`` holds one message per degenerate fit. Other
    warnings are shown as usual. For callers that fit many sub-samples and report the count."""
    caught: list[str] = []
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always", DegenerateWarning)
        yield caught
    for record in records:
        if issubclass(record.category, DegenerateWarning):
            caught.append(str(record.message))
        else:
            warnings.warn_explicit(record.message, record.category, record.filename, record.lineno)


def _unbounded_groups(wins: np.ndarray, names) -> tuple[list, list]:
    """Groups of systems whose BT strengths have no finite, tol-independent fit.

    A system without any win gets strength exactly 0 and leaves the others' fit unchanged, so it is set aside.
    Among the rest, the likelihood has a finite maximiser iff the graph "i beat j at least once" is strongly
    connected (Zermelo 1929; Ford 1957). Otherwise returns the groups that never lose against the others of the
    rest and the groups that never win against them."""
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


def fit_bradley_terry(wins: np.ndarray, *, tol: float = 1e-9, max_iter: int = 10_000,
                      names=None) -> tuple[np.ndarray, int]:
    """Fit Bradley-Terry strengths to a (systems x systems) win matrix by the MM algorithm of Appendix E.

    ``wins[i, j]`` is the (possibly fractional) number of comparisons system i won against system j. Each step is
    eq. (3), lambda_i <- W_i / sum_j (w_ij + w_ji) / (lambda_i + lambda_j), then eq. (4), normalisation to sum 1;
    iteration starts at lambda = 1/2 (as the paper's code) and stops once ||lambda(t+1) - lambda(t)||^2 < tol.
    Returns the strengths and the number of iterations.

    Degenerate inputs. Pairs that were never compared contribute nothing; if the comparison graph is disconnected,
    strengths of different components are not comparable and a ``ValueError`` names the components. A system
    that wins no comparison gets strength exactly 0 (the boundary maximiser; the others' strengths are then their
    fit among themselves), so two systems where one always wins get exactly 1 and 0. Beyond that, if a group of
    systems never loses against the others (or never wins against them: with ``ties="drop"``, or with few test
    instances), the likelihood has no finite maximiser (Zermelo 1929; Hunter 2004, Assumption 1): a
    :class:`DegenerateWarning` names the groups and the iteration returns its value at ``tol``, in which the
    unbeaten group's share tends to 1 and the winless group's to 0 as ``tol`` shrinks. Their place in the ranking
    (above, resp. below, the rest) is right; the size of their strengths is an artefact of ``tol``. ``names``
    labels the systems in messages.
    """
    check_number(tol, "tol", low=0, low_open=True)
    max_iter = check_count(max_iter, "max_iter")
    wins = real_array(wins, "wins")
    n = wins.shape[0] if wins.ndim else 0
    if wins.ndim != 2 or wins.shape != (n, n) or n < 2:
        raise ValueError(f"wins must be a square matrix over at least two systems, got shape {wins.shape}")
    if not np.isfinite(wins).all() or (wins < 0).any():
        raise ValueError("wins must be finite non-negative counts without NaN")
    games = wins + wins.T
    np.fill_diagonal(games, 0.0)
    off_diagonal = ~np.eye(n, dtype=bool)
    if not games[off_diagonal].all():  # only then can the comparison graph be disconnected
        n_components, labels = connected_components(games > 0, directed=False)
        if n_components > 1:
            groups = [np.flatnonzero(labels == c).tolist() for c in range(n_components)]
            raise ValueError(
                "the comparison graph is disconnected (some groups of systems were never compared, e.g. every "
                f"comparison between them was a dropped tie); system index groups: {groups}"
            )
    never_lose, never_win = _unbounded_groups(wins, names)
    if never_lose or never_win:
        lose = " and ".join(map(str, never_lose))
        win = " and ".join(map(str, never_win))
        warnings.warn(
            f"Bradley-Terry has no finite maximum-likelihood estimate: {lose} never lose against the others; {win} "
            "never win against them. Their strengths depend on tol (their order relative to the rest does not).",
            DegenerateWarning, stacklevel=3)
    total_wins = wins.sum(axis=1) - np.diag(wins)
    # Pairs never compared (games 0, always the diagonal) must contribute 0, but their strength sum can be 0 (a
    # system without wins has strength 0): add 1 there. On a complete comparison graph that is just the identity.
    never = games == 0
    pad = np.eye(n) if not (never & off_diagonal).any() else never.astype(np.float64)
    strength = np.full(n, 0.5)
    pair_sum = np.empty_like(games)
    ratio = np.empty_like(games)
    for iteration in range(1, max_iter + 1):
        np.add(strength[:, None], strength[None, :], out=pair_sum)
        pair_sum += pad
        np.divide(games, pair_sum, out=ratio)
        new = total_wins / ratio.sum(axis=1)
        new /= new.sum()
        change = np.sum((new - strength) ** 2)
        strength = new
        if change < tol:
            return strength, iteration
    warnings.warn(
        f"Bradley-Terry did not converge to tol={tol} in {max_iter} iterations (last squared change {change:.3g})",
        ConvergenceWarning,
        stacklevel=2,
    )
    return strength, max_iter


def fit_bradley_terry_batch(wins, *, tol: float = 1e-9, max_iter: int = 10_000) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_bradley_terry` on a stack of win matrices at once: ``wins`` is (trials x systems x systems) and
    every trial runs the same MM iteration (start 1/2, eq. (3), normalisation, stop once its squared change is below
    ``tol``) on the whole stack, a finished trial frozen at its own stopping point. Returns the (trials x systems)
    strengths and each trial's iteration count; equal to fitting the trials one by one (tests/test_aggregate.py).

    A disconnected comparison graph in any trial is a ``ValueError`` naming the trial; trials without a finite
    maximum-likelihood estimate (a group that never loses or never wins) are fitted as :func:`fit_bradley_terry`
    does and reported in one :class:`DegenerateWarning` with their count.
    """
    check_number(tol, "tol", low=0, low_open=True)
    max_iter = check_count(max_iter, "max_iter")
    wins = real_array(wins, "wins")
    if wins.ndim != 3 or wins.shape[1] != wins.shape[2] or wins.shape[1] < 2:
        raise ValueError(f"wins must be a (trials x systems x systems) stack over at least two systems, got shape "
                         f"{wins.shape}")
    if not np.isfinite(wins).all() or (wins < 0).any():
        raise ValueError("wins must be finite non-negative counts without NaN")
    n_trials, n, _ = wins.shape
    eye = np.eye(n, dtype=bool)
    games = wins + wins.transpose(0, 2, 1)
    games[:, eye] = 0.0
    never = games == 0
    degenerate = 0
    for t in np.flatnonzero((never & ~eye).any(axis=(1, 2)) | ((wins == 0) & ~eye).any(axis=(1, 2))):
        if (never[t] & ~eye).any() and connected_components(~never[t], directed=False)[0] > 1:
            raise ValueError(f"trial {t}: the comparison graph is disconnected (some systems were never compared)")
        degenerate += any(_unbounded_groups(wins[t], None))
    if degenerate:
        warnings.warn(f"Bradley-Terry has no finite maximum-likelihood estimate in {degenerate} of {n_trials} trials "
                      "(a group never loses or never wins); their strengths depend on tol.", DegenerateWarning,
                      stacklevel=2)
    total_wins = wins.sum(axis=2) - np.diagonal(wins, axis1=1, axis2=2)
    pad = never.astype(np.float64)
    strength = np.full((n_trials, n), 0.5)
    iterations = np.zeros(n_trials, dtype=np.int64)
    active = np.arange(n_trials)
    for iteration in range(1, max_iter + 1):
        s = strength[active]
        ratio = games[active] / (s[:, :, None] + s[:, None, :] + pad[active])
        new = total_wins[active] / ratio.sum(axis=2)
        new /= new.sum(axis=1, keepdims=True)
        change = np.sum((new - s) ** 2, axis=1)
        strength[active] = new
        done = change < tol
        iterations[active[done]] = iteration
        active = active[~done]
        if not len(active):
            return strength, iterations
    iterations[active] = max_iter
    warnings.warn(f"Bradley-Terry did not converge to tol={tol} in {max_iter} iterations in {len(active)} of "
                  f"{n_trials} trials", ConvergenceWarning, stacklevel=2)
    return strength, iterations


def bradley_terry(scores: pd.DataFrame, ties: str = "half", tol: float = 1e-9, max_iter: int = 10_000) -> pd.Series:
    """BT: Bradley-Terry strengths (summing to 1) from instance-level comparisons of every pair of systems.

    Each test instance is one comparison per pair of systems (Appendix E). ``ties`` says what an equal score is:
    ``"half"`` (default) half a win for each, ``"drop"`` no comparison, ``"loss"`` a win for the later column of the
    pair (the behaviour of the paper's published code; use it only to reproduce the paper's numbers).
    See :func:`fit_bradley_terry` for the algorithm and degenerate cases.
    """
    check_tie_policy(ties)
    values = check_scores(scores)
    strict, tied = comparison_counts(values)
    strength, _ = fit_bradley_terry(win_matrix(strict, tied, ties), tol=tol, max_iter=max_iter, names=scores.columns)
    return pd.Series(strength, index=scores.columns, name="bt")


_TIE_CODES = {"half": _kernels.TIE_HALF, "drop": _kernels.TIE_DROP, "loss": _kernels.TIE_LOSS}


def elo(scores: pd.DataFrame, k: float = 20.0, initial: float = 1500.0, ties: str = "half") -> pd.Series:
    """Elo ratings (Appendix G.1, eq. 5) after one game per pair of systems and test instance.

    Games are played in the order of the paper's tool: system pairs in ``itertools.combinations`` column order and,
    within a pair, instances in row order. Elo is order dependent: permuting the columns or the rows can change the
    ratings (and occasionally the ranking), unlike BT. Ties: ``"half"`` (default) a draw worth 1/2 to each,
    ``"drop"`` no game, ``"loss"`` a win for the later column (the paper's code).
    """
    check_tie_policy(ties)
    k = check_number(k, "k", low=0, low_open=True)
    initial = check_number(initial, "initial")
    values = check_scores(scores)
    rating = _kernels.elo_kernel(np.ascontiguousarray(values), float(k), float(initial), _TIE_CODES[ties])
    return pd.Series(rating, index=scores.columns, name="elo")


def trueskill(
    scores: pd.DataFrame,
    mu: float = trueskill_pkg.MU,
    sigma: float = trueskill_pkg.SIGMA,
    beta: float = trueskill_pkg.BETA,
    tau: float = trueskill_pkg.TAU,
    draw_probability: float = trueskill_pkg.DRAW_PROBABILITY,
    ties: str = "draw",
) -> pd.Series:
    """TrueSkill mean skill mu (Appendix G.2) after one 1-vs-1 game per pair of systems and test instance.

    Same game order as :func:`elo`; defaults are the ``trueskill`` package's (mu 25, sigma 25/3, beta 25/6,
    tau 25/300, draw probability 0.10). Ties: ``"draw"`` (default, as the paper's code), ``"drop"``, or ``"loss"``
    (the later column wins). A compiled closed-form update equal to ``trueskill.rate_1vs1`` to rounding; raises
    ``FloatingPointError`` where the package would (an update outside its numerical range).
    """
    check_tie_policy(ties, ("draw", "drop", "loss"))
    mu = check_number(mu, "mu")
    sigma = check_number(sigma, "sigma", low=0, low_open=True)
    beta = check_number(beta, "beta", low=0, low_open=True)
    tau = check_number(tau, "tau", low=0)
    draw_probability = check_number(draw_probability, "draw_probability", low=0, high=1, high_open=True)
    values = check_scores(scores)
    env = trueskill_pkg.TrueSkill(mu=mu, sigma=sigma, beta=beta, tau=tau, draw_probability=draw_probability, backend=None)
    margin = trueskill_pkg.calc_draw_margin(draw_probability, 2, env)
    code = {"draw": _kernels.TIE_HALF, "drop": _kernels.TIE_DROP, "loss": _kernels.TIE_LOSS}[ties]
    mus, _, failed = _kernels.trueskill_kernel(
        np.ascontiguousarray(values), float(mu), float(sigma), float(beta), float(tau), float(margin), code
    )
    if failed >= 0:
        raise FloatingPointError(f"TrueSkill update {failed} left the numerical range (as trueskill.rate_1vs1 would)")
    return pd.Series(mus, index=scores.columns, name="trueskill")


AGGREGATORS = {"mean": mean, "median": median, "bt": bradley_terry, "elo": elo, "trueskill": trueskill}
"""The five mechanisms of the paper by short name, with their default parameters."""

#: Tie handling per mechanism under a named policy. ``"loss"`` is the paired paper's published code (BT and Elo
#: count a tie as a win for the later column; TrueSkill rates it a draw); ``"half"`` gives each tied system half a
#: win (TrueSkill: a draw).
TIE_POLICY_MECHANISMS = {
    "loss": {"bt": "loss", "elo": "loss", "trueskill": "draw"},
    "half": {"bt": "half", "elo": "half", "trueskill": "draw"},
}


def mechanisms(policy: str = "loss", names=tuple(AGGREGATORS)) -> dict:
    """The mechanisms named in ``names`` (in that order), each with the tie handling of ``policy``."""
    if policy not in TIE_POLICY_MECHANISMS:
        raise ValueError(f"unknown tie policy {policy!r}; expected one of {list(TIE_POLICY_MECHANISMS)}")
    ties = TIE_POLICY_MECHANISMS[policy]
    table = {
        "mean": mean,
        "median": median,
        "bt": lambda s: bradley_terry(s, ties=ties["bt"]),
        "elo": lambda s: elo(s, ties=ties["elo"]),
        "trueskill": lambda s: trueskill(s, ties=ties["trueskill"]),
    }
    names = list(names)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise ValueError(f"unknown mechanisms {unknown}; expected some of {list(table)}")
    return {n: table[n] for n in names}
