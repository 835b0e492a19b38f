"""Chapter ``02_real_setups``: the paired paper's analyses of real evaluation setups (Peyrard et al. 2021, §5,
Tables 1, 3, 4, Figs. 4-6, Appendices C, D, F, H).

A *setup* is one (collection, dataset, metric) score matrix of the ``paired_setups`` table. This module turns the
table into per-setup disagreement rows (Tables 1, 3, 4; Fig. 4), significance-test agreement (Fig. 6 / App. D) and
the independence-of-irrelevant-alternatives search (App. F), and draws their figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from .. import aggregate
from ..agreement import (
    agreement_matrix,
    compare_aggregators,
    iia_violations,
    measure_column,
    mechanism_pairs,
    pair_name,
    top_k_differs,
)
from ..data import published
from ..pairwise import PAIRED_TESTS, bootstrap_summary, sign_test
from ..plotting import dodged_errorbars
from ..validation import check_rng
from .common import SEED, Param, pair_label

CHAPTER = "02_real_setups"
PARAMETERS = {
    "seed": SEED,
    "collections": Param("str", many=True, optional=True),
    "n_resamples": Param("int", low=1),
    "subsample_sizes": Param("int", low=2, many=True),
    "n_subsamples": Param("int", low=1),
    "sig_max_pairs": Param("int", low=1, optional=True),
    "sig_subsample_size": Param("int", low=2),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "iia_sizes": Param("int", low=3, many=True),
    "fig5_setup": Param("str", many=True, length=3),
}
MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
PAPER = ("mean", "median", "bt")
#: Table 1's pairs, in its order; also Fig. 4's.
TABLE1_PAIRS = (("mean", "median"), ("mean", "bt"), ("median", "bt"))
#: Table 3's pairs, in its column order.
TABLE3_PAIRS = (("mean", "bt"), ("median", "bt"), ("mean", "median"))
MEASURES = {"disagree": "Disagree", "top1": "≠ SotA", "top3": "≠ Top-3"}
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
PAIR_COLORS = {"mean_median": "#DD8452", "mean_bt": "#4C72B0", "median_bt": "#55A868"}


# -- setups ---------------------------------------------------------------------------------------------------------

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


def inventory(setups) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per setup with its size, a summary per collection with a total row)."""
    frame = pd.DataFrame([dict(zip(KEYS, k)) | {"instances": m.shape[0], "systems": m.shape[1]} for k, m in setups])
    summary = frame.groupby("collection", sort=False).agg(
        setups=("metric", "size"), datasets=("dataset", "nunique"), metrics=("metric", "nunique"),
        instances=("instances", "median"), systems=("systems", "median"))
    summary.loc["total"] = [len(frame), frame[["collection", "dataset"]].drop_duplicates().shape[0],
                            frame.metric.nunique(), frame.instances.median(), frame.systems.median()]
    return frame, summary


def n_system_pairs(inventory_frame: pd.DataFrame) -> int:
    return int((inventory_frame.systems * (inventory_frame.systems - 1) // 2).sum())


# -- Tables 1, 3, 4 -------------------------------------------------------------------------------------------------

def aggregators(policy: str, names=MECHANISMS) -> dict:
    """The mechanisms of Tables 1/4 under one tie policy (:func:`analysis.aggregate.mechanisms`)."""
    return aggregate.mechanisms(policy, names)


def disagreement_rows(setups, policy: str, names=MECHANISMS) -> pd.DataFrame:
    """One row per setup: the keys, ``n_instances``, ``n_systems`` and ``<a>_<b>_disagree/top1/top3`` for every pair
    of mechanisms in ``names`` order (:func:`analysis.agreement.compare_aggregators`)."""
    fns = aggregators(policy, names)
    rows = [pd.concat([pd.Series(dict(zip(KEYS, key))), *_compared(matrix, fns)]) for key, matrix in setups]
    return pd.DataFrame(rows).astype({"n_instances": int, "n_systems": int, "bt_degenerate": bool})


def _compared(matrix: pd.DataFrame, fns: dict) -> tuple[pd.Series, pd.Series]:
    """:func:`compare_aggregators` on one matrix, and whether BT had no finite fit on it (``bt_degenerate``)."""
    with aggregate.degenerate_fits() as degenerate:
        row = compare_aggregators(matrix, fns, k=3)
    return row, pd.Series({"bt_degenerate": bool(degenerate)})


def degenerate_note(frames: dict[str, pd.DataFrame]) -> str:
    """A sentence: in how many rows of each frame (labelled, e.g. ``{"setups under ties='loss'": rows}``) BT had no
    finite maximum-likelihood fit, naming the setups when there are few, and what that does to the tables."""
    counts = []
    for label, frame in frames.items():
        hit = frame[frame["bt_degenerate"]]
        named = ""
        if 0 < len(hit) <= 6 and set(KEYS) <= set(frame.columns):
            named = " (" + ", ".join(" ".join(map(str, key)) for key in hit[KEYS].itertuples(index=False)) + ")"
        counts.append(f"{len(hit):,} of {len(frame):,} {label}{named}")
    if not any(frame["bt_degenerate"].any() for frame in frames.values()):
        return "BT has a finite maximum-likelihood fit in all " + " and ".join(
            f"{len(f):,} {label}" for label, f in frames.items()) + "."
    return ("BT has no finite maximum-likelihood fit in " + "; and in ".join(counts) + ". There a group of systems "
            "never loses (or never wins) against the rest, so its strengths grow (or shrink) without bound and "
            "their size is set by the fit's stopping rule; the group's place in the ranking, which is all the "
            "disagreement measures use, is still right.")


def summarise(per_setup: pd.DataFrame, pairs, *, rng, n_resamples: int = 1000) -> pd.DataFrame:
    """Table 1/4: mean over setups (unweighted) of each measure with a 95% bootstrap interval over setups, one row
    per pair (labelled ``a_b``). Setups where ``disagree`` is undefined (a constant aggregate) are left out of that
    column's mean only; a measure undefined everywhere is NaN."""
    columns = [measure_column(pair, m) for pair in pairs for m in MEASURES]
    long = bootstrap_summary(per_setup, columns, rng=rng, n_resamples=n_resamples).set_index("column")
    long = long.reindex(columns)  # a measure undefined in every setup stays NaN
    rows = []
    for pair in pairs:
        row = {"pair": pair_name(pair)}
        for m in MEASURES:
            est, low, high = long.loc[measure_column(pair, m), ["estimate", "low", "high"]]
            row[m], row[f"{m}_low"], row[f"{m}_high"] = est, low, high
        rows.append(row)
    return pd.DataFrame(rows).set_index("pair")


def published_table4() -> pd.DataFrame:
    """The paper's Table 4 (its first three rows are Table 1), in %, indexed by pair tuples."""
    t4 = published.item("paired", "table4")
    return pd.DataFrame([r["values"] for r in t4["rows"]], index=[tuple(r["pair"]) for r in t4["rows"]],
                        columns=t4["columns"])


def side_by_side(ours: dict[str, pd.DataFrame], pairs) -> pd.DataFrame:
    """Per pair: the paper's percentage next to ours under each tie policy (mean, 95% interval)."""
    paper = published_table4()
    rows = {}
    for pair in pairs:
        row = {}
        for measure, name in MEASURES.items():
            row[(name, "paper")] = f"{paper.loc[[pair], measure].iloc[0]}%"
            for policy, summary in ours.items():
                o = summary.loc[pair_name(pair)]
                row[(name, f"ties={policy}")] = (f"{100 * o[measure]:.0f}% ({100 * o[f'{measure}_low']:.0f}–"
                                                 f"{100 * o[f'{measure}_high']:.0f})")
        rows[pair_label(pair)] = row
    return pd.DataFrame(rows).T


def table3_group(collection: str, dataset: str) -> str:
    """Table 3's row: TAC and Dialogue per dataset, the other collections as a whole."""
    return {"TAC": f"TAC{dataset}", "Dialogue": dataset.upper()}.get(collection, collection)


def table3(per_setup: pd.DataFrame, by=("group", "metric")) -> pd.DataFrame:
    """Table 3: the mean of each measure for MEAN/MEDIAN/BT pairs per dataset group (and metric)."""
    frame = per_setup.assign(group=[table3_group(c, d) for c, d in zip(per_setup.collection, per_setup.dataset)])
    return frame.groupby(list(by), sort=False)[[measure_column(p, m) for p in TABLE3_PAIRS for m in MEASURES]].mean()


def table3_compact(per_setup: pd.DataFrame) -> pd.DataFrame:
    """Table 3 per dataset group only, with readable two-level headers."""
    compact = table3(per_setup, by=("group",))
    compact.columns = pd.MultiIndex.from_tuples([(pair_label(p), MEASURES[m]) for p in TABLE3_PAIRS for m in MEASURES])
    return compact


def plot_table3(table: pd.DataFrame) -> plt.Figure:
    fig, axes = plt.subplots(1, len(TABLE3_PAIRS), figsize=(16, 5.5), sharey=True)
    for ax, pair in zip(axes, TABLE3_PAIRS):
        grid = table[measure_column(pair, "disagree")].unstack("metric").sort_index(axis=1)
        sns.heatmap(grid, ax=ax, annot=True, fmt=".2f", cmap="rocket_r", vmin=0, vmax=0.35, cbar=ax is axes[-1],
                    annot_kws={"fontsize": 7})
        ax.set_title(f"Disagree: {pair_label(pair)}")
        ax.grid(False)
        ax.set_xlabel("")
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def tie_break_sensitivity(setups, policy: str = "loss", names=PAPER) -> pd.DataFrame:
    """How often a ≠ SotA / ≠ Top-3 result depends on how ties at the top-k boundary are cut: per setup and pair,
    whether ``top_k_differs`` changes between cutting ties by the earlier and by the later column."""
    fns = aggregators(policy, names)
    rows = []
    for key, matrix in setups:
        with aggregate.degenerate_fits():  # the same setups' degenerate fits are counted by disagreement_rows
            results = {name: np.asarray(fn(matrix), dtype=float) for name, fn in fns.items()}
        k3 = min(3, matrix.shape[1])
        row = dict(zip(KEYS, key))
        for pair in mechanism_pairs(names):
            x, y = results[pair[0]], results[pair[1]]
            for measure, k in (("top1", 1), ("top3", k3)):
                row[measure_column(pair, measure)] = (top_k_differs(x, y, k, "first")
                                                      != top_k_differs(x, y, k, "last"))
        rows.append(row)
    return pd.DataFrame(rows)


# -- Fig. 4 ---------------------------------------------------------------------------------------------------------

def subsampled_disagreement(setups, sizes, n_subsamples: int, rng, policy: str = "loss") -> pd.DataFrame:
    """Fig. 4's data: test sets of each size in ``sizes`` drawn without replacement from every setup large enough
    (``n_subsamples`` times, once when the size is the whole setup), each compared by MEAN, MEDIAN and BT. One row
    per draw: its disagreement row, the setup's keys, ``size``, ``draw`` and ``task``."""
    gen = check_rng(rng)
    drawn = []
    for key, matrix in setups:
        for size in sizes:
            if size > len(matrix):
                continue
            for draw in range(1 if size == len(matrix) else n_subsamples):
                drawn.append((key, size, draw, subsample(matrix, size, gen)))
    if not drawn:
        return pd.DataFrame()
    fns = aggregators(policy, PAPER)
    frame = pd.DataFrame([pd.concat(_compared(m, fns)) for *_, m in drawn]).astype(
        {"n_instances": int, "n_systems": int, "bt_degenerate": bool})
    frame = frame.assign(collection=[d[0][0] for d in drawn], dataset=[d[0][1] for d in drawn],
                         metric=[d[0][2] for d in drawn], size=[d[1] for d in drawn], draw=[d[2] for d in drawn])
    frame["task"] = frame.collection.map(TASKS)
    return frame


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


def plot_fig4(summaries: dict[str, pd.DataFrame]) -> plt.Figure:
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5), gridspec_kw={"width_ratios": [3, 1.3, 1.6]}, sharey=True)
    labels = {pair_name(p): pair_label(p) for p in TABLE1_PAIRS}
    for ax, (by, title) in zip(axes, (("metric", "(a) per metric"), ("task", "(b) per task"),
                                      ("size", "(c) per test-set size"))):
        frame = summaries[by]
        frame = frame.assign(order=frame.pair.map({p: i for i, p in enumerate(labels)})).sort_values(
            ["order"], kind="stable")
        dodged_errorbars(ax, frame, x=by, hue="pair", y="disagree", colors=PAIR_COLORS, labels=labels, kind="bar",
                         width=0.66)
        if by != "size":
            plt.setp(ax.get_xticklabels(), rotation=45, ha="right")
        ax.set_title(title)
    axes[0].set_ylabel("share of system pairs ordered differently")
    axes[0].legend(fontsize=9)
    fig.tight_layout()
    return fig


# -- Fig. 5 ---------------------------------------------------------------------------------------------------------

def pick_setup(setups, wanted) -> tuple[tuple[str, str, str], pd.DataFrame]:
    """The setup ``wanted`` = (collection, dataset, metric) if present, else the first WMT setup, else the first."""
    available = dict(setups)
    key = tuple(wanted)
    if key not in available:
        wmt = [k for k in available if k[0].startswith("WMT")]
        key = wmt[0] if wmt else sorted(available)[0]
    return key, available[key]


def bt_probability_matrix(matrix: pd.DataFrame, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fig. 5: P(row beats column) as BT models it, lambda_row / (lambda_row + lambda_column) (``ties="half"``),
    systems sorted by strength, diagonal empty; and "*" marks where the sign test rejects P = 1/2 at ``alpha``."""
    strength = aggregate.bradley_terry(matrix, ties="half")
    order = strength.sort_values(ascending=False).index
    prob = pd.DataFrame({b: strength[order] / (strength[order] + strength[b]) for b in order}, index=order)
    marks = pd.DataFrame("", index=order, columns=order)
    for a in order:
        for b in order:
            if a != b and sign_test(matrix[a], matrix[b]).pvalue < alpha:
                marks.loc[a, b] = "*"
    return prob.mask(np.eye(len(order), dtype=bool)), marks


def plot_fig5(prob: pd.DataFrame, marks: pd.DataFrame, key, alpha: float) -> plt.Figure:
    annot = prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}") + marks
    n = len(prob)
    fig, ax = plt.subplots(figsize=(1 + 0.62 * n, 0.5 + 0.5 * n))
    sns.heatmap(prob, annot=annot, fmt="", cmap="vlag", center=0.5, vmin=0, vmax=1, ax=ax, annot_kws={"fontsize": 7},
                cbar_kws={"label": "P(row beats column)"})
    ax.set_title(f"{key[0]} {key[1]}, {key[2]}: BT pairwise probabilities (* sign test p < {alpha})")
    ax.grid(False)
    return fig


# -- Fig. 6 / Appendix D --------------------------------------------------------------------------------------------

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


def published_fig6() -> pd.DataFrame:
    fig6 = published.item("paired", "fig6")
    return pd.DataFrame(fig6["matrix"], index=fig6["tests"], columns=fig6["tests"])


def plot_fig6(panels: dict[str, pd.DataFrame]) -> plt.Figure:
    """One heat map per {title: agreement matrix}."""
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4.5))
    for ax, (title, frame) in zip(np.atleast_1d(axes), panels.items()):
        sns.heatmap(frame.astype(float), annot=True, fmt=".2f", vmin=0, vmax=1, cmap="mako_r", ax=ax, cbar=False)
        ax.set_title(title)
        ax.set_xlabel("test j")
        ax.set_ylabel("test i")
        ax.grid(False)
    fig.tight_layout()
    return fig


# -- Appendix F -----------------------------------------------------------------------------------------------------

def iia_search(setups, sizes, rng) -> tuple[pd.DataFrame, pd.DataFrame]:
    """App. F on every setup, in full and on one sub-sample per size in ``sizes`` (when smaller than the setup).

    Returns (per setup and size: triples, reversed and tied counts; every violation found on the full setups)."""
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


def reversal_winner_shares(examples: pd.DataFrame) -> pd.Series:
    """For each reversal found, the share of the pair's comparisons its winner wins when alone."""
    if examples.empty:
        return pd.Series(dtype=float)
    return examples.loc[examples.kind == "reversed", "winner_share"]


def iia_by_collection(iia: pd.DataFrame) -> pd.DataFrame:
    return iia[iia["size"] == "full"].groupby("collection", sort=False)[["triples", "reversed", "tied"]].sum()


def tie_break_counts(sensitivity: pd.DataFrame) -> pd.DataFrame:
    """Per pair: the number of setups whose ≠ SotA and ≠ Top-3 result depends on the tie cut, out of all setups."""
    pairs = [p for p in TABLE1_PAIRS if measure_column(p, "top1") in sensitivity]
    return pd.DataFrame({
        MEASURES[m]: [int(sensitivity[measure_column(p, m)].sum()) for p in pairs] for m in ("top1", "top3")
    }, index=[pair_label(p) for p in pairs]).assign(setups=len(sensitivity))
