"""Chapter ``04_favoritism``: the Favi-Score paper (von Däniken et al. 2024) on the reachable data.

:mod:`.experiments` computes (every pair's Φ with interval and test, Table 1, Lemmas 1-2, Fig. 4's summary, the win
graphs, ChatGPT's head-to-head judgments, attenuation), :mod:`.published` sets it beside the paper's printed values,
:mod:`.figures` and :mod:`.wingraphs` draw, :mod:`.tables` writes the tables for a reader, :mod:`.checks` gives the
claims registry its values and checks, :mod:`.ties` makes ties visible and :mod:`.uncertainty` reads how much of Φ is
noise. The page's sentences and the figures' captions are the notebook's."""

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
