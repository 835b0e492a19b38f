"""Sec. 6, Fig. 5: easy and hard documents, and beyond the paper an additive fit of the judged (document, system)
cells: do the documents a system happened to get shift its mean by more than the gaps between systems?"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt
from ... import wmt_stability as ws
from .packages import check_rows


def fig5_pair(coded: dict) -> tuple[str, str]:
    """Fig. 5's pair: the SR+DC pair with a HUMAN system whose raw scores are all known and with the most systems."""
    complete = [k for k, (pj, raw, _) in coded.items() if k[0] in ("newstest2021-toen", "newstest2022-toen")
                and pj.human.any() and not np.isnan(raw[pj.scored]).any()]
    return max(complete, key=lambda k: len(coded[k][0].systems))


def document_matrix(judgments: pd.DataFrame, raw: np.ndarray) -> pd.DataFrame:
    """Mean raw score per test document (rows) and system, each sorted best first; NaN = not judged."""
    rows = judgments.assign(raw=raw, test_document=ws.recover_documents(judgments).to_numpy())
    rows = rows[rows["item_type"].isin(wmt.SCORED_TYPES)]
    matrix = rows.groupby(["test_document", "system"])["raw"].mean().unstack()
    matrix = matrix.loc[matrix.mean(axis=1).sort_values(ascending=False).index]
    return matrix[matrix.mean(axis=0).sort_values(ascending=False).index]


def omega_squared(values: pd.Series, level: str) -> float:
    """One-way ω² (Hays) of the index ``level`` of ``values``: the share of variance a factor explains, corrected for
    its number of levels (by chance alone a factor with many levels explains some)."""
    g = values.groupby(level=level)
    grand, n, k = values.mean(), len(values), g.ngroups
    between = (g.size() * (g.mean() - grand) ** 2).sum()
    within = ((values - g.transform("mean")) ** 2).sum()
    mean_within = within / (n - k)
    return float((between - (k - 1) * mean_within) / (between + within + mean_within))


def fig5_variance(raw_matrix: pd.DataFrame, z_matrix: pd.DataFrame) -> pd.DataFrame:
    """``wmt_fig5_variance.csv``: the cell variance documents and systems explain, raw and z (Sec. 6, fn. 18)."""
    out = pd.DataFrame([{"scores": label, "documents": len(m), "systems": m.shape[1],
                         "cells_judged": float(m.notna().to_numpy().mean()),
                         "documents_omega2": omega_squared(m.stack(), "test_document"),
                         "systems_omega2": omega_squared(m.stack(), "system")}
                        for label, m in (("raw", raw_matrix), ("z", z_matrix))])
    return out.assign(documents_at_least_systems=out["documents_omega2"] >= out["systems_omega2"])


def document_checks(variance: pd.DataFrame, raw_matrix: pd.DataFrame) -> pd.DataFrame:
    """Sec. 6: documents explain at least as much variance as systems, and systems are judged on different ones."""
    judged = {frozenset(raw_matrix.index[raw_matrix[s].notna()]) for s in raw_matrix.columns}
    return pd.concat([
        check_rows("fig5_documents_vs_systems", dict(zip(variance["scores"], variance["documents_at_least_systems"])),
                   variance["documents_omega2"] - variance["systems_omega2"]),
        check_rows("fig5_different_documents", {"systems": len(judged) > 1},
                   [raw_matrix.notna().to_numpy().mean()])], ignore_index=True)


def two_way(matrix: pd.DataFrame, *, iterations: int = 500, tol: float = 1e-12) -> tuple[float, pd.Series, pd.Series]:
    """(mu, document effects, system effects): the least-squares fit of cell = mu + document + system over the
    judged cells, by backfitting; effects centred over the judged cells."""
    values = matrix.to_numpy(float)
    judged = ~np.isnan(values)
    if not judged.any():
        raise ValueError("the matrix has no judged cell")
    doc, sys = np.zeros(values.shape[0]), np.zeros(values.shape[1])
    y = np.where(judged, values, 0.0)
    n_doc, n_sys = judged.sum(axis=1), judged.sum(axis=0)
    mu = y.sum() / judged.sum()
    for _ in range(iterations):
        previous = np.concatenate([doc, sys])
        with np.errstate(invalid="ignore", divide="ignore"):
            sys = np.where(n_sys > 0, ((y - mu - doc[:, None]) * judged).sum(axis=0) / n_sys, 0.0)
            doc = np.where(n_doc > 0, ((y - mu - sys[None, :]) * judged).sum(axis=1) / n_doc, 0.0)
        doc -= (doc[:, None] * judged).sum() / judged.sum()
        mu += ((y - mu - doc[:, None] - sys[None, :]) * judged).sum() / judged.sum()
        if np.abs(np.concatenate([doc, sys]) - previous).max() < tol:
            break
    return float(mu), pd.Series(doc, index=matrix.index), pd.Series(sys, index=matrix.columns)


def document_shifts(matrix: pd.DataFrame) -> pd.DataFrame:
    """Per system, in Fig. 5's order: its mean, its document-adjusted mean (:func:`two_way`) and the shift (the mean
    effect of the documents it got)."""
    mu, doc, sys = two_way(matrix)
    judged = matrix.notna().to_numpy()
    shift = (doc.to_numpy()[:, None] * judged).sum(axis=0) / judged.sum(axis=0)
    out = pd.DataFrame({"system": matrix.columns, "mean": matrix.mean(axis=0).to_numpy(),
                        "adjusted": mu + sys.to_numpy(), "shift": shift, "documents": judged.sum(axis=0)})
    return out.sort_values("mean", ascending=False, kind="stable").reset_index(drop=True)


def document_summary(shifts: pd.DataFrame, matrix: pd.DataFrame) -> pd.DataFrame:
    """One row: how far documents shift system means against the gaps between neighbouring systems, and the system
    pairs the adjustment reorders."""
    _, doc, sys = two_way(matrix)
    by_mean = list(shifts["system"])
    by_adjusted = list(shifts.sort_values("adjusted", ascending=False, kind="stable")["system"])
    sizes = wmt.ranking_effect_sizes(by_mean, np.arange(len(by_mean)), by_adjusted, np.arange(len(by_adjusted)))
    gaps = -np.diff(np.sort(shifts["adjusted"].to_numpy())[::-1])
    return pd.DataFrame([{
        "systems": len(shifts), "documents": len(doc), "sd_document_effects": float(doc.std(ddof=1)),
        "sd_system_effects": float(sys.std(ddof=1)), "median_abs_shift": float(shifts["shift"].abs().median()),
        "max_abs_shift": float(shifts["shift"].abs().max()), "median_neighbour_gap": float(np.median(gaps)),
        "shift_beyond_gap": int((shifts["shift"].abs() > np.median(gaps)).sum()),
        "pairs_reordered": sizes["discordant"], "share_reordered": sizes["tau_distance"]}])


def plot_fig5(matrix: pd.DataFrame):
    """Fig. 5: mean raw score per (test document, system), documents and systems best first; grey = not judged."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, ax = plt.subplots(figsize=(6.2, 5.2))
    ax.set_facecolor("#e6e6e6")  # not judged: light grey, distinct from any score
    ax.grid(False)
    sns.heatmap(matrix, ax=ax, cmap="viridis", vmin=0, vmax=100, yticklabels=False,
                cbar_kws={"label": "mean raw score (grey: not judged)"})
    ax.set_ylabel(f"{len(matrix)} test documents, best first")
    ax.set_xlabel("system, best first (mean over documents)")
    ax.tick_params(axis="x", labelsize=9)
    ax.set_xticklabels(ax.get_xticklabels(), rotation=60, ha="right", rotation_mode="anchor")
    fig.tight_layout()
    return fig
