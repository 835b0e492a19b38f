"""Chapter ``04_favoritism``: the Favi-Score paper (von Däniken et al. 2024) on the reachable data — the worked
examples (Figs. 2-3, Lemmas 1-2), Table 1, the win graphs of Fig. 1 and Figs. 8-13, Figs. 4-6, §2's margin example,
Appendix D's case studies and Appendix C.2.1's order symmetry, plus how much of each Φ is noise."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from scipy import stats

from .. import favi
from ..data import published
from .common import SEED, Param

CHAPTER = "04_favoritism"
DATASETS = {  # dataset -> (label, the paper's data it stands for)
    "wmt22-ende": ("WMT22 en-de", "WMT22 EN->DE (the paper's own data; COMET-22 etc. not published for it)"),
    "wmt22-zhen": ("WMT22 zh-en", "stand-in for WMT22 en-de's neural metrics (COMET-22, BLEURT-20, UniTE, MetricX)"),
    "wmt21-ende": ("WMT21 en-de", "WMT21 News EN->DE (the paper's data; only BLEU and chrF computed here)"),
    "summeval": ("SummEval", "SummEval CNN/DM (the paper's data; lexical metrics computed here)"),
    "usr-tc": ("USR TopicalChat", "stand-in for the paper's BST chatbot data (not reachable)"),
    "usr-pc": ("USR PersonaChat", "stand-in for the paper's BST chatbot data (not reachable)"),
}
#: systems left out per dataset: WMT22's refA is the reference the metrics score against (and GEMBA and SEScoreX
#: give it Φ of about +1.2 against every system); the paper compares eight MT systems and ref-B
EXCLUDED_SYSTEMS = {"wmt22-ende": ("refA",), "wmt22-zhen": ("refA",)}
SUMMEVAL_ASPECTS = ("expert_coherence", "expert_consistency", "expert_fluency", "expert_relevance")
PARAMETERS = {
    "seed": SEED,
    "datasets": Param("str", many=True, choices=tuple(DATASETS)),
    "n_resamples": Param("int", low=1),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "sign_test_ties": Param("str", choices=("drop", "split")),
    "summeval_aspect": Param("str", choices=SUMMEVAL_ASPECTS),
}
KEYS = ["domain", "dataset", "aspect", "rater"]
PER_PAIR_COLUMNS = [*KEYS, "system_a", "system_b", "n_items", *favi.CELLS, "favi", "sample_accuracy",
                    "system_sign_agrees"]
COLORS = {"sample": "#DD8452", "system": "#4C72B0", "favi": "#55A868", "null": "#8C8C8C"}
#: Appendix D's case studies -> the (dataset, aspect, rater) standing in for each here (None: nothing reachable)
APPENDIX_D_MATCH = {
    "BertScore": None,
    "ROUGE": ("summeval", "expert_consistency", "ROUGE_L"),
    "ChatGPT": ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"),
    "BLEU": ("wmt22-ende", "MQM", "BLEU"),
}


def dataset_label(dataset: str) -> str:
    return DATASETS[dataset][0]


# -- data --------------------------------------------------------------------------------------------------------

def settings(scores: pd.DataFrame, datasets) -> pd.DataFrame:
    """Every (domain, dataset, aspect, rater, rater_kind) to evaluate: each human rater of a dataset against each of
    its automatic raters (metrics and LLM judges), in the order of ``datasets``."""
    unknown = sorted(set(datasets) - set(scores["dataset"].unique()))
    if unknown:
        raise ValueError(f"no Favi-Score data for datasets {unknown}")
    kinds = scores[["domain", "dataset", "rater", "rater_kind"]].drop_duplicates()
    rows = []
    for dataset in datasets:
        part = kinds[kinds["dataset"] == dataset]
        humans = part[part["rater_kind"] == "human"]["rater"]
        for aspect in humans:
            for rater, kind in part[part["rater_kind"] != "human"][["rater", "rater_kind"]].itertuples(index=False):
                rows.append((part["domain"].iloc[0], dataset, aspect, rater, kind))
    return pd.DataFrame(rows, columns=[*KEYS, "rater_kind"])


def score_matrices(scores: pd.DataFrame, dataset: str) -> dict[str, pd.DataFrame]:
    """Every rater's items x systems matrix of ``dataset`` (NaN = not rated), all on the same items and systems,
    without the :data:`EXCLUDED_SYSTEMS`."""
    part = scores[(scores["dataset"] == dataset) & ~scores["system"].isin(EXCLUDED_SYSTEMS.get(dataset, ()))]
    if part.duplicated(["item", "rater", "system"]).any():
        raise ValueError(f"{dataset}: more than one score for some (item, rater, system)")
    wide = part.pivot_table(index="item", columns=["rater", "system"], values="score", dropna=False,
                            aggfunc="first")
    systems = sorted(part["system"].unique())
    return {rater: wide[rater].reindex(columns=systems) for rater in part["rater"].unique()}


def per_pair(scores: pd.DataFrame, datasets, *, n_resamples: int, rng) -> pd.DataFrame:
    """:func:`analysis.favi.favi_table` and :func:`analysis.favi.favi_uncertainty` for every setting: one row per
    (domain, dataset, aspect, rater, system_a, system_b), with margins, Φ's interval, p-value and null |Φ|."""
    frames = []
    plan = settings(scores, datasets)
    for dataset, group in plan.groupby("dataset", sort=False):
        matrices = score_matrices(scores, dataset)
        for row in group.itertuples(index=False):
            human, metric = matrices[row.aspect], matrices[row.rater]
            table = favi.favi_uncertainty(human, metric, n_resamples=n_resamples, rng=rng)
            frames.append(table.assign(domain=row.domain, dataset=dataset, aspect=row.aspect, rater=row.rater))
    out = pd.concat(frames, ignore_index=True)
    return out[[*KEYS, *[c for c in out.columns if c not in KEYS]]]


def setting_table(pairs: pd.DataFrame, dataset: str, aspect: str, rater: str) -> pd.DataFrame:
    part = pairs[(pairs["dataset"] == dataset) & (pairs["aspect"] == aspect) & (pairs["rater"] == rater)]
    if part.empty:
        raise ValueError(f"no system pairs for {dataset} / {aspect} / {rater}")
    return part.reset_index(drop=True)


# -- Figs. 2-3 and the lemmas -------------------------------------------------------------------------------------

def worked_examples() -> pd.DataFrame:
    """Figs. 2 and 3's confusion matrices through :func:`analysis.favi.summarize`, next to the printed values."""
    fig2, fig3 = published.item("favi", "fig2"), published.item("favi", "fig3")
    rows = []
    cases = [(n, m, f, None) for n, m, f in zip(fig2["names"], fig2["matrices"], fig2["favi"])]
    cases.append(("C5", fig3["matrix"], fig3["favi"], fig3["sample_accuracy"]))
    for name, matrix, paper_favi, paper_accuracy in cases:
        r = favi.summarize(np.array(matrix))
        rows.append({"matrix": name, "total_error": r.total_error, "margin_human": r.margin_human,
                     "margin_metric": r.margin_metric, "favi": r.favi, "paper_favi": paper_favi,
                     "sample_accuracy": r.sample_accuracy, "paper_sample_accuracy": paper_accuracy})
    return pd.DataFrame(rows).set_index("matrix")


def lemma_checks(pairs: pd.DataFrame) -> pd.DataFrame:
    """Lemma 1 (Φ = (mar(d̂) - mar(d)) / E) and Lemma 2 (Φ = 0 implies equal margin signs) on every real pair."""
    defined = pairs[pairs["total_error"] > 0]
    via_margins = (defined["margin_metric"] - defined["margin_human"]) / defined["total_error"]
    zero = defined[defined["favi"] == 0]
    disagree = pairs[~pairs["system_sign_agrees"]]
    return pd.DataFrame([
        {"check": "pairs evaluated", "value": len(pairs)},
        {"check": "pairs without any error (Φ undefined, returned as NaN)", "value": int((pairs["total_error"] == 0).sum())},
        {"check": "Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|", "value": float((defined["favi"] - via_margins).abs().max())},
        {"check": "Lemma 2: pairs with Φ = 0", "value": len(zero)},
        {"check": "Lemma 2: ... of which the margin signs differ", "value": int((~zero["system_sign_agrees"]).sum())},
        {"check": "pairs whose margin signs differ", "value": len(disagree)},
        {"check": "... of which Φ = 0", "value": int((disagree["favi"] == 0).sum())},
    ]).set_index("check")


# -- Table 1 --------------------------------------------------------------------------------------------------------

def table1(scores: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand: per dataset, its automatic raters, the systems with human ratings and the
    items per system pair (|E|; a range where the pairs differ)."""
    rows = []
    for dataset, part in pairs.groupby("dataset", sort=False):
        kinds = scores[scores["dataset"] == dataset].drop_duplicates("rater")
        automatic = kinds[kinds["rater_kind"] != "human"]["rater"].tolist()
        human = kinds[kinds["rater_kind"] == "human"]["rater"].tolist()
        rated = scores[(scores["dataset"] == dataset) & scores["rater"].isin(human) & scores["score"].notna()]
        low, high = part["n_items"].min(), part["n_items"].max()
        rows.append({"domain": part["domain"].iloc[0], "data": dataset_label(dataset),
                     "human_raters": len(human), "automatic_raters": len(automatic),
                     "systems": rated["system"].nunique(),
                     "ratings_per_pair": f"{low}" if low == high else f"{low}-{high}",
                     "automatic": ", ".join(automatic)})
    return pd.DataFrame(rows)


def published_table1() -> pd.DataFrame:
    return pd.DataFrame(published.item("favi", "table1")["rows"])


# -- Fig. 4 and the per-metric summary ---------------------------------------------------------------------------

def metric_summary(pairs: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Per (domain, dataset, aspect, rater): Defs. 10-11 (sample- and system-level sign accuracy), mean |Φ| and its
    sd over pairs (Fig. 4), the share of pairs whose win-graph verdicts agree (§2), and beyond the paper the mean
    |Φ| a metric with the same errors and no favoritism would show and the share of pairs with p < ``alpha``."""
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
    return pd.DataFrame(rows)


def fig4_scope(frame: pd.DataFrame, summeval_aspect: str) -> pd.DataFrame:
    """The rows Fig. 4 plots: one human rater per dataset (SummEval: ``summeval_aspect``)."""
    keep = (frame["dataset"] != "summeval") | (frame["aspect"] == summeval_aspect)
    return frame[keep]


def plot_fig4(summary: pd.DataFrame) -> plt.Figure:
    """Fig. 4: per dataset (a panel; machine translation on top) and rater, sample-level (orange) and system-level
    (blue) sign accuracy and mean |Φ| ± sd (green band); grey dashes: the mean |Φ| of a metric with the same
    errors and no favoritism (beyond the paper)."""
    datasets = list(dict.fromkeys(summary["dataset"]))
    domains = list(dict.fromkeys(summary["domain"]))
    rows = [[d for d in datasets if summary.loc[summary["dataset"] == d, "domain"].iloc[0] == domains[0]],
            [d for d in datasets if summary.loc[summary["dataset"] == d, "domain"].iloc[0] != domains[0]]]
    rows = [r for r in rows if r]
    widths = {d: max(3, int(summary["dataset"].eq(d).sum())) for d in datasets}
    span = max(sum(widths[d] for d in r) for r in rows)
    top = min(2.05, max(1.05, float((summary["mean_abs_favi"] + summary["sd_abs_favi"]).max()) + 0.05))
    fig = plt.figure(figsize=(2.0 + 0.62 * span, 4.3 * len(rows)))
    grid = fig.add_gridspec(len(rows), span, hspace=0.9, wspace=2.5)
    axes = []
    for r, row in enumerate(rows):
        start = 0
        for dataset in row:
            ax = fig.add_subplot(grid[r, start:start + widths[dataset]])
            start += widths[dataset]
            axes.append(ax)
            part = summary[summary["dataset"] == dataset]
            x = np.arange(len(part))
            ax.plot(x, part["sample_accuracy"], "o-", color=COLORS["sample"], label="sample-level sign accuracy")
            ax.plot(x, part["system_accuracy"], "s-", color=COLORS["system"], label="system-level sign accuracy")
            ax.plot(x, part["mean_abs_favi"], "^-", color=COLORS["favi"], label="mean |Φ| (band: ± sd over pairs)")
            ax.fill_between(x, part["mean_abs_favi"] - part["sd_abs_favi"],
                            part["mean_abs_favi"] + part["sd_abs_favi"], color=COLORS["favi"], alpha=0.2, lw=0)
            ax.plot(x, part["null_mean_abs_favi"], "_--", color=COLORS["null"], ms=10,
                    label="mean |Φ| expected without favoritism")
            ax.set_xticks(x, part["rater"], rotation=60, ha="right", fontsize=8)
            aspect = part["aspect"].iloc[0]
            ax.set_title(dataset_label(dataset) + ("" if aspect in ("MQM", "USR_Overall") else f" ({aspect})"),
                         fontsize=10)
            ax.set_xlim(-0.5, len(part) - 0.5)
            ax.set_ylim(0, top)
    for ax in axes:
        if ax.get_subplotspec().colspan.start == 0:
            ax.set_ylabel("accuracy / mean |Φ|")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, bbox_to_anchor=(0.5, 0.97), frameon=False, fontsize=9)
    return fig


# -- Fig. 5 --------------------------------------------------------------------------------------------------------

def fig5_correlations(pairs: pd.DataFrame) -> pd.DataFrame:
    """§7.1's Spearman correlations over all pairs in ``pairs`` (pairs without an error left out), next to the
    paper's. Signed Φ depends on which system is called a (here: the lexicographically smaller), so its correlation
    with accuracy is also given for |Φ|."""
    paper = published.item("favi", "section7")
    defined = pairs[pairs["total_error"] > 0]
    rows = [
        ("|Φ| vs. system-level sign agreement (Fig. 5a)", defined["favi"].abs(), defined["system_sign_agrees"],
         paper["rho_abs_favi_system_agreement"]),
        ("Φ vs. sample-level accuracy (Fig. 5b)", defined["favi"], defined["sample_accuracy"],
         paper["rho_favi_sample_accuracy"]),
        ("|Φ| vs. sample-level accuracy", defined["favi"].abs(), defined["sample_accuracy"], np.nan),
    ]
    out = []
    for label, x, y, published_rho in rows:
        result = stats.spearmanr(x, y.astype(float))
        out.append({"correlation": label, "spearman_rho": result.statistic, "pairs": len(defined),
                    "paper": published_rho})
    return pd.DataFrame(out).set_index("correlation")


def plot_fig5(pairs: pd.DataFrame) -> plt.Figure:
    """Fig. 5: (a) |Φ| of pairs whose margin signs agree (1) or not (0); (b) Φ against sample-level accuracy,
    coloured by system-level agreement."""
    defined = pairs[pairs["total_error"] > 0].assign(abs_favi=lambda f: f["favi"].abs(),
                                                     agrees=lambda f: f["system_sign_agrees"].astype(int))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    sns.boxplot(data=defined, x="agrees", y="abs_favi", ax=left, color="#a6c8e0", fliersize=2)
    counts = defined["agrees"].value_counts()
    left.set_xticks([0, 1], [f"0: signs differ\n({counts.get(0, 0)} pairs)", f"1: signs agree\n({counts.get(1, 0)} pairs)"])
    left.set_xlabel("system-level sign agreement of the pair")
    left.set_ylabel("|Φ|")
    left.set_title("(a) |Φ| by system-level agreement", fontsize=10)
    for agrees, color in ((1, COLORS["system"]), (0, "#C44E52")):
        part = defined[defined["agrees"] == agrees]
        right.scatter(part["sample_accuracy"], part["favi"], s=8, alpha=0.5, color=color,
                      label="signs agree" if agrees else "signs differ")
    right.axhline(0, color="black", lw=0.6)
    right.set_xlabel("sample-level sign accuracy of the pair")
    right.set_ylabel("Φ (positive: favours the lexicographically first system)")
    right.set_title("(b) Φ vs. sample-level accuracy", fontsize=10)
    right.legend(fontsize=8, markerscale=2)
    fig.tight_layout()
    return fig


# -- Fig. 6 and the case figures (Fig. 1, Figs. 8-13) ------------------------------------------------------------------

def plot_one_vs_all(ax, table: pd.DataFrame, title: str = "") -> None:
    """Fig. 6: each system's Φ against every other system (positive: the metric favours it), systems sorted by
    their median Φ, most favoured on top."""
    long = favi.one_vs_all(table).dropna(subset=["favi"])
    order = long.groupby("system")["favi"].median().sort_values(ascending=False).index.tolist()
    sns.boxplot(data=long, y="system", x="favi", order=order, ax=ax, color="#b5d9b0", fliersize=2, orient="h")
    ax.axvline(0, color="black", lw=0.7)
    ax.set_xlabel("Φ (positive: favoured by the metric)")
    ax.set_ylabel("")
    ax.tick_params(axis="y", labelsize=8)
    ax.set_title(title, fontsize=10)


def plot_fig6(pairs: pd.DataFrame, cases: list[tuple[str, str, str]]) -> plt.Figure:
    fig, axes = plt.subplots(1, len(cases), figsize=(5.6 * len(cases), 5.2), squeeze=False)
    for ax, (dataset, aspect, rater) in zip(axes[0], cases):
        plot_one_vs_all(ax, setting_table(pairs, dataset, aspect, rater), f"{rater} on {dataset_label(dataset)}")
    fig.tight_layout()
    return fig


def draw_win_graph(ax, graph, reference=None, title: str = "") -> None:
    """A win graph drawn top-down in layers (:func:`analysis.favi.graph_layers`); with a ``reference`` graph (the
    humans'), edges that contradict or are absent from its transitive closure are drawn in red."""
    import networkx as nx

    layers = favi.graph_layers(graph)
    pos = {}
    for row, members in enumerate(layers):
        for k, node in enumerate(members):
            pos[node] = ((k - (len(members) - 1) / 2) * 2.4, -row)
    closure = nx.transitive_closure(reference) if reference is not None else None
    colors = ["#C44E52" if closure is not None and not closure.has_edge(u, v) else "#555555"
              for u, v in graph.edges]
    nx.draw_networkx_edges(graph, pos, ax=ax, edge_color=colors, arrows=True, arrowsize=10, width=1.0,
                           node_size=1400, connectionstyle="arc3,rad=0.06")
    for node, (x, y) in pos.items():
        ax.text(x, y, str(node), ha="center", va="center", fontsize=7,
                bbox={"boxstyle": "round,pad=0.3", "fc": "#eef3fa", "ec": "#4C72B0", "lw": 0.8})
    width = max((len(m) for m in layers), default=1)
    ax.set_xlim(-1.2 * width - 0.6, 1.2 * width + 0.6)
    ax.set_ylim(-len(layers) + 0.5, 0.6)
    ax.set_axis_off()
    ax.set_title(title + (" (contains a cycle: no edge removed)" if graph.graph.get("cyclic") else ""), fontsize=10)


def plot_case(table: pd.DataFrame, *, rater: str, aspect: str, dataset: str, alpha: float = 0.05,
              ties: str = "drop") -> plt.Figure:
    """The paper's case figures (Fig. 1 and Figs. 8-13): (a) the humans' win graph, (b) the metric's (red: an
    edge the humans' graph does not imply), (c) the per-system Φ box plots."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    human, metric = favi.win_graph(outcomes, "human"), favi.win_graph(outcomes, "metric")
    layers = max(len(favi.graph_layers(human)), len(favi.graph_layers(metric)))
    fig, axes = plt.subplots(1, 3, figsize=(17, max(4.0, 0.75 * layers + 1.5)),
                             gridspec_kw={"width_ratios": [1.15, 1.15, 0.8]})
    draw_win_graph(axes[0], human, title=f"(a) humans ({aspect})")
    draw_win_graph(axes[1], metric, reference=human, title=f"(b) {rater}")
    plot_one_vs_all(axes[2], table, f"(c) Φ per system ({rater})")
    accuracy = favi.sign_accuracies(table)
    fig.suptitle(f"{dataset_label(dataset)}: sign test at {1 - alpha:.0%}, ties {ties}; verdicts agree on "
                 f"{favi.graph_agreement(outcomes):.1%} of pairs; system-level sign accuracy {accuracy.system:.3f}, "
                 f"sample-level {accuracy.sample:.3f}, mean |Φ| {table['favi'].abs().mean():.3f}", fontsize=10)
    fig.tight_layout()
    return fig


def graph_summary(summary_pairs: pd.DataFrame, cases, *, alpha: float = 0.05) -> pd.DataFrame:
    """Per case: edges of the full significance relation (human, metric) and the verdict agreement with ties
    dropped (the conventional sign test) and split (Coakley & Heise's conservative version)."""
    rows = []
    for dataset, aspect, rater in cases:
        table = setting_table(summary_pairs, dataset, aspect, rater)
        row = {"dataset": dataset, "aspect": aspect, "rater": rater, "pairs": len(table)}
        for ties in ("drop", "split"):
            outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
            row[f"human_edges_{ties}"] = int((outcomes["human"] != 0).sum())
            row[f"metric_edges_{ties}"] = int((outcomes["metric"] != 0).sum())
            row[f"agreement_{ties}"] = favi.graph_agreement(outcomes)
        rows.append(row)
    return pd.DataFrame(rows)


# -- §2 and Appendix D ---------------------------------------------------------------------------------------------

def margin_example(pairs: pd.DataFrame, dataset: str = "wmt22-ende") -> pd.DataFrame:
    """§2: how often ``system`` is rated better / worse than ``opponent`` (percent of their shared items) by the
    humans (MQM) and by every automatic rater, next to the paper's values where it prints them."""
    item = published.item("favi", "section2")
    system, opponent = item["system"], item["opponent"]
    paper = {r["rater"]: r for r in item["rows"]}
    part = pairs[(pairs["dataset"] == dataset) & pairs["system_a"].isin([system, opponent])
                 & pairs["system_b"].isin([system, opponent])]
    if part.empty:
        raise ValueError(f"{dataset}: no pair {system} vs {opponent}")
    flip = part["system_a"].iloc[0] != system  # outcomes count for system_a
    widest = part.loc[part["n_items"].idxmax()]
    sides = [("MQM", widest, 1)] + [(row["rater"], row, 0) for _, row in part.iterrows()]
    rows = []
    for rater, row, axis in sides:
        c = row[list(favi.CELLS)].to_numpy(dtype=np.int64).reshape(3, 3)
        d = c.sum(axis=axis)  # axis 1: the human outcome (rows), axis 0: the metric's (columns)
        better, worse = (d[2], d[0]) if flip else (d[0], d[2])
        n = c.sum()
        published_row = paper.get(rater, {})
        rows.append({"rater": rater, "items": n, "better": 100 * better / n, "worse": 100 * worse / n,
                     "margin": 100 * (better - worse) / n, "paper_better": published_row.get("better"),
                     "paper_worse": published_row.get("worse"), "paper_margin": published_row.get("margin")})
    return pd.DataFrame(rows).set_index("rater").astype(float)


def appendix_d(summary: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's case studies next to the setting standing in for each here (:data:`APPENDIX_D_MATCH`)."""
    rows = []
    for case in published.item("favi", "appendix_d")["rows"]:
        match = APPENDIX_D_MATCH[case["metric"]]
        ours = {}
        if match is not None:
            dataset, aspect, rater = match
            hit = summary[(summary["dataset"] == dataset) & (summary["aspect"] == aspect) & (summary["rater"] == rater)]
            if not hit.empty:
                ours = hit.iloc[0]
        rows.append({"paper_metric": case["metric"], "paper_data": case["data"],
                     "here": f"{match[2]} on {dataset_label(match[0])}" if match else "not reachable",
                     "sample": ours.get("sample_accuracy", np.nan), "paper_sample": case["sample"],
                     "mean_abs_favi": ours.get("mean_abs_favi", np.nan), "paper_mean_abs_favi": case["mean_abs_favi"],
                     "system": ours.get("system_accuracy", np.nan), "paper_system": case["system"]})
    return pd.DataFrame(rows).set_index("paper_metric")


# -- Appendix C.2.1 and ChatGPT's head-to-head judgments -------------------------------------------------------------

def h2h_ratings(h2h: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's SummEval head-to-head judgments as preference ratings of (system_a, system_b), system_a < system_b:
    one row per (aspect, pair, document) with the ``original`` and ``toggled`` presentation's rating and the
    experts' (Def. 13 on their mean ratings)."""
    frame = h2h.copy()
    swap = frame["system_1"] > frame["system_2"]
    frame["system_a"] = frame["system_1"].where(~swap, frame["system_2"])
    frame["system_b"] = frame["system_2"].where(~swap, frame["system_1"])
    frame["rating"] = np.select([frame["preferred"] == frame["system_a"], frame["preferred"] == frame["system_b"],
                                 frame["preferred"] == "tie"], [1, -1, 0], default=99)
    if (frame["rating"] == 99).any():
        raise ValueError(f"head-to-head judgments naming neither system: {frame.loc[frame['rating'] == 99, 'preferred'].unique()[:5]}")
    expert_a = frame["expert_1"].where(~swap, frame["expert_2"])
    expert_b = frame["expert_2"].where(~swap, frame["expert_1"])
    frame["expert"] = favi.derived_preferences(expert_a.to_numpy(), expert_b.to_numpy())
    wide = frame.pivot_table(index=["aspect", "system_a", "system_b", "document"], columns="order",
                             values="rating", aggfunc="first")
    experts = frame.drop_duplicates(["aspect", "system_a", "system_b", "document"]).set_index(
        ["aspect", "system_a", "system_b", "document"])["expert"]
    out = wide.join(experts).reset_index()
    if out[["original", "toggled"]].isna().any().any():
        raise ValueError("some head-to-head judgments lack their other presentation order")
    return out.astype({"original": "int8", "toggled": "int8", "expert": "int8"})


def symmetry_table(ratings: pd.DataFrame) -> pd.DataFrame:
    """App. C.2.1 per aspect and overall: how often ChatGPT gives the same preference when the two summaries are
    shown in the other order, and Krippendorff's α between the two orders."""
    rows = []
    for aspect, part in [*ratings.groupby("aspect"), ("all aspects", ratings)]:
        s = favi.preference_symmetry(part["original"].to_numpy(), part["toggled"].to_numpy())
        rows.append({"aspect": aspect, "items": s.n_items, "accuracy": s.accuracy,
                     "alpha_nominal": s.alpha_nominal, "alpha_ordinal": s.alpha_ordinal})
    paper = published.item("favi", "appendix_c21")
    rows.append({"aspect": "paper: GPT-3.5 on WMT22 en-de", "items": np.nan, "accuracy": paper["accuracy"],
                 "alpha_nominal": paper["krippendorff_alpha"], "alpha_ordinal": np.nan})
    return pd.DataFrame(rows).set_index("aspect")


def symmetry_confusion(ratings: pd.DataFrame) -> pd.DataFrame:
    s = favi.preference_symmetry(ratings["original"].to_numpy(), ratings["toggled"].to_numpy())
    labels = ["+ (a better)", "= (tie)", "- (b better)"]
    return pd.DataFrame(s.confusion, index=pd.Index(labels, name="original order"),
                        columns=pd.Index(labels, name="toggled order"))


def h2h_favi(ratings: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's head-to-head judgments as a preference metric against the experts, per aspect and presentation
    order: sample- and system-level sign accuracy and mean |Φ| over its 11 system pairs."""
    rows = []
    for (aspect, order), part in ratings.melt(id_vars=["aspect", "system_a", "system_b", "document", "expert"],
                                              value_vars=["original", "toggled"], var_name="order",
                                              value_name="judge").groupby(["aspect", "order"]):
        grouped = part.groupby(["system_a", "system_b"], sort=True)
        c = np.stack([favi.confusion_matrix(g["expert"].to_numpy(), g["judge"].to_numpy()) for _, g in grouped])
        r = favi.summarize(c)
        rows.append({"aspect": aspect, "order": order, "pairs": len(c),
                     "sample_accuracy": np.trace(c, axis1=1, axis2=2).sum() / c.sum(),
                     "system_accuracy": r.system_sign_agrees.mean(), "mean_abs_favi": np.nanmean(np.abs(r.favi))})
    return pd.DataFrame(rows)


# -- beyond the paper: how much of |Φ| is noise ----------------------------------------------------------------------

def plot_noise(summary: pd.DataFrame) -> plt.Figure:
    """Observed mean |Φ| per setting against the mean |Φ| of a metric with the same errors and no favoritism."""
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    palette = dict(zip(DATASETS, sns.color_palette("colorblind", len(DATASETS))))
    for dataset, part in summary.groupby("dataset", sort=False):
        ax.scatter(part["null_mean_abs_favi"], part["mean_abs_favi"], s=22, color=palette[dataset],
                   label=dataset_label(dataset))
    top = float(np.nanmax(summary[["null_mean_abs_favi", "mean_abs_favi"]].to_numpy())) * 1.05
    ax.plot([0, top], [0, top], color="black", lw=0.8, ls="--", label="no favoritism beyond noise")
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("mean |Φ| expected without favoritism (sign-flip null)")
    ax.set_ylabel("observed mean |Φ|")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def attenuation_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Is a pair's Φ favoritism or attenuation? A metric that only adds noise shrinks every margin towards 0, so by
    Lemma 1 its Φ ≈ -mar(d) / E: it "favours" whichever system the humans rate lower. Per dataset: the share of
    pairs (with a human margin and an error) whose Φ favours the humans' weaker system, and Spearman's ρ between Φ
    and -mar(d) / E (1 = pure attenuation)."""
    usable = pairs[(pairs["total_error"] > 0) & (pairs["margin_human"] != 0)]
    rows = []
    for dataset, part in usable.groupby("dataset", sort=False):
        attenuation = -part["margin_human"] / part["total_error"]
        rows.append({"dataset": dataset_label(dataset), "pairs": len(part),
                     "favours_weaker": float((np.sign(part["favi"]) == np.sign(attenuation)).mean()),
                     "rho_favi_attenuation": stats.spearmanr(part["favi"], attenuation).statistic,
                     "favours_weaker_significant": float(
                         (np.sign(part["favi"]) == np.sign(attenuation))[part["p_value"] < 0.05].mean())})
    return pd.DataFrame(rows).set_index("dataset")
