"""Chapter ``04_favoritism``'s figure captions (MyST): what each figure shows, on which data, how it differs from the
paper's figure, and the numbers the paper prints in its figures' titles, computed from the tables drawn."""

from __future__ import annotations

import pandas as pd

from ... import favi
from ...data import published
from .experiments import DATASETS, dataset_label
from .figures import aspect_label, rater_label, setting_name

#: the paper's case figures (Fig. 1, Figs. 10-13) by the (dataset, rater) drawn here: the paper's figure number, whether
#: the setting only stands in for the paper's, and what differs ("{paper_systems}": the paper's number of WMT22 en-de
#: systems, from its Table 1)
CASE_NOTES = {
    ("wmt22-zhen", "COMET-22"): (
        "1", True,
        "The paper's Fig. 1 is COMET-22 on WMT22 en-de with {paper_systems} systems; COMET-22's en-de scores, published in "
        "mt-metrics-eval v2 {cite:p}`mtmetricseval`, are not reachable here, so WMT22 zh-en "
        "{cite:p}`freitag2022results` stands in, with other systems and another human reference."),
    ("wmt22-ende", "GEMBA-DA-ChatGPT"): (
        "12", True,
        "The paper's Fig. 12 asks ChatGPT which of the two translations is better; GEMBA-DA's scalar ChatGPT "
        "scores {cite:p}`kocmi2023large` stand in, and every WMT22 en-de system with MQM ratings except the "
        "metrics' reference refA is compared (the paper: {paper_systems})."),
    ("wmt22-ende", "BLEU"): (
        "13", False,
        "Sentence BLEU {cite:p}`papineni2002bleu` is computed here for the systems whose outputs are reachable; "
        "the paper's {paper_systems} include QUARTZ_TuneReranking and M2M100, whose outputs are published in "
        "mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here."),
    ("summeval", "ROUGE_L"): (
        "11", False,
        "The paper does not say which ROUGE it uses; ROUGE-L {cite:p}`lin2004rouge` is computed here from the "
        "published summaries, and a human rating is the mean of the three experts' {cite:p}`fabbri2021summeval`."),
    ("usr-tc", "BERTScore"): (
        "10", True,
        "The paper's Fig. 10 is BertScore on SummEval, whose BertScore scores are not reachable here; BERTScore "
        "{cite:p}`zhang2020bertscore` on USR's TopicalChat ratings {cite:p}`mehri2020usr` stands in for it and for "
        "the paper's chatbot cases (its Figs. 8-9 on BST), with few items per pair."),
}


def paper_wmt22_systems() -> int:
    """The number of WMT22 en-de systems the paper compares (its Table 1)."""
    rows = published.item("favi", "table1")["rows"]
    return int(next(row["systems"] for row in rows if row["domain"] == "WMT22"))


def _ties(ties: str) -> str:
    return {"drop": "ties dropped", "half": "ties shared equally between the two systems"}[ties]


def case_caption(table: pd.DataFrame, *, dataset: str, aspect: str, rater: str, alpha: float = 0.05,
                 ties: str = "drop", per_system_figure: str | None = None) -> str:
    """The caption of a case figure (:func:`.figures.plot_case`): which graphs on which data and which paper figure
    they rebuild; a legend with the test, the verdict agreement and the sign accuracies and mean |Φ| the paper prints
    in its figure titles; what differs. With ``per_system_figure`` (a figure label) the per-system Φ panel is left
    out of this figure and that figure named instead."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    accuracy = favi.sign_accuracies(table)
    systems = len(set(table["system_a"]) | set(table["system_b"]))
    items = table["n_items"]
    figure, standin, note = CASE_NOTES.get((dataset, rater), (None, False, ""))
    rebuilds = (f"{'a stand-in for ' if standin else ''}the paper's Fig. {figure}" if figure
                else "beyond the paper's figures")
    panels = "" if per_system_figure else ", and (c) each system's Φ against every other system"
    head = (f"Win graphs of (a) the humans' {aspect_label(aspect)} ratings and (b) {rater_label(rater)} on "
            f"{dataset_label(dataset)}{panels}: {rebuilds}, on {systems} systems.")
    span = f"{items.min():,}" if items.min() == items.max() else f"{items.min():,}-{items.max():,}"
    legend = (f"An arrow A → B: A is rated better than B on significantly more of their {span} shared items "
              f"(two-sided sign test at {1 - alpha:.0%}, {_ties(ties)}); arrows implied by a chain of others are "
              f"left out. Red and dashed: a win of the metric that the humans' graph does not imply. The two graphs' "
              f"verdicts (A wins, B wins, neither) agree on {favi.graph_agreement(outcomes):.0%} of the "
              f"{len(outcomes)} pairs; system-level sign accuracy {accuracy.system:.3f}, sample-level "
              f"{accuracy.sample:.3f}, mean |Φ| {table['favi'].abs().mean():.3f}.")
    if per_system_figure:
        legend += (f" Each system's Φ against the others, panel (c) of the paper's case figures, is in "
                   f"{{numref}}`{per_system_figure}`.")
    note = note.replace("{paper_systems}", str(paper_wmt22_systems()))
    return f"{head}\n\n{legend}" + (f" {note}" if note else "")


def standins(datasets) -> str:
    """The stand-ins among ``datasets`` in one sentence (empty when there is none)."""
    groups: dict[str, list[str]] = {}
    for dataset in datasets:
        label, what = DATASETS[dataset]
        if what.startswith("stand-in for "):
            groups.setdefault(what.removeprefix("stand-in for "), []).append(label)
    parts = [f"{' and '.join(labels)} {'stands' if len(labels) == 1 else 'stand'} in for {what}"
             for what, labels in groups.items()]
    return ("; ".join(parts) + ".") if parts else ""


def fig4_caption(fig4: pd.DataFrame, summeval_aspect: str) -> str:
    """Fig. 4's caption: the values drawn, the layout and the data that differ from the paper's."""
    datasets = list(dict.fromkeys(fig4["dataset"]))
    summeval = (f" SummEval's human rating is the {aspect_label(summeval_aspect)}; its metrics are lexical ones "
                "computed here." if "summeval" in datasets else "")
    return ("Sample-level (orange) and system-level (blue) sign accuracy and mean |Φ| over system pairs with ± its sd "
            "(green) of every automatic rater, per dataset: the paper's Fig. 4 on the data at hand.\n\n"
            "Grey: the mean |Φ| a rater with the same errors and no favoritism would show (beyond the paper, see "
            "the last section). One row per rater, where the paper draws lines across the metrics of a domain. "
            f"{standins(datasets)}{summeval}").rstrip()


def fig4_ties_caption(page: pd.DataFrame, datasets) -> str:
    """The caption of :func:`.figures.plot_fig4_ties` (``page``: :func:`.tables.fig4_ties_page`; ``datasets``:
    those its settings come from)."""
    return (f"The ties behind sample-level accuracy in the {len(page)} settings of Fig. 4 on the paper's own data and "
            "the zh-en stand-in: (a) the share of comparisons (item and system pair) on which the humans, the metric "
            "and both say \"equal\"; (b) sample-level sign accuracy without credit for matching ties (open) and with "
            "it, as Def. 11 counts (filled).\n\n"
            "The paper reports only Def. 11's reading (its Fig. 4) and no tie shares; the gap in (b) is the matching "
            f"ties' share, so it grows with how often both tie. {standins(datasets)}").rstrip()


def fig5_caption(pairs: pd.DataFrame, fig4_figure: str | None = None) -> str:
    """Fig. 5's caption, with the number of pairs drawn (those with at least one error)."""
    defined = int((pairs["total_error"] > 0).sum())
    scope = f" ({{numref}}`{fig4_figure}`)" if fig4_figure else ""
    return (f"(a) |Φ| of the system pairs whose margin sign the metric keeps (1) or changes (0), and (b) Φ against "
            f"the pair's sample-level sign accuracy: the paper's Fig. 5, on the {defined:,} pairs with an error of "
            f"the settings of Fig. 4{scope}.\n\n"
            "In (b) a point is coloured by whether the pair's margin signs agree, where the paper colours it by the "
            "metric's system-level accuracy. Φ is positive when the metric's errors favour the pair's "
            "alphabetically first system.")


def fig6_caption(cases) -> str:
    """Fig. 6's caption for the ``cases`` drawn (one panel each)."""
    names = [setting_name(dataset, rater) for dataset, _, rater in cases]
    notes = []
    for dataset, _, rater in cases:
        if (dataset, rater) == ("wmt22-zhen", "COMET-22"):
            notes.append("The paper's Fig. 6 is COMET-22 on WMT22 en-de, whose scores are published in "
                         "mt-metrics-eval v2 {cite:p}`mtmetricseval` but not reachable here: COMET-22 on WMT22 "
                         "zh-en stands in, with other systems and another human reference.")
        elif (dataset, rater) in CASE_NOTES:
            notes.append(f"{setting_name(dataset, rater)} is panel (c) of the paper's Fig. "
                         f"{CASE_NOTES[(dataset, rater)][0]}.")
    listed = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
    return (f"Φ of each system against every other system (positive: the metric favours it), systems sorted by their "
            f"median Φ: the paper's Fig. 6, for {listed}.\n\n"
            "A box spans the middle half of a system's Φ values, its line is the median; whiskers reach the farthest "
            "value within 1.5 box widths of the box, points beyond are drawn singly. " + " ".join(notes)).rstrip()


def noise_caption(summary: pd.DataFrame, n_resamples: int) -> str:
    """The noise figure's caption, with the number of settings above the no-favoritism line."""
    above = int((summary["mean_abs_favi"] > summary["null_mean_abs_favi"]).sum())
    return ("Observed mean |Φ| of every setting (a dataset, a human rating and an automatic rater) against the mean "
            "|Φ| a rater with the same errors and no favoritism would show: beyond the paper.\n\n"
            f"The expected value averages, per pair, {n_resamples:,} draws that give each error a random direction "
            f"(the sign-flip null). Dashed: observed = expected; {above} of the {len(summary)} settings lie above it.")
