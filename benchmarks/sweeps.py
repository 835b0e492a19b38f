"""Bradley-Terry on 1,000 sampled match sets (Levtsov & Ustalov 2025's interval and sweep unit): the stacked MM fit
(``analysis.sweeps.bradley_terry_trials``: all trials' win matrices drawn at once, one vectorised iteration) against
a loop of evalica fits, one per trial, each fed that trial's matches as the paper's code would. Shapes: CEval's 6
models (129 matches per pair) and SST-5's 8 (199). Same strengths to evalica's tolerance (checked here; the tests
check the fit itself to 1e-6). Also llmfao's shape (59 models, 8,931 judgments): 200 per-pair bootstrap resamples
(``sweeps.pair_bootstrap_weights`` + ``comparisons.win_matrices`` + the stacked fit) against evalica fed each resample's
judgments. Printed as ratios; run ``python -m benchmarks.sweeps``. Nothing is asserted about time.
"""

from __future__ import annotations

import evalica
import numpy as np
import pandas as pd

from analysis import bt, comparisons, sweeps
from analysis.comparisons import Comparisons
from benchmarks.run import best_time

CODES = np.array([evalica.Winner.Y, evalica.Winner.Draw, evalica.Winner.X], dtype=object)


def evalica_loop(m: Comparisons, seed: int, n_trials: int) -> np.ndarray:
    """One evalica fit per trial on ``sample_size`` matches per pair drawn with replacement."""
    rng = np.random.default_rng(seed)
    k = len(m.systems)
    size = sweeps.sample_size(k, m.n_units)
    names = np.array(m.systems, dtype=object)
    n_pairs = k * (k - 1) // 2
    pairs = np.column_stack([m.left[:n_pairs], m.right[:n_pairs]])
    outcome = m.outcome.reshape(m.n_units, n_pairs)
    xs = list(np.repeat(names[pairs[:, 0]], size))
    ys = list(np.repeat(names[pairs[:, 1]], size))
    out = np.empty((n_trials, k))
    for t in range(n_trials):
        idx = rng.integers(0, m.n_units, size=(n_pairs, size))
        drawn = outcome[idx, np.arange(n_pairs)[:, None]].ravel()
        result = evalica.bradley_terry(xs, ys, list(CODES[drawn + 1]), tie_weight=0.5)
        out[t] = (result.scores / result.scores.sum()).reindex(list(m.systems)).to_numpy()
    return out


def llmfao_shape(n_trials: int = 200) -> None:
    """Synthetic judgments with llmfao's shape: 59 models, 927 compared pairs, 8,931 judgments, 39% ties."""
    rng = np.random.default_rng(0)
    n_models, n_judgments = 59, 8931
    names = [f"model{k:02d}" for k in range(n_models)]
    i, j = np.triu_indices(n_models, 1)
    keep = rng.choice(len(i), 927, replace=False)
    pair = rng.choice(keep, n_judgments)
    skill = rng.normal(0, 1, n_models)
    diff = skill[i[pair]] - skill[j[pair]]
    u = rng.random(n_judgments)
    winner = np.where(u < 0.39, "tie", np.where(rng.random(n_judgments) < 1 / (1 + np.exp(-diff)), "left", "right"))
    judg = comparisons.from_judgments(np.array(names)[i[pair]], np.array(names)[j[pair]], winner)
    code = {"left": evalica.Winner.X, "right": evalica.Winner.Y, "tie": evalica.Winner.Draw}
    left, right = np.array(names)[i[pair]], np.array(names)[j[pair]]
    winners = np.array([code[w] for w in winner], dtype=object)

    def ours():
        weights = sweeps.pair_bootstrap_weights(judg, 1, n_trials)
        return bt.fit(comparisons.win_matrices(judg, "half", weights), tol=1e-12).strengths  # as chapter 05

    def loop():
        # evalica takes the bootstrap counts as weights; run to convergence rather than its default 100 iterations
        weights = sweeps.pair_bootstrap_weights(judg, 1, n_trials)
        out = np.empty((n_trials, n_models))
        xs, ys, ws = list(left), list(right), list(winners)
        for t in range(n_trials):
            result = evalica.bradley_terry(xs, ys, ws, weights=list(weights[t]), tie_weight=0.5, tolerance=1e-10,
                                           limit=10_000)
            out[t] = (result.scores / result.scores.sum()).reindex(list(judg.systems)).to_numpy()
        return out

    a, b = ours(), loop()
    assert np.abs(a - b).max() < 1e-5, np.abs(a - b).max()  # same resamples, same strengths
    t_ours, t_loop = best_time(ours), best_time(loop, repeat=1)
    print(f"llmfao shape (59 models, 8,931 judgments, {n_trials} bootstrap resamples): stacked {t_ours * 1e3:.0f} ms, "
          f"evalica loop {t_loop:.2f} s -> {t_loop / t_ours:.0f}x")


def main() -> None:
    for label, n_models, n_instances in (("CEval shape", 6, 488), ("SST-5 shape", 8, 2210)):
        rng = np.random.default_rng(0)
        quality = pd.DataFrame(rng.integers(0, 5, (n_instances, n_models)) + rng.normal(0, 0.5, n_models).round(1),
                               columns=[f"model{k}" for k in range(n_models)])
        m = sweeps.matches(quality)
        ours = sweeps.bradley_terry_trials(m, 1, 1000)
        theirs = evalica_loop(m, 1, 50)
        # different draws, so compare the spread of the strengths, not trial by trial
        assert np.abs(ours.mean(axis=0) - theirs.mean(axis=0)).max() < 0.01
        t_ours = best_time(lambda: sweeps.bradley_terry_trials(m, 1, 1000))
        t_loop = best_time(lambda: evalica_loop(m, 1, 1000), repeat=1)
        print(f"{label} ({n_models} models, {sweeps.sample_size(n_models, n_instances)} matches per pair, 1,000 "
              f"trials): stacked {t_ours * 1e3:.0f} ms, evalica loop {t_loop:.2f} s -> {t_loop / t_ours:.0f}x")
    llmfao_shape()


if __name__ == "__main__":
    main()
