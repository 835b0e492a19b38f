"""Chapter ``05_global_vs_pairwise``: the values the claims registry (``data/published/claims/gvp.toml``) reads
where no other saved table holds them machine-readably — Levtsov & Ustalov (2025), every section.

* each ``*_values`` function returns a ``{key: number, boolean or (number, boolean)}`` dict for one paper item,
  which the notebook hands to :meth:`~analysis.plotting.Outputs.values` (the chapter's ``claim_values.csv``);
* :func:`table1` is Table 1 (§4) for the data at hand.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from ...data import published
from .ceval import copy_displacement


def correlation_values(matrix: pd.DataFrame, item: str) -> dict:
    """The upper triangle of a correlation table (Tables 2, 3, 7) as ``{"<item> <a>-<b>": value}``, in column
    order."""
    cols = list(matrix.columns)
    return {f"{item} {a}-{b}": float(matrix.loc[a, b]) for i, a in enumerate(cols) for b in cols[i + 1:]}


def _rank(values: pd.Series, model: str) -> int:
    """1-based rank of ``model`` by ``values``, highest first (ties share the best place)."""
    return int(values.rank(ascending=False, method="min")[model])


# -- Table 1 ----------------------------------------------------------------------------------------------------------


def table1(datasets: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Table 1 for the data at hand: per dataset (name -> instances x models frame) the examples, the methods and
    the pairs of outputs compared (examples times m choose 2)."""
    rows = [{"dataset": name, "examples": len(q), "methods": q.shape[1], "pairs": len(q) * math.comb(q.shape[1], 2)}
            for name, q in datasets.items()]
    return pd.DataFrame(rows)


# -- values per paper item --------------------------------------------------------------------------------------------


def fig1_values(sweep: pd.DataFrame, level: float = 0.8) -> dict:
    """Fig. 1: the largest tie probability whose mean correlation is still at least ``level`` (NaN if none)."""
    above = sweep[sweep["spearman_mean"] >= level]["tie_probability"]
    return {"fig1 tie probability at 0.8": float(above.max()) if len(above) else np.nan}


def llmfao_values(sweep: pd.DataFrame, level: float = 0.8) -> dict:
    """Fig. 1's question on llmfao (beyond the paper): the largest share of ties (the data's own included) whose
    mean correlation with the ranking from all judgments is still at least ``level`` (NaN if none)."""
    above = sweep[sweep["spearman_mean"] >= level]["tie_share"]
    return {"llmfao tie share at 0.8": float(above.max()) if len(above) else np.nan}


def at_marker(curve: pd.DataFrame, marker: int) -> pd.Series:
    """The row of a Fig. 2 curve on the grid point nearest 12·m·ln m."""
    return curve.iloc[(curve["comparisons"] - marker).abs().argmin()]


def stability_values(curves: dict, names) -> dict:
    """Fig. 2: per panel (``names``, in the order of ``curves``) the mean number of misplaced models at 12·m·ln m and
    the share of sampled sets whose ranking differs from the reference at all (at most one half: the typical
    sampled set gives the reference ranking)."""
    values = {}
    for name, (curve, marker) in zip(names, curves.values(), strict=True):
        row = at_marker(curve, marker)
        values[f"fig2 {name} misplaced at marker"] = float(row["changes_mean"])
        values[f"fig2 {name} changed share at marker"] = float(row["changed_share"])
    return values


def tie_cost_values(curves: dict) -> dict:
    """§7: the mean number of misplaced models at 12·m·ln m for each curve (no added ties first), and whether it
    rises with every step up in the tie probability."""
    at = [float(at_marker(curve, marker)["changes_mean"]) for curve, marker in curves.values()]
    values = {f"ties {title} misplaced at marker": v for title, v in zip(curves, at)}
    values["ties misplaced at marker rises with ties"] = (float(np.min(np.diff(at))), bool(np.all(np.diff(at) > 0)))
    return values


def detection_values(curve: pd.DataFrame, n_repeats: int | None = None) -> dict:
    """Fig. 3: per number of matches, whether the share of correct orders rises with the difference (Spearman > 0)
    and the mean over the grid of (global - pairwise) shares, positive when the mean of the decision values finds
    the better model more often than the count of wins."""
    values = {}
    for n, part in curve.groupby("matches"):
        rho = float(spearmanr(part["difference"], part["pairwise"]).statistic)
        values[f"fig3 rises with difference {n}"] = (rho, rho > 0)
        values[f"fig3 global minus pairwise {n}"] = float((part["global"] - part["pairwise"]).mean())
        if n_repeats:
            share = float(part.loc[(part["difference"] - 0.1).abs().idxmin(), "pairwise"])
            values[f"fig3 pairwise at 10% lower end {n}"] = share - 2 * math.sqrt(share * (1 - share) / n_repeats)
    return values


def random_binary_values(table: pd.DataFrame) -> dict:
    """§5's three random binary models over the repetitions: mean accuracy, ROC AUC and F1, the share of
    repetitions where the three global scores order the models alike, and the mean Spearman correlation of BT on
    one sample of 12·m·ln m matches per pair with accuracy."""
    return {"random mean accuracy": float(table["accuracy_mean"].mean()),
            "random mean auc": float(table["auc_mean"].mean()), "random mean f1": float(table["f1_mean"].mean()),
            "random global scores agree": float(table["global_agree"].mean()),
            "random sampled bt spearman": float(table["spearman_sampled"].mean())}


def binary_values(a1: pd.DataFrame, table2: pd.DataFrame, a2: pd.DataFrame, a3: pd.DataFrame,
                  ties_binary: float, zero_one: str = "Decision Tree") -> dict:
    """The binary stand-in (Appendix A, Table 2, §5): the 0/1 model's place by accuracy (from the bottom) and by
    BT; whether BT follows sharpness more closely than accuracy; whether the global measures agree more with each
    other than any of them with BT; whether every binarised copy keeps its original's F1; whether binarising keeps
    the order of the models under each global score (accuracy, ROC AUC, F1: the binarised copies ordered as their
    originals, Spearman 1; §5's "did not change any of the rankings built using global scores"); whether penalising leaves
    the 0/1 model unchanged; and the share of ties on binarised decision values."""
    sharp = a1[["acc", "bt", "sharpness"]].corr(method="spearman")
    glob = ["acc", "auc", "f1"]
    among = min(table2.loc[a, b] for i, a in enumerate(glob) for b in glob[i + 1:])
    apart = among - table2.loc["bt", glob].abs().max()
    lead = abs(sharp.loc["bt", "sharpness"]) - abs(sharp.loc["bt", "acc"])
    copies = [f"Binarized {m}" for m in a1.index]
    f1_gap = np.abs(a2.loc[copies, "f1"].to_numpy() - a2.loc[list(a1.index), "f1"].to_numpy()).max()
    measures = ["acc", "auc", "f1", "mae"]
    tree_gap = np.abs(a3.loc[f"Penalized {zero_one}", measures].to_numpy(dtype=float)
                      - a3.loc[zero_one, measures].to_numpy(dtype=float)).max()
    kept = {m: float(spearmanr(a2.loc[list(a1.index), m].to_numpy(dtype=float),
                               a2.loc[copies, m].to_numpy(dtype=float)).statistic) for m in glob}
    return {"a1 zero-one accuracy place from bottom": int(a1["acc"].rank(method="min")[zero_one]),
            "a1 zero-one bt place": _rank(a1["bt"], zero_one),
            "bt follows sharpness over accuracy": (float(lead), bool(lead > 0)),
            "table2 global agree and bt apart": (float(apart), bool(apart > 0)),
            "a2 binarised copies keep f1": (float(f1_gap), bool(f1_gap <= 1e-8)),
            **{f"binarised keeps the {m} order": (rho, bool(rho > 1 - 1e-12)) for m, rho in kept.items()},
            "a3 penalised zero-one unchanged": (float(tree_gap), bool(tree_gap <= 1e-8)),
            "binary ties after binarising": float(ties_binary)}


def sst5_values(b1: pd.DataFrame, b2: pd.DataFrame, ties_binary: float, binarised_stability=None,
                rounded: tuple | None = None) -> dict:
    """SST-5 (Appendix B, §5): the SVM's BT place among the models trained here, raw (B.1) and binarised (B.2), the
    share of ties on binarised decision values and, with ``binarised_stability`` (a Fig. 2 curve on binarised SST-5
    at 12·m·ln m comparisons per pair), the share of sampled sets whose BT ranking differs from the reference. With
    ``rounded``, (B.2, tie share, stability) of the other reading of the binarisation (each decision value rounded
    on its own), the same three values under "sst5 rounded" keys."""
    values = {"b1 svm bt place": _rank(b1["bt"].dropna(), "SVM"), "b2 svm bt place": _rank(b2["bt"].dropna(), "SVM"),
              "sst5 ties after binarising": float(ties_binary)}
    if binarised_stability is not None:
        values["sst5 binarised changed share at marker"] = float(binarised_stability["changed_share"].iloc[0])
    if rounded is not None:
        b2_rounded, ties_rounded, stability_rounded = rounded
        values |= {"b2 rounded svm bt place": _rank(b2_rounded["bt"].dropna(), "SVM"),
                   "sst5 rounded ties after binarising": float(ties_rounded),
                   "sst5 rounded changed share at marker": float(stability_rounded["changed_share"].iloc[0])}
    return values


def ceval_values(scores: pd.DataFrame, scores_c2: pd.DataFrame) -> dict:
    """CEval (Appendix C, §6): whether each model's BT in the paper's C.1 lies in our 95% interval, and the mean
    places between an original and its penalised copy under each measure, and whether BT keeps the copies nearer
    their originals than ED and WER do."""
    paper = published.frame("gvp", "appendix_c1").set_index("model")["bt"]
    ours = scores.set_index("model")
    values = {f"c1 paper bt inside ours {m}": (float(ours.loc[m, "bt"]),
                                               bool(ours.loc[m, "bt_low"] <= paper[m] <= ours.loc[m, "bt_high"]))
              for m in paper.index}
    moved = copy_displacement(scores_c2)
    values.update({f"c2 copy displacement {k}": float(v) for k, v in moved.items()})
    nearer = min(moved["ed"], moved["wer"]) - moved["bt"]
    values["c2 bt keeps copies nearer than ed and wer"] = (float(nearer), bool(nearer > 0))
    return values
