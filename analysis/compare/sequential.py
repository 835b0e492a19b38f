"""Elo and TrueSkill without the file's game order: each rating averaged over random orders of the games.

Elo and TrueSkill rate one game at a time, so their result depends on the order of the games. The paper's tool
plays them pair by pair (:func:`analysis.aggregate.elo`); a resampled test set replays them in another order, and
its percentile interval then need not contain the estimate on the file. Here both the estimate and every
bootstrap resample are averaged over random orders: the games of one instance (every pair of systems both scored on
it) are played together, instances in a random order and, within an instance, the pairs in a random rotation of a
random permutation. Games of judgment files (one game per judgment) are played in a random permutation.

The kernels are compiled with numba and reuse the TrueSkill update of :mod:`analysis._kernels` (equal to the
``trueskill`` package's ``rate_1vs1``, tested there).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .. import _kernels

ELO_K, ELO_INITIAL = 20.0, 1500.0
TIE_CODES = {"half": _kernels.TIE_HALF, "drop": _kernels.TIE_DROP, "loss": _kernels.TIE_LOSS}


@numba.njit(cache=True)
def scores_kernel(values, rows, pair_i, pair_j, rotation, trueskill, k, initial, sigma0, beta, tau, margin,
                  tie_code):
    """Ratings after every pair's game on each instance in ``rows`` (in that order); the pairs of the r-th
    instance played from position ``rotation[r]`` of the (already permuted) pair arrays. Returns (ratings, ok)."""
    n_systems = values.shape[1]
    rating = np.full(n_systems, initial)
    sigma = np.full(n_systems, sigma0)
    row_values = np.empty(n_systems)
    n_pairs = pair_i.shape[0]
    beta2, tau2 = beta * beta, tau * tau
    scale = math.log(10.0) / 400.0
    for r in range(rows.shape[0]):
        row_values[:] = values[rows[r]]
        start = rotation[r]
        for q in range(n_pairs):
            p = q + start
            if p >= n_pairs:
                p -= n_pairs
            i, j = pair_i[p], pair_j[p]
            a, b = row_values[i], row_values[j]
            if a != a or b != b:
                continue
            if a > b:
                s, drawn = 1.0, False
            elif a < b:
                s, drawn = 0.0, False
            elif tie_code == 1:
                continue
            elif tie_code == 0:
                s, drawn = 0.5, True
            else:
                s, drawn = 0.0, False
            if trueskill:
                if drawn:
                    ok = _kernels._update(rating, sigma, j, i, True, beta2, tau2, margin)
                elif s == 1.0:
                    ok = _kernels._update(rating, sigma, i, j, False, beta2, tau2, margin)
                else:
                    ok = _kernels._update(rating, sigma, j, i, False, beta2, tau2, margin)
                if not ok:
                    return rating, False
            else:
                expected = 1.0 / (math.exp((rating[j] - rating[i]) * scale) + 1.0)
                delta = k * (s - expected)
                rating[i] += delta
                rating[j] -= delta
    return rating, True


@numba.njit(cache=True)
def _trueskill_game(rating, sigma, i, j, o, beta2, tau2, margin):  # pragma: no cover (compiled)
    """One game of a judgment list (``o``: +1 ``i`` won, -1 ``j`` won, 0 a draw) as TrueSkill updates it, in place;
    False when the update fails."""
    if o == 0:
        return _kernels._update(rating, sigma, j, i, True, beta2, tau2, margin)
    if o > 0:
        return _kernels._update(rating, sigma, i, j, False, beta2, tau2, margin)
    return _kernels._update(rating, sigma, j, i, False, beta2, tau2, margin)


@numba.njit(cache=True)
def games_kernel(n_systems, left, right, outcome, order, trueskill, k, initial, sigma0, beta, tau, margin):
    """Ratings after the games ``order`` (indices into left/right/outcome: +1 left won, -1 right won, 0 draw):
    (rating, σ, ok); σ is TrueSkill's (Elo leaves it at ``sigma0``)."""
    rating = np.full(n_systems, initial)
    sigma = np.full(n_systems, sigma0)
    beta2, tau2 = beta * beta, tau * tau
    for g in range(order.shape[0]):
        m = order[g]
        i, j, o = left[m], right[m], outcome[m]
        if trueskill:
            if not _trueskill_game(rating, sigma, i, j, o, beta2, tau2, margin):
                return rating, sigma, False
        else:
            s = 1.0 if o > 0 else (0.0 if o < 0 else 0.5)
            expected = 1.0 / (10.0 ** ((rating[j] - rating[i]) / 400.0) + 1.0)
            delta = k * (s - expected)
            rating[i] += delta
            rating[j] -= delta
    return rating, sigma, True


@numba.njit(parallel=True, cache=True)
def scores_batch(values, rows, pair_i, pair_j, rotation, trueskill, k, initial, sigma0, beta, tau, margin, tie_code):
    """:func:`scores_kernel` for R replays at once (row r of ``rows``, ``pair_i``, ``pair_j``, ``rotation``), in
    parallel over the machine's cores; each replay writes only its own row, so the result never depends on the
    threads."""
    n_replays = rows.shape[0]
    out = np.empty((n_replays, values.shape[1]))
    ok = np.ones(n_replays, dtype=np.bool_)
    for r in numba.prange(n_replays):
        rating, good = scores_kernel(values, rows[r], pair_i[r], pair_j[r], rotation[r], trueskill, k, initial,
                                     sigma0, beta, tau, margin, tie_code)
        out[r] = rating
        ok[r] = good
    return out, ok


@numba.njit(parallel=True, cache=True)
def games_batch(n_systems, left, right, outcome, orders, trueskill, k, initial, sigma0, beta, tau, margin):
    """:func:`games_kernel` for R replays at once (row r of ``orders``), in parallel over the machine's cores:
    (ratings, σ, ok), one row per replay."""
    n_replays = orders.shape[0]
    out = np.empty((n_replays, n_systems))
    sigmas = np.empty((n_replays, n_systems))
    ok = np.ones(n_replays, dtype=np.bool_)
    for r in numba.prange(n_replays):
        rating, sigma, good = games_kernel(n_systems, left, right, outcome, orders[r], trueskill, k, initial, sigma0,
                                           beta, tau, margin)
        out[r] = rating
        sigmas[r] = sigma
        ok[r] = good
    return out, sigmas, ok


#: replays run together (bounds the memory of their orders)
BATCH = 8


def replay_scores(values: np.ndarray, name: str, rows: np.ndarray, gen: np.random.Generator,
                  ties: str, k: float = ELO_K, initial: float = ELO_INITIAL) -> np.ndarray:
    """(R x systems): one random-order replay (the instances in a random order, each instance's pairs from a random
    rotation of a random permutation) of each row of ``rows`` (R x instances, instance indices with repeats), run
    :data:`BATCH` at a time in parallel; the orders are drawn from ``gen`` in row order, so the result is the same on
    any number of cores."""
    s = values.shape[1]
    i, j = np.triu_indices(s, 1)
    code = TIE_CODES["half" if (name == "trueskill" and ties == "loss") else ties]
    out = []
    for start in range(0, len(rows), BATCH):
        part = rows[start:start + BATCH]
        perms = np.array([gen.permutation(len(i)) for _ in part])
        orders = np.array([gen.permutation(r) for r in part], dtype=np.int64)
        rotation = gen.integers(0, len(i), size=orders.shape).astype(np.int64)
        ratings, ok = scores_batch(values, orders, i[perms].astype(np.int64), j[perms].astype(np.int64), rotation,
                                   *_params(name, k, initial), code)
        if not ok.all():
            raise FloatingPointError(f"a {name} update left its numerical range")
        out.append(ratings)
    return np.vstack(out) if out else np.empty((0, s))


def replay_games(n_systems: int, left, right, outcome, name: str, games: np.ndarray,
                 gen: np.random.Generator, *, k: float = ELO_K, initial: float = ELO_INITIAL,
                 order: str = "random", sigma: bool = False):
    """(R x systems): one random-order replay of each row of ``games`` (R x judgments, indices into ``left``,
    ``right`` and ``outcome`` with repeats; int32 or int64); ``order="file"`` plays each row as given (the caller
    puts it in the file's order; ``gen`` untouched). ``k``, ``initial``: Elo's step and start. ``sigma`` (TrueSkill):
    also return each replay's σ, (μ, σ), from the same orders (μ equal, bit for bit)."""
    out, sigmas = [], []
    params = _params(name, k, initial)
    for start in range(0, len(games), BATCH):
        part = games[start:start + BATCH]
        orders = np.array([g if order == "file" else gen.permutation(g) for g in part],
                          dtype=np.int32 if games.dtype == np.int32 else np.int64)
        ratings, sig, ok = games_batch(n_systems, left, right, outcome, orders, *params)
        sigmas.append(sig)
        if not ok.all():
            raise FloatingPointError(f"a {name} update left its numerical range")
        out.append(ratings)
    ratings = np.vstack(out) if out else np.empty((0, n_systems))
    if sigma and name == "trueskill":
        return ratings, (np.vstack(sigmas) if sigmas else np.empty((0, n_systems)))
    return ratings


def _params(name: str, k: float = ELO_K, initial: float = ELO_INITIAL):
    import trueskill as ts

    if name == "elo":
        return False, float(k), float(initial), 0.0, 1.0, 0.0, 0.0
    env = ts.TrueSkill(backend=None)
    margin = ts.calc_draw_margin(ts.DRAW_PROBABILITY, 2, env)
    return True, 0.0, ts.MU, ts.SIGMA, ts.BETA, ts.TAU, margin


def in_file_order(n_systems: int, left, right, outcome, name: str, k: float = ELO_K,
                  initial: float = ELO_INITIAL) -> np.ndarray:
    """Ratings after the games in the file's order (what evalica's and the ``trueskill`` package's loops give);
    ``k`` and ``initial`` set Elo's step and start."""
    params = list(_params(name))
    if name == "elo":
        params[1:3] = [float(k), float(initial)]
    rating, _, ok = games_kernel(n_systems, np.asarray(left, np.int64), np.asarray(right, np.int64),
                              np.asarray(outcome, np.int64), np.arange(len(left), dtype=np.int64), *params)
    if not ok:
        raise FloatingPointError(f"a {name} update left its numerical range")
    return rating
