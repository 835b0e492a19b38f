"""Chapter ``02_real_setups``: the paired paper's analyses of real evaluation setups (Peyrard et al. 2021, §5,
Tables 1, 3, 4, Figs. 4-6, Appendices C, D, F, H).

A *setup* is one (collection, dataset, metric) score matrix of the ``paired_setups`` table. This package turns the
table into per-setup disagreement rows (Tables 1, 3, 4; Fig. 4), significance-test agreement (Fig. 6 / App. D) and
the independence-of-irrelevant-alternatives search (App. F), and draws their figures. By job:

* :mod:`.setups`: the setups as score matrices, drawn test sets, the inventory; the shared names (mechanisms, pairs,
  measures, tasks)
* :mod:`.experiments`: the computations per paper item (Tables 1, 3, 4; App. H; Figs. 4-6; App. D, F)
* :mod:`.published`: the paper's published values (App. A.3, Tables 3 and 4, Fig. 6) and ours beside them
* :mod:`.figures`: Table 3's heat maps and scatter, Figs. 4, 5 and 6
* :mod:`.page_values`: the numbers the page's prose pastes (through glue), computed from the tables
* :mod:`.claim_values`: the tidy values the claims registry (``data/published/claims/paired.toml``) reads
"""

from __future__ import annotations

from ...agreement import mechanism_pairs, pair_label, pair_name
from ...pairwise import PAIRED_TESTS
from ..common import SEED, Param
from .claim_values import (
    appa3_values,
    fig4_values,
    fig6_cells,
    fig6_values,
    iia_values,
    interval_values,
    section5_values,
    table3_exchanged_values,
    table3_values,
    table_values,
)
from .experiments import (
    BT_EVAL_TESTS,
    aggregators,
    bt_eval_sign_test,
    bt_probability_matrix,
    disagreement_rows,
    fig4_summaries,
    fraction_subsamples,
    iia_by_collection,
    iia_by_size,
    iia_by_size_view,
    iia_full_reversals,
    iia_search,
    iia_worked_triple,
    metric_ranks,
    paper_significance_draws,
    paper_size_draws,
    per_setup_draw_means,
    pooled_pairs_profile,
    reversal_winner_shares,
    significance_agreement,
    subsampled_disagreement,
    summarise,
    tie_break_counts,
    tie_break_sensitivity,
)
from .figures import (
    PAIR_COLORS,
    TABLE3_SHORT,
    TASK_SHORT,
    metric_label,
    plot_fig4,
    plot_fig5,
    plot_fig6,
    plot_table3,
    plot_table3_scatter,
    plot_table4,
    short_system_names,
)
from .page_values import (
    degenerate_setups,
    fig6_numbers,
    grain_numbers,
    iia_full_numbers,
    iia_numbers,
    metric_numbers,
    table1_hits,
    table1_numbers,
    table3_exchanged_numbers,
    table3_far_cells,
    table3_numbers,
    table3_swaps_view,
)
from .published import (
    TABLE3_DATASETS,
    TABLE3_EXACT,
    TABLE3_FRACTION,
    TABLE3_GROUPS,
    TABLE3_PAPER_DRAWS,
    paper_inventory,
    published_fig6,
    published_table3,
    published_table4,
    side_by_side,
    side_by_side_long,
    table3_agreement,
    table3_dataset,
    table3_grain,
    table3_side_by_side,
    table3_swaps,
)
from .setups import (
    KEYS,
    MEASURES,
    MECHANISMS,
    PAPER,
    TABLE1_PAIRS,
    TABLE3_PAIRS,
    TASKS,
    TIE_LABELS,
    dataset_inventory,
    inventory,
    iter_setups,
    n_system_pairs,
    pick_setup,
    section5_totals,
    subsample,
)

CHAPTER = "02_real_setups"
PARAMETERS = {
    "seed": SEED,
    "collections": Param("str", many=True, optional=True, quick=["Dialogue"]),
    "n_resamples": Param("int", low=1, quick=200),
    "subsample_sizes": Param("int", low=2, many=True, quick=[10, 50]),
    "n_subsamples": Param("int", low=1, quick=1),
    "sig_max_pairs": Param("int", low=1, optional=True, quick=5),
    "table3_fraction": Param("number", low=0, high=1, low_open=True),
    "table3_draws": Param("int", low=1, quick=2),
    "fig4_paper_draws": Param("int", low=1, quick=3),
    "sig_paper_draws": Param("int", low=1, quick=20),
    "sig_paper_pairs": Param("int", low=1, quick=40),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "iia_sizes": Param("int", low=3, many=True, quick=[5, 10]),
    "fig5_setup": Param("str", many=True, length=3, quick=["Dialogue", "tc", "BLEU"]),
}

__all__ = [
    # the chapter
    "CHAPTER", "PARAMETERS",
    # setups
    "KEYS", "MEASURES", "MECHANISMS", "PAPER", "TABLE1_PAIRS", "TABLE3_PAIRS", "TASKS", "TIE_LABELS",
    "dataset_inventory",
    "inventory", "iter_setups", "n_system_pairs", "pick_setup", "section5_totals", "subsample",
    # experiments
    "BT_EVAL_TESTS", "aggregators", "bt_eval_sign_test", "bt_probability_matrix", "disagreement_rows",
    "fig4_summaries", "fraction_subsamples", "iia_by_collection", "iia_by_size", "iia_by_size_view", "iia_full_reversals", "iia_search",
    "iia_worked_triple", "metric_ranks",
    "paper_significance_draws", "paper_size_draws", "per_setup_draw_means", "pooled_pairs_profile",
    "reversal_winner_shares",
    "significance_agreement", "subsampled_disagreement", "summarise", "tie_break_counts", "tie_break_sensitivity",
    # published values and side by side
    "TABLE3_DATASETS", "TABLE3_EXACT", "TABLE3_FRACTION", "TABLE3_GROUPS", "TABLE3_PAPER_DRAWS", "paper_inventory",
    "published_fig6", "published_table3", "published_table4", "side_by_side", "side_by_side_long", "table3_agreement", "table3_dataset",
    "table3_grain", "table3_side_by_side", "table3_swaps",
    # figures
    "PAIR_COLORS", "TABLE3_SHORT", "TASK_SHORT", "metric_label", "plot_fig4", "plot_fig5", "plot_fig6", "plot_table3",
    "plot_table3_scatter", "plot_table4", "short_system_names",
    # the numbers the page's prose pastes
    "degenerate_setups", "fig6_numbers", "grain_numbers", "iia_full_numbers", "iia_numbers", "metric_numbers", "table1_hits", "table1_numbers", "table3_far_cells",
    "table3_exchanged_numbers", "table3_numbers", "table3_swaps_view",
    # claim values
    "appa3_values", "fig4_values", "fig6_cells", "fig6_values", "iia_values", "interval_values", "section5_values",
    "table3_exchanged_values", "table3_values", "table_values",
    # from the methods and the shared chapter module, as the notebook and tests use them through this package
    "PAIRED_TESTS", "mechanism_pairs", "pair_label", "pair_name",
]
