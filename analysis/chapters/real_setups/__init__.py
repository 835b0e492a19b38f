"""Chapter ``02_real_setups``: the paired paper's analyses of real evaluation setups (Peyrard et al. 2021, §5,
Tables 1, 3, 4, Figs. 4-6, Appendices C, D, F, H).

A *setup* is one (collection, dataset, metric) score matrix of the ``paired_setups`` table. By job:

* :mod:`.setups`: the setups as score matrices, drawn test sets, the inventory; the shared names (mechanisms, pairs,
  measures, tasks)
* :mod:`.experiments`: the computations per paper item (Tables 1, 3, 4; App. H; Figs. 4-6; App. D, F)
* :mod:`.published`: the paper's published values (App. A.3, Tables 3 and 4, Fig. 6) and ours beside them
* :mod:`.figures`: Table 3's heat maps and scatter, Figs. 4, 5 and 6
* :mod:`.page_values`: the numbers the page's prose pastes (through glue), computed from the tables
* :mod:`.claim_values`: the tidy values the claims registry (``data/published/claims/paired.toml``) reads

The notebook and the tests import these modules by name; this package gives the chapter's name and parameters."""

from __future__ import annotations

from ..common import SEED, Param

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
