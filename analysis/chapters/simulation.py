"""Chapter ``01_synthetic_simulation``: the 2,880-setup simulation (Peyrard et al. 2021, §4, Appendix A.2, Fig. 3),
its alternative readings, Elo and TrueSkill on the same datasets, and tie policies on rounded scores."""

from __future__ import annotations

from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import aggregate, simulate, streams
from ..pairwise import bootstrap_summary, win_tie_matrices
from ..plotting import MECHANISM_COLORS, MECHANISM_LABELS, dodged_errorbars
from ..recorder import Outputs
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
    """Runs the simulation grid under one seed (so every run draws the very same datasets), timing each run
    (``timings``), and summarises runs into Fig. 3's panels with bootstrap intervals."""

    seed: int
    grid: dict
    n_datasets: int
    offset_scale: float
    n_resamples: int
    timings: Timings = field(default_factory=Timings)

    def run(self, label: str, names=PAPER, ties: str = "loss", **options) -> pd.DataFrame:
        """One grid run; ``ties="loss"`` by default, as the paper's code (the chapter reproduces it)."""
        with self.timings.measure(label):
            return simulate.run_grid(seed=self.seed, grid=self.grid, n_datasets=self.n_datasets,
                                     mechanism_names=list(names), offset_scale=self.offset_scale, ties=ties,
                                     **options)

    def panels(self, per_setup: pd.DataFrame, names=PAPER) -> pd.DataFrame:
        return simulate.summarise_panels(per_setup, list(names), rng=np.random.default_rng(self.seed),
                                         n_resamples=self.n_resamples)


def example_setup(seed: int, offset_scale: float) -> simulate.SimulatedSetup:
    """Three systems, three instance types, 30 instances, one outlier."""
    return simulate.simulate_setup(3, 30, 3, 0.025, rng=np.random.default_rng(seed), offset_scale=offset_scale)


def example_numbers(example: simulate.SimulatedSetup) -> dict:
    """The example's strongest system by λ, its wins against each of the two others, and each mechanism's first
    place (tied names joined by "and"), for the page."""
    wins, _ = win_tie_matrices(example.scores)
    best = example.latent.idxmax()
    others = [s for s in example.scores.columns if s != best]  # the example has three systems
    aggregates = example_aggregates(example).drop(columns="latent λ")

    def first(name: str) -> str:
        return " and ".join(aggregates.index[aggregates[name] == aggregates[name].max()])

    return {
        "example-best": best,
        "example-instances": len(example.scores),
        "example-other-1": others[0],
        "example-wins-1": int(wins.loc[best, others[0]]),
        "example-other-2": others[1],
        "example-wins-2": int(wins.loc[best, others[1]]),
        "example-first-mean": first("mean"),
        "example-first-median": first("median"),
        "example-first-bt": first("bt"),
    }


def plot_example_setup(example: simulate.SimulatedSetup) -> plt.Figure:
    n = len(example.scores)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    order = np.lexsort((np.arange(n), example.instance_type))  # by type, then by position
    for col in example.scores.columns:
        ax.plot(range(n), example.scores[col].to_numpy()[order], "o-", ms=4, lw=0.8,
                label=f"{col} (λ = {example.latent[col]:.2f})")
    for i in np.flatnonzero(example.outlier[order]):
        ax.axvspan(i - 0.4, i + 0.4, color="0.85", zorder=0)
    ax.set(xlabel="test instance, sorted by type (grey: an outlier)", ylabel="score")
    ax.legend(fontsize=9, loc="upper left")
    return fig


def example_aggregates(example: simulate.SimulatedSetup) -> pd.DataFrame:
    return pd.DataFrame({name: fn(example.scores) for name, fn in aggregate.mechanisms("loss", PAPER).items()}
                        | {"latent λ": example.latent})


def plot_fig3(summary: pd.DataFrame, names) -> plt.Figure:
    """Fig. 3's eight panels (a)-(h), two per row (the paper's figure has four): mean tau per x value with its 95%
    bootstrap interval, one line per mechanism, one legend on top."""
    fig, axes = plt.subplots(4, 2, figsize=(7.6, 9.8), sharey=True)
    for ax, (label, panel_title, _, x) in zip(axes.flat, simulate.FIG3_PANELS):
        part = summary[(summary.panel == label) & summary.mechanism.isin(names)]
        part = part.assign(order=part.mechanism.map({n: i for i, n in enumerate(names)}))
        dodged_errorbars(ax, part.sort_values(["order", "x_value"]), x="x_value", hue="mechanism", y="tau",
                         colors=MECHANISM_COLORS, labels=MECHANISM_LABELS, width=0.3)
        ax.set_xlabel(X_LABELS[x])
        ax.set_title(f"({label}) {panel_title}", fontsize=11)
    for ax in axes[:, 0]:
        ax.set_ylabel("Kendall's τ with λ")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, ncol=len(names), loc="upper center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.97), h_pad=1.2)
    return fig


def headline(per_setup: pd.DataFrame, names=PAPER) -> pd.DataFrame:
    """Mean tau per mechanism over each subset of setups (:data:`SUBSETS`)."""
    table = pd.DataFrame({k: per_setup.query(q)[[f"tau_{n}" for n in names]].mean() for k, q in SUBSETS.items()}).T
    table.columns = [MECHANISM_LABELS[n] for n in names]
    table.insert(0, "setups", [len(per_setup.query(q)) for q in SUBSETS.values()])
    return table


def run_reading(runner: GridRunner, out: Outputs, label: str, name: str, **options):
    """(per_setup, panels) of one grid run of the paper's mechanisms (a reading of the generator: ``options`` for
    :func:`analysis.simulate.run_grid`), saved as ``<name>_per_setup`` and ``<name>_summary``."""
    frame = out.table(runner.run(label, PAPER, **options), f"{name}_per_setup", index=False)
    return frame, out.table(runner.panels(frame), f"{name}_summary", index=False)


def _ends(summary: pd.DataFrame, panel: str) -> tuple:
    """A Fig. 3 panel's first and last x value, then its rows at each by mechanism (NaN where the panel is missing)."""
    part = summary[summary.panel == panel]
    xs = sorted(part.x_value.unique()) or [np.nan]
    return xs[0], xs[-1], *(part[part.x_value == x].set_index("mechanism").reindex(list(ALL)) for x in (xs[0], xs[-1]))


def _below(summary: pd.DataFrame, panel: str, name: str, above: bool = False) -> bool:
    """Whether the mechanism's 95% interval at the panel's last x value lies wholly below (``above``: above) its
    first one: the failure (improvement) §4 reads off Fig. 3; an interval that only moves is neither."""
    *_, first, last = _ends(summary, panel)
    lower, upper = (first, last) if above else (last, first)
    return bool(lower.loc[name, "high"] < upper.loc[name, "low"])


def mean_difference_interval(a, b, *, rng, n_resamples: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """``mean(a) − mean(b)`` and its percentile bootstrap interval, ``a`` and ``b`` resampled apart (two groups of
    setups, e.g. Fig. 3 (f)'s MEDIAN with types and outliers against types only)."""
    gen = check_rng(rng)
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if not len(a) or not len(b):
        return np.nan, np.nan, np.nan
    draws = (a[gen.integers(0, len(a), (n_resamples, len(a)))].mean(axis=1)
             - b[gen.integers(0, len(b), (n_resamples, len(b)))].mean(axis=1))
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(a.mean() - b.mean()), float(low), float(high)


def fig3_claim_values(summary: pd.DataFrame, per_setup: pd.DataFrame, reading: str, *, seed: int,
                      n_resamples: int) -> pd.DataFrame:
    """§4's reading of Fig. 3 as claim values, each key prefixed by the ``reading`` (``section4.ab-equal``): a change
    along a panel is read on its intervals (:func:`_below`); ``ab-equal``: the three intervals overlap. The
    differences of mean τ (``f-median-worse``, ``gh-bt-minus``) carry their 95% bootstrap interval over setups
    (``low``, ``high``; ``n_resamples`` resamples from the stream ``"fig3 intervals <reading>"`` of ``seed``)."""
    gen = streams.stream(seed, f"fig3 intervals {reading}")
    label, paper = MECHANISM_LABELS, summary[summary.mechanism.isin(PAPER)]
    rows = [("ab-equal", f"({panel}) {X_LABELS[x]} = {x_value:g}", np.nan, bool(g.low.max() <= g.high.min()))
            for panel, x in (("a", "n_systems"), ("b", "n_instances"))
            for x_value, g in paper[paper.panel == panel].groupby("x_value", sort=True)]
    for key, panel in (("b-improves", "b"), ("a-deteriorates", "a")):
        *_, first, last = _ends(summary, panel)
        rows += [(key, label[n], last.loc[n, "tau"] - first.loc[n, "tau"], None) for n in PAPER]
    for n in PAPER:
        rows += [("b-improves-interval", label[n], np.nan, _below(summary, "b", n, above=True)),
                 ("a-deteriorates-interval", label[n], np.nan, _below(summary, "a", n))]
    rows += [(f"{panel}-outliers", f"{label[n]} {'fails' if n == 'mean' else 'unaffected'}", np.nan,
              _below(summary, panel, n) == (n == "mean")) for panel in ("c", "e") for n in PAPER]
    types, both = (per_setup.query(SUBSETS[s]).tau_median for s in ("types only (d)", "types and outliers"))
    rows = [(*row, np.nan, np.nan) for row in rows]
    rows += [("d-median-fails", "MEDIAN", np.nan, _below(summary, "d", "median"), np.nan, np.nan)]
    worse, low, high = mean_difference_interval(both, types, rng=gen, n_resamples=n_resamples)
    rows += [("f-median-worse", "MEDIAN, types and outliers minus types only", worse, None, low, high)]
    for n in ("mean", "median"):
        diff = per_setup.assign(diff=per_setup.tau_bt - per_setup[f"tau_{n}"])
        interval = bootstrap_summary(diff, ["diff"], rng=gen, n_resamples=n_resamples).iloc[0]
        rows += [("gh-bt-minus", f"BT − {label[n]}", float(interval.estimate), None, float(interval.low),
                  float(interval.high))]
    frame = pd.DataFrame([*rows, ("setups", "all setups", len(per_setup), None, np.nan, np.nan)],
                         columns=["key", "detail", "value", "holds", "low", "high"])
    return frame.assign(key=reading + "." + frame["key"])


def readings(**runs: pd.DataFrame) -> pd.DataFrame:
    """One row per reading (keyword = its label): the mean τ of each paper mechanism over all setups."""
    table = pd.concat({label: headline(frame, PAPER).loc["all (g, h)"] for label, frame in runs.items()}, axis=1).T
    return table.astype({"setups": int})


def panel_ends(summary: pd.DataFrame, panel: str, names=PAPER) -> dict:
    """A panel's first and last x value and each mechanism's mean τ there, for the page."""
    x_first, x_last, first, last = _ends(summary, panel)
    return {"from": float(x_first), "to": float(x_last)} | {
        f"{n}-{end}": float(rows.loc[n, "tau"]) for n in names for end, rows in (("from", first), ("to", last))}


def sequential_numbers(runs: pd.DataFrame) -> dict:
    """Elo and TrueSkill against BT on the same setups (``runs``), for the page: BT's mean τ minus each one's, and
    each mechanism's change in mean τ from the easy cases to types only."""
    easy, types = runs.query(SUBSETS["easy (a, b)"]), runs.query(SUBSETS["types only (d)"])

    def change(name: str) -> float:
        return float(types[f"tau_{name}"].mean() - easy[f"tau_{name}"].mean())

    return {
        "seq-bt-minus-elo": float((runs.tau_bt - runs.tau_elo).mean()),
        "seq-bt-minus-trueskill": float((runs.tau_bt - runs.tau_trueskill).mean()),
        "seq-types-median": change("median"),
        "seq-types-bt": change("bt"),
        "seq-types-elo": change("elo"),
        "seq-types-trueskill": change("trueskill"),
    }


def join_runs(left: pd.DataFrame, right: pd.DataFrame, columns: list, suffixes=("_x", "_y")) -> pd.DataFrame:
    """Two grid runs of the same setups (one seed), one row per setup: ``left`` with ``right``'s ``columns``."""
    keys = list(simulate.GRID_KEYS)
    return left.merge(right[keys + columns], on=keys, suffixes=suffixes, validate="one_to_one")


def ties_summary(table: pd.DataFrame, *, rng, n_resamples: int) -> pd.DataFrame:
    """Per subset of setups: tie rate, mean τ of each mechanism and BT under both policies, and the mean
    difference half − loss with its 95% bootstrap interval."""
    gen = check_rng(rng)
    rows = {}
    for label, query in SUBSETS.items():
        part = table.query(query).assign(diff=lambda t: t.tau_bt_half - t.tau_bt_loss)
        diff = bootstrap_summary(part, ["diff"], rng=gen, n_resamples=n_resamples).iloc[0]
        rows[label] = [*part[["tie_rate", "tau_mean", "tau_median", "tau_bt_loss", "tau_bt_half"]].mean(),
                       *diff[["estimate", "low", "high"]]]
    columns = ["tie rate", "MEAN", "MEDIAN", "BT ties=loss", "BT ties=half", "half − loss", "95% low", "95% high"]
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)
