"""Appendix D's case studies: the printed values beside the setting standing in for each, and sample-level accuracy
in its two readings (with and without the matching ties' credit)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...data import published
from .experiments import DATASETS, setting_name, setting_table
from .fig4 import tie_columns

#: Appendix D's case studies -> the (dataset, aspect, rater) standing in for each here (None: nothing reachable)
APPENDIX_D_MATCH = {
    "BertScore": None,
    "ROUGE": ("summeval", "expert_consistency", "ROUGE_L"),
    "ChatGPT": ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"),
    "BLEU": ("wmt22-ende", "MQM", "BLEU"),
}


def appendix_d(summary: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's case studies beside the setting standing in for each (``summary``: Fig. 4's summary with
    ties), with its tie shares and whether the paper's sample-level accuracy lies between our two readings."""
    paper = pd.DataFrame(published.item("favi", "appendix_d")["rows"]).set_index("metric").rename_axis("paper_metric")
    match = [APPENDIX_D_MATCH[metric] for metric in paper.index]
    ours = summary.set_index(["dataset", "aspect", "rater"]).reindex([m or ("", "", "") for m in match])
    ours = ours.set_axis(paper.index).rename(columns={
        "sample_accuracy": "sample", "system_accuracy": "system",
        "sample_accuracy_without_tie_credit": "sample_without_tie_credit"})
    out = pd.DataFrame({"paper_data": paper["data"],
                        "here": [f"{m[2]} on {DATASETS[m[0]]}" if m else "not reachable" for m in match]})
    for key in ("sample", "mean_abs_favi", "system"):
        out[key], out[f"paper_{key}"] = ours.get(key, np.nan), paper[key]
    for key in ("sample_without_tie_credit", "human_tie_share", "metric_tie_share", "matching_tie_share"):
        out[key] = ours.get(key, np.nan)
    out["paper_between"] = [reading_gap(p, lo, hi) == 0 for p, lo, hi in
                            zip(out["paper_sample"], out["sample_without_tie_credit"], out["sample"])]
    return out


def appendix_d_page(cases: pd.DataFrame) -> pd.DataFrame:
    """:func:`appendix_d`'s three values here and in the paper, with the setting standing in named in words."""
    here = [setting_name(m[0], m[2]) if m else "not reachable" for m in map(APPENDIX_D_MATCH.get, cases.index)]
    out = pd.DataFrame({("", "paper's data"): cases["paper_data"], ("", "here"): here})
    for key, words in (("sample", "sample-level accuracy"), ("mean_abs_favi", "mean |Φ|"),
                       ("system", "system-level accuracy")):
        out[(words, "here")] = cases[key]
        out[(words, "paper")] = cases[f"paper_{key}"]
    return out.rename_axis("paper's metric")


def appendix_d_ties_page(cases: pd.DataFrame) -> pd.DataFrame:
    """:func:`appendix_d`'s sample-level accuracy in its two readings beside the paper's (rows with a setting)."""
    here = cases.dropna(subset=["sample"])
    return pd.DataFrame({
        **tie_columns(here, "sample_without_tie_credit", "sample"),
        ("sample-level accuracy", "paper"): here["paper_sample"],
        ("sample-level accuracy", "paper's between the two"): here["paper_between"].map({True: "yes", False: "no"}),
    }).rename_axis("paper's metric")


def reading_gap(paper: float, low: float, high: float) -> float:
    """How far a printed sample-level accuracy lies outside our two readings, widened by half a unit of its last
    printed digit (0.07 -> 0.005): 0 between them, negative below, NaN without all three."""
    if any(pd.isna(v) for v in (paper, low, high)):
        return np.nan
    half = 0.5 * 10 ** -(len(f"{paper}".split(".")[1]) if "." in f"{paper}" else 0)
    return min(0.0, paper - (low - half)) + max(0.0, paper - (high + half))


def implied_human_tie_share(paper_accuracy: float, ties: pd.Series) -> float:
    """The human tie share at which our metric would have the paper's sample-level accuracy, keeping its accuracy a
    on the items the humans do not tie and its matching-tie share t: acc = (1 - h) a + t."""
    untied = ties["sample_accuracy_without_tie_credit"] / (1 - ties["human_tie_share"])
    return float(1 - (paper_accuracy - ties["matching_tie_share"]) / untied)


def appendix_d_reading_checks(cases: pd.DataFrame) -> dict[str, tuple[float, bool]]:
    """Whether each of App. D's printed sample-level accuracies lies between our two readings (:func:`reading_gap`)."""
    gaps = {metric: reading_gap(row["paper_sample"], row["sample_without_tie_credit"], row["sample"])
            for metric, row in cases.dropna(subset=["sample"]).iterrows()}
    return {f"appD.readings_{str(metric).lower()}": (float(gap), gap == 0) for metric, gap in gaps.items()}


def appendix_d_values(ties: pd.DataFrame, summeval_aspect: str) -> dict[str, float]:
    """The printed system-level shares of Fig. 1 and App. D on the grid of C(9, 2) = 36 pairs of Table 1's nine
    WMT22 en-de systems or C(16, 2) = 120 of SummEval's 16 (App. D.2), and the human tie share at which ROUGE-L
    would have the paper's sample-level accuracy (``ties``: :func:`.fig4.tie_shares`)."""
    agreement = published.item("favi", "section2")["graph_agreement_comet22"] / 100
    cases = {row["metric"]: row for row in published.item("favi", "appendix_d")["rows"]}
    # Def. 10: N = C(|Π|, 2), all pairs of the domain's systems (Table 1: |Π| = 9 for WMT22, 16 for SummEval)
    systems = published.frame("favi", "table1").set_index("domain")["systems"]
    wmt22, summeval = (math.comb(int(systems[d]), 2) for d in ("WMT22", "SummEval"))
    values = {f"pairs{n}.{key}": round(share * n) / n for n, key, share in (
        (wmt22, "fig1_agreement", agreement), (wmt22, "appD_chatgpt_system", cases["ChatGPT"]["system"]),
        (wmt22, "appD_bleu_system", cases["BLEU"]["system"]), (summeval, "appD_rouge_system", cases["ROUGE"]["system"]),
        (summeval, "appD_bertscore_system", cases["BertScore"]["system"]))}
    rouge = setting_table(ties, "summeval", summeval_aspect, "ROUGE_L", required=False)
    if len(rouge):
        values["appD.implied_human_tie_share_rouge"] = implied_human_tie_share(cases["ROUGE"]["sample"], rouge.iloc[0])
    return values


def appendix_d3_checks(fig4: pd.DataFrame) -> dict[str, tuple[float, bool]]:
    """App. D.3 among the reachable WMT22 en-de raters: ChatGPT's system-level accuracy at most the median, its
    sample-level accuracy and mean |Φ| the highest, BLEU's system-level accuracy the lowest; each with the number of
    other raters beyond it in the claimed direction."""
    en = fig4[fig4["dataset"] == "wmt22-ende"].set_index("rater") if "dataset" in fig4.columns else fig4.iloc[:0]
    if not {"GEMBA-DA-ChatGPT", "BLEU"} <= set(en.index):
        return {}
    claims = (("chatgpt_lower_system_accuracy", "GEMBA-DA-ChatGPT", "system_accuracy", np.less, "median"),
              ("chatgpt_highest_sample_accuracy", "GEMBA-DA-ChatGPT", "sample_accuracy", np.greater, "max"),
              ("chatgpt_highest_mean_abs_favi", "GEMBA-DA-ChatGPT", "mean_abs_favi", np.greater, "max"),
              ("bleu_lowest_system_accuracy", "BLEU", "system_accuracy", np.less, "min"))
    # holds: no bound (the median, max or min over the raters) lies beyond the rater's value in the claimed direction
    return {f"appD3.{key}": (float(op(en.drop(index=rater)[column], en.loc[rater, column]).sum()),
                             not op(en[column].agg(bound), en.loc[rater, column]))
            for key, rater, column, op, bound in claims}

