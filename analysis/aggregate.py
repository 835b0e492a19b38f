"""Aggregation mechanisms: per-system scores from a score matrix (rows = test instances, columns = systems).

Peyrard et al. (2021) §2.2 (MEAN, MEDIAN, BT), Appendix E (the BT fit) and Appendix G (Elo, TrueSkill). Every
aggregator validates its input (see :mod:`analysis.validation`) and returns a pandas Series indexed by system, in
column order; a higher value means a stronger system.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import trueskill as trueskill_pkg

from . import _kernels, bt, comparisons
from .validation import check_number, check_scores, check_tie_policy, real_array, system_names


def mean(scores: pd.DataFrame) -> pd.Series:
    """MEAN: the average score of each system over the test instances."""
    values = check_scores(scores)
    return pd.Series(values.mean(axis=0), index=scores.columns, name="mean")


def median(scores: pd.DataFrame) -> pd.Series:
    """MEDIAN: the median score of each system over the test instances."""
    values = check_scores(scores)
    return pd.Series(np.median(values, axis=0), index=scores.columns, name="median")


def stopping_rule(ties) -> str:
    """The BT stopping rule (:func:`analysis.bt.fit`'s ``rule``) that goes with a tie policy: ``"change"``, the paper's
    code's, with ``"loss"``, the tie policy that exists only to reproduce that code (BT-eval); the maximum-likelihood
    estimate (``"mle"``) with every other."""
    return "change" if isinstance(ties, str) and ties == "loss" else "mle"


def bradley_terry(scores: pd.DataFrame, ties="half", tol: float = bt.TOL, max_iter: int = bt.MAX_ITER,
                  rule: str | None = None) -> pd.Series:
    """BT: Bradley-Terry strengths (summing to 1) from instance-level comparisons of every pair of systems.

    Each test instance is one comparison per pair of systems (Appendix E), fitted by :func:`analysis.bt.fit`.
    ``ties`` says what an equal score is (:data:`analysis.comparisons.TIES`): ``"half"`` (default) half a win for
    each, ``"drop"`` no comparison, ``"loss"`` a win for the later column of the pair (the behaviour of the paper's
    published code; use it only to reproduce the paper's numbers), or a numeric tie weight. The fit itself
    (iterations, and the groups without a finite estimate, see :class:`analysis.bt.BTFit`) is in
    ``result.attrs["fit"]``. ``rule``: the stopping rule of :func:`analysis.bt.fit`; by default
    :func:`stopping_rule` of ``ties``: the maximum-likelihood estimate, except under ``"loss"``, which reproduces the
    paper's code, stopping rule included.
    """
    values = check_scores(scores)
    systems = system_names(scores.columns, "system names (columns)")
    # the win matrix of comparisons.from_scores(scores), counted straight from the scores (equal, tested)
    wins = comparisons.score_win_matrices(values[None], ties)[0]
    result = bt.fit(wins, tol=tol, max_iter=max_iter, systems=systems, rule=rule or stopping_rule(ties))
    out = pd.Series(result.strengths[0], index=scores.columns, name="bt")
    out.attrs["fit"] = result
    return out


def bradley_terry_stack(stack, systems, ties="half", tol: float = bt.TOL, max_iter: int = bt.MAX_ITER,
                        rule: str | None = None) -> bt.BTFit:
    """:func:`bradley_terry` of every score matrix of a (trials x instances x systems) stack over the same
    ``systems``, in one batched fit (:func:`analysis.bt.fit`): trial t's strengths equal those of
    ``bradley_terry(<stack[t] as a DataFrame>, ties, rule=rule)`` bit for bit (tested). For many sub-samples of one
    setup."""
    stack = real_array(stack, "stack")
    if stack.ndim != 3 or stack.shape[1] == 0 or stack.shape[2] < 2:
        raise ValueError(f"stack must be (trials x instances x systems) with at least one instance and two systems, "
                         f"got shape {stack.shape}")
    if not np.isfinite(stack).all():
        raise ValueError("stack contains NaN or infinite scores")
    check_tie_policy(ties)
    return bt.fit(comparisons.score_win_matrices(stack, ties), tol=tol, max_iter=max_iter, systems=systems,
                  rule=rule or stopping_rule(ties))


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
    ties: str = "half",
) -> pd.Series:
    """TrueSkill mean skill mu (Appendix G.2) after one 1-vs-1 game per pair of systems and test instance.

    Same game order as :func:`elo`; defaults are the ``trueskill`` package's (mu 25, sigma 25/3, beta 25/6,
    tau 25/300, draw probability 0.10). Ties: ``"half"`` (default: a draw, as the paper's code), ``"drop"``, or
    ``"loss"`` (the later column wins). A compiled closed-form update equal to ``trueskill.rate_1vs1`` to rounding;
    raises ``FloatingPointError`` where the package would (an update outside its numerical range).
    """
    check_tie_policy(ties)
    mu = check_number(mu, "mu")
    sigma = check_number(sigma, "sigma", low=0, low_open=True)
    beta = check_number(beta, "beta", low=0, low_open=True)
    tau = check_number(tau, "tau", low=0)
    draw_probability = check_number(draw_probability, "draw_probability", low=0, high=1, high_open=True)
    values = check_scores(scores)
    env = trueskill_pkg.TrueSkill(mu=mu, sigma=sigma, beta=beta, tau=tau, draw_probability=draw_probability,
                                  backend=None)
    margin = trueskill_pkg.calc_draw_margin(draw_probability, 2, env)
    code = _TIE_CODES[ties]
    mus, _, failed = _kernels.trueskill_kernel(
        np.ascontiguousarray(values), float(mu), float(sigma), float(beta), float(tau), float(margin), code
    )
    if failed >= 0:
        raise FloatingPointError(f"TrueSkill update {failed} left the numerical range (as trueskill.rate_1vs1 would)")
    return pd.Series(mus, index=scores.columns, name="trueskill")


AGGREGATORS = {"mean": mean, "median": median, "bt": bradley_terry, "elo": elo, "trueskill": trueskill}
"""The five mechanisms of the paper by short name, with their default parameters."""

def mechanisms(ties: str = "half", names=tuple(AGGREGATORS)) -> dict:
    """The mechanisms named in ``names`` (in that order), each with one tie policy (:data:`analysis.comparisons.TIES`
    names: ``"half"``, the default, ``"drop"`` or ``"loss"``). Under ``"loss"`` (the paired paper's published code:
    BT and Elo count a tie as a win for the later column, and BT stops as that code stopped, see :func:`stopping_rule`)
    TrueSkill still rates a tie as a draw, as that code did."""
    check_tie_policy(ties)
    table = {
        "mean": mean,
        "median": median,
        "bt": lambda s: bradley_terry(s, ties=ties),
        "elo": lambda s: elo(s, ties=ties),
        "trueskill": lambda s: trueskill(s, ties="half" if ties == "loss" else ties),
    }
    names = list(names)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise ValueError(f"unknown mechanisms {unknown}; expected some of {list(table)}")
    return {n: table[n] for n in names}
