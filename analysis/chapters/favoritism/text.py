"""Chapter ``04_favoritism``'s prose from numbers: every sentence that states a number or a conclusion about numbers
is built here from the saved tables and branches on them (§2, Figs. 1 and 4-6, App. C.2.1, App. D, and the noise and
attenuation reading beyond the paper). The paper's own values and the verdicts are in the claims rows."""

from __future__ import annotations

import pandas as pd

from .experiments import ATTENUATION_RHO, dataset_label
from .figures import aspect_label, rater_label


def strength(rho: float) -> str:
    """A rank correlation in words (Cohen's conventional cut-offs 0.1, 0.3, 0.5 on |ρ|)."""
    size = abs(rho)
    word = "negligible" if size < 0.1 else "weak" if size < 0.3 else "moderate" if size < 0.5 else "strong"
    return f"{word} {'negative' if rho < 0 else 'positive'}" if size >= 0.1 else word


def _span(values: pd.Series, fmt: str = ".2f") -> str:
    low, high = values.min(), values.max()
    return format(low, fmt) if format(low, fmt) == format(high, fmt) else f"{low:{fmt}}–{high:{fmt}}"


def _names(items) -> str:
    items = [str(i) for i in items]
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else (items[0] if items else "none")


def _case(table: pd.DataFrame, dataset: str, aspect: str, rater: str) -> pd.DataFrame:
    return table[(table["dataset"] == dataset) & (table["aspect"] == aspect) & (table["rater"] == rater)]


def stance(row) -> str:
    """One system's Fig. 6 box in words: favoured / disfavoured against how many opponents, with its median Φ."""
    if row["median_favi"] > 0:
        word, count = "favoured", round(row["share_favoured"] * row["opponents"])
    elif row["median_favi"] < 0:
        word, count = "disfavoured", round(row["share_disfavoured"] * row["opponents"])
    else:
        return f"neither favoured nor disfavoured (median Φ 0 over {row['opponents']} opponents)"
    return f"{word} against {count} of {row['opponents']} systems (median Φ {row['median_favi']:+.2f})"


def _system(per_system: pd.DataFrame, case: tuple, system: str):
    hit = _case(per_system, *case)
    hit = hit[hit["system"] == system]
    return None if hit.empty else hit.iloc[0]


# -- Table 1 -------------------------------------------------------------------------------------------------------

#: the paper's Table 1 columns -> our dataset label
_PAPER_TABLE1 = {"WMT21": "WMT21 en-de", "WMT22": "WMT22 en-de", "SummEval": "SummEval"}


def table1_text(table1: pd.DataFrame, published: pd.DataFrame) -> str:
    """Table 1 in words: where Φ compares fewer systems than have human ratings (and why), and the rated items per
    system pair against the paper's |E|, with whether the data can explain a difference."""
    ours = table1.set_index("data")
    text = []
    fewer = ours[ours["systems_compared_max"] < ours["systems_rated"]]
    if len(fewer):
        listing = "; ".join(
            f"{name} {int(r['systems_rated'])} rated, {_range(r['systems_compared_min'], r['systems_compared_max'])} "
            "compared" for name, r in fewer.iterrows())
        text.append(f"Φ compares fewer systems than have human ratings where a rater covers fewer systems or a "
                    f"reference is left out: {listing}.")
    for paper_row in published.itertuples(index=False):
        name = _PAPER_TABLE1.get(paper_row.domain)
        if name not in ours.index:
            continue
        r = ours.loc[name]
        if int(r["items_max"]) == int(paper_row.ratings_per_pair):
            continue
        same = ("the same segments for every one of its" if r["same_rated_items"] else "different segments for its")
        text.append(
            f"{name}: the human ratings cover {int(r['rated_items_max']):,} of the {int(r['dataset_items']):,} "
            f"segments, {same} {int(r['systems_rated'])} systems, against the paper's |E| = "
            f"{int(paper_row.ratings_per_pair):,}." + (
                " No choice of systems changes that count, and the data mark no other subset, so the difference "
                "cannot be explained from the data (the paper does not say how it counted)."
                if r["same_rated_items"] else " The paper does not say which systems' segments it counted."))
    return " ".join(text)


def _range(low, high) -> str:
    return f"{int(low)}" if low == high else f"{int(low)}–{int(high)}"


# -- §2 ------------------------------------------------------------------------------------------------------------

def section2_text(margins: pd.DataFrame) -> str:
    """§2: how each reachable automatic rater changes the MQM margin of Online-W over JDExploreAcademy."""
    mqm = margins.loc["MQM", "margin"]
    groups = {"widen": [], "narrow": [], "reverse": []}
    for rater, m in margins.drop(index="MQM")["margin"].items():
        key = "reverse" if m * mqm <= 0 else "widen" if abs(m) > abs(mqm) else "narrow"
        groups[key].append(f"{rater_label(rater)} ({m:+.1f})")
    parts = [f"{_names(v)} {k}{'s' if len(v) == 1 else ''} it" for k, v in groups.items() if v]
    return (f"Under MQM, Online-W's margin over JDExploreAcademy is {mqm:+.1f} points of "
            f"{margins.loc['MQM', 'items']:,.0f} items. Of the automatic raters reachable for this pair, "
            f"{_names(parts)}. COMET-22's en-de segment scores, which the paper uses here, are published in "
            "mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here.")


# -- Fig. 1 and Figs. 8-13 ---------------------------------------------------------------------------------------------

def _row_of(layers: pd.DataFrame, case: tuple, graph: str, system: str) -> str:
    part = _case(layers, *case)
    part = part[(part["graph"] == graph) & (part["system"] == system)]
    return "absent" if part.empty else f"row {part['layer'].iloc[0] + 1} of {part['layers'].iloc[0]}"


def graphs_text(layers: pd.DataFrame, per_system: pd.DataFrame, graphs: pd.DataFrame, cases) -> str:
    """The win graphs in words: where the metric moves the systems it favours most, and how sparse the graphs are."""
    out = []
    for case in cases:
        dataset, aspect, rater = case
        mine = _case(per_system, *case).sort_values("median_favi")
        if mine.empty:
            continue
        top, bottom = mine.iloc[-1], mine.iloc[0]
        g = _case(graphs, *case).iloc[0]
        out.append(
            f"**{rater_label(rater)} on {dataset_label(dataset)}** favours {top['system']} most, {stance(top)}: it is in "
            f"{_row_of(layers, case, 'human', top['system'])} of the humans' graph and "
            f"{_row_of(layers, case, 'metric', top['system'])} of the metric's. It disfavours {bottom['system']} "
            f"most, {stance(bottom)} ({_row_of(layers, case, 'human', bottom['system'])} for the humans, "
            f"{_row_of(layers, case, 'metric', bottom['system'])} for the metric). The humans find "
            f"{g['human_edges_drop']} of the {g['pairs']} pairs significant and the metric {g['metric_edges_drop']}; "
            f"their verdicts agree on {g['agreement_drop']:.0%} of the pairs ({g['agreement_half']:.0%} with ties "
            "split).")
    return "\n\n".join(out)


# -- Fig. 4 --------------------------------------------------------------------------------------------------------

def fig4_text(domains: pd.DataFrame, ties: pd.DataFrame, fig4: pd.DataFrame,
              ties_link: str = "the tie shares") -> str:
    """§7.1's comparison of the domains, computed: ranges, their overlap, the share of couples of settings in which
    the MT metric is lower, the same above the no-favoritism level, and what the tie shares say about accuracy
    (``ties_link``: how the sentence names the table of tie shares, e.g. a download link)."""
    d = domains.set_index("domain")
    ranges = "; ".join(f"{domain} {row['min_mean_abs_favi']:.2f}–{row['max_mean_abs_favi']:.2f} "
                       f"(median {row['median_mean_abs_favi']:.2f}, {int(row['settings'])} settings)"
                       for domain, row in d.iterrows())
    text = [f"Mean |Φ| per metric: {ranges}."]
    if "machine translation" in d.index:
        mt = d.loc["machine translation"]
        for domain, row in d.drop(index="machine translation").iterrows():
            overlap = row["min_mean_abs_favi"] <= mt["max_mean_abs_favi"]
            text.append(
                f"Against {domain}, the ranges {'overlap' if overlap else 'do not overlap'}; the MT metric has the "
                f"lower mean |Φ| in {row['mt_lower_share']:.0%} of the couples of settings, and the lower excess over "
                "the no-favoritism level (the grey ticks of {numref}`favi_fig4_accuracy_and_favi`) in "
                f"{row['mt_excess_lower_share']:.0%}.")
        levels = ", ".join(f"{domain} {row['median_null_mean_abs_favi']:.2f}" for domain, row in d.iterrows())
        text.append(f"That level (median per domain: {levels}) falls as the number of errors per pair grows, so a "
                    "comparison of raw mean |Φ| across domains mixes favoritism with sample size.")
        mt4 = fig4[fig4["domain"] == "machine translation"]
        mt_ties = ties.merge(mt4[["dataset", "aspect", "rater"]], on=["dataset", "aspect", "rater"])
        if len(mt4) and len(mt_ties):
            human, metric = mt_ties["human_tie_share"], mt_ties["metric_tie_share"]
            text.append(
                f"The MT metrics reach system-level accuracy {_span(mt4['system_accuracy'])} with sample-level "
                f"accuracy {_span(mt4['sample_accuracy'])}. MQM ties on {_span(human, '.0%')} of a pair's items, "
                f"the metrics on {_span(metric, '.0%')}, both together on {_span(mt_ties['matching_tie_share'], '.0%')}; "
                f"{int((human > metric).sum())} of {len(mt_ties)} MT settings have more human than metric ties, and "
                f"every human tie the metric breaks counts as an error ({ties_link}).")
    return " ".join(text)


# -- App. D -------------------------------------------------------------------------------------------------------------

def appendix_d_text(ties: pd.DataFrame, values: pd.DataFrame, summeval_aspect: str) -> str:
    """Why our SummEval sample-level accuracy differs from App. D's: the tie shares, and the human tie share the
    paper's accuracy would need."""
    rouge = _case(ties, "summeval", summeval_aspect, "ROUGE_L")
    v = values.set_index("key")["value"]
    if rouge.empty or "appD.implied_human_tie_share_rouge" not in v:
        return ""
    r, implied = rouge.iloc[0], v["appD.implied_human_tie_share_rouge"]
    return (f"Sample-level accuracy counts a matching tie as correct. On SummEval ({aspect_label(summeval_aspect)}), "
            f"our experts' mean ratings tie on {r['human_tie_share']:.0%} of a pair's items, ROUGE-L on {r['metric_tie_share']:.1%}, "
            f"both on {r['matching_tie_share']:.1%}; without the matching ties' credit the accuracy is "
            f"{r['sample_accuracy_without_tie_credit']:.3f} instead of {r['sample_accuracy']:.3f}. At ROUGE-L's accuracy "
            f"on the items our experts do not tie, the paper's sample-level accuracy would need a human tie share of "
            f"about {implied:.0%}, {'more' if implied > r['human_tie_share'] else 'not more'} than ours.")


# -- Fig. 5 --------------------------------------------------------------------------------------------------------

def fig5_text(fig5: pd.DataFrame, values: pd.DataFrame) -> str:
    """Fig. 5's correlations in words, with the comparison to sample-level accuracy (§6's insight)."""
    v = values.set_index("key")["value"]
    rho = fig5["spearman_rho"].to_numpy()
    differ, agree = v["fig5a.median_abs_favi_signs_differ"], v["fig5a.median_abs_favi_signs_agree"]
    acc = v["section6.rho_sample_accuracy_agreement_pairs"]
    null, low, high = (v[f"fig5a.no_favoritism_rho_{k}"] for k in ("mean", "low", "high"))
    return (f"Pairs whose margins change sign under the metric have a median |Φ| of {differ:.2f}, pairs whose signs "
            f"agree {agree:.2f} ({'larger' if differ > agree else 'not larger'} where the signs change; by Lemma 1 a "
            f"sign change needs |Φ| ≥ |mar(d)|/E): a {strength(rho[0])} rank correlation (ρ = {rho[0]:.2f}). "
            f"Signed Φ against sample-level accuracy gives ρ = {rho[1]:.2f} ({strength(rho[1])}), |Φ| against it "
            f"ρ = {rho[2]:.2f} ({strength(rho[2])}). Sample-level accuracy itself correlates with the pair's sign "
            f"agreement at ρ = {acc:.2f}, {'more' if abs(acc) > abs(rho[0]) else 'less'} strongly than |Φ| does. "
            f"Metrics with the same errors in random directions (no favoritism) give ρ = {null:.2f} on average (95% "
            f"of the draws: {low:.2f} to {high:.2f}), so the observed ρ "
            + ("lies within what errors without favoritism give." if low <= rho[0] <= high else
               f"lies {'beyond' if rho[0] < low else 'above'} that range, but {null / rho[0]:.0%} of it is what "
               "errors without favoritism give." if null * rho[0] > 0 else "differs from it in sign."))


# -- Fig. 6 --------------------------------------------------------------------------------------------------------

def fig6_text(per_system: pd.DataFrame, cases) -> str:
    """Fig. 6 in words: the systems the paper names (references, M2M100, Online-W) and the MBR systems."""
    out = []
    for case in cases:
        mine = _case(per_system, *case)
        if mine.empty:
            continue
        named = [s for s in ("refB", "M2M100_1.2B-B4", "Online-W") if s in set(mine["system"])]
        parts = [f"{s} is {stance(_system(per_system, case, s))}" for s in named]
        mbr = mine[mine["system"].str.contains("mbr")]
        if len(mbr):
            favoured = mbr.loc[mbr["median_favi"] > 0, "system"].tolist()
            parts.append(f"{len(favoured)} of its {len(mbr)} MBR-decoded systems are favoured (median Φ > 0: "
                         f"{_names(favoured)})")
        out.append(f"{rater_label(case[2])} on {dataset_label(case[0])}: " + "; ".join(parts) + ".")
    return " ".join(out)


# -- App. C.2.1 ----------------------------------------------------------------------------------------------------

def symmetry_text(symmetry: pd.DataFrame, confusion, values: pd.DataFrame, alpha: float = 0.05) -> str:
    """App. C.2.1 on ChatGPT's SummEval judgments: consistency across orders, full reversals, position preference."""
    overall = symmetry.loc["all aspects"]
    c = confusion.to_numpy() if hasattr(confusion, "to_numpy") else confusion
    inconsistent = c.sum() - c.trace()
    reversals = (c[0, 2] + c[2, 0]) / inconsistent if inconsistent else float("nan")
    v = values.set_index("key")["value"]
    first, p = v["c21.first_position_share"], v["c21.first_position_pvalue"]
    bias = ("a preference for the first position" if first > 0.5 else "a preference for the second position")
    return (f"ChatGPT gives the same preference in both orders on {overall['accuracy']:.0%} of the SummEval items, "
            f"with nominal α = {overall['alpha_nominal']:.3f}. {reversals:.0%} of the inconsistent judgments are full "
            f"reversals (+ ↔ −). Of the judgments that prefer one summary, {first:.1%} name the one shown first "
            f"(binomial p = {p:.2g}): " + (f"{bias}." if p < alpha else
                                           "no detectable position preference, so the inconsistency is instability "
                                           "per item rather than a bias towards one position."))


def h2h_text(h2h_metric: pd.DataFrame) -> str:
    """The head-to-head judge as a metric: how coarse system-level accuracy is, and how far the two orders differ."""
    pairs = int(h2h_metric["pairs"].max())
    wide = h2h_metric.pivot_table(index="aspect", columns="order", values="system_accuracy")
    gap = (wide["original"] - wide["toggled"]).abs()
    worst = gap.idxmax()
    return (f"With {pairs} system pairs, system-level accuracy moves in steps of {1 / pairs:.2f}; between the two "
            f"presentation orders it differs by up to {gap.max():.2f} ({worst}: {wide.loc[worst, 'original']:.2f} "
            f"in the original order, {wide.loc[worst, 'toggled']:.2f} in the toggled one).")


# -- beyond the paper: noise and attenuation --------------------------------------------------------------------------

def noise_text(pairs: pd.DataFrame, summary: pd.DataFrame, alpha: float, tests: pd.DataFrame | None = None) -> str:
    """How many Φ a metric without favoritism would rarely give (with ``tests``, :func:`.uncertainty.
    multiple_testing`, also after the Benjamini-Hochberg correction), and how far above that level the means are."""
    share = (pairs["p_value"] < alpha).mean()
    above = (summary["mean_abs_favi"] > summary["null_mean_abs_favi"]).sum()
    ratio = (summary["mean_abs_favi"] / summary["null_mean_abs_favi"]).groupby(summary["dataset"], sort=False).median()
    ratios = ", ".join(f"{dataset_label(d)} {r:.1f}" for d, r in ratio.items())
    if tests is None:
        first = f"{share:.0%} of the {len(pairs):,} pairs have a Φ that chance alone would rarely give (p < {alpha})"
    else:
        row = tests.set_index("data").loc["all datasets"]
        first = (f"Of the {int(row['tests']):,} pairs tested, {row['significant_share']:.0%} have p < {alpha}; read as "
                 f"one family with the Benjamini–Hochberg correction (false discovery rate {alpha}), "
                 f"{row['significant_bh_share']:.0%} have a Φ that chance alone would rarely give (a permutation "
                 f"p-value cannot be smaller than {row['smallest_p']:.2g}, which bounds what the correction keeps)")
    return (f"{first}, and {above} of {len(summary)} settings have a mean |Φ| above the no-favoritism level; the "
            f"median ratio of the observed to that level per dataset: {ratios}.")


def attenuation_text(attenuation: pd.DataFrame, table1: pd.DataFrame) -> str:
    """Where Φ tracks the attenuation -mar(d)/E (favouring the humans' weaker system) and where it does not."""
    items = table1.set_index("data")["items_max"]
    tracks = attenuation[(attenuation["favours_weaker"] > 0.5)
                         & (attenuation["rho_favi_attenuation"] >= ATTENUATION_RHO)]
    rest = attenuation.drop(index=tracks.index)

    def listing(frame):
        return "; ".join(f"{name}: {row['favours_weaker']:.0%} of {int(row['pairs']):,} pairs, ρ = "
                         f"{row['rho_favi_attenuation']:.2f}, {items.get(name, float('nan')):,.0f} items per pair"
                         for name, row in frame.iterrows())

    text = ["Share of pairs whose Φ favours the humans' weaker system, Spearman's ρ between Φ and −mar(d)/E, and "
            "the items per pair:"]
    if len(tracks):
        text.append(f"where Φ follows −mar(d)/E strongly (ρ ≥ {ATTENUATION_RHO:g}) and mostly favours the weaker "
                    "system — "
                    f"{listing(tracks)} — Φ measures attenuation (or the noise in the humans' own margins) more than "
                    "a preference for particular systems.")
    if len(rest):
        text.append(f"Where it does not — {listing(rest)} — the metrics' margins differ from the humans' in both "
                    "directions, and Φ can point to system-specific favourites.")
    return " ".join(text)
