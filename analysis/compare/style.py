"""Style control: Bradley-Terry fitted jointly with per-judgment covariates, as arena leaderboards rank "with style
control" (LMArena's contextual BT). A covariate is a per-judgment difference between the two responses (e.g. the
length of A's answer minus B's), so that

    P(left wins) = σ(θ_left − θ_right + β·z),

with ties as half a win (the fractional outcome ½ of :mod:`.robust`). θ are the controlled strengths (the ranking once
the covariates' effect is taken out), β the covariates' coefficients. The fit is Newton's method on the exact
log-likelihood (θ identified by fixing the first system's at 0), and every interval comes from the sandwich (HC0)
covariance, each judgment one unit, as for :func:`analysis.compare.robust.log_strength_cov`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .robust import ELO_BASE, ELO_CENTRE, ELO_SCALE, _laplacian

MAX_ITER = 100
TOL = 1e-10


@dataclass(frozen=True)
class StyleFit:
    """``strengths`` (summing to 1) and their ``strengths_low``/``strengths_high``; ``coef`` per covariate with
    ``coef_low``/``coef_high`` and ``coef_se`` (sandwich); ``cov``: the sandwich covariance of (θ_1.., β)."""

    strengths: np.ndarray
    strengths_low: np.ndarray
    strengths_high: np.ndarray
    coef: np.ndarray
    coef_low: np.ndarray
    coef_high: np.ndarray
    coef_se: np.ndarray
    cov: np.ndarray
    iterations: int


def check_covariates(z: np.ndarray, names) -> np.ndarray:
    """The covariates as a (judgments x k) float array; NaN or infinite values are errors naming the column, as is a
    column of zeros (it carries nothing). A constant column is a first-position advantage ("home advantage"): it is
    fitted when the pairs are judged in both orders (:func:`fit` refuses what cannot be told apart)."""
    z = np.asarray(z, dtype=float)
    if z.ndim == 1:
        z = z[:, None]
    for k, name in enumerate(names):
        bad = ~np.isfinite(z[:, k])
        if bad.any():
            raise ValueError(f"covariate {name!r} is missing or infinite in judgment {int(np.flatnonzero(bad)[0]) + 1}")
        if not z[:, k].any():
            raise ValueError(f"covariate {name!r} is 0 in every judgment: it carries nothing")
    if z.shape[1] > 1 and np.linalg.matrix_rank(z) < z.shape[1]:
        raise ValueError(f"the covariates {list(names)} are linearly dependent (one is a combination of the others)")
    return z


def fit(n_systems: int, left, right, outcome, weight, z, *, confidence: float = 0.95) -> StyleFit:
    """The joint fit (module docstring): ``left``/``right`` system indices, ``outcome`` 1/0/−1 (left wins, tie, right
    wins), ``weight`` per judgment, ``z`` (judgments x k) covariates."""
    left, right = np.asarray(left, np.int64), np.asarray(right, np.int64)
    y = (np.asarray(outcome, float) + 1) / 2
    w = np.asarray(weight, float)
    z = np.asarray(z, float)
    s = n_systems
    gram = _outer(left, right, z, s, np.ones(len(left)))
    if np.linalg.matrix_rank(gram) < len(gram):
        raise ValueError("the covariates cannot be told apart from the systems' strengths (a covariate that is the "
                         "same for every judgment of a system, e.g. a constant one on a chain of pairs each judged in "
                         "one order only), or a system is never compared")
    params = np.zeros(s - 1 + z.shape[1])  # θ_1..θ_{s-1} (θ_0 = 0), then β
    steps = 0
    for _ in range(MAX_ITER):
        steps += 1
        p = _prob(params, left, right, z, s)
        grad, hess = _score(left, right, z, s, w * (y - p)), _hessian(left, right, z, s, w * p * (1 - p))
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            raise ValueError("BT with covariates has no unique fit (a system never compared, or a covariate that "
                             "separates the outcomes)") from None
        params += step
        if np.max(np.abs(step)) < TOL:
            break
    else:
        raise ValueError(f"BT with covariates did not converge in {MAX_ITER} Newton steps (a system that never wins "
                         "or never loses, or a covariate that predicts every outcome)")
    p = _prob(params, left, right, z, s)
    bread = np.linalg.inv(_hessian(left, right, z, s, w * p * (1 - p)))
    meat = _meat(left, right, z, s, w * (y - p))
    cov = bread @ meat @ bread
    zq = stats.norm.ppf((1 + confidence) / 2)
    theta = np.r_[0.0, params[: s - 1]]
    pi = np.exp(theta - theta.max())
    pi /= pi.sum()
    full = np.zeros((s, s))
    full[1:, 1:] = cov[: s - 1, : s - 1]
    jac = np.eye(s) - pi[None, :]
    sd = np.sqrt(np.clip(np.diag(jac @ full @ jac.T), 0, None))
    coef, se = params[s - 1:], np.sqrt(np.clip(np.diag(cov)[s - 1:], 0, None))
    return StyleFit(pi, np.exp(np.log(pi) - zq * sd), np.exp(np.log(pi) + zq * sd), coef, coef - zq * se,
                    coef + zq * se, se, cov, steps)


def _prob(params, left, right, z, s):
    theta = np.r_[0.0, params[: s - 1]]
    return 1 / (1 + np.exp(-(theta[left] - theta[right] + z @ params[s - 1:])))


def _score(left, right, z, s, r) -> np.ndarray:
    """Σ r_k (x_k, z_k) over judgments, θ_0 dropped."""
    g = np.bincount(left, weights=r, minlength=s) - np.bincount(right, weights=r, minlength=s)
    return np.r_[g[1:], z.T @ r]


def _hessian(left, right, z, s, c) -> np.ndarray:
    """Σ c_k (x_k, z_k)(x_k, z_k)ᵀ over judgments, θ_0 dropped."""
    return _outer(left, right, z, s, c)


def _meat(left, right, z, s, r) -> np.ndarray:
    """Σ r_k² (x_k, z_k)(x_k, z_k)ᵀ: the sandwich's meat from the residuals ``r`` (weight times y − p)."""
    return _outer(left, right, z, s, r * r)


def _outer(left, right, z, s, c) -> np.ndarray:
    """:func:`_full_outer` without the first system's row and column (its θ fixed at 0)."""
    return np.delete(np.delete(_full_outer(left, right, z, s, c), 0, axis=0), 0, axis=1)


# --- arena-rank's contextual BT (issue 53): L2-penalised coefficients, inverse-propensity weights, normalised features

#: arena-rank's ContextualBradleyTerry defaults: L2 penalty on the coefficients of the mean log-likelihood, pairs seen
#: fewer times than this weighted as if seen this often, and the ridge on the Hessian's diagonal of its sandwich
ARENA_REG, ARENA_MIN_PAIR_COUNT, ARENA_HESSIAN_REG = 1.0, 50, 1e-5


@dataclass(frozen=True)
class ArenaStyleFit:
    """arena-rank's contextual BT: ``theta`` (log-strengths centred on their arithmetic mean) and ``strengths``
    (summing to 1), the arena ``ratings`` with arena-rank's sandwich intervals ``ratings_low``/``ratings_high``,
    ``coef`` per covariate (in the normalised features' units when normalised) with ``coef_se``."""

    theta: np.ndarray
    strengths: np.ndarray
    ratings: np.ndarray
    ratings_low: np.ndarray
    ratings_high: np.ndarray
    coef: np.ndarray
    coef_se: np.ndarray
    iterations: int


def normalise_features(z: np.ndarray) -> np.ndarray:
    """arena-rank's (and FastChat's) standardisation: each column less its mean over its population standard
    deviation (a constant column divided by 1)."""
    std = z.std(axis=0)
    return (z - z.mean(axis=0)) / np.where(std == 0, 1.0, std)


def propensity_weights(left, right, n_systems: int, min_pair_count: int = ARENA_MIN_PAIR_COUNT) -> np.ndarray:
    """arena-rank's inverse-propensity weights: per judgment 1 / max(judgments of its unordered pair,
    ``min_pair_count``), divided by their mean."""
    left, right = np.asarray(left, np.int64), np.asarray(right, np.int64)
    key = np.minimum(left, right) * n_systems + np.maximum(left, right)
    count = np.bincount(key)[key].astype(float)
    w = 1.0 / np.maximum(count, min_pair_count)
    return w / w.mean()


def fit_arena(n_systems: int, left, right, outcome, weight, z, *, reg: float = ARENA_REG,
              hessian_reg: float = ARENA_HESSIAN_REG, confidence: float = 0.95) -> ArenaStyleFit:
    """arena-rank's ``ContextualBradleyTerry`` (its loss, maximum and sandwich): maximise
    mean_k w_k ℓ_k − ½ reg ‖β‖² (ℓ_k the log-likelihood of judgment k, ties as ½), θ unpenalised and centred on its
    mean, by Newton's method (to a step below :data:`TOL`, where arena-rank's L-BFGS stops at its tolerances); the
    sandwich ``H⁻¹ G H⁻¹ / n`` with H the mean Hessian without the penalty plus ``hessian_reg`` on its diagonal and
    G the mean outer product of the scores less ``reg²/n · (0, β)(0, β)ᵀ``, as arena-rank computes them. ``weight``:
    per-judgment weights (:func:`propensity_weights` for arena-rank's reweighting, times any file weights); ``z``
    the covariates as fitted (:func:`normalise_features` for arena-rank's normalisation)."""
    left, right = np.asarray(left, np.int64), np.asarray(right, np.int64)
    y = (np.asarray(outcome, float) + 1) / 2
    w, z = np.asarray(weight, float), np.asarray(z, float)
    s, k, n = n_systems, z.shape[1], len(left)
    theta, beta = np.zeros(s), np.zeros(k)
    pin = np.zeros((s + k, s + k))
    steps = 0
    for _ in range(MAX_ITER):
        steps += 1
        p = 1 / (1 + np.exp(-(theta[left] - theta[right] + z @ beta)))
        r = w * (y - p) / n
        grad = np.r_[np.bincount(left, weights=r, minlength=s) - np.bincount(right, weights=r, minlength=s),
                     z.T @ r - reg * beta]
        hess = _full_outer(left, right, z, s, w * p * (1 - p) / n)
        hess[s:, s:] += reg * np.eye(k)
        pin[:s, :s] = hess[:s, :s].diagonal().mean()  # fixes the shift of θ: the step keeps sum(θ) at 0
        try:
            step = np.linalg.solve(hess + pin, grad)
        except np.linalg.LinAlgError:
            raise ValueError("BT with covariates has no unique fit (a system never compared)") from None
        theta += step[:s]
        beta += step[s:]
        if np.max(np.abs(step)) < TOL:
            break
    else:
        raise ValueError(f"BT with covariates did not converge in {MAX_ITER} Newton steps")
    p = 1 / (1 + np.exp(-(theta[left] - theta[right] + z @ beta)))
    bread = _full_outer(left, right, z, s, p * (1 - p) * w / n) + hessian_reg * np.eye(s + k)
    meat = _full_outer(left, right, z, s, ((y - p) * w) ** 2 / n)
    shift = np.r_[np.zeros(s), beta]
    meat -= reg**2 / n * np.outer(shift, shift)
    inv = np.linalg.inv(bread)
    var = np.diag(inv @ meat @ inv) / n
    sd = np.sqrt(np.clip(var, 0, None))
    zq = stats.norm.ppf((1 + confidence) / 2)
    scale = ELO_SCALE / np.log(ELO_BASE)
    ratings = theta * scale + ELO_CENTRE
    pi = np.exp(theta - theta.max())
    return ArenaStyleFit(theta, pi / pi.sum(), ratings, ratings - zq * sd[:s] * scale, ratings + zq * sd[:s] * scale,
                         beta, sd[s:], steps)


def _full_outer(left, right, z, s, c) -> np.ndarray:
    """Σ c_k (x_k, z_k)(x_k, z_k)ᵀ over judgments, every system's θ kept."""
    k = z.shape[1]
    out = np.zeros((s + k, s + k))
    out[:s, :s] = _laplacian(left, right, c, s)
    cz = c[:, None] * z
    cross = np.zeros((s, k))
    np.add.at(cross, left, cz)
    np.add.at(cross, right, -cz)
    out[:s, s:], out[s:, :s] = cross, cross.T
    out[s:, s:] = z.T @ cz
    return out
