"""Fig. 5 (Peyrard et al. 2021, §5): the paper's tool's pairwise view of one setup, BT's probability that each
system beats each other, marked where the sign test separates the pair."""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ... import aggregate
from ...comparisons import DEFAULT_TIES, comparison_counts
from ...pairwise import sign_test_pvalues


def pick_setup(setups, wanted) -> tuple[tuple[str, str, str], pd.DataFrame]:
    """The setup ``wanted`` = (collection, dataset, metric) if present, else the first WMT setup, else the first."""
    available = dict(setups)
    wmt = [k for k in available if k[0].startswith("WMT")]
    key = tuple(wanted) if tuple(wanted) in available else (wmt + sorted(available))[0]
    return key, available[key]


def bt_probability_matrix(matrix: pd.DataFrame, alpha: float,
                          ties: str = DEFAULT_TIES) -> tuple[pd.DataFrame, pd.DataFrame]:
    """P(row beats column) as BT fitted with ``ties`` models it, lambda_row / (lambda_row + lambda_column), systems
    sorted by strength, diagonal empty; and "*" where the sign test (ties dropped) rejects P = 1/2 at ``alpha``."""
    strength = aggregate.bradley_terry(matrix, ties=ties)
    order = strength.sort_values(ascending=False).index
    prob = pd.DataFrame({b: strength[order] / (strength[order] + strength[b]) for b in order}, index=order)
    x = matrix[order].to_numpy(dtype=float)
    strict = comparison_counts(x)[0]  # the diagonal's p-value is 1: never marked
    marks = pd.DataFrame(np.where(sign_test_pvalues(strict, strict.T) < alpha, "*", ""), index=order, columns=order)
    return prob.mask(np.eye(len(order), dtype=bool)), marks


def short_system_names(names) -> dict[str, str]:
    """System names without WMT's trailing submission numbers (``uedin.6749`` -> ``uedin``), for axis labels; a
    name is kept whole when shortening would make two alike."""
    short = {name: re.sub(r"\.\d+$", "", str(name)) for name in names}
    counts = pd.Series(list(short.values())).value_counts()
    return {name: s if counts[s] == 1 else str(name) for name, s in short.items()}


def plot_fig5(prob: pd.DataFrame, marks: pd.DataFrame) -> plt.Figure:
    """:func:`bt_probability_matrix` as a heat map, upper triangle only (the lower one is 1 minus it)."""
    n = len(prob)
    names = short_system_names(prob.index)
    cell = min(0.6, 6.2 / n)
    fig, ax = plt.subplots(figsize=(cell * n + 2.4, cell * n + 1.6))
    annot = prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}") + marks
    font = 8.5 if n > 10 else 10
    # the last row and the first column would hold nothing above the diagonal
    shown, annot = prob.rename(index=names, columns=names).iloc[:-1, 1:], annot.iloc[:-1, 1:]
    below = np.tril(np.ones((n - 1, n - 1), dtype=bool), k=-1)
    # ordered by strength, so every drawn probability is at least 1/2
    sns.heatmap(shown, annot=annot, fmt="", cmap="Reds", vmin=0.5, vmax=1, ax=ax, annot_kws={"fontsize": font},
                square=True, mask=below,
                cbar_kws={"label": "BT's P(row beats column)", "shrink": 0.6, "pad": 0.02})
    ax.tick_params(labelsize=9)
    ax.tick_params(axis="y", rotation=0)
    ax.set_xlabel("column system")
    ax.set_ylabel("row system")
    ax.grid(False)
    return fig
