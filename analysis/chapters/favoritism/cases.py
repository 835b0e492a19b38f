"""The paper's cases: §2's margins of one WMT22 pair, the win graphs of Fig. 1 and Figs. 8-13 (App. D), and each
system's Φ against the others (Fig. 6)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from ... import favi
from ...data import published
from ..common import metric_label
from .experiments import KEYS, aspect_label, setting_index, setting_name, setting_table, span
from .wingraphs import FONT, MAX_WIDTH, NOT_IMPLIED, draw_win_graph, layout_win_graph, text_size


def margin_example(pairs: pd.DataFrame, dataset: str = "wmt22-ende") -> pd.DataFrame:
    """§2: how often the paper's system is rated better / worse than its opponent (percent of their shared items)
    by the humans (MQM) and every automatic rater, beside the paper's values."""
    item = published.item("favi", "section2")
    system, opponent = item["system"], item["opponent"]
    part = pairs[(pairs["dataset"] == dataset) & pairs["system_a"].isin([system, opponent])
                 & pairs["system_b"].isin([system, opponent])]
    if part.empty:
        raise ValueError(f"{dataset}: no pair {system} vs {opponent}")
    c = part[list(favi.CELLS)].to_numpy(dtype=np.int64).reshape(-1, 3, 3)
    # the outcomes +, =, - of system_a: the humans' (rows) on the rater with most items, each rater's (columns)
    d = np.vstack([c[part["n_items"].to_numpy().argmax()].sum(axis=1), c.sum(axis=1)])
    d = d[:, ::-1] if part["system_a"].iloc[0] != system else d
    n = d.sum(axis=1)
    out = pd.DataFrame({"items": n, "better": 100 * d[:, 0] / n, "worse": 100 * d[:, 2] / n,
                        "margin": 100 * (d[:, 0] - d[:, 2]) / n}, index=pd.Index(["MQM", *part["rater"]], name="rater"))
    paper = pd.DataFrame(item["rows"]).set_index("rater")[["better", "worse", "margin"]].add_prefix("paper_")
    return out.join(paper).astype(float)


def margins_page(margins: pd.DataFrame) -> pd.DataFrame:
    heads = [("", "items")] + [(side, k) for side in ("here (% of items)", "paper (%)")
                               for k in ("better", "worse", "margin")]
    return margins.rename(index=metric_label).set_axis(pd.MultiIndex.from_tuples(heads), axis=1).rename_axis("rater")


def case_numbers(table: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> dict:
    """The numbers the paper prints in a case figure's title, and the counts its caption states."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    accuracy = favi.sign_accuracies(table)
    return {"systems": len(set(table["system_a"]) | set(table["system_b"])),
            "items": span(table["n_items"].min(), table["n_items"].max()), "pairs": len(outcomes),
            "agreement": favi.graph_agreement(outcomes), "system": accuracy.system, "sample": accuracy.sample,
            "mean_abs_favi": table["favi"].abs().mean()}


def plot_case(table: pd.DataFrame, *, rater: str, aspect: str, alpha: float = 0.05, ties: str = "drop",
              per_system: bool = True) -> plt.Figure:
    """The paper's case figures (Fig. 1, Figs. 8-13): (a) the humans' win graph, (b) the metric's (red and dashed:
    a win the humans' graph does not imply), beside each other when they fit, and with ``per_system`` (c) Fig. 6's
    box plots to their right (or below)."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    human = favi.win_graph(outcomes, "human")
    graphs = [(human, None, f"(a) humans: {aspect_label(aspect)}"),
              (favi.win_graph(outcomes, "metric"), human, f"(b) {metric_label(rater)}")]
    layouts = [layout_win_graph(g) for g, _, _ in graphs]
    title_h, sep = 0.32, 0.4
    labels_w = max(text_size(str(n), FONT)[0] for n in human.nodes) + 0.2
    panel_w = labels_w + 2.4 if per_system else 0.0
    pair_w = sum(lay.width for lay in layouts) + sep
    right = per_system and max(lay.width for lay in layouts) + sep + panel_w <= MAX_WIDTH
    beside = sep + panel_w if right else 0.0  # the room the box plots take to the right of the graphs
    side = pair_w + beside <= MAX_WIDTH
    graphs_w = pair_w if side else max(lay.width for lay in layouts)
    graphs_h = (max(lay.height for lay in layouts) + title_h if side
                else sum(lay.height + title_h for lay in layouts) + 0.15)
    # beside the graphs: as tall as they are, up to 0.4 in per system
    box_h = max(0.27 * len(human) + 0.4, min(0.4 * len(human), graphs_h - title_h - 0.6) if right else 0.0)
    width = max(6.4, graphs_w + beside)
    legend_h = 0.4 if width >= 7.4 else 0.6
    boxes_h = box_h + title_h + 0.6 if per_system else 0.0  # beside the graphs or below them
    height = legend_h + max(graphs_h, boxes_h) if right else legend_h + graphs_h + boxes_h
    fig = plt.figure(figsize=(width, height))

    def axes(left, bottom, w, h):  # inches from the figure's lower left corner
        return fig.add_axes([left / width, bottom / height, w / width, h / height])

    left0 = (width - graphs_w - beside) / 2
    for k, ((graph, reference, title), lay) in enumerate(zip(graphs, layouts)):
        left = left0 + (k * (layouts[0].width + sep) if side else (graphs_w - lay.width) / 2)
        top = height - legend_h - (0 if side else sum(la.height + title_h + 0.15 for la in layouts[:k]))
        draw_win_graph(axes(left, top - title_h - lay.height, lay.width, lay.height), graph, reference=reference,
                       title=title, layout=lay)
    handles = [Line2D([], [], color="#555555", label="A → B: A wins significantly more often"),
               Line2D([], [], color=NOT_IMPLIED, ls="--", label="a metric's win the humans' graph does not imply")]
    fig.legend(handles=handles, loc="upper center", ncol=2 if width >= 7.4 else 1, bbox_to_anchor=(0.5, 1.0),
               frameon=False, fontsize=FONT, handlelength=2.5)
    if per_system:
        left, bottom = ((left0 + graphs_w + sep + labels_w, height - legend_h - title_h - box_h) if right
                        else ((width - panel_w) / 2 + labels_w, 0.6))
        plot_one_vs_all(axes(left, bottom, panel_w - labels_w, box_h), table,
                        "(c) Φ of each system against" + ("\nevery other" if right else " every other"))
    return fig


def graph_summary(summary_pairs: pd.DataFrame, cases, *, alpha: float = 0.05) -> pd.DataFrame:
    """Per case: the edges of both win graphs and their verdict agreement, with ties dropped (the conventional sign
    test) and split (Coakley & Heise's conservative version)."""
    rows = []
    for dataset, aspect, rater in cases:
        table = setting_table(summary_pairs, dataset, aspect, rater)
        row = {"dataset": dataset, "aspect": aspect, "rater": rater, "pairs": len(table)}
        for ties, o in ((t, favi.significance_outcomes(table, alpha=alpha, ties=t)) for t in ("drop", "half")):
            row |= {f"human_edges_{ties}": int((o["human"] != 0).sum()),
                    f"metric_edges_{ties}": int((o["metric"] != 0).sum()), f"agreement_{ties}": favi.graph_agreement(o)}
        rows.append(row)
    return pd.DataFrame(rows)


def graphs_page(graphs: pd.DataFrame) -> pd.DataFrame:
    heads = [("", "pairs")] + [(words, k) for words in ("ties dropped", "ties split")
                               for k in ("significant for humans", "significant for the metric", "verdicts agree")]
    out = graphs.drop(columns=["dataset", "aspect", "rater"]).set_axis(setting_index(graphs))
    return out.set_axis(pd.MultiIndex.from_tuples(heads), axis=1)


def win_graph_layers(pairs: pd.DataFrame, cases, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Every system's row in each drawn win graph (:func:`analysis.favi.graph_layers`, 0 = unbeaten)."""
    return pd.DataFrame([
        {"dataset": dataset, "aspect": aspect, "rater": rater, "graph": who, "system": s, "layer": depth,
         "layers": len(layers)}
        for dataset, aspect, rater in cases
        for outcomes in [favi.significance_outcomes(setting_table(pairs, dataset, aspect, rater), alpha=alpha,
                                                    ties=ties)]
        for who in ("human", "metric") for layers in [favi.graph_layers(favi.win_graph(outcomes, who))]
        for depth, members in enumerate(layers) for s in members])


#: the systems whose rows in a win graph the paper names: (check key, dataset, aspect, system, graph, end) with end
#: "top" (counted: the rows above it) or "bottom" (the rows below it); Fig. 1's humans' graph is the WMT22 en-de
#: case with most systems, App. D.2's is SummEval's consistency, Fig. 6's are zh-en's COMET-22 case (the stand-in)
GRAPH_ROWS = (("fig1.refB_top_of_mqm_graph", "wmt22-ende", "MQM", None, "refB", "human", "top"),
              ("fig1.onlineW_top_of_mqm_graph", "wmt22-ende", "MQM", None, "Online-W", "human", "top"),
              ("appD2.m11_last_in_human_graph", "summeval", "expert_consistency", None, "M11", "human", "bottom"),
              ("fig6.m2m100_last_in_human_graph", "wmt22-zhen", "MQM", "COMET-22", "M2M100_1.2B-B4", "human",
               "bottom"),
              ("fig6.m2m100_last_in_metric_graph", "wmt22-zhen", "MQM", "COMET-22", "M2M100_1.2B-B4", "metric",
               "bottom"))


def graph_row_checks(layers: pd.DataFrame) -> dict[str, tuple[float, bool]]:
    """Whether each of :data:`GRAPH_ROWS` whose graph is drawn is in its top (bottom) row, with the rows above
    (below) it; a rater of None is the case of that dataset and human rating with the most systems."""
    checks = {}
    for key, dataset, aspect, rater, system, graph, end in GRAPH_ROWS:
        part = layers[(layers["dataset"] == dataset) & (layers["aspect"] == aspect) & (layers["graph"] == graph)]
        if rater is None and len(part):
            rater = part.groupby("rater")["system"].size().idxmax()
        part = part[part["rater"] == rater]
        hit = part[part["system"] == system]
        if hit.empty:
            continue
        layer = int(hit["layer"].iloc[0])
        off = layer if end == "top" else int(part["layer"].max()) - layer
        checks[key] = (float(off), off == 0)
    return checks


def per_system(pairs: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6 in numbers: per setting and system, the median and mean of its Φ against every other system and the
    shares of opponents it is favoured / disfavoured against."""
    long = favi.one_vs_all(pairs).join(pd.concat([pairs[KEYS]] * 2, ignore_index=True)).dropna(subset=["favi"])
    long = long.assign(setting=long.groupby(KEYS, sort=False).ngroup(), favoured=long["favi"] > 0,
                       disfavoured=long["favi"] < 0)
    out = long.groupby(["setting", *KEYS, "system"]).agg(
        # median and mean as a Series computes them (the grouped ones differ in the last bit and in the sign of 0)
        opponents=("favi", "size"), median_favi=("favi", lambda f: f.median()), mean_favi=("favi", lambda f: f.mean()),
        share_favoured=("favoured", "mean"), share_disfavoured=("disfavoured", "mean"))
    return out.reset_index().drop(columns="setting")


def plot_one_vs_all(ax, table: pd.DataFrame, title: str = "") -> None:
    """Fig. 6: each system's Φ against every other (positive: favoured), most favoured on top."""
    long = favi.one_vs_all(table).dropna(subset=["favi"])
    order = long.groupby("system")["favi"].median().sort_values(ascending=False).index.tolist()
    sns.boxplot(data=long, y="system", x="favi", order=order, ax=ax, color="#b5d9b0", fliersize=2, orient="h")
    ax.axvline(0, color="black", lw=0.7)
    ax.set_xlabel("Φ (+: favoured by the metric)", fontsize=FONT)
    ax.set_ylabel("")
    ax.tick_params(labelsize=FONT)
    ax.set_title(title, fontsize=FONT + 1, loc="left")


def plot_fig6(pairs: pd.DataFrame, cases: list[tuple[str, str, str]]) -> plt.Figure:
    tables = [setting_table(pairs, *case) for case in cases]
    systems = [len(set(t["system_a"]) | set(t["system_b"])) for t in tables]
    fig, axes = plt.subplots(len(cases), 1, figsize=(6.4, sum(0.27 * n + 0.9 for n in systems)), squeeze=False,
                             sharex=True, gridspec_kw={"height_ratios": systems})
    for ax, table, (dataset, _, rater) in zip(axes[:, 0], tables, cases):
        plot_one_vs_all(ax, table, setting_name(dataset, rater))
    for ax in axes[:-1, 0]:
        ax.set_xlabel("")
    fig.tight_layout()
    return fig


def _box(row: pd.Series) -> dict:
    return {"median Φ": row["median_favi"],
            "Φ > 0 against": f"{round(row['share_favoured'] * row['opponents'])} of {row['opponents']}",
            "Φ < 0 against": f"{round(row['share_disfavoured'] * row['opponents'])} of {row['opponents']}"}


def favourites_page(per_system: pd.DataFrame, layers: pd.DataFrame, cases) -> pd.DataFrame:
    """Per case: the systems the metric favours and disfavours most (highest and lowest median Φ), with their row in
    the humans' and in the metric's graph."""
    rows = {}
    for case in cases:
        mine = setting_table(per_system, *case, required=False).sort_values("median_favi", kind="stable")
        graphs = setting_table(layers, *case, required=False).set_index(["graph", "system"])
        where = (graphs["layer"] + 1).astype(str) + " of " + graphs["layers"].astype(str)
        for which, row in (("favoured most", mine.iloc[-1]), ("disfavoured most", mine.iloc[0])) if len(mine) else ():
            rows[(setting_name(case[0], case[2]), which)] = {
                "system": row["system"], **_box(row), "row, humans' graph": where.get(("human", row["system"]), "—"),
                "row, metric's graph": where.get(("metric", row["system"]), "—")}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["setting", ""])


def systems_page(per_system: pd.DataFrame, cases, named=("refB", "M2M100_1.2B-B4", "Online-W")) -> pd.DataFrame:
    """Fig. 6's systems that the paper names and the MBR-decoded systems, per case, in numbers."""
    rows = {}
    for case in cases:
        mine = setting_table(per_system, *case, required=False).drop_duplicates("system").set_index("system")
        for system in [s for s in named if s in mine.index] + sorted(s for s in mine.index if "mbr" in s):
            rows[(setting_name(case[0], case[2]), system)] = _box(mine.loc[system])
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(["setting", "system"])


def ranking_unchanged(pairs: pd.DataFrame, dataset: str, aspect: str, rater: str, system: str) -> tuple[float, bool]:
    """App. D.3's "favours M2M100, however without changing the ranking": the pairs of ``system`` in one setting
    whose human and metric outcome margins differ in sign (the rater's favour flips none of its pairs), and whether
    there is none (False when the setting or the system is missing)."""
    part = pairs[(pairs["dataset"] == dataset) & (pairs["aspect"] == aspect) & (pairs["rater"] == rater)]
    part = part[(part["system_a"] == system) | (part["system_b"] == system)]
    flipped = int((~part["system_sign_agrees"].astype(bool)).sum())
    return float(flipped), bool(len(part)) and flipped == 0
