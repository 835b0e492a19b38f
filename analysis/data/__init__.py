"""The data layer: registry, verified fetching, safe unpickling, tidy tables, and the papers' published numbers.

============================  ========================================================================================
module                        what it holds
============================  ========================================================================================
:mod:`.registry`              the pinned upstream files (``data/registry.toml``) and the :class:`Table` declaration
:mod:`.raw`                 fetching from the mirror or upstream with checksums, atomic writes; verified reading
:mod:`.pickles`               the allow-list unpickler
:mod:`.tables`                ``prepare`` / ``load_table``: every table, its sidecar, the no-op check
:mod:`.paired`                ``paired_setups`` (BT-eval, REALSumm, WMT17-19 and COCO rebuilt with :mod:`.textmetrics`)
:mod:`.wmt`                   ``wmt_judgments``, ``wmt_segments``, ``wmt_official_*``
:mod:`.favi`                  ``favi_scores``, ``favi_llm_h2h``
:mod:`.gvp`                   ``llmfao``, ``sst5``, ``ceval`` (global vs pairwise)
:mod:`.published`             values typed in from the papers (``data/published/<paper>.toml``)
============================  ========================================================================================

The data layer imports no method and no chapter code (a test checks it), so it can be used, and tested, alone.
"""

from .pickles import PICKLE_ALLOW, load_pickle
from .raw import MIRROR_ENV, default_mirror, fetch, fetch_file, read_lines, read_verified, verify
from .registry import DataError, DataFile, Source, Table, find, load_registry, select, source_files
from .tables import TABLES, load_table, prepare, score_matrix

__all__ = [
    "MIRROR_ENV", "PICKLE_ALLOW", "TABLES", "DataError", "DataFile", "Source", "Table", "default_mirror", "fetch",
    "fetch_file", "find", "load_pickle", "load_registry", "load_table", "prepare", "read_lines", "read_verified",
    "score_matrix", "select", "source_files", "verify",
]
