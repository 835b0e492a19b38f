"""Bradley-Terry's sandwich (robust) covariance on counted judgments, as arena-rank and logistic-regression software
compute it, and what it gives without resampling: intervals on each system's strength and on the arena's Elo-scale
rating, rank intervals, and FastChat's rank.

BT with ties as half a win is the logistic regression ``P(left wins) = σ(θ_left − θ_right)`` with the fractional
outcome y = 1, ½, 0 (the fit of :func:`analysis.bt.fit` maximises the same likelihood). For a judgment k of weight
w_k the score is ``g_k = w_k (y_k − p_k) x_k`` with ``x_k = e_left − e_right``, the Hessian ``H = Σ w_k p_k (1 − p_k)
x_k x_kᵀ``, and the sandwich ``V = H⁺ (Σ g_k g_kᵀ) H⁺`` (HC0; ``H⁺`` the pseudo-inverse: θ is identified only up
to a shift, which no strength depends on). Identical judgments form one cell (:func:`analysis.compare.judgments.
judgment_cells`), so every sum runs over cells, each counted ``n_c`` times. The covariance of log π (π the strengths,
summing to one) follows by the delta method, ``J V Jᵀ`` with ``J = I − 1 πᵀ``.

Two centrings. The strengths π (the default scale) centre log π on its π-weighted mean (``J`` above). Arena
ratings (``--scale elo``) follow arena-rank and FastChat: θ centred on its arithmetic mean, ``rating = 400/ln 10 ·
(θ − mean θ) + 1000``, with arena-rank's sandwich ``(H + εI)⁻¹ M (H + εI)⁻¹`` (ε = 10⁻⁵ times the number of
judgments when every weight is 1, as arena-rank regularises the Hessian) and the interval ``rating ± z·se``
(:func:`rating_intervals`). Differences θ_i − θ_j, and so the order, agree under both.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

#: ratings on the arena's scale: 400 points per factor of ten in the odds, centred on 1000 (FastChat, LMArena)
ELO_SCALE, ELO_BASE, ELO_CENTRE = 400.0, 10.0, 1000.0
#: arena-rank's ridge on the Hessian's diagonal (``hessian_reg``), times the number of judgments when unweighted
ARENA_HESSIAN_REG = 1e-5


def log_strength_cov(left, right, outcome, weight, count, strengths) -> np.ndarray:
    """(systems x systems) sandwich covariance of the log-strengths ``log π`` of a BT fit (module docstring).
    ``left``, ``right`` (system indices), ``outcome`` (1 left wins, 0 tie, −1 right wins), ``weight`` and ``count``
    per cell; ``strengths``: the fitted π (all positive)."""
    left, right = np.asarray(left, np.int64), np.asarray(right, np.int64)
    pi = np.asarray(strengths, float)
    if not (pi > 0).all():
        raise ValueError("the sandwich covariance needs every strength positive (a system that never wins or never "
                         "loses has no finite BT estimate)")
    s = len(pi)
    theta = np.log(pi)
    p = 1 / (1 + np.exp(theta[right] - theta[left]))
    y = (np.asarray(outcome, float) + 1) / 2
    w, n = np.asarray(weight, float), np.asarray(count, float)
    h = n * w * p * (1 - p)
    meat_w = n * (w * (y - p)) ** 2
    H, M = _laplacian(left, right, h, s), _laplacian(left, right, meat_w, s)
    bread = np.linalg.pinv(H, hermitian=True)
    V = bread @ M @ bread
    J = np.eye(s) - pi[None, :]
    return J @ V @ J.T


def theta_cov(left, right, outcome, weight, count, strengths, hessian_reg: float = ARENA_HESSIAN_REG) -> np.ndarray:
    """(systems x systems) sandwich covariance of θ = log π centred on its arithmetic mean, as arena-rank's
    ``compute_ratings_and_cis`` computes it: ``(H + εI)⁻¹ M (H + εI)⁻¹`` with ε = ``hessian_reg`` times the number
    of judgments when every weight is 1 (else ``hessian_reg``); ``hessian_reg=0`` gives ``H⁺ M H⁺``, the HC0
    covariance of statsmodels' logistic regression re-centred on the mean (tested)."""
    left, right = np.asarray(left, np.int64), np.asarray(right, np.int64)
    theta = np.log(np.asarray(strengths, float))
    s = len(theta)
    p = 1 / (1 + np.exp(theta[right] - theta[left]))
    y = (np.asarray(outcome, float) + 1) / 2
    w, n = np.asarray(weight, float), np.asarray(count, float)
    H = _laplacian(left, right, n * w * p * (1 - p), s)
    M = _laplacian(left, right, n * (w * (y - p)) ** 2, s)
    if hessian_reg == 0:
        bread = np.linalg.pinv(H, hermitian=True)
    else:
        eps = hessian_reg * (n.sum() if np.all(w == 1) else 1.0)
        bread = np.linalg.inv(H + eps * np.eye(s))
    return bread @ M @ bread


def rating_intervals(ratings, cov, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """arena-rank's rating intervals: ``rating ± z · 400/ln 10 · sqrt(diag cov)`` (``cov``: :func:`theta_cov`)."""
    z = stats.norm.ppf((1 + confidence) / 2)
    half = z * ELO_SCALE / np.log(ELO_BASE) * np.sqrt(np.clip(np.diag(cov), 0, None))
    return np.asarray(ratings) - half, np.asarray(ratings) + half


def draw_ratings(draws) -> np.ndarray:
    """(resamples x systems) BT strengths as arena ratings, each resample centred on its own mean θ (as arena-rank
    rescales each bootstrap fit); a NaN resample stays NaN."""
    with np.errstate(divide="ignore", invalid="ignore"):
        theta = np.log(np.asarray(draws, float))
    finite = np.where(np.isfinite(theta), theta, np.nan)
    with np.errstate(invalid="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            centre = np.nanmean(finite, axis=1, keepdims=True)
    return ELO_SCALE * (theta - centre) / np.log(ELO_BASE) + ELO_CENTRE


def _laplacian(left, right, c, s) -> np.ndarray:
    """``Σ c_k x_k x_kᵀ`` for ``x_k = e_left − e_right``: the weighted graph Laplacian of the comparisons."""
    out = np.zeros((s, s))
    np.add.at(out, (left, right), -c)
    np.add.at(out, (right, left), -c)
    np.add.at(out, (left, left), c)
    np.add.at(out, (right, right), c)
    return out


def strength_intervals(strengths, cov, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Intervals on the strengths π from normal intervals on log π (positive, asymmetric around π)."""
    z = stats.norm.ppf((1 + confidence) / 2)
    sd = np.sqrt(np.clip(np.diag(cov), 0, None))
    log_pi = np.log(strengths)
    return np.exp(log_pi - z * sd), np.exp(log_pi + z * sd)


def rank_draws(strengths, cov, n_draws: int, rng) -> np.ndarray:
    """(draws x systems) ranks (1 = best) of log-strengths drawn from their normal approximation N(log π, cov)."""
    gen = np.random.default_rng(rng)
    draws = gen.multivariate_normal(np.log(strengths), cov, size=n_draws, method="eigh")
    order = np.argsort(-draws, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, draws.shape[1] + 1)[None, :], axis=1)
    return ranks.astype(float)


def elo_scale(values, strengths=None) -> np.ndarray:
    """BT strengths as arena ratings: ``400·log10(π / geometric mean of π) + 1000`` (FastChat's scale: its logistic
    regression without intercept centres the coefficients). ``strengths``: the fit whose geometric mean centres
    the scale (default ``values`` itself; pass the estimates to map interval ends on the same scale)."""
    with np.errstate(divide="ignore"):
        log_v = np.log(np.asarray(values, float))
        log_pi = np.log(np.asarray(values if strengths is None else strengths, float))
    centre = log_pi[np.isfinite(log_pi)].mean() if np.isfinite(log_pi).any() else 0.0
    return ELO_SCALE * (log_v - centre) / np.log(ELO_BASE) + ELO_CENTRE


def fastchat_rank(low, high) -> np.ndarray:
    """FastChat's leaderboard rank: 1 + the number of systems whose interval lies wholly above this one's."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    return 1 + (low[None, :] > high[:, None]).sum(axis=1)
