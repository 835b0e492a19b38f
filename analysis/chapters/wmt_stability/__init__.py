"""Chapter ``03_wmt_stability``: Knowles (2021) on the WMT packages that can be reached — the replication of the
official rankings (Sec. 3, Appendix A), the toy example (Sec. 5), Table 1, HIT composition (Sec. 5.1), Tables 2-3
and Fig. 1 (Sec. 5.2), Figs. 2-5 (Secs. 5.3-6), and beyond the paper a bootstrap over HITs and one of Sec. 8's
remedies.

Modules by job (the notebook imports them by name; this file holds only the chapter's parameters):
:mod:`.packages` (the packages shown, each pair's coded judgments, which pairs the figures show), :mod:`.replication`
(Sec. 3 / App. A against the official outputs), :mod:`.experiments` (the perturbation experiments, the data behind
Figs. 2-5, the bootstrap, the per-HIT remedy, the rank-sum variant), :mod:`.published` (ours next to the paper's
values: Sec. 5, Tables 1-3, Fig. 1), :mod:`.paper2020` (the paper's own 2020 pairs, Sec. 5.3 and footnote 17, and
the range its 21-pair totals allow for 2018), :mod:`.documents` (Fig. 5 as a two-way document x system fit),
:mod:`.section7` (Sec. 7, the metrics task under resampled human rankings), :mod:`.controls` (matched nulls and
closeness), :mod:`.claim_values` (the tidy values and checks that ``data/published/claims/wmt.toml`` reads),
:mod:`.figures`, :mod:`.text` (the numbers and names the page's text pastes; the sentences and captions are the
notebook's) and :mod:`.views` (compact tables for the page)."""

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
