"""Chapter ``03_wmt_stability``: Knowles (2021) on the WMT packages that can be reached. One module per paper item
(the notebook imports them by name; this file holds only the chapter's parameters): :mod:`.replication` (Sec. 3,
App. A), :mod:`.published` (Sec. 5's toy, Tables 1-3, Sec. 5.1, Fig. 1 next to the paper's values),
:mod:`.experiments` (the perturbations, the raw scores they divide, and beyond the paper a bootstrap over HITs, Sec.
8's per-HIT remedy and the rank-sum variant), :mod:`.fig23` (Figs. 2-3), :mod:`.paper2020` (the paper's own
2020 pairs and the range its 21-pair totals allow for 2018), :mod:`.fig4`, :mod:`.fig5` (Sec. 6), :mod:`.section7`,
:mod:`.controls` (matched nulls and closeness), :mod:`.claim_values` (the shares and checks the claims registry
reads); shared: :mod:`.packages` (the packages and each pair's coded judgments) and :mod:`.views` (names and
compact tables for the page)."""

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
