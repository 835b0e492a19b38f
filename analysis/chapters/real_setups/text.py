"""Chapter 02's page text: every sentence about the chapter's tables, computed from them and branching on them (the
note on degenerate BT fits, Tables 1, 3, 4, Fig. 6 / App. D, App. F); the verdicts themselves are the claims
registry's (``data/published/claims/paired.toml``)."""

from __future__ import annotations

import pandas as pd

from ...agreement import pair_label, pair_name
from .figures import metric_label, short_system_names
from .published import (
    TABLE3_EXACT,
    TABLE3_PAPER_DRAWS,
    paper_inventory,
    published_table4,
    table3_agreement,
    table3_swaps,
)
from .setups import KEYS, MEASURES, TABLE1_PAIRS

#: The two tie policies of the chapter in words, for the page (the package's ``ties=`` codes are not for readers).
TIE_LABELS = {"loss": "ties to the later column", "half": "ties as half wins"}

#: Fig. 6's tests as the text names them.
TEST_NAMES = {"t-test": "the paired t-test", "Mood": "Mood's test", "sign": "the sign test",
              "Wilcoxon": "Wilcoxon's test"}


def degenerate_note(frames: dict[str, pd.DataFrame]) -> str:
    """A sentence: in how many rows of each frame (labelled, e.g. ``{"setups under ties='loss'": rows}``) BT had no
    finite maximum-likelihood fit, naming the setups when there are few, and what that does to the tables."""
    counts = []
    for label, frame in frames.items():
        hit = frame[frame["bt_degenerate"]]
        named = ""
        if 0 < len(hit) <= 6 and set(KEYS) <= set(frame.columns):
            named = " (" + ", ".join(f"{c} {d} {metric_label(m)}" for c, d, m in hit[KEYS].itertuples(index=False)) + ")"
        counts.append(f"{len(hit):,} of {len(frame):,} {label}{named}")
    if not any(frame["bt_degenerate"].any() for frame in frames.values()):
        return "BT has a finite maximum-likelihood fit in all " + " and ".join(
            f"{len(f):,} {label}" for label, f in frames.items()) + "."
    return ("BT has no finite maximum-likelihood fit in " + "; and in ".join(counts) + ". There a group of systems "
            "never loses (or never wins) against the rest, so its strengths grow (or shrink) without bound and "
            "their size is set by the fit's stopping rule; the group's place in the ranking, which is all the "
            "disagreement measures use, is still right.")


def table3_notes(side: pd.DataFrame, inventory: pd.DataFrame) -> str:
    """The chapter's reading of the side-by-side Table 3, every number computed from ``side`` and ``inventory`` (our
    setups, one row each) and the paper's Appendix A.3."""
    exact = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna()]
    dis = exact[exact.measure == "disagree"]
    counts = table3_agreement(side).loc[("exact (TAC, TC, PC)", MEASURES["disagree"])] if len(dis) else None
    within = 0 if counts is None else int(counts[("20% sub-samples", "within 0.02")])
    within_full = 0 if counts is None else int(counts[("full test sets", "within 0.02")])
    lower = int((dis.ours_full < dis.ours).sum())
    swaps = table3_swaps(side)
    single = exact[(exact.measure == "top1") & exact.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    text = [f"On the paper's own score matrices (TAC, TC, PC), {within} of {len(dis)} *Disagree* cells of the "
            f"sub-sample reading lie within 0.02 of the published ones, against {within_full} on the full test sets, "
            f"whose cells lie below the sub-samples' in {lower} of {len(dis)}. ≠ SotA and ≠ Top-3 are shares of "
            f"{TABLE3_PAPER_DRAWS} draws in the paper's reading, so they carry the draws' noise (a standard deviation "
            f"of {single.noise_sd.median():.2f} in the difference for a single metric's ≠ SotA, the median over "
            "cells); the table above counts how many lie within two standard deviations of it."]
    for dataset, group in swaps:
        cells = side[(side.dataset == dataset) & (side.metric_group == group)].set_index(["measure", "pair"])
        pairs_text = [f"{MEASURES[m]} {cells.loc[(m, 'mean_bt'), 'paper']:.2f} / "
                      f"{cells.loc[(m, 'median_bt'), 'paper']:.2f} against our {cells.loc[(m, 'mean_bt'), 'ours']:.2f}"
                      f" / {cells.loc[(m, 'median_bt'), 'ours']:.2f}" for m in MEASURES]
        paper = cells.xs("disagree").paper
        least = paper["median_bt"] < min(paper["mean_bt"], paper["mean_median"])
        text.append(f"**{dataset} {group}: the paper's Mean/BT and Med/BT columns look exchanged** — "
                    + "; ".join(pairs_text) + " (Mean/BT / Med/BT)."
                    + (" In every other TAC cell of the paper MEAN vs. BT disagrees least of the three pairs"
                       + ("; read the other way round, this one does too." if least else ", but not in this one "
                          "read the other way round.") if _mean_bt_least_elsewhere(side, dataset, group) else ""))
    loose = dis[((dis.ours - dis.paper).abs() > 2 * dis.noise_sd) & ((dis.ours - dis.paper).abs() > 0.02)]
    loose = loose[~loose.set_index(["dataset", "metric_group"]).index.isin(swaps)]
    if len(loose):
        dialogue = paper_inventory().set_index("dataset").loc[["TC", "PC"], "systems"]
        text.append("*Disagree* cells further from the paper than the draws explain: " + ", ".join(
            f"{r.dataset} {r.metric_group} {pair_label(tuple(r.pair.split('_')))} ({r.paper:.2f} vs. {r.ours:.2f})"
            for r in loose.itertuples()) + ". " + (
            f"Dialogue cells rest on {dialogue.min()}–{dialogue.max()} systems, so each draw's disagreement is a "
            "coarse fraction; " if loose.dataset.isin(["TC", "PC"]).any() else "")
            + "we cannot tell more without the paper's own draws.")
    other = side[~side.dataset.isin(TABLE3_EXACT) & side.ours.notna() & (side.measure == "disagree")]
    if len(other):
        wmt = other[other.dataset.str.startswith("WMT")]
        near = int(((wmt.ours - wmt.paper).abs() <= 0.02 + 1e-12).sum())
        systems = inventory.groupby("collection").systems.max()
        paper_systems = paper_inventory().set_index("dataset").systems
        text.append("The other rows are not the paper's data: WMT has the paper's system outputs with recomputed "
                    f"metrics ({near} of {len(wmt)} of its *Disagree* cells within 0.02), CNN/DM and COCO are "
                    f"stand-ins with other systems ({systems.get('CNNDM', 0)} and {systems.get('COCO', 0)} against "
                    f"the paper's {paper_systems['CNN/DM']} and {paper_systems['MSCOCO']}), so their cells are shown "
                    "but not expected to match.")
    return "\n\n".join(text)


def _mean_bt_least_elsewhere(side: pd.DataFrame, dataset: str, group: str) -> bool:
    """Whether, in the paper's TAC Disagree cells other than (dataset, group), MEAN vs. BT is always the smallest."""
    tac = side[side.dataset.str.startswith("TAC") & (side.measure == "disagree")
               & ~((side.dataset == dataset) & (side.metric_group == group))]
    wide = tac.pivot_table(index=["dataset", "metric_group"], columns="pair", values="paper")
    return bool((wide["mean_bt"] < wide[["median_bt", "mean_median"]].min(axis=1)).all())


def table3_grain_text(grain: pd.DataFrame) -> str:
    """What the grain of the paper's ≠ SotA and ≠ Top-3 cells shows (:func:`.published.table3_grain`)."""
    g = grain.astype({"fitting": int, "cells": int})
    single = g[g["columns"] == "BLEU, MoverScore, BERTScore"].iloc[0]
    others = g[g["columns"] != single["columns"]]
    text = [f"On the paper's own data (TAC, TC, PC), {single.fitting} of the {single.cells} ≠ SotA and ≠ Top-3 cells "
            "of the single-metric columns are multiples of 1/30 to two decimals (a random two-decimal value would be "
            f"with probability {single.chance:.2f}); " + "; ".join(
                f"{c}'s are multiples of " + " and of ".join(f"1/{r['multiple of']} in {r.fitting} of {r.cells} "
                                                          f"(chance {r.chance:.2f})" for _, r in rows.iterrows())
                for c, rows in others.groupby("columns", sort=False)) + "."]
    if single.fitting >= 0.9 * single.cells and single.chance < 0.5:
        text.append("A single setup's ≠ SotA is 0 or 1, so these cells look like shares of 30 draws per setup "
                    "(1/90 and 1/60 when a column averages three and two metrics).")
    return " ".join(text)


def table1_text(loss: pd.DataFrame, half: pd.DataFrame) -> str:
    """Tables 1 and 4 under both tie policies (:func:`.experiments.summarise` frames): the headline cells next to
    the paper's, and whether giving ties half a win moves MEAN vs. BT beyond the resampling noise."""
    t4 = published_table4()

    def paper(pair, m):
        return t4.loc[[pair], m].iloc[0]
    o, h = loss, half
    text = [f"With the paper's tie handling, MEAN and BT order {o.loc['mean_bt', 'disagree']:.0%} of system pairs "
            f"differently (paper: {paper(('mean', 'bt'), 'disagree')}%) and pick a different best system in "
            f"{o.loc['mean_bt', 'top1']:.0%} of setups (paper: {paper(('mean', 'bt'), 'top1')}%); MEAN and MEDIAN "
            f"disagree on {o.loc['mean_median', 'disagree']:.0%} of pairs (paper: "
            f"{paper(('mean', 'median'), 'disagree')}%). Our set of setups differs from the paper's, so the levels can "
            "differ."]
    moved = [m for m in MEASURES if h.loc["mean_bt", f"{m}_high"] < o.loc["mean_bt", f"{m}_low"]
             or h.loc["mean_bt", f"{m}_low"] > o.loc["mean_bt", f"{m}_high"]]
    text.append("Giving each tied system half a win changes MEAN vs. BT to " + ", ".join(
        f"{MEASURES[m]} {h.loc['mean_bt', m]:.0%} (from {o.loc['mean_bt', m]:.0%})" for m in MEASURES) + "; "
        + ("the intervals of the two policies do not overlap for " + ", ".join(MEASURES[m] for m in moved)
           + ": the paper's rule, which hands every tie to the later column and so orders tied systems by their "
           "position in the file, accounts for part of its BT disagreement." if moved else
           "the intervals of the two policies overlap for every measure."))
    return " ".join(text)


def table1_readings_text(readings: dict[str, pd.DataFrame]) -> str:
    """How many of Table 1's nine cells fall in our 95% interval (± the printed rounding) under each reading
    (``{label: summarise() frame}``), and MEAN vs. MEDIAN's Disagree in each."""
    from .claim_values import _in_interval

    t4 = published_table4()
    parts = []
    for label, frame in readings.items():
        hits = sum(_in_interval(t4.loc[[p], m].iloc[0], frame.loc[pair_name(p)], m) for p in TABLE1_PAIRS
                   for m in MEASURES)
        parts.append(f"{label}: {hits} of {3 * len(TABLE1_PAIRS)} cells, MEAN vs. MEDIAN's Disagree "
                     f"{frame.loc['mean_median', 'disagree']:.0%}")
    return ("Table 1's published cells inside our 95% interval (± the rounding of a whole percent) — "
            + "; ".join(parts) + f" (paper: {t4.loc[[('mean', 'median')], 'disagree'].iloc[0]}%).")


def fig6_text(cells: pd.DataFrame, full: pd.DataFrame, profile: pd.Series) -> str:
    """Fig. 6 with BT-eval's draws (``cells`` = :func:`.claim_values.fig6_cells`) against the paper, what those
    draws test (``profile`` = :func:`.experiments.pooled_pairs_profile`) and the full-test-set matrix ``full``."""
    gap = (cells.ours - cells.paper).abs()
    diag = cells[cells.given == cells.also].set_index("given")
    ranked = diag.ours.sort_values(ascending=False)
    text = [f"With BT-eval's draws and sign test, {int(cells.close.sum())} of {len(cells)} cells lie within the "
            f"rounding and two standard errors of the paper's (largest gap {gap.max():.2f}, median "
            f"{gap.median():.2f}). Of the pooled pairs tested, {profile['share TAC']:.0%} come from TAC, and the "
            f"median pair is compared on {profile['median instances']:g} instances."]
    cell = cells.set_index(["given", "also"]).loc[("Mood", "sign")]
    mood_sign = (f"for {cell.ours:.0%} of the pairs" if cell.pairs else "for none (no pair is significant by Mood's)")
    text.append(f"There {TEST_NAMES[ranked.index[0]]} finds significance most often ({ranked.iloc[0]:.0%}, paper "
                f"{diag.paper[ranked.index[0]]:.0%}), {ranked.iloc[0] - ranked.iloc[1]:.2f} ahead of "
                f"{TEST_NAMES[ranked.index[1]]} ({ranked.iloc[1]:.0%}); when Mood's test is significant, the sign test "
                f"is too {mood_sign} (paper {cell.paper:.0%}).")
    full_diag = pd.Series({t: full.loc[t, t] for t in full.index})
    text.append("On the full test sets the tests find significance for " + ", ".join(
        f"{t} {v:.0%}" for t, v in full_diag.items()) + f" of the pairs (most often: {TEST_NAMES[full_diag.idxmax()]}), and "
        f"Mood → sign is {full.loc['Mood', 'sign']:.2f}.")
    return " ".join(text)


def iia_text(by_size: pd.DataFrame, iia: pd.DataFrame, shares: pd.Series) -> str:
    """App. F's search on the full setups (``by_size`` = :func:`.experiments.iia_by_size`, ``iia`` its rows,
    ``shares`` = :func:`.experiments.reversal_winner_shares`)."""
    full = by_size.loc["full"]
    big = iia[(iia["size"].astype(str) == "full") & (iia.n_instances > 10)]
    text = (f"On the full setups, {int(full.reversed):,} of {3 * int(full.triples):,} (pair, third system) "
            f"combinations reverse BT's order and {int(full.tied):,} turn it into a tie; "
            f"{int(((big.reversed + big.tied) > 0).sum())} of {len(big)} setups with more than 10 instances have at "
            "least one such violation. The paper reports finding none with more than 10 test instances.")
    if len(shares):
        text += (f" Alone, the winner of a reversed pair wins a median {shares.median():.1%} of their comparisons "
                 f"(maximum {shares.max():.1%}); a third system that beats the two unevenly can tip such a balance.")
    return text


# -- figure captions (what each shows, on which data, how it differs from the paper's) ------------------------------

def _percent(fraction: float) -> str:
    return f"{fraction:.0%}"


def table3_caption(side: pd.DataFrame, draws: int, fraction: float, measure: str = "disagree") -> str:
    """Table 3's heat map (:func:`.figures.plot_table3`): the cells, the draws behind ours, and the data."""
    part = side[side.measure == measure]
    return (f"Table 3's *{MEASURES[measure]}* cells, laid out as in the paper: a row per dataset, a column per metric "
            f"family and pair of mechanisms; each cell ours (the mean over {draws:,} test sets of "
            f"{_percent(fraction)} of each setup's instances, which sets the colour) over the paper's value in "
            f"brackets. {int(part.ours.notna().sum())} of the paper's {len(part)} cells have ours; grey with "
            "\"—\": no such metric in our data.\n\n"
            "TAC, TC and PC are the paper's own score matrices. WMT's metric scores are recomputed from the paper's "
            "system outputs, and CNN/DM and MSCOCO are stand-ins with other systems, so their cells are not expected "
            "to match. The paper's ≠ SotA and ≠ Top-3 rows are compared in the next figure.")


def table3_scatter_caption(side: pd.DataFrame, draws: int, fraction: float) -> str:
    """The scatter of every Table 3 cell against the paper (:func:`.figures.plot_table3_scatter`)."""
    have = side.ours.notna()
    return (f"Each of the paper's Table 3 cells that we can compute ({int(have.sum())} of {len(side)}), the paper's "
            f"value against ours, per measure; ours are means over {draws:,} test sets of {_percent(fraction)} of "
            "each setup's instances. Dashed: equal values.\n\n"
            "Dots: the paper's own score matrices (TAC, TC, PC); crosses: recomputed metrics (WMT) and stand-in "
            "setups (CNN/DM, COCO). The paper prints the table only.")


def table4_caption(per_setup: pd.DataFrame, n_resamples: int) -> str:
    """Tables 1 and 4 as a dot plot (:func:`.figures.plot_table4`), ours against the paper's."""
    return (f"Tables 1 and 4 of the paper against ours on {len(per_setup)} setups: for each pair of mechanisms, the "
            "share of system pairs they order differently (Disagree) and the shares of setups where their best "
            "systems (≠ SotA) or their top-3 sets (≠ Top-3) differ.\n\n"
            "Crosses: the paper's percentages. Dots and squares: ours, with the paper's tie rule (a tie is a win for "
            f"the later column) and with ties as half wins, with 95% bootstrap intervals over setups ({n_resamples:,} "
            "resamples). The first three rows are the paper's Table 1. The paper prints both tables as numbers, "
            "without intervals; our setups differ from its own (see the totals above).")


def fig4_caption(fig4: pd.DataFrame, paper_draws: int) -> str:
    """Fig. 4 (:func:`.figures.plot_fig4`): the sub-samples behind the bars, BT-eval's draws, and the differences."""
    sizes = [f"{s:,}" for s in sorted(fig4["size"].unique())]
    sizes = ", ".join(sizes[:-1]) + " and " + sizes[-1] if len(sizes) > 1 else sizes[0]
    setups = len(fig4[KEYS].drop_duplicates())
    return (f"How often MEAN, MEDIAN and BT order system pairs differently on sub-sampled test sets, (a) per metric, "
            f"(b) per task and (c) per test-set size, with 95% bootstrap intervals; in brackets under each label, the "
            f"number of setups behind the bars.\n\n"
            f"{len(fig4):,} test sets of {sizes} instances drawn from {setups} setups (a size larger than a setup is "
            f"skipped), compared with the paper's tie rule. The dashed lines in (c) are the draws of the paper's code "
            f"({paper_draws:,} per size, a setup smaller than the size entering whole). The paper's Fig. 4 has the "
            "same panels on its own setups; metrics it had that we lack are missing here, and *BLEU* is the one BLEU "
            "score shipped for TAC and the dialogue datasets, *BLEU-1* to *BLEU-4* the n-gram orders recomputed for "
            "WMT and COCO.")


def fig5_caption(key: tuple, systems, alpha: float, reference: str | None = None) -> str:
    """A Fig. 5 matrix (:func:`.figures.plot_fig5`) of ``systems`` (its row labels); ``reference``: the label of the
    first matrix, for the second."""
    collection, dataset, metric = key
    first = (f"BT's modelled probability that the row system beats the column system, λ(row) / (λ(row) + "
             f"λ(column)) from one BT fit with ties as half wins, for the {len(systems)} systems of {collection} "
             f"{dataset} scored by {metric_label(metric)}, ordered by BT strength (the lower triangle, 1 minus the "
             f"upper, is left blank); an asterisk marks the pairs where the sign test (ties dropped) rejects P = ½ at "
             f"α = {alpha:g}.")
    shortened = any(short != str(name) for name, short in short_system_names(systems).items())
    names = " System names without WMT's submission numbers." if shortened else ""
    if reference:
        return first + f"\n\nThe same view as {{numref}}`{reference}` on another metric; not in the paper." + names
    return first + ("\n\nThe paper's Fig. 5 shows this view for a machine-translation setup scored by ROUGE-1 that it "
                    "does not name, so its systems and numbers cannot be compared; the colours here are modelled "
                    "probabilities, not the observed share of instances won." + names)


def fig6_caption(paper_pairs: int, full_pairs: int, alpha: float, draws: int, fraction: float,
                 max_pairs: int | None) -> str:
    """Fig. 6 (:func:`.figures.plot_fig6`): the three matrices, the pairs behind ours and how they were drawn."""
    per_setup = f"at most {max_pairs:,} random system pairs per setup" if max_pairs else "every system pair"
    return (f"How often test *j* finds a significant difference (α = {alpha:g}) among the system pairs where test *i* "
            "does (the diagonal: how often test *i* does at all), for the paired t-test, Mood's median test, the sign "
            f"test and Wilcoxon's signed-rank test: (a) the paper's Fig. 6, (b) ours with the draws of the paper's "
            f"code ({paper_pairs:,} pairs), (c) ours on the full test sets ({full_pairs:,} pairs).\n\n"
            f"(b) pools the system pairs of {draws:,} draws of a dataset, one of its metrics and {_percent(fraction)} "
            "of its test instances, and runs the sign test as that code does (ties kept in the count); (c) tests "
            f"{per_setup} on all instances with textbook tests (the sign test drops ties). The paper's figure is "
            "one matrix.")
