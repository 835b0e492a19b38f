"""Everything the compendium can say about one user's scores (``python -m analysis compare`` and chapter
``09_your_own_scores``), built from the four papers' methods:

* MEAN, MEDIAN, BT, Elo, TrueSkill (Peyrard et al. 2021) with 95% bootstrap intervals over the data's units (test
  instances, or judgments), percentile or BCa, each containing its estimate; Elo and TrueSkill averaged over random
  game orders (:mod:`.sequential`), so that neither estimate nor interval depends on the file's order;
* P(A > B) per pair with its interval, the sign test and Wilcoxon's signed-rank test (Peyrard et al. 2021, §3.2,
  App. D), p-values adjusted for the number of pairs (Holm by default, or Benjamini-Hochberg);
* a 95% rank interval per system and statistically tied groups;
* Table 1's disagreement measures between every pair of mechanisms;
* Knowles (2021)'s stability question, asked of every mechanism.

Score files with missing scores are compared pair by pair on the instances both systems have (:mod:`.evidence`),
with a per-instance-adjusted mean beside MEAN and MEDIAN, which are then over different instances.
"""

from .core import (
                   FRAMES,
                   MECHANISMS,
                   N_ORDERS,
                   SEQUENTIAL,
                   Comparison,
                   check_settings,
                   compare,
                   disagreement_table,
                   from_dict,
                   mechanisms,
                   stability,
)

__all__ = ["FRAMES", "MECHANISMS", "N_ORDERS", "SEQUENTIAL", "Comparison", "check_settings", "compare",
           "disagreement_table", "from_dict", "mechanisms", "stability"]

from .intervals import bootstrap_bt as _bootstrap_bt  # noqa: F401  (the name tests/test_bt.py knows)
