"""Chapter ``06_synthesis``: the four papers' questions asked of each other's data (beyond the papers). One module
per study, each with its experiment, figure and claim values (``data/published/claims/synthesis.toml``; the
captions and the page's sentences are in the notebook's text):

* :mod:`.stability`: study 1, Knowles' remove-a-system test and App. F's IIA search for every mechanism on the
  paired chapter's real setups, beside a small re-run of the paired paper's simulation
* :mod:`.wmt_pairs`: study 2, Bradley–Terry on the paired preferences inside WMT's DA judgments against z-means
* :mod:`.favoritism`: study 3, whether a metric's Favi-Score moves its BT ranking more than its mean ranking
* :mod:`.ties`: study 4, the tie-probability sweep and the comparison-stability curve on the real setups
"""

from __future__ import annotations

from ..common import SEED, Param

CHAPTER = "06_synthesis"
PARAMETERS = {
    "seed": SEED,
    "collections": Param("str", many=True, optional=True, quick=["Dialogue", "WMT19"]),
    "metrics": Param("str", many=True, optional=True),
    "iia_triples": Param("int", low=1, quick=5),
    "sim_datasets": Param("int", low=1, quick=2),
    "wmt_collections": Param("str", many=True, optional=True, quick=["wikipedia2021-fb"]),
    "null_draws": Param("int", low=0, quick=2),
    "favi_datasets": Param("str", many=True, quick=["usr-tc", "usr-pc"],
                           choices=("wmt22-ende", "wmt22-zhen", "wmt21-ende", "summeval", "usr-tc", "usr-pc")),
    "n_resamples": Param("int", low=1, quick=50),
    "sweep_sizes": Param("int", low=1, many=True, quick=[10, 100]),
    "sweep_trials": Param("int", low=1, quick=5),
    "tie_probabilities": Param("number", low=0, high=1, many=True, quick=[0.0, 0.5]),
}
