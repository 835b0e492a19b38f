"""Chapter ``06_synthesis``: the four papers' questions asked of each other's data (beyond the papers), one module
per study with its experiment, figure and claim values (``data/published/claims/synthesis.toml``): study 1
:mod:`.stability`, study 2 :mod:`.wmt_pairs`, study 3 :mod:`.favoritism`, study 4 :mod:`.ties`."""

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
