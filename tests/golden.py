"""The pinned quick-profile tables: ``python -m tests.golden`` runs every chapter under the quick profile and
records a fingerprint of every CSV in tests/golden/quick_tables.json (do it on purpose, after a change that is meant
to move numbers, and say which in the commit); ``tests/test_book.py`` checks each suite's run against it.

A fingerprint is the table's sha256 and, for a table whose bytes differ, what can be compared across machines: its
shape and header, a digest of its text cells (numbers in them written to 6 significant digits) and, per numeric
column, the count, sum, sum of absolute values and sum of squares. OpenBLAS picks its kernels by CPU, so a model
trained with scikit-learn or a product of matrices moves in its last bits from one machine to another (measured:
the SST-5 binary classifiers' probabilities by up to 3e-10 between two kernels of one machine). Equal bytes pass;
otherwise every number must agree to :data:`RTOL`, which no intended change of a number stays within.
"""

import hashlib
import json
import math
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.files import sha256_file

PINNED = Path(__file__).resolve().parent / "golden" / "quick_tables.json"
#: the relative tolerance of a column's sums between machines (last-bit drift is around 1e-12 to 1e-9)
RTOL = 1e-6


def _text_cell(value) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return "nan" if math.isnan(number) else f"{number:.6g}"


def fingerprint(path: Path) -> dict:
    """A table's sha256, and what of it can be compared when the bytes differ (module docstring)."""
    frame = pd.read_csv(path, keep_default_na=True, low_memory=False)
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and
               not pd.api.types.is_bool_dtype(frame[c])]
    text = frame.drop(columns=numeric).map(_text_cell)
    sums = {}
    for column in numeric:
        values = frame[column].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        sums[str(column)] = [int(values.size), float(values.sum()), float(np.abs(values).sum()),
                             float((values ** 2).sum())]
    return {"sha256": sha256_file(path), "shape": list(frame.shape), "columns": [str(c) for c in frame.columns],
            "text": hashlib.sha256(text.to_csv(index=False).encode()).hexdigest(), "sums": sums}


def table_fingerprints(generated: Path) -> dict[str, dict]:
    """{chapter/table.csv: fingerprint} of every table the chapters wrote under ``generated``."""
    return {p.relative_to(generated).as_posix(): fingerprint(p) for p in sorted(generated.glob("[0-9][0-9]_*/*.csv"))}


def differences(pinned: dict, ours: dict) -> list[str]:
    """Why ``ours`` is not the pinned table (empty when it is, byte for byte or within :data:`RTOL`)."""
    if pinned["sha256"] == ours["sha256"]:
        return []
    found = [f"{key} differs" for key in ("shape", "columns", "text") if pinned[key] != ours[key]]
    for column, pinned_sums in pinned["sums"].items():
        our_sums = ours["sums"].get(column)
        if our_sums is None or our_sums[0] != pinned_sums[0]:
            found.append(f"{column}: count")
            continue
        scale = max(pinned_sums[2], 1e-300)  # the sum of |values|: sums near zero are compared at the values' scale
        for name, a, b in zip(("sum", "sum of |x|", "sum of squares"), pinned_sums[1:], our_sums[1:]):
            reference = scale if name == "sum" else max(abs(a), 1e-300)
            if abs(a - b) > RTOL * reference:
                found.append(f"{column}: {name} {a!r} -> {b!r}")
    return found


def main() -> int:
    from analysis import reproduce

    with tempfile.TemporaryDirectory() as tmp:
        runs = reproduce.run(profile="quick", output_root=tmp, jobs=2)
        failed = [r.chapter for r in runs if r.status != "ok"]
        if failed:
            print(f"not pinned: chapters {failed} failed", file=sys.stderr)
            return 1
        prints = table_fingerprints(Path(tmp))
    PINNED.parent.mkdir(exist_ok=True)
    PINNED.write_text(json.dumps(prints, indent=0, sort_keys=True) + "\n")
    print(f"pinned {len(prints)} tables in {PINNED}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
