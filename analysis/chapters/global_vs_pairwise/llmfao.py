"""Beyond the paper (Levtsov & Ustalov 2025 never use it): Fig. 1's ties and Fig. 2's stability on llmfao's real
pairwise judgments of LLMs. llmfao is not instance-aligned: a pair is judged 0 to 60 times, so the paper's 12·m·ln m
per pair always falls back to "all available" and resampling a pair cannot add information. So (ties as half wins):
Fig. 1 compares BT on one random half, its judgments tied with probability p, with BT on the other half (a reference
on every judgment would contain the trial's own); stability by a per-pair bootstrap and by two disjoint parts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, sweeps
from ...agreement import spearman_rows, spearman_summary
from ...comparisons import Comparisons

#: tighter than the sweeps default: 59 strengths near 1/59 each, and rank statistics need them settled
TOL = 1e-12


def sampling_rule(j: Comparisons) -> dict:
    """What the paper's rule (12·m·ln m per pair) asks of llmfao and what it has, under the keys the page pastes."""
    m, counts = len(j.systems), j.pair_counts()
    required, pairs = int(sweeps.MULTIPLIER * m * math.log(m)), m * (m - 1) // 2
    return {"llmfao_models": m, "llmfao_judgments": len(j), "llmfao_tie_share": j.tie_share(), "llmfao_pairs": pairs,
            "llmfao_pairs_compared": len(counts), "llmfao_median_per_pair": float(counts.median()),
            "llmfao_max_per_pair": int(counts.max()), "llmfao_required_per_pair": required,
            "llmfao_required_total": required * pairs, "llmfao_pairs_with_enough": int((counts >= required).sum())}


def _fit(wins: np.ndarray) -> np.ndarray:
    """BT on each trial of the stack; NaN rows where it has no finite estimate."""
    out = np.full(wins.shape[:2], np.nan)
    ok = bt.finite(wins)
    if ok.any():
        out[ok] = bt.fit(wins[ok], tol=TOL).strengths
    return out


def paired_spearman(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row of ``a`` with the same row of ``b``; NaN where either is NaN or constant."""
    a, b = np.atleast_2d(np.asarray(a, float)), np.atleast_2d(np.asarray(b, float))
    bad = (np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1) | (np.nan_to_num(np.ptp(a, axis=1)) < 1e-12)
           | (np.nan_to_num(np.ptp(b, axis=1)) < 1e-12))
    ra, rb = (stats.rankdata(np.nan_to_num(x), axis=1) for x in (a, b))
    ra, rb = ra - ra.mean(axis=1, keepdims=True), rb - rb.mean(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = (ra * rb).sum(axis=1) / np.sqrt((ra**2).sum(axis=1) * (rb**2).sum(axis=1))
    return np.where(bad, np.nan, rho)


def _two_parts(j: Comparisons, gen, share: float, n_trials: int, tie_probability=None):
    """BT per trial on two disjoint random parts of the judgments, each holding one with probability ``share``, the
    second's judgments ties with ``tie_probability``; and the second part and its tie mask."""
    if not 0 < float(share) <= 0.5:
        raise ValueError(f"the share of each part must be in (0, 0.5], got {share}")
    u = gen.random((n_trials, len(j)))
    second = u >= 1 - share
    mask = None if tie_probability is None else gen.random(u.shape) < float(tie_probability)
    return (_fit(comparisons.win_matrices(j, "half", (u < share).astype(float))),
            _fit(comparisons.win_matrices(j, "half", second.astype(float), mask)), second, mask)


def tie_sweep(j: Comparisons, probabilities, *, rng, n_trials: int) -> pd.DataFrame:
    """Fig. 1 on llmfao: per tie probability p, BT on one random half (the reference) against BT on the other, each
    judgment a tie with probability p; with that half's share of ties and the share of trials without a finite BT."""
    gen, own = np.random.default_rng(rng), (j.outcome == 0)[None, :]
    rows = []
    for p in probabilities:
        reference, trial, part, mask = _two_parts(j, gen, 0.5, n_trials, p)
        rho = paired_spearman(trial, reference)
        rows.append({"tie_probability": float(p), "tie_share": float(((mask | own) & part).sum() / part.sum()),
                     **spearman_summary(rho), "left_out": float(np.isnan(rho).mean())})
    return pd.DataFrame(rows)


def bootstrap_ranks(j: Comparisons, *, rng, n_trials: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Each pair's judgments resampled: per model its BT and rank on every judgment and the 2.5-97.5% range of its
    resampled rank; and each trial's correlation with the reference."""
    ref = bt.fit(comparisons.win_matrix(j), tol=TOL, systems=j.systems).strengths[0]
    strengths = _fit(comparisons.win_matrices(j, "half", sweeps.pair_bootstrap_weights(j, rng, n_trials)))
    ranks = np.where(np.isnan(strengths), np.nan, stats.rankdata(-strengths, axis=1))
    table = pd.DataFrame({"bt": ref, "rank": stats.rankdata(-ref),
                          "rank_low": np.nanpercentile(ranks, 2.5, axis=0, method="lower"),
                          "rank_high": np.nanpercentile(ranks, 97.5, axis=0, method="higher")},
                         index=pd.Index(list(j.systems), name="model")).sort_values("rank")
    return table, spearman_rows(strengths, ref)


def split_half_curve(j: Comparisons, shares, *, rng, n_trials: int) -> pd.DataFrame:
    """Per share s (at most 0.5), pairs of disjoint random subsets each keeping a judgment with probability s:
    the correlation of their BT rankings, the mean rank displacement between them, the share without a finite BT."""
    gen = np.random.default_rng(rng)
    rows = []
    for s in shares:
        a, b, _, _ = _two_parts(j, gen, s, n_trials)
        fitted = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
        a, b = a[fitted], b[fitted]
        rho = paired_spearman(a, b)
        displacement = np.abs(stats.rankdata(-a, axis=1) - stats.rankdata(-b, axis=1)).mean(axis=1)
        rows.append({"share": float(s), "judgments": float(s) * len(j),
                     "spearman_mean": float(rho.mean()) if fitted.any() else np.nan,
                     "spearman_low": float(np.percentile(rho, 2.5)) if fitted.any() else np.nan,
                     "rank_displacement": float(displacement.mean()) if fitted.any() else np.nan,
                     "left_out": float((~fitted).mean())})
    return pd.DataFrame(rows)


def llmfao_facts(sweep: pd.DataFrame, ranks: pd.DataFrame, rho_boot: np.ndarray, curve: pd.DataFrame) -> dict:
    """For the page, under the keys it pastes: the tie sweep's start, the bootstrap's spread, the split halves at the
    least and most shares."""
    width = ranks["rank_high"] - ranks["rank_low"]
    small, half = curve.iloc[0], curve.iloc[-1]
    return {"llmfao_start": float(sweep["spearman_mean"].dropna().iloc[0]),
            "llmfao_boot_rho": float(np.nanmean(rho_boot)), "llmfao_width_median": float(width.median()),
            "llmfao_width_max": float(width.max()),
            "llmfao_small_share": small["share"], "llmfao_small_judgments": small["judgments"],
            "llmfao_small_rho": small["spearman_mean"],
            "llmfao_half_judgments": half["judgments"], "llmfao_half_rho": half["spearman_mean"],
            "llmfao_half_low": half["spearman_low"], "llmfao_half_moves": half["rank_displacement"]}
