"""Chapter ``00_why_pairing_matters``: the paired paper's small, exact illustrations (Peyrard et al. 2021, §1-3,
Fig. 1, Table 2 / Appendix A.1, Fig. 2, Prop. 1 / Appendix B, Appendix F). By job:

* :mod:`.experiments`: the computations per paper item (scores, pairings, random setups, the three-system example)
* :mod:`.figures`: Figs. 1 and 2
* :mod:`.text`: the tables as the page shows them and the values the claims registry reads (the page's sentences
  are in the notebook's markdown)
"""

from __future__ import annotations

from ..common import SEED, Param
from .experiments import (
    PROP1_KINDS,
    appendix_f_table,
    fig1_aggregates,
    fig1_checks,
    fig1_scores,
    fig2_pairings,
    fig2_summary,
    fixed_marginal_pairings,
    pairings_examples,
    pairings_summary,
    prop1_random_setup,
    prop1_setups,
    prop1_summary,
    table2_strengths,
)
from .figures import FIG1_AGGREGATES, plot_fig1, plot_fig2
from .text import (
    PROP1_DECISIONS,
    TIE_POLICIES,
    appendix_f_display,
    claim_values,
    fig1_statements_table,
    pairings_summary_view,
    prop1_non_implications,
    ranking,
)

CHAPTER = "00_why_pairing_matters"
PARAMETERS = {
    "seed": SEED,
    "n_per_type": Param("int", low=2, quick=100),
    "n_fig2": Param("int", low=2, quick=400),
    "n_prop1_setups": Param("int", low=1, quick=200),
}

__all__ = [
    "CHAPTER", "PARAMETERS",
    # experiments
    "PROP1_KINDS", "appendix_f_table", "fig1_aggregates", "fig1_checks", "fig1_scores", "fig2_pairings",
    "fig2_summary", "fixed_marginal_pairings", "pairings_examples", "pairings_summary", "prop1_random_setup",
    "prop1_setups", "prop1_summary", "table2_strengths",
    # figures
    "FIG1_AGGREGATES", "plot_fig1", "plot_fig2",
    # tables as the page shows them, and claim values
    "PROP1_DECISIONS", "TIE_POLICIES", "appendix_f_display", "claim_values", "fig1_statements_table",
    "pairings_summary_view", "prop1_non_implications", "ranking",
]
