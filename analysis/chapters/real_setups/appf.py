"""Appendix F (Peyrard et al. 2021): does adding a third system change BT's order of two (a violation of independence
of irrelevant alternatives)? BT orders a balanced design's systems by their total wins (ties as half wins), so the
search needs no fit (:func:`analysis.agreement.iia_violations`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agreement import iia_violations
from ...comparisons import comparison_counts
from ...pairwise import sign_test_pvalues
from ...validation import check_rng
from ..common import metric_label
from .setups import KEYS, claim_rows, subsample


def iia_search(setups, sizes, rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per setup and test-set size, the triples reversed and tied; every violation on the full setups): App. F on
    every setup in full and on one sub-sample per size in ``sizes`` smaller than the setup."""
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
    """App. F's reversals on each setup's full test set: per setup, the (pair, third system) combinations reversed
    and how many of them have a pair the sign test separates at ``alpha``, hold the best system (the most total
    wins) or either; and every reversal with its triple's win counts (``w_ab``: a beats b, a tie half to each)."""
    rows, found = [], []
    for key, matrix in setups:
        x = matrix.to_numpy(dtype=float)
        strict, ties = comparison_counts(x)
        wins = strict + 0.5 * ties
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
    """The reversal to show: on a test set of more than ``min_instances`` instances, the one whose pair's winner
    alone wins the largest share of their comparisons (the clearest order a third system reverses)."""
    big = reversals[reversals.n_instances > min_instances] if len(reversals) else reversals
    if big.empty:
        return pd.DataFrame()
    return big.loc[[big.winner_share.idxmax()]].reset_index(drop=True)


def iia_values(iia: pd.DataFrame, full: pd.DataFrame) -> pd.DataFrame:
    """Claim values, readings of the paper's "none" on more than 10 instances: every violation (reversed or tied)
    summed over the full test sets and their sub-samples, and per size, so that no triple is counted twice in one
    row (``appF-over-10-by-size``: the full test sets; ``appF-over-10-subsamples``: each sub-sampled size apart, a
    test that none is found), the reversals on the full test sets and those whose pair the sign test separates or
    holds the best system."""
    big = iia[iia.n_instances > 10]
    violations = big.reversed + big.tied
    full_sizes = iia[iia["size"].astype(str) == "full"]
    combos = 3 * full_sizes.triples.sum()
    rows = [
        ("appF-over-10", "violations in test sets of more than 10 instances", float(violations.sum()), None),
        ("appF-over-10", "setups with more than 10 instances and a violation",
         float((violations[big["size"].astype(str) == "full"] > 0).sum()), None),
        ("appF-share", "violations per (pair, third system), full setups",
         float((full_sizes.reversed + full_sizes.tied).sum() / combos) if combos else np.nan, None),
    ]
    by_size = big.groupby(big["size"].astype(str), sort=False)[["reversed", "tied"]].sum().sum(axis=1)
    rows += [("appF-over-10-by-size", "full test sets: reversed or tied", float(by_size.get("full", 0)), None)]
    subsamples = [(f"size-{size} sub-samples: reversed or tied", float(count), count == 0)
                  for size, count in by_size.items() if size != "full"]
    rows += [("appF-over-10-subsamples", *row) for row in subsamples]
    if not subsamples:  # a run whose setups are too small to sub-sample above 10 instances
        rows.append(("appF-over-10-subsamples", "nothing to test in this run", np.nan, False))
    over = full[full.n_instances > 10]
    rows += [("appF-full-reversed", "reversed (pair, third system) combinations, full test sets of more than 10 "
              "instances", float(over.reversed.sum()), None),
             ("appF-full-reversed-matter", "of these, with a pair the sign test separates or the best system",
              float(over.either.sum()), None)]
    return claim_rows(rows)


def iia_numbers(iia: pd.DataFrame, examples: pd.DataFrame) -> dict:
    """For the page, :func:`iia_search` on the full setups (``examples``: its violations), with the share of its
    pair's comparisons each reversal's winner wins alone."""
    full = iia[iia["size"].astype(str) == "full"]
    big = full[full.n_instances > 10]
    shares = examples.loc[examples.kind == "reversed", "winner_share"] if len(examples) else pd.Series(dtype=float)
    return {"iia-reversed": int(full.reversed.sum()), "iia-tied": int(full.tied.sum()),
            "iia-combinations": 3 * int(full.triples.sum()), "iia-big-setups": len(big),
            "iia-big-violated": int(((big.reversed + big.tied) > 0).sum()), "iia-reversals": len(shares),
            "iia-winner-median": float(shares.median()), "iia-winner-max": float(shares.max())}


def iia_full_numbers(full: pd.DataFrame, worked: pd.DataFrame) -> dict:
    """For the page, :func:`iia_full_reversals` on more than 10 instances and the :func:`iia_worked_triple`: its
    pair's winner alone (``x``) and loser (``y``), the third system (``c``) and their win counts (``w-xy``)."""
    big = full[full.n_instances > 10]
    numbers = {"appf-full-setups": len(big), "appf-full-setups-reversed": int((big.reversed > 0).sum()),
               "appf-full-share-median": float(big["share reversed"].median()),
               "appf-full-share-max": float(big["share reversed"].max()),
               "appf-full-combinations": int(big["combinations"].sum()),
               "appf-full-reversed": int(big["reversed"].sum()), "appf-full-significant": int(big["significant"].sum()),
               "appf-full-best": int(big["best"].sum()), "appf-full-either": int(big["either"].sum()),
               "appf-full-tac-share": float(big.loc[big.collection == "TAC", "reversed"].sum() / big.reversed.sum())
               if big.reversed.sum() else np.nan}
    if worked.empty:  # the same keys, empty, so that the page's text still finds each
        return numbers | dict.fromkeys(("appf-full-example", "appf-full-x", "appf-full-y", "appf-full-c"), "—") | \
            dict.fromkeys(("appf-full-n", "appf-full-p", "appf-full-w-xy", "appf-full-w-yx", "appf-full-w-xc",
                           "appf-full-w-cx", "appf-full-w-yc", "appf-full-w-cy", "appf-full-total-x",
                           "appf-full-total-y"), np.nan)
    w = worked.iloc[0]
    # x: the pair's winner alone, y: its loser (the triple's a and b are in column order)
    x, y = ("a", "b") if w.alone == "a" else ("b", "a")

    def wins(p: str, q: str) -> float:  # instances on which system p beats system q
        return float(w[f"w_{p}{q}"])
    return numbers | {
        "appf-full-example": f"{w.collection} {w.dataset} {metric_label(w.metric)}", "appf-full-n": int(w.n_instances),
        "appf-full-x": str(w[x]), "appf-full-y": str(w[y]), "appf-full-c": str(w.c), "appf-full-p": float(w.sign_p),
        "appf-full-w-xy": wins(x, y), "appf-full-w-yx": wins(y, x), "appf-full-w-xc": wins(x, "c"),
        "appf-full-w-cx": wins("c", x), "appf-full-w-yc": wins(y, "c"), "appf-full-w-cy": wins("c", y),
        "appf-full-total-x": wins(x, y) + wins(x, "c"), "appf-full-total-y": wins(y, x) + wins(y, "c")}
