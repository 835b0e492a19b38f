"""Chapter ``05_global_vs_pairwise``: Levtsov & Ustalov (2025) on the reachable data. This package: the chapter's
parameters, and its machinery split by dataset and by job —

* :mod:`.ceval`: CEval, the paper's exact text-generation data (Appendix C.1-C.2, Table 6);
* :mod:`.stability`: Fig. 1's tie sweep, Fig. 2's stability curves, the three random binary models of Sec. 5 and
  Fig. 3's synthetic detection experiment;
* :mod:`.classification`: SST-5 (Appendix B, Tables 3 and 5) and the binary stand-in for Jigsaw (Appendix A,
  Tables 2 and 4);
* :mod:`.llmfao`: Figs. 1-2's questions on llmfao's real judgments, beyond the paper;
* :mod:`.self_check`: the paper checked against itself (Tables 2-7 from its own appendices); :mod:`.protocol`: the
  changes that bring the chapter closer to the paper's protocol, measured before and after;
* :mod:`.published`: the paper's own values; :mod:`.shared`: Spearman and average-precision helpers;
* :mod:`.figures`: every figure, Fig. 4's flowchart included; :mod:`.views`: the tables as shown (measures in
  words, ours next to the paper's); :mod:`.facts`: the numbers the page's text pastes, read from the tables (the
  sentences and captions themselves are the notebook's);
* :mod:`.claim_values`: the values the claims registry reads (``gvp_claim_values.csv``), the paper recomputed from
  its own appendices (``gvp_paper_consistency.csv``) and Table 1.

The notebook and the tests import the modules by name (``ceval``, ``stability``, ``classification``, ...); this
package gives only the chapter's name and parameters.
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

