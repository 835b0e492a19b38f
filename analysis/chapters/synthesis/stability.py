"""Study 1 — stability against robustness (Knowles 2021 × Peyrard et al. 2021).

Knowles' remove-the-best / remove-the-worst test and Appendix F's search for independence-of-irrelevant-alternatives
(IIA) violations, both run with every mechanism on every real setup of the paired chapter, beside each mechanism's
agreement with the latent ranking and its robustness to outliers in a small re-run of the paired paper's simulation.

MEAN and MEDIAN score each system alone, so neither test can reorder the other systems under them: their rows are
computed like every other one and serve as a sanity line.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import aggregate, comparisons, simulate
from ...agreement import order_changes
from ...plotting import MECHANISM_COLORS, MECHANISM_LABELS
from ...validation import check_count, check_rng

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
    """Appendix F's question for every mechanism on the same ``n_triples`` random triples of systems (all of them
    when there are fewer): does adding the third system change the mechanism's order of the other two? Each triple
    gives three checks (each system once the irrelevant alternative); a pair tied when alone is not counted (as in
    Appendix F). BT is decided exactly from the win counts (a balanced design: BT orders systems by their total
    wins); the other mechanisms are run on the pair and on the triple."""
    gen = check_rng(rng)
    k = matrix.shape[1]
    if k < 3:
        return []
    triples = np.array(list(itertools.combinations(range(k), 3)))
    if len(triples) > check_count(n_triples, "n_triples"):
        triples = triples[np.sort(gen.choice(len(triples), size=n_triples, replace=False))]
    wins = comparisons.win_matrix(comparisons.from_scores(matrix), "half")
    rows = []
    checks = [(t[x], t[y], t[z]) for t in triples for x, y, z in ((0, 1, 2), (0, 2, 1), (1, 2, 0))]
    a, b, c = (np.array(v) for v in zip(*checks))
    for name, fn in fns.items():
        if name == "bt":
            alone = np.sign(wins[a, b] - wins[b, a])
            together = np.sign(wins[a, b] + wins[a, c] - wins[b, a] - wins[b, c])
        else:
            alone, together = np.zeros(len(a)), np.zeros(len(a))
            for n, (i, j, m) in enumerate(checks):
                pair = fn(matrix.iloc[:, [i, j]]).to_numpy()
                order = sorted((i, j, m))  # the triple in column order, as the mechanism sees it in the setup
                trio = fn(matrix.iloc[:, order]).to_numpy()
                alone[n] = np.sign(pair[0] - pair[1])
                together[n] = np.sign(trio[order.index(i)] - trio[order.index(j)])
        counted = alone != 0
        rows.append({"mechanism": name, "checks": int(counted.sum()),
                     "violations": int((counted & (together != alone)).sum())})
    return rows


def real_setup_tests(setups, n_triples: int, rng, mechanisms=MECHANISMS) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(remove-one rows, IIA rows): one row per setup, mechanism (and removed system) with the setup's keys."""
    gen = check_rng(rng)
    fns = aggregate.mechanisms("half", mechanisms)
    removal, iia = [], []
    for key, matrix in setups:
        head = dict(zip(KEYS, key)) | {"systems": matrix.shape[1], "instances": matrix.shape[0]}
        removal += [head | row for row in remove_one(matrix, fns)]
        iia += [head | row for row in iia_checks(matrix, fns, n_triples, gen)]
    return pd.DataFrame(removal), pd.DataFrame(iia)


def simulation(seed: int, n_datasets: int, grid=SIM_GRID, mechanisms=MECHANISMS) -> pd.DataFrame:
    """The paired paper's simulation (:func:`analysis.simulate.run_grid`) on a small grid, every mechanism, ties
    as half, under both outlier models (the text's permuted scores and the published code's adversarial ones; the
    clean cells are the same draws): one row per simulated setup and outlier model with ``tau_<mechanism>``."""
    n_datasets = check_count(n_datasets, "n_datasets")
    return pd.concat([simulate.run_grid(seed=seed, grid=grid, n_datasets=n_datasets, mechanism_names=mechanisms,
                                        ties="half", outliers=model).assign(outliers=model)
                      for model in simulate.OUTLIER_MODELS], ignore_index=True)


def tradeoff(removal: pd.DataFrame, iia: pd.DataFrame, sim: pd.DataFrame, mechanisms=MECHANISMS) -> pd.DataFrame:
    """One row per mechanism: the share of setups whose remaining order changes when the best / the worst system is
    removed, the share of IIA checks violated, the mean Kendall τ to the latent ranking in the simulation without
    outliers, and what the most outliers cost it under each outlier model (``tau_drop_<model>``; ``tau_drop`` is
    the adversarial one; smaller is more robust)."""
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
    """Study 1's values for the claims registry (``data/published/claims/synthesis.toml``): a number, or a test with
    the number it compared."""
    t = trade.set_index("mechanism")
    pairwise = t.loc[list(PAIRWISE), "reordered_any"]
    others, drop = pairwise.drop("bt"), t["tau_drop"]
    drops = {f"{m}_{c}": t.loc[m, c] for c in ("tau_drop", "tau_drop_permute") for m in ("bt", "mean")}
    return {"alone_reordered_max": t.loc[list(ALONE), ["reordered_best", "reordered_worst"]].max().max(),
            "bt_reordered": t.loc["bt", "reordered_any"],
            "bt_most_stable_pairwise": (others.min() - pairwise["bt"], (others > pairwise["bt"]).all()),
            "bt_iia_share": t.loc["bt", "iia_violation_share"], **drops,
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
    axes[0].set_ylabel("Kendall τ to the latent ranking\n(simulation, no outliers)")
    axes[1].set_ylabel("τ without − τ with outliers\n(lower is more robust)")
    axes[0].set_xlim(-0.05, 1.0)
    fig.tight_layout()
    return fig
