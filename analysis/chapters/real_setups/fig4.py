"""Fig. 4 (Peyrard et al. 2021, §5): how often MEAN, MEDIAN and BT disagree on sub-sampled test sets, per metric,
task and test-set size, as §5's text and as BT-eval's code draw them; the figure and §5's five readings of it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ...agreement import measure_column, pair_label, pair_name
from ...pairwise import bootstrap_summary
from ...plotting import dodged_errorbars
from ...validation import check_rng
from ..common import metric_label
from .setups import KEYS, TABLE1_PAIRS, claim_rows, compare_draws, dataset_then_metric, pair_title, subsample

TASK_SHORT = {"summarization": "summ.", "translation": "MT", "captioning": "caption.", "dialogue": "dialogue"}
PAIR_COLORS = {"mean_median": "#DD8452", "mean_bt": "#4C72B0", "median_bt": "#55A868"}


def subsampled_disagreement(setups, sizes, n_subsamples: int, rng) -> pd.DataFrame:
    """Fig. 4's draws: ``n_subsamples`` test sets of each of ``sizes`` from every setup large enough (once when the
    size is the whole setup), one row per draw (:func:`.setups.compare_draws`)."""
    gen = check_rng(rng)
    return compare_draws([(key, size, draw, subsample(matrix, size, gen)) for key, matrix in setups
                          for size in sizes if size <= len(matrix)
                          for draw in range(1 if size == len(matrix) else n_subsamples)])


def paper_size_draws(setups, sizes, n_draws: int, rng) -> pd.DataFrame:
    """Fig. 4(c) as BT-eval's code draws it (``impact_data_size``): for each size, ``n_draws`` times a dataset, one
    of its metrics and ``min(size, instances)`` test instances."""
    gen, pick = check_rng(rng), dataset_then_metric(setups)
    return compare_draws([(key, size, draw, subsample(matrix, min(size, len(matrix)), gen)) for size in sizes
                          for draw in range(n_draws) for key, matrix in [pick(gen)]])


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


def plot_fig4(summaries: dict[str, pd.DataFrame], fig4: pd.DataFrame, paper_sizes: pd.DataFrame) -> plt.Figure:
    """Fig. 4's three panels, each bar labelled with the number of setups behind it, and in (c) BT-eval's own size
    curve (``paper_sizes``, the size summary of :func:`paper_size_draws`)."""
    fig = plt.figure(figsize=(8.4, 7.4))
    grid = fig.add_gridspec(2, 2, width_ratios=[1, 1.25], height_ratios=[1.2, 1])
    top = fig.add_subplot(grid[0, :])
    axes = [top, fig.add_subplot(grid[1, 0], sharey=top), fig.add_subplot(grid[1, 1], sharey=top)]
    labels = {pair_name(p): pair_label(p) for p in TABLE1_PAIRS}
    setups_per = {by: fig4.drop_duplicates([by, *KEYS])[by].value_counts() for by in ("metric", "task", "size")}
    for ax, (by, title, xlabel) in zip(axes, (("metric", "(a) per metric", "metric"),
                                              ("task", "(b) per task", "task"),
                                              ("size", "(c) per test-set size", "test instances drawn"))):
        frame = summaries[by].sort_values("pair", key=lambda p: p.map(list(labels).index), kind="stable")
        values = dodged_errorbars(ax, frame, x=by, hue="pair", y="disagree", colors=PAIR_COLORS, labels=labels,
                                  kind="bar", width=0.7)
        if by == "metric":
            ax.set_xticks(range(len(values)), [f"{metric_label(v)} ({setups_per[by][v]})" for v in values],
                          rotation=50, ha="right", rotation_mode="anchor")
        else:
            names = [f"{v:g}" if by == "size" else TASK_SHORT.get(v, v) for v in values]
            ax.set_xticks(range(len(values)), [f"{n}\n({setups_per[by][v]})" for n, v in zip(names, values)])
        ax.set_title(title)
        ax.set_xlabel(f"{xlabel} (setups)")
        ax.set_xlim(-0.6, len(values) - 0.4)
    sizes = list(dict.fromkeys(summaries["size"]["size"]))
    for pair, part in paper_sizes[paper_sizes["size"].isin(sizes)].groupby("pair", sort=False):
        axes[2].plot([sizes.index(s) for s in part["size"]], part.disagree, "--o", ms=3, lw=1, color=PAIR_COLORS[pair])
    axes[2].plot([], [], "--o", ms=3, lw=1, color="grey", label="(c) BT-eval's draws")
    for ax in axes[:2]:
        ax.set_ylabel("pairs ordered differently")
    plt.setp(axes[2].get_yticklabels(), visible=False)
    legend = {}
    for ax in (axes[0], axes[2]):
        legend |= {label: handle for handle, label in zip(*ax.get_legend_handles_labels()) if label not in legend}
    fig.legend(list(legend.values()), list(legend), loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(legend),
               frameon=False, fontsize=10, columnspacing=1.2, handlelength=1.6)
    fig.tight_layout(h_pad=1.0)
    return fig


def fig4_values(ranks: pd.DataFrame, summaries: dict[str, pd.DataFrame], bt_eval_size: pd.DataFrame) -> pd.DataFrame:
    """Claim values: §5's five readings of Fig. 4 (:func:`metric_ranks`; :func:`fig4_summaries`, ``bt_eval_size``
    that of BT-eval's draws): BLEU among the most affected metrics, BERTScore and MoverScore less so, MEAN vs. MEDIAN
    stable over metrics, MT and summarization below dialogue and captioning, and agreement growing with size."""
    n = len(ranks)
    pairs = [pair_name(p) for p in TABLE1_PAIRS]
    tests = (("fig4a-bleu", ["BLEU"], pairs[1:], lambda r: r <= n / 4),
             ("fig4a-bert-mover", ["BERTScore", "MoverScore"], pairs, lambda r: r > n / 2))
    rows = [(key, f"{metric}, {pair_title(pair)}: rank of {n}", rank, bool(holds(rank)))
            for key, metrics, on, holds in tests for metric in metrics for pair in on
            for rank in [float(ranks[f"{pair} rank"].get(metric, np.nan))]]
    spread = ranks[pairs].max() - ranks[pairs].min()
    rows.append(("fig4a-mean-median-stable", "range over metrics, MEAN vs. MEDIAN", spread["mean_median"],
                 bool(spread["mean_median"] < min(spread["mean_bt"], spread["median_bt"]))))
    mm = summaries["metric"][summaries["metric"].pair == "mean_median"]  # do its metrics' 95% intervals overlap?
    rows.append(("fig4a-mean-median-overlap", "MEAN vs. MEDIAN: the highest lower end of a metric's 95% interval "
                 "minus the lowest upper end", float(mm.low.max() - mm.high.min()),
                 bool(mm.low.max() <= mm.high.min())))
    wide = summaries["task"].pivot(index="task", columns="pair", values="disagree").reindex(columns=pairs)
    low, high = wide.reindex(["translation", "summarization"]).max(), wide.reindex(["dialogue", "captioning"]).min()
    rows += [("fig4b-tasks", f"{pair_title(pair)}: MT and summarization below dialogue and captioning",
              high[pair] - low[pair], bool(low[pair] < high[pair])) for pair in pairs]
    by_size = summaries["size"]
    ends = {v: by_size.pivot(index="size", columns="pair", values=v).sort_index().reindex(columns=pairs)
            for v in ("disagree", "low", "high")}
    sizes = ends["disagree"]
    # the difference's interval from the two sizes' 95% intervals: its ends are those of the two intervals set
    # furthest apart, so it lies below 0 exactly when the largest size's interval lies wholly below the smallest's
    agree_more = {f"{pair_title(pair)}, size {sizes.index[-1]:g} minus {sizes.index[0]:g}":
                  (float(ends["low"][pair].iloc[-1] - ends["high"][pair].iloc[0]),
                   float(ends["high"][pair].iloc[-1] - ends["low"][pair].iloc[0])) for pair in pairs}
    rows += [("fig4c-agree-more", detail, float(sizes[pair].iloc[-1] - sizes[pair].iloc[0]), None)
             for detail, pair in zip(agree_more, pairs)]
    last = {label: frame[frame["size"] == frame["size"].max()].set_index("pair")
            for label, frame in (("sub-samples", by_size), ("BT-eval's draws", bt_eval_size))}
    for key, column, what in (("fig4c-floor", "disagree", ""),
                              ("fig4c-floor-high", "high", ": upper end of the 95% interval")):
        rows += [(key, f"{label}, {pair_title(pair)}, size {at['size'].max():g}{what}",
                  float(at[column].get(pair, np.nan)), None)
                 for label, at in last.items() for pair in ("mean_bt", "median_bt")]
    at = last["sub-samples"]
    rows.append(("fig4c-mean-median-floor", f"MEAN vs. MEDIAN, size {at['size'].max():g}: lower end of the 95% "
                 "interval", float(at["low"].get("mean_median", np.nan)), None))
    frame = claim_rows(rows)
    interval = [agree_more.get(d, (np.nan, np.nan)) if k == "fig4c-agree-more" else (np.nan, np.nan)
                for k, d in zip(frame.key, frame.detail)]
    return frame.assign(low=[i[0] for i in interval], high=[i[1] for i in interval])
