"""Tidy Parquet tables built from the verified raw files (``python -m analysis data prepare``).

Each table has a fixed schema (``SCHEMAS``) and a sidecar ``<table>.json`` recording its row count and the sha256 of
every input file; preparing again is a no-op while those inputs and the package version are unchanged.

Tables (schemas in ``SCHEMAS``, row counts in data/README.md):

``paired_setups`` (collection, dataset, metric, instance, system, score)
    Score matrices of the paired paper's real evaluation setups in long format. ``TAC`` 08/09/11 and ``Dialogue``
    tc/pc are the paper's exact setups (BT-eval pickles, 13 metrics each). ``CNNDM``/``realsumm`` is a stand-in for
    the paper's CNN/DM setups: REALSumm's 100 test documents x 24 systems (14 abstractive + 11 extractive files;
    BART is listed in both with identical summaries and scores, and kept once) with
    per-summary ROUGE-1/2/L F1, BERTScore F1, MoverScore and JS-2. JS scores are *negated* Jensen-Shannon
    divergences in both sources (higher is better), kept as published. ``WMT17``/``WMT18``/``WMT19`` x language pair
    (17 to-English pairs, 39,005 segments) and ``COCO``/``val2014-4800`` (9 systems) are rebuilt from text with
    recomputed metrics (:mod:`analysis.rebuild`, :mod:`analysis.textmetrics`).
``llmfao`` (id, prompt, model_x, model_y, worker, winner, left, right)
    8,931 pairwise LLM judgments with ties (``winner`` is left / right / tie).
``sst5`` (split, sentence, label, text)
    SST-5 sentences with fine-grained labels 1-5 (train 8,544, dev 1,101, test 2,210).
``wmt_judgments``, ``wmt_segments``, ``wmt_official_rankings``, ``wmt_official_wilcoxon``, ``wmt_official_clusters``
    The WMT human-evaluation packages (:mod:`analysis.wmtdata`).
``favi_scores``, ``favi_llm_h2h``
    Human and automatic ratings for the Favi-Score chapter, and ChatGPT's head-to-head judgments
    (:mod:`analysis.favidata`).
``ceval`` (method, instance, label, texts, CEval's automatic evaluation)
    Counterfactual IMDB generations of 8 methods for 488 reviews (:func:`build_ceval`).
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__, favidata, rebuild, wmtdata
from .data import find, load_pickle, read_verified, source_files
from .files import atomic_write
from .paths import repo_root

SCHEMAS: dict[str, dict[str, str]] = {
    "paired_setups": {
        "collection": "string",
        "dataset": "string",
        "metric": "string",
        "instance": "int64",
        "system": "string",
        "score": "float64",
    },
    "llmfao": {
        "id": "int64",
        "prompt": "int64",
        "model_x": "int64",
        "model_y": "int64",
        "worker": "int64",
        "winner": "string",
        "left": "string",
        "right": "string",
    },
    "sst5": {"split": "string", "sentence": "int64", "label": "int8", "text": "string"},
    "wmt_judgments": {
        "collection": "string",
        "year": "int16",
        "pair": "string",
        "style": "string",
        "hit": "string",
        "worker": "string",
        "system": "string",
        "document": "string",
        "segment": "string",
        "item_type": "string",
        "z": "float64",
        "raw": "float64",
        "time": "float64",
    },
    "wmt_segments": {
        "collection": "string",
        "year": "int16",
        "pair": "string",
        "system": "string",
        "segment": "string",
        "raw": "float64",
        "z": "float64",
        "n": "int32",
    },
    "wmt_official_rankings": {
        "collection": "string",
        "year": "int16",
        "pair": "string",
        "rank": "int16",
        "system": "string",
        "name": "string",
        "raw": "float64",
        "z": "float64",
        "n_segments": "int32",
        "n_judgments": "int32",
    },
    "wmt_official_wilcoxon": {
        "collection": "string",
        "year": "int16",
        "pair": "string",
        "table": "string",
        "system_a": "string",
        "system_b": "string",
        "diff": "float64",
        "significance": "string",
        "p_value": "float64",
    },
    "wmt_official_clusters": {
        "collection": "string",
        "year": "int16",
        "pair": "string",
        "system": "string",
        "wins": "int16",
        "total": "int16",
        "cluster_start": "int16",
        "cluster_end": "int16",
        "end_of_cluster": "bool",
    },
    "favi_scores": {
        "domain": "string",
        "dataset": "string",
        "item": "string",
        "system": "string",
        "rater": "string",
        "rater_kind": "string",
        "score": "float64",
    },
    "favi_llm_h2h": {
        "aspect": "string",
        "system_1": "string",
        "system_2": "string",
        "document": "string",
        "order": "string",
        "response": "string",
        "preferred": "string",
        "expert_1": "float64",
        "expert_2": "float64",
    },
    "ceval": {
        "method": "string",
        "instance": "int64",
        "label": "string",
        "orig_text": "string",
        "gen_text": "string",
        "gen_text_2": "string",
        "aligned": "bool",
        "pred_orig_label": "Int8",
        "pred_gen_label": "Int8",
        "orig_contrast_prob": "float64",
        "gen_contrast_prob": "float64",
        "distance": "float64",
        "diversity": "float64",
        "perplexity": "float64",
        "diff_prob": "float64",
    },
}

REALSUMM_METRICS = {
    "rouge_1_f_score": "ROUGE_1",
    "rouge_2_f_score": "ROUGE_2",
    "rouge_l_f_score": "ROUGE_L",
    "bert_f_score": "BERTScore",
    "mover_score": "MoverScore",
    "js-2": "JS_2",
}


def processed_dir() -> Path:
    return repo_root() / "data" / "processed"


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
    cnndm = pd.DataFrame(rows, columns=list(SCHEMAS["paired_setups"]))
    # REALSumm lists BART in both abs.pkl and ext.pkl with identical summaries and scores: keep one copy, but never
    # merge two different score sets silently
    keys = ["collection", "dataset", "metric", "instance", "system"]
    if cnndm.duplicated(keys).any() and not cnndm.duplicated(keys).eq(cnndm.duplicated()).all():
        raise ValueError("REALSumm lists a system twice with different scores")
    parts.append(cnndm.drop_duplicates())
    wmt, wmt_inputs = rebuild.build_wmt(root)
    coco, coco_inputs = rebuild.build_coco(root)
    parts += [wmt, coco]
    table = pd.concat(parts, ignore_index=True)
    keys = ["collection", "dataset", "metric", "instance", "system"]
    if table.duplicated(keys).any():
        raise ValueError("paired_setups has duplicated (collection, dataset, metric, instance, system) rows")
    # systems stay in source column order within each instance: Elo, TrueSkill and ties="loss" depend on it
    order = ["collection", "dataset", "metric", "instance"]
    return table.sort_values(order, kind="stable").reset_index(drop=True), inputs + realsumm + wmt_inputs + coco_inputs


def build_llmfao(root=None) -> tuple[pd.DataFrame, list]:
    f = find("llmfao", "llmfao.csv")
    table = pd.read_csv(io.BytesIO(read_verified(f, root)))
    bad = set(table["winner"]) - {"left", "right", "tie"}
    if bad:
        raise ValueError(f"llmfao.csv has unknown winner values {sorted(bad)}")
    return table, [f]


def build_sst5(root=None) -> tuple[pd.DataFrame, list]:
    files = [find("sst5", f"data/sst/sst_{split}.txt") for split in ("train", "dev", "test")]
    parts = []
    for split, f in zip(("train", "dev", "test"), files):
        lines = read_verified(f, root).decode("utf-8").splitlines()
        labels, texts = [], []
        for number, line in enumerate(lines, 1):
            head, sep, text = line.partition("\t")
            if not sep or not head.startswith("__label__"):
                raise ValueError(f"{f.path}:{number}: expected '__label__N<TAB>text'")
            labels.append(int(head.removeprefix("__label__")))
            texts.append(text)
        parts.append(pd.DataFrame({"split": split, "sentence": range(len(texts)), "label": labels, "text": texts}))
    return pd.concat(parts, ignore_index=True), files


CEVAL_AUTO = {  # results_auto_eval.csv column -> ceval column
    "pred_orig_labels": "pred_orig_label",
    "pred_gen_labels": "pred_gen_label",
    "orig_contrast_probs": "orig_contrast_prob",
    "predict_contrast_prob": "gen_contrast_prob",
    "distance": "distance",
    "diversity": "diversity",
    "perplexity": "perplexity",
    "diff_probs": "diff_prob",
}


def _words(text) -> set[str]:
    text = re.sub(r"<unk>|<br\s*/?>", " ", str(text).lower())
    return set(re.findall(r"[a-z0-9]+", text))


def build_ceval(root=None) -> tuple[pd.DataFrame, list]:
    """CEval's IMDB counterfactuals: one row per (method, instance), instance = row of the 488-review test set.

    ``label`` is the gold sentiment of the original review. The methods' files list the reviews in the test set's
    order but with their own tokenisation (CREST writes ``<unk>``, LLaMA drops ``<br />``), so ``aligned`` records
    whether a row's original text shares at least half of its words with the test set's review (one MICE row does
    not: upstream it holds another review). The automatic-evaluation columns come from ``results_auto_eval.csv``,
    which omits rows with a missing generation; those stay missing here.
    """
    files = source_files("ceval")
    original = find("ceval", "datasets/imdb/expert/test_original.tsv")
    reviews = pd.read_csv(io.BytesIO(read_verified(original, root)), sep="\t")
    if list(reviews.columns) != ["Sentiment", "Text"]:
        raise ValueError(f"{original.path}: expected the columns Sentiment, Text")
    reference_words = reviews["Text"].map(_words)
    parts = []
    for method in sorted({f.path.split("/")[2] for f in files if f.path.startswith("results/")}):
        results = find("ceval", f"results/imdb/{method}/results.csv")
        auto = find("ceval", f"results/imdb/{method}/results_auto_eval.csv")
        gen = pd.read_csv(io.BytesIO(read_verified(results, root)))
        if len(gen) != len(reviews):
            raise ValueError(f"{results.path} has {len(gen)} rows for {len(reviews)} reviews")
        evaluated = pd.read_csv(io.BytesIO(read_verified(auto, root)))
        keys = ["orig_text", "gen_text", "gen_text_2"]
        merged = gen[keys].fillna("\0").reset_index().merge(
            evaluated[keys + list(CEVAL_AUTO)].fillna({k: "\0" for k in keys}), on=keys, how="left",
            validate="one_to_one", indicator=True)
        if (merged["_merge"] == "both").sum() != len(evaluated):
            raise ValueError(f"{auto.path}: some rows match no generation of {results.path}")
        merged = merged.sort_values("index")
        overlap = [len(a & b) / max(1, len(a | b)) for a, b in zip(gen["orig_text"].map(_words), reference_words)]
        parts.append(pd.DataFrame({
            "method": method,
            "instance": np.arange(len(gen)),
            "label": reviews["Sentiment"],
            "orig_text": gen["orig_text"],
            "gen_text": gen["gen_text"],
            "gen_text_2": gen["gen_text_2"],
            "aligned": np.array(overlap) >= 0.5,
            **{new: merged[old].to_numpy() for old, new in CEVAL_AUTO.items()},
        }))
    return pd.concat(parts, ignore_index=True), files


BUILDERS = {
    "paired_setups": build_paired_setups,
    "llmfao": build_llmfao,
    "sst5": build_sst5,
    "wmt_judgments": wmtdata.build_judgments,
    "wmt_segments": wmtdata.build_segments,
    "wmt_official_rankings": wmtdata.build_rankings,
    "wmt_official_wilcoxon": wmtdata.build_wilcoxon,
    "wmt_official_clusters": wmtdata.build_clusters,
    "favi_scores": favidata.build_scores,
    "favi_llm_h2h": favidata.build_llm_h2h,
    "ceval": build_ceval,
}
#: The registry files each table is built from: a source name (all of its files) or (source, regex searched in the
#: file's path). A table is up to date when its recorded inputs are exactly these files with these checksums, and
#: a builder that reads any other set of files is an error.
BUILDER_SOURCES = {
    "paired_setups": ("bt-eval", "realsumm", "wmt17-19", "coco-systems", "coco-references"),
    "llmfao": ("llmfao",),
    "sst5": ("sst5",),
    "wmt_judgments": (
        ("wmt18-humaneval", r"good-stnd-redup|ad-seg-scores"),
        ("wmt21-humaneval", r"good-stnd-redup|ad-good-raw-redup|ad-seg-scores"),
        ("wmt22-humaneval", r"good-stnd-redup|ad-seg-scores"),
    ),
    "wmt_segments": tuple((s, r"ad-seg-scores") for s in ("wmt18-humaneval", "wmt20-da", "wmt21-humaneval",
                                                         "wmt22-humaneval")),
    "wmt_official_rankings": (
        ("wmt18-humaneval", r"ad-sys-"), "wmt19-rankings", ("wmt20-da", r"ad-sys-scores"),
        ("wmt21-humaneval", r"ad-sys-"), ("wmt22-humaneval", r"ad-sys-"),
    ),
    "wmt_official_wilcoxon": tuple((s, r"wilcoxon|adwilcox") for s in ("wmt18-humaneval", "wmt20-da",
                                                                        "wmt21-humaneval", "wmt22-humaneval")),
    "wmt_official_clusters": (("wmt18-humaneval", r"clusters"), ("wmt21-humaneval", r"clusters")),
    "favi_scores": ("mqm-wmt22-ende", "wmt22-ende-text", "gemba", "mtme-wmt22-zhen", "mqm-wmt21", "wmt21-ende-text",
                    "summeval", "usr", ("bt-eval", r"Dialogue")),
    "favi_llm_h2h": ("llm-summeval",),
    "ceval": ("ceval",),
}


def expected_inputs(name: str) -> dict[str, str]:
    wanted = {}
    for entry in BUILDER_SOURCES[name]:
        source, pattern = (entry, None) if isinstance(entry, str) else entry
        wanted.setdefault(source, []).append(pattern)
    return {f.relpath: f.sha256 for source, patterns in wanted.items() for f in source_files(source)
            if any(p is None or re.search(p, f.path) for p in patterns)}


def _conform(name: str, table: pd.DataFrame) -> pd.DataFrame:
    schema = SCHEMAS[name]
    if list(table.columns) != list(schema):
        raise ValueError(f"{name}: columns {list(table.columns)} differ from the schema {list(schema)}")
    return table.astype(schema)


def prepare(only: list[str] | None = None, *, root=None, out=None, stream=sys.stderr) -> dict[str, str]:
    """Build the tables (all, or those in ``only``); returns {table: "built" | "up to date"}."""
    unknown = sorted(set(only or []) - set(BUILDERS))
    if unknown:
        raise ValueError(f"unknown table(s) {unknown}; known: {sorted(BUILDERS)}")
    out_dir = Path(out) if out else processed_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    status = {}
    for name in only or BUILDERS:
        sidecar = out_dir / f"{name}.json"
        target = out_dir / f"{name}.parquet"
        if sidecar.exists() and target.exists():
            recorded = json.loads(sidecar.read_text())
            # once fetched, a raw file is identified by its registered checksum
            if recorded.get("analysis_version") == __version__ and recorded["inputs"] == expected_inputs(name):
                status[name] = "up to date"
                continue
        table, inputs = BUILDERS[name](root)
        if {f.relpath: f.sha256 for f in inputs} != expected_inputs(name):
            raise RuntimeError(f"table {name}: its builder read other files than BUILDER_SOURCES declares")
        table = _conform(name, table)
        atomic_write(target, lambda tmp: table.to_parquet(tmp, index=False))
        meta = {
            "table": name,
            "rows": len(table),
            "schema": SCHEMAS[name],
            "inputs": {f.relpath: f.sha256 for f in inputs},
            "analysis_version": __version__,
        }
        atomic_write(sidecar, lambda tmp: Path(tmp).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n"))
        status[name] = "built"
        print(f"data prepare: {name}: {len(table):,} rows -> {target}", file=stream, flush=True)
    return status


def load_table(name: str, out=None) -> pd.DataFrame:
    """Read a prepared table (a clear error if it was not prepared)."""
    if name not in SCHEMAS:
        raise ValueError(f"unknown table {name!r}; known: {sorted(SCHEMAS)}")
    path = (Path(out) if out else processed_dir()) / f"{name}.parquet"
    if not path.exists():
        raise FileNotFoundError(f"table {name} is not prepared ({path}); run `make data`")
    return pd.read_parquet(path)


def score_matrix(table: pd.DataFrame, collection: str, dataset: str, metric: str) -> pd.DataFrame:
    """One setup of ``paired_setups`` as a score matrix (rows = instances, columns = systems, source order kept)."""
    sel = table[(table["collection"] == collection) & (table["dataset"] == dataset) & (table["metric"] == metric)]
    if sel.empty:
        raise ValueError(f"no setup {collection}/{dataset}/{metric} in the table")
    matrix = sel.pivot(index="instance", columns="system", values="score")
    return matrix[pd.unique(sel["system"])].rename_axis(index=None, columns=None)  # source order, not alphabetical
