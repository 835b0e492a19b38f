"""The figures' captions (MyST), each computed from the table behind its figure: what it shows, on which data (the
stand-in and what it stands in for) and how it differs from the paper's figure (Figs. 1-5, the Sec. 5.1 shares)."""

from __future__ import annotations

import pandas as pd

from .packages import PACKAGES
from .views import PACKAGE_SHORT

#: the pairs of the paper's own Figs. 2-5 (its text), none of them reachable here
PAPER_PAIRS = {"fig2": "en-de 2020", "fig3": "zh-en 2020", "fig4": "en-lt 2019", "fig5": "en-lt 2019"}


def pair_label(collection: str, pair: str) -> str:
    """A pair in words: ``de-en, 2021 to-English (SR+DC)``."""
    return f"{pair}, {PACKAGES[collection][0] if collection in PACKAGES else collection}"


def _divisors(values) -> str:
    values = sorted(float(v) for v in values)
    return f"{values[0]:g}" if len(values) == 1 else f"{values[0]:g} to {values[-1]:g}"


def fig1_caption(fractions: pd.DataFrame) -> str:
    """Fig. 1: the measures, the divisors and the pairs behind each line (``fractions``: :func:`fig1_fractions`)."""
    pairs = fractions.groupby(["source", "style"])["pairs"].first()
    here = fractions[fractions["source"] == "here"]
    return (
        "Share of language pairs whose order of systems (Δrank), significance clusters (Δcluster) or both (Δboth) "
        "change when the raw scores of HUMAN systems and REF items are divided by "
        f"{_divisors(here['divisor'].unique())} before standardising. Solid: here, {pairs.get(('here', 'SR+DC'), 0)} "
        "SR+DC pairs (the 2021–22 to-English packages, standing in for the paper's 2019–20 SR+DC evaluations) and "
        f"{pairs.get(('here', 'SR-DC'), 0)} SR-DC pairs (2018, the paper's own data); dashed: the paper's "
        f"{pairs.get(('paper', 'SR+DC'), 0)} SR+DC and {pairs.get(('paper', 'SR-DC'), 0)} SR-DC pairs.\n\n"
        "The paper's values come from its author's code {cite:p}`knowles2021wmtstabilitycode` (its Fig. 1 prints "
        "none). The few 2018 workers whose raw scores are not known keep their published z, undivided, on both "
        "sides of the comparison; no judgment is left out ({ref}`wmt-raw`).")


def trajectory_figures(shown, info: pd.DataFrame) -> list[tuple]:
    """The figures of Sec. 5.3: ((collection, pair), figure name, role) for each pair of ``shown``
    (:func:`~.packages.trajectory_panels`): the SR+DC pairs in the roles of the paper's Figs. 2 and 3, then the
    SR-DC contrast, which the paper does not draw."""
    out, roles = [], iter(("fig2", "fig3"))
    for key in shown:
        if info.loc[key, "style"] == "SR+DC":
            role = next(roles, None)
            if role is None:
                continue
            out.append((key, f"wmt_{role}_trajectories", role))
        else:
            out.append((key, "wmt_fig23_trajectories_sr_dc", "contrast"))
    return out


def _row(summary: pd.DataFrame, key: tuple[str, str]) -> pd.Series:
    rows = summary[(summary["collection"] == key[0]) & (summary["pair"] == key[1])]
    if len(rows) != 1:
        raise KeyError(f"{key} is not one row of the summary")
    return rows.iloc[0]


def trajectory_caption(summary: pd.DataFrame, key: tuple[str, str], role: str, divisors) -> str:
    """Figs. 2-3 for the pair ``key`` (``summary``: :func:`trajectory_summary`; ``role``: ``fig2``, ``fig3`` or
    ``contrast``, from :func:`trajectory_figures`)."""
    row = _row(summary, key)
    name = pair_label(*key)
    text = (f"Ranks (top = best) of the MT systems of {name}, on the original data and with the raw scores of HUMAN "
            f"systems and REF items divided by {_divisors(divisors)} before standardising; × marks a significance "
            "line. ")
    moved = (f"{row['ranks_moved']} (system, divisor) ranks differ from the original ranking and the clusters differ "
             f"under {row['divisions_with_other_clusters']} of {row['divisions']} divisions.")
    if role in ("fig2", "fig3"):
        which = "most" if role == "fig2" else "second most"
        text += (f"In the role of the paper's Fig. {role[-1]} ({PAPER_PAIRS[role]}, SR+DC; its per-judgment files "
                 f"are not reachable here): the SR+DC pair here whose ranks move {which}. " + moved)
    else:
        text += ("For contrast, the SR-DC pair whose ranks move most (the paper draws no SR-DC trajectory): "
                 + moved)
    return text + ("\n\nHUMAN systems are scored but left out of the ranking and the clusters, as in the paper's "
                   "figures. The pairs were chosen because they move most: they show the extreme cases, not "
                   "typical ones.")


def fig4_figures(summary: pd.DataFrame) -> list[tuple[tuple[str, str], str]]:
    """Fig. 4's pairs (``summary``: :func:`fig4_summary`) with their figure names: the SR+DC pair takes the paper's
    name, the SR-DC contrast its own."""
    return [((c, p), "wmt_fig4_cooccurrence" if style == "SR+DC" else "wmt_fig4_cooccurrence_sr_dc")
            for c, p, style in zip(summary["collection"], summary["pair"], summary["style"])]


def fig4_caption(summary: pd.DataFrame, key: tuple[str, str]) -> str:
    """Fig. 4 for the pair ``key`` (``summary``: :func:`fig4_summary`)."""
    row = _row(summary, key)
    name = pair_label(*key)
    text = (f"Of the HITs that hold the row system, the percentage that also hold the column system, in {name}: "
            f"on average {row['mean_share']:.0%} (from {row['min_share']:.0%} to {row['max_share']:.0%}), and "
            f"{row['hits_with_every_system']:.0%} of its {row['hits']:,} HITs hold all {row['systems']} systems.")
    if row["style"] == "SR+DC":
        text += (f"\n\nThe paper's Fig. 4 counts the HITs of {PAPER_PAIRS['fig4']} (SR+DC, not reachable here); this "
                 "is the SR+DC pair here with a HUMAN system and the most HITs, in shares of the row system's HITs "
                 "rather than counts.")
    else:
        text += "\n\nFor contrast, the SR-DC pair (2018) with the most HITs; the paper shows no SR-DC matrix."
    return text


def fig5_caption(variance: pd.DataFrame, collection: str, pair: str) -> str:
    """Fig. 5 (``variance``: :func:`fig5_variance`, its raw-score row describes the matrix)."""
    raw = variance.set_index("scores").loc["raw"]
    return (f"Mean raw score of each test document (rows) and system (columns) in "
            f"{pair_label(collection, pair)}, documents and systems sorted best first; grey cells were not judged "
            f"({raw['cells_judged']:.0%} of the {raw['documents']:.0f} × {raw['systems']:.0f} cells are judged).\n\n"
            f"The paper's Fig. 5 shows {PAPER_PAIRS['fig5']} (SR+DC, not reachable here); this is the SR+DC pair here "
            "with a HUMAN system, every raw score recovered and the most systems. Its test documents are rebuilt from "
            "the per-HIT document ids (instances whose segment ranges overlap are joined).")


def ref_shares_caption(composition: pd.DataFrame) -> str:
    """Sec. 5.1's shares as a figure (the paper gives them in its text)."""
    packages = ", ".join(dict.fromkeys(PACKAGE_SHORT.get(c, c) for c in composition["collection"]))
    printed = int(composition["paper_workers_saw_ref"].notna().sum())
    return ("Share of each pair's workers who judged at least one REF item (circles) and, where a HUMAN system is "
            f"ranked, at least one of its outputs (triangles), by package ({packages}); crosses: the {printed} "
            "2018 shares the paper prints.\n\n"
            "The paper gives these shares in the text of its §5.1, not as a figure. The Facebook pairs hold no REF "
            "items.")
