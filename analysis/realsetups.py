"""The paired paper's analyses of real evaluation setups (Peyrard et al. 2021, §5, Appendices C, D, F, H).

A *setup* is one (collection, dataset, metric) score matrix of the ``paired_setups`` table. This module turns the
table into per-setup disagreement rows (Tables 1, 3, 4; Fig. 4), significance-test agreement (Fig. 6 / App. D) and
the independence-of-irrelevant-alternatives search (App. F). The chapter ``02_real_setups`` shows the results.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

import numpy as np
import pandas as pd

from . import aggregate
from .agreement import compare_aggregators
from .pairwise import PAIRED_TESTS, bootstrap_mean, comparison_counts, win_matrix
from .validation import check_rng

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
#: The task of each collection (Fig. 4b).
TASKS = {
    "TAC": "summarization",
    "CNNDM": "summarization",
    "WMT17": "translation",
    "WMT18": "translation",
    "WMT19": "translation",
    "COCO": "captioning",
    "Dialogue": "dialogue",
}
KEYS = ["collection", "dataset", "metric"]


def aggregators(policy: str, names=MECHANISMS) -> dict:
    """The mechanisms of Tables 1/4 under one tie policy (:func:`analysis.aggregate.mechanisms`)."""
    return aggregate.mechanisms(policy, names)


def iter_setups(table: pd.DataFrame, collections=None) -> Iterator[tuple[tuple[str, str, str], pd.DataFrame]]:
    """Yield ``((collection, dataset, metric), score matrix)`` for every setup, in the table's order, with systems in
    the source's column order (which Elo, TrueSkill and the paper's tie rule depend on)."""
    missing = set(KEYS + ["instance", "system", "score"]) - set(table.columns)
    if missing:
        raise ValueError(f"the table lacks columns {sorted(missing)}; expected the paired_setups schema")
    if collections is not None:
        table = table[table["collection"].isin(list(collections))]
    for key, group in table.groupby(KEYS, sort=False, observed=True):
        systems = pd.unique(group["system"])
        matrix = group.pivot(index="instance", columns="system", values="score")[systems]
        if matrix.isna().any().any():
            raise ValueError(f"setup {key} is not a complete score matrix (some system lacks some instance)")
        yield key, matrix.rename_axis(index=None, columns=None)


def subsample(matrix: pd.DataFrame, size: int, rng) -> pd.DataFrame:
    """``size`` test instances drawn without replacement, kept in their original order."""
    gen = check_rng(rng)
    if not 1 <= size <= len(matrix):
        raise ValueError(f"cannot draw {size} of {len(matrix)} test instances")
    rows = np.sort(gen.choice(len(matrix), size=size, replace=False))
    return matrix.iloc[rows].reset_index(drop=True)


def disagreement_rows(setups, policy: str, names=MECHANISMS) -> pd.DataFrame:
    """One row per setup: the keys, ``n_instances``, ``n_systems`` and ``a_b_disagree/top1/top3`` for every pair of
    mechanisms in ``names`` order (:func:`analysis.agreement.compare_aggregators`)."""
    fns = aggregators(policy, names)
    rows = []
    for key, matrix in setups:
        row = compare_aggregators(matrix, fns, k=3)
        rows.append(pd.concat([pd.Series(dict(zip(KEYS, key))), row]))
    frame = pd.DataFrame(rows)
    return frame.astype({"n_instances": int, "n_systems": int})


def mechanism_pairs(names=MECHANISMS) -> list[str]:
    return [f"{a}_{b}" for a, b in combinations(names, 2)]


def summarise(per_setup: pd.DataFrame, pairs, *, rng, n_resamples: int = 1000) -> pd.DataFrame:
    """Table 1/4: mean over setups (unweighted) of each measure with a 95% bootstrap interval over setups.

    Setups where ``disagree`` is undefined (a constant aggregate) are left out of that column's mean only."""
    gen = check_rng(rng)
    rows = []
    for pair in pairs:
        row = {"pair": pair}
        for measure in ("disagree", "top1", "top3"):
            values = per_setup[f"{pair}_{measure}"].dropna()
            row[measure], row[f"{measure}_low"], row[f"{measure}_high"] = bootstrap_mean(
                values, rng=gen, n_resamples=n_resamples
            )
        rows.append(row)
    return pd.DataFrame(rows).set_index("pair")


def significance_agreement(setups, *, rng, max_pairs: int | None = 100, alpha: float = 0.05):
    """Fig. 6 / App. D: p-values of the four tests for system pairs of every setup.

    Returns (per_pair, matrix): ``per_pair`` has one row per (setup, system pair) with a p-value column per test;
    ``matrix.loc[i, j]`` = P(test j significant | test i significant), the diagonal the share significant for test i.
    At most ``max_pairs`` random system pairs per setup (None: all).
    """
    gen = check_rng(rng)
    tests = list(PAIRED_TESTS)
    rows = []
    for key, matrix in setups:
        values = matrix.to_numpy()
        pairs = list(combinations(range(values.shape[1]), 2))
        if max_pairs is not None and len(pairs) > max_pairs:
            pick = np.sort(gen.choice(len(pairs), size=max_pairs, replace=False))
            pairs = [pairs[i] for i in pick]
        for i, j in pairs:
            row = dict(zip(KEYS, key)) | {"system_a": matrix.columns[i], "system_b": matrix.columns[j]}
            for name in tests:
                row[name] = PAIRED_TESTS[name](values[:, i], values[:, j]).pvalue
            rows.append(row)
    per_pair = pd.DataFrame(rows)
    return per_pair, agreement_matrix(per_pair[tests] < alpha)


def agreement_matrix(significant: pd.DataFrame) -> pd.DataFrame:
    """``[i, j]`` = share of rows where column j is True among rows where column i is True; diagonal = share True."""
    sig = significant.astype(bool)
    out = pd.DataFrame(index=sig.columns, columns=sig.columns, dtype=float)
    for i in sig.columns:
        given = sig[sig[i]]
        for j in sig.columns:
            out.loc[i, j] = sig[i].mean() if i == j else (given[j].mean() if len(given) else np.nan)
    return out


COLUMNS_IIA = ["a", "b", "c", "alone", "with_c", "kind", "winner_share"]


def iia_violations(matrix: pd.DataFrame, ties: str = "half") -> pd.DataFrame:
    """App. F: triples (a, b, c) where BT orders a and b one way alone and differently once c is added.

    Every pair of systems is compared on the same instances, so each pair plays the same number of games (with
    ``ties="half"`` or ``"loss"``). In such a balanced design the BT likelihood equations read
    W_i = n * sum_j lambda_i / (lambda_i + lambda_j), which increases with lambda_i: BT orders systems exactly by
    their total wins W_i. Hence, exactly and without fitting: alone, a beats b iff w_ab > w_ba; with c, iff
    w_ab + w_ac > w_ba + w_bc. (The tests check this against full Bradley-Terry fits of every triple.)

    Returns one row per violation: a, b = the pair, c = the third system, the decision alone and with c, its
    ``kind``: "reversed" (the order flips) or "tied" (a strict order becomes a tie, as in the paper's example), and
    ``winner_share``: the share of the pair's comparisons won by the pair's winner when alone. Pairs that tie when
    alone are not counted.
    """
    if ties not in ("half", "loss"):
        raise ValueError(f"ties must be 'half' or 'loss' (a balanced design), got {ties!r}")
    strict, tied = comparison_counts(matrix.to_numpy(dtype=float))
    wins = win_matrix(strict, tied, ties)
    n = wins.shape[0]
    head = wins - wins.T  # d[a, b] = w_ab - w_ba
    # with c: d[a, b] + (w_ac - w_bc), for every (a, b, c)
    with_c = head[:, :, None] + (wins[:, None, :] - wins[None, :, :])
    a, b, c = np.nonzero(
        (np.sign(head)[:, :, None] != np.sign(with_c))
        & (np.arange(n)[:, None, None] < np.arange(n)[None, :, None])  # each unordered pair once
        & (head[:, :, None] != 0)
        & (np.arange(n)[None, None, :] != np.arange(n)[:, None, None])
        & (np.arange(n)[None, None, :] != np.arange(n)[None, :, None])
    )
    names = np.asarray(matrix.columns)
    alone = np.sign(head[a, b])
    together = np.sign(with_c[a, b, c])
    games = wins[a, b] + wins[b, a]
    return pd.DataFrame({
        "a": names[a], "b": names[b], "c": names[c],
        "alone": np.where(alone > 0, "a", "b"),
        "with_c": np.select([together > 0, together < 0], ["a", "b"], "tie"),
        "kind": np.where(together == 0, "tied", "reversed"),
        "winner_share": np.maximum(wins[a, b], wins[b, a]) / games,
    }, columns=COLUMNS_IIA)
