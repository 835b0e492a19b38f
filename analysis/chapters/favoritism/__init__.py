"""Chapter ``04_favoritism``: the Favi-Score paper (von Däniken et al. 2024) on the reachable data — the worked
examples (Figs. 2-3, Lemmas 1-2), Table 1, the win graphs of Fig. 1 and Figs. 8-13, Figs. 4-6, §2's margin example,
Appendix D's case studies and Appendix C.2.1's order symmetry, plus how much of each Φ is noise.

Split by job:

* :mod:`.experiments`: the datasets and settings, every pair's Φ with interval and test (:func:`per_pair`), Lemmas
  1-2, Table 1 for the data at hand, Fig. 4's per-metric summary, the win-graph agreement and the numbers of the
  case figures' captions, ChatGPT's head-to-head judgments, and whether Φ is favoritism or attenuation
* :mod:`.published`: the paper's printed values and the side-by-side tables (Figs. 2-3, Table 1, Fig. 5's
  correlations, §2, Appendix D, App. C.2.1)
* :mod:`.figures`: Figs. 4-6, the case figures (Fig. 1, Figs. 8-13) and the noise figure
* :mod:`.wingraphs`: the win graphs placed and drawn for the page (layers, boxes, arrows ending at their borders)
* :mod:`.tables`: the tables as a reader sees them (readable headers, fewer columns, words instead of codes), among
  them the systems each metric favours most
* :mod:`.checks`: the tidy tables the claims registry reads (tie shares, per-system Φ, win-graph rows, the domain
  comparison of Fig. 4, claim values and boolean checks)
* :mod:`.ties`: ties made visible (tie shares beside Fig. 4 and App. D, the two readings of sample-level accuracy,
  the metric ties that are identical outputs)
* :mod:`.uncertainty`: the document-level bootstrap, the Benjamini-Hochberg correction of the sign-flip tests and
  the split-half attenuation reading

The page's sentences and the figures' captions are the notebook's markdown and literals, with the numbers glued in.
"""

from __future__ import annotations

from ..common import SEED, Param
from .checks import (
    claim_checks,
    claim_values,
    definition_checks,
    definition_values,
    domain_comparison,
    first_position,
    implied_human_tie_share,
    no_favoritism_rho,
    per_system,
    system_accuracy_pairs,
    tie_shares,
    top_accuracy_favi,
    win_graph_layers,
)
from .experiments import (
    ATTENUATION_ALPHA,
    DATASETS,
    EXCLUDED_SYSTEMS,
    KEYS,
    PER_PAIR_COLUMNS,
    SUMMEVAL_ASPECTS,
    attenuation_table,
    case_numbers,
    dataset_label,
    fig4_scope,
    graph_summary,
    h2h_favi,
    h2h_ratings,
    lemma_checks,
    metric_summary,
    per_pair,
    score_matrices,
    setting_table,
    settings,
    symmetry_confusion,
    table1,
    table1_counts,
)
from .figures import (
    COLORS,
    aspect_label,
    fig4_columns,
    plot_case,
    plot_fig4,
    plot_fig4_ties,
    plot_fig5,
    plot_fig6,
    plot_noise,
    plot_one_vs_all,
    rater_label,
    setting_name,
)
from .published import (
    APPENDIX_D_MATCH,
    appendix_d,
    fig5_correlations,
    margin_example,
    published_table1,
    symmetry_table,
    worked_examples,
)
from .tables import (
    TIE_PAGE_DATASETS,
    appendix_d_page,
    appendix_d_ties_page,
    attenuation_page,
    correlations_page,
    domains_page,
    examples_page,
    favourites_page,
    fig4_ties_page,
    graphs_page,
    h2h_page,
    human_ratings_label,
    lemmas_page,
    margins_page,
    published_table1_page,
    symmetry_page,
    systems_page,
    table1_beside_paper,
    table1_page,
)
from .ties import (
    TIE_COLUMNS,
    between_readings,
    identical_output_ties,
    identical_page,
    with_ties,
)
from .uncertainty import (
    bootstrap_page,
    bootstrap_summary,
    document_bootstrap,
    multiple_testing,
    multiple_testing_page,
    split_half_attenuation,
    split_half_page,
)
from .wingraphs import (
    GraphLayout,
    arrow_points,
    box_exit,
    crossings,
    draw_win_graph,
    layout_win_graph,
    node_label,
    smooth_path,
    spread,
)

CHAPTER = "04_favoritism"
PARAMETERS = {
    "seed": SEED,
    "datasets": Param("str", many=True, choices=tuple(DATASETS)),
    "n_resamples": Param("int", low=1, quick=50),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "sign_test_ties": Param("str", choices=("drop", "half")),
    "summeval_aspect": Param("str", choices=SUMMEVAL_ASPECTS),
    "n_splits": Param("int", low=1, quick=5),
}

__all__ = [
    "APPENDIX_D_MATCH", "ATTENUATION_ALPHA", "CHAPTER", "COLORS", "DATASETS", "EXCLUDED_SYSTEMS", "GraphLayout", "KEYS",
    "PARAMETERS", "PER_PAIR_COLUMNS", "SUMMEVAL_ASPECTS", "TIE_COLUMNS", "TIE_PAGE_DATASETS", "appendix_d",
    "appendix_d_page", "appendix_d_ties_page", "arrow_points", "aspect_label", "attenuation_page", "attenuation_table",
    "between_readings", "bootstrap_page", "bootstrap_summary", "box_exit", "case_numbers", "claim_checks",
    "definition_checks", "definition_values",
    "claim_values", "correlations_page", "crossings", "dataset_label", "document_bootstrap", "domain_comparison",
    "domains_page", "draw_win_graph", "examples_page", "favourites_page", "fig4_columns", "fig4_scope",
    "fig4_ties_page", "fig5_correlations", "first_position", "graph_summary", "graphs_page", "h2h_favi", "h2h_page",
    "h2h_ratings", "human_ratings_label", "identical_output_ties", "identical_page", "implied_human_tie_share",
    "layout_win_graph", "lemma_checks", "lemmas_page", "margin_example", "margins_page", "metric_summary",
    "multiple_testing", "multiple_testing_page", "no_favoritism_rho", "node_label", "per_pair", "per_system",
    "plot_case", "plot_fig4", "plot_fig4_ties", "plot_fig5", "plot_fig6", "plot_noise", "plot_one_vs_all",
    "published_table1", "published_table1_page", "rater_label", "score_matrices", "setting_name", "setting_table",
    "settings", "smooth_path", "split_half_attenuation", "split_half_page", "spread", "symmetry_confusion",
    "symmetry_page", "symmetry_table", "system_accuracy_pairs", "systems_page", "table1", "table1_counts", "table1_beside_paper", "table1_page", "tie_shares",
    "top_accuracy_favi",
    "win_graph_layers", "with_ties", "worked_examples",
]
