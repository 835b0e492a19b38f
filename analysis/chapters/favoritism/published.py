"""Chapter ``04_favoritism`` next to the paper: the printed values of the Favi-Score paper read from
:mod:`analysis.data.published` and the side-by-side tables — Figs. 2-3's worked examples, Table 1 as printed, §7.1's
correlations (Fig. 5), §2's margin example, Appendix D's case studies and Appendix C.2.1's order symmetry."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import favi
from ...data import published
from .experiments import dataset_label, setting_rows
from .ties import between_readings

#: Appendix D's case studies -> the (dataset, aspect, rater) standing in for each here (None: nothing reachable)
APPENDIX_D_MATCH = {
    "BertScore": None,
    "ROUGE": ("summeval", "expert_consistency", "ROUGE_L"),
    "ChatGPT": ("wmt22-ende", "MQM", "GEMBA-DA-ChatGPT"),
    "BLEU": ("wmt22-ende", "MQM", "BLEU"),
}


# -- Figs. 2-3 and Table 1 -----------------------------------------------------------------------------------------

def worked_examples() -> pd.DataFrame:
    """Figs. 2 and 3's confusion matrices through :func:`analysis.favi.summarize`, next to the printed values, with
    §5's counts of errors by the system they favour and the metric outcome d̂ (Fig. 3's fourth row)."""
    fig2, fig3 = published.item("favi", "fig2"), published.item("favi", "fig3")
    rows = []
    cases = [(n, m, f, None) for n, m, f in zip(fig2["names"], fig2["matrices"], fig2["favi"])]
    cases.append(("C5", fig3["matrix"], fig3["favi"], fig3["sample_accuracy"]))
    for name, matrix, paper_favi, paper_accuracy in cases:
        c = np.array(matrix)
        r = favi.summarize(c)
        rows.append({"matrix": name, "total_error": r.total_error, "margin_human": r.margin_human,
                     "margin_metric": r.margin_metric, "favi": r.favi, "paper_favi": paper_favi,
                     "sample_accuracy": r.sample_accuracy, "paper_sample_accuracy": paper_accuracy,
                     # §5 on Fig. 3: errors in favour of the first system (below the diagonal) and of the second
                     # (above it), the severe ones (- read as +, + read as -), and the metric outcome d̂
                     "errors_for_first": int(np.tril(c, -1).sum()), "errors_for_second": int(np.triu(c, 1).sum()),
                     "severe_for_first": int(c[2, 0]), "severe_for_second": int(c[0, 2]),
                     "metric_plus": int(r.outcome_metric[0]), "metric_tie": int(r.outcome_metric[1]),
                     "metric_minus": int(r.outcome_metric[2])})
    return pd.DataFrame(rows).set_index("matrix")


def published_table1() -> pd.DataFrame:
    return pd.DataFrame(published.item("favi", "table1")["rows"])


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


#: Appendix D's tie columns (name in :func:`appendix_d` -> column of Fig. 4's summary with ties)
_TIE_CASE_COLUMNS = {"sample_without_tie_credit": "sample_accuracy_without_tie_credit",
                     "human_tie_share": "human_tie_share", "metric_tie_share": "metric_tie_share",
                     "matching_tie_share": "matching_tie_share"}


def appendix_d(summary: pd.DataFrame) -> pd.DataFrame:
    """Appendix D's case studies next to the setting standing in for each here (:data:`APPENDIX_D_MATCH`), with
    the tie shares of that setting (``summary``: Fig. 4's summary with ties, :func:`.ties.with_ties`), the
    sample-level accuracy without the matching ties' credit, and whether the paper's sample-level accuracy lies
    between that and Def. 11's reading (:func:`.ties.between_readings`)."""
    rows = []
    for case in published.item("favi", "appendix_d")["rows"]:
        match = APPENDIX_D_MATCH[case["metric"]]
        hit = setting_rows(summary, *match) if match else summary.iloc[:0]
        ours = hit.iloc[0] if len(hit) else {}
        rows.append({"paper_metric": case["metric"], "paper_data": case["data"],
                     "here": f"{match[2]} on {dataset_label(match[0])}" if match else "not reachable",
                     "sample": ours.get("sample_accuracy", np.nan), "paper_sample": case["sample"],
                     "mean_abs_favi": ours.get("mean_abs_favi", np.nan), "paper_mean_abs_favi": case["mean_abs_favi"],
                     "system": ours.get("system_accuracy", np.nan), "paper_system": case["system"],
                     **{name: ours.get(column, np.nan) for name, column in _TIE_CASE_COLUMNS.items()}})
    out = pd.DataFrame(rows).set_index("paper_metric")
    out["paper_between"] = [between_readings(p, lo, hi) for p, lo, hi in
                            zip(out["paper_sample"], out["sample_without_tie_credit"], out["sample"])]
    return out


# -- Appendix C.2.1 ---------------------------------------------------------------------------------------------------

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
