"""Chapter ``03_wmt_stability``: Knowles (2021) on the WMT packages that can be reached — the replication of the
official rankings (Sec. 3, Appendix A), the toy example (Sec. 5), Table 1, HIT composition (Sec. 5.1), Tables 2-3
and Fig. 1 (Sec. 5.2), Figs. 2-5 (Secs. 5.3-6), and beyond the paper a bootstrap over HITs and one of Sec. 8's
remedies.

Modules by job: :mod:`.packages` (the packages shown, each pair's coded judgments, which pairs the figures show),
:mod:`.replication` (Sec. 3 / App. A against the official outputs), :mod:`.experiments` (the perturbation
experiments, the data behind Figs. 2-5, the bootstrap, the per-HIT remedy, the rank-sum variant), :mod:`.published`
(ours next to the paper's values: Sec. 5, Tables 1-3, Fig. 1), :mod:`.claim_values` (the tidy values and checks
that ``data/published/claims/wmt.toml`` reads), :mod:`.figures`, :mod:`.text` (the numbers and names the page's
text pastes; the sentences and captions are the notebook's) and :mod:`.views` (compact tables for the page)."""

from __future__ import annotations

from ... import wmt
from ... import wmt_stability as ws  # the methods module (``ch.ws`` in the notebook), not this package
from ..common import SEED, Param
from . import controls, paper2020
from .claim_values import (
    MEASURES,
    change_shares,
    check_rows,
    document_checks,
    fig4_summary,
    fig5_variance,
    growth_checks,
    human_seen_checks,
    item_type_checks,
    missing_pairs_checks,
    noise_vs_perturbation,
    omega_squared,
    remedy_totals,
    reshuffle_checks,
    share_of,
    trajectory_summary,
)
from .controls import (
    CONTROLS,
    closeness,
    closeness_strata,
    contrast_after_controls,
    null_contrast_share,
    null_controls,
    null_rates,
    null_summary,
    null_view,
)
from .documents import document_shifts, document_summary, two_way
from .experiments import (
    PER_PAIR_COLUMNS,
    bootstrap,
    bootstrap_summary,
    cooccurrence_share,
    document_matrix,
    extremes,
    hits_per_worker,
    lines_per_pair,
    most_affected,
    raw_coverage,
    recovery_check,
    remedy_per_hit,
    remedy_view,
    stability_per_pair,
    stability_summary,
    style_contrast,
    trajectories,
    variant_sensitivity,
)
from .figures import (
    DIVISOR_TICKS,
    HERE,
    STYLE_COLORS,
    plot_cooccurrence,
    plot_fig1,
    plot_fig5,
    plot_ref_shares,
    plot_trajectory,
    setting_label,
)
from .packages import (
    CHANGE_COLUMNS,
    PACKAGES,
    PAPER_PAIRS,
    STYLE_TOTALS,
    coded_pairs,
    fig4_figures,
    fig4_pairs,
    fig5_pair,
    human_pairs,
    pair_info,
    pair_label,
    trajectory_figures,
    trajectory_panels,
)
from .paper2020 import (
    assessments_per_system,
    footnote17_checks,
    original_2020,
    original_2020_view,
    paper_2018_ranges,
)
from .published import fig1_fractions, ref_shares, table1, table2, table3, toy_example
from .replication import (
    REPLICATION_COLUMNS,
    SEGMENTS_ONLY,
    official_ranking,
    official_significance,
    printed_pvalues,
    rank_sum_disagreements,
    replication,
    replication_csv,
    unperturbed_vs_official,
)
from .text import (
    bootstrap_numbers,
    controls_numbers,
    fig4_numbers,
    fig5_numbers,
    human_last,
    names,
    pair_counts,
    pair_name,
    ranges_numbers,
    raw_numbers,
    ref_share_numbers,
    remedy_numbers,
    replication_numbers,
    table3_numbers,
    variant_numbers,
)
from .views import (
    EXPERIMENT_LABELS,
    PACKAGE_SHORT,
    VARIANT_LABELS,
    bootstrap_view,
    by_pair,
    disagreement_view,
    experiment_label,
    moved_view,
    replication_exceptions,
    replication_view,
    table1_view,
    variant_view,
    with_experiment_labels,
)

CHAPTER = "03_wmt_stability"
PARAMETERS = {
    "seed": SEED,
    "variant": Param("str", choices=wmt.RANK_SUM_VARIANTS),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "divisors": Param("number", many=True, low=1, low_open=True),
    "n_bootstrap": Param("int", low=1, quick=2),
    "n_null": Param("int", low=1, quick=3),
    "n_sec7": Param("int", low=1, quick=20),
    "bootstrap_experiments": Param("str", many=True, choices=ws.EXPERIMENTS),
    "packages": Param("str", many=True, choices=tuple(PACKAGES)),
}

__all__ = [
    "CHAPTER", "PARAMETERS", "controls", "paper2020", "ws",
    # documents (Fig. 5, two-way)
    "document_shifts", "document_summary", "two_way",
    # controls
    "CONTROLS", "closeness", "closeness_strata", "contrast_after_controls", "null_contrast_share", "null_controls",
    "null_rates", "null_summary", "null_view",
    # packages
    "CHANGE_COLUMNS", "PACKAGES", "PAPER_PAIRS", "STYLE_TOTALS", "coded_pairs", "fig4_figures", "fig4_pairs",
    "fig5_pair", "human_pairs", "pair_info", "pair_label", "trajectory_figures", "trajectory_panels",
    # replication
    "REPLICATION_COLUMNS", "SEGMENTS_ONLY", "official_ranking", "official_significance", "printed_pvalues", "replication",
    "replication_csv", "rank_sum_disagreements", "unperturbed_vs_official",
    # experiments
    "PER_PAIR_COLUMNS", "bootstrap", "bootstrap_summary", "cooccurrence_share", "document_matrix", "extremes",
    "hits_per_worker", "lines_per_pair", "most_affected", "raw_coverage", "recovery_check", "remedy_per_hit", "remedy_view",
    "stability_per_pair",
    "stability_summary", "style_contrast", "trajectories", "variant_sensitivity",
    # claim values
    "MEASURES", "change_shares", "check_rows", "document_checks", "fig4_summary", "fig5_variance", "growth_checks",
    "human_seen_checks", "item_type_checks", "missing_pairs_checks", "noise_vs_perturbation", "omega_squared",
    "remedy_totals", "reshuffle_checks", "share_of", "trajectory_summary",
    # the paper's 2020 pairs and 2018 ranges
    "assessments_per_system", "footnote17_checks", "original_2020", "original_2020_view", "paper_2018_ranges",
    # published
    "fig1_fractions", "ref_shares", "table1", "table2", "table3", "toy_example",
    # figures
    "DIVISOR_TICKS", "HERE", "STYLE_COLORS", "plot_cooccurrence", "plot_fig1", "plot_fig5", "plot_ref_shares",
    "plot_trajectory", "setting_label",
    # the numbers and names the text pastes
    "bootstrap_numbers", "controls_numbers", "fig4_numbers", "fig5_numbers", "human_last", "names", "pair_counts",
    "pair_name",
    "ranges_numbers", "raw_numbers", "ref_share_numbers", "remedy_numbers", "replication_numbers", "table3_numbers",
    "variant_numbers",
    # views
    "EXPERIMENT_LABELS", "PACKAGE_SHORT", "VARIANT_LABELS", "bootstrap_view", "by_pair", "disagreement_view",
    "experiment_label",
    "moved_view", "replication_exceptions", "replication_view", "table1_view", "variant_view",
    "with_experiment_labels",
]
