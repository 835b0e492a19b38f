"""Side-by-side timings of the aggregators against peer implementations, printed as ratios (``make bench``).

Bradley-Terry: ours (vectorised counts + MM, the paper's stopping rule; and ``compare``'s fit, solved to the
maximum-likelihood estimate, rule "mle") against ``evalica`` (Rust core) and ``choix`` (fed the same win matrix),
and against a straightforward Python-loop transcription of Appendix E (the paper's published algorithm). Elo and
TrueSkill: ours (compiled) against a loop over the ``trueskill`` package's ``rate_1vs1`` (the paper's wrapper) and a
direct loop transcription of the Elo formula.

All contenders run in the same process on the same inputs; each time is the best of several repeats. Nothing here is
asserted: the numbers are printed and written to ``benchmarks/results/`` for the README. Run from the repository
root as ``python -m benchmarks.run`` (``make bench``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import choix
import evalica
import numpy as np
import pandas as pd

from analysis import bt, comparisons
from analysis.aggregate import bradley_terry, elo, trueskill
from analysis.comparisons import comparison_counts
from tests.reference import bt_loop, elo_loop, trueskill_loop

ROOT = Path(__file__).resolve().parent.parent


def best_time(fn, repeat: int = 5, budget: float = 2.0) -> float:
    """Best wall time of one call over ``repeat`` runs (fewer if one call already exceeds ``budget`` seconds)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        if sum(times) > budget:
            break
    return min(times)


def scores_matrix(rng, n_instances, n_systems, levels=20):
    values = np.round(rng.normal(0, 1, (n_instances, n_systems)) * levels / 4 + rng.normal(0, 1, n_systems))
    return pd.DataFrame(values, columns=[f"s{i}" for i in range(n_systems)])


def evalica_from_counts(wins, ties):
    n = wins.shape[0]
    i, j = np.triu_indices(n, 1)
    outcomes = [evalica.Winner.X] * len(i) + [evalica.Winner.Y] * len(i) + [evalica.Winner.Draw] * len(i)
    weights = np.concatenate([wins[i, j], wins[j, i], ties[i, j]]).astype(float)
    return evalica.bradley_terry(np.tile(i, 3), np.tile(j, 3), outcomes, index=pd.Index(range(n)), weights=weights)


def bench_bt(sizes, loop_limit):
    rows = []
    rng = np.random.default_rng(0)
    for n_systems, n_instances in sizes:
        scores = scores_matrix(rng, n_instances, n_systems)
        values = scores.to_numpy()
        wins, ties = comparison_counts(values)
        wm = comparisons.win_matrix(comparisons.from_scores(scores), "half")
        row = {"systems": n_systems, "instances": n_instances}
        row["ours_s"] = best_time(lambda: bradley_terry(scores, rule="change"))
        row["ours_fit_s"] = best_time(lambda: bt.fit(wm, rule="change"))
        # the default since issue 53 (and compare's): the same counts solved to the maximum-likelihood estimate
        row["ours_mle_s"] = best_time(lambda: bt.fit(comparisons.score_win_matrices(values[None], "half"), rule="mle"))
        row["ours_mle_fit_s"] = best_time(lambda: bt.fit(wm, rule="mle"))
        row["evalica_s"] = best_time(lambda: evalica_from_counts(*comparison_counts(values)))
        row["evalica_fit_s"] = best_time(lambda: evalica_from_counts(wins, ties))
        row["choix_fit_s"] = best_time(lambda: choix.ilsr_pairwise_dense(wm))
        if n_systems * (n_systems - 1) / 2 * n_instances <= loop_limit:
            row["loop_s"] = best_time(lambda: bt_loop(scores, ties="half"), repeat=1)
        rows.append(row)
        print(
            f"BT {n_systems:>3} systems x {n_instances:>5} instances: ours {row['ours_s'] * 1e3:8.2f} ms"
            f" | evalica {row['evalica_s'] * 1e3:8.2f} ms | ratio ours/evalica {row['ours_s'] / row['evalica_s']:5.2f}"
            f" | fit-only ours/evalica {row['ours_fit_s'] / row['evalica_fit_s']:5.2f}"
            f" | MLE (compare) ours/evalica {row['ours_mle_s'] / row['evalica_s']:5.2f},"
            f" fit-only {row['ours_mle_fit_s'] / row['evalica_fit_s']:5.2f}"
            f" ours/choix {row['ours_fit_s'] / row['choix_fit_s']:5.2f}"
            + (f" | loop/ours {row['loop_s'] / row['ours_s']:8.0f}x" if "loop_s" in row else ""),
            flush=True,
        )
    return pd.DataFrame(rows)


def bench_sequential(sizes):
    rows = []
    rng = np.random.default_rng(1)
    trueskill(scores_matrix(rng, 3, 2))  # compile outside the timing
    elo(scores_matrix(rng, 3, 2))
    for n_systems, n_instances in sizes:
        scores = scores_matrix(rng, n_instances, n_systems, levels=8)
        games = n_systems * (n_systems - 1) // 2 * n_instances
        row = {"systems": n_systems, "instances": n_instances, "games": games}
        row["trueskill_ours_s"] = best_time(lambda: trueskill(scores))
        row["trueskill_package_s"] = best_time(lambda: trueskill_loop(scores), repeat=1)
        row["elo_ours_s"] = best_time(lambda: elo(scores))
        row["elo_loop_s"] = best_time(lambda: elo_loop(scores), repeat=1)
        rows.append(row)
        print(
            f"{games:>8} games ({n_systems} systems x {n_instances} instances): TrueSkill package/ours "
            f"{row['trueskill_package_s'] / row['trueskill_ours_s']:7.0f}x ({row['trueskill_package_s']:.2f} s vs "
            f"{row['trueskill_ours_s'] * 1e3:.2f} ms) | Elo loop/ours {row['elo_loop_s'] / row['elo_ours_s']:6.0f}x",
            flush=True,
        )
    return pd.DataFrame(rows)


def bench_text_metrics(n_systems: int | None):
    """The ten sentence-level metrics of ``data prepare`` on WMT19 kk-en (1,000 segments per system, ``n_systems``
    of its 11 systems; all with ``None``): the compendium's scorer against the libraries called one segment at a time
    (sacrebleu's BLEU once per maximum order and chrF++, rouge-score with the stemmer, and the JS divergences by
    their definition, :func:`~analysis.data.textmetrics.js_divergence` of sacrebleu's tokens). Skipped, saying
    why, when the raw WMT files are not fetched."""
    from analysis.data import textmetrics, tokenizer13a
    from analysis.data.paired import read_lines, wmt_inventory
    from analysis.data.registry import DataError
    from analysis.data.textmetrics import SegmentScorer
    from tests.reference import text_metrics_row

    try:
        ref_file, outputs = wmt_inventory()[("WMT19", "kk-en")]
        reference = read_lines(ref_file, None)
        hypotheses = [read_lines(f, None) for _, f in outputs[:n_systems]]
    except (DataError, OSError) as exc:
        print(f"text metrics: skipped ({exc}); run `make data` first", flush=True)
        return pd.DataFrame()
    pairs = [(h, r) for hyps in hypotheses for h, r in zip(hyps, reference)]

    def libraries():
        return [text_metrics_row(h, r) for h, r in pairs]

    row = {"segments": len(pairs)}
    def ours():
        textmetrics._STEMS.clear()  # each run from scratch: a fresh scorer, no word's stem or tokens remembered
        tokenizer13a._WORD_TOKENS.clear()
        return SegmentScorer().score_many(*zip(*pairs))

    row["ours_s"] = best_time(ours, repeat=3, budget=60)
    row["libraries_s"] = best_time(libraries, repeat=1)
    print(f"text metrics, WMT19 kk-en, {len(pairs):,} segments x 10 metrics: ours {row['ours_s']:.2f} s "
          f"({len(pairs) / row['ours_s']:,.0f} segments/s) | libraries {row['libraries_s']:.2f} s | "
          f"libraries/ours {row['libraries_s'] / row['ours_s']:.2f}x", flush=True)
    return pd.DataFrame([row])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (a smoke run)")
    args = parser.parse_args(argv)
    if args.quick:
        bt_sizes = [(5, 50), (50, 500)]
        seq_sizes = [(5, 100)]
        text_systems = 1
    else:
        bt_sizes = [(n, m) for n in (5, 10, 25, 50, 60) for m in (50, 500, 5000)]
        seq_sizes = [(5, 200), (10, 1000), (25, 500)]
        text_systems = None
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    bt = bench_bt(bt_sizes, loop_limit=10_000_000)
    seq = bench_sequential(seq_sizes)
    bt.to_csv(out / "bradley_terry.csv", index=False)
    seq.to_csv(out / "sequential.csv", index=False)
    text = bench_text_metrics(text_systems)
    if not text.empty:
        text.to_csv(out / "text_metrics.csv", index=False)
    print(f"results: {out}")


if __name__ == "__main__":
    main()
