"""The sentences the notebook prints under the CEval, sampling and llmfao sections (Levtsov & Ustalov 2025,
Secs. 5-7, Appendix C): each number is read from the computed tables and each conclusion branches on them. The
paper's values and verdicts are claims rows (``data/published/claims/gvp.toml``), not sentences. The SST-5 and
binary stand-in sentences are in :mod:`.text_classification`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...data import published
from ...sweeps import lowest_ap, sample_size
from .ceval import penalty_rise
from .claim_values import at_marker
from .published import published_c1
from .shared import spearman_table
from .stability import REFERENCE_SIZE

#: a printed value with three decimals stands for anything within half a unit of its last digit
PRINTED_3 = 0.0005
PRINTED_2 = 0.005


def join(names) -> str:
    """'a', 'a and b', 'a, b and c'."""
    names = [str(n) for n in names]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def ap_phrase(ap: float, relevant: int, total: int, note: str = "") -> str:
    """How a measure ranks ``relevant`` originals among ``total`` models and copies, from its average precision
    (``note`` is added inside the parentheses)."""
    note = f"; {note}" if note else ""
    if np.isclose(ap, 1.0):
        return f"every original above every copy (AP 1{note})"
    if np.isclose(ap, lowest_ap(relevant, total)):
        return f"every copy above every original (AP {ap:.2f}, the lowest possible{note})"
    return f"originals and copies interleaved (AP {ap:.2f}{note})"


# -- CEval (Appendix C, Tables 6-7) -----------------------------------------------------------------------------------


def c1_text(scores: pd.DataFrame, texts: pd.DataFrame) -> str:
    """Appendix C.1: the models whose ED, WER and chrF equal the paper's to its printed decimals, and why the others
    differ (their missing generations, counted)."""
    paper = published_c1().set_index("model")
    ours = scores.set_index("model").loc[paper.index]
    gap = (ours[["ed", "wer", "chrf"]] - paper[["ed", "wer", "chrf"]]).abs().max(axis=1)
    missing = (texts == "").sum()
    exact = [m for m in paper.index if gap[m] <= PRINTED_3 + 1e-12]
    others = [m for m in paper.index if m not in exact]
    text = f"ED, WER and chrF equal the paper's to its printed third decimal for {join(exact) or 'no model'}."
    if others:
        why = {m: f" ({missing[m]} reviews without a generation, scored here as the empty string; the paper does not "
                  "say how it scored them)" if missing.get(m, 0) else "" for m in others}
        text += " They differ for " + "; ".join(f"{m} by up to {gap[m]:.4f}{why[m]}" for m in others) + "."
    return text


def table7_text(ours: pd.DataFrame, consistency: pd.DataFrame) -> str:
    """Table 7: ours against the correlations computed from the paper's own C.1, and where the printed BT row comes
    from (C.1, or C.2's six original rows), from :func:`.claim_values.paper_consistency`."""
    own = spearman_table(published_c1(), list(ours.columns))
    gap = float((ours - own).abs().max().max())
    rows = consistency[consistency["item"] == "table7"]
    off = {src: float((g["printed"] - g["recomputed"]).abs().max()) for src, g in rows.groupby("source")}
    c1, c2 = off["Appendix C.1"], off["Appendix C.2 (six originals)"]
    text = ("Ours and the same correlations computed from the paper's own Appendix C.1 values "
            + ("agree to the printed two decimals. " if gap < PRINTED_2 else f"differ by up to {gap:.2f}. "))
    if c1 <= PRINTED_2:
        return text + "The paper's printed BT row follows from its Appendix C.1."
    text += f"The paper's printed BT row does not follow from its Appendix C.1 (off by up to {c1:.2f}); "
    return text + ("it equals, to the printed decimals, the correlations of Appendix C.2's six original rows, whose "
                   "BT values come from the penalised experiment." if c2 <= PRINTED_2 else
                   f"nor from C.2's six original rows (off by up to {c2:.2f}).")


def table6_text(table6: pd.DataFrame, scores_c2: pd.DataFrame) -> str:
    """Table 6: the distances' AP both ways round and which reading the paper's values are nearer; the size of the
    appended strings; and whether chrF and BT keep each original above its own copy."""
    paper = published.item("gvp", "table6")["ap"]
    measures = scores_c2.set_index("model")
    originals = [m for m in measures.index if not m.startswith("Penalized ")]
    floor = lowest_ap(len(originals), len(measures))
    ap, flipped = table6["ap"], table6["ap_higher_is_better"]
    slip = all(abs(paper[m] - flipped[m]) < abs(paper[m] - ap[m]) for m in ("ed", "wer"))
    text = (f"Oriented as distances (lower is better), ED and WER have AP {ap['ed']:.2f} and {ap['wer']:.2f}; read as "
            f"higher-is-better, {flipped['ed']:.2f} and {flipped['wer']:.2f} (the lowest AP possible with "
            f"{len(originals)} originals among {len(measures)} is {floor:.2f}). The paper's ED and WER values lie nearer "
            + ("the higher-is-better reading: consistent with an orientation slip in the paper. " if slip else
               "the distance reading. "))
    text += (f"Our appended strings raise a model's mean ED by {penalty_rise(scores_c2):.0f} characters on average, "
             f"the paper's by {penalty_rise(published.frame('gvp', 'appendix_c2')):.0f}, so the absolute C.2 values "
             "differ. ")
    above = {c: all(measures.loc[m, c] > measures.loc[f"Penalized {m}", c] for m in originals) for c in ("chrf", "bt")}
    kept = [n for c, n in (("chrf", "chrF"), ("bt", "BT")) if above[c]]
    if not kept:
        return text + "Neither chrF nor BT keeps every original above its own penalised copy."
    mixed = [n for c, n in (("chrf", "chrF"), ("bt", "BT")) if above[c] and ap[c] < 1]
    return text + (f"{join(kept)} put{'s' if len(kept) == 1 else ''} every original above its own penalised copy"
                   + (f"; {join(mixed)} still interleave{'s' if len(mixed) == 1 else ''} the models (AP below 1)."
                      if mixed else ", and above every other copy (AP 1)."))


# -- Figs. 1-3 and the three random binary models ---------------------------------------------------------------------


def tie_sweep_text(sweep: pd.DataFrame, level: float = 0.8) -> str:
    """Fig. 1: the correlation without ties, how far it stays at or above ``level``, its spread at p = 0.5, and
    what happens when every match is a tie."""
    defined = sweep.dropna(subset=["spearman_mean"])
    if defined.empty:
        return "No tie probability gives BT a ranking here."
    start = defined.iloc[0]
    text = f"Without added ties the mean correlation is {start['spearman_mean']:.2f}" + (
        ": BT and mean chrF disagree on the order of some close models in some trials (per-review wins and average "
        "quality are different things). " if start["spearman_mean"] < 1 else ", BT and mean chrF agree in every trial. ")
    above = defined[defined["spearman_mean"] >= level]["tie_probability"]
    text += (f"It stays at or above {level} up to a tie probability of {above.max():.2f}" if len(above) else
             f"It is below {level} at every tie probability")
    half = defined.loc[(defined["tie_probability"] - 0.5).abs().idxmin()]
    text += (f"; at p = {half['tie_probability']:.2f} it is {half['spearman_mean']:.2f}, with 95% of the trials "
             f"between {half['spearman_low']:.2f} and {half['spearman_high']:.2f}. Each drawn match is a tie at random, "
             "so the remaining decided matches still favour the better model, only fewer of them.")
    last = sweep.iloc[-1]
    if np.isclose(last["tie_probability"], 1.0) and np.isnan(last["spearman_mean"]):
        text += " At p = 1 every match is a tie and BT has no ranking to give."
    return text


def stability_text(curves: dict) -> str:
    """Fig. 2, one sentence per panel: where 12·m·ln m falls on the curve, and where the curve settles (the mean
    number of misplaced models at or below 0.1 from there on) if it does on the grid."""
    from ...sweeps import settling_point

    parts = []
    for title, (curve, marker) in curves.items():
        at = at_marker(curve, marker)
        settled = settling_point(curve)
        parts.append(f"{title}: at 12·m·ln m = {marker} comparisons per pair ({at['comparisons']:.0f} on the grid) "
                     f"{at['changed_share']:.0%} of the trials rank some model elsewhere than the reference, "
                     f"{at['changes_mean']:.2f} models on average; the mean "
                     + (f"stays at 0.1 or below from {settled:.0f} comparisons per pair on." if np.isfinite(settled)
                        else f"is still {curve['changes_mean'].iloc[-1]:.2f} at {curve['comparisons'].iloc[-1]:.0f}."))
    return " ".join(parts)


def tie_cost_text(curves: dict) -> str:
    """§7's claim that ties make BT need more comparisons: the mean number of misplaced models of each curve at
    12·m·ln m and at the grid's end, and whether it rises with the tie probability."""
    at = {title: float(at_marker(curve, marker)["changes_mean"]) for title, (curve, marker) in curves.items()}
    parts = [f"{title}: {at[title]:.2f} at {marker} and {curve['changes_mean'].iloc[-1]:.2f} at "
             f"{curve['comparisons'].iloc[-1]:.0f}" for title, (curve, marker) in curves.items()]
    rises = bool(np.all(np.diff(list(at.values())) > 0))
    return (f"Mean number of misplaced models, against the ranking from {REFERENCE_SIZE:,} untied comparisons per "
            "pair — "
            + "; ".join(parts) + ". " + (
                "At 12·m·ln m the count rises with every step up in the tie probability: a tie carries no evidence "
                "about the order, so with more ties more comparisons are needed for the same stability."
                if rises else "At 12·m·ln m the count does not rise with every step up in the tie probability here."))


def random_binary_text(table: pd.DataFrame) -> str:
    """§5's three random binary models: how equal the accuracies are, how BT on every instance and on one sample
    relate to accuracy, and whether the paper's -0.5 is typical of one sample."""
    spread, n = table["accuracy_spread"], len(table)
    full = float((table["spearman_full"] == 1).mean())
    sampled = table["spearman_sampled"]
    paper = published.item("gvp", "section5_random_binary")["spearman_bt"]
    at_paper = float((sampled.round(2) == paper).mean())
    text = (f"Over {n:,} repetitions, the three accuracies differ by {spread.mean():.3f} on average (up to "
            f"{spread.max():.3f}). "
            + ("BT fitted on every instance orders the models as accuracy does in every repetition: a model's wins "
               "minus losses against another equal its correct answers minus the other's. " if full == 1 else
               f"BT fitted on every instance orders the models as accuracy does in {full:.0%} of the {n} "
               "repetitions. "))
    text += (f"BT on one sample of 12·3·ln 3 = {sample_size(3, 10**9)} matches per pair (about "
             f"{table['tie_share'].mean():.0%} of them ties) correlates {sampled.mean():.2f} with accuracy on average "
             f"and {paper} in {at_paper:.0%} of the repetitions: ")
    if sampled.mean() > 0 and at_paper > 0:
        return text + ("the paper's value is one of the values a single sample gives between models of identical "
                       "true quality, while on average BT agrees with accuracy.")
    return text + ("on average BT disagrees with accuracy here." if sampled.mean() <= 0 else
                   "the paper's value does not occur here.")


def detection_text(curve: pd.DataFrame) -> str:
    """Fig. 3: the probability of the correct order at the grid's largest difference for each number of matches,
    and whether, averaged over the grid, the mean of the decision values beats the count of wins."""
    at = curve[np.isclose(curve["difference"], curve["difference"].max())].set_index("matches")
    parts = [f"{n} matches: {row['pairwise']:.2f} pairwise vs {row['global']:.2f} global" for n, row in at.iterrows()]
    gap = curve.assign(gap=curve["global"] - curve["pairwise"]).groupby("matches")["gap"].mean()
    better = [n for n, g in gap.items() if g > 0]
    text = (f"At the largest difference on the grid ({at['difference'].iloc[0]:.2f}) the probability of the correct "
            "order is " + "; ".join(parts) + ". ")
    if len(better) == len(gap):
        return text + ("Averaged over the grid, the mean of the decision values finds the better model more often "
                       "than the count of wins at every number of matches: a match keeps only the sign of each "
                       "difference, the mean keeps its size.")
    return text + ("Averaged over the grid, the mean of the decision values finds the better model more often than "
                   f"the count of wins with {join(better)} matches only." if better else
                   "Averaged over the grid, the count of wins finds the better model at least as often as the mean.")


# -- llmfao (beyond the paper) ----------------------------------------------------------------------------------------


def _largest_share(sweep: pd.DataFrame, column: str, level: float) -> float:
    """The largest value of ``column`` at which the mean correlation is still at least ``level`` (NaN if none)."""
    above = sweep.dropna(subset=["spearman_mean"])
    above = above[above["spearman_mean"] >= level]
    return float(above[column].max()) if len(above) else np.nan


def llmfao_text(rule: dict, sweep: pd.DataFrame, ranks: pd.DataFrame, rho_boot: np.ndarray,
                curve: pd.DataFrame, ceval: dict | None = None, level: float = 0.8) -> str:
    """llmfao: what the paper's sampling rule asks of it; the tie sweep against a disjoint half (how far added ties
    keep the mean correlation at or above ``level``), next to CEval's Fig. 1 read the same way (``ceval``: its
    correlation without added ties, ``no_ties``, the largest tie probability at ``level``, ``at_level``, and the
    share of its chrF matches tied of their own, ``own_ties``); then the bootstrap and split-half stability."""
    width = ranks["rank_high"] - ranks["rank_low"]
    half = curve.iloc[-1]
    first = curve.iloc[0]
    text = (f"llmfao has {rule['judgments']:,} judgments of {rule['models']} models, {rule['tie_share']:.0%} of them "
            f"ties; {rule['pairs_compared']} of the {rule['pairs']:,} pairs are judged at all, a median of "
            f"{rule['median_per_pair']:.0f} times (at most {rule['max_per_pair']}). The paper's rule asks "
            f"{rule['required_per_pair']:,} comparisons per pair, {rule['required_total']:,} in all: "
            f"{rule['pairs_with_enough']} pairs have that many, so the rule "
            + ("always falls back to all judgments. " if rule["pairs_with_enough"] == 0 else
               "falls back to all judgments for the others. "))
    start = sweep.dropna(subset=["spearman_mean"]).iloc[0] if sweep["spearman_mean"].notna().any() else None
    at = _largest_share(sweep, "tie_share", level)
    if start is None:
        text += "Adding ties: no trial gives BT a ranking. "
    else:
        text += (f"Adding ties to one random half and ranking it against the other half: without added ties the "
                 f"halves correlate {start['spearman_mean']:.2f} on average; "
                 + (f"the mean stays at or above {level} until {at:.0%} of the judgments are ties (the data's own "
                    "included). " if np.isfinite(at) else f"the mean is below {level} at every share of ties. "))
    if ceval is not None and start is not None:
        text += (f"Read the same way, CEval's Fig. 1 (whose chrF matches have {ceval['own_ties']:.1%} ties of their "
                 f"own, so its tie probability is its share of ties) starts at {ceval['no_ties']:.2f} and stays at or "
                 f"above {level} up to {ceval['at_level']:.0%} ties; its reference is the mean chrF on the very "
                 "reviews its matches are drawn from, not a disjoint half, so only where each curve crosses "
                 f"{level} compares, not its height. ")
    return text + (f"Resampling each pair's judgments: the mean Spearman correlation with BT on every judgment is "
                   f"{np.nanmean(rho_boot):.2f}, but a model's 95% rank range spans {width.median():.0f} places for "
                   f"the median model (up to {width.max():.0f}). Two disjoint random parts of "
                   f"{first['judgments']:,.0f} judgments each correlate {first['spearman_mean']:.2f} on average; two "
                   f"halves (about {half['judgments']:,.0f} each) {half['spearman_mean']:.2f} (2.5% percentile "
                   f"{half['spearman_low']:.2f}), a model moving {half['rank_displacement']:.1f} places between them on "
                   "average.")


def sampling_text(quality: pd.DataFrame, n_trials: int, what: str = "BT's 95% interval comes from") -> str:
    """The paper's sampling rule on ``quality`` (instances x models) in words: ``what`` {n_trials} sampled sets of
    12·m·ln m matches per pair (fewer when the instances run out), with m and the count computed."""
    m, n = quality.shape[1], quality.shape[0]
    size = sample_size(m, n)
    rule = f"12·{m}·ln {m} = {size:,}" if size < n or sample_size(m, 10**9) == size else f"all {n:,}"
    return f"{what} {n_trials:,} sampled sets of {rule} matches per pair (from {n:,} instances)."
