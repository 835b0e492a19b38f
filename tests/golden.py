"""The pinned quick-profile outputs, as text a reviewer can read: ``python -m tests.golden`` runs every chapter under
the quick profile, evaluates the claims on that run, and writes tests/golden/quick_values.txt (``--only CHAPTER``
re-runs one chapter and rewrites only its lines). Do it on purpose, after a change that is meant to move numbers; the
diff of the file then shows which numbers moved. ``tests/test_book.py`` checks each suite's run against it.

The file holds, per table the chapters save, a header line with its columns and one line per row, each value at
:data:`DIGITS` significant digits (a table of more than :data:`MAX_ROWS` rows: :data:`SAMPLE` of its rows, evenly
spaced, and per numeric column its count, sum, sum of absolute values and sum of squares); then every claim's verdict
and our value.
Lines start with their table's key, so each line of a diff says what it is.

OpenBLAS picks its kernels by CPU, so a model trained with scikit-learn or a product of matrices moves in its last
bits from one machine to another (measured: the SST-5 binary classifiers' probabilities by up to 3e-10 between two
kernels of one machine). The check therefore compares numbers, not text: two values agree when they differ by at
most :data:`RTOL` of the larger or :data:`ATOL` of their column's largest magnitude, which no intended change of a
number stays within.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

PINNED = Path(__file__).resolve().parent / "golden" / "quick_values.txt"
DIGITS = 7
#: tables with more rows are pinned by a sample of their rows and their column totals (item-level data: thousands
#: of lines nobody reviews)
MAX_ROWS = 60
SAMPLE = 20
#: a value's tolerance relative to itself (one unit in the last printed digit, plus BLAS drift)
RTOL = 2e-7
#: a value's tolerance relative to its column's largest magnitude (drift around zero)
ATOL = 1e-9
SEP = " | "
HEADER = ("# The quick profile's outputs (tests/golden.py; rewrite with `python -m tests.golden`, on purpose, "
          "and say in\n"
          "# the commit which numbers moved). Per table: its columns, then one line per row (or, for long tables,\n"
          "# per-column sums); then every claim's verdict and our value on the quick run.\n")


def _cell(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return "nan" if math.isnan(value) else f"{float(value):.{DIGITS}g}"
    text = str(value).replace("\n", "\\n")
    return text.replace(" | ", " \\| ")


def _key(generated: Path, path: Path) -> str:
    return path.relative_to(generated).as_posix().removesuffix(".csv")


def table_lines(key: str, frame: pd.DataFrame) -> list[str]:
    """The lines of one table (module docstring)."""
    lines = [f"== {key} ({frame.shape[0]} x {frame.shape[1]}): " + SEP.join(map(str, frame.columns))]
    rows = range(len(frame)) if len(frame) <= MAX_ROWS else sample_rows(len(frame))
    lines += [f"{key}[{i}]: " + SEP.join(_cell(v) for v in frame.iloc[i]) for i in rows]
    if len(frame) <= MAX_ROWS:
        return lines
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c]) and
               not pd.api.types.is_bool_dtype(frame[c])]
    for column in numeric:
        values = frame[column].to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        sums = (values.size, values.sum(), np.abs(values).sum(), (values ** 2).sum())
        lines.append(f"{key}{{{column}}}: n={sums[0]}; sum={_cell(sums[1])}; sum|x|={_cell(sums[2])}; "
                     f"sum x2={_cell(sums[3])}")
    return lines


def sample_rows(n: int) -> list[int]:
    """The rows a long table pins as values: :data:`SAMPLE` rows evenly spaced from the first to the last, so a
    reviewer reads real rows (the column totals beside them catch a change anywhere else)."""
    return sorted({int(round(x)) for x in np.linspace(0, n - 1, SAMPLE)})


def claim_lines(claims_csv: Path) -> list[str]:
    table = pd.read_csv(claims_csv, keep_default_na=False, dtype=str)
    return [f"claim {paper}.{cid}: {verdict}{SEP}ours {_cell(ours)}"
            for paper, cid, verdict, ours in zip(table["paper"], table["id"], table["verdict"], table["our value"])]


def render(generated: Path, chapters: list[str] | None = None) -> list[str]:
    """Every pinned line of the outputs under ``generated`` (only ``chapters``' tables when given, and then no
    claims)."""
    lines = []
    for path in sorted(generated.glob("[0-9][0-9]_*/*.csv")):
        if chapters is None or path.parent.name in chapters:
            lines += table_lines(_key(generated, path), pd.read_csv(path, keep_default_na=True, low_memory=False))
    if chapters is None and (generated / "claims.csv").is_file():
        lines += claim_lines(generated / "claims.csv")
    return lines


_NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$|^nan$|^-?inf$")


def _numbers(cells: list[str]) -> list[float | None]:
    return [float(c) if _NUMBER.match(c) else None for c in cells]


def _split(line: str) -> tuple[str, list[str]]:
    key, _, rest = line.partition(": ")
    if "{" in key and key.endswith("}"):  # a long table's sums: "n=..; sum=..; ..."
        return key, [part.split("=", 1)[-1] for part in rest.split("; ")]
    return key, rest.split(SEP)


def _table(key: str) -> str:
    return re.sub(r"(\[\d+\]|\{.*\})$", "", key)


def differences(pinned: list[str], ours: list[str], limit: int = 20) -> list[str]:
    """What differs between two renderings (empty when nothing beyond the tolerances): each item says the line's
    key, the pinned text and ours, so a failure reads like the diff of a re-pin."""
    def index(lines):
        return {_split(line)[0]: line for line in lines if line and not line.startswith("#")}

    a, b = index(pinned), index(ours)
    scale: dict[tuple[str, int], float] = {}  # (table, column position) -> largest |value| pinned
    for key, line in a.items():
        if key.startswith("claim ") or key.startswith("== "):
            continue
        for k, x in enumerate(_numbers(_split(line)[1])):
            if x is not None and math.isfinite(x):
                column = (_table(key), k if "[" in key else -1)
                scale[column] = max(scale.get(column, 0.0), abs(x))
    found = [f"missing: {a[key]}" for key in a if key not in b]
    found += [f"new: {b[key]}" for key in b if key not in a]
    for key in a.keys() & b.keys():
        if a[key] == b[key]:
            continue
        (_, left), (_, right) = _split(a[key]), _split(b[key])
        same = len(left) == len(right) and not key.startswith("== ")
        if same:
            for k, (x, y, p, q) in enumerate(zip(_numbers(left), _numbers(right), left, right)):
                if p == q:
                    continue
                if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)):
                    same = False
                    break
                if key.startswith("claim "):
                    floor = 0.0
                else:
                    floor = ATOL * scale.get((_table(key), k if "[" in key else -1), 0.0)
                if abs(x - y) > RTOL * max(abs(x), abs(y)) + floor:
                    same = False
                    break
        if not same:
            found.append(f"{a[key]}  ->  {b[key]}")
    found.sort()
    return found[:limit] + ([f"... and {len(found) - limit} more"] if len(found) > limit else [])


def read_pinned() -> list[str]:
    return PINNED.read_text().splitlines()


def main(argv: list[str] | None = None) -> int:
    from analysis import claims_cli, reproduce

    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="CHAPTER", help="re-run these chapters and rewrite only their "
                        "tables' lines (the claims' lines need every chapter and are kept)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        runs = reproduce.run(profile="quick", output_root=tmp, only=args.only, jobs=2)
        failed = [r.chapter for r in runs if r.status != "ok"]
        if failed:
            print(f"not pinned: chapters {failed} failed", file=sys.stderr)
            return 1
        if args.only:
            chapters = [r.chapter for r in runs]
            kept = [line for line in read_pinned()[HEADER.count("\n"):]
                    if line.startswith("claim ") or line.removeprefix("== ").split("/")[0] not in chapters]
            lines = sorted(kept + render(Path(tmp), chapters), key=_order)
        else:
            import io

            claims_cli.main(["--outputs", tmp], stream=io.StringIO())
            lines = render(Path(tmp))
    PINNED.parent.mkdir(exist_ok=True)
    PINNED.write_text(HEADER + "\n".join(lines) + "\n")
    print(f"pinned {sum(line.startswith('== ') for line in lines)} tables and "
          f"{sum(line.startswith('claim ') for line in lines)} claims in {PINNED}")
    return 0


def _order(line: str) -> tuple:
    """Tables in path order, each header before its rows in row order, then the claims in their file order (kept
    as they were: the sort is stable)."""
    if line.startswith("claim "):
        return (1, "", 0, 0)
    key = _split(line.removeprefix("== "))[0].split(" (")[0]
    table = _table(key)
    row = re.search(r"\[(\d+)\]$", key)
    return (0, table, 0 if line.startswith("== ") else 1, int(row.group(1)) if row else 10**9)


if __name__ == "__main__":
    raise SystemExit(main())
