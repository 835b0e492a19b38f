"""Chapter ``05_global_vs_pairwise``, beyond the paper: Fig. 1's ties and Fig. 2's stability on llmfao's real
pairwise LLM judgments (8,931 judgments of 59 models, 39% ties), which the paper did not see.

llmfao is not instance-aligned: each judgment compares one pair on one prompt, and a pair is judged between 1 and 60
times (927 of the 1,711 pairs at all). The paper's rule of 12·m·ln m comparisons per pair (2,886 for 59 models)
therefore always falls back to "all available", and its Fig. 2 protocol — drawing k comparisons per pair with
replacement — cannot add information a pair does not have. So here (ties as half wins): Fig. 1's experiment turns
each judgment of one random half into a tie with probability p and compares its BT ranking with BT on the other half
(a reference fitted on every judgment would contain each trial's own judgments and flatter the agreement);
stability is measured by resampling each pair's judgments (bootstrap, against BT on every judgment) and by ranking
two disjoint random parts of the judgments against each other.

The figure is in :mod:`.figures`; the page's text (the notebook's markdown) pastes the numbers :func:`.facts.llmfao`
reads from these tables.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, sweeps
from ...agreement import rank_displacement, spearman_rows, spearman_summary
from ...comparisons import Comparisons
from .figures import plot_llmfao as plot_llmfao

#: tighter than the sweeps default: 59 strengths near 1/59 each, and rank statistics need them settled
TOL = 1e-12


def llmfao_judgments(table: pd.DataFrame) -> Comparisons:
    return comparisons.from_judgments(table["left"], table["right"], table["winner"])


def reference(j: Comparisons) -> pd.Series:
    """BT strengths (sum 1) from every judgment, ties as half wins, strongest first."""
    return bt.fit(comparisons.win_matrix(j), tol=TOL, systems=j.systems).series().sort_values(ascending=False)


def sampling_rule(j: Comparisons) -> dict:
    """What the paper's rule asks of llmfao and what it has."""
    m = len(j.systems)
    counts = j.pair_counts()
    required = int(sweeps.MULTIPLIER * m * math.log(m))
    pairs = m * (m - 1) // 2
    return {"models": m, "judgments": len(j), "tie_share": j.tie_share(), "pairs": pairs,
            "pairs_compared": len(counts), "median_per_pair": float(counts.median()), "max_per_pair": int(counts.max()),
            "required_per_pair": required, "required_total": required * pairs,
            "pairs_with_enough": int((counts >= required).sum())}


def _fit(wins: np.ndarray) -> np.ndarray:
    """BT on each trial of the stack; trials without a finite estimate (the win graph is not strongly connected: a
    disconnected comparison graph, or a model or group that never wins or never loses) are NaN rows."""
    out = np.full(wins.shape[:2], np.nan)
    ok = bt.finite(wins)
    if ok.any():
        out[ok] = bt.fit(wins[ok], tol=TOL).strengths
    return out


def paired_spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row of ``a`` with the same row of ``b`` (trials x systems each); NaN where either row
    is NaN or constant."""
    a, b = np.atleast_2d(np.asarray(a, float)), np.atleast_2d(np.asarray(b, float))
    bad = (np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1) | (np.nan_to_num(np.ptp(a, axis=1)) < 1e-12)
           | (np.nan_to_num(np.ptp(b, axis=1)) < 1e-12))
    ra = stats.rankdata(np.nan_to_num(a), axis=1)
    rb = stats.rankdata(np.nan_to_num(b), axis=1)
    ra -= ra.mean(axis=1, keepdims=True)
    rb -= rb.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (ra * rb).sum(axis=1) / np.sqrt((ra**2).sum(axis=1) * (rb**2).sum(axis=1))
    return np.where(bad, np.nan, rho)


def tie_sweep(j: Comparisons, probabilities, *, rng, n_trials: int, share: float = 0.5) -> pd.DataFrame:
    """Fig. 1 on llmfao, with a reference the trials do not contain: each trial splits the judgments at random into
    two disjoint parts of ``share`` each (a judgment in neither when ``share`` < 0.5), fits BT on the first as it is
    (the reference) and on the second with each judgment turned into a tie with probability p; per p the Spearman
    correlation between the two (mean and middle 95%), the share of ties in the second part (the data's own
    included) and the share of trials left out because a part has no finite BT estimate (:func:`_fit`). At p = 0
    this is :func:`split_half_curve` at ``share``."""
    if not 0 < float(share) <= 0.5:
        raise ValueError(f"the share of each part must be in (0, 0.5], got {share}")
    gen = np.random.default_rng(rng)
    ones = np.ones((n_trials, len(j)))
    own = (j.outcome == 0)[None, :]
    rows = []
    for p in probabilities:
        u = gen.random(ones.shape)
        reference_part, trial_part = u < share, u >= 1 - share
        mask = gen.random(ones.shape) < float(p)
        ref = _fit(comparisons.win_matrices(j, "half", reference_part * ones))
        trial = _fit(comparisons.win_matrices(j, "half", trial_part * ones, mask))
        rho = paired_spearman(trial, ref)
        ties = ((mask | own) & trial_part).sum() / trial_part.sum()
        rows.append({"tie_probability": float(p), "tie_share": float(ties), **spearman_summary(rho),
                     "left_out": float(np.isnan(rho).mean())})
    return pd.DataFrame(rows)


def bootstrap_ranks(j: Comparisons, *, rng, n_trials: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Each pair's judgments resampled with replacement, ``n_trials`` times: per model its reference strength and
    rank, and the 2.5-97.5% range of its rank (the resampled ranks at or just outside those percentiles, so whole
    places); and each trial's Spearman correlation with the reference."""
    ref = reference(j)
    order = list(j.systems)
    strengths = _fit(comparisons.win_matrices(j, "half", sweeps.pair_bootstrap_weights(j, rng, n_trials)))
    ranks = np.where(np.isnan(strengths), np.nan, stats.rankdata(-strengths, axis=1))
    table = pd.DataFrame({"bt": ref.reindex(order).to_numpy(),
                          "rank": stats.rankdata(-ref.reindex(order).to_numpy()),
                          "rank_low": np.nanpercentile(ranks, 2.5, axis=0, method="lower"),
                          "rank_high": np.nanpercentile(ranks, 97.5, axis=0, method="higher")},
                         index=order).sort_values("rank")
    return table.rename_axis("model"), spearman_rows(strengths, ref.reindex(order).to_numpy())


def split_half_curve(j: Comparisons, shares, *, rng, n_trials: int) -> pd.DataFrame:
    """How reproducible a ranking from less data is: for each share s (at most 0.5), ``n_trials`` times two
    disjoint random subsets, each keeping every judgment with probability s, and the Spearman correlation between
    their BT rankings (mean and 2.5% percentile), with the mean rank displacement between them; trials where a
    subset has no finite BT estimate (:func:`_fit`) are left out and counted."""
    gen = np.random.default_rng(rng)
    rows = []
    ones = np.ones((n_trials, len(j)))
    for s in shares:
        s = float(s)
        if not 0 < s <= 0.5:
            raise ValueError(f"split-half shares must be in (0, 0.5], got {s}")
        u = gen.random(ones.shape)
        first = comparisons.win_matrices(j, "half", (u < s) * ones)
        second = comparisons.win_matrices(j, "half", (u >= 1 - s) * ones)
        a, b = _fit(first), _fit(second)
        fitted = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
        rho = np.array([spearman_rows(x[None], y)[0] for x, y in zip(a[fitted], b[fitted])])
        displacement = np.array([rank_displacement(x[None], y)[0] for x, y in zip(a[fitted], b[fitted])])
        rows.append({"share": s, "judgments": s * len(j),
                     "spearman_mean": float(rho.mean()) if fitted.any() else np.nan,
                     "spearman_low": float(np.percentile(rho, 2.5)) if fitted.any() else np.nan,
                     "rank_displacement": float(displacement.mean()) if fitted.any() else np.nan,
                     "left_out": float((~fitted).mean())})
    return pd.DataFrame(rows)
