"""Chapter ``05_global_vs_pairwise``: Levtsov & Ustalov (2025) on the reachable data. The package's modules, one
per dataset or job, each with its numbers for the page (``*_facts``) and for the claims registry (``*_values``):
:mod:`.ceval` (Appendix C, Tables 6-7), :mod:`.classification` (SST-5 and the binary stand-in for Jigsaw:
Appendices A-B, Tables 2-5), :mod:`.stability` (Figs. 1-3, §5's random models), :mod:`.llmfao` (beyond the paper),
:mod:`.self_check` (the paper against its own appendices), :mod:`.protocol` (readings of the protocol, measured
both ways), :mod:`.figures` and :mod:`.views` (the tables as shown, Table 1). The notebook imports them by name;
this package gives only the chapter's name and parameters.
"""

from __future__ import annotations

from ..common import SEED, Param

CHAPTER = "05_global_vs_pairwise"
PARAMETERS = {
    "seed": SEED,
    "n_trials": Param("int", low=1, quick=50),
    "tie_step": Param("number", low=0, high=1, low_open=True, quick=0.5),
    "penalised_share": Param("number", low=0, high=1, low_open=True),
    "n_random_repeats": Param("int", low=1, quick=20),
    "n_stability_trials": Param("int", low=1, quick=10),
    "stability_step": Param("int", low=1, quick=250),
    "n_fig3_repeats": Param("int", low=1, quick=50),
    "n_llmfao_trials": Param("int", low=1, quick=10),
    "llmfao_tie_step": Param("number", low=0, high=1, low_open=True, quick=0.5),
    "split_half_shares": Param("number", low=0, high=0.5, low_open=True, many=True, quick=[0.25, 0.5]),
    "stability_tie_probabilities": Param("number", low=0, high=1, high_open=True, many=True, quick=[0.5]),
    "lexicon_centre": Param("str", choices=("prediction", "explainer")),
    "binary_gold": Param("str", choices=("sst", "majority")),
    "penalty_length": Param("int", low=1, optional=True),
}

