"""Tables 1 and 4 and Appendix H (Peyrard et al. 2021, §5): how often MEAN, MEDIAN, BT, Elo and TrueSkill disagree
on each setup, averaged over setups with 95% bootstrap intervals, beside the paper's percentages; and how much the
≠ SotA and ≠ Top-3 results depend on cutting ties at the top-k boundary."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ... import aggregate
from ...agreement import compare_aggregators, measure_column, mechanism_pairs, pair_label, pair_name, top_k_differs
from ...data import published
from ...pairwise import bootstrap_summary
from ..common import metric_label
from .setups import KEYS, MEASURES, MECHANISMS, PAPER, PAPER_TIES, PERCENT_ROUNDING, TABLE1_PAIRS, claim_rows


def disagreement_rows(setups, policy: str, names=MECHANISMS) -> pd.DataFrame:
    """One row per setup: its keys, :func:`analysis.agreement.compare_aggregators`' row and ``bt_degenerate``."""
    fns = aggregate.mechanisms(policy, names)
    rows = []
    for key, matrix in setups:
        row = compare_aggregators(matrix, fns, k=3)
        bt = row.attrs["aggregates"].results.get("bt")  # no BT among ``names``: nothing degenerate
        degenerate = bt is not None and bool(bt.attrs["fit"].degenerate.any())
        rows.append(pd.concat([pd.Series(dict(zip(KEYS, key))), row, pd.Series({"bt_degenerate": degenerate})]))
    return pd.DataFrame(rows).astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})


def summarise(per_setup: pd.DataFrame, pairs, *, rng, n_resamples: int = 1000) -> pd.DataFrame:
    """Tables 1 and 4: per pair, the unweighted mean over setups of each measure with its 95% bootstrap interval. A
    setup whose ``disagree`` is undefined (a constant aggregate) is left out of that mean only."""
    columns = [measure_column(pair, m) for pair in pairs for m in MEASURES]
    s = bootstrap_summary(per_setup, columns, rng=rng, n_resamples=n_resamples).set_index("column").reindex(columns)
    return pd.DataFrame({f"{m}{end}": [s.loc[measure_column(p, m), stat] for p in pairs] for m in MEASURES
                         for end, stat in (("", "estimate"), ("_low", "low"), ("_high", "high"))},
                        index=pd.Index([pair_name(p) for p in pairs], name="pair"))


def published_table4() -> pd.DataFrame:
    """The paper's Table 4 (its first three rows are Table 1), in %, indexed by pair tuples."""
    t4 = published.item("paired", "table4")
    return pd.DataFrame([r["values"] for r in t4["rows"]], index=[tuple(r["pair"]) for r in t4["rows"]],
                        columns=t4["columns"])


def side_by_side(ours: dict[str, pd.DataFrame], pairs) -> pd.DataFrame:
    """Per pair: the paper's percentage next to each of ours (``{label: summarise() frame}``)."""
    paper, names = published_table4().loc[list(pairs)], [pair_name(p) for p in pairs]
    columns = {}
    for measure, name in MEASURES.items():
        columns[(name, "paper")] = [f"{v}%" for v in paper[measure]]
        for label, summary in ours.items():
            cells = 100 * summary.loc[names, [measure, f"{measure}_low", f"{measure}_high"]].to_numpy()
            columns[(name, label)] = [f"{e:.0f}% ({lo:.0f}–{hi:.0f})" for e, lo, hi in cells]
    return pd.DataFrame(columns, index=[pair_label(p) for p in pairs])


def side_by_side_long(ours: dict[str, pd.DataFrame], pairs) -> pd.DataFrame:
    """:func:`side_by_side` with a row per (pair, measure), so that a few readings fit the page's text column."""
    long = side_by_side(ours, pairs).stack(level=0, future_stack=True)
    return long.rename_axis(["mechanisms", "measure"])[["paper", *ours]]


def plot_table4(ours: dict[str, pd.DataFrame], paper: pd.DataFrame, pairs) -> plt.Figure:
    """Table 4 (its first three rows are Table 1) as a dot plot: the paper's percentages (crosses) and each of ours
    (``{label: summarise() frame}``) with its 95% bootstrap interval."""
    fig, axes = plt.subplots(1, len(MEASURES), figsize=(8.4, 0.36 * len(pairs) + 1.6), sharey=True)
    markers, colors = ["o", "s", "D"], sns.color_palette("colorblind")
    step = 0.5 / max(1, len(ours))
    ys = np.arange(len(pairs))[::-1]
    for ax, (measure, name) in zip(axes, MEASURES.items()):
        for k, (label, frame) in enumerate(ours.items()):
            rows = frame.loc[[pair_name(p) for p in pairs]]
            y = ys + (k - (len(ours) - 1) / 2) * step
            ax.errorbar(100 * rows[measure], y, xerr=[100 * (rows[measure] - rows[f"{measure}_low"]),
                                                      100 * (rows[f"{measure}_high"] - rows[measure])],
                        fmt=markers[k % 3], ms=4, color=colors[k], capsize=2, lw=1, label=label)
        ax.plot([paper.loc[[p], measure].iloc[0] for p in pairs], ys, "x", color="black", ms=7, mew=1.6,
                label="the paper")
        ax.set(title=name, xlabel="% (setups)" if measure != "disagree" else "% (system pairs)")
        ax.set_xlim(left=0)
    axes[0].set_yticks(ys, [pair_label(p) for p in pairs])
    axes[0].set_ylim(-0.6, len(pairs) - 0.4)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles[-1:] + handles[:-1], labels[-1:] + labels[:-1], loc="upper center", bbox_to_anchor=(0.5, 0.02),
               ncol=len(labels), frameon=False, columnspacing=1.2, handletextpad=0.3)
    fig.tight_layout()
    return fig


def _in_interval(paper_percent: float, row: pd.Series, measure: str) -> bool:
    """Whether the paper's whole percent lies in our 95% interval widened by the printed rounding."""
    p = paper_percent / 100
    return bool(row[f"{measure}_low"] - PERCENT_ROUNDING <= p <= row[f"{measure}_high"] + PERCENT_ROUNDING)


def interval_values(ours: pd.DataFrame) -> pd.DataFrame:
    """Claim values with intervals (``ours`` under the paper's tie handling): every cell of Tables 1 and 4 (the
    paper's in our interval) and App. H (MEAN and MEDIAN vs. Elo and TrueSkill above MEAN vs. MEDIAN)."""
    paper = published_table4()
    rows = []
    for pair in paper.index:
        key = "table1-in-interval" if pair in TABLE1_PAIRS else "table4-in-interval"
        row = ours.loc[pair_name(pair)]
        rows += [(key, f"{pair_label(pair)}, {MEASURES[m]}", row[m], row[f"{m}_low"], row[f"{m}_high"],
                  _in_interval(paper.loc[[pair], m].iloc[0], row, m)) for m in MEASURES]
    mm = ours.loc["mean_median"]
    rows += [("appH-paired", f"{pair_label((a, b))} above MEAN vs. MEDIAN", row.disagree, row.disagree_low,
              row.disagree_high, bool(row.disagree_low > mm.disagree_high))
             for a in ("mean", "median") for b in ("elo", "trueskill") for row in [ours.loc[f"{a}_{b}"]]]
    return pd.DataFrame(rows, columns=["key", "detail", "value", "low", "high", "holds"])


def table_values(ours: pd.DataFrame, fig4: pd.DataFrame) -> pd.DataFrame:
    """Claim values: the abstract's ≠ SotA (the mean of Table 1's three pairs) and MEAN vs. MEDIAN's Disagree minus
    the smaller of MEAN vs. BT's and MEDIAN vs. BT's, on the full setups and on Fig. 4's sub-samples."""
    rows = [("abstract-sota", "mean of Table 1's three ≠ SotA", float(np.mean(
        [ours.loc[pair_name(p), "top1"] for p in TABLE1_PAIRS])), None)]
    full = ours.loc["mean_median", "disagree"] - ours.loc[["mean_bt", "median_bt"], "disagree"].min()
    rows.append(("mean-median-closest", "full setups (Table 1)", float(full), None))
    if len(fig4):
        means = {p: fig4[f"{p}_disagree"].mean() for p in ("mean_median", "mean_bt", "median_bt")}
        rows.append(("mean-median-closest", "sub-samples (Fig. 4)",
                     float(means["mean_median"] - min(means["mean_bt"], means["median_bt"])), None))
    return claim_rows(rows)


def table1_numbers(paper_ties: pd.DataFrame, variant: pd.DataFrame) -> dict:
    """For the page: the paper's MEAN vs. BT and MEAN vs. MEDIAN as fractions, and ours (:func:`summarise` frames)
    with the paper's tie rule (``paper-ties-...``) and with the variant's (``variant-...``), with 95% intervals."""
    paper = published_table4()

    def theirs(pair: tuple, measure: str) -> float:
        return float(paper.loc[[pair], measure].iloc[0]) / 100
    return {
        "paper-mean-bt-disagree": theirs(("mean", "bt"), "disagree"),
        "paper-mean-bt-top1": theirs(("mean", "bt"), "top1"),
        "paper-mean-median-disagree": theirs(("mean", "median"), "disagree"),
        "paper-ties-mean-median-disagree": float(paper_ties.loc["mean_median", "disagree"]),
        "paper-ties-mean-bt-disagree": float(paper_ties.loc["mean_bt", "disagree"]),
        "paper-ties-mean-bt-disagree-low": float(paper_ties.loc["mean_bt", "disagree_low"]),
        "paper-ties-mean-bt-disagree-high": float(paper_ties.loc["mean_bt", "disagree_high"]),
        "paper-ties-mean-bt-top1": float(paper_ties.loc["mean_bt", "top1"]),
        "paper-ties-mean-bt-top1-low": float(paper_ties.loc["mean_bt", "top1_low"]),
        "paper-ties-mean-bt-top1-high": float(paper_ties.loc["mean_bt", "top1_high"]),
        "paper-ties-mean-bt-top3": float(paper_ties.loc["mean_bt", "top3"]),
        "paper-ties-mean-bt-top3-low": float(paper_ties.loc["mean_bt", "top3_low"]),
        "paper-ties-mean-bt-top3-high": float(paper_ties.loc["mean_bt", "top3_high"]),
        "variant-mean-bt-disagree": float(variant.loc["mean_bt", "disagree"]),
        "variant-mean-bt-disagree-low": float(variant.loc["mean_bt", "disagree_low"]),
        "variant-mean-bt-disagree-high": float(variant.loc["mean_bt", "disagree_high"]),
        "variant-mean-bt-top1": float(variant.loc["mean_bt", "top1"]),
        "variant-mean-bt-top1-low": float(variant.loc["mean_bt", "top1_low"]),
        "variant-mean-bt-top1-high": float(variant.loc["mean_bt", "top1_high"]),
        "variant-mean-bt-top3": float(variant.loc["mean_bt", "top3"]),
        "variant-mean-bt-top3-low": float(variant.loc["mean_bt", "top3_low"]),
        "variant-mean-bt-top3-high": float(variant.loc["mean_bt", "top3_high"]),
    }


def table1_hits(frame: pd.DataFrame) -> int:
    """How many of Table 1's nine published cells lie in our 95% interval (± the printed rounding)."""
    paper = published_table4()
    return sum(_in_interval(paper.loc[[p], m].iloc[0], frame.loc[pair_name(p)], m) for p in TABLE1_PAIRS
               for m in MEASURES)


def degenerate_setups(*frames: pd.DataFrame) -> str:
    """For the page: the setups where BT had no finite fit in any of ``frames``, metrics spelt as the paper does."""
    found = pd.concat([frame.loc[frame["bt_degenerate"], KEYS] for frame in frames]).drop_duplicates()
    return ", ".join(f"{c} {d} {metric_label(m)}" for c, d, m in found.itertuples(index=False)) or "none"


def convergence_values(**fits: pd.DataFrame) -> pd.DataFrame:
    """Claim values for §2.2 / App. E ("guaranteed to converge to a unique solution"): per set of BT fits (keyword =
    its label, a frame with ``bt_degenerate`` per fit), how many have no finite maximum-likelihood fit, holding when
    none lacks one."""
    return claim_rows([("bt-unique-fit", f"{label}: without a finite fit, of {len(frame):,}",
                        float(frame["bt_degenerate"].sum()), not frame["bt_degenerate"].any())
                       for label, frame in fits.items()])


# -- how much the top-k results depend on cutting ties --------------------------------------------------------------

def tie_break_sensitivity(setups) -> pd.DataFrame:
    """Per setup and pair of MEAN, MEDIAN and BT (the paper's tie handling): whether its ≠ SotA / ≠ Top-3 result
    changes between cutting ties at the top-k boundary by the earlier and by the later column."""
    fns = aggregate.mechanisms(PAPER_TIES, PAPER)
    rows = []
    for key, matrix in setups:
        r = {name: np.asarray(fn(matrix), dtype=float) for name, fn in fns.items()}
        rows.append(dict(zip(KEYS, key)) | {  # a result that differs between the two cuts
            measure_column((a, b), m): top_k_differs(r[a], r[b], k, "first") != top_k_differs(r[a], r[b], k, "last")
            for a, b in mechanism_pairs(PAPER) for m, k in (("top1", 1), ("top3", min(3, matrix.shape[1])))})
    return pd.DataFrame(rows)


def tie_break_counts(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per pair: the number of setups whose ≠ SotA and ≠ Top-3 result depends on the tie cut, out of all setups."""
    return pd.DataFrame({MEASURES[m]: [int(sensitivity[measure_column(p, m)].sum()) for p in TABLE1_PAIRS]
                         for m in ("top1", "top3")},
                        index=[pair_label(p) for p in TABLE1_PAIRS]).assign(setups=len(sensitivity))
