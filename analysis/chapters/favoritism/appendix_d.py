"""Appendix D's case studies: the printed values beside the setting standing in for each, and sample-level accuracy
in its two readings (with and without the matching ties' credit)."""

from __future__ import annotations

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
#: Appendix D's tie columns -> those of Fig. 4's summary with ties
_TIE_CASE_COLUMNS = {"sample_without_tie_credit": "sample_accuracy_without_tie_credit",
                     "human_tie_share": "human_tie_share", "metric_tie_share": "metric_tie_share",
                     "matching_tie_share": "matching_tie_share"}


def appendix_d(summary: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's case studies beside the setting standing in for each (``summary``: Fig. 4's summary with
    ties), with its tie shares and whether the paper's sample-level accuracy lies between our two readings."""
    rows = []
    for case in published.item("favi", "appendix_d")["rows"]:
        match = APPENDIX_D_MATCH[case["metric"]]
        hit = setting_table(summary, *match, required=False) if match else summary.iloc[:0]
        ours = hit.iloc[0] if len(hit) else {}
        rows.append({"paper_metric": case["metric"], "paper_data": case["data"],
                     "here": f"{match[2]} on {DATASETS[match[0]]}" if match else "not reachable",
                     "sample": ours.get("sample_accuracy", np.nan), "paper_sample": case["sample"],
                     "mean_abs_favi": ours.get("mean_abs_favi", np.nan), "paper_mean_abs_favi": case["mean_abs_favi"],
                     "system": ours.get("system_accuracy", np.nan), "paper_system": case["system"],
                     **{name: ours.get(column, np.nan) for name, column in _TIE_CASE_COLUMNS.items()}})
    out = pd.DataFrame(rows).set_index("paper_metric")
    out["paper_between"] = [between_readings(p, lo, hi) for p, lo, hi in
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
    out.columns = pd.MultiIndex.from_tuples(out.columns)
    return out.rename_axis("paper's metric")


def appendix_d_ties_page(cases: pd.DataFrame) -> pd.DataFrame:
    """:func:`appendix_d`'s sample-level accuracy in its two readings beside the paper's (rows with a setting)."""
    here = cases.dropna(subset=["sample"])
    return pd.DataFrame({
        **tie_columns(here, "sample_without_tie_credit", "sample"),
        ("sample-level accuracy", "paper"): here["paper_sample"],
        ("sample-level accuracy", "paper's between the two"): here["paper_between"].map({True: "yes", False: "no"}),
    }).rename_axis("paper's metric")


def half_printed(value: float) -> float:
    """Half a unit of the last digit a printed value shows (0.07 -> 0.005, 0.348 -> 0.0005)."""
    decimals = len(f"{value}".split(".")[1]) if "." in f"{value}" else 0
    return 0.5 * 10 ** -decimals


def between_readings(paper: float, low: float, high: float) -> bool:
    """Whether a printed sample-level accuracy lies between our two readings, widened by its printed rounding."""
    if any(pd.isna(v) for v in (paper, low, high)):
        return False
    half = half_printed(paper)
    return bool(low - half <= paper <= high + half)


def implied_human_tie_share(paper_accuracy: float, ties: pd.Series) -> float:
    """The human tie share at which our metric would have the paper's sample-level accuracy, keeping its accuracy a
    on the items the humans do not tie and its matching-tie share t: acc = (1 - h) a + t."""
    untied = ties["sample_accuracy_without_tie_credit"] / (1 - ties["human_tie_share"])
    return float(1 - (paper_accuracy - ties["matching_tie_share"]) / untied)


def appendix_d_reading_checks(cases: pd.DataFrame) -> dict[str, tuple[bool, float]]:
    """Whether each of App. D's printed sample-level accuracies lies between our two readings, and how far outside
    their range (widened by its rounding) it lies: 0 inside, negative below."""
    checks = {}
    for metric, row in cases.dropna(subset=["sample"]).iterrows():
        paper, low, high = row["paper_sample"], row["sample_without_tie_credit"], row["sample"]
        half = half_printed(paper)
        gap = min(0.0, paper - (low - half)) + max(0.0, paper - (high + half))
        checks[f"appD.readings_{str(metric).lower()}"] = (bool(row["paper_between"]), float(gap))
    return checks


def appendix_d3_checks(fig4: pd.DataFrame) -> dict[str, tuple[bool, float]]:
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
    return {f"appD3.{key}": (not op(en[column].agg(bound), en.loc[rater, column]),
                             float(op(en.drop(index=rater)[column], en.loc[rater, column]).sum()))
            for key, rater, column, op, bound in claims}

