"""Tidy Parquet tables built from the verified raw files (``python -m analysis data prepare``).

Every table is declared once, as a :class:`~analysis.data.registry.Table` next to its builder: ``paired_setups``
(:mod:`.paired`); ``wmt_judgments``, ``wmt_segments``, ``wmt_official_rankings``, ``wmt_official_wilcoxon``,
``wmt_official_clusters`` (:mod:`.wmt`); ``favi_scores``, ``favi_llm_h2h`` (:mod:`.favi`); ``llmfao``, ``sst5``,
``ceval`` (:mod:`.gvp`). Row counts are in data/README.md.

Each table gets a sidecar ``<table>.json`` recording its schema, row count, the sha256 of every input file and its
provenance; preparing again is a no-op while those and the package version are unchanged.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pandas as pd

from .. import __version__
from ..files import atomic_write
from ..paths import processed_dir
from . import favi, gvp, paired, wmt
from .registry import Table, source_files

TABLES: dict[str, Table] = {t.name: t for module in (paired, gvp, wmt, favi) for t in module.TABLES}
SCHEMAS: dict[str, dict[str, str]] = {name: t.schema for name, t in TABLES.items()}


def expected_inputs(name: str) -> dict[str, str]:
    """{relpath: sha256} of the registry files table ``name`` declares it reads."""
    wanted: dict[str, list] = {}
    for entry in TABLES[name].sources:
        source, pattern = (entry, None) if isinstance(entry, str) else entry
        wanted.setdefault(source, []).append(pattern)
    return {f.relpath: f.sha256 for source, patterns in wanted.items() for f in source_files(source)
            if any(p is None or re.search(p, f.path) for p in patterns)}


def _conform(name: str, table: pd.DataFrame) -> pd.DataFrame:
    schema = SCHEMAS[name]
    if list(table.columns) != list(schema):
        raise ValueError(f"{name}: columns {list(table.columns)} differ from the schema {list(schema)}")
    return table.astype(schema)


def _up_to_date(name: str, sidecar: Path, target: Path) -> bool:
    if not (sidecar.exists() and target.exists()):
        return False
    recorded = json.loads(sidecar.read_text())
    # once fetched, a raw file is identified by its registered checksum
    return (recorded.get("analysis_version") == __version__ and recorded["inputs"] == expected_inputs(name)
            and recorded.get("provenance", {}) == TABLES[name].provenance())


def prepare(only: list[str] | None = None, *, root=None, out=None, stream=sys.stderr) -> dict[str, str]:
    """Build the tables (all, or those in ``only``); returns {table: "built" | "up to date"}."""
    unknown = sorted(set(only or []) - set(TABLES))
    if unknown:
        raise ValueError(f"unknown table(s) {unknown}; known: {sorted(TABLES)}")
    out_dir = Path(out) if out else processed_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    status = {}
    for name in only or TABLES:
        sidecar = out_dir / f"{name}.json"
        target = out_dir / f"{name}.parquet"
        if _up_to_date(name, sidecar, target):
            status[name] = "up to date"
            continue
        table, inputs = TABLES[name].build(root)
        if {f.relpath: f.sha256 for f in inputs} != expected_inputs(name):
            raise RuntimeError(f"table {name}: its builder read other files than its Table declares")
        table = _conform(name, table)
        atomic_write(target, lambda tmp, table=table: table.to_parquet(tmp, index=False))
        meta = {
            "table": name,
            "rows": len(table),
            "schema": SCHEMAS[name],
            "inputs": {f.relpath: f.sha256 for f in inputs},
            "provenance": TABLES[name].provenance(),
            "analysis_version": __version__,
        }
        text = json.dumps(meta, indent=2, sort_keys=True) + "\n"
        atomic_write(sidecar, lambda tmp, text=text: Path(tmp).write_text(text))
        status[name] = "built"
        print(f"data prepare: {name}: {len(table):,} rows -> {target}", file=stream, flush=True)
    return status


def load_table(name: str, out=None) -> pd.DataFrame:
    """Read a prepared table (a clear error if it was not prepared)."""
    if name not in TABLES:
        raise ValueError(f"unknown table {name!r}; known: {sorted(TABLES)}")
    path = (Path(out) if out else processed_dir()) / f"{name}.parquet"
    if not path.exists():
        raise FileNotFoundError(f"table {name} is not prepared ({path}); run `make data`")
    return pd.read_parquet(path)


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
