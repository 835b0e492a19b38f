"""Fig. 6 and Appendix D (Peyrard et al. 2021, §5): how often the paired t-test, Mood's median test, the sign test and
Wilcoxon's test agree on system pairs, on BT-eval's pooled draws (the paper's figure) and on the full test sets."""

from __future__ import annotations

from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ...agreement import agreement_matrix
from ...data import published
from ...pairwise import BATCHED, PAIRED_TESTS, bt_eval_sign_test
from ...validation import check_rng
from .setups import KEYS, PERCENT_ROUNDING, claim_rows, dataset_then_metric, fraction_size, subsample

#: Fig. 6's tests as BT-eval's code runs them: scipy's defaults and :func:`analysis.pairwise.bt_eval_sign_test`.
BT_EVAL_TESTS = dict(PAIRED_TESTS, sign=bt_eval_sign_test)


def significance_agreement(setups, *, rng, max_pairs: int | None = 100, alpha: float = 0.05):
    """Fig. 6 on the full test sets, textbook tests on at most ``max_pairs`` random system pairs per setup."""
    gen = check_rng(rng)
    chosen = []
    for key, matrix in setups:
        pairs = list(combinations(range(matrix.shape[1]), 2))
        if max_pairs is not None and len(pairs) > max_pairs:
            pick = np.sort(gen.choice(len(pairs), size=max_pairs, replace=False))
            pairs = [pairs[i] for i in pick]
        chosen += [(key, matrix, i, j) for i, j in pairs]
    return _tested_pairs(chosen, PAIRED_TESTS, alpha)


def paper_significance_draws(setups, *, n_draws: int, fraction: float, n_pairs: int, rng, alpha: float = 0.05):
    """Fig. 6 as BT-eval's code draws it: ``n_draws`` times a dataset, one of its metrics and ``fraction`` of its test
    instances; every pair of every draw pooled (TAC's 50-58 systems weigh most), ``n_pairs`` of them tested."""
    gen, pick = check_rng(rng), dataset_then_metric(setups)
    drawn = [(key, subsample(matrix, fraction_size(len(matrix), fraction), gen))
             for key, matrix in (pick(gen) for _ in range(n_draws))]  # a draw's pick, then its test set
    pooled = [(key, m, i, j) for key, m in drawn for i, j in combinations(range(m.shape[1]), 2)]
    if n_pairs < len(pooled):
        pooled = [pooled[i] for i in np.sort(gen.choice(len(pooled), size=n_pairs, replace=False))]
    return _tested_pairs(pooled, BT_EVAL_TESTS, alpha)


def _tested_pairs(chosen, tests: dict, alpha: float):
    """(the p-values of ``tests`` per chosen (key, matrix, i, j), the agreement matrix: P(test j significant | test
    i significant), on the diagonal the share test i finds significant)."""
    per_pair = pd.DataFrame([dict(zip(KEYS, key)) | {"system_a": matrix.columns[i], "system_b": matrix.columns[j]}
                             for key, matrix, i, j in chosen])
    pvalues = {name: np.empty(len(chosen)) for name in tests}
    for positions, a, b in _paired_batches(chosen):
        for name, test in tests.items():
            pvalues[name][positions] = BATCHED[test](a, b).pvalue
    per_pair = per_pair.assign(**pvalues)
    return per_pair, agreement_matrix(per_pair[list(tests)] < alpha)


def _paired_batches(chosen, max_values: int = 2_000_000):
    """The chosen pairs by their number of instances, in chunks of at most ``max_values`` scores per side, for
    :data:`analysis.pairwise.BATCHED`: (positions in ``chosen``, the ``i`` systems' scores, the ``j`` systems')."""
    by_length: dict[int, list] = {}
    for position, (_, matrix, i, j) in enumerate(chosen):
        values = matrix.to_numpy()
        by_length.setdefault(len(values), []).append((position, values[:, i], values[:, j]))
    for n, items in by_length.items():
        step = max(1, max_values // max(n, 1))
        for start in range(0, len(items), step):
            positions, a, b = zip(*items[start:start + step])
            yield np.array(positions), np.stack(a), np.stack(b)


def published_fig6() -> pd.DataFrame:
    fig6 = published.item("paired", "fig6")
    return pd.DataFrame(fig6["matrix"], index=fig6["tests"], columns=fig6["tests"])


def plot_fig6(panels: dict[str, pd.DataFrame]) -> plt.Figure:
    """One heat map per {title: agreement matrix}, side by side with one shared row axis."""
    fig, axes = plt.subplots(1, len(panels), figsize=(2.75 * len(panels) + 0.6, 3.3), sharey=True)
    for ax, (title, frame) in zip(np.atleast_1d(axes), panels.items()):
        sns.heatmap(frame.astype(float), annot=True, fmt=".2f", vmin=0, vmax=1, cmap="mako_r", ax=ax, cbar=False,
                    square=True, annot_kws={"fontsize": 10})
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("test j")
        ax.set_ylabel("test i" if ax is np.atleast_1d(axes)[0] else "")
        ax.tick_params(axis="x", rotation=45, labelsize=9)
        ax.tick_params(axis="y", rotation=0, labelsize=9)
        ax.grid(False)
    fig.tight_layout()
    return fig


def fig6_cells(per_pair: pd.DataFrame, matrix: pd.DataFrame, paper: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """Fig. 6 cell by cell: ours, the paper's, the pairs the share is over and ``close``: within the printed rounding
    plus two binomial standard errors of a share of that many pairs whose true value is the paper's."""
    ours = matrix.stack()
    cells = ours.rename_axis(["given", "also"]).rename("ours").reset_index()
    cells["paper"] = [paper.loc[i, j] for i, j in ours.index]
    significant = (per_pair[list(matrix.columns)] < alpha).sum()
    cells["pairs"] = np.where(cells.given == cells.also, len(per_pair), significant[cells.given].to_numpy())
    se = np.sqrt(cells.paper * (1 - cells.paper) / cells.pairs.where(cells.pairs > 0))
    cells["close"] = (cells.ours - cells.paper).abs() <= PERCENT_ROUNDING + 2 * se
    return cells


def fig6_values(cells: pd.DataFrame) -> pd.DataFrame:
    """Claim values from :func:`fig6_cells`: every cell, the diagonal against the shares §5's text prints, the sign
    test and Wilcoxon's above Mood's and the order of the four (App. D)."""
    rows = [("fig6-cell", f"{r.given} → {r.also}" if r.given != r.also else f"{r.given} (diagonal)", r.ours, r.close)
            for r in cells.itertuples()]
    diagonal = cells[cells.given == cells.also].set_index("given")
    text = published.item("paired", "section5_significance")
    for test, share in zip(text["tests"], text["share"]):
        row = diagonal.loc[test]
        se = np.sqrt(share * (1 - share) / row.pairs) if row.pairs else np.nan
        gap = abs(row.ours - share)
        # the paper's share is itself a draw of as many pairs, drawn the same way: the difference of two such shares
        rows += [("appD-text", f"{test} (§5: {share:.0%})", row.ours, bool(gap <= PERCENT_ROUNDING + 2 * se)),
                 ("appD-text-both", f"{test} (§5: {share:.0%})", row.ours,
                  bool(gap <= PERCENT_ROUNDING + 2 * np.sqrt(2) * se))]
    for test in ("sign", "Wilcoxon"):
        if diagonal.loc[test].pairs:
            a, b, n = diagonal.loc[test].ours, diagonal.loc["Mood"].ours, diagonal.loc[test].pairs
            se = np.sqrt((a * (1 - a) + b * (1 - b)) / n)
            rows.append(("appD-more-than-mood", f"{test} minus Mood", float(a - b), bool(a - b > 2 * se)))
        else:
            rows.append(("appD-more-than-mood", f"{test} minus Mood (nothing to test in this run)", np.nan, False))
    diagonal = diagonal.ours
    rows.append(("appD-order", "the t-test finds significance most often", diagonal["t-test"],
                 bool(diagonal.idxmax() == "t-test")))
    rows.append(("appD-order", "Mood's test finds it least often", diagonal["Mood"], bool(diagonal.idxmin() == "Mood")))
    return claim_rows(rows)


def fig6_numbers(cells: pd.DataFrame, full: pd.DataFrame, per_pair: pd.DataFrame, inventory_frame: pd.DataFrame,
                 fraction: float) -> dict:
    """For the page: :func:`fig6_cells` (BT-eval's draws), what those draws tested (``per_pair``: the share of TAC
    pairs, the median instances a pair is compared on) and the matrix on the ``full`` test sets."""
    gap = (cells.ours - cells.paper).abs()
    diag = cells[cells.given == cells.also].set_index("given")
    mood_sign = cells.set_index(["given", "also"]).loc[("Mood", "sign")]
    sizes = inventory_frame.set_index(KEYS).instances.loc[pd.MultiIndex.from_frame(per_pair[KEYS])]
    return {"f6-close": int(cells.close.sum()), "f6-cells": len(cells), "f6-max-gap": float(gap.max()),
            "f6-median-gap": float(gap.median()), "f6-share-tac": float((per_pair.collection == "TAC").mean()),
            "f6-median-instances": float(sizes.map(lambda n: fraction_size(n, fraction)).median()),
            "f6-mood-pairs": int(mood_sign.pairs),
            "f6-mood-sign-pairs": int(round(mood_sign.ours * mood_sign.pairs)) if mood_sign.pairs else 0,
            "f6-paper-mood-sign": float(mood_sign.paper), "f6-full-mood-sign": float(full.loc["Mood", "sign"]),
            # each test's diagonal: how often it finds significance (BT-eval's draws, the paper, full test sets)
            "f6-ours-t-test": float(diag.ours["t-test"]), "f6-paper-t-test": float(diag.paper["t-test"]),
            "f6-full-t-test": float(full.loc["t-test", "t-test"]),
            "f6-ours-mood": float(diag.ours["Mood"]), "f6-paper-mood": float(diag.paper["Mood"]),
            "f6-full-mood": float(full.loc["Mood", "Mood"]),
            "f6-ours-sign": float(diag.ours["sign"]), "f6-paper-sign": float(diag.paper["sign"]),
            "f6-full-sign": float(full.loc["sign", "sign"]),
            "f6-ours-wilcoxon": float(diag.ours["Wilcoxon"]), "f6-paper-wilcoxon": float(diag.paper["Wilcoxon"]),
            "f6-full-wilcoxon": float(full.loc["Wilcoxon", "Wilcoxon"])}
