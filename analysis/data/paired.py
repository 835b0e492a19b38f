"""The ``paired_setups`` table: the paired paper's real evaluation setups (Peyrard et al. 2021, §5).

One row per (collection, dataset, metric, instance, system) score, in long format. ``TAC`` 08/09/11 and ``Dialogue``
tc/pc are the paper's exact setups (BT-eval pickles, 13 metrics each). ``CNNDM``/``realsumm`` is a stand-in for
the paper's CNN/DM setups: REALSumm's 100 test documents x 24 systems (14 abstractive + 11 extractive files; BART is
listed in both with identical summaries and scores, and kept once) with per-summary ROUGE-1/2/L F1, BERTScore F1,
MoverScore and JS-2. JS scores are *negated* Jensen-Shannon divergences in both sources (higher is better), kept as
published. ``WMT17``/``WMT18``/``WMT19`` x language pair and ``COCO``/``val2014-4800`` are rebuilt from text with
recomputed metrics, as follows.

The paper's MT and captioning score matrices were never published; their inputs were. Here each setup's metric
scores are recomputed from the system outputs and references (:mod:`analysis.textmetrics` states every metric's
definition), in the long format of ``paired_setups``.

* ``WMT17`` / ``WMT18`` / ``WMT19`` (collection) x language pair (dataset, e.g. ``de-en``): newstest to-English,
  17 pairs, 39,005 segments; one instance per segment, one system per submitted output file (system name = the
  file name without ``newstest20xx.`` and the pair suffix, e.g. ``uedin-nmt.4723``).
* ``COCO`` / ``val2014-4800``: 9 captioning systems x the 4,800 val2014 images that have reference captions here.

Recomputing is the slow step of ``make data`` (about 470,000 segment scorings). It runs one language pair per
task on ``jobs`` processes, reports progress, and caches each pair's scores under ``data/processed/cache/``, keyed
on the sha256 of its input files, the metric library versions and :data:`METRICS_VERSION`: a re-run with the same
inputs reads the cache, and an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from ..paths import processed_dir
from ..processes import default_workers, process_pool
from . import cache
from .pickles import load_pickle
from .raw import read_lines, read_verified
from .registry import DataError, DataFile, Table, find, source_files
from .textmetrics import SEGMENT_METRICS, SegmentScorer, caption_scores, library_versions, metric_signatures

METRICS_VERSION = "2"  # bump when a metric changes; 2: JS summed in sorted order (hash-seed independent)
WMT_SOURCE = "wmt17-19"
_OUTPUT = re.compile(r"WMT(?P<year>\d\d)/system-outputs/(?P<pair>[a-z]{2}-en)/"
                     r"newstest20\d\d\.(?P<system>.+)\.(?P=pair)$")
_REFERENCE = re.compile(r"WMT(?P<year>\d\d)/references/newstest20\d\d-(?P<src>[a-z]{2})en-ref\.en$")
SCHEMA = {
    "collection": "string",
    "dataset": "string",
    "metric": "string",
    "instance": "int64",
    "system": "string",
    "score": "float64",
}
COLUMNS = list(SCHEMA)


def wmt_inventory() -> dict[tuple[str, str], tuple[DataFile, list[tuple[str, DataFile]]]]:
    """{(collection, pair): (reference file, [(system, output file), ...])} from the registry, sorted by name."""
    references, outputs = {}, {}
    for f in source_files(WMT_SOURCE):
        if m := _REFERENCE.match(f.path):
            references[(f"WMT{m['year']}", f"{m['src']}-en")] = f
        elif m := _OUTPUT.match(f.path):
            outputs.setdefault((f"WMT{m['year']}", m["pair"]), []).append((m["system"], f))
    if set(references) != set(outputs):
        raise ValueError(f"WMT pairs with a reference but no outputs or vice versa: {set(references) ^ set(outputs)}")
    return {key: (references[key], sorted(outputs[key])) for key in sorted(references)}


def _cache_key(inputs: list[DataFile], what: str) -> str:
    payload = json.dumps(
        {"what": what, "inputs": sorted(f.sha256 for f in inputs), "libraries": library_versions(),
         "metrics_version": METRICS_VERSION, "implementation": SegmentScorer.IMPLEMENTATION},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _score_pair(collection: str, pair: str, reference: list[str], outputs: list[tuple[str, list[str]]]) -> pd.DataFrame:
    scorer = SegmentScorer()
    parts = []
    for system, hypotheses in outputs:
        values = scorer.score_many(hypotheses, reference)
        frame = pd.DataFrame(values, columns=list(SEGMENT_METRICS))
        frame.insert(0, "instance", np.arange(len(reference)))
        frame.insert(1, "system", system)
        parts.append(frame)
    wide = pd.concat(parts, ignore_index=True)
    long = wide.melt(id_vars=["instance", "system"], var_name="metric", value_name="score")
    long.insert(0, "dataset", pair)
    long.insert(0, "collection", collection)
    return long[COLUMNS]


def build_wmt(root=None, cache_dir: Path | None = None, jobs: int | None = None,
              stream=sys.stderr) -> tuple[pd.DataFrame, list]:
    """The 17 WMT setups with :data:`~analysis.textmetrics.SEGMENT_METRICS`, recomputed (or read from the cache)."""
    cache_dir = Path(cache_dir) if cache_dir else processed_dir() / "cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    jobs = jobs or default_workers()
    inventory = wmt_inventory()
    results: dict[tuple[str, str], pd.DataFrame] = {}
    todo = {}
    targets: dict[tuple[str, str], Path] = {}
    inputs = []
    for (collection, pair), (ref_file, outputs) in inventory.items():
        files = [ref_file] + [f for _, f in outputs]
        inputs += files
        target = targets[(collection, pair)] = (cache_dir / f"wmt-{collection}-{pair}-"
                                                f"{_cache_key(files, 'wmt-segment')}.parquet")
        if (cached := cache.read(target)) is not None:
            results[(collection, pair)] = cached
            continue
        reference = read_lines(ref_file, root)
        texts = []
        for system, f in outputs:
            lines = read_lines(f, root)
            if len(lines) != len(reference):
                raise DataError(f"{f.path} has {len(lines)} segments but the reference {ref_file.path} has "
                                f"{len(reference)}: the files are not aligned")
            texts.append((system, lines))
        todo[(collection, pair)] = (target, reference, texts)
    if todo:
        n_segments = sum(len(ref) * len(texts) for _, ref, texts in todo.values())
        print(f"data prepare: scoring {n_segments:,} WMT segments in {len(todo)} language pairs on {jobs} "
              f"process(es); cached in {cache_dir}", file=stream, flush=True)
        start = time.perf_counter()
        done = 0
        with process_pool(jobs) as pool:
            futures = {key: pool.submit(_score_pair, *key, ref, texts) for key, (_, ref, texts) in todo.items()}
            for key, future in futures.items():
                frame = future.result()
                target = todo[key][0]
                cache.write(target, frame)
                results[key] = frame
                done += len(todo[key][1]) * len(todo[key][2])
                print(f"  {key[0]} {key[1]}: {len(todo[key][2])} systems x {len(todo[key][1])} segments "
                      f"[{done:,}/{n_segments:,}, {time.perf_counter() - start:.0f} s]", file=stream, flush=True)
    table = pd.concat([results[key] for key in inventory], ignore_index=True)
    cache.prune(cache_dir, "wmt-", {targets[key].name for key in inventory})
    return table, inputs


COCO_REFERENCES = ("coco-references", "captions_val2014.json")


def _coco_system(system: str, references: dict[int, list[str]], candidates: dict[int, str]) -> pd.DataFrame:
    scores = caption_scores(references, candidates)
    long = scores.reset_index(names="instance").melt(id_vars="instance", var_name="metric", value_name="score")
    long.insert(1, "system", system)
    return long


def build_coco(root=None, cache_dir: Path | None = None, jobs: int | None = None,
               stream=sys.stderr) -> tuple[pd.DataFrame, list]:
    """The COCO stand-in: 9 systems x the images with references, with :data:`CAPTION_METRICS` (one system per
    process; a system's scores depend only on its own captions and the references)."""
    cache_dir = Path(cache_dir) if cache_dir else processed_dir() / "cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    ref_file = find(*COCO_REFERENCES)
    system_files = source_files("coco-systems")
    files = [ref_file, *system_files]
    target = cache_dir / f"coco-{_cache_key(files, 'coco-caption')}.parquet"
    cache.prune(cache_dir, "coco-", {target.name})
    if (cached := cache.read(target)) is not None:
        return cached, files
    start = time.perf_counter()
    annotations = json.loads(read_verified(ref_file, root))
    references: dict[int, list[str]] = {}
    for a in annotations["annotations"]:
        references.setdefault(int(a["image_id"]), []).append(a["caption"])
    systems = {}
    for f in system_files:
        candidates: dict[int, str] = {}
        for item in json.loads(read_verified(f, root)):
            candidates.setdefault(int(item["image_id"]), item["caption"])  # first caption if a system gave several
        systems[f.path.split("/")[2]] = candidates  # Data/Systems/<system>/Val/<file>.json
    parts = []
    with process_pool(jobs or default_workers()) as pool:
        futures = {system: pool.submit(_coco_system, system, references, candidates)
                   for system, candidates in systems.items()}
        for system, future in futures.items():
            parts.append(future.result())
            print(f"  COCO {system}: {parts[-1]['instance'].nunique():,} images [{time.perf_counter() - start:.0f} s]",
                  file=stream, flush=True)
    table = pd.concat(parts, ignore_index=True)
    table.insert(0, "dataset", f"val2014-{len(references)}")
    table.insert(0, "collection", "COCO")
    table = table[COLUMNS]
    cache.write(target, table)
    return table, files


REALSUMM_METRICS = {
    "rouge_1_f_score": "ROUGE_1",
    "rouge_2_f_score": "ROUGE_2",
    "rouge_l_f_score": "ROUGE_L",
    "bert_f_score": "BERTScore",
    "mover_score": "MoverScore",
    "js-2": "JS_2",
}


def _long(frame: pd.DataFrame, collection: str, dataset: str, metric: str) -> pd.DataFrame:
    out = frame.rename_axis(index="instance", columns="system").stack().rename("score").reset_index()
    out.insert(0, "metric", metric)
    out.insert(0, "dataset", dataset)
    out.insert(0, "collection", collection)
    return out


def build_paired_setups(root=None) -> tuple[pd.DataFrame, list]:
    inputs = [find("bt-eval", "Data/TAC_dataframe.pickle"), find("bt-eval", "Data/Dialogue_dataframe.pickle")]
    parts = []
    for f in inputs:
        content = load_pickle(f, root)
        for collection, datasets in content.items():
            for dataset in sorted(datasets):
                for metric, frame in datasets[dataset].items():
                    parts.append(_long(frame, collection, dataset, metric))
    realsumm = [find("realsumm", "scores_dicts/abs.pkl"), find("realsumm", "scores_dicts/ext.pkl")]
    rows = []
    for f in realsumm:
        for doc_id, doc in load_pickle(f, root).items():
            for system, summary in doc["system_summaries"].items():
                name = system.removesuffix(".txt")
                for key, metric in REALSUMM_METRICS.items():
                    rows.append(("CNNDM", "realsumm", metric, int(doc_id), name, float(summary["scores"][key])))
    cnndm = pd.DataFrame(rows, columns=COLUMNS)
    # REALSumm lists BART in both abs.pkl and ext.pkl with identical summaries and scores: keep one copy, but never
    # merge two different score sets silently
    keys = ["collection", "dataset", "metric", "instance", "system"]
    if (cnndm.duplicated(keys) & ~cnndm.duplicated()).any():
        raise ValueError("REALSumm lists a system twice with different scores")
    parts.append(cnndm.drop_duplicates())
    wmt, wmt_inputs = build_wmt(root)
    coco, coco_inputs = build_coco(root)
    parts += [wmt, coco]
    table = pd.concat(parts, ignore_index=True)
    if table.duplicated(keys).any():
        raise ValueError("paired_setups has duplicated (collection, dataset, metric, instance, system) rows")
    # systems stay in source column order within each instance: Elo, TrueSkill and ties="loss" depend on it
    order = ["collection", "dataset", "metric", "instance"]
    return table.sort_values(order, kind="stable").reset_index(drop=True), inputs + realsumm + wmt_inputs + coco_inputs


#: the columns that name one real setup of the ``paired_setups`` table
SETUP_KEYS = ["collection", "dataset", "metric"]


def iter_setups(table: pd.DataFrame, collections=None) -> Iterator[tuple[tuple[str, str, str], pd.DataFrame]]:
    """Yield ``((collection, dataset, metric), score matrix)`` for every setup of the ``paired_setups`` table, in the
    table's order, with systems in the source's column order (which Elo, TrueSkill and the paper's tie rule depend
    on). ``collections`` keeps only those; one the table lacks is an error, as is a setup that is not complete."""
    missing = set(SETUP_KEYS + ["instance", "system", "score"]) - set(table.columns)
    if missing:
        raise ValueError(f"the table lacks columns {sorted(missing)}; expected the paired_setups schema")
    if collections is not None:
        unknown = sorted(set(collections) - set(table["collection"].unique()))
        if unknown:
            raise ValueError(f"no setups for collections {unknown}")
        table = table[table["collection"].isin(list(collections))]
    for key, group in table.groupby(SETUP_KEYS, sort=False, observed=True):
        systems = pd.unique(group["system"])
        matrix = group.pivot(index="instance", columns="system", values="score")[systems]
        if matrix.isna().any().any():
            raise ValueError(f"setup {key} is not a complete score matrix (some system lacks some instance)")
        yield tuple(key), matrix.rename_axis(index=None, columns=None)


TABLES = (
    Table("paired_setups", SCHEMA, ("bt-eval", "realsumm", "wmt17-19", "coco-systems", "coco-references"),
          build_paired_setups, provenance=lambda: metric_signatures() | {"metrics_version": METRICS_VERSION,
                                                     "implementation": SegmentScorer.IMPLEMENTATION}),
)
