"""Chapter ``01_synthetic_simulation``: the 2,880-setup simulation (Peyrard et al. 2021, §4, Appendix A.2, Fig. 3),
its alternative readings, Elo and TrueSkill on the same datasets, and tie policies on rounded scores."""

from __future__ import annotations

from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import aggregate, simulate
from ..pairwise import bootstrap_summary, win_tie_matrices
from ..plotting import MECHANISM_COLORS, MECHANISM_LABELS, Outputs, dodged_errorbars, show
from ..validation import check_rng
from .common import SEED, Param, Timings

CHAPTER = "01_synthetic_simulation"
PARAMETERS = {
    "seed": SEED,
    "n_types": Param("int", low=1, many=True, quick=[1, 3]),
    "outlier_fractions": Param("number", low=0, high=1, high_open=True, many=True, quick=[0.0, 0.025]),
    "n_systems": Param("int", low=2, many=True, quick=[3, 10]),
    "n_instances": Param("int", low=2, many=True, quick=[10, 30]),
    "n_datasets": Param("int", low=1, quick=3),
    "n_resamples": Param("int", low=1, quick=200),
    "offset_scale": Param("number", low=0),
    "tie_resolution": Param("number", low=0, low_open=True),
}
PAPER = ("mean", "median", "bt")
ALL = PAPER + ("elo", "trueskill")
X_LABELS = {
    "n_systems": "number of systems",
    "n_instances": "number of test instances",
    "outlier_fraction": "fraction of outliers f",
    "n_types": "number of instance types",
}
#: The distinct setup subsets behind the eight panels (e and f mix the last two rows with the others).
SUBSETS = {
    "easy (a, b)": "n_types == 1 and outlier_fraction == 0",
    "outliers only (c)": "n_types == 1 and outlier_fraction > 0",
    "types only (d)": "n_types > 1 and outlier_fraction == 0",
    "types and outliers": "n_types > 1 and outlier_fraction > 0",
    "all (g, h)": "index == index",
}


@dataclass
class GridRunner:
    """Runs the simulation grid under one seed (so every run draws the very same datasets), timing each run, and
    summarises runs into Fig. 3's panels with bootstrap intervals."""

    seed: int
    grid: dict
    n_datasets: int
    offset_scale: float
    n_resamples: int
    timings: Timings = field(default_factory=Timings)

    @property
    def n_setups(self) -> int:
        return int(np.prod([len(v) for v in self.grid.values()])) * self.n_datasets

    def run(self, label: str, names=PAPER, ties: str = "loss", **options) -> pd.DataFrame:
        """One grid run; ``ties="loss"`` by default, as the paper's code (the chapter reproduces it)."""
        with self.timings.measure(label):
            return simulate.run_grid(seed=self.seed, grid=self.grid, n_datasets=self.n_datasets,
                                     mechanism_names=list(names), offset_scale=self.offset_scale, ties=ties,
                                     **options)

    def panels(self, per_setup: pd.DataFrame, names=PAPER) -> pd.DataFrame:
        return simulate.summarise_panels(per_setup, list(names), rng=np.random.default_rng(self.seed),
                                         n_resamples=self.n_resamples)

    def timing_table(self) -> pd.DataFrame:
        table = self.timings.table()
        table["setups"] = self.n_setups
        return table


def example_setup(seed: int, offset_scale: float) -> simulate.SimulatedSetup:
    """Three systems, three instance types, 30 instances, one outlier."""
    return simulate.simulate_setup(3, 30, 3, 0.025, rng=np.random.default_rng(seed), offset_scale=offset_scale)


def example_story(example: simulate.SimulatedSetup) -> str:
    """What the example shows, computed: each system's wins against the others and which system each mechanism and
    the latent strengths put first."""
    wins, _ = win_tie_matrices(example.scores)
    n = len(example.scores)
    best = example.latent.idxmax()
    others = [s for s in example.scores.columns if s != best]
    aggregates = example_aggregates(example)
    firsts = {name: aggregates[name][aggregates[name] == aggregates[name].max()].index.tolist()
              for name in aggregates.columns if name != "latent λ"}
    said = "; ".join(f"{name.upper()}: {' and '.join(top) + (' (tied)' if len(top) > 1 else '')}"
                     for name, top in firsts.items())
    return (f"The strongest system by the latent λ, {best}, wins "
            + " and ".join(f"{wins.loc[best, o]} of {n} instances against {o}" for o in others)
            + f". First place — {said}. One small setup is noisy; Fig. 3 averages thousands.")


def plot_example_setup(example: simulate.SimulatedSetup) -> plt.Figure:
    n = len(example.scores)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    order = np.lexsort((np.arange(n), example.instance_type))  # by type, then by position
    for col in example.scores.columns:
        ax.plot(range(n), example.scores[col].to_numpy()[order], "o-", ms=4, lw=0.8,
                label=f"{col} (λ = {example.latent[col]:.2f})")
    for i in np.flatnonzero(example.outlier[order]):
        ax.axvspan(i - 0.4, i + 0.4, color="0.85", zorder=0)
    ax.set_xlabel("test instance (sorted by type; grey: outlier)")
    ax.set_ylabel("score")
    ax.legend(fontsize=8, loc="upper left")
    return fig


def example_aggregates(example: simulate.SimulatedSetup) -> pd.DataFrame:
    return pd.DataFrame({name: fn(example.scores) for name, fn in aggregate.mechanisms("loss", PAPER).items()}
                        | {"latent λ": example.latent})


def plot_fig3(summary: pd.DataFrame, names, title: str) -> plt.Figure:
    """Eight panels (a)-(h): mean tau per x value with its 95% bootstrap interval, one line per mechanism."""
    fig, axes = plt.subplots(2, 4, figsize=(12, 6.5), sharey=True)
    for ax, (label, panel_title, _, x) in zip(axes.flat, simulate.FIG3_PANELS):
        part = summary[(summary.panel == label) & summary.mechanism.isin(names)]
        part = part.assign(order=part.mechanism.map({n: i for i, n in enumerate(names)}))
        dodged_errorbars(ax, part.sort_values(["order", "x_value"]), x="x_value", hue="mechanism", y="tau",
                         colors=MECHANISM_COLORS, labels=MECHANISM_LABELS, width=0.3)
        ax.set_xlabel(X_LABELS[x])
        ax.set_title(f"({label}) {panel_title}", fontsize=11)
    for ax in axes[:, 0]:
        ax.set_ylabel("Kendall's τ with the latent λ")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.suptitle(title, y=1.0)
    fig.legend(handles, labels, ncol=len(names), loc="upper center", bbox_to_anchor=(0.5, 0.975), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.955))
    return fig


def headline(per_setup: pd.DataFrame, names=PAPER) -> pd.DataFrame:
    """Mean tau per mechanism over each subset of setups (:data:`SUBSETS`)."""
    rows = {k: per_setup.query(q)[[f"tau_{n}" for n in names]].mean() for k, q in SUBSETS.items()}
    table = pd.DataFrame(rows).T
    table.columns = [MECHANISM_LABELS[n] for n in names]
    table.insert(0, "setups", [len(per_setup.query(q)) for q in SUBSETS.values()])
    return table


def report(out: Outputs, per_setup: pd.DataFrame, panels: pd.DataFrame, names, title: str, name: str,
           headline_name: str | None = None, plotted=None) -> pd.DataFrame:
    """Save and show one Fig. 3 (of the mechanisms ``plotted``, default ``names``), then show the headline table of
    ``names`` on its setups (saved too when ``headline_name``)."""
    out.figure(plot_fig3(panels, plotted or names, title), name)
    table = headline(per_setup, names)
    if headline_name:
        out.table(table, headline_name)
    show(table)
    return table


def variant(out: Outputs, runner: GridRunner, label: str, name: str, title: str, **options):
    """One alternative reading: run the grid, save its per-setup and panel tables and its Fig. 3, show its
    headline table. Returns (per_setup, panels)."""
    frame = out.table(runner.run(label, PAPER, **options), f"{name}_per_setup", index=False)
    panels = out.table(runner.panels(frame), f"{name}_summary", index=False)
    report(out, frame, panels, PAPER, title, name)
    return frame, panels


def _at(summary: pd.DataFrame, panel: str, x_value, name: str) -> float:
    rows = summary[(summary.panel == panel) & (summary.x_value == x_value) & (summary.mechanism == name)]
    return float(rows.tau.iloc[0])


def claims(summary: pd.DataFrame) -> str:
    """The text's two claims, with this run's numbers: τ from no outliers to the most (panel c) and from one type
    to the most (panel d), per mechanism."""
    c_values = sorted(summary[summary.panel == "c"].x_value.unique())
    d_values = sorted(summary[summary.panel == "d"].x_value.unique())
    f_max, t_max = c_values[-1], d_values[-1]
    c = {n: _at(summary, "c", f_max, n) for n in PAPER}
    c0 = {n: _at(summary, "c", c_values[0], n) for n in PAPER}
    d = {n: _at(summary, "d", t_max, n) for n in PAPER}
    d1 = {n: _at(summary, "d", d_values[0], n) for n in PAPER}
    return (
        f"* **Outliers only (c).** From *f* = {c_values[0]:g} to *f* = {f_max:g}, MEAN goes from τ = "
        f"{c0['mean']:.3f} to {c['mean']:.3f}, MEDIAN from {c0['median']:.3f} to {c['median']:.3f}, BT from "
        f"{c0['bt']:.3f} to {c['bt']:.3f}.\n"
        f"* **Types only (d).** From {d_values[0]:g} to {t_max:g} types, MEAN goes from {d1['mean']:.3f} to "
        f"{d['mean']:.3f}, MEDIAN from {d1['median']:.3f} to {d['median']:.3f}, BT from {d1['bt']:.3f} to "
        f"{d['bt']:.3f}."
    )


def readings(**runs: pd.DataFrame) -> pd.DataFrame:
    """One row per reading (keyword = its label): the mean τ of each paper mechanism over all setups."""
    table = pd.concat({label: headline(frame, PAPER).loc["all (g, h)"] for label, frame in runs.items()}, axis=1).T
    return table.astype({"setups": int})


def best_mechanism(table: pd.DataFrame) -> dict[str, str]:
    return {k: r[[MECHANISM_LABELS[n] for n in PAPER]].astype(float).idxmax() for k, r in table.iterrows()}


def with_sequential(per_setup: pd.DataFrame, sequential: pd.DataFrame) -> pd.DataFrame:
    """The paper mechanisms' per-setup τ joined with Elo's and TrueSkill's on the same setups."""
    keys = list(simulate.GRID_KEYS)
    return per_setup.merge(sequential[keys + ["tau_elo", "tau_trueskill"]], on=keys, validate="one_to_one")


def ties_table(tied_loss: pd.DataFrame, tied_half: pd.DataFrame) -> pd.DataFrame:
    """Rounded-score runs under ``ties="loss"`` (all paper mechanisms) and ``"half"`` (BT), one row per setup."""
    keys = list(simulate.GRID_KEYS)
    return tied_loss.rename(columns={"tau_bt": "tau_bt_loss"}).merge(
        tied_half[keys + ["tau_bt"]].rename(columns={"tau_bt": "tau_bt_half"}), on=keys, validate="one_to_one")


def ties_summary(table: pd.DataFrame, *, rng, n_resamples: int) -> pd.DataFrame:
    """Per subset of setups: tie rate, mean τ of each mechanism and BT under both policies, and the mean
    difference half − loss with its 95% bootstrap interval."""
    gen = check_rng(rng)
    rows = {}
    for label, query in SUBSETS.items():
        part = table.query(query)
        diff = bootstrap_summary(pd.DataFrame({"diff": part.tau_bt_half - part.tau_bt_loss}), ["diff"], rng=gen,
                                 n_resamples=n_resamples).iloc[0]
        rows[label] = {
            "tie rate": part.tie_rate.mean(),
            "MEAN": part.tau_mean.mean(),
            "MEDIAN": part.tau_median.mean(),
            "BT ties=loss": part.tau_bt_loss.mean(),
            "BT ties=half": part.tau_bt_half.mean(),
            "half − loss": diff["estimate"],
            "95% low": diff["low"],
            "95% high": diff["high"],
        }
    return pd.DataFrame(rows).T
