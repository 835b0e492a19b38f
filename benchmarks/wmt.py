"""One WMT ranking (z per worker, segment and system means, every rank-sum test, the line rule), restandardised
from scratch as every perturbation of Knowles 2021 needs: ``analysis.wmt_stability.perturbed_ranking`` (bincounts and
one matrix product for all tests) against a transcription of the paper's ``get_ranking.py`` loops
(``tests.reference.knowles_ranking_loop``), on real language pairs of different sizes. Both give the same ranking
(checked here and in the tests). Then the chapter's whole workload: every experiment on every pair. Printed as
ratios; run ``python -m benchmarks.wmt``. Nothing is asserted about time.
"""

from __future__ import annotations

import time

import numpy as np

from analysis import wmt_stability as ws
from analysis.data import load_table
from benchmarks.run import best_time
from tests.reference import knowles_ranking_loop

PAIRS = (("newstest2022-toen", "lv-en"), ("newstest2018", "en-tr"), ("newstest2021-toen", "cs-en"),
         ("newstest2018", "zh-en"))


def main() -> None:
    judgments = load_table("wmt_judgments")
    segments = load_table("wmt_segments")
    for collection, pair in PAIRS:
        rows = judgments[(judgments["collection"] == collection) & (judgments["pair"] == pair)]
        coded = ws.code_pair(rows)
        raw, _ = ws.reconstruct_raw(coded, segments[(segments["collection"] == collection)
                                                   & (segments["pair"] == pair)])
        keep = ws.divisible(coded, raw)
        columns = ["worker", "system", "segment", "item_type", "raw"]
        used = rows.assign(raw=raw)[keep]
        tuples = list(used[columns].itertuples(index=False, name=None))
        pool = list(used[coded.pool[keep]][columns].itertuples(index=False, name=None))  # her ad-latest.csv
        ours = ws.perturbed_ranking(coded, divide=2.0, raw=raw, keep=keep, variant="scipy<1.7")
        loop = knowles_ranking_loop(tuples, divide=2.0, pool_rows=pool)
        assert list(ours.systems) == [s for s, _, _ in loop]
        np.testing.assert_allclose(ours.scores, [z for _, z, _ in loop], atol=1e-9)
        t_ours = best_time(lambda: ws.perturbed_ranking(coded, divide=2.0, raw=raw, keep=keep, variant="scipy<1.7"))
        t_loop = best_time(lambda: knowles_ranking_loop(tuples, divide=2.0, pool_rows=pool), repeat=1)
        print(f"{collection} {pair} ({len(tuples):,} judgments, {len(ours.systems)} systems): vectorised "
              f"{t_ours * 1e3:.1f} ms, loop {t_loop:.2f} s -> {t_loop / t_ours:.0f}x")
    start = time.perf_counter()
    n_rankings = 0
    for (collection, pair), rows in judgments.groupby(["collection", "pair"], sort=False):
        coded = ws.code_pair(rows)
        raw, _ = ws.reconstruct_raw(coded, segments[(segments["collection"] == collection)
                                                   & (segments["pair"] == pair)])
        n_rankings += len(ws.experiments(coded, raw))
    print(f"every experiment on every pair ({judgments[['collection', 'pair']].drop_duplicates().shape[0]} pairs, "
          f"{n_rankings} comparisons, raw recovery included): {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
