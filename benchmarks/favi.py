"""The Favi-Score of every system pair: ``analysis.favi.favi_table`` (one bincount over items x pairs) against the
paper's definitions transcribed pair by pair and item by item (``tests.reference.favi_loop``), on inputs shaped like
the chapter's largest setting (WMT22 zh-en: 16 systems x 1,875 items, a fifth of the scores missing) and its
smallest (dialogue: 6 x 60). Both give the same numbers (checked here and in the tests). Printed as ratios; run
``python -m benchmarks.favi``. Nothing is asserted about time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.favi import favi_table, favi_uncertainty
from benchmarks.run import best_time
from tests.reference import favi_loop


def inputs(n_items: int, n_systems: int, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    names = [f"system{k:02d}" for k in range(n_systems)]
    human = pd.DataFrame(-rng.integers(0, 6, (n_items, n_systems)).astype(float), columns=names)
    metric = pd.DataFrame(rng.normal(size=(n_items, n_systems)), columns=names)
    return human.mask(rng.random(human.shape) < 0.2), metric


def main() -> None:
    for label, n_items, n_systems in (("WMT22 zh-en shape", 1875, 16), ("dialogue shape", 60, 6)):
        human, metric = inputs(n_items, n_systems)
        ours = favi_table(human, metric)
        loop = pd.DataFrame(favi_loop(human, metric))
        pd.testing.assert_frame_equal(ours[loop.columns], loop, check_dtype=False)
        t_ours = best_time(lambda: favi_table(human, metric))
        t_loop = best_time(lambda: favi_loop(human, metric), repeat=2)
        t_noise = best_time(lambda: favi_uncertainty(human, metric, n_resamples=1000, rng=0), repeat=3)
        print(f"{label} ({n_systems} systems x {n_items} items, {len(ours)} pairs): favi_table {t_ours * 1e3:.1f} ms,"
              f" loop {t_loop * 1e3:.0f} ms -> {t_loop / t_ours:.0f}x; 1,000 bootstrap + 1,000 permutation draws "
              f"for every pair {t_noise * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
