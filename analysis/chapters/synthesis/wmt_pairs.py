"""Study 2 — paired comparisons inside WMT (Knowles 2021 × Peyrard et al. 2021).

WMT ranks by workers' standardised scores (z) of one system at a time, but a worker scores several systems in a HIT:
BT on those paired preferences and the z-means go through Knowles' perturbations, with a random mid-ranked system's
removal as a matched null."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from ... import bt, comparisons, wmt_stability
from ...agreement import order_changes
from ...plotting import MECHANISM_COLORS
from ...validation import check_rng

MECHANISMS = {"z": "z-score mean (official)", "bt": "BT on paired preferences"}
EXPERIMENT_LABELS = {"remove_human": "HUMAN and REF removed", "remove_best": "best removed",
                     "remove_worst": "worst removed", "remove_random_mid": "random mid system removed (null)"}


def same_segment_pairs(judgments: pd.DataFrame) -> int:
    """How many (worker, document, segment) groups hold SYSTEM/REPEAT judgments of more than one system."""
    scored = judgments[judgments["item_type"].isin(["SYSTEM", "REPEAT"])]
    n = scored.groupby(["collection", "pair", "worker", "document", "segment"], observed=True)["system"].nunique()
    return int((n > 1).sum())


def preferences(pair: wmt_stability.PairJudgments) -> pd.DataFrame:
    """One preference per (worker, HIT, pair of systems both scored in it; no HIT id: the worker's session), from
    the worker's mean z of each system (z is increasing in the raw score within a worker, so it is the raw one)."""
    rows = pair.scored
    hit = np.where(pair.hit >= 0, pair.hit, -1 - pair.worker)  # no HIT: the worker's whole session
    frame = pd.DataFrame({"worker": pair.worker[rows], "hit": hit[rows], "system": pair.system[rows],
                          "z": pair.z[rows]})
    means = frame.groupby(["worker", "hit", "system"], sort=True)["z"].mean().reset_index()
    both = means.merge(means, on=["worker", "hit"], suffixes=("_l", "_r"))
    both = both[both["system_l"] < both["system_r"]]
    names = np.asarray(pair.systems, dtype=object)
    diff = both["z_l"].to_numpy() - both["z_r"].to_numpy()
    return pd.DataFrame({"left": names[both["system_l"].to_numpy()], "right": names[both["system_r"].to_numpy()],
                         "winner": np.select([diff > 0, diff < 0], ["left", "right"], "tie")})


def bt_scores(prefs: pd.DataFrame, remove=()) -> pd.Series:
    """BT strengths (ties as half) from :func:`preferences` without the systems in ``remove``."""
    keep = prefs[~prefs["left"].isin(remove) & ~prefs["right"].isin(remove)]
    if keep.empty:
        raise ValueError("no paired preference is left")
    c = comparisons.from_judgments(keep["left"], keep["right"], keep["winner"])
    return bt.fit(comparisons.win_matrix(c, "half"), systems=c.systems).series()


def z_scores(pair: wmt_stability.PairJudgments, remove=(), remove_human: bool = False) -> pd.Series:
    """The official ranking's system scores (z means, restandardised after the perturbation)."""
    r = wmt_stability.perturbed_ranking(pair, remove=remove, remove_human=remove_human)
    return pd.Series(r.scores, index=list(r.systems))


def perturbations(pair: wmt_stability.PairJudgments, prefs: pd.DataFrame, n_null: int, rng) -> pd.DataFrame:
    """Every experiment (:data:`EXPERIMENT_LABELS`) on one language pair for both mechanisms, with the pairs of
    remaining systems reordered. Best and worst are each mechanism's own; the null removes the same random system
    for both, one neither ranks first or last and not HUMAN."""
    gen = check_rng(rng)
    humans = [s for s, h in zip(pair.systems, pair.human) if h]

    def score(m, remove=(), remove_human=False):
        if m == "z":
            return z_scores(pair, remove, remove_human)
        return bt_scores(prefs, [*remove, *(humans if remove_human else [])])  # BT has no REF items to remove

    full = {m: score(m) for m in MECHANISMS}
    ends = {s for f in full.values() for s in (f.idxmax(), f.idxmin())}
    middle = sorted(set(full["z"].index) & set(full["bt"].index) - ends - set(humans))
    plan = [("remove_human", 0, None)] if humans or pair.ref.any() else []
    plan += [("remove_worst", 0, None), ("remove_best", 0, None)]
    picks = gen.choice(len(middle), size=n_null, replace=True) if middle and n_null else []
    plan += [("remove_random_mid", d, middle[p]) for d, p in enumerate(picks)]
    rows = []
    for experiment, draw, system in plan:
        for m in MECHANISMS:
            target = {"remove_best": full[m].idxmax(), "remove_worst": full[m].idxmin()}.get(experiment, system)
            after = score(m, [] if target is None else [target], remove_human=experiment == "remove_human")
            rows.append((experiment, draw, m, len(after), order_changes(full[m], after)))
    runs = pd.DataFrame(rows, columns=["experiment", "draw", "mechanism", "systems", "pairs_reordered"])
    runs.insert(4, "pairs", runs["systems"] * (runs["systems"] - 1) // 2)
    return runs.assign(reordered=runs["pairs_reordered"] > 0)


def sr_dc_study(table: pd.DataFrame, n_null: int, rng, collections=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(perturbation rows, one row per language pair with its preferences and how the two full rankings disagree)
    for every SR+DC language pair of the ``wmt_judgments`` table (optionally only ``collections``)."""
    gen = check_rng(rng)
    data = table[table["style"] == "SR+DC"]
    if collections is not None:
        data = data[data["collection"].isin(list(collections))]
    if data.empty:
        raise ValueError("no SR+DC judgments for the collections asked for")
    runs, pairs = [], []
    for (collection, lp), group in data.groupby(["collection", "pair"], sort=True, observed=True):
        coded = wmt_stability.code_pair(group)
        prefs = preferences(coded)
        runs.append(perturbations(coded, prefs, n_null, gen).assign(collection=collection, pair=lp))
        z, b = z_scores(coded), bt_scores(prefs)
        common = z.index.intersection(b.index)
        pairs.append({"collection": collection, "pair": lp, "systems": len(coded.systems),
                      "preferences": len(prefs), "tie_share": float((prefs["winner"] == "tie").mean()),
                      "pairs_ordered_differently": order_changes(z[common], b[common]),
                      "system_pairs": len(common) * (len(common) - 1) // 2})
    return pd.concat(runs, ignore_index=True), pd.DataFrame(pairs)


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per experiment and mechanism: runs (pairs, or draws for the null), the share reordered, mean share of pairs."""
    runs = runs.assign(pair_share=runs["pairs_reordered"] / runs["pairs"].where(runs["pairs"] > 0))
    return runs.groupby(["experiment", "mechanism"], sort=False, as_index=False).agg(
        runs=("reordered", "size"), reordered=("reordered", "mean"), pairs_reordered=("pair_share", "mean"))


def ends_against_null(runs: pd.DataFrame) -> pd.DataFrame:
    """Per mechanism: how often removing an end system, and a random mid-ranked one, reorders the rest, and the
    one-sided p that the ends do more often, at the level of the language pair: per pair, the share of its two end
    removals that reorder minus the share of its null draws that do, tested with the one-sided Wilcoxon signed-rank
    test (a pair's null draws are not independent of one another, so each pair is one observation; ``p_value`` 1
    when no pair differs). The pooled one-sided Fisher exact p, which counts every draw as independent, is kept
    beside it (``fisher_p_draws``)."""
    keys = [k for k in ("collection", "pair") if k in runs.columns]
    rows = []
    for m, part in runs.groupby("mechanism", sort=False):
        is_end = part["experiment"].isin(["remove_best", "remove_worst"])
        is_null = part["experiment"] == "remove_random_mid"
        ends, null = part.loc[is_end, "reordered"], part.loc[is_null, "reordered"]
        table = [[ends.sum(), (~ends).sum()], [null.sum(), (~null).sum()]]
        fisher = float(stats.fisher_exact(table, alternative="greater").pvalue) if len(ends) and len(null) else np.nan
        by_pair = (part[is_end].groupby(keys)["reordered"].mean()
                   - part[is_null].groupby(keys)["reordered"].mean()).dropna() if keys else pd.Series(dtype=float)
        differs = by_pair[by_pair != 0]
        p = (float(stats.wilcoxon(differs, alternative="greater").pvalue) if len(differs)
             else 1.0 if len(by_pair) else np.nan)
        rows.append({"mechanism": m, "ends_runs": len(ends), "ends_reordered": ends.mean(), "null_runs": len(null),
                     "null_reordered": null.mean(), "language_pairs": len(by_pair),
                     "pairs_ends_above": int((by_pair > 0).sum()), "pairs_ends_below": int((by_pair < 0).sum()),
                     "p_value": p, "fisher_p_draws": fisher})
    return pd.DataFrame(rows)


def wmt_values(summary: pd.DataFrame, null_test: pd.DataFrame) -> dict:
    """Study 2's claim values (a number, or a test with the number it compared); the null's only when drawn."""
    s = summary.set_index(["experiment", "mechanism"])["reordered"]
    z_ends, bt_ends = (s.loc[[("remove_best", m), ("remove_worst", m)]].mean() for m in ("z", "bt"))
    out = {"z_ends_reordered": z_ends, "bt_ends_reordered": bt_ends,
           "bt_more_stable_ends": (z_ends - bt_ends, bt_ends < z_ends)}
    if ("remove_random_mid", "z") in s.index:
        p = null_test.set_index("mechanism").loc["z", "p_value"]
        out |= {"z_null_reordered": s[("remove_random_mid", "z")], "bt_null_reordered": s[("remove_random_mid", "bt")],
                "z_ends_null_p": p, "z_ends_above_null": (p, z_ends > s[("remove_random_mid", "z")] and p < 0.05)}
    return out


def plot_wmt(summary: pd.DataFrame) -> plt.Figure:
    """Share of language pairs (draws for the null) whose remaining order changes, per perturbation and mechanism."""
    experiments = [e for e in EXPERIMENT_LABELS if e in set(summary["experiment"])]
    values = summary.set_index(["experiment", "mechanism"])["reordered"]
    z, bt = ([values.get((e, mech), np.nan) for e in experiments] for mech in ("z", "bt"))
    return plot_two_bars([EXPERIMENT_LABELS[e].replace(" removed", "\nremoved").replace(" (null)", "\n(null)")
                          for e in experiments], (z, "#888888", "z-score means (official)"),
                         (bt, MECHANISM_COLORS["bt"], "BT on paired preferences"),
                         "share of rankings whose\nremaining order changes")


def plot_two_bars(labels, left: tuple, right: tuple, ylabel: str) -> plt.Figure:
    """Two bars of shares (0 to 1) per label, ``left`` and ``right`` each (heights, colour, legend label)."""
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    x = np.arange(len(labels))
    for shift, (heights, color, label) in zip((-0.19, 0.19), (left, right)):
        ax.bar(x + shift, heights, width=0.38, color=color, label=label)
    ax.set_xticks(x, labels, fontsize=10)
    ax.set(ylabel=ylabel, ylim=(0, 1))
    ax.legend(fontsize=10, loc="upper right", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    ax.xaxis.grid(False)
    fig.tight_layout()
    return fig
