"""Chapter ``02_real_setups``: Peyrard et al. 2021 on real evaluation setups, one module per paper item (its
computation, figure, claim values and the numbers its page glues): :mod:`.setups` (§5, App. A.3 and what the items
share), :mod:`.table1` (Tables 1, 4, App. H), :mod:`.table3`, :mod:`.fig4`, :mod:`.fig5`, :mod:`.fig6` (App. D),
:mod:`.appf`."""

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
    "variant_ties": Param("str", choices=("half", "drop")),
}
