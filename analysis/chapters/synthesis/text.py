"""The synthesis chapter's sentences: every number and verdict on the page is computed here from the studies'
tables and the claim values (:mod:`.values`), and the figure captions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...plotting import MECHANISM_LABELS

L = MECHANISM_LABELS


def _pct(x: float) -> str:
    """A share as a percentage: whole percents, one decimal below 10% (so that a small share never reads 0%)."""
    return f"{x:.1%}" if 0 < abs(x) < 0.1 else f"{x:.0%}"


def values_of(frame: pd.DataFrame, study: str) -> dict:
    """The claim values of one study as a dict (booleans read back from text)."""
    part = frame[frame["study"] == study]
    out = {}
    for measure, value, holds in zip(part["measure"], part["value"], part["holds"]):
        if isinstance(holds, str):
            holds = {"True": True, "False": False}.get(holds, holds)
        out[measure] = bool(holds) if isinstance(holds, (bool, np.bool_)) else float(value)
    return out


# -- study 1 --------------------------------------------------------------------------------------------------------

def stability_text(v: dict, trade: pd.DataFrame, n_setups: int) -> str:
    t = trade.set_index("mechanism")
    pairwise = t.loc[["bt", "elo", "trueskill"], "reordered_any"].sort_values()
    most_robust = t["tau_drop"].idxmin()
    best_truth = t["tau_clean"].idxmax()
    sanity = ("MEAN and MEDIAN never reorder the remaining systems (the sanity line: each scores a system alone)"
              if v["alone_reordered_max"] == 0 else
              f"MEAN or MEDIAN reordered the remaining systems in {_pct(v['alone_reordered_max'])} of setups, which "
              "a mechanism that scores each system alone cannot do: a bug to look for")
    verdict = ("BT is the most stable of the three mechanisms that compare systems"
               if v["bt_most_stable_pairwise"] else
               f"{L[pairwise.index[0]]}, not BT, is the most stable of the mechanisms that compare systems")
    trade_off = (f"{L[most_robust]} loses the least agreement to adversarial outliers and is also the closest to the latent "
                 "ranking without them" if best_truth == most_robust else
                 f"{L[most_robust]} loses the least agreement to adversarial outliers and {L[best_truth]} is the closest to the "
                 f"latent ranking without them")
    return (f"On {n_setups} real setups, {sanity}. Among the mechanisms that can: "
            + ", ".join(f"{L[m]} {_pct(x)}" for m, x in pairwise.items())
            + f" of setups reorder when their best or their worst system is removed (averaged over the two). "
            f"{verdict}; BT violates independence of irrelevant alternatives in {_pct(v['bt_iia_share'])} of the "
            f"checked triples, Elo in {_pct(t.loc['elo', 'iia_violation_share'])} and TrueSkill in "
            f"{_pct(t.loc['trueskill', 'iia_violation_share'])}. In the simulation, {trade_off}: the published code's "
            f"adversarial outliers cost BT {v['bt_tau_drop']:.2f} of Kendall τ and MEAN {v['mean_tau_drop']:.2f}; the "
            f"text's permuted outliers cost them {v['bt_tau_drop_permute']:.2f} and {v['mean_tau_drop_permute']:.2f}.")


# -- study 2 --------------------------------------------------------------------------------------------------------

def wmt_text(v: dict, pairs: pd.DataFrame, same_segment: int) -> str:
    k = len(pairs)
    base = (f"The {k} SR+DC language pairs hold {int(pairs['preferences'].sum()):,} paired preferences (one per worker, "
            f"HIT and pair of systems both scored in it; {_pct(pairs['preferences'].mul(pairs['tie_share']).sum() / pairs['preferences'].sum())} "
            f"ties) and {same_segment} cases of a worker scoring two systems on the same segment. The two original rankings "
            f"order {_pct(pairs['pairs_ordered_differently'].sum() / pairs['system_pairs'].sum())} of the system pairs "
            f"differently. ")
    ends = (f"Removing the best or the worst system changes the remaining order of the z-score ranking in "
            f"{_pct(v['z_ends_reordered'])} of the cases and of BT on paired preferences in "
            f"{_pct(v['bt_ends_reordered'])}: paired aggregation is "
            + ("more" if v["bt_more_stable_ends"] else "not more") + " stable here. ")
    null = ""
    if "z_null_reordered" in v:
        null = (f"The matched null, removing a random mid-ranked system, reorders z-means in "
                f"{_pct(v['z_null_reordered'])} and BT in {_pct(v['bt_null_reordered'])} of the draws, so removing "
                "the ends of the z ranking " + ("does" if v["z_ends_above_null"] else "does not")
                + " disturb it detectably more than removing any system would"
                + (f" (one-sided Fisher exact p = {v['z_ends_null_p']:.2g}, counting every run as independent)."
                   if "z_ends_null_p" in v else "."))
    return base + ends + null


# -- study 3 --------------------------------------------------------------------------------------------------------

def favoritism_text(v: dict, summary: pd.DataFrame, n_settings: int) -> str:
    s = summary.set_index("mechanism")
    low, high = v["bt_minus_mean_rho_low"], v["bt_minus_mean_rho_high"]
    if low > 0:
        verdict = "more closely than MEAN's: favoritism moves the BT ranking more"
    elif high < 0:
        verdict = "less closely than MEAN's: favoritism moves the mean ranking more"
    else:
        verdict = "neither more nor less closely than MEAN's, within the interval: favoritism moves both alike"
    return (f"Over {int(s['pairs'].iloc[0]):,} system pairs in {n_settings} (human rating, automatic rater) settings, "
            f"the rater's ranking orders differently from the human ranking {_pct(v['mean_flipped'])} of the pairs "
            f"under MEAN, {_pct(v['bt_flipped'])} under BT and {_pct(s.loc['median', 'flipped'])} under MEDIAN. "
            f"Flips go the way Φ says the rater favours in {_pct(v['bt_with_phi'])} of BT's flips and "
            f"{_pct(v['mean_with_phi'])} of MEAN's. The Spearman correlation of |Φ| with BT's flips exceeds that with "
            f"MEAN's by {v['bt_minus_mean_rho']:+.3f} (95% interval over settings {low:+.3f} to {high:+.3f}): "
            f"BT's errors follow Φ {verdict}.")


# -- study 4 --------------------------------------------------------------------------------------------------------

def ties_text(v: dict, marker: pd.DataFrame, costs: pd.DataFrame) -> str:
    stable = v["stable_share_half"]
    return (f"At 12·m·ln m comparisons per pair, BT with ties as half wins leaves on average "
            f"{_pct(v['misplaced_half'])} of a setup's systems out of place against its own ranking on all instances "
            f"({_pct(v['misplaced_drop'])} with ties dropped); {round(stable * len(costs))} of the {len(costs)} setups "
            f"({stable:.1%}) are stable "
            f"there (at most a tenth of their systems out of place), so 12·m·ln m "
            + ("stabilises most" if stable >= 0.5 else "does not stabilise most") + " of these rankings. "
            f"The setups' real ties (a median of {_pct(costs['tie_rate'].median())} of the comparisons) reorder "
            f"{_pct(v['pairs_moved_drop'])} of the system pairs of the full-data ranking on average when dropped "
            f"instead of halved, and {_pct(v['pairs_moved_loss'])} when given to the later system; across "
            f"setups, the tie rate and the instability at 12·m·ln m correlate with Spearman ρ = "
            f"{v['rho_tie_rate_half']:.2f}. Turning {_pct(v['injected_probability'])} of the drawn comparisons into "
            f"ties adds {_pct(v['half_injected_cost'])} of misplaced systems with ties as half wins and "
            f"{_pct(v['half_injected_cost'] + v['loss_injected_excess'])} when they go to the later system.")


# -- the practitioner's guide -----------------------------------------------------------------------------------------

def guide(stab: dict, wmt: dict, fav: dict, ties: dict, sizes: dict) -> str:
    """Recommendations, each from a computed value, with the section and the claim it rests on; ``sizes`` holds the
    numbers of setups, language pairs and settings behind each study (where the evidence is thin)."""
    items = []
    items.append(
        f"* **Mechanism.** If the ranking must not move when another system is added or removed, a mechanism that "
        f"scores each system alone (MEAN, MEDIAN: {'never reordered' if stab['alone_reordered_max'] == 0 else 'reordered, a bug'}) "
        f"is the safe choice; "
        f"among pairwise mechanisms prefer BT ({_pct(stab['bt_reordered'])} of setups reordered"
        + (", the fewest of the three" if stab["bt_most_stable_pairwise"] else "") + ") over Elo and TrueSkill. "
        "See {ref}`synthesis-stability`.")
    items.append(
        f"* **Outliers.** In the simulation adversarial outliers cost BT {stab['bt_tau_drop']:.2f} and MEAN "
        f"{stab['mean_tau_drop']:.2f} of Kendall τ: "
        + ("where a few instances may be wildly off, BT's robustness is worth its instability" if
           stab["bt_tau_drop"] < stab["mean_tau_drop"] else "MEAN is not less robust")
        + " ({ref}`synthesis-stability`).")
    items.append(
        "* **Human judgments scored one system at a time (WMT DA).** Pairing by worker and HIT does "
        + ("" if wmt["bt_more_stable_ends"] else "not ")
        + f"make the ranking more stable ({_pct(wmt['bt_ends_reordered'])} against {_pct(wmt['z_ends_reordered'])} "
        f"for z-means)"
        + ("; pairing is worth trying where the rating interface shows several systems together"
           if wmt["bt_more_stable_ends"] else "; keep the official z-means and report their clusters")
        + f" ({{ref}}`synthesis-wmt`). Evidence: {sizes['wmt_pairs']} language pairs, "
        "with preferences across documents of a HIT, not on the same segment.")
    items.append(
        "* **Metric favoritism.** A metric's favoritism shows in BT's errors "
        + ("more than" if fav["bt_minus_mean_rho_low"] > 0 else "less than" if fav["bt_minus_mean_rho_high"] < 0
           else "about as much as")
        + f" in MEAN's; check Φ per system pair whichever mechanism you use ({{ref}}`synthesis-favi`). "
        f"Evidence: {sizes['favi_settings']} settings in {sizes['favi_datasets']} datasets.")
    items.append(
        f"* **How many comparisons.** 12·m·ln m comparisons per pair left {_pct(ties['misplaced_half'])} of systems "
        f"out of place on real setups; "
        + ("it is enough for most" if ties["stable_share_half"] >= 0.5 else
           "where systems are close, draw more, or report BT's interval rather than a single order")
        + " ({ref}`synthesis-ties`).")
    items.append(
        f"* **Ties.** Count a tie as half a win or drop it (the two differ on {_pct(ties['pairs_moved_drop'])} of "
        f"system pairs); "
        + ("never count it for one side" if ties["loss_moves_more_than_drop"] else
           "counting it for one side moved these rankings no more than dropping it, but still depends on column order")
        + f" (the later system: {_pct(ties['pairs_moved_loss'])} of pairs reordered, and "
        f"{_pct(ties['loss_injected_excess'])} of systems more out of place once ties are injected) "
        f"({{ref}}`synthesis-ties`). Evidence: {sizes['tie_setups']} setups, one metric each.")
    return "\n".join(items)


# -- captions -----------------------------------------------------------------------------------------------------------

def tradeoff_caption(n_setups: int, n_sim: int, triples: int) -> str:
    return (f"Stability against robustness for the five mechanisms. Horizontal: the share of {n_setups} real setups of "
            f"the paired chapter whose remaining systems are reordered when the mechanism's best or worst system is "
            f"removed (the mean of the two). Vertical: (a) Kendall τ to the latent ranking and (b) the τ lost between "
            f"no outliers and the most (2.5%) adversarial outliers of the paper's published code, in {n_sim} simulated "
            f"setups of the paired paper's generator on a small grid. Squares: MEAN and MEDIAN, which score each system "
            f"alone and so sit at zero on the horizontal axis (a check on the machinery). No paper draws this; the IIA "
            f"search ({triples} random triples per setup) is in the table.")


def wmt_caption(n_pairs: int, n_null: int) -> str:
    return (f"Knowles' perturbations on {n_pairs} SR+DC language pairs (WMT21–22 to English "
            f"{{cite:p}}`akhbardeh2021findings,kocmi2022findings` and the 2021 Facebook Wikipedia pairs, all counted "
            f"in the {n_pairs}; removing HUMAN and REF applies only to the pairs that have them): the share of rankings whose remaining order changes, for the official z-score means "
            f"and for Bradley–Terry on the paired preferences of the same judgments (a worker's mean score of two "
            f"systems in one HIT, ties as half). The null removes a random system that neither mechanism ranks "
            f"first or last ({n_null} draws per pair). Knowles compared clusters too; here only the order is.")


def favoritism_caption(n_pairs: int, n_settings: int) -> str:
    return (f"Favoritism and aggregation: for each mechanism, the share of system pairs that an automatic rater's "
            f"ranking orders differently from the human ranking, among pairs with small and with large |Φ| "
            f"(split at the median), over {n_pairs:,} pairs in {n_settings} (human rating, rater) settings of the "
            f"Favi-Score datasets (as the Favi-Score chapter builds them; only items every system has both scores for)."
            "\n\nNot in any of the papers: von Däniken et al. report Φ per pair, not how it moves each mechanism's "
            "ranking.")


def ties_caption(n_setups: int, n_trials: int, metric: str) -> str:
    return (f"Ties and sample size on {n_setups} real setups (one per dataset, scored with {metric}): the share of "
            f"systems whose BT position differs from the setup's own BT ranking on all instances, mean over "
            f"setups of {n_trials} draws each, under the three tie policies. (a) against the number of comparisons "
            f"per system pair, with each setup's value at 12·m·ln m (dots, ties as half); (b) at 12·m·ln m, against "
            f"the probability that a drawn comparison is turned into a tie, as the global-vs-pairwise paper's Fig. 1 "
            f"does on its data. Draws are multinomial per pair, the same distribution as drawing instances.")
