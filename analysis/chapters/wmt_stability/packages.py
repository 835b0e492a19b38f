"""Chapter 03's packages and pairs: which WMT packages are shown and how, each pair's coded judgments, and which
pairs the figures show."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws

#: the packages with per-judgment data, in the order they are shown; label and what they stand for
PACKAGES = {
    "newstest2018": ("2018 (SR-DC)", "the paper's own 2018 data (13 pairs with judgments; de-en as segment scores)"),
    "newstest2021-toen": ("2021 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "newstest2022-toen": ("2022 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "wikipedia2021-fb": ("2021 Facebook-Wikipedia", "two professional evaluators per pair; no REF or HUMAN items"),
}
#: packages in the by-style totals: Facebook-Wikipedia's one or two evaluators judged everything, so it has no HIT
#: composition to speak of and is shown on its own
STYLE_TOTALS = ("newstest2018", "newstest2021-toen", "newstest2022-toen")
CHANGE_COLUMNS = ["rank_changed", "cluster_changed", "both_changed"]


def coded_pairs(judgments: pd.DataFrame, segments: pd.DataFrame, packages) -> dict:
    """(collection, pair) -> (PairJudgments, reconstructed raw, raw coverage summary), for ``packages``."""
    out = {}
    for (collection, pair), rows in judgments[judgments["collection"].isin(packages)].groupby(
            ["collection", "pair"], sort=False):
        coded = ws.code_pair(rows)
        seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
        raw, coverage = ws.reconstruct_raw(coded, seg)
        out[collection, pair] = (coded, raw, coverage)
    order = {c: k for k, c in enumerate(packages)}
    return dict(sorted(out.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])))


def pair_info(judgments: pd.DataFrame) -> pd.DataFrame:
    return judgments[["collection", "year", "pair", "style"]].drop_duplicates().set_index(["collection", "pair"])


def human_pairs(coded: dict) -> list:
    """(collection, pair) keys of the pairs that rank a HUMAN system."""
    return [k for k, (pj, _, _) in coded.items() if pj.human.any()]


def trajectory_panels(moved: pd.Series, info: pd.DataFrame, n_sr_plus: int = 2) -> list:
    """The ``n_sr_plus`` SR+DC pairs whose ranks move most under division, then the SR-DC pair that moves most."""
    style = [info.loc[k, "style"] for k in moved.index]
    plus = [k for k, s in zip(moved.index, style) if s == "SR+DC"][:n_sr_plus]
    minus = [k for k, s in zip(moved.index, style) if s == "SR-DC"][:1]
    return plus + minus


def fig4_pairs(coded: dict) -> list:
    """Fig. 4's pairs: the SR+DC pair with a HUMAN system and the most HITs, and the 2018 pair with the most HITs."""
    def hits(key):
        return int(coded[key][0].hit.max()) + 1

    plus = [k for k in coded if k[0] in ("newstest2021-toen", "newstest2022-toen") and coded[k][0].human.any()]
    minus = [k for k in coded if k[0] == "newstest2018" and hits(k) > 0]
    return [max(group, key=hits) for group in (plus, minus) if group]


def fig5_pair(coded: dict) -> tuple[str, str]:
    """Fig. 5's pair: the SR+DC pair with a HUMAN system whose raw scores are all known and with the most systems."""
    complete = [k for k, (pj, raw, _) in coded.items() if k[0] in ("newstest2021-toen", "newstest2022-toen")
                and pj.human.any() and not np.isnan(raw[pj.scored]).any()]
    return max(complete, key=lambda k: len(coded[k][0].systems))


#: the pairs of the paper's own Figs. 2-5 (its text), none of them reachable here
PAPER_PAIRS = {"fig2": "en-de 2020", "fig3": "zh-en 2020", "fig4": "en-lt 2019", "fig5": "en-lt 2019"}


def pair_label(collection: str, pair: str) -> str:
    """A pair in words, for captions: ``de-en, 2021 to-English (SR+DC)``."""
    return f"{pair}, {PACKAGES[collection][0] if collection in PACKAGES else collection}"


def trajectory_figures(shown, info: pd.DataFrame) -> list[tuple]:
    """The figures of Sec. 5.3: ((collection, pair), figure name, role) for each pair of ``shown``
    (:func:`trajectory_panels`): the SR+DC pairs in the roles of the paper's Figs. 2 and 3, then the SR-DC
    contrast (role ``contrast``), which the paper does not draw."""
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


def fig4_figures(summary: pd.DataFrame) -> list[tuple[tuple[str, str], str]]:
    """Fig. 4's pairs (``summary``: :func:`~.claim_values.fig4_summary`) with their figure names: the SR+DC pair
    takes the paper's name, the SR-DC contrast its own."""
    return [((c, p), "wmt_fig4_cooccurrence" if style == "SR+DC" else "wmt_fig4_cooccurrence_sr_dc")
            for c, p, style in zip(summary["collection"], summary["pair"], summary["style"])]
