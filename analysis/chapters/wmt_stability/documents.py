"""Fig. 5 with documents and systems together: an additive two-way model of the (document, system) cell means,
fitted on the judged cells only, and what it says about the paper's question: do the documents a system happened to
be judged on shift its mean by more than the gaps between systems?"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt


def two_way(matrix: pd.DataFrame, *, iterations: int = 500, tol: float = 1e-12) -> tuple[float, pd.Series, pd.Series]:
    """Least-squares fit of cell = mu + document + system over the judged cells of ``matrix`` (documents x systems,
    NaN = not judged), by alternating means (backfitting, which converges to the least-squares fit of an additive
    model); effects centred to mean 0 over the judged cells. Returns (mu, document effects, system effects)."""
    values = matrix.to_numpy(float)
    judged = ~np.isnan(values)
    if not judged.any():
        raise ValueError("the matrix has no judged cell")
    doc = np.zeros(values.shape[0])
    sys = np.zeros(values.shape[1])
    y = np.where(judged, values, 0.0)
    n_doc, n_sys = judged.sum(axis=1), judged.sum(axis=0)
    mu = y.sum() / judged.sum()
    for _ in range(iterations):
        previous = np.concatenate([doc, sys])
        with np.errstate(invalid="ignore", divide="ignore"):
            sys = np.where(n_sys > 0, ((y - mu - doc[:, None]) * judged).sum(axis=0) / n_sys, 0.0)
            doc = np.where(n_doc > 0, ((y - mu - sys[None, :]) * judged).sum(axis=1) / n_doc, 0.0)
        shift = (doc[:, None] * judged).sum() / judged.sum()
        doc -= shift
        mu_shift = ((y - mu - doc[:, None] - sys[None, :]) * judged).sum() / judged.sum()
        mu += mu_shift
        if np.abs(np.concatenate([doc, sys]) - previous).max() < tol:
            break
    return float(mu), pd.Series(doc, index=matrix.index), pd.Series(sys, index=matrix.columns)


def document_shifts(matrix: pd.DataFrame) -> pd.DataFrame:
    """Per system: its mean over its judged cells (what Fig. 5 orders by), the document-adjusted mean (mu + its
    system effect) and the shift, the mean effect of the documents it was judged on (mean = adjusted + shift);
    systems best first by their mean."""
    mu, doc, sys = two_way(matrix)
    judged = matrix.notna().to_numpy()
    shift = (doc.to_numpy()[:, None] * judged).sum(axis=0) / judged.sum(axis=0)
    out = pd.DataFrame({"system": matrix.columns, "mean": matrix.mean(axis=0).to_numpy(),
                        "adjusted": mu + sys.to_numpy(), "shift": shift, "documents": judged.sum(axis=0)})
    return out.sort_values("mean", ascending=False, kind="stable").reset_index(drop=True)


def document_summary(shifts: pd.DataFrame, matrix: pd.DataFrame) -> pd.DataFrame:
    """One row: how far documents shift system means (median and largest |shift|) against the gaps between
    neighbouring systems (median gap of the adjusted means), the spread of document and of system effects, and how
    many system pairs the adjustment reorders (Kendall-tau distance between the two orders)."""
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
