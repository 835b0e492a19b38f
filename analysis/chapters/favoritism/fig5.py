"""Fig. 5 and §7.1: Φ against sign accuracy, with what metrics with the same errors and no favoritism give."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from scipy import stats

from ...data import published
from .wingraphs import COLORS, FONT, MAX_WIDTH, NOT_IMPLIED


def fig5_correlations(pairs: pd.DataFrame) -> pd.DataFrame:
    """§7.1's Spearman correlations over the pairs with an error, beside the paper's. Signed Φ depends on which
    system is called a, so its correlation with accuracy is also given for |Φ|."""
    paper = published.item("favi", "section7")
    defined = pairs[pairs["total_error"] > 0]
    rows = [
        ("|Φ| vs. system-level sign agreement (Fig. 5a)", defined["favi"].abs(), defined["system_sign_agrees"],
         paper["rho_abs_favi_system_agreement"]),
        ("Φ vs. sample-level accuracy (Fig. 5b)", defined["favi"], defined["sample_accuracy"],
         paper["rho_favi_sample_accuracy"]),
        ("|Φ| vs. sample-level accuracy", defined["favi"].abs(), defined["sample_accuracy"], np.nan),
    ]
    return pd.DataFrame([{"correlation": label, "spearman_rho": stats.spearmanr(x, y.astype(float)).statistic,
                          "pairs": len(defined), "paper": rho} for label, x, y, rho in rows]).set_index("correlation")


def plot_fig5(pairs: pd.DataFrame) -> plt.Figure:
    """Fig. 5's two panels side by side (the paper stacks them): (a) |Φ| by system-level sign agreement; (b) Φ
    against sample-level accuracy."""
    defined = pairs[pairs["total_error"] > 0].assign(abs_favi=lambda f: f["favi"].abs(),
                                                     agrees=lambda f: f["system_sign_agrees"].astype(int))
    fig, (upper, lower) = plt.subplots(1, 2, figsize=(MAX_WIDTH, 4.2), gridspec_kw={"width_ratios": [1, 1.15]})
    sns.boxplot(data=defined, y="agrees", x="abs_favi", ax=upper, color="#a6c8e0", fliersize=2, orient="h",
                order=[0, 1])
    counts = defined["agrees"].value_counts()
    upper.set_yticks([0, 1], [f"0: signs differ\n({counts.get(0, 0):,} pairs)",
                              f"1: signs agree\n({counts.get(1, 0):,} pairs)"])
    upper.set(ylabel="", xlabel="|Φ| of the pair")
    upper.set_title("(a) |Φ| by system-level sign agreement", fontsize=FONT + 2, loc="left")
    for agrees, color in ((1, COLORS["system"]), (0, NOT_IMPLIED)):
        part = defined[defined["agrees"] == agrees]
        lower.scatter(part["sample_accuracy"], part["favi"], s=8, alpha=0.5, color=color,
                      label="signs agree" if agrees else "signs differ")
    lower.axhline(0, color="black", lw=0.6)
    lower.set(xlabel="sample-level sign accuracy of the pair", ylabel="Φ (+: favours the first system)")
    lower.set_title("(b) Φ against sample-level accuracy", fontsize=FONT + 2, loc="left")
    lower.legend(fontsize=FONT, markerscale=2, loc="lower center", bbox_to_anchor=(0.5, 1.07), ncol=2,
                 frameon=False, borderaxespad=0)
    fig.tight_layout(w_pad=2.5)
    return fig


def no_favoritism_rho(pairs: pd.DataFrame, *, n_draws: int, rng) -> np.ndarray:
    """Fig. 5a's ρ(|Φ|, sign agreement) for metrics with each pair's errors in random directions (the sign-flip
    null of :func:`analysis.favi.favi_uncertainty`; mar(d̂) = mar(d) + E Φ by Lemma 1), one per draw."""
    defined = pairs[pairs["total_error"] > 0]
    n1 = (defined["c_pe"] + defined["c_ep"] + defined["c_em"] + defined["c_me"]).to_numpy()
    n2 = (defined["c_pm"] + defined["c_mp"]).to_numpy()
    errors, margin = n1 + n2, defined["margin_human"].to_numpy()
    rhos = np.empty(n_draws)
    for k in range(n_draws):
        shift = (2 * rng.binomial(n1, 0.5) - n1) + 2 * (2 * rng.binomial(n2, 0.5) - n2)
        agrees = np.sign(margin) == np.sign(margin + shift)
        rhos[k] = stats.spearmanr(np.abs(shift / errors), agrees.astype(float)).statistic
    return rhos


#: the pairs whose sample-level accuracy counts as "very high" (§7.1, Fig. 5b): the top tenth
TOP_SHARE = 0.1


def fig5_values(fig5_pairs: pd.DataFrame, fig4: pd.DataFrame, null_rhos: np.ndarray) -> dict[str, float]:
    """Figs. 5a-b's and §6's numbers for the registry that no table holds (``null_rhos``:
    :func:`no_favoritism_rho`)."""
    defined = fig5_pairs[fig5_pairs["total_error"] > 0]
    absolute, agrees = defined["favi"].abs(), defined["system_sign_agrees"].astype(bool)
    top = defined["sample_accuracy"] >= defined["sample_accuracy"].quantile(1 - TOP_SHARE)
    rho = stats.spearmanr(absolute, agrees.astype(float)).statistic
    return {
        "fig5a.median_abs_favi_signs_differ": absolute[~agrees].median(),
        "fig5a.median_abs_favi_signs_agree": absolute[agrees].median(),
        "fig5a.no_favoritism_rho_mean": float(np.mean(null_rhos)),
        "fig5a.no_favoritism_rho_low": float(np.percentile(null_rhos, 2.5)),
        "fig5a.no_favoritism_rho_high": float(np.percentile(null_rhos, 97.5)),
        # a one-sided p-value of "the inverse correlation goes beyond what errors without favoritism give"
        "fig5a.no_favoritism_share_at_or_below": float(np.mean(null_rhos <= rho + 1e-12)),
        "fig5b.top_accuracy_threshold": defined["sample_accuracy"].quantile(1 - TOP_SHARE),
        "fig5b.median_abs_favi_top_accuracy": absolute[top].median(),
        "fig5b.median_abs_favi_other_accuracy": absolute[~top].median(),
        "section6.rho_abs_favi_agreement_pairs": rho,
        "section6.rho_sample_accuracy_agreement_pairs": stats.spearmanr(defined["sample_accuracy"],
                                                                        agrees.astype(float)).statistic,
        "section6.rho_mean_abs_favi_system_accuracy_metrics": stats.spearmanr(fig4["mean_abs_favi"],
                                                                              fig4["system_accuracy"]).statistic,
        "section6.rho_sample_accuracy_system_accuracy_metrics": stats.spearmanr(fig4["sample_accuracy"],
                                                                                fig4["system_accuracy"]).statistic,
    }


def fig5_checks(v) -> dict[str, tuple[float, bool]]:
    """Fig. 5a's larger |Φ| where the margin signs differ, and §6's "|Φ| tells more about ranking errors than
    sample-level accuracy" over pairs and over metrics (its |ρ| the larger), each as (the difference, holds)."""
    differ = v["fig5a.median_abs_favi_signs_differ"] - v["fig5a.median_abs_favi_signs_agree"]
    checks = {"fig5a.larger_when_signs_differ": (float(differ), bool(differ > 0))}
    for key, level, favi_rho in (("pairs", "agreement_pairs", "abs_favi"),
                                 ("metrics", "system_accuracy_metrics", "mean_abs_favi")):
        gap = abs(v[f"section6.rho_{favi_rho}_{level}"]) - abs(v[f"section6.rho_sample_accuracy_{level}"])
        checks[f"section6.favi_beats_accuracy_{key}"] = (float(gap), bool(gap > 0))
    return checks


def _top_difference(accuracy: np.ndarray, absolute: np.ndarray) -> float:
    top = accuracy >= np.quantile(accuracy, 1 - TOP_SHARE)
    return float(np.median(absolute[top]) - np.median(absolute[~top]))


def top_accuracy_favi(pairs: pd.DataFrame, *, n_resamples: int, rng, alpha: float = 0.05) -> pd.DataFrame:
    """§7.1 on Fig. 5b, "very high sample-level accuracies are associated with smaller Favi-Scores": the median |Φ|
    of the top tenth of pairs by accuracy minus the others', with a bootstrap interval over the pairs (holds: the
    interval lies below 0)."""
    defined = pairs[pairs["total_error"] > 0]
    accuracy = defined["sample_accuracy"].to_numpy(float)
    absolute = defined["favi"].abs().to_numpy(float)
    draws = rng.integers(0, len(accuracy), size=(n_resamples, len(accuracy)))
    spread = [_top_difference(accuracy[k], absolute[k]) for k in draws]
    low, high = np.percentile(spread, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return pd.DataFrame([{"key": "fig5b.smaller_at_top_accuracy", "holds": bool(high < 0),
                          "value": _top_difference(accuracy, absolute), "low": float(low),
                          "high": float(high), "top_share": TOP_SHARE,
                          "top_accuracy_threshold": float(np.quantile(accuracy, 1 - TOP_SHARE)),
                          "pairs": len(accuracy)}])
