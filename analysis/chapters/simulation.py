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
            + f". First place — {said}.")


def plot_example_setup(example: simulate.SimulatedSetup) -> plt.Figure:
    n = len(example.scores)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    order = np.lexsort((np.arange(n), example.instance_type))  # by type, then by position
    for col in example.scores.columns:
        ax.plot(range(n), example.scores[col].to_numpy()[order], "o-", ms=4, lw=0.8,
                label=f"{col} (λ = {example.latent[col]:.2f})")
    for i in np.flatnonzero(example.outlier[order]):
        ax.axvspan(i - 0.4, i + 0.4, color="0.85", zorder=0)
    ax.set_xlabel("test instance, sorted by type (grey: an outlier)")
    ax.set_ylabel("score")
    ax.legend(fontsize=9, loc="upper left")
    return fig


def example_caption(example: simulate.SimulatedSetup) -> str:
    """The example setup's caption, its sizes computed from the setup."""
    n, k = example.scores.shape
    types, outliers = len(np.unique(example.instance_type)), int(example.outlier.sum())
    return (f"Scores of {k} simulated systems on {n} test instances of {types} types, sorted by type, with "
            f"{outliers} outlier instance{'s' if outliers != 1 else ''} shaded grey; each system's latent strength λ "
            "in the legend.\n\n"
            "One setup of Section 4's generator, drawn from this run's seeded random stream; not a figure of the paper.")


def example_aggregates(example: simulate.SimulatedSetup) -> pd.DataFrame:
    return pd.DataFrame({name: fn(example.scores) for name, fn in aggregate.mechanisms("loss", PAPER).items()}
                        | {"latent λ": example.latent})


def plot_fig3(summary: pd.DataFrame, names) -> plt.Figure:
    """Fig. 3's eight panels (a)-(h), two per row (the paper's figure has four): mean tau per x value with its 95%
    bootstrap interval, one line per mechanism, one legend on top; the caption is :func:`fig3_caption`."""
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


#: what each reading of the generator is, for :func:`fig3_caption` (the notebook's labels of the grid runs)
READINGS = {
    "section4": "Section 4's generator (type offsets shared by all systems) with the text's outliers (scores permuted "
                "among the systems)",
    "code-outliers": "Section 4's generator with the outliers of the paper's published code {cite:p}`peyrard2021bteval` "
                     "(rows of 100·U[0, 1] scores that rank the systems against their latent order) in place of the "
                     "permuted ones",
    "appendix-a2": "Appendix A.2's generator read literally (latent strengths drawn per instance type and system; the "
                   "truth is each system's expected score) with the text's outliers",
}


def fig3_caption(reading: str, per_setup: pd.DataFrame, names, n_resamples: int, reference: str | None = None) -> str:
    """A Fig. 3 caption: the mechanisms plotted, the reading of the generator (:data:`READINGS`), the number of
    setups and of bootstrap resamples (computed), and how the figure differs from the paper's. ``reference``: the
    label of the main Fig. 3, for the variants."""
    shown = [MECHANISM_LABELS[n] for n in names]
    listed = ", ".join(shown[:-1]) + " and " + shown[-1]
    extra = [n for n in names if n not in PAPER]
    first = (f"Kendall's τ between the latent system strengths λ and the rankings by {listed} on {len(per_setup):,} "
             f"simulated setups: {READINGS[reading]}.")
    legend = ["Panels (a)–(h) are the paper's (the setups each averages are named in its title); a point is the mean "
              f"τ over the panel's setups at one x value, the bars 95% percentile-bootstrap intervals over those "
              f"setups ({n_resamples:,} resamples)."]
    if extra:
        legend.append("Not in the paper, which applies " + " and ".join(MECHANISM_LABELS[n] for n in extra)
                      + " to real data only (its Appendices G and H); the setups are the very datasets of "
                      + (f"{{numref}}`{reference}`" if reference else "the paper's Fig. 3") + ", same seeds.")
    elif reference:
        legend.append(f"The same seeds and datasets as {{numref}}`{reference}`; only the generator's reading differs.")
    legend.append("Simulated here on the paper's grid, as its own draws are not published; two panels per row where "
                  "the paper has four, and bootstrap intervals where its code draws a multiple of the standard error.")
    return first + "\n\n" + " ".join(legend)


def headline(per_setup: pd.DataFrame, names=PAPER) -> pd.DataFrame:
    """Mean tau per mechanism over each subset of setups (:data:`SUBSETS`)."""
    rows = {k: per_setup.query(q)[[f"tau_{n}" for n in names]].mean() for k, q in SUBSETS.items()}
    table = pd.DataFrame(rows).T
    table.columns = [MECHANISM_LABELS[n] for n in names]
    table.insert(0, "setups", [len(per_setup.query(q)) for q in SUBSETS.values()])
    return table


def report(out: Outputs, per_setup: pd.DataFrame, panels: pd.DataFrame, names, caption: str, name: str,
           headline_name: str | None = None, plotted=None) -> pd.DataFrame:
    """Save and show one Fig. 3 (of the mechanisms ``plotted``, default ``names``) with its ``caption``, then show
    the headline table of ``names`` on its setups (saved too when ``headline_name``)."""
    out.figure(plot_fig3(panels, plotted or names), name, caption)
    table = headline(per_setup, names)
    if headline_name:
        out.table(table, headline_name)
    show(table)
    return table


def variant(out: Outputs, runner: GridRunner, label: str, name: str, reading: str, reference: str, **options):
    """One alternative reading (a key of :data:`READINGS`): run the grid, save its per-setup and panel tables and
    its Fig. 3 (captioned against the main one, labelled ``reference``), show its headline table. Returns
    (per_setup, panels)."""
    frame = out.table(runner.run(label, PAPER, **options), f"{name}_per_setup", index=False)
    panels = out.table(runner.panels(frame), f"{name}_summary", index=False)
    report(out, frame, panels, PAPER, fig3_caption(reading, frame, PAPER, runner.n_resamples, reference), name)
    return frame, panels


def _at(summary: pd.DataFrame, panel: str, x_value, name: str, column: str = "tau") -> float:
    rows = summary[(summary.panel == panel) & (summary.x_value == x_value) & (summary.mechanism == name)]
    return float(rows[column].iloc[0]) if len(rows) else float("nan")


def _ends(summary: pd.DataFrame, panel: str) -> tuple:
    values = sorted(summary[summary.panel == panel].x_value.unique())
    return (values[0], values[-1]) if values else (np.nan, np.nan)


def _below(summary: pd.DataFrame, panel: str, name: str) -> bool:
    """Whether the mechanism's 95% interval at the panel's last x value lies entirely below its interval at the
    first one: the failure the paper's text reads off Fig. 3 (an interval that only moves is not a failure)."""
    first, last = _ends(summary, panel)
    return bool(_at(summary, panel, last, name, "high") < _at(summary, panel, first, name, "low"))


def fig3_claim_values(summary: pd.DataFrame, per_setup: pd.DataFrame, reading: str) -> pd.DataFrame:
    """§4's reading of Fig. 3 as numbers and tests, one row per (key, detail), for the claims registry:
    ``ab-equal`` (per x of panels a, b: the three intervals overlap), ``b-improves`` / ``a-deteriorates`` (τ at the
    largest minus the smallest x), ``c-outliers`` (MEAN fails, MEDIAN and BT do not), ``d-median-fails``,
    ``f-median-worse`` (MEDIAN's mean τ with types and outliers minus with types only), ``gh-bt-minus`` (BT's mean
    τ minus MEAN's and MEDIAN's over all setups) and ``setups``."""
    rows = []

    def add(key, detail, value=np.nan, holds=None):
        rows.append({"reading": reading, "key": key, "detail": detail, "value": value, "holds": holds})

    paper = summary[summary.mechanism.isin(PAPER)]
    for panel, x in (("a", "n_systems"), ("b", "n_instances")):
        for x_value, g in paper[paper.panel == panel].groupby("x_value", sort=True):
            add("ab-equal", f"({panel}) {X_LABELS[x]} = {x_value:g}", holds=bool(g.low.max() <= g.high.min()))
    for key, panel in (("b-improves", "b"), ("a-deteriorates", "a")):
        first, last = _ends(summary, panel)
        for name in PAPER:
            add(key, MECHANISM_LABELS[name], _at(summary, panel, last, name) - _at(summary, panel, first, name))
    for name in PAPER:
        fails = _below(summary, "c", name)
        add("c-outliers", f"{MECHANISM_LABELS[name]} {'fails' if name == 'mean' else 'unaffected'}",
            holds=fails if name == "mean" else not fails)
    add("d-median-fails", "MEDIAN", holds=_below(summary, "d", "median"))
    types = per_setup.query(SUBSETS["types only (d)"]).tau_median.mean()
    both = per_setup.query(SUBSETS["types and outliers"]).tau_median.mean()
    add("f-median-worse", "MEDIAN, types and outliers minus types only", both - types)
    for name in ("mean", "median"):
        add("gh-bt-minus", f"BT − {MECHANISM_LABELS[name]}", float((per_setup.tau_bt - per_setup[f"tau_{name}"]).mean()))
    add("setups", "all setups", len(per_setup))
    return pd.DataFrame(rows)


def _names(labels: list[str]) -> str:
    return ", ".join(labels) if labels else "none"


def panels_text(summary: pd.DataFrame, values: pd.DataFrame) -> str:
    """What Fig. 3's panels show, as bullets computed from the panel summary and :func:`fig3_claim_values`."""
    def part(key: str, column: str) -> pd.Series:
        return values[values.key == key].set_index("detail")[column]

    c0, cmax = _ends(summary, "c")
    d0, dmax = _ends(summary, "d")
    overlap = part("ab-equal", "holds").astype(bool)
    up = [d for d, x in part("b-improves", "value").items() if x > 0]
    systems = part("a-deteriorates", "value")
    text = [f"* **Easy cases (a, b).** The three mechanisms' intervals overlap at {int(overlap.sum())} of "
            f"{len(overlap)} x values. From the fewest to the most test instances τ rises for {_names(up)}; from the "
            "fewest to the most systems it changes by " + ", ".join(f"{x:+.3f} ({d})" for d, x in systems.items())
            + "." + ("" if (systems < 0).all() else " λ is drawn from U[0, 1] however many systems there are (the "
                     "published code spreads a fixed total over the systems instead, which makes pairs closer as "
                     "*N*<sub>sys</sub> grows).")]
    c = {n: (_at(summary, "c", c0, n), _at(summary, "c", cmax, n)) for n in PAPER}
    fails = [MECHANISM_LABELS[n] for n in PAPER if _below(summary, "c", n)]
    text.append(f"* **Outliers only (c).** From *f* = {c0:g} to *f* = {cmax:g}: " + ", ".join(
        f"{MECHANISM_LABELS[n]} {a:.3f} → {b:.3f}" for n, (a, b) in c.items()) + ". Interval at the largest *f* "
        f"entirely below the one without outliers (a failure): {_names(fails)}.")
    d = {n: (_at(summary, "d", d0, n), _at(summary, "d", dmax, n)) for n in PAPER}
    fails = [MECHANISM_LABELS[n] for n in PAPER if _below(summary, "d", n)]
    text.append(f"* **Types only (d).** From {d0:g} to {dmax:g} types: " + ", ".join(
        f"{MECHANISM_LABELS[n]} {a:.3f} → {b:.3f}" for n, (a, b) in d.items()) + f". Failing: {_names(fails)}."
        + (" With the type offsets far apart, a system's median falls inside few of the types, so it is estimated "
           "from a fraction of the instances; every system gets the same offset on the same instance, so the "
           "offsets cancel in a paired comparison and shift all means equally." if fails == ["MEDIAN"] else ""))
    gh = part("gh-bt-minus", "value")
    text.append("* **All setups (g, h).** BT's mean τ minus " + ", ".join(
        f"{d.removeprefix('BT − ')}'s: {x:+.3f}" for d, x in gh.items()) + ".")
    return "\n".join(text)


def readings(**runs: pd.DataFrame) -> pd.DataFrame:
    """One row per reading (keyword = its label): the mean τ of each paper mechanism over all setups."""
    table = pd.concat({label: headline(frame, PAPER).loc["all (g, h)"] for label, frame in runs.items()}, axis=1).T
    return table.astype({"setups": int})


def best_mechanism(table: pd.DataFrame) -> dict[str, str]:
    return {k: r[[MECHANISM_LABELS[n] for n in PAPER]].astype(float).idxmax() for k, r in table.iterrows()}


def readings_text(table: pd.DataFrame) -> str:
    """The best mechanism over all setups under each reading of the generator, and whether it depends on it."""
    best = best_mechanism(table)
    return ("Best mechanism over all setups: " + "; ".join(f"{k}: **{v}**" for k, v in best.items()) + ". "
            + ("The same mechanism is best under every reading." if len(set(best.values())) == 1 else
               "Which mechanism comes out best therefore depends on how the generator is read."))


def sequential_text(everything: pd.DataFrame) -> str:
    """Elo and TrueSkill against BT on the same setups: the mean gap in τ, and how much each mechanism loses when
    instance types are added (types only minus easy cases) compared with MEDIAN."""
    gap = everything[["tau_elo", "tau_trueskill"]].rsub(everything.tau_bt, axis=0).mean()
    loss = {n: everything.query(SUBSETS["types only (d)"])[f"tau_{n}"].mean()
            - everything.query(SUBSETS["easy (a, b)"])[f"tau_{n}"].mean() for n in ("median", "bt", "elo", "trueskill")}
    text = ["Over all setups, BT's τ " + " and ".join(
        f"{'exceeds' if g > 0 else 'falls short of'} {MECHANISM_LABELS[n.removeprefix('tau_')]}'s by {abs(g):.3f}"
        for n, g in gap.items()) + " on average."]
    if (gap > 0).all():
        text.append("Elo and TrueSkill process the comparisons one game at a time, so they depend on the order of "
                    "the games and forget, while BT uses all comparisons at once.")
    robust = [n for n in ("bt", "elo", "trueskill") if loss[n] > loss["median"]]
    text.append("Change in mean τ from the easy cases to types only: " + ", ".join(
        f"{MECHANISM_LABELS[n]} {x:+.3f}" for n, x in loss.items()) + "; " + (
        "like BT, Elo and TrueSkill lose less than MEDIAN." if {"elo", "trueskill"} <= set(robust) else
        "losing less than MEDIAN: " + _names([MECHANISM_LABELS[n] for n in robust]) + "."))
    return " ".join(text)


def ties_text(overall: pd.Series, resolution: float) -> str:
    """The ties experiment over all setups (a row of :func:`ties_summary`): the tie rate and what giving each tied
    system half a win does to BT's τ, read against its 95% interval."""
    diff, low, high = overall["half − loss"], overall["95% low"], overall["95% high"]
    verdict = ("so the paper's rule costs BT accuracy here" if low > 0 else "so the paper's rule does better here"
               if high < 0 else "a difference within the resampling noise")
    return (f"With scores rounded to multiples of {resolution:g}, {overall['tie rate']:.0%} of all comparisons are "
            f"ties, each of which the paper's rule gives to the later column. Giving each tied system half a win "
            f"changes BT's mean τ by {diff:+.3f} (95% interval {low:+.3f} to {high:+.3f}) over all setups, {verdict}. "
            "The generator's column order is random with respect to the systems' strength, so the later-column rule "
            "acts as noise here; on real data, where column order can follow a leaderboard, it can add bias too.")


def with_sequential(per_setup: pd.DataFrame, sequential: pd.DataFrame) -> pd.DataFrame:
    """The paper mechanisms' per-setup τ joined with Elo's and TrueSkill's on the same setups."""
    keys = list(simulate.GRID_KEYS)
    return per_setup.merge(sequential[keys + ["tau_elo", "tau_trueskill"]], on=keys, validate="one_to_one")


def ties_table(tied_loss: pd.DataFrame, tied_half: pd.DataFrame) -> pd.DataFrame:
    """Rounded-score runs under ``ties="loss"`` (all paper mechanisms) and ``"half"`` (BT), one row per setup."""
    keys = list(simulate.GRID_KEYS)
    return tied_loss.rename(columns={"tau_bt": "tau_bt_loss"}).merge(
        tied_half[keys + ["tau_bt"]].rename(columns={"tau_bt": "tau_bt_half"}), on=keys, validate="one_to_one")


#: the ties summary's columns as the page shows them (the saved table keeps the package's short names)
TIES_COLUMNS = {"BT ties=loss": "BT, ties to the later column", "BT ties=half": "BT, ties as half wins",
                "half − loss": "difference (half wins − later column)"}


def ties_display(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`ties_summary` for the page: the tie policies in words (:data:`TIES_COLUMNS`)."""
    return summary.rename(columns=TIES_COLUMNS)


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
