"""Chapter ``04_favoritism``'s tables as a reader sees them: the saved tables (whose CSVs the claims and the pinned
quick tables read) with readable headers, fewer columns and words instead of codes."""

from __future__ import annotations

import pandas as pd

from ..common import metric_label
from .experiments import ATTENUATION_ALPHA, DATASETS, setting_rows, span
from .figures import aspect_label, setting_index, setting_name
from .published import APPENDIX_D_MATCH

#: the saved tables' column names in words (Table 1 as printed, Fig. 5's correlations, App. C.2.1's symmetry,
#: ChatGPT's head-to-head judgments as a metric, the attenuation reading, the multiple tests)
WORDS = {"domain": "Domain", "data": "Data", "metrics": "Metrics", "systems": "Systems",
         "ratings_per_pair": "Items per system pair", "spearman_rho": "Spearman's ρ", "paper": "paper's ρ",
         "accuracy": "same preference in both orders", "alpha_nominal": "Krippendorff's α, nominal",
         "alpha_ordinal": "α, ordinal", "order": "presentation order", "sample_accuracy": "sample-level accuracy",
         "system_accuracy": "system-level accuracy", "mean_abs_favi": "mean |Φ|",
         "favours_weaker": "Φ favours the humans' weaker system",
         "rho_favi_attenuation": "Spearman's ρ of Φ and −mar(d)/E",
         "favours_weaker_significant": f"… among pairs with p < {ATTENUATION_ALPHA:g}", "tests": "pairs tested",
         "significant_share": "significant, uncorrected",
         "significant_bh_share": "significant after Benjamini–Hochberg"}


def in_words(frame: pd.DataFrame, **more: str) -> pd.DataFrame:
    """``frame`` with the column names of :data:`WORDS` (and ``more``) in words."""
    return frame.rename(columns=WORDS | more)


def human_ratings_label(aspects) -> str:
    """A dataset's human ratings in words: ["expert_coherence", "expert_fluency"] → "experts' coherence, fluency"."""
    aspects = list(aspects)
    if aspects and all(a.startswith("expert_") for a in aspects):
        return "experts' " + ", ".join(a.removeprefix("expert_") for a in aspects)
    return ", ".join(map(aspect_label, aspects))


def table1_page(table1: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand as shown (:func:`.experiments.table1` is the saved one), with the human ratings
    and automatic raters by name."""
    humans = (scores[scores["rater_kind"] == "human"].drop_duplicates(["dataset", "rater"])
              .groupby("dataset", sort=False)["rater"].agg(list))
    by_label = {label: key for key, label in DATASETS.items()}
    return pd.DataFrame({
        "Domain": table1["domain"], "Data": table1["data"],
        "Systems with human ratings": table1["systems_rated"].astype(int),
        "Systems compared by Φ": list(map(span, table1["systems_compared_min"], table1["systems_compared_max"])),
        "Items per system pair": list(map(span, table1["items_min"], table1["items_max"])),
        "Human ratings": [human_ratings_label(humans.get(by_label.get(d, d), [])) for d in table1["data"]],
        "Automatic raters": [", ".join(map(metric_label, a.split(", "))) for a in table1["automatic"]]})


#: the row of the paper's Table 1 that each dataset here stands for (WMT22 zh-en stands in for metrics, not a row)
PAPER_TABLE1_ROWS = {"WMT22 en-de": "WMT22", "WMT21 en-de": "WMT21", "SummEval": "SummEval",
                     "USR TopicalChat": "Chatbot", "USR PersonaChat": "Chatbot"}


def table1_beside_paper(table1: pd.DataFrame, published: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand beside the paper's row each dataset stands for (:data:`PAPER_TABLE1_ROWS`),
    "—" where the paper has no row (``published``: :func:`.published.published_table1`)."""
    paper = published.set_index("domain")
    rows = [paper.loc[PAPER_TABLE1_ROWS[d]] if d in PAPER_TABLE1_ROWS else None for d in table1["data"]]

    def theirs(written):
        return ["—" if row is None else written(row) for row in rows]

    return pd.DataFrame({
        ("systems", "here"): table1["systems"].astype(int).to_numpy(),
        ("systems", "paper"): theirs(lambda row: f"{int(row['systems'])}"),
        ("items per system pair", "here"): list(map(span, table1["items_min"], table1["items_max"])),
        ("items per system pair", "paper"): theirs(lambda row: f"{int(row['ratings_per_pair']):,}"),
        ("metrics", "here"): table1["automatic_raters"].astype(int).to_numpy(),
        ("metrics", "paper"): theirs(lambda row: f"{int(row['metrics'])}"),
        ("", "the paper's data"): theirs(lambda row: f"{row.name} ({row['data']})"),
    }, index=pd.Index(table1["data"], name="data"))


def examples_page(examples: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Figs. 2-3's worked examples (:func:`.published.worked_examples`) as two tables: Φ and sample-level accuracy
    against the paper's, and the counts behind §5's reading of C₅."""
    scores = examples[["total_error", "margin_human", "margin_metric", "favi", "paper_favi", "sample_accuracy",
                       "paper_sample_accuracy"]].set_axis(
        ["errors E", "mar(d)", "mar(d̂)", "Φ", "paper's Φ", "sample-level accuracy", "paper's accuracy"], axis=1)
    counts = examples[["errors_for_first", "errors_for_second", "severe_for_first", "severe_for_second",
                       "metric_plus", "metric_tie", "metric_minus"]].set_axis(
        ["errors for π₁", "errors for π₂", "severe for π₁", "severe for π₂", "d̂ +", "d̂ =", "d̂ −"], axis=1)
    return scores.rename_axis("matrix"), counts.rename_axis("matrix")


def margins_page(margins: pd.DataFrame) -> pd.DataFrame:
    """§2's margins (:func:`.published.margin_example`) with headers in words, the paper's values beside ours."""
    out = margins.rename(index=metric_label)
    out.columns = pd.MultiIndex.from_tuples(
        [("", "items"), ("here (% of items)", "better"), ("here (% of items)", "worse"),
         ("here (% of items)", "margin"), ("paper (%)", "better"), ("paper (%)", "worse"), ("paper (%)", "margin")])
    return out.rename_axis("rater")


def graphs_page(graphs: pd.DataFrame) -> pd.DataFrame:
    """The win graphs' summary (:func:`.experiments.graph_summary`) with ties dropped and split."""
    columns = {("", "pairs"): graphs["pairs"].to_numpy()}
    for ties, words in (("drop", "ties dropped"), ("half", "ties split")):
        columns[(words, "significant for humans")] = graphs[f"human_edges_{ties}"].to_numpy()
        columns[(words, "significant for the metric")] = graphs[f"metric_edges_{ties}"].to_numpy()
        columns[(words, "verdicts agree")] = graphs[f"agreement_{ties}"].to_numpy()
    return pd.DataFrame(columns, index=setting_index(graphs))


def _box(row: pd.Series) -> dict:
    """One system's Fig. 6 box in numbers: median Φ and against how many of its opponents Φ is positive, negative."""
    return {"median Φ": row["median_favi"],
            "Φ > 0 against": f"{round(row['share_favoured'] * row['opponents'])} of {row['opponents']}",
            "Φ < 0 against": f"{round(row['share_disfavoured'] * row['opponents'])} of {row['opponents']}"}


def favourites_page(per_system: pd.DataFrame, layers: pd.DataFrame, cases) -> pd.DataFrame:
    """Per case of the win graphs (:func:`.checks.win_graph_layers`): the systems the metric favours and disfavours
    most (highest and lowest median Φ against the others, :func:`.checks.per_system`), with their row in the humans'
    and in the metric's graph (row 1 is the top)."""
    rows, index = [], []
    for case in cases:
        mine = setting_rows(per_system, *case).sort_values("median_favi", kind="stable")
        where = {(graph, system): f"{layer + 1} of {n}" for graph, system, layer, n
                 in setting_rows(layers, *case)[["graph", "system", "layer", "layers"]].itertuples(index=False)}
        for which, row in (("favoured most", mine.iloc[-1]), ("disfavoured most", mine.iloc[0])) if len(mine) else ():
            index.append((setting_name(case[0], case[2]), which))
            rows.append({"system": row["system"], **_box(row),
                         "row, humans' graph": where.get(("human", row["system"]), "—"),
                         "row, metric's graph": where.get(("metric", row["system"]), "—")})
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["setting", ""]))


def systems_page(per_system: pd.DataFrame, cases, named=("refB", "M2M100_1.2B-B4", "Online-W")) -> pd.DataFrame:
    """Fig. 6's systems that the paper names (``named``) and the MBR-decoded systems (names with "mbr"), per case:
    median Φ against the others and against how many Φ is positive and negative."""
    rows, index = [], []
    for case in cases:
        mine = setting_rows(per_system, *case).drop_duplicates("system").set_index("system")
        for system in [s for s in named if s in mine.index] + sorted(s for s in mine.index if "mbr" in s):
            index.append((setting_name(case[0], case[2]), system))
            rows.append(_box(mine.loc[system]))
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["setting", "system"]))


#: Fig. 4's domain comparison (:func:`.checks.domain_comparison`): its rows as shown, and how each is written
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
    """Fig. 4's domain comparison turned on its side (one column per domain), "—" where a value does not apply."""
    frame = domains.set_index("domain")
    rows = {label: ["—" if pd.isna(v) else written.format(v) for v in frame[key]] for key, label, written in _DOMAIN_ROWS}
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


def lemmas_page(lemmas: pd.DataFrame) -> pd.DataFrame:
    """Lemmas 1-2's checks (:func:`.experiments.lemma_checks`) as two plain columns (the check is no row label)."""
    out = lemmas.reset_index().set_axis(["check", "value"], axis=1)
    out["value"] = [f"{v:.1e}" if isinstance(v, float) and not float(v).is_integer() else f"{int(v):,}"
                    for v in out["value"]]
    return out


def _ties(frame: pd.DataFrame, without: str, with_credit: str) -> dict:
    """The tie shares of ``frame``'s settings and its sample-level accuracy without and with the ties' credit."""
    return {("ties", "humans"): frame["human_tie_share"], ("ties", "metric"): frame["metric_tie_share"],
            ("ties", "both"): frame["matching_tie_share"],
            ("sample-level accuracy", "without tie credit"): frame[without],
            ("sample-level accuracy", "Def. 11"): frame[with_credit]}


def fig4_ties_page(fig4: pd.DataFrame, datasets=("wmt22-ende", "wmt21-ende", "summeval", "wmt22-zhen")) -> pd.DataFrame:
    """Fig. 4's values with the tie shares (:func:`.ties.with_ties`) for the settings on the paper's own data and
    the zh-en stand-in (``datasets``; the dialogue stand-ins' are in the saved table)."""
    part = fig4[fig4["dataset"].isin(datasets)]
    part = part.iloc[pd.Index(datasets).get_indexer(part["dataset"]).argsort(kind="stable")]
    return pd.DataFrame({**_ties(part, "sample_accuracy_without_tie_credit", "sample_accuracy"),
                         ("", "system-level accuracy"): part["system_accuracy"],
                         ("", "mean |Φ|"): part["mean_abs_favi"]}).set_axis(setting_index(part))


def appendix_d_ties_page(cases: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's sample-level accuracy in its two readings (:func:`.published.appendix_d`) beside the paper's,
    and whether the paper's lies between the two; rows without a setting here are left out."""
    here = cases.dropna(subset=["sample"])
    return pd.DataFrame({
        **_ties(here, "sample_without_tie_credit", "sample"), ("sample-level accuracy", "paper"): here["paper_sample"],
        ("sample-level accuracy", "paper's between the two"): here["paper_between"].map({True: "yes", False: "no"}),
    }).rename_axis("paper's metric")
