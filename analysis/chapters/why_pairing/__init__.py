"""Chapter ``00_why_pairing_matters``: the paired paper's small, exact illustrations (Peyrard et al. 2021, §1-3,
Fig. 1, Table 2 / Appendix A.1, Fig. 2, Prop. 1 / Appendix B, Appendix F). By job:

* :mod:`.experiments`: the computations per paper item (scores, pairings, random setups, the three-system example)
* :mod:`.figures`: Figs. 1 and 2
* :mod:`.text`: the tables as the page shows them and the values the claims registry reads (the page's sentences
  are in the notebook's markdown)
"""

from __future__ import annotations

from ..common import SEED, Param

CHAPTER = "00_why_pairing_matters"
PARAMETERS = {
    "seed": SEED,
    "n_per_type": Param("int", low=2, quick=100),
    "n_fig2": Param("int", low=2, quick=400),
    "n_prop1_setups": Param("int", low=1, quick=200),
}
