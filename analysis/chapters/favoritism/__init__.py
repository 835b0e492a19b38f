"""Chapter ``04_favoritism``: the Favi-Score paper (von Däniken et al. 2024) on the reachable data — the worked
examples (Figs. 2-3, Lemmas 1-2), Table 1, the win graphs of Fig. 1 and Figs. 8-13, Figs. 4-6, §2's margin example,
Appendix D's case studies and Appendix C.2.1's order symmetry, plus how much of each Φ is noise.

Split by job:

* :mod:`.experiments`: the datasets and settings, every pair's Φ with interval and test (:func:`.experiments.per_pair`), Lemmas
  1-2, Table 1 for the data at hand, Fig. 4's per-metric summary, the win-graph agreement and the numbers of the
  case figures' captions, ChatGPT's head-to-head judgments, and whether Φ is favoritism or attenuation
* :mod:`.published`: the paper's printed values and the side-by-side tables (Figs. 2-3, Table 1, Fig. 5's
  correlations, §2, Appendix D, App. C.2.1)
* :mod:`.figures`: Figs. 4-6, the case figures (Fig. 1, Figs. 8-13) and the noise figure
* :mod:`.wingraphs`: the win graphs placed and drawn for the page (layers, boxes, arrows ending at their borders)
* :mod:`.tables`: the tables as a reader sees them (readable headers, fewer columns, words instead of codes), among
  them the systems each metric favours most
* :mod:`.checks`: the tidy tables the claims registry reads (tie shares, per-system Φ, win-graph rows, the domain
  comparison of Fig. 4, claim values and boolean checks)
* :mod:`.ties`: ties made visible (tie shares beside Fig. 4 and App. D, the two readings of sample-level accuracy,
  the metric ties that are identical outputs)
* :mod:`.uncertainty`: the document-level bootstrap, the Benjamini-Hochberg correction of the sign-flip tests and
  the split-half attenuation reading

The page's sentences and the figures' captions are the notebook's markdown and literals, with the numbers glued in.
"""

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
