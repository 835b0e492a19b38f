"""The pinned quick-profile tables: ``python -m tests.golden`` runs every chapter under the quick profile and
records the sha256 of every CSV in tests/golden/quick_tables.json (do it on purpose, after a change that is meant
to move numbers, and say which in the commit); ``tests/test_book.py`` checks each suite's run against it."""

import json
import sys
import tempfile
from pathlib import Path

from analysis.files import sha256_file

PINNED = Path(__file__).resolve().parent / "golden" / "quick_tables.json"


def table_digests(generated: Path) -> dict[str, str]:
    """{chapter/table.csv: sha256} of every table the chapters wrote under ``generated``."""
    return {p.relative_to(generated).as_posix(): sha256_file(p) for p in sorted(generated.glob("[0-9][0-9]_*/*.csv"))}


def main() -> int:
    from analysis import reproduce

    with tempfile.TemporaryDirectory() as tmp:
        runs = reproduce.run(profile="quick", output_root=tmp, jobs=2)
        failed = [r.chapter for r in runs if r.status != "ok"]
        if failed:
            print(f"not pinned: chapters {failed} failed", file=sys.stderr)
            return 1
        digests = table_digests(Path(tmp))
    PINNED.parent.mkdir(exist_ok=True)
    PINNED.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"pinned {len(digests)} tables in {PINNED}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
