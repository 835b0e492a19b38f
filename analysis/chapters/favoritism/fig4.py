"""Fig. 4 (sign accuracies and mean |Φ| per metric), §7.1's domain comparison, and the ties behind sample-level
accuracy (Def. 11 counts a matching tie as agreement; the paper gives no tie shares)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ... import favi
from ..common import metric_label
from .experiments import DATASETS, KEYS, aspect_label, score_matrices, setting_index
from .wingraphs import COLORS, FONT, MAX_WIDTH, text_size


def metric_summary(pairs: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Fig. 4 per setting: the sign accuracies (Defs. 10-11), mean |Φ| and its sd over pairs, the win graphs' agreement
    (§2) and, beyond the paper, mean |Φ| without favoritism, the share with p < ``alpha`` and :func:`tie_shares`."""
    rows = []
    for key, part in pairs.groupby(KEYS, sort=False):
        accuracy = favi.sign_accuracies(part)
        outcomes = favi.significance_outcomes(part, alpha=alpha, ties=ties)
        absolute = part["favi"].abs()
        rows.append({**dict(zip(KEYS, key)), "pairs": accuracy.pairs, "sample_accuracy": accuracy.sample,
                     "system_accuracy": accuracy.system, "mean_abs_favi": absolute.mean(),
                     "sd_abs_favi": absolute.std(ddof=1), "null_mean_abs_favi": part["null_mean_abs"].mean(),
                     "significant_share": (part["p_value"] < alpha).mean(),
                     "graph_agreement": favi.graph_agreement(outcomes)})
    ties = tie_shares(pairs).drop(columns=["items", "sample_accuracy"])
    return pd.DataFrame(rows).merge(ties, on=KEYS, how="left", validate="one_to_one")


def tie_shares(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per setting, pooled over its pairs' items: how often the humans, the metric and both tie (a matching tie,
    counted as correct by Def. 11), and sample-level accuracy with and without the matching ties' credit."""
    cells = pairs.groupby(KEYS, sort=False)[["n_items", *favi.CELLS]].sum()
    n = cells["n_items"]
    return pd.DataFrame({
        "items": n,
        "human_tie_share": (cells["c_ep"] + cells["c_ee"] + cells["c_em"]) / n,
        "metric_tie_share": (cells["c_pe"] + cells["c_ee"] + cells["c_me"]) / n,
        "matching_tie_share": cells["c_ee"] / n,
        "sample_accuracy": (cells["c_pp"] + cells["c_ee"] + cells["c_mm"]) / n,
        "sample_accuracy_without_tie_credit": (cells["c_pp"] + cells["c_mm"]) / n,
    }).reset_index()


def domain_comparison(fig4: pd.DataFrame) -> pd.DataFrame:
    """§7.1's "machine-translation metrics exhibit a lower amount of favoritism": per domain of Fig. 4's settings,
    mean |Φ|'s range and medians, and the share of (MT setting, its setting) couples in which MT's mean |Φ| or excess
    over the no-favoritism level is the lower (ties count half)."""
    frame = fig4.assign(excess=fig4["mean_abs_favi"] - fig4["null_mean_abs_favi"])
    groups = frame.groupby("domain", sort=False)
    out = groups.agg(settings=("mean_abs_favi", "size"), min_mean_abs_favi=("mean_abs_favi", "min"),
                     median_mean_abs_favi=("mean_abs_favi", "median"), max_mean_abs_favi=("mean_abs_favi", "max"),
                     median_sd_abs_favi=("sd_abs_favi", "median"),
                     median_null_mean_abs_favi=("null_mean_abs_favi", "median"), median_excess=("excess", "median"))
    mt = frame[frame["domain"] == "machine translation"]
    for name, column in (("mt_lower_share", "mean_abs_favi"), ("mt_excess_lower_share", "excess")):
        # per couple (MT setting x, setting y of the domain): whether x < y, ties counting half
        diffs = [mt[column].to_numpy()[:, None] - part[column].to_numpy()[None, :] for _, part in groups]
        out[name] = [float(((d < 0) + 0.5 * (d == 0)).mean()) if domain != "machine translation" and len(mt)
                     else np.nan for domain, d in zip(out.index, diffs)]
    return out.reset_index()


#: the datasets standing in for the paper's (USR's TopicalChat and PersonaChat ratings for its BST chatbots); the
#: others are the paper's own (WMT21-22 MQM, SummEval), their lexical metrics recomputed from the published outputs
STAND_IN_DATASETS = frozenset({"usr-tc", "usr-pc"})


def paper_data_share(fig4: pd.DataFrame) -> float:
    """The share of Fig. 4's system pairs (summed over its settings) rated on the paper's own datasets: where most
    of the evidence of a claim read over every setting came from (the claims registry's status "mixed")."""
    pairs = fig4["pairs"].astype(float)
    return float(pairs[~fig4["dataset"].isin(STAND_IN_DATASETS)].sum() / pairs.sum()) if pairs.sum() else np.nan


def fig4_checks(fig4: pd.DataFrame, domains: pd.DataFrame) -> dict[str, tuple[float, bool | None]]:
    """Fig. 4's and §7.1's claims as (the number compared, holds): every setting's mean |Φ| above the no-favoritism
    level (the share that is), and MT's median mean |Φ|, sd and excess below summarization's (MT's over its)."""
    above = fig4["mean_abs_favi"] > fig4["null_mean_abs_favi"]
    checks = {"fig4.every_setting_above_null": (float(above.mean()), bool(above.all())),
              "fig4.paper_data_share_pairs": (paper_data_share(fig4), None)}
    d = domains.set_index("domain")
    if {"machine translation", "summarization"} <= set(d.index):
        mt, summ = d.loc["machine translation"], d.loc["summarization"]
        for key, column in (("mt_median_below_summarization", "median_mean_abs_favi"),
                            ("summarization_sd_above_mt", "median_sd_abs_favi"),
                            ("mt_excess_below_summarization", "median_excess")):
            ratio = float(mt[column] / summ[column]) if summ[column] > 0 else np.nan
            checks[f"fig4.{key}"] = (ratio, bool(mt[column] < summ[column]))
    return checks


#: :func:`domain_comparison`'s rows as shown, and how each is written
_DOMAIN_ROWS = [
    ("settings", "settings", "{:.0f}"),
    ("min_mean_abs_favi", "lowest mean |Φ|", "{:.2f}"),
    ("median_mean_abs_favi", "median mean |Φ|", "{:.2f}"),
    ("max_mean_abs_favi", "highest mean |Φ|", "{:.2f}"),
    ("median_sd_abs_favi", "median sd of |Φ| over pairs", "{:.2f}"),
    ("median_null_mean_abs_favi", "median mean |Φ| without favoritism", "{:.2f}"),
    ("median_excess", "median excess of mean |Φ| over it", "{:.2f}"),
    ("mt_lower_share", "couples of settings where MT's mean |Φ| is lower", "{:.0%}"),
    ("mt_excess_lower_share", "couples where MT's excess is lower", "{:.0%}"),
]


def domains_page(domains: pd.DataFrame) -> pd.DataFrame:
    frame = domains.set_index("domain")
    rows = {label: ["—" if pd.isna(v) else written.format(v) for v in frame[key]]
            for key, label, written in _DOMAIN_ROWS}
    return pd.DataFrame(rows, index=frame.index).T.rename_axis(None, axis=1)


def fig4_columns(counts: list[int]) -> int:
    """How many of Fig. 4's dataset panels (``counts[k]`` raters each) go in the left column so that the taller column
    is shortest (a panel costs its raters plus two rows)."""
    if len(counts) < 2:
        return len(counts)
    cost = [c + 2 for c in counts]
    return min(range(1, len(counts)), key=lambda k: (max(sum(cost[:k]), sum(cost[k:])), k))


def plot_fig4(summary: pd.DataFrame) -> plt.Figure:
    """Fig. 4, one panel per dataset and one row per rater (the paper draws lines over a domain's metrics): the sign
    accuracies, mean |Φ| ± its sd and, beyond the paper, the no-favoritism level."""
    counts = summary.groupby("dataset", sort=False).size()
    split = fig4_columns(list(counts))
    columns = [part for part in (counts.index[:split], counts.index[split:]) if len(part)]
    row, title_h, gap, axis_h, legend_h, between = 0.24, 0.3, 0.16, 0.48, 0.65, 0.32
    labels_w = max(text_size(metric_label(r), FONT)[0] for r in summary["rater"]) + 0.15
    column_w = (MAX_WIDTH - 0.1) / len(columns) if len(columns) == 2 else 6.0
    inner = column_w - labels_w - 0.3 - between
    accuracy_w, favi_w = 0.45 * inner, 0.55 * inner
    heights = [sum(title_h + row * counts[d] + 0.1 + axis_h + gap for d in col) for col in columns]
    width, height = column_w * len(columns), legend_h + max(heights)
    top = min(2.05, max(1.05, float((summary["mean_abs_favi"] + summary["sd_abs_favi"]).max()) + 0.05))
    fig = plt.figure(figsize=(width, height))
    for c, col in enumerate(columns):
        y = height - legend_h
        for dataset in col:
            h = row * counts[dataset] + 0.1
            y -= title_h + h
            left = c * column_w + labels_w
            accuracy = fig.add_axes([left / width, y / height, accuracy_w / width, h / height])
            spread = fig.add_axes([(left + accuracy_w + between) / width, y / height, favi_w / width, h / height],
                                  sharey=accuracy)
            y -= axis_h + gap
            _fig4_panel(accuracy, spread, summary[summary["dataset"] == dataset], top)
    handles = [Line2D([], [], marker="o", ls="", color=COLORS["sample"], label="sample-level sign accuracy"),
               Line2D([], [], marker="s", ls="", color=COLORS["system"], label="system-level sign accuracy"),
               Line2D([], [], marker="^", ls="-", color=COLORS["favi"], label="mean |Φ| ± sd over pairs"),
               Line2D([], [], marker="|", ls="", ms=10, mew=2, color=COLORS["null"],
                      label="mean |Φ| without favoritism")]
    fig.legend(handles=handles, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.0), frameon=False,
               fontsize=FONT)
    return fig


def _fig4_panel(accuracy, spread, part: pd.DataFrame, top: float) -> None:
    y = np.arange(len(part))[::-1].astype(float)
    low = np.clip(part["mean_abs_favi"] - part["sd_abs_favi"], 0, None)
    spread.hlines(y, low, part["mean_abs_favi"] + part["sd_abs_favi"], color=COLORS["favi"], lw=2.5, alpha=0.35)
    spread.plot(part["null_mean_abs_favi"], y, "|", color=COLORS["null"], ms=7, mew=2)
    spread.plot(part["mean_abs_favi"], y, "^", color=COLORS["favi"], ms=5)
    # the two accuracies a little apart, so that close values stay visible
    accuracy.plot(part["system_accuracy"], y + 0.12, "s", color=COLORS["system"], ms=5)
    accuracy.plot(part["sample_accuracy"], y - 0.12, "o", color=COLORS["sample"], ms=5)
    accuracy.set_yticks(y, [metric_label(r) for r in part["rater"]], fontsize=FONT)
    accuracy.set_ylim(-0.6, len(part) - 0.4)
    spread.tick_params(axis="y", left=False, labelleft=False)
    for ax, right, label in ((accuracy, 1, "sign accuracy"), (spread, top, "mean |Φ|")):
        ax.set_xlim(0, right)
        ticks = [t for t in (0, 0.5, 1, 1.5, 2) if t <= right]
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.tick_params(axis="x", labelsize=FONT, pad=2)
        ax.set_xlabel(label, fontsize=FONT, labelpad=1)
    aspect = part["aspect"].iloc[0]
    accuracy.set_title(DATASETS[part["dataset"].iloc[0]]
                       + ("" if aspect in ("MQM", "USR_Overall") else f", {aspect_label(aspect)}"),
                       fontsize=FONT + 1, loc="left", pad=3)


def tie_columns(frame: pd.DataFrame, without: str, with_credit: str) -> dict:
    return {("ties", "humans"): frame["human_tie_share"], ("ties", "metric"): frame["metric_tie_share"],
            ("ties", "both"): frame["matching_tie_share"],
            ("sample-level accuracy", "without tie credit"): frame[without],
            ("sample-level accuracy", "Def. 11"): frame[with_credit]}


def fig4_ties_page(fig4: pd.DataFrame,
                   datasets=("wmt22-ende", "wmt21-ende", "summeval", "wmt22-zhen")) -> pd.DataFrame:
    """Fig. 4's values with the tie shares, for the settings on the paper's own data and the zh-en stand-in."""
    part = fig4[fig4["dataset"].isin(datasets)]
    part = part.iloc[pd.Index(datasets).get_indexer(part["dataset"]).argsort(kind="stable")]
    return pd.DataFrame({**tie_columns(part, "sample_accuracy_without_tie_credit", "sample_accuracy"),
                         ("", "system-level accuracy"): part["system_accuracy"],
                         ("", "mean |Φ|"): part["mean_abs_favi"]}).set_axis(setting_index(part))


#: the tie shares of :func:`plot_fig4_ties`: column, label, colour, marker
TIE_SERIES = (("humans", "humans tie", "#8C8C8C", "o"), ("metric", "metric ties", "#8172B3", "s"),
              ("both", "both tie (a matching tie)", "#000000", "x"))


def plot_fig4_ties(page: pd.DataFrame) -> plt.Figure:
    """Fig. 4's settings with their ties: (a) how often the humans, the metric and both tie; (b) sample-level
    accuracy without (open) and with (filled) the matching ties' credit."""
    names = list(page.index)
    y = np.arange(len(names))[::-1].astype(float)
    labels_w = max(text_size(n, FONT)[0] for n in names) + 0.2
    width, height = 8.4, 0.26 * len(names) + 1.6
    fig, (a, b) = plt.subplots(1, 2, figsize=(width, height), sharey=True,
                               gridspec_kw={"left": labels_w / width, "right": 0.98, "wspace": 0.08,
                                            "bottom": 1.15 / height, "top": 1 - 0.35 / height})
    for column, label, colour, marker in TIE_SERIES:
        a.plot(page[("ties", column)].to_numpy(), y, marker, color=colour, ms=5, ls="", label=label)
    without = page[("sample-level accuracy", "without tie credit")].to_numpy()
    with_credit = page[("sample-level accuracy", "Def. 11")].to_numpy()
    b.hlines(y, without, with_credit, color=COLORS["sample"], lw=1.5)
    b.plot(without, y, "o", mfc="white", mec=COLORS["sample"], ms=5, ls="", label="without tie credit")
    b.plot(with_credit, y, "o", color=COLORS["sample"], ms=5, ls="", label="with it (Def. 11)")
    a.set_yticks(y, names, fontsize=FONT)
    for ax, title, xlabel in ((a, "(a) ties", "share of comparisons"),
                              (b, "(b) sample-level sign accuracy", "accuracy")):
        ax.set(xlim=(-0.02, 1.02), ylim=(-0.7, len(names) - 0.3))
        ax.set_title(title, fontsize=FONT + 1)
        ax.set_xlabel(xlabel, fontsize=FONT)
        ax.tick_params(axis="x", labelsize=FONT)
    handles = a.get_legend_handles_labels()[0] + b.get_legend_handles_labels()[0]
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=3, frameon=False, fontsize=FONT)
    return fig


def identical_output_ties(scores: pd.DataFrame, texts: dict[str, pd.DataFrame], cases) -> pd.DataFrame:
    """Per case (its dataset with registered outputs in ``texts``): how many comparisons are of identical outputs,
    and how many of the metric's and the humans' ties those explain."""
    rows = []
    for dataset, aspect, rater in cases:
        matrices = score_matrices(scores, dataset)
        cells = favi.pair_cells(matrices[aspect], matrices[rater])
        # items x systems codes of the outputs (equal codes: identical texts), -1 where no text
        outputs = texts[dataset].set_index(["item", "system"])["text"]
        codes = pd.Series(pd.factorize(outputs)[0], index=outputs.index).unstack("system").reindex(index=cells.items)
        a, b = (codes.reindex(columns=list(systems)).fillna(-1).to_numpy(dtype=np.int64)
                for systems in (cells.system_a, cells.system_b))
        with_text = (a >= 0) & (b >= 0)
        usable = (cells.code >= 0) & with_text
        same = usable & (a == b)
        metric, human = favi.metric_ties(cells.code) & usable, favi.human_ties(cells.code) & usable
        counts = {"pairs_with_text": with_text.any(axis=0), "comparisons": usable, "identical_outputs": same,
                  "matching_ties_identical": metric & human & same, "metric_ties": metric,
                  "metric_ties_identical": metric & same, "human_ties": human, "human_ties_identical": human & same}
        rows.append({"dataset": dataset, "aspect": aspect, "rater": rater,
                     **{k: int(v.sum()) for k, v in counts.items()}})
    out = pd.DataFrame(rows)
    for who in ("metric", "human"):  # 0 / 0 (no ties): NaN
        out.insert(out.columns.get_loc(f"{who}_ties_identical") + 1, f"{who}_ties_identical_share",
                   out[f"{who}_ties_identical"] / out[f"{who}_ties"])
    return out


def identical_page(identical: pd.DataFrame) -> pd.DataFrame:
    heads = [("", "comparisons"), ("", "identical outputs")] + [
        (who, k) for who in ("metric", "humans") for k in ("ties", "share from identical outputs")]
    out = identical[["comparisons", "identical_outputs", "metric_ties", "metric_ties_identical_share", "human_ties",
                     "human_ties_identical_share"]].set_axis(setting_index(identical))
    return out.set_axis(pd.MultiIndex.from_tuples(heads), axis=1)
