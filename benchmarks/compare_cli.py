"""Wall time of ``python -m analysis compare`` end to end (a fresh process, as a user runs it): on the shipped
example and on a synthetic 20-system x 10,000-instance long CSV (``python -m benchmarks.compare_cli``).

Nothing is asserted; the times are printed for the README (issue 16 aims: under 5 s and under a minute).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analysis", "compare", *args], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.csv"
        values = rng.normal(0, 1, (10_000, 20)) + np.linspace(0, 0.2, 20)
        frame = pd.DataFrame(np.round(values, 2), columns=[f"sys{i:02d}" for i in range(20)])
        frame.rename_axis(index="instance", columns="system").stack().rename("score").reset_index().to_csv(big, index=False)
        cases = {
            "example (5 x 60), defaults": ["examples/topicalchat_chrfpp.csv"],
            "20 x 10,000, defaults (1,000 / 100 resamples)": [str(big)],
        }
        for label, args in cases.items():
            print(f"{label}: {min(timed(args) for _ in range(2)):.1f} s", flush=True)


if __name__ == "__main__":
    main()
