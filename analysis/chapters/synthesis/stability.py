"""Study 1 — stability against robustness (Knowles 2021 × Peyrard et al. 2021).

Knowles' remove-the-best / remove-the-worst test and Appendix F's IIA search, with every mechanism on the paired
chapter's real setups, beside each mechanism's τ and outlier robustness in a small re-run of the paired simulation.
MEAN and MEDIAN score each system alone, so neither test can reorder the others: their rows are a sanity line."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import aggregate, comparisons, simulate
from ...agreement import order_changes
from ...plotting import MECHANISM_COLORS, MECHANISM_LABELS
from ...validation import check_rng

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
#: mechanisms that score a system alone: removing or adding another system cannot change their order of the rest
ALONE = ("mean", "median")
#: mechanisms that compare systems with each other (they can reorder the rest when a system is removed)
PAIRWISE = ("bt", "elo", "trueskill")
KEYS = ["collection", "dataset", "metric"]
#: the small simulation grid (a corner of the paired paper's Appendix A.2 grid)
SIM_GRID = {"n_types": (1, 5), "outlier_fraction": (0.0, 0.025), "n_systems": (5, 10), "n_instances": (30, 100)}


def remove_one(matrix: pd.DataFrame, fns: dict) -> list[dict]:
    """Knowles' test for each mechanism of ``fns`` on one score matrix: remove the mechanism's own best, then its
    own worst system, aggregate the rest again, and count the pairs of remaining systems now ordered differently."""
    rows = []
    for name, fn in fns.items():
        full = fn(matrix)
        for which, system in (("best", full.idxmax()), ("worst", full.idxmin())):
            rest = matrix.drop(columns=system)
            k = rest.shape[1]
            changed = order_changes(full, fn(rest)) if k >= 2 else 0
            rows.append({"mechanism": name, "removed": which, "pairs": k * (k - 1) // 2, "pairs_reordered": changed,
                         "reordered": changed > 0})
    return rows


def iia_checks(matrix: pd.DataFrame, fns: dict, n_triples: int, rng) -> list[dict]:
    """Appendix F's question on ``n_triples`` random triples of systems (each system once the third): does adding
    it change the mechanism's order of the other two? Pairs tied alone are not counted (as in App. F). BT is decided
    from the win counts (on a balanced design it orders systems by wins); the others are run on pair and triple."""
    gen = check_rng(rng)
    k = matrix.shape[1]
    if k < 3:
        return []
    triples = np.array(list(itertools.combinations(range(k), 3)))
    if len(triples) > n_triples:
        triples = triples[np.sort(gen.choice(len(triples), size=n_triples, replace=False))]
    wins = comparisons.win_matrix(comparisons.from_scores(matrix), "half")
    a, b, c = (triples[:, column].ravel() for column in ([0, 0, 1], [1, 2, 2], [2, 1, 0]))  # each once the third
    rows = []
    for name, fn in fns.items():
        if name == "bt":
            alone = np.sign(wins[a, b] - wins[b, a])
            together = np.sign(wins[a, b] + wins[a, c] - wins[b, a] - wins[b, c])
        else:
            signs = [(np.sign(pair[x] - pair[y]), np.sign(trio[x] - trio[y])) for i, j, m in zip(a, b, c)
                     for x, y in [matrix.columns[[i, j]]]  # fn on the pair and on the triple, in column order
                     for pair, trio in [(fn(matrix.iloc[:, [i, j]]), fn(matrix.iloc[:, sorted((i, j, m))]))]]
            alone, together = np.array(signs).T
        counted = alone != 0
        rows.append({"mechanism": name, "checks": int(counted.sum()),
                     "violations": int((counted & (together != alone)).sum())})
    return rows


def real_setup_tests(setups, n_triples: int, rng, mechanisms=MECHANISMS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(remove-one rows, IIA rows) for every setup, with the setup's keys."""
    gen = check_rng(rng)
    fns = aggregate.mechanisms("half", mechanisms)
    heads = [(dict(zip(KEYS, key)) | {"systems": matrix.shape[1], "instances": matrix.shape[0]}, matrix)
             for key, matrix in setups]
    return (pd.DataFrame([head | row for head, matrix in heads for row in remove_one(matrix, fns)]),
            pd.DataFrame([head | row for head, matrix in heads for row in iia_checks(matrix, fns, n_triples, gen)]))


def simulation(seed: int, n_datasets: int, grid=SIM_GRID, mechanisms=MECHANISMS) -> pd.DataFrame:
    """The paired paper's simulation on a small grid, every mechanism, ties as half, one row per setup under each
    outlier model (the text's permuted scores, the code's adversarial ones; the clean cells are the same draws)."""
    return pd.concat([simulate.run_grid(seed=seed, grid=grid, n_datasets=n_datasets, mechanism_names=mechanisms,
                                        ties="half", outliers=model).assign(outliers=model)
                      for model in simulate.OUTLIER_MODELS], ignore_index=True)


def tradeoff(removal: pd.DataFrame, iia: pd.DataFrame, sim: pd.DataFrame, mechanisms=MECHANISMS) -> pd.DataFrame:
    """Per mechanism: the share of setups reordered by removing the best / the worst system, of IIA checks violated,
    the simulation's mean τ without outliers and the τ the most outliers cost (``tau_drop``: adversarial ones)."""
    frame = removal.groupby(["mechanism", "removed"])["reordered"].mean().unstack().reindex(list(mechanisms))
    frame.columns = ["reordered_best", "reordered_worst"]
    viol = iia.groupby("mechanism")[["violations", "checks"]].sum().reindex(list(mechanisms))
    frame["iia_violation_share"] = viol["violations"] / viol["checks"].where(viol["checks"] > 0)
    low, high = sim["outlier_fraction"].min(), sim["outlier_fraction"].max()
    clean = sim[(sim.outlier_fraction == low) & (sim.outliers == sim.outliers.iloc[0])]
    frame["tau_clean"] = [clean[f"tau_{m}"].mean() for m in mechanisms]
    for model, part in sim[sim.outlier_fraction == high].groupby("outliers", sort=False):
        frame[f"tau_drop_{model}"] = frame["tau_clean"] - [part[f"tau_{m}"].mean() for m in mechanisms]
    frame["tau_drop"] = frame.get("tau_drop_adversarial", np.nan)
    frame["scores_alone"] = frame.index.isin(ALONE)
    frame["reordered_any"] = frame[["reordered_best", "reordered_worst"]].mean(axis=1)
    return frame.reset_index()


def stability_values(trade: pd.DataFrame) -> dict:
    """Study 1's claim values: a number, or a test with the number it compared. The sanity line, MEAN and MEDIAN
    never reordering the others when a system is removed (each scores a system on its own column), is a check of the
    code, not a hypothesis: a nonzero share stops the chapter here."""
    t = trade.set_index("mechanism")
    alone = t.loc[list(ALONE), ["reordered_best", "reordered_worst"]].max().max()
    if alone != 0:
        raise ValueError(f"MEAN or MEDIAN reordered the remaining systems in {alone:.1%} of the setups: a mechanism "
                         "that scores each system on its own column cannot, so this is a bug")
    pairwise = t.loc[list(PAIRWISE), "reordered_any"]
    others, drop = pairwise.drop("bt"), t["tau_drop"]
    return {"alone_reordered_max": alone,
            "bt_reordered": t.loc["bt", "reordered_any"],
            "bt_most_stable_pairwise": (others.min() - pairwise["bt"], (others > pairwise["bt"]).all()),
            "bt_iia_share": t.loc["bt", "iia_violation_share"],
            "bt_tau_drop": t.loc["bt", "tau_drop"], "mean_tau_drop": t.loc["mean", "tau_drop"],
            "bt_tau_drop_permute": t.loc["bt", "tau_drop_permute"],
            "mean_tau_drop_permute": t.loc["mean", "tau_drop_permute"],
            "bt_more_robust_than_mean": (drop["mean"] - drop["bt"], drop["bt"] < drop["mean"])}


#: label offsets (points) and alignment: Elo and TrueSkill often sit close together, so Elo's label goes below-left
LABEL_AT = {"elo": ((-6, -13), "right"), "trueskill": ((6, 4), "left"), "median": ((6, -13), "left")}


def plot_tradeoff(table: pd.DataFrame) -> plt.Figure:
    """(a) reordering after removing a system against τ to the latent ranking; (b) against the τ lost to outliers."""
    fig, axes = plt.subplots(1, 2, figsize=(7.6, 3.6), sharex=True)
    for ax, column, title in ((axes[0], "tau_clean", "(a) agreement with the truth"),
                              (axes[1], "tau_drop", "(b) τ lost to adversarial outliers")):
        for row in table.itertuples():
            ax.scatter(row.reordered_any, getattr(row, column), s=60, color=MECHANISM_COLORS[row.mechanism],
                       marker="s" if row.scores_alone else "o", zorder=3)
            offset, align = LABEL_AT.get(row.mechanism, ((6, 4), "left"))
            ax.annotate(MECHANISM_LABELS[row.mechanism], (row.reordered_any, getattr(row, column)),
                        xytext=offset, textcoords="offset points", fontsize=10, ha=align)
        ax.margins(y=0.15)
        ax.set_title(title, fontsize=11)
        ax.set_xlabel("setups reordered by removing\nthe best or the worst system")
        ax.grid(alpha=0.3)
    axes[0].set(ylabel="Kendall τ to the latent ranking\n(simulation, no outliers)", xlim=(-0.05, 1.0))
    axes[1].set_ylabel("τ without − τ with outliers\n(lower is more robust)")
    fig.tight_layout()
    return fig
