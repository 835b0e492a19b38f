"""Compiled sequential rating updates for Elo and TrueSkill (used by :mod:`analysis.aggregate`).

Elo and TrueSkill are online: every game changes the ratings the next game starts from, so they cannot be
vectorised across games. These loops are compiled with numba; they replay exactly the game order of the paper's
Pairformance code (system pairs in ``itertools.combinations`` order, instances in row order within a pair).

TrueSkill uses the closed-form two-player update (Herbrich et al. 2007, the "v" and "w" functions). The ``trueskill``
package computes the same quantity by message passing on the factor graph; for two players the graph is a chain and
its schedule converges after one pass, so both are equal up to rounding. To be equal to the package to rounding, the
normal cdf/pdf below are the package's own default backend (its Numerical-Recipes ``erfc`` approximation, relative
error below 1.2e-7) rather than ``math.erfc``; ``tests/test_aggregate.py`` checks the equality on random games.
"""

from __future__ import annotations

import math

import numba
import numpy as np

# outcome codes for a tie, shared with aggregate.py
TIE_HALF, TIE_DROP, TIE_LOSS = 0, 1, 2


@numba.njit(cache=True)
def elo_kernel(values, k, initial, tie_code):
    n_instances, n_systems = values.shape
    rating = np.full(n_systems, initial, dtype=np.float64)
    for i in range(n_systems):
        for j in range(i + 1, n_systems):
            for row in range(n_instances):
                a = values[row, i]
                b = values[row, j]
                if a > b:
                    s = 1.0
                elif a < b:
                    s = 0.0
                elif tie_code == TIE_DROP:
                    continue
                elif tie_code == TIE_HALF:
                    s = 0.5
                else:  # TIE_LOSS: the later column wins, as the paper's code did
                    s = 0.0
                expected = 1.0 / (10.0 ** ((rating[j] - rating[i]) / 400.0) + 1.0)
                delta = k * (s - expected)
                rating[i] += delta
                rating[j] -= delta
    return rating


@numba.njit(cache=True)
def _erfc(x):
    z = abs(x)
    t = 1.0 / (1.0 + z / 2.0)
    r = t * math.exp(
        -z * z
        - 1.26551223
        + t
        * (
            1.00002368
            + t
            * (
                0.37409196
                + t
                * (
                    0.09678418
                    + t
                    * (
                        -0.18628806
                        + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))
                    )
                )
            )
        )
    )
    return 2.0 - r if x < 0 else r


@numba.njit(cache=True)
def _cdf(x):
    return 0.5 * _erfc(-x / math.sqrt(2.0))


@numba.njit(cache=True)
def _pdf(x):
    return 1.0 / math.sqrt(2.0 * math.pi) * math.exp(-(x**2) / 2.0)


@numba.njit(cache=True)
def _update(mu, sigma, w, l, drawn, beta2, tau2, draw_margin):
    """One 1-vs-1 game, ``w`` beats ``l`` (or draws with it). Returns False on the package's FloatingPointError."""
    sw2 = sigma[w] ** 2 + tau2
    sl2 = sigma[l] ** 2 + tau2
    c2 = 2.0 * beta2 + sw2 + sl2
    c = math.sqrt(c2)
    diff = (mu[w] - mu[l]) / c
    eps = draw_margin / c
    if drawn:
        abs_diff = abs(diff)
        a = eps - abs_diff
        b = -eps - abs_diff
        denom = _cdf(a) - _cdf(b)
        if denom == 0.0:
            return False
        v_abs = (_pdf(b) - _pdf(a)) / denom
        v = v_abs if diff >= 0 else -v_abs
        ww = v_abs**2 + (a * _pdf(a) - b * _pdf(b)) / denom
    else:
        x = diff - eps
        denom = _cdf(x)
        v = _pdf(x) / denom if denom != 0.0 else -x
        ww = v * (v + x)
        if not (0.0 < ww < 1.0):
            return False
    mu[w] += sw2 / c * v
    mu[l] -= sl2 / c * v
    sigma[w] = math.sqrt(sw2 * (1.0 - sw2 / c2 * ww))
    sigma[l] = math.sqrt(sl2 * (1.0 - sl2 / c2 * ww))
    return True


@numba.njit(cache=True)
def trueskill_kernel(values, mu0, sigma0, beta, tau, draw_margin, tie_code):
    """Return (mu, sigma, failed_game); failed_game is -1 when every update succeeded."""
    n_instances, n_systems = values.shape
    mu = np.full(n_systems, mu0, dtype=np.float64)
    sigma = np.full(n_systems, sigma0, dtype=np.float64)
    beta2 = beta * beta
    tau2 = tau * tau
    game = 0
    for i in range(n_systems):
        for j in range(i + 1, n_systems):
            for row in range(n_instances):
                a = values[row, i]
                b = values[row, j]
                if a > b:
                    ok = _update(mu, sigma, i, j, False, beta2, tau2, draw_margin)
                elif a < b:
                    ok = _update(mu, sigma, j, i, False, beta2, tau2, draw_margin)
                elif tie_code == TIE_DROP:
                    continue
                elif tie_code == TIE_HALF:
                    ok = _update(mu, sigma, j, i, True, beta2, tau2, draw_margin)
                else:
                    ok = _update(mu, sigma, j, i, False, beta2, tau2, draw_margin)
                if not ok:
                    return mu, sigma, game
                game += 1
    return mu, sigma, -1


@numba.njit(cache=True)
def trueskill_games(mu, sigma, winners, losers, drawn, beta, tau, draw_margin):
    """Apply an explicit sequence of games in place (used to test against the package game by game)."""
    beta2 = beta * beta
    tau2 = tau * tau
    for g in range(winners.shape[0]):
        if not _update(mu, sigma, winners[g], losers[g], drawn[g], beta2, tau2, draw_margin):
            return g
    return -1
