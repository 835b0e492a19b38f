"""Chapter ``03_wmt_stability``: Knowles (2021) on the WMT packages that can be reached, one module per paper item
(each module's docstring names its items); :mod:`.packages` holds what they share."""

from __future__ import annotations

from ... import wmt
from ... import wmt_stability as ws
from ..common import SEED, Param
from .packages import PACKAGES

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
