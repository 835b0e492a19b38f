"""Chapter ``04_favoritism``: the Favi-Score paper (von Däniken et al. 2024) on the reachable data.

One module per paper item with its claims' values and checks (listed in :mod:`analysis.chapters`); :mod:`.experiments`
holds the settings and every pair's Φ. The page's sentences and the figures' captions are the notebook's."""

from __future__ import annotations

from ..common import SEED, Param
from .experiments import DATASETS, SUMMEVAL_ASPECTS

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
