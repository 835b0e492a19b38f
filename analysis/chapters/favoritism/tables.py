"""Chapter ``04_favoritism``'s tables as a reader sees them: the saved tables (whose CSVs the claims and the pinned
quick tables read) with readable headers, fewer columns and words instead of codes — Table 1 (ours and the paper's),
Figs. 2-3's worked examples, §2's margins, the win-graph agreement and the systems each metric favours most,
Fig. 4's domain comparison, Appendix D, Fig. 5's correlations, Fig. 6's named systems, App. C.2.1 and the attenuation
reading. The page's sentences are in the notebook's markdown."""

from __future__ import annotations

import pandas as pd

from .experiments import ATTENUATION_ALPHA, DATASETS
from .figures import rater_label, setting_name
from .published import APPENDIX_D_MATCH

#: a Table 1 row's data label -> its dataset key
_BY_LABEL = {label: key for key, (label, _) in DATASETS.items()}


def human_ratings_label(aspects) -> str:
    """A dataset's human ratings in words: ["expert_coherence", "expert_fluency"] → "experts' coherence, fluency";
    "USR_Overall" → "overall"; others as they are."""
    aspects = list(aspects)
    if aspects and all(a.startswith("expert_") for a in aspects):
        return "experts' " + ", ".join(a.removeprefix("expert_") for a in aspects)
    return ", ".join("overall" if a == "USR_Overall" else a.replace("_", " ") for a in aspects)


def table1_page(table1: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand as shown (:func:`.experiments.table1` is the saved one): per dataset the
    systems with human ratings and those Φ compares (a range over the automatic raters), items per system pair (a range where the pairs differ), human ratings and automatic raters by name."""
    humans = (scores[scores["rater_kind"] == "human"].drop_duplicates(["dataset", "rater"])
              .groupby("dataset", sort=False)["rater"].agg(list))
    rows = []
    for row in table1.itertuples(index=False):
        low, high = int(row.items_min), int(row.items_max)
        low_s, high_s = int(row.systems_compared_min), int(row.systems_compared_max)
        rows.append({"Domain": row.domain, "Data": row.data, "Systems with human ratings": int(row.systems_rated),
                     "Systems compared by Φ": f"{low_s}" if low_s == high_s else f"{low_s}–{high_s}",
                     "Items per system pair": f"{low:,}" if low == high else f"{low:,}–{high:,}",
                     "Human ratings": human_ratings_label(humans.get(_BY_LABEL.get(row.data, row.data), [])),
                     "Automatic raters": ", ".join(rater_label(r) for r in row.automatic.split(", "))})
    return pd.DataFrame(rows)


#: the row of the paper's Table 1 that each dataset here stands for (WMT22 zh-en stands in for metrics, not a row)
PAPER_TABLE1_ROWS = {"WMT22 en-de": "WMT22", "WMT21 en-de": "WMT21", "SummEval": "SummEval",
                     "USR TopicalChat": "Chatbot", "USR PersonaChat": "Chatbot"}


def table1_beside_paper(table1: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand beside the paper's row each dataset stands for (:data:`PAPER_TABLE1_ROWS`):
    per dataset the systems Φ compares (the claims' count), the items per system pair and the automatic raters,
    ours then the paper's, "—" where the paper has no row (``published``: :func:`.published.published_table1`)."""
    paper = published.set_index("domain")
    rows = []
    for row in table1.itertuples(index=False):
        low, high = int(row.items_min), int(row.items_max)
        theirs = paper.loc[PAPER_TABLE1_ROWS[row.data]] if row.data in PAPER_TABLE1_ROWS else None
        rows.append({("", "data"): row.data,
                     ("systems", "here"): int(row.systems),
                     ("systems", "paper"): "—" if theirs is None else f"{int(theirs['systems'])}",
                     ("items per system pair", "here"): f"{low:,}" if low == high else f"{low:,}–{high:,}",
                     ("items per system pair", "paper"): "—" if theirs is None else f"{int(theirs['ratings_per_pair']):,}",
                     ("metrics", "here"): int(row.automatic_raters),
                     ("metrics", "paper"): "—" if theirs is None else f"{int(theirs['metrics'])}",
                     ("", "the paper's data"): "—" if theirs is None else f"{theirs.name} ({theirs['data']})"})
    out = pd.DataFrame(rows)
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out.set_index(("", "data")).rename_axis("data")


def published_table1_page(published: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table 1 (:func:`.published.published_table1`) with its headers in words."""
    return published.rename(columns={"domain": "Domain", "data": "Data", "metrics": "Metrics", "systems": "Systems",
                                     "ratings_per_pair": "Items per system pair"})


def examples_page(examples: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 2-3's worked examples (:func:`.published.worked_examples`) as two tables: Φ and sample-level accuracy
    against the paper's, and the counts behind §5's reading of C₅ (errors and severe errors by the system they
    favour, the metric outcome d̂)."""
    scores = examples[["total_error", "margin_human", "margin_metric", "favi", "paper_favi", "sample_accuracy",
                       "paper_sample_accuracy"]].set_axis(
        ["errors E", "mar(d)", "mar(d̂)", "Φ", "paper's Φ", "sample-level accuracy", "paper's accuracy"], axis=1)
    counts = examples[["errors_for_first", "errors_for_second", "severe_for_first", "severe_for_second",
                       "metric_plus", "metric_tie", "metric_minus"]].set_axis(
        ["errors for π₁", "errors for π₂", "severe for π₁", "severe for π₂", "d̂ +", "d̂ =", "d̂ −"], axis=1)
    return scores.rename_axis("matrix"), counts.rename_axis("matrix")


def margins_page(margins: pd.DataFrame) -> pd.DataFrame:
    """§2's margins (:func:`.published.margin_example`) with headers in words, the paper's values beside ours."""
    out = margins.rename(index=rater_label)
    out.columns = pd.MultiIndex.from_tuples(
        [("", "items"), ("here (% of items)", "better"), ("here (% of items)", "worse"),
         ("here (% of items)", "margin"), ("paper (%)", "better"), ("paper (%)", "worse"), ("paper (%)", "margin")])
    return out.rename_axis("rater")


def _setting(frame: pd.DataFrame) -> pd.Index:
    labels = [f"{rater_label(r)} on {DATASETS[d][0]}" for d, r in zip(frame["dataset"], frame["rater"])]
    return pd.Index(labels, name="setting")


def graphs_page(graphs: pd.DataFrame) -> pd.DataFrame:
    """The win graphs' summary (:func:`.experiments.graph_summary`): per setting the significant pairs of the
    humans and of the metric and the share of pairs whose verdicts agree, with ties dropped and split."""
    columns = {}
    for ties, words in (("drop", "ties dropped"), ("half", "ties split")):
        columns[(words, "significant for humans")] = graphs[f"human_edges_{ties}"].to_numpy()
        columns[(words, "significant for the metric")] = graphs[f"metric_edges_{ties}"].to_numpy()
        columns[(words, "verdicts agree")] = graphs[f"agreement_{ties}"].to_numpy()
    out = pd.DataFrame(columns, index=_setting(graphs))
    out.insert(0, ("", "pairs"), graphs["pairs"].to_numpy())
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out


def _system_row(per_system: pd.DataFrame, case: tuple, system: str) -> dict | None:
    """One system's Fig. 6 box in numbers: median Φ and against how many of its opponents Φ is positive, negative."""
    dataset, aspect, rater = case
    hit = per_system[(per_system["dataset"] == dataset) & (per_system["aspect"] == aspect)
                     & (per_system["rater"] == rater) & (per_system["system"] == system)]
    if hit.empty:
        return None
    r = hit.iloc[0]
    return {"median Φ": r["median_favi"],
            "Φ > 0 against": f"{round(r['share_favoured'] * r['opponents'])} of {r['opponents']}",
            "Φ < 0 against": f"{round(r['share_disfavoured'] * r['opponents'])} of {r['opponents']}"}


def _graph_row(layers: pd.DataFrame, case: tuple, graph: str, system: str) -> str:
    dataset, aspect, rater = case
    hit = layers[(layers["dataset"] == dataset) & (layers["aspect"] == aspect) & (layers["rater"] == rater)
                 & (layers["graph"] == graph) & (layers["system"] == system)]
    return "—" if hit.empty else f"{hit['layer'].iloc[0] + 1} of {hit['layers'].iloc[0]}"


def favourites_page(per_system: pd.DataFrame, layers: pd.DataFrame, cases) -> pd.DataFrame:
    """Per case of the win graphs (:func:`.checks.win_graph_layers`): the system the metric favours most and the one
    it disfavours most (highest and lowest median Φ against the others, :func:`.checks.per_system`), with their Φ
    and their row in the humans' and in the metric's graph (row 1 is the top)."""
    rows, index = [], []
    for case in cases:
        dataset, aspect, rater = case
        mine = per_system[(per_system["dataset"] == dataset) & (per_system["aspect"] == aspect)
                          & (per_system["rater"] == rater)].sort_values("median_favi", kind="stable")
        if mine.empty:
            continue
        for which, system in (("favoured most", mine["system"].iloc[-1]), ("disfavoured most", mine["system"].iloc[0])):
            index.append((setting_name(dataset, rater), which))
            rows.append({"system": system, **_system_row(per_system, case, system),
                         "row, humans' graph": _graph_row(layers, case, "human", system),
                         "row, metric's graph": _graph_row(layers, case, "metric", system)})
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["setting", ""]))


def systems_page(per_system: pd.DataFrame, cases, named=("refB", "M2M100_1.2B-B4", "Online-W")) -> pd.DataFrame:
    """Fig. 6's systems that the paper names (``named``) and the MBR-decoded systems (names with "mbr"), per case:
    median Φ against the others and against how many Φ is positive and negative."""
    rows, index = [], []
    for case in cases:
        dataset, aspect, rater = case
        systems = set(per_system.loc[(per_system["dataset"] == dataset) & (per_system["aspect"] == aspect)
                                     & (per_system["rater"] == rater), "system"])
        for system in [s for s in named if s in systems] + sorted(s for s in systems if "mbr" in s):
            index.append((setting_name(dataset, rater), system))
            rows.append(_system_row(per_system, case, system))
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["setting", "system"]))


#: Fig. 4's domain comparison (:func:`.checks.domain_comparison`): its rows as shown, and how each is written
_DOMAIN_ROWS = [
    ("settings", "settings", "count"),
    ("min_mean_abs_favi", "lowest mean |Φ|", "value"),
    ("median_mean_abs_favi", "median mean |Φ|", "value"),
    ("max_mean_abs_favi", "highest mean |Φ|", "value"),
    ("median_sd_abs_favi", "median sd of |Φ| over pairs", "value"),
    ("median_null_mean_abs_favi", "median mean |Φ| without favoritism", "value"),
    ("median_excess", "median excess of mean |Φ| over it", "value"),
    ("mt_lower_share", "couples of settings where MT's mean |Φ| is lower", "share"),
    ("mt_excess_lower_share", "couples where MT's excess is lower", "share"),
]


def domains_page(domains: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4's domain comparison turned on its side (one column per domain), its values written out: counts as
    integers, shares as percentages, the rest to two decimals, "—" where a value does not apply."""
    frame = domains.set_index("domain")

    def written(value, kind):
        if pd.isna(value):
            return "—"
        return f"{int(value)}" if kind == "count" else f"{value:.0%}" if kind == "share" else f"{value:.2f}"

    rows = {label: [written(frame.loc[d, key], kind) for d in frame.index] for key, label, kind in _DOMAIN_ROWS}
    return pd.DataFrame(rows, index=frame.index).T.rename_axis(None, axis=1)


def appendix_d_page(cases: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's case studies (:func:`.published.appendix_d`): the paper's metric and data, the setting standing
    in here (:data:`.published.APPENDIX_D_MATCH`, named in words), and the three values here and in the paper."""
    here = [setting_name(m[0], m[2]) if m else "not reachable" for m in map(APPENDIX_D_MATCH.get, cases.index)]
    out = pd.DataFrame({("", "paper's data"): cases["paper_data"], ("", "here"): here})
    for key, words in (("sample", "sample-level accuracy"), ("mean_abs_favi", "mean |Φ|"),
                       ("system", "system-level accuracy")):
        out[(words, "here")] = cases[key]
        out[(words, "paper")] = cases[f"paper_{key}"]
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out.rename_axis("paper's metric")


def correlations_page(fig5: pd.DataFrame) -> pd.DataFrame:
    """Fig. 5's correlations (:func:`.published.fig5_correlations`) with headers in words."""
    return fig5.rename(columns={"spearman_rho": "Spearman's ρ", "pairs": "pairs", "paper": "paper's ρ"})


def symmetry_page(symmetry: pd.DataFrame) -> pd.DataFrame:
    """App. C.2.1's symmetry table (:func:`.published.symmetry_table`) with headers in words."""
    return symmetry.rename(columns={"items": "items", "accuracy": "same preference in both orders",
                                    "alpha_nominal": "Krippendorff's α, nominal", "alpha_ordinal": "α, ordinal"})


def h2h_page(h2h_metric: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's head-to-head judgments as a metric (:func:`.experiments.h2h_favi`) with headers in words."""
    return h2h_metric.rename(columns={"aspect": "aspect", "order": "presentation order", "pairs": "system pairs",
                                      "sample_accuracy": "sample-level accuracy",
                                      "system_accuracy": "system-level accuracy", "mean_abs_favi": "mean |Φ|"})


def attenuation_page(attenuation: pd.DataFrame) -> pd.DataFrame:
    """The attenuation reading (:func:`.experiments.attenuation_table`) with headers in words."""
    return attenuation.rename(columns={
        "pairs": "pairs", "favours_weaker": "Φ favours the humans' weaker system",
        "rho_favi_attenuation": "Spearman's ρ of Φ and −mar(d)/E",
        "favours_weaker_significant": f"… among pairs with p < {ATTENUATION_ALPHA:g}"})


def lemmas_page(lemmas: pd.DataFrame) -> pd.DataFrame:
    """Lemmas 1-2's checks (:func:`.experiments.lemma_checks`) as two plain columns (the check is no row label)."""
    out = lemmas.reset_index().set_axis(["check", "value"], axis=1)
    out["value"] = [f"{v:.1e}" if isinstance(v, float) and not float(v).is_integer() else f"{int(v):,}"
                    for v in out["value"]]
    return out



#: the datasets of :func:`fig4_ties_page`: the paper's own data and the zh-en stand-in
TIE_PAGE_DATASETS = ("wmt22-ende", "wmt21-ende", "summeval", "wmt22-zhen")


def fig4_ties_page(fig4: pd.DataFrame, datasets=TIE_PAGE_DATASETS) -> pd.DataFrame:
    """Fig. 4's values with the tie shares (:func:`.ties.with_ties`) for the settings on the paper's own data and
    the zh-en stand-in (the dialogue stand-in's are in the saved table): how often the humans, the metric and both
    tie, sample-level accuracy in both readings, system-level accuracy and mean |Φ|."""
    part = fig4[fig4["dataset"].isin(datasets)]
    part = part.iloc[pd.Index(datasets).get_indexer(part["dataset"]).argsort(kind="stable")]
    return pd.DataFrame({
        ("ties", "humans"): part["human_tie_share"].to_numpy(),
        ("ties", "metric"): part["metric_tie_share"].to_numpy(),
        ("ties", "both"): part["matching_tie_share"].to_numpy(),
        ("sample-level accuracy", "without tie credit"): part["sample_accuracy_without_tie_credit"].to_numpy(),
        ("sample-level accuracy", "Def. 11"): part["sample_accuracy"].to_numpy(),
        ("", "system-level accuracy"): part["system_accuracy"].to_numpy(),
        ("", "mean |Φ|"): part["mean_abs_favi"].to_numpy(),
    }, index=pd.Index([setting_name(d, r) for d, r in zip(part["dataset"], part["rater"])], name="setting"))


def appendix_d_ties_page(cases: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's sample-level accuracy in its two readings (:func:`.published.appendix_d`): the tie shares of the
    setting standing in here, the accuracy without and with the matching ties' credit, the paper's, and whether
    the paper's lies between the two; rows without a setting here are left out."""
    here = cases.dropna(subset=["sample"])
    return pd.DataFrame({
        ("ties", "humans"): here["human_tie_share"], ("ties", "metric"): here["metric_tie_share"],
        ("ties", "both"): here["matching_tie_share"],
        ("sample-level accuracy", "without tie credit"): here["sample_without_tie_credit"],
        ("sample-level accuracy", "Def. 11"): here["sample"],
        ("sample-level accuracy", "paper"): here["paper_sample"],
        ("sample-level accuracy", "paper's between the two"): here["paper_between"].map({True: "yes", False: "no"}),
    }).rename_axis("paper's metric")
