"""Tidy Parquet tables built from the verified raw files (``python -m analysis data prepare``).

Every table is declared once, as a :class:`~analysis.data.registry.Table` next to its builder: ``paired_setups``
(:mod:`.paired`); ``wmt_judgments``, ``wmt_segments``, ``wmt_official_rankings``, ``wmt_official_wilcoxon``,
``wmt_official_clusters`` (:mod:`.wmt`); ``favi_scores``, ``favi_llm_h2h`` (:mod:`.favi`); ``llmfao``, ``sst5``,
``ceval`` (:mod:`.gvp`); ``sst5_baselines``, ``sst5_binary_baselines`` (:mod:`.baselines`). Row counts are in
data/README.md.

Each table gets a sidecar ``<table>.json`` recording its name, schema, row count, its own sha256, the sha256 of
every input file and its provenance; preparing again is a no-op while those and the package version are unchanged
and the table's bytes match. :func:`load_table` reads only a table whose bytes match its recorded sha256 and whose
sidecar names it, and :func:`verify_tables` checks them all (``python -m analysis data verify``), as the raw layer
does for raw files: a table swapped with another, sidecar and all, is "corrupt".
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pandas as pd

from .. import __version__
from ..files import atomic_write, remove_stale_partials, sha256_file
from ..paths import processed_dir
from . import baselines, cache, favi, gvp, paired, wmt
from .raw import sha256_bytes
from .registry import DataError, Table, source_files

TABLES: dict[str, Table] = {t.name: t for module in (paired, gvp, baselines, wmt, favi) for t in module.TABLES}
SCHEMAS: dict[str, dict[str, str]] = {name: t.schema for name, t in TABLES.items()}  # a view, for readers


def expected_inputs(name: str) -> dict[str, str]:
    """{relpath: sha256} of the registry files table ``name`` declares it reads."""
    wanted: dict[str, list] = {}
    for entry in TABLES[name].sources:
        source, pattern = (entry, None) if isinstance(entry, str) else entry
        wanted.setdefault(source, []).append(pattern)
    return {f.relpath: f.sha256 for source, patterns in wanted.items() for f in source_files(source)
            if any(p is None or re.search(p, f.path) for p in patterns)}


def _conform(name: str, table: pd.DataFrame) -> pd.DataFrame:
    schema = TABLES[name].schema
    if list(table.columns) != list(schema):
        raise ValueError(f"{name}: columns {list(table.columns)} differ from the schema {list(schema)}")
    return table.astype(schema)


def _recorded(sidecar: Path) -> dict | None:
    """The sidecar's record, or None if it is missing, unreadable or not a JSON object (a table without it is
    rebuilt)."""
    try:
        record = json.loads(sidecar.read_text())
    except (OSError, ValueError):  # missing, a folder, unreadable, not JSON, not UTF-8
        return None
    return record if isinstance(record, dict) else None


def _other_table(name: str, recorded: dict) -> str | None:
    """Why a sidecar is not ``name``'s (it records another table: a table and its sidecar renamed or swapped
    together), or None."""
    if recorded.get("table") != name:
        return f"its sidecar {name}.json records table {recorded.get('table')!r}, not {name!r}"
    return None


def _state(name: str, out_dir: Path) -> str:
    """"ok", "missing" (never prepared), "not a file" (a folder or other non-file where the table belongs),
    "unrecorded" (no sidecar or no checksum in it) or "corrupt" (its bytes do not match the recorded sha256), or
    "corrupt (<why>)" when the sidecar records another table's name (a table swapped with another, sidecar and
    all: its checksum matches, its name does not)."""
    target = out_dir / f"{name}.parquet"
    if not target.is_file():
        return "not a file" if target.exists() or target.is_symlink() else "missing"
    recorded = _recorded(out_dir / f"{name}.json")
    if not recorded or not isinstance(recorded.get("sha256"), str):
        return "unrecorded"
    other = _other_table(name, recorded)
    if other:
        return f"corrupt ({other})"
    return "ok" if sha256_file(target) == recorded["sha256"] else "corrupt"


def _current(name: str, out_dir: Path) -> bool:
    """Whether the sidecar's record matches what the table would be built from now (package version, inputs,
    provenance); the table's own bytes are :func:`_state`'s concern."""
    recorded = _recorded(out_dir / f"{name}.json") or {}
    # once fetched, a raw file is identified by its registered checksum
    return (recorded.get("analysis_version") == __version__ and recorded.get("inputs") == expected_inputs(name)
            and recorded.get("provenance", {}) == TABLES[name].provenance())


def prepare(only: list[str] | None = None, *, root=None, out=None, stream=sys.stderr) -> dict[str, str]:
    """Build the tables (all, or those in ``only``); returns {table: "built" | "up to date"}."""
    unknown = sorted(set(only or []) - set(TABLES))
    if unknown:
        raise ValueError(f"unknown table(s) {unknown}; known: {sorted(TABLES)}")
    out_dir = Path(out) if out else processed_dir()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot create the tables' folder {out_dir}: {_cause(exc)}") from None
    for path in remove_stale_partials(out_dir):
        print(f"data prepare: removed {path.name}, left by a killed run", file=stream, flush=True)
    for path in cache.discard_damaged(out_dir / "cache"):
        print(f"data prepare: removed the damaged cache entry {path.name}; it is recomputed when next needed",
              file=stream, flush=True)
    status = {}
    for name in only or TABLES:
        sidecar = out_dir / f"{name}.json"
        target = out_dir / f"{name}.parquet"
        state = _state(name, out_dir)
        if state == "not a file":
            raise DataError(f"table {name}: {target} is not a file (a folder?); move it away and run `make data`")
        if state == "ok" and _current(name, out_dir):
            status[name] = "up to date"
            continue
        if state.startswith("corrupt (") or state in ("corrupt", "unrecorded"):
            why = {"corrupt": " (its bytes do not match the recorded sha256)",
                   "unrecorded": " (it has no recorded sha256)"}.get(state, "")
            print(f"data prepare: {name}: {target.name} is {state}{why}; rebuilding", file=stream, flush=True)
        try:
            table, inputs = TABLES[name].build(root)
            table = _conform(name, table)
        except DataError as exc:
            raise DataError(f"table {name}: {exc}") from exc
        except Exception as exc:
            raise DataError(f"table {name}: its builder failed: {type(exc).__name__}: {exc}") from exc
        if {f.relpath: f.sha256 for f in inputs} != expected_inputs(name):
            raise RuntimeError(f"table {name}: its builder read other files than its Table declares")
        _write_table(name, table, inputs, target, sidecar)
        status[name] = "built"
        print(f"data prepare: {name}: {len(table):,} rows -> {target}", file=stream, flush=True)
    return status


def _cause(exc: OSError) -> str:
    """An OS error's cause in words ("No space left on device"), without the path it may repeat."""
    return exc.strerror or str(exc) or type(exc).__name__


def _write_table(name: str, table: pd.DataFrame, inputs, target: Path, sidecar: Path) -> None:
    """Write the table, then its sidecar, each atomically. The table replaces the old one only when it is fully
    written; if the sidecar then cannot be written, the new table is unrecorded and rebuilt by the next prepare."""
    _write(name, target, lambda tmp: table.to_parquet(tmp, index=False), "the previous table is kept")
    meta = {
        "table": name,
        "rows": len(table),
        "sha256": sha256_file(target),
        "schema": TABLES[name].schema,
        "inputs": {f.relpath: f.sha256 for f in inputs},
        "provenance": TABLES[name].provenance(),
        "analysis_version": __version__,
    }
    text = json.dumps(meta, indent=2, sort_keys=True) + "\n"
    _write(name, sidecar, lambda tmp: Path(tmp).write_text(text), "the table is rebuilt by the next prepare")


def _write(name: str, path: Path, write, kept: str) -> None:
    """:func:`~analysis.files.atomic_write`, its ``OSError`` (a read-only or full filesystem) turned into a
    :class:`DataError` naming the table, the file, the cause and what is left (``kept``)."""
    try:
        atomic_write(path, write)
    except OSError as exc:
        raise DataError(f"table {name}: cannot write {path}: {_cause(exc)}; {kept}") from None


def load_table(name: str, out=None) -> pd.DataFrame:
    """Read a prepared table (a clear error if it was not prepared)."""
    if name not in TABLES:
        raise ValueError(f"unknown table {name!r}; known: {sorted(TABLES)}")
    out_dir = Path(out) if out else processed_dir()
    path = out_dir / f"{name}.parquet"
    if not path.exists():
        raise FileNotFoundError(f"table {name} is not prepared ({path}); run `make data`")
    recorded = _recorded(out_dir / f"{name}.json") or {}
    if not isinstance(recorded.get("sha256"), str):
        raise DataError(f"table {name} ({path}) has no recorded checksum in {name}.json; run `make data` to rebuild it")
    other = _other_table(name, recorded)
    if other:
        raise DataError(f"{path}: {other} (a table renamed or swapped with another); run `make data` to rebuild it")
    payload = path.read_bytes()
    if sha256_bytes(payload) != recorded["sha256"]:
        raise DataError(f"{path}: {path.name} does not match its recorded sha256 (damaged after it was written); "
                        "run `make data` to rebuild it")
    return pd.read_parquet(io.BytesIO(payload))


def verify_tables(only: list[str] | None = None, out=None) -> dict[str, str]:
    """Re-check every prepared table and cache entry against the sha256 and the table name recorded when it was
    written: {``processed/<table>.parquet`` or ``cache/<entry>``: "ok" | "corrupt" | "corrupt (<why>)" |
    "unrecorded" | "missing" | "not a file"}."""
    out_dir = Path(out) if out else processed_dir()
    report = {f"processed/{name}.parquet": _state(name, out_dir) for name in (only or TABLES)}
    if not only:
        report.update(cache.verify(out_dir / "cache"))
    return report


def sidecar_path(name: str, out=None) -> Path:
    """The ``<table>.json`` sidecar: its checksum pins every input file of the table."""
    return (Path(out) if out else processed_dir()) / f"{name}.json"


def score_matrix(table: pd.DataFrame, collection: str, dataset: str, metric: str) -> pd.DataFrame:
    """One setup of ``paired_setups`` as a score matrix (rows = instances, columns = systems, source order kept)."""
    sel = table[(table["collection"] == collection) & (table["dataset"] == dataset) & (table["metric"] == metric)]
    if sel.empty:
        raise ValueError(f"no setup {collection}/{dataset}/{metric} in the table")
    matrix = sel.pivot(index="instance", columns="system", values="score")
    return matrix[pd.unique(sel["system"])].rename_axis(index=None, columns=None)  # source order, not alphabetical
