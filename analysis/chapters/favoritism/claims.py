"""The values and boolean checks that the claims registry (``data/published/claims/favi.toml``) reads."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...data import published
from .appendix_c21 import first_position
from .appendix_d import appendix_d3_checks, appendix_d_reading_checks, implied_human_tie_share
from .cases import graph_row_checks
from .definitions import definition_checks
from .fig5 import TOP_SHARE


def claim_values(*, fig5_pairs: pd.DataFrame, fig4: pd.DataFrame, ties: pd.DataFrame, h2h: pd.DataFrame,
                 summeval_aspect: str, null_rhos: np.ndarray) -> pd.DataFrame:
    """The numbers the registry and the prose read that no other table holds (``null_rhos``:
    :func:`.fig5.no_favoritism_rho`)."""
    defined = fig5_pairs[fig5_pairs["total_error"] > 0]
    absolute, agrees = defined["favi"].abs(), defined["system_sign_agrees"].astype(bool)
    top = defined["sample_accuracy"] >= defined["sample_accuracy"].quantile(1 - TOP_SHARE)
    values = {
        "fig5a.median_abs_favi_signs_differ": absolute[~agrees].median(),
        "fig5a.median_abs_favi_signs_agree": absolute[agrees].median(),
        "fig5a.no_favoritism_rho_mean": float(np.mean(null_rhos)),
        "fig5a.no_favoritism_rho_low": float(np.percentile(null_rhos, 2.5)),
        "fig5a.no_favoritism_rho_high": float(np.percentile(null_rhos, 97.5)),
        # a one-sided p-value of "the inverse correlation goes beyond what errors without favoritism give": the
        # share of the no-favoritism draws whose ρ is at or below the observed one
        "fig5a.no_favoritism_share_at_or_below": float(np.mean(
            null_rhos <= stats.spearmanr(absolute, agrees.astype(float)).statistic + 1e-12)),
        "fig5b.top_accuracy_threshold": defined["sample_accuracy"].quantile(1 - TOP_SHARE),
        "fig5b.median_abs_favi_top_accuracy": absolute[top].median(),
        "fig5b.median_abs_favi_other_accuracy": absolute[~top].median(),
        "section6.rho_abs_favi_agreement_pairs": stats.spearmanr(absolute, agrees.astype(float)).statistic,
        "section6.rho_sample_accuracy_agreement_pairs": stats.spearmanr(defined["sample_accuracy"],
                                                                        agrees.astype(float)).statistic,
        "section6.rho_mean_abs_favi_system_accuracy_metrics": stats.spearmanr(fig4["mean_abs_favi"],
                                                                              fig4["system_accuracy"]).statistic,
        "section6.rho_sample_accuracy_system_accuracy_metrics": stats.spearmanr(fig4["sample_accuracy"],
                                                                                fig4["system_accuracy"]).statistic,
    }
    section2 = published.item("favi", "section2")
    cases = {row["metric"]: row for row in published.item("favi", "appendix_d")["rows"]}
    # the paper's system-level shares on the grid of C(9, 2) = 36 pairs of Table 1's nine WMT22 en-de systems and
    # of C(16, 2) = 120 pairs of SummEval's 16 (App. D.2)
    for n, key, share in ((36, "fig1_agreement", section2["graph_agreement_comet22"] / 100),
                          (36, "appD_chatgpt_system", cases["ChatGPT"]["system"]),
                          (36, "appD_bleu_system", cases["BLEU"]["system"]),
                          (120, "appD_rouge_system", cases["ROUGE"]["system"]),
                          (120, "appD_bertscore_system", cases["BertScore"]["system"])):
        values[f"pairs{n}.{key}"] = round(share * n) / n
    rouge = ties[(ties["dataset"] == "summeval") & (ties["aspect"] == summeval_aspect) & (ties["rater"] == "ROUGE_L")]
    if len(rouge):
        values["appD.implied_human_tie_share_rouge"] = implied_human_tie_share(cases["ROUGE"]["sample"], rouge.iloc[0])
    values["c21.first_position_share"], values["c21.first_position_pvalue"] = first_position(h2h)
    return pd.DataFrame({"key": list(values), "value": [float(v) for v in values.values()]})


def claim_checks(*, values: pd.DataFrame, fig4: pd.DataFrame, domains: pd.DataFrame, layers: pd.DataFrame,
                 pairs: pd.DataFrame | None = None, appendix_d: pd.DataFrame | None = None) -> pd.DataFrame:
    """The boolean checks behind the registry's qualitative records, each with the number it compares."""
    v = values.set_index("key")["value"]
    d = domains.set_index("domain")
    above = fig4["mean_abs_favi"] > fig4["null_mean_abs_favi"]
    checks = {"fig4.every_setting_above_null": (bool(above.all()), float(above.mean()))}
    if {"machine translation", "summarization"} <= set(d.index):
        mt, summ = d.loc["machine translation"], d.loc["summarization"]
        # each as the MT settings' median over the summarization settings' (below 1: MT's is the lower)
        checks["fig4.mt_median_below_summarization"] = (
            bool(mt["median_mean_abs_favi"] < summ["median_mean_abs_favi"]),
            _ratio(mt["median_mean_abs_favi"], summ["median_mean_abs_favi"]))
        checks["fig4.summarization_sd_above_mt"] = (bool(summ["median_sd_abs_favi"] > mt["median_sd_abs_favi"]),
                                                    _ratio(mt["median_sd_abs_favi"], summ["median_sd_abs_favi"]))
        checks["fig4.mt_excess_below_summarization"] = (bool(mt["median_excess"] < summ["median_excess"]),
                                                        _ratio(mt["median_excess"], summ["median_excess"]))
    differ, agree = v["fig5a.median_abs_favi_signs_differ"], v["fig5a.median_abs_favi_signs_agree"]
    checks["fig5a.larger_when_signs_differ"] = (bool(differ > agree), float(differ - agree))
    for key, level in (("pairs", "agreement_pairs"), ("metrics", "system_accuracy_metrics")):
        favi_rho = abs(v[f"section6.rho_{'abs_favi' if key == 'pairs' else 'mean_abs_favi'}_{level}"])
        accuracy_rho = abs(v[f"section6.rho_sample_accuracy_{level}"])
        checks[f"section6.favi_beats_accuracy_{key}"] = (bool(favi_rho > accuracy_rho), float(favi_rho - accuracy_rho))
    checks |= appendix_d3_checks(fig4)
    checks |= graph_row_checks(layers)
    if appendix_d is not None:
        checks |= appendix_d_reading_checks(appendix_d)
    if pairs is not None:
        checks |= definition_checks(pairs)
    return pd.DataFrame({"key": list(checks), "holds": [h for h, _ in checks.values()],
                         "value": [float(x) for _, x in checks.values()]})


def _ratio(numerator: float, denominator: float) -> float:
    return float(numerator / denominator) if denominator > 0 else np.nan
