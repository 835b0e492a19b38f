"""Chapter ``04_favoritism``'s tidy tables for the claims registry (``data/published/claims/favi.toml``): tie shares
(Fig. 4, App. D), every system's one-against-all Φ (Fig. 6), the rows of the win graphs (Fig. 1, Figs. 8-13), Fig. 4's
domain comparison (§7.1), and the values and boolean checks the registry reads (§1, §6, §7.1, App. C.2.1, App. D)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import favi
from ...data import published
from .experiments import KEYS, setting_table
from .ties import half_printed

#: Table 1's nine WMT22 en-de systems give C(9, 2) pairs: the denominator of the paper's system-level shares there
PAIRS_OF_NINE = 36
#: SummEval's 16 systems give C(16, 2) pairs: the denominator of App. D.2's system-level accuracies
PAIRS_OF_SIXTEEN = 120
#: the pairs whose sample-level accuracy counts as "very high" (§7.1, Fig. 5b): the top tenth
TOP_SHARE = 0.1


# -- ties (Fig. 4, App. D) -------------------------------------------------------------------------------------------

def tie_shares(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per (domain, dataset, aspect, rater), pooled over its pairs' items: how often the humans tie (=), how often
    the metric ties, how often both tie (a *matching tie*, counted as correct by Def. 11), the sample-level
    accuracy, and the same accuracy without the matching ties' credit (only agreeing + and − count)."""
    cells = pairs.groupby(KEYS, sort=False)[["n_items", *favi.CELLS]].sum()
    n = cells["n_items"]
    out = pd.DataFrame({
        "items": n,
        "human_tie_share": (cells["c_ep"] + cells["c_ee"] + cells["c_em"]) / n,
        "metric_tie_share": (cells["c_pe"] + cells["c_ee"] + cells["c_me"]) / n,
        "matching_tie_share": cells["c_ee"] / n,
        "sample_accuracy": (cells["c_pp"] + cells["c_ee"] + cells["c_mm"]) / n,
        "sample_accuracy_without_tie_credit": (cells["c_pp"] + cells["c_mm"]) / n,
    })
    return out.reset_index()


def implied_human_tie_share(paper_accuracy: float, ties: pd.Series) -> float:
    """The human tie share at which our metric, keeping its accuracy on the items the humans do not tie and its
    matching ties, would have the paper's sample-level accuracy: acc = (1 - h) * a + t, so h = 1 - (acc - t) / a,
    with a = accuracy without tie credit / (1 - our human tie share) and t = our matching-tie share."""
    untied = ties["sample_accuracy_without_tie_credit"] / (1 - ties["human_tie_share"])
    return float(1 - (paper_accuracy - ties["matching_tie_share"]) / untied)


# -- per system (Fig. 6, App. D) ---------------------------------------------------------------------------------------

def per_system(pairs: pd.DataFrame) -> pd.DataFrame:
    """Fig. 6 in numbers: per setting and system, its Φ against every other system (positive: the metric favours
    it), summarised as the median and mean Φ and the shares of opponents it is favoured / disfavoured against."""
    long = favi.one_vs_all(pairs).join(pd.concat([pairs[KEYS]] * 2, ignore_index=True)).dropna(subset=["favi"])
    long = long.assign(setting=long.groupby(KEYS, sort=False).ngroup(), favoured=long["favi"] > 0,
                       disfavoured=long["favi"] < 0)
    out = long.groupby(["setting", *KEYS, "system"]).agg(
        # median and mean as a Series computes them (the grouped ones differ in the last bit and in the sign of 0)
        opponents=("favi", "size"), median_favi=("favi", lambda f: f.median()), mean_favi=("favi", lambda f: f.mean()),
        share_favoured=("favoured", "mean"), share_disfavoured=("disfavoured", "mean"))
    return out.reset_index().drop(columns="setting")


# -- win graphs (Fig. 1, Figs. 8-13) -------------------------------------------------------------------------------

def win_graph_layers(pairs: pd.DataFrame, cases, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Per case (dataset, aspect, rater) and graph (human, metric): every system's row in the drawn win graph
    (:func:`analysis.favi.graph_layers`, 0 = unbeaten) and the number of rows."""
    rows = []
    for dataset, aspect, rater in cases:
        outcomes = favi.significance_outcomes(setting_table(pairs, dataset, aspect, rater), alpha=alpha, ties=ties)
        for who in ("human", "metric"):
            layers = favi.graph_layers(favi.win_graph(outcomes, who))
            for depth, members in enumerate(layers):
                rows += [{"dataset": dataset, "aspect": aspect, "rater": rater, "graph": who, "system": s,
                          "layer": depth, "layers": len(layers)} for s in members]
    return pd.DataFrame(rows)


# -- Fig. 4: the domains compared (§7.1) ------------------------------------------------------------------------------

def domain_comparison(fig4: pd.DataFrame) -> pd.DataFrame:
    """§7.1's "machine-translation metrics exhibit a lower amount of favoritism": per domain of Fig. 4's settings,
    the range and median of mean |Φ|, the median sd over pairs, the median no-favoritism level and the median excess
    of mean |Φ| over it; and per other domain the share of (MT setting, its setting) couples in which the MT
    setting's mean |Φ| (``mt_lower_share``) or excess (``mt_excess_lower_share``) is the lower."""
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


# -- Fig. 5a without favoritism (beyond the paper) ---------------------------------------------------------------------

def no_favoritism_rho(pairs: pd.DataFrame, *, n_draws: int, rng) -> np.ndarray:
    """Fig. 5a's Spearman ρ(|Φ|, sign agreement) for metrics with each pair's errors and no favoritism: every error
    keeps its cost's size (1 or 2) and gets a random direction (the sign-flip null of
    :func:`analysis.favi.favi_uncertainty`, drawn per pair from its confusion counts), the metric margin follows by
    Lemma 1 (mar(d̂) = mar(d) + E Φ). One ρ per draw."""
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


# -- Fig. 5b: very high sample-level accuracy and |Φ| ------------------------------------------------------------------

def _top_difference(accuracy: np.ndarray, absolute: np.ndarray, top_share: float) -> float:
    """The median |Φ| of the pairs in the top ``top_share`` of sample-level accuracy minus that of the others."""
    top = accuracy >= np.quantile(accuracy, 1 - top_share)
    return float(np.median(absolute[top]) - np.median(absolute[~top]))


def top_accuracy_favi(pairs: pd.DataFrame, *, n_resamples: int, rng, alpha: float = 0.05,
                      top_share: float = TOP_SHARE) -> pd.DataFrame:
    """§7.1 on Fig. 5b, "very high sample-level accuracies are associated with smaller Favi-Scores": over the pairs
    with an error, the median |Φ| of the top ``top_share`` of sample-level accuracy minus that of the other pairs,
    with its 1 − ``alpha`` percentile interval from ``n_resamples`` bootstrap draws of the pairs (the top share's
    threshold drawn anew each time). One row, ``key, holds, value, low, high`` (``holds``: the whole interval lies
    below 0), with the threshold and the pairs."""
    defined = pairs[pairs["total_error"] > 0]
    accuracy = defined["sample_accuracy"].to_numpy(float)
    absolute = defined["favi"].abs().to_numpy(float)
    draws = rng.integers(0, len(accuracy), size=(n_resamples, len(accuracy)))
    spread = [_top_difference(accuracy[k], absolute[k], top_share) for k in draws]
    low, high = np.percentile(spread, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return pd.DataFrame([{"key": "fig5b.smaller_at_top_accuracy", "holds": bool(high < 0),
                          "value": _top_difference(accuracy, absolute, top_share), "low": float(low),
                          "high": float(high), "top_share": top_share,
                          "top_accuracy_threshold": float(np.quantile(accuracy, 1 - top_share)),
                          "pairs": len(accuracy)}])


# -- the values and checks the registry reads -------------------------------------------------------------------------

def first_position(h2h: pd.DataFrame) -> tuple[float, float]:
    """App. C.2.1, position bias: among the judgments that prefer one summary, the share naming the one shown first
    (response "A…"), and the two-sided binomial p-value of "no position preference"."""
    letter = h2h["response"].astype(str).str.strip().str[0]
    first, second = int((letter == "A").sum()), int((letter == "B").sum())
    return first / (first + second), float(stats.binomtest(first, first + second, 0.5).pvalue)


def claim_values(*, fig5_pairs: pd.DataFrame, fig4: pd.DataFrame, ties: pd.DataFrame, h2h: pd.DataFrame,
                 summeval_aspect: str, null_rhos: np.ndarray) -> pd.DataFrame:
    """The numbers the registry and the prose read that no other table holds, as a tidy ``key, value`` table
    (``null_rhos``: :func:`no_favoritism_rho`'s draws)."""
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
    for key, share in (("fig1_agreement", section2["graph_agreement_comet22"] / 100),
                       ("appD_chatgpt_system", cases["ChatGPT"]["system"]),
                       ("appD_bleu_system", cases["BLEU"]["system"])):
        values[f"pairs36.{key}"] = round(share * PAIRS_OF_NINE) / PAIRS_OF_NINE
    for key, share in (("appD_rouge_system", cases["ROUGE"]["system"]),
                       ("appD_bertscore_system", cases["BertScore"]["system"])):
        values[f"pairs120.{key}"] = round(share * PAIRS_OF_SIXTEEN) / PAIRS_OF_SIXTEEN
    rouge = ties[(ties["dataset"] == "summeval") & (ties["aspect"] == summeval_aspect) & (ties["rater"] == "ROUGE_L")]
    if len(rouge):
        values["appD.implied_human_tie_share_rouge"] = implied_human_tie_share(cases["ROUGE"]["sample"], rouge.iloc[0])
    values["c21.first_position_share"], values["c21.first_position_pvalue"] = first_position(h2h)
    return pd.DataFrame({"key": list(values), "value": [float(v) for v in values.values()]})


def definition_checks(pairs: pd.DataFrame) -> dict[str, tuple[bool, float]]:
    """The paper's definitions as properties of the implementation's outputs on every pair of ``pairs`` (a
    :func:`analysis.favi.favi_table`), and App. A's and the Limitations' enumerations of single items, each with the
    number it compares (the claims' "Ours"):

    * Def. 4: the nine cells count every item once (the pairs where they do not);
    * Defs. 5-6: E is the sum of the off-diagonal cells (the pairs where it is not);
    * Def. 7: the margins are the row (human) and column (metric) sums of + minus those of - (the pairs where not);
    * Def. 8 / App. A: the cost of each (human, metric) rating of one item equals the change it makes to
      mar(d̂) - mar(d), so Φ (Def. 9) equals Lemma 1's margin form (how many of the nine costs do);
    * Def. 9: Φ lies in [-2, 2] (the largest |Φ|) and is left undefined (NaN) exactly where E = 0;
    * Def. 11: the sample-level accuracy is the diagonal over the items, i.e. (|T| - E) / |T| (the largest gap);
    * Limitations: with a single error, Φ is ±1 or ±2 (how many of the six one-error matrices);
    * Def. 10: :func:`system_accuracy_pairs`."""
    cells = pairs[list(favi.CELLS)].to_numpy(dtype=np.int64)
    items, total = pairs["n_items"].to_numpy(), pairs["total_error"].to_numpy()
    diagonal = cells[:, [0, 4, 8]].sum(axis=1)
    human = cells[:, 0:3].sum(axis=1) - cells[:, 6:9].sum(axis=1)
    metric = cells[:, [0, 3, 6]].sum(axis=1) - cells[:, [2, 5, 8]].sum(axis=1)
    phi = pairs["favi"].to_numpy(float)
    values = (1, 0, -1)  # +, =, - in matrix order
    item_margin = np.array([values[n] - values[m] for m in range(3) for n in range(3)])  # mar(d̂) - mar(d), one item
    one_error = [favi.favi_score(np.eye(1, 9, k, dtype=np.int64).reshape(3, 3)) for k in range(9) if k % 4]
    miscounted = int((cells.sum(axis=1) != items).sum())
    off_diagonal = int((cells.sum(axis=1) - diagonal != total).sum())
    margins = int(((human != pairs["margin_human"].to_numpy()) | (metric != pairs["margin_metric"].to_numpy())).sum())
    costs = int((favi.COST.ravel() == item_margin).sum())
    largest = np.abs(phi[total > 0])
    accuracy = pairs["sample_accuracy"].to_numpy(float)
    counted, eq7 = system_accuracy_pairs(pairs)
    return {
        "def4.cells_count_every_item": (miscounted == 0, float(miscounted)),
        "def6.total_error_off_diagonal": (off_diagonal == 0, float(off_diagonal)),
        "def7.margins_from_outcomes": (margins == 0, float(margins)),
        "appA.cost_is_item_margin_change": (costs == 9, float(costs)),
        "def9.range_minus2_to_2": (bool((largest <= 2).all()), float(largest.max()) if len(largest) else np.nan),
        "def9.undefined_without_errors": (bool((np.isnan(phi) == (total == 0)).all()), np.nan),
        "def11.sample_accuracy_identity": (bool(np.allclose(accuracy, diagonal / items)
                                                and np.allclose(diagonal, items - total)),
                                           float(np.abs(accuracy - diagonal / items).max())),
        "limitations.one_error_phi_is_1_or_2": (sorted(one_error) == [-2, -1, -1, 1, 1, 2],
                                                float(sum(abs(f) in (1, 2) for f in one_error))),
        "def10.system_accuracy_over_all_pairs": (bool(counted == 1 and eq7), counted),
    }


def system_accuracy_pairs(pairs: pd.DataFrame) -> tuple[float, bool]:
    """Def. 10 (eq. 7) on every setting of ``pairs`` (one setting when it has no :data:`KEYS` columns): the smallest
    share, over the settings, of their N = C(|Π|, 2) system pairs that the system-level accuracy counts, and whether
    that accuracy (:func:`analysis.favi.sign_accuracies`) equals eq. 7 recomputed from the pairs' margins,
    sgn(d₊ − d₋) = sgn(d̂₊ − d̂₋) averaged over the N pairs."""
    keys = [k for k in KEYS if k in pairs.columns]
    groups = pairs.groupby(keys, sort=False) if keys else [((), pairs)]
    shares, equal = [], True
    for _, part in groups:
        k = len(set(part["system_a"]) | set(part["system_b"]))
        shares.append(len(part) / (k * (k - 1) / 2))
        eq7 = float(np.mean(np.sign(part["margin_human"].to_numpy()) == np.sign(part["margin_metric"].to_numpy())))
        equal = equal and bool(np.isclose(favi.sign_accuracies(part).system, eq7, rtol=0, atol=1e-12))
    return float(min(shares)), equal


def claim_checks(*, values: pd.DataFrame, fig4: pd.DataFrame, domains: pd.DataFrame, layers: pd.DataFrame,
                 pairs: pd.DataFrame | None = None, appendix_d: pd.DataFrame | None = None) -> pd.DataFrame:
    """The boolean checks behind the registry's qualitative records, each with the number it compares (the claims'
    "Ours" shows it), as a tidy ``key, holds, value`` table (``value`` empty where a check compares no single
    number); with ``pairs``, :func:`definition_checks` too, with ``appendix_d`` (:func:`.published.appendix_d`) App.
    D's printed sample-level accuracies against our two readings."""
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
    checks |= _appendix_d3_checks(fig4)
    checks |= _graph_row_checks(layers)
    if appendix_d is not None:
        checks |= _appendix_d_reading_checks(appendix_d)
    if pairs is not None:
        checks |= definition_checks(pairs)
    return pd.DataFrame({"key": list(checks), "holds": [h for h, _ in checks.values()],
                         "value": [float(x) for _, x in checks.values()]})


def _ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, empty (NaN) where the denominator is not positive (no share to read)."""
    return float(numerator / denominator) if denominator > 0 else np.nan


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


def _graph_row_checks(layers: pd.DataFrame) -> dict[str, tuple[bool, float]]:
    """For each of :data:`GRAPH_ROWS` whose graph is drawn (``layers``: :func:`win_graph_layers`): whether the system
    is in the graph's top (bottom) row, and the number of rows above (below) it. A rater of None: the case of that
    dataset and human rating with the most systems."""
    checks = {}
    for key, dataset, aspect, rater, system, graph, end in GRAPH_ROWS:
        part = layers[(layers["dataset"] == dataset) & (layers["graph"] == graph)]
        if "aspect" in part:
            part = part[part["aspect"] == aspect]
        if rater is None and len(part):
            rater = part.groupby("rater")["system"].size().idxmax()
        part = part[part["rater"] == rater]
        hit = part[part["system"] == system]
        if hit.empty:
            continue
        layer = int(hit["layer"].iloc[0])
        off = layer if end == "top" else int(part["layer"].max()) - layer
        checks[key] = (off == 0, float(off))
    return checks


def _appendix_d_reading_checks(cases: pd.DataFrame) -> dict[str, tuple[bool, float]]:
    """App. D's printed sample-level accuracies against our two readings (:func:`.ties.between_readings`): whether
    each lies between them, and how far it lies outside their range widened by its printed rounding (0 inside,
    negative below)."""
    checks = {}
    for metric, row in cases.dropna(subset=["sample"]).iterrows():
        paper, low, high = row["paper_sample"], row["sample_without_tie_credit"], row["sample"]
        half = half_printed(paper)
        gap = min(0.0, paper - (low - half)) + max(0.0, paper - (high + half))
        checks[f"appD.readings_{str(metric).lower()}"] = (bool(row["paper_between"]), float(gap))
    return checks


def _appendix_d3_checks(fig4: pd.DataFrame) -> dict[str, tuple[bool, float]]:
    """App. D.3's comparisons among the WMT22 en-de metrics, on the raters reachable for it: ChatGPT has one of the
    lower system-level accuracies (at most the median), the highest sample-level accuracy and the highest mean |Φ|;
    BLEU has the lowest system-level accuracy. Each with the number of other raters beyond it in the claimed
    direction (a lower system-level accuracy; a higher sample-level accuracy or mean |Φ|)."""
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
