"""Chapter 02's page text: the note on degenerate BT fits, the reading of Table 3 side by side, and the paper's text
claims next to our numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agreement import pair_label
from .published import TABLE3_EXACT, table3_agreement, table3_swaps
from .setups import KEYS, MEASURES


def degenerate_note(frames: dict[str, pd.DataFrame]) -> str:
    """A sentence: in how many rows of each frame (labelled, e.g. ``{"setups under ties='loss'": rows}``) BT had no
    finite maximum-likelihood fit, naming the setups when there are few, and what that does to the tables."""
    counts = []
    for label, frame in frames.items():
        hit = frame[frame["bt_degenerate"]]
        named = ""
        if 0 < len(hit) <= 6 and set(KEYS) <= set(frame.columns):
            named = " (" + ", ".join(" ".join(map(str, key)) for key in hit[KEYS].itertuples(index=False)) + ")"
        counts.append(f"{len(hit):,} of {len(frame):,} {label}{named}")
    if not any(frame["bt_degenerate"].any() for frame in frames.values()):
        return "BT has a finite maximum-likelihood fit in all " + " and ".join(
            f"{len(f):,} {label}" for label, f in frames.items()) + "."
    return ("BT has no finite maximum-likelihood fit in " + "; and in ".join(counts) + ". There a group of systems "
            "never loses (or never wins) against the rest, so its strengths grow (or shrink) without bound and "
            "their size is set by the fit's stopping rule; the group's place in the ranking, which is all the "
            "disagreement measures use, is still right.")


def table3_notes(side: pd.DataFrame) -> str:
    """The chapter's reading of the side-by-side Table 3, every number computed from ``side``."""
    exact = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna()]
    dis = exact[exact.measure == "disagree"]
    counts = table3_agreement(side).loc[("exact (TAC, TC, PC)", MEASURES["disagree"])]
    within, within_full = int(counts[("20% sub-samples", "within 0.02")]), int(counts[("full test sets", "within 0.02")])
    swaps = table3_swaps(side)
    single = exact[(exact.measure == "top1") & exact.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    text = [f"On the paper's own score matrices (TAC, TC, PC), {within} of {len(dis)} *Disagree* cells of the "
            f"sub-sample reading lie within 0.02 of the published ones, against {within_full} on the full test sets, "
            "which sit lower almost everywhere (larger test sets disagree less; Fig. 4). ≠ SotA and ≠ Top-3 are "
            "shares of 30 draws in the paper, so they carry the draws' noise (a standard deviation of "
            f"{single.noise_sd.median():.2f} in the difference for a single metric's ≠ SotA, the median over cells); "
            "the table above counts how many lie within two standard deviations of it."]
    for dataset, group in swaps:
        cells = side[(side.dataset == dataset) & (side.metric_group == group)].set_index(["measure", "pair"])
        pairs_text = [f"{MEASURES[m]} {cells.loc[(m, 'mean_bt'), 'paper']:.2f} / "
                      f"{cells.loc[(m, 'median_bt'), 'paper']:.2f} against our {cells.loc[(m, 'mean_bt'), 'ours']:.2f}"
                      f" / {cells.loc[(m, 'median_bt'), 'ours']:.2f}" for m in MEASURES]
        text.append(f"**{dataset} {group}: the paper's Mean/BT and Med/BT columns look exchanged** — "
                    + "; ".join(pairs_text) + " (Mean/BT / Med/BT)."
                    + (" In every other TAC cell of the paper MEAN vs. BT disagrees least of the three pairs; read the "
                       "other way round, this one does too." if _mean_bt_least_elsewhere(side, dataset, group) else ""))
    loose = dis[((dis.ours - dis.paper).abs() > 2 * dis.noise_sd) & ((dis.ours - dis.paper).abs() > 0.02)]
    loose = loose[~loose.set_index(["dataset", "metric_group"]).index.isin(swaps)]
    if len(loose):
        text.append("*Disagree* cells further from the paper than the draws explain: " + ", ".join(
            f"{r.dataset} {r.metric_group} {pair_label(tuple(r.pair.split('_')))} ({r.paper:.2f} vs. {r.ours:.2f})"
            for r in loose.itertuples()) + ". " + (
            "Dialogue cells rest on 4–5 systems, so each draw's disagreement is a coarse fraction and ties are "
            "frequent; " if loose.dataset.isin(["TC", "PC"]).any() else "")
            + "we cannot tell more without the paper's own draws.")
    text.append("The other rows are not the paper's data: WMT has the paper's system outputs with recomputed "
                "metrics (its *Disagree* cells still come close), CNN/DM and COCO are stand-ins with other systems "
                "(REALSumm's 24, COCO's 9 against the paper's 12), so their cells are shown but not expected to match.")
    return "\n\n".join(text)


def _mean_bt_least_elsewhere(side: pd.DataFrame, dataset: str, group: str) -> bool:
    """Whether, in the paper's TAC Disagree cells other than (dataset, group), MEAN vs. BT is always the smallest."""
    tac = side[side.dataset.str.startswith("TAC") & (side.measure == "disagree")
               & ~((side.dataset == dataset) & (side.metric_group == group))]
    wide = tac.pivot_table(index=["dataset", "metric_group"], columns="pair", values="paper")
    return bool((wide["mean_bt"] < wide[["median_bt", "mean_median"]].min(axis=1)).all())


def text_claims(*, section5: pd.DataFrame, ranks: pd.DataFrame, fig4_size: pd.DataFrame,
                fig4_paper_size: pd.DataFrame, sig_paper: pd.DataFrame, sig_full: pd.DataFrame,
                iia: pd.DataFrame) -> pd.DataFrame:
    """The paper's text claims next to our numbers, one row each: where, the paper says, ours, verdict."""
    rows = []
    a3, with_lt = section5.loc["Appendix A.3's list"], section5.loc["Appendix A.3 + WMT19 lt-en"]
    exact = (with_lt == section5.loc["the paper's §5"]).all()
    rows.append(("§5", "296 setups, 73,471 system pairs, 91,197 test instances",
                 f"Appendix A.3's list counts {a3.setups:,}, {a3.system_pairs:,}, {a3.test_instances:,}; with WMT19 "
                 f"lt-en {with_lt.setups:,}, {with_lt.system_pairs:,}, {with_lt.test_instances:,}",
                 "reproduced: lt-en was in the paper's data, its appendix list omits it" if exact else "not reproduced"))
    n = len(ranks)

    def rank_text(metric):
        return f"{metric}: {ranks.loc[metric, 'mean_bt rank']} and {ranks.loc[metric, 'median_bt rank']}"
    if {"BLEU", "BERTScore", "MoverScore"} <= set(ranks.index):
        bleu_top = max(ranks.loc["BLEU", ["mean_bt rank", "median_bt rank"]]) <= 3
        rows.append(("Fig. 4(a)", "BLEU variants are the most affected, particularly MEAN or MEDIAN vs. BT",
                     f"rank of {n} on TAC and dialogue (1 = most affected), MEAN vs. BT and MEDIAN vs. BT: "
                     + rank_text("BLEU"),
                     "reproduced" if bleu_top else "not reproduced on the paper's own data; BLEU-1…4 exist only on "
                     "WMT and COCO here, where metric and task cannot be told apart"))
        low = all(ranks.loc[m, c] > n / 2 for m in ("BERTScore", "MoverScore") for c in ("mean_bt rank",
                                                                                           "median_bt rank"))
        rows.append(("Fig. 4(a)", "BERTScore and MoverScore seem less affected",
                     "; ".join(rank_text(m) for m in ("BERTScore", "MoverScore")),
                     "reproduced" if low else "partly: not in the lower half for every comparison"))
    large = fig4_paper_size[fig4_paper_size["size"] >= 500]
    if len(large):
        level = large.groupby("pair").disagree.max()
        floor = all(level.get(p, 0) >= 0.10 for p in ("mean_bt", "median_bt"))
        rows.append(("Fig. 4(c)", "MEAN vs. BT and MEDIAN vs. BT do not decrease below 10% with more instances",
                     f"BT-eval's draws, sizes ≥ 500: MEAN vs. BT {level.get('mean_bt', np.nan):.0%}, MEDIAN vs. BT "
                     f"{level.get('median_bt', np.nan):.0%} at most; our bars at {fig4_size['size'].max():g}: "
                     + ", ".join(f"{pair_label(tuple(p.split('_')))} {v:.0%}" for p, v in fig4_size.loc[
                         fig4_size["size"] == fig4_size["size"].max()].set_index("pair").disagree.items()),
                     "reproduced" if floor else "a floor as the paper says, but under 10% here"))
    diag = {name: sig_paper.loc[name, name] for name in sig_paper.index}
    rows.append(("§5 / App. D", "the t-test finds significance most often (41%); Mood 21%, sign 35%, Wilcoxon 40%",
                 ", ".join(f"{k} {v:.0%}" for k, v in diag.items()) + " (BT-eval's draws); full test sets: "
                 + ", ".join(f"{name} {sig_full.loc[name, name]:.0%}" for name in sig_full.index),
                 ("reproduced with BT-eval's draws" if max(diag, key=diag.get) == "t-test" else
                  "not reproduced") + "; on full test sets the tests find far more, Wilcoxon as often as the t-test"))
    rows.append(("App. D", "when Mood's test is significant, the sign test is too 89% of the time",
                 f"{sig_paper.loc['Mood', 'sign']:.0%} (BT-eval's draws and sign test), "
                 f"{sig_full.loc['Mood', 'sign']:.0%} (full test sets, textbook sign test)",
                 "close with BT-eval's sign test, which keeps ties in n; the textbook test drops them"))
    full = iia[(iia["size"] == "full") & (iia.n_instances > 10)]
    rows.append(("App. F", "no violation of independence of irrelevant alternatives with more than 10 test instances",
                 f"{int(full.reversed.sum()):,} reversals in {int((full.reversed > 0).sum())} of {len(full)} setups "
                 "with more than 10 instances",
                 "not reproduced; we cannot tell why: the paper's search is not in BT-eval, ours is checked against "
                 "direct BT fits"))
    return pd.DataFrame(rows, columns=["where", "the paper says", "ours", "verdict"])
