"""Sec. 5.4, Fig. 4: which systems share a HIT."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws


def fig4_pairs(coded: dict) -> list:
    """Fig. 4's pairs: the SR+DC pair with a HUMAN system and the most HITs, and the 2018 pair with the most HITs."""
    def hits(key):
        return int(coded[key][0].hit.max()) + 1

    plus = [k for k in coded if k[0] in ("newstest2021-toen", "newstest2022-toen") and coded[k][0].human.any()]
    minus = [k for k in coded if k[0] == "newstest2018" and hits(k) > 0]
    return [max(group, key=hits) for group in (plus, minus) if group]


def cooccurrence_share(pj: ws.PairJudgments, unit: str) -> pd.DataFrame:
    """Of the HITs (or workers) holding the row system, the share also holding the column one."""
    counts = ws.cooccurrence(pj, unit)
    return counts / np.diag(counts)[:, None]


def fig4_summary(coded: dict, keys, info: pd.DataFrame) -> pd.DataFrame:
    """``wmt_fig4_summary.csv``: per pair, the share of a system's HITs that hold another system (over ordered pairs
    of systems) and the share of HITs that hold every system."""
    rows = []
    for key in keys:
        pj = coded[key][0]
        share = cooccurrence_share(pj, "hit").to_numpy()
        off = share[~np.eye(len(share), dtype=bool)]
        used = pj.scored & (pj.hit >= 0)
        held = (pd.crosstab(pj.hit[used], pj.system[used]) > 0).to_numpy()  # HIT x system: holds it
        rows.append({"collection": key[0], "pair": key[1], "style": info.loc[key, "style"],
                     "systems": held.shape[1], "hits": held.shape[0], "mean_share": float(off.mean()),
                     "min_share": float(off.min()), "max_share": float(off.max()),
                     "hits_with_every_system": float(held.all(axis=1).mean())})
    return pd.DataFrame(rows)


def plot_cooccurrence(share: pd.DataFrame):
    """Fig. 4 for one pair: :func:`cooccurrence_share` in percent; no colour bar, as every cell prints its value."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    n = len(share)
    fig, ax = plt.subplots(figsize=(1.2 + 0.4 * n, 1.6 + 0.4 * n))
    sns.heatmap(share * 100, ax=ax, vmin=0, vmax=100, cmap="viridis", annot=True, fmt=".0f",
                annot_kws={"fontsize": 9}, cbar=False, square=True)
    ax.set_xlabel("")
    ax.set_ylabel("")
    ax.tick_params(labelsize=9)
    ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    fig.tight_layout()
    return fig
