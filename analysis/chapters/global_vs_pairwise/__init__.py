"""Chapter ``05_global_vs_pairwise``: Levtsov & Ustalov (2025) on the reachable data, one module per dataset or
job, each with its numbers for the page (``*_facts``) and for the claims (``*_values``)."""

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

