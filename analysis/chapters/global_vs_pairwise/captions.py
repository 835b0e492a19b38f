"""The figures' captions (MyST), computed from the tables and settings behind each figure: what it shows, on which
data (the stand-ins and what they replace) and how it differs from the paper's Figs. 1-4 (Levtsov & Ustalov 2025)."""

from __future__ import annotations

import pandas as pd

from .text import join

#: the paper's threshold in Figs. 1-2's discussion: a correlation of at least 0.8 counts as agreement
THRESHOLD = 0.8


def _grid(values, digits: int = 2) -> str:
    """A grid of values in words: ``0 to 1, 101 values``."""
    values = sorted(float(v) for v in pd.unique(pd.Series(values)))

    def number(v: float) -> str:
        return f"{v:,.0f}" if v == int(v) else f"{v:.{digits}g}"

    if len(values) == 1:
        return number(values[0])
    return f"{number(values[0])} to {number(values[-1])}, {len(values):,} values"


def tie_sweep_caption(sweep: pd.DataFrame, models, matches: int, n_trials: int) -> str:
    """Fig. 1 (``sweep``: :func:`~.stability.tie_sweep`; ``models``: the models compared; ``matches``: per pair)."""
    return (f"Spearman correlation between BT's ranking and the ranking by mean chrF of {len(models)} CEval "
            "generation models, when each sampled match is turned into a tie with probability p "
            f"({_grid(sweep['tie_probability'])}): the mean over {n_trials:,} sampled sets of {matches:,} matches per "
            f"pair (line) and the middle 95% of them (band); dotted, the paper's threshold of {THRESHOLD}.\n\n"
            "The paper's Fig. 1, on the same data {cite:p}`nguyen2024ceval`; the paper does not name its five models, "
            f"here {join(models)} (every method but the human-written Crowd counterfactuals).")


def stability_caption(curves: dict, n_trials: int, reference_size: int, *, ties: bool = False) -> str:
    """Fig. 2 (``curves``: title -> (:func:`~analysis.sweeps.stability_curve`, 12·m·ln m), one panel each)."""
    sizes = next(iter(curves.values()))[0]["comparisons"]
    text = (f"Models whose BT rank on a sampled set of comparisons differs from their rank on {reference_size:,} "
            f"comparisons per pair, against the comparisons per pair ({_grid(sizes)}): the mean over {n_trials:,} "
            "sampled sets (solid) and the 95th percentile (dotted); the red line marks 12·m·ln m. Panels, top to "
            f"bottom: {join(curves)}.\n\n")
    if ties:
        return text + ("Not in the paper: its §7 says BT needs many observations when comparisons end in draws but "
                       "shows no curve. CEval's chrF matches, each sampled match (not the reference's) turned into a "
                       "tie with the probability of the panel.")
    return text + ("The paper's Fig. 2 shows Jigsaw {cite:p}`adams2017jigsaw`, not reachable here, and says the other "
                   "datasets behave alike: here CEval (the paper's data), SST-5 with baselines trained here, and the "
                   "binary stand-in for Jigsaw (SST-5 without its neutral class, classifiers trained here).")


def detection_caption(curve: pd.DataFrame, n_repeats: int) -> str:
    """Fig. 3 (``curve``: :func:`~.stability.detection_curve`)."""
    sizes = [f"{n:,}" for n in sorted(curve["matches"].unique())]
    return (f"Probability that the better of two models is ranked first, against the difference 1 − f between them "
            f"({_grid(curve['difference'])}), by the count of wins (pairwise, BT; solid) and by the mean decision "
            f"value (global; dashed), with {join(sizes)} matches; each point over {n_repeats:,} repetitions.\n\n"
            "Our reading of the paper's Fig. 3, whose simulation the paper describes in one paragraph: each model's "
            "decision values for the gold class uniform on [0, 1], one of them scaled by f. The global (dashed) curves "
            "are added here for comparison.")


FLOWCHART_CAPTION = (
    "When to use global scores and when pairwise comparisons: the paper's Fig. 4, redrawn from its caption and the "
    "recommendations of its §§5–8 (the text copy of the paper holds only the caption).\n\n"
    "The claims table at the top of the chapter says which of the findings behind its branches hold here.")


def llmfao_caption(rule: dict, sweep: pd.DataFrame, curve: pd.DataFrame, n_trials: int) -> str:
    """The llmfao figure (``rule``: :func:`~.llmfao.sampling_rule`; ``sweep``: :func:`~.llmfao.tie_sweep`;
    ``curve``: :func:`~.llmfao.split_half_curve`)."""
    return (f"BT on llmfao's {rule['judgments']:,} crowd judgments of {rule['models']} LLMs "
            "{cite:p}`ustalov2023llmfao`. (a) Spearman correlation between BT on one random half of the judgments, "
            "each turned into a tie with probability p, and BT on the other half, against the share of ties in the "
            f"first half (the data's own {sweep['tie_share'].min():.0%} included): mean and middle 95% of "
            f"{n_trials:,} trials; dotted, "
            f"{THRESHOLD}. (b) Spearman correlation between the BT rankings of two disjoint random subsets, against "
            f"the judgments in each ({join(f'{s:.0%}' for s in curve['share'])} of them): mean and 2.5th percentile "
            f"of {n_trials:,} trials.\n\n"
            "Not in the paper, which never uses llmfao: its Figs. 1-2's questions asked of real pairwise judgments "
            "with their own ties. Unlike the paper's Fig. 1, the reference in (a) shares no judgment with the "
            "trials.")
