"""Chapter 02's computations per paper item: disagreement per setup and its summaries (Tables 1, 3, 4), on
sub-sampled test sets (Fig. 4), BT's probability matrix (Fig. 5), significance-test agreement (Fig. 6 / App. D),
the independence-of-irrelevant-alternatives search (App. F) and the top-k results' dependence on cutting ties."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from ... import aggregate
from ...agreement import (
    agreement_matrix,
    compare_aggregators,
    compare_rankings,
    iia_violations,
    measure_column,
    mechanism_pairs,
    pair_label,
    pair_name,
    top_k_differs,
)
from ...pairwise import BATCHED, PAIRED_TESTS, bootstrap_summary, bt_eval_sign_test, sign_test_pvalues
from ...validation import check_rng
from .setups import KEYS, MEASURES, MECHANISMS, PAPER, TABLE1_PAIRS, TASKS, subsample

# -- Tables 1, 3, 4 -------------------------------------------------------------------------------------------------

def disagreement_rows(setups, policy: str, names=MECHANISMS) -> pd.DataFrame:
    """One row per setup: its keys, :func:`analysis.agreement.compare_aggregators`' row for the mechanisms ``names``
    and ``bt_degenerate`` (BT had no finite fit)."""
    fns = aggregate.mechanisms(policy, names)
    rows = []
    for key, matrix in setups:
        row = compare_aggregators(matrix, fns, k=3)
        degenerate = bool(row.attrs["aggregates"].results["bt"].attrs["fit"].degenerate.any())
        rows.append(pd.concat([pd.Series(dict(zip(KEYS, key))), row, pd.Series({"bt_degenerate": degenerate})]))
    return pd.DataFrame(rows).astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})


def summarise(per_setup: pd.DataFrame, pairs, *, rng, n_resamples: int = 1000) -> pd.DataFrame:
    """Table 1/4: mean over setups (unweighted) of each measure with a 95% bootstrap interval over setups, one row
    per pair (labelled ``a_b``). Setups where ``disagree`` is undefined (a constant aggregate) are left out of that
    column's mean only; a measure undefined everywhere is NaN."""
    columns = [measure_column(pair, m) for pair in pairs for m in MEASURES]
    s = bootstrap_summary(per_setup, columns, rng=rng, n_resamples=n_resamples).set_index("column").reindex(columns)
    return pd.DataFrame({f"{m}{end}": [s.loc[measure_column(p, m), stat] for p in pairs] for m in MEASURES
                         for end, stat in (("", "estimate"), ("_low", "low"), ("_high", "high"))},
                        index=pd.Index([pair_name(p) for p in pairs], name="pair"))


# -- Table 3 --------------------------------------------------------------------------------------------------------

def fraction_subsamples(setups, fraction: float, n_draws: int, rng) -> pd.DataFrame:
    """Table 3's draws: ``n_draws`` test sets of a ``fraction`` of the instances of every setup (as BT-eval's
    pandas ``sample(frac=...)``), one row per draw, as :func:`subsampled_disagreement`."""
    gen = check_rng(rng)
    drawn = []
    for key, matrix in setups:
        size = _fraction_size(len(matrix), fraction)
        drawn += [(key, size, draw, subsample(matrix, size, gen)) for draw in range(n_draws)]
    return _compare_draws(drawn)


def _fraction_size(n: int, fraction: float) -> int:
    """The number of test instances pandas' ``sample(frac=fraction)`` draws (BT-eval's sub-samples), at least 2."""
    return max(2, round(fraction * n))


def per_setup_draw_means(draws: pd.DataFrame) -> pd.DataFrame:
    """The mean of every measure over each setup's draws (NaN skipped), one row per setup, with ``draws``; its
    ``bt_degenerate`` is the share of draws where BT had no finite fit."""
    measures = [c for c in draws.columns if c.endswith(tuple(MEASURES)) and c != "n_instances"]
    grouped = draws.groupby(KEYS, sort=False, observed=True)
    means = grouped[measures + ["bt_degenerate"]].mean()
    return means.assign(draws=grouped.size(), n_instances=grouped["n_instances"].first(),
                        n_systems=grouped["n_systems"].first()).reset_index()


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def subsampled_disagreement(setups, sizes, n_subsamples: int, rng) -> pd.DataFrame:
    """Fig. 4's data: ``n_subsamples`` test sets of each of ``sizes`` drawn from every setup large enough (once when
    the size is the whole setup), one row per draw (:func:`_compare_draws`)."""
    gen = check_rng(rng)
    drawn = []
    for key, matrix in setups:
        for size in sizes:
            if size > len(matrix):
                continue
            for draw in range(1 if size == len(matrix) else n_subsamples):
                drawn.append((key, size, draw, subsample(matrix, size, gen)))
    return _compare_draws(drawn)


def _compare_draws(drawn) -> pd.DataFrame:
    """MEAN, MEDIAN and BT (the paper's tie handling) compared on each drawn ``(key, size, draw, matrix)``: one row
    per draw, as :func:`disagreement_rows` gives it, with the setup's keys, ``size``, ``draw`` and ``task``. The
    draws of one setup and size share their systems, so they are aggregated together (BT as one batched fit)."""
    if not drawn:
        return pd.DataFrame()
    meta = pd.DataFrame([(*key, size, draw) for key, size, draw, _ in drawn], columns=[*KEYS, "size", "draw"])
    parts = []
    for positions in meta.groupby([*KEYS, "size"], sort=False).indices.values():
        matrices = [drawn[p][3] for p in positions]
        # each matrix's own array (its memory layout decides the bits of its mean, as in aggregate.mean)
        values = [m.to_numpy(dtype=np.float64, na_value=np.nan) for m in matrices]
        stack = np.stack(values)
        fit = aggregate.bradley_terry_stack(stack, matrices[0].columns, ties="loss")
        measures = compare_rankings({"mean": np.stack([v.mean(axis=0) for v in values]),
                                     "median": np.stack([np.median(v, axis=0) for v in values]),
                                     "bt": fit.strengths}, k=3)
        parts.append(pd.DataFrame({"n_instances": stack.shape[1], "n_systems": stack.shape[2], **measures,
                                   "bt_degenerate": fit.degenerate}, index=positions))
    frame = pd.concat(parts).sort_index().astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})
    return frame.join(meta).assign(task=lambda f: f.collection.map(TASKS))


def paper_size_draws(setups, sizes, n_draws: int, rng) -> pd.DataFrame:
    """Fig. 4(c) as BT-eval's code draws it (``impact_data_size``): for each size, ``n_draws`` times a dataset and
    one of its metrics (:func:`_dataset_then_metric`) and ``min(size, instances)`` test instances."""
    gen = check_rng(rng)
    pick = _dataset_then_metric(setups)
    drawn = []
    for size in sizes:
        for draw in range(n_draws):
            key, matrix = pick(gen)
            drawn.append((key, size, draw, subsample(matrix, min(size, len(matrix)), gen)))
    return _compare_draws(drawn)


def fig4_summaries(fig4: pd.DataFrame, *, rng, n_resamples: int) -> dict[str, pd.DataFrame]:
    """Mean disagreement with a 95% bootstrap interval per metric, task and size, for each of Table 1's pairs."""
    gen = check_rng(rng)
    columns = {measure_column(p, "disagree"): pair_name(p) for p in TABLE1_PAIRS}
    out = {}
    for by in ("metric", "task", "size"):
        s = bootstrap_summary(fig4, list(columns), by=by, rng=gen, n_resamples=n_resamples)
        out[by] = pd.DataFrame({by: s[by], "pair": s["column"].map(columns), "disagree": s["estimate"],
                                "low": s["low"], "high": s["high"], "n": s["n"]})
    return out


def metric_ranks(fig4: pd.DataFrame, collections=("TAC", "Dialogue")) -> pd.DataFrame:
    """Fig. 4(a) on the collections where every metric was computed (TAC and dialogue have all 13), so that metrics
    are compared on the same data: mean disagreement per metric and pair, and its rank (1 = most affected)."""
    part = fig4[fig4.collection.isin(list(collections))]
    means = part.groupby("metric")[[measure_column(p, "disagree") for p in TABLE1_PAIRS]].mean()
    means.columns = [pair_name(p) for p in TABLE1_PAIRS]
    ranks = means.rank(ascending=False, method="min").astype(int).add_suffix(" rank")
    return means.join(ranks)


# -- Fig. 5 ---------------------------------------------------------------------------------------------------------

def bt_probability_matrix(matrix: pd.DataFrame, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fig. 5: P(row beats column) as BT models it, lambda_row / (lambda_row + lambda_column) (``ties="half"``),
    systems sorted by strength, diagonal empty; and "*" marks where the sign test rejects P = 1/2 at ``alpha``."""
    strength = aggregate.bradley_terry(matrix, ties="half")
    order = strength.sort_values(ascending=False).index
    prob = pd.DataFrame({b: strength[order] / (strength[order] + strength[b]) for b in order}, index=order)
    x = matrix[order].to_numpy(dtype=float)
    strict = (x[:, :, None] > x[:, None, :]).sum(axis=0)  # the diagonal's p-value is 1: never marked
    marks = pd.DataFrame(np.where(sign_test_pvalues(strict, strict.T) < alpha, "*", ""), index=order, columns=order)
    return prob.mask(np.eye(len(order), dtype=bool)), marks


# -- Fig. 6 / Appendix D --------------------------------------------------------------------------------------------

def significance_agreement(setups, *, rng, max_pairs: int | None = 100, alpha: float = 0.05):
    """Fig. 6 / App. D on the full test sets: :func:`_tested_pairs` with :data:`analysis.pairwise.PAIRED_TESTS` on
    at most ``max_pairs`` random system pairs per setup (None: all)."""
    gen = check_rng(rng)
    chosen = []
    for key, matrix in setups:
        pairs = list(combinations(range(matrix.shape[1]), 2))
        if max_pairs is not None and len(pairs) > max_pairs:
            pick = np.sort(gen.choice(len(pairs), size=max_pairs, replace=False))
            pairs = [pairs[i] for i in pick]
        chosen += [(key, matrix, i, j) for i, j in pairs]
    return _tested_pairs(chosen, PAIRED_TESTS, alpha)


def _tested_pairs(chosen, tests: dict, alpha: float):
    """(per_pair, matrix): the p-values of ``tests`` on every chosen (key, matrix, i, j), one row per pair, tested
    in batches of equal length (:data:`analysis.pairwise.BATCHED`); ``matrix.loc[i, j]`` = P(test j significant |
    test i significant), the diagonal the share test i finds significant."""
    per_pair = pd.DataFrame([dict(zip(KEYS, key)) | {"system_a": matrix.columns[i], "system_b": matrix.columns[j]}
                             for key, matrix, i, j in chosen])
    pvalues = {name: np.empty(len(chosen)) for name in tests}
    for positions, a, b in _paired_batches(chosen):
        for name, test in tests.items():
            pvalues[name][positions] = BATCHED[test](a, b).pvalue
    per_pair = per_pair.assign(**pvalues)
    return per_pair, agreement_matrix(per_pair[list(tests)] < alpha)


def _paired_batches(chosen, max_values: int = 2_000_000):
    """The chosen pairs by their number of instances, in chunks of at most ``max_values`` scores per side:
    (positions in ``chosen``, the ``i`` systems' scores, the ``j`` systems'), one row per pair."""
    by_length: dict[int, list] = {}
    for position, (_, matrix, i, j) in enumerate(chosen):
        values = matrix.to_numpy()
        by_length.setdefault(len(values), []).append((position, values[:, i], values[:, j]))
    for n, items in by_length.items():
        step = max(1, max_values // max(n, 1))
        for start in range(0, len(items), step):
            part = items[start:start + step]
            yield (np.array([position for position, _, _ in part]), np.stack([a for _, a, _ in part]),
                   np.stack([b for _, _, b in part]))


def _dataset_then_metric(setups):
    """A function ``pick(gen)`` that draws a setup as BT-eval's notebook does: a dataset uniformly, then one of its
    metrics uniformly."""
    by_dataset: dict[tuple, list] = {}
    for key, matrix in setups:
        by_dataset.setdefault(key[:2], []).append((key, matrix))
    groups = list(by_dataset.values())

    def pick(gen):
        candidates = groups[gen.integers(len(groups))]
        return candidates[gen.integers(len(candidates))]
    return pick


#: Fig. 6's tests as BT-eval's code runs them: scipy's defaults and :func:`bt_eval_sign_test`.
BT_EVAL_TESTS = dict(PAIRED_TESTS, sign=bt_eval_sign_test)


def paper_significance_draws(setups, *, n_draws: int, fraction: float, n_pairs: int, rng, alpha: float = 0.05):
    """Fig. 6 as BT-eval's code draws it: ``n_draws`` times a dataset, one of its metrics and ``fraction`` of its
    test instances; every system pair of every draw pooled (datasets with many systems, TAC's 50-58, weigh most),
    and ``n_pairs`` of them tested with :data:`BT_EVAL_TESTS`, drawn uniformly (an unbiased estimate, cheaper)."""
    gen = check_rng(rng)
    pick = _dataset_then_metric(setups)
    pooled = []
    for _ in range(n_draws):
        key, matrix = pick(gen)
        drawn = subsample(matrix, _fraction_size(len(matrix), fraction), gen)
        pooled += [(key, drawn, i, j) for i, j in combinations(range(drawn.shape[1]), 2)]
    if n_pairs < len(pooled):
        pooled = [pooled[i] for i in np.sort(gen.choice(len(pooled), size=n_pairs, replace=False))]
    return _tested_pairs(pooled, BT_EVAL_TESTS, alpha)


def pooled_pairs_profile(per_pair: pd.DataFrame, inventory_frame: pd.DataFrame, fraction: float) -> pd.Series:
    """What :func:`paper_significance_draws` tested: the share of its pairs from TAC and the median number of
    instances a pair is compared on (each draw has :func:`_fraction_size` of its setup's instances)."""
    sizes = inventory_frame.set_index(KEYS).instances.loc[pd.MultiIndex.from_frame(per_pair[KEYS])]
    return pd.Series({"share TAC": (per_pair.collection == "TAC").mean(),
                      "median instances": np.maximum(2, np.round(fraction * sizes)).median()})


# -- Appendix F -----------------------------------------------------------------------------------------------------

def iia_search(setups, sizes, rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. F on every setup, in full and on one sub-sample per size in ``sizes`` (when smaller than the setup):
    (per setup and size: triples, reversed and tied counts; every violation found on the full setups)."""
    gen = check_rng(rng)
    rows, found_full = [], []
    for key, matrix in setups:
        variants = [("full", matrix)] + [(s, subsample(matrix, s, gen)) for s in sizes if s < len(matrix)]
        for size, m in variants:
            found = iia_violations(m)
            n = m.shape[1]
            rows.append(dict(zip(KEYS, key)) | {
                "size": size, "n_instances": len(m), "triples": n * (n - 1) * (n - 2) // 6,
                "reversed": int((found.kind == "reversed").sum()), "tied": int((found.kind == "tied").sum())})
            if size == "full" and len(found):
                found_full.append(found.assign(**dict(zip(KEYS, key))))
    examples = pd.concat(found_full, ignore_index=True) if found_full else pd.DataFrame()
    return pd.DataFrame(rows), examples


def iia_by_size(iia: pd.DataFrame) -> pd.DataFrame:
    """Violations summed per test-set size, with the share of (pair, third system) combinations reversed."""
    size = iia["size"].astype(str)
    table = iia.assign(size=size).groupby("size", sort=False)[["triples", "reversed", "tied"]].sum()
    table["setups"] = iia.groupby(size, sort=False).size()
    table["share reversed"] = table.reversed / (3 * table.triples)
    return table


def iia_full_reversals(setups, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. F on each setup's full test set, reversals only (ties as half wins, as :func:`iia_search`). Per setup:
    its (pair, third system) combinations, those ``reversed``, and of these how many have a pair the sign test
    separates at ``alpha`` (``significant``), that includes the best system (``best``: the most total wins) or
    either. And every reversal, with its triple's six win counts (``w_ab`` = instances a beats b, a tie half to
    each) and the sign test's p-value for its pair."""
    rows, found = [], []
    for key, matrix in setups:
        x = matrix.to_numpy(dtype=float)
        strict = (x[:, :, None] > x[:, None, :]).sum(axis=0)
        wins = strict + 0.5 * (len(x) - strict - strict.T)
        np.fill_diagonal(wins, 0)
        n = x.shape[1]
        rev = iia_violations(matrix)
        rev = rev[rev.kind == "reversed"]
        a, b, c = (matrix.columns.get_indexer(rev[k]) for k in ("a", "b", "c"))
        p = sign_test_pvalues(strict[a, b], strict[b, a])
        totals = wins.sum(axis=1)
        best = np.flatnonzero(totals == totals.max())
        on_best = np.isin(a, best) | np.isin(b, best)
        rows.append(dict(zip(KEYS, key)) | {
            "n_instances": len(x), "n_systems": n, "combinations": n * (n - 1) * (n - 2) // 2,
            "reversed": len(rev), "significant": int((p < alpha).sum()), "best": int(on_best.sum()),
            "either": int(((p < alpha) | on_best).sum())})
        if len(rev):
            found.append(rev.assign(**dict(zip(KEYS, key)), n_instances=len(x), w_ab=wins[a, b], w_ba=wins[b, a],
                                    w_ac=wins[a, c], w_ca=wins[c, a], w_bc=wins[b, c], w_cb=wins[c, b],
                                    sign_p=p, on_best=on_best))
    per_setup = pd.DataFrame(rows)
    per_setup["share reversed"] = per_setup.reversed / per_setup.combinations.where(per_setup.combinations > 0)
    return per_setup, pd.concat(found, ignore_index=True) if found else pd.DataFrame()


def iia_worked_triple(reversals: pd.DataFrame, min_instances: int = 10) -> pd.DataFrame:
    """One reversal of :func:`iia_full_reversals` to show with its win counts: among the test sets of more than
    ``min_instances`` instances, the one whose pair's winner wins the largest share of their comparisons when alone
    (the clearest order a third system reverses; the first found on a tie). Empty when there is none."""
    big = reversals[reversals.n_instances > min_instances] if len(reversals) else reversals
    if big.empty:
        return pd.DataFrame()
    return big.loc[[big.winner_share.idxmax()]].reset_index(drop=True)


# -- how much the top-k results depend on cutting ties --------------------------------------------------------------

def tie_break_sensitivity(setups) -> pd.DataFrame:
    """How often a ≠ SotA / ≠ Top-3 result of MEAN, MEDIAN and BT (the paper's tie handling) depends on how ties at
    the top-k boundary are cut: per setup and pair, whether ``top_k_differs`` changes between cutting ties by the
    earlier and by the later column."""
    fns = aggregate.mechanisms("loss", PAPER)
    rows = []
    for key, matrix in setups:
        results = {name: np.asarray(fn(matrix), dtype=float) for name, fn in fns.items()}
        k3 = min(3, matrix.shape[1])
        row = dict(zip(KEYS, key))
        for pair in mechanism_pairs(PAPER):
            x, y = results[pair[0]], results[pair[1]]
            for measure, k in (("top1", 1), ("top3", k3)):
                row[measure_column(pair, measure)] = (top_k_differs(x, y, k, "first")
                                                      != top_k_differs(x, y, k, "last"))
        rows.append(row)
    return pd.DataFrame(rows)


def tie_break_counts(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per pair: the number of setups whose ≠ SotA and ≠ Top-3 result depends on the tie cut, out of all setups."""
    return pd.DataFrame({MEASURES[m]: [int(sensitivity[measure_column(p, m)].sum()) for p in TABLE1_PAIRS]
                         for m in ("top1", "top3")},
                        index=[pair_label(p) for p in TABLE1_PAIRS]).assign(setups=len(sensitivity))
