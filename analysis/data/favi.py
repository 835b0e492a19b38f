"""The Favi-Score data as tidy tables: ``favi_scores`` (human and automatic ratings) and ``favi_llm_h2h``.

``favi_scores`` has one row per (domain, dataset, item, system, rater) with the rating as published; an item a rater
did not rate is kept with a missing score, never a zero. Higher is better for every rater (MQM is a negated error
penalty, 0 = perfect). Datasets:

================  ===============  ============================================================================
domain            dataset          raters
================  ===============  ============================================================================
machine           ``wmt22-ende``   MQM (17 systems x 2,037 segments; 1,315 rated for 16), SEScoreX, GEMBA-DA of
translation                        ChatGPT and GPT-4, and sentence BLEU and chrF computed here against reference A
                                   for the 10 systems whose text is published (9 MT systems and reference B)
machine           ``wmt22-zhen``   MQM (20 x 1,875), BLEU, chrF, BLEURT-20, COMET-22, UniTE, MetricX-XL,
translation                        COMETKiwi (as published by mt-metrics-eval), GEMBA-DA of ChatGPT and GPT-4
machine           ``wmt21-ende``   MQM (17 x 1,002; 527 rated), sentence BLEU and chrF computed here against
translation                        reference C for the 8 MT systems and references A and D
summarization     ``summeval``     mean expert Likert rating per aspect (4 raters ``expert_<aspect>``), and
                                   BLEU, chrF, ROUGE-1/2/L computed here against the 11 references
dialogue          ``usr-tc``,      USR Overall (mean of 3 annotators, 1-5) and the 13 metric scores of the
                  ``usr-pc``       paired paper's Dialogue setups (BT-eval), joined on context and response
================  ===============  ============================================================================

Sentence BLEU is sacrebleu's ``sentence_bleu`` (13a tokenisation, exponential smoothing, effective order) and chrF
is sacrebleu's chrF (character 6-grams, beta 2), both with several references where there are several.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd

from ..processes import process_pool
from .pickles import load_pickle
from .raw import read_lines, read_table, read_verified
from .registry import DataError, DataFile, Table, find, source_files
from .scorefile_tables import ScoreFileError
from .scorefiles import parse_mtme_lines
from .textmetrics import chrf_signature, rouge_tokenizer, sentence_chrf, sentence_signature

SCHEMA = {
    "domain": "string",
    "dataset": "string",
    "item": "string",
    "system": "string",
    "rater": "string",
    "rater_kind": "string",
    "score": "float64",
}
COLUMNS = list(SCHEMA)
MT = "machine translation"

WMT22_ZHEN_METRICS = {  # file stem -> rater name
    "BLEU-refA": "BLEU", "chrF-refA": "chrF", "BLEURT-20-refA": "BLEURT-20", "COMET-22-refA": "COMET-22",
    "UniTE-refA": "UniTE", "metricx_xl_MQM_2020-refA": "MetricX-XL", "COMETKiwi-src": "COMETKiwi",
}
GEMBA = {"Chat": "GEMBA-DA-ChatGPT", "GPT4": "GEMBA-DA-GPT4"}
#: BT-eval's Dialogue systems are the USR responses other than the ground truth (the reference), in USR's order
USR_FILES = {"usr-tc": ("data/usr_topical_chat.json", "tc"), "usr-pc": ("data/usr_percona_chat.json", "pc")}
USR_REFERENCE = "Original Ground Truth"
SUMMEVAL_ASPECTS = ("coherence", "consistency", "fluency", "relevance")


def _rows(domain, dataset, rater, kind, frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with columns item, system, score -> rows of COLUMNS."""
    out = frame[["item", "system", "score"]].copy()
    out["item"] = out["item"].astype(str)
    out.insert(0, "dataset", dataset)
    out.insert(0, "domain", domain)
    out.insert(4, "rater", rater)
    out.insert(5, "rater_kind", kind)
    return out[COLUMNS]


def read_mtme_scores(f: DataFile, root=None) -> pd.DataFrame:
    """An mt-metrics-eval ``.seg.score`` file (``system<TAB>score`` per line, each system's segments in source
    order; ``None`` = not rated) as (system, item, score) (:func:`~analysis.data.scorefiles.parse_mtme_lines`)."""
    try:
        frame = parse_mtme_lines(read_lines(f, root), f.path)
    except ScoreFileError as exc:
        raise DataError(str(exc)) from None
    sizes = frame.groupby("system", sort=False).size()
    if sizes.nunique() != 1:
        raise DataError(f"{f.path}: systems have different numbers of segments {sizes.to_dict()}")
    return frame


def sentence_bleu_chrf(hypotheses: list[str], references: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Sentence BLEU (sacrebleu) and chrF (:func:`~analysis.data.textmetrics.sentence_chrf`) of each hypothesis
    against its references."""
    from sacrebleu.metrics import BLEU  # imported here: reading a user's score file needs none of it
    bleu = BLEU(effective_order=True)
    b = np.array([bleu.sentence_score(h, refs).score for h, refs in zip(hypotheses, references)])
    return b, sentence_chrf(hypotheses, references)


def _lexical_mt(dataset: str, reference: DataFile, outputs: dict[str, DataFile], root) -> tuple[list, list]:
    ref = read_lines(reference, root)
    parts = []
    for system, f in outputs.items():
        hyp = read_lines(f, root)
        if len(hyp) != len(ref):
            raise DataError(f"{f.path} has {len(hyp)} segments but {reference.path} has {len(ref)}")
        bleu, chrf = sentence_bleu_chrf(hyp, [[r] for r in ref])
        for rater, values in (("BLEU", bleu), ("chrF", chrf)):
            frame = pd.DataFrame({"item": np.arange(len(ref)), "system": system, "score": values})
            parts.append(_rows(MT, dataset, rater, "metric", frame))
    return parts, [reference, *outputs.values()]


def _wmt22_ende_outputs() -> dict[str, DataFile]:
    """WMT22 en-de: the registered output of every system (named as in the MQM file) and reference B."""
    text = source_files("wmt22-ende-text")
    outputs = {re.search(r"\.hyp\.(.+)\.de$", f.path).group(1): f for f in text if ".hyp." in f.path}
    outputs["refB"] = find("wmt22-ende-text", "txt/references/generaltest2022.en-de.ref.B.de")
    return outputs


def _wmt22_ende(root) -> tuple[list, list]:
    parts, inputs = [], []
    for path, rater, kind in (("rescale_data/seg/de.mqm", "MQM", "human"),
                              ("rescale_data/seg/de.sescorex", "SEScoreX", "metric")):
        f = find("mqm-wmt22-ende", path)
        parts.append(_rows(MT, "wmt22-ende", rater, kind, read_mtme_scores(f, root)))
        inputs.append(f)
    for model, rater in GEMBA.items():
        f = find("gemba", f"mt-metrics-eval-v2/wmt22/metric-scores/en-de/GEMBA-{model}-DA-refA.seg.score")
        parts.append(_rows(MT, "wmt22-ende", rater, "llm", read_mtme_scores(f, root)))
        inputs.append(f)
    text = source_files("wmt22-ende-text")
    outputs = _wmt22_ende_outputs()
    more, used = _lexical_mt("wmt22-ende", find("wmt22-ende-text", "txt/references/generaltest2022.en-de.ref.A.de"),
                             outputs, root)
    inputs += used + [f for f in text if f not in used]  # the source text is registered for readers, not scored
    return parts + more, inputs


def _wmt22_zhen(root) -> tuple[list, list]:
    f = find("mtme-wmt22-zhen", "raw_wmt22/human-scores/zh-en.mqm.seg.score")
    parts, inputs = [_rows(MT, "wmt22-zhen", "MQM", "human", read_mtme_scores(f, root))], [f]
    for stem, rater in WMT22_ZHEN_METRICS.items():
        f = find("mtme-wmt22-zhen", f"raw_wmt22/metric-scores/zh-en_all/{stem}.seg.score")
        parts.append(_rows(MT, "wmt22-zhen", rater, "metric", read_mtme_scores(f, root)))
        inputs.append(f)
    for model, rater in GEMBA.items():
        f = find("gemba", f"mt-metrics-eval-v2/wmt22/metric-scores/zh-en/GEMBA-{model}-DA-refA.seg.score")
        parts.append(_rows(MT, "wmt22-zhen", rater, "llm", read_mtme_scores(f, root)))
        inputs.append(f)
    inputs.append(find("mtme-wmt22-zhen", "raw_wmt22/documents/zh-en.docs"))  # document ids (wmt22_zhen_documents)
    return parts, inputs


#: WMT21 en-de: the MQM file's system names -> the names of the published outputs
WMT21_TEXT_NAMES = {"Nemo": "NVIDIA-NeMo"}


def _wmt21_ende_outputs(systems) -> dict[str, DataFile]:
    """WMT21 en-de: the registered output of each of ``systems`` (the MQM file's names) that has one: the 8 MT
    systems and references A and D (reference C is the metrics' reference)."""
    text = source_files("wmt21-ende-text")
    by_name = {re.search(r"\.hyp\.(.+)\.de$", t.path).group(1): t for t in text if ".hyp." in t.path}
    outputs = {}
    for system in systems:
        name = WMT21_TEXT_NAMES.get(system, system)
        if name in by_name:
            outputs[system] = by_name[name]
        elif re.fullmatch(r"ref-[AD]", system):
            outputs[system] = find("wmt21-ende-text", f"txt/references/newstest2021.en-de.ref.{system[-1]}.de")
    if len(outputs) != 10:
        raise DataError(f"wmt21-ende: expected the text of 8 MT systems and 2 references, found {sorted(outputs)}")
    return outputs


def _wmt21_ende(root) -> tuple[list, list]:
    f = find("mqm-wmt21", "newstest2021/ende/mqm_newstest2021_ende.avg_seg_scores.tsv")
    mqm = read_table(f, root, sep=r"\s+", na_values=["None"],
                      dtype={"system": str})
    if list(mqm.columns) != ["system", "mqm_avg_score", "seg_id"]:
        raise DataError(f"{f.path}: unexpected columns {list(mqm.columns)}")
    mqm = pd.DataFrame({"item": mqm["seg_id"] - 1, "system": mqm["system"], "score": mqm["mqm_avg_score"]})
    parts, inputs = [_rows(MT, "wmt21-ende", "MQM", "human", mqm)], [f]
    text = source_files("wmt21-ende-text")
    outputs = _wmt21_ende_outputs(pd.unique(mqm["system"]))
    more, used = _lexical_mt("wmt21-ende", find("wmt21-ende-text", "txt/references/newstest2021.en-de.ref.C.de"),
                             outputs, root)
    inputs += used + [t for t in text if t not in used]
    return parts + more, inputs


def _summeval(root) -> tuple[list, list]:
    f = find("summeval", "SUM/SummEval/data.pkl")
    docs = load_pickle(f, root)
    records, hyps, refs = [], [], []
    for doc_id, doc in docs.items():
        for system, entry in doc["sys_summs"].items():
            scores = entry["scores"]
            records.append((doc_id, system, *(scores[a] for a in SUMMEVAL_ASPECTS)))
            hyps.append(entry["sys_summ"])
            refs.append(list(doc["ref_summs"]))
    frame = pd.DataFrame(records, columns=["item", "system", *SUMMEVAL_ASPECTS])
    parts = [_rows("summarization", "summeval", f"expert_{a}", "human", frame.rename(columns={a: "score"}))
             for a in SUMMEVAL_ASPECTS]
    bleu, chrf = sentence_bleu_chrf(hyps, refs)
    from rouge_score import rouge_scorer
    rouge = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=rouge_tokenizer())  # stemmed, cached
    multi = [rouge.score_multi(r, h) for h, r in zip(hyps, refs)]
    metrics = {"BLEU": bleu, "chrF": chrf}
    metrics |= {name: np.array([m[key].fmeasure for m in multi])
                for name, key in (("ROUGE_1", "rouge1"), ("ROUGE_2", "rouge2"), ("ROUGE_L", "rougeL"))}
    for rater, values in metrics.items():
        parts.append(_rows("summarization", "summeval", rater, "metric", frame.assign(score=values)))
    return parts, [f]


def _usr(root) -> tuple[list, list]:
    dialogue = find("bt-eval", "Data/Dialogue_dataframe.pickle")
    metrics = load_pickle(dialogue, root)["Dialogue"]
    parts, inputs = [], [dialogue]
    for dataset, (path, key) in USR_FILES.items():
        f = find("usr", path)
        inputs.append(f)
        contexts = json.loads(read_verified(f, root))
        rows = []
        for item, context in enumerate(contexts):
            for response in context["responses"]:
                rows.append((item, response["model"], float(np.mean(response["Overall"]))))
        usr = pd.DataFrame(rows, columns=["item", "system", "score"])
        parts.append(_rows("dialogue", dataset, "USR_Overall", "human", usr))
        models = [r["model"] for r in contexts[0]["responses"] if r["model"] != USR_REFERENCE]
        for metric, matrix in metrics[key].items():
            if matrix.shape != (len(contexts), len(models)):
                raise DataError(f"BT-eval Dialogue/{key}/{metric} is {matrix.shape}, but USR {dataset} has "
                                f"{len(contexts)} contexts x {len(models)} non-reference responses")
            long = matrix.set_axis(models, axis=1).rename_axis(index="item", columns="system")
            long = long.stack().rename("score").reset_index()
            parts.append(_rows("dialogue", dataset, metric, "metric", long))
    return parts, inputs


#: the datasets whose system outputs are registered (:func:`output_texts`)
TEXT_DATASETS = ("wmt22-ende", "wmt21-ende", "summeval")


def output_texts(dataset: str, root=None) -> pd.DataFrame:
    """The registered system outputs of ``dataset`` (one of :data:`TEXT_DATASETS`) as (item, system, text), with
    the item labels and system names of ``favi_scores``: WMT22 en-de's 9 systems and reference B, WMT21 en-de's 8
    MT systems and references A and D, SummEval's 16 systems' summaries."""
    if dataset not in TEXT_DATASETS:
        raise ValueError(f"no registered outputs for {dataset!r}; they exist for {list(TEXT_DATASETS)}")
    if dataset == "summeval":
        docs = load_pickle(find("summeval", "SUM/SummEval/data.pkl"), root)
        rows = [(str(doc_id), system, entry["sys_summ"]) for doc_id, doc in docs.items()
                for system, entry in doc["sys_summs"].items()]
        return pd.DataFrame(rows, columns=["item", "system", "text"])
    if dataset == "wmt22-ende":
        outputs = _wmt22_ende_outputs()
    else:
        mqm = read_table(find("mqm-wmt21", "newstest2021/ende/mqm_newstest2021_ende.avg_seg_scores.tsv"), root,
                         sep=r"\s+", na_values=["None"], dtype={"system": str})
        outputs = _wmt21_ende_outputs(pd.unique(mqm["system"]))
    frames = []
    for system, f in outputs.items():
        lines = read_lines(f, root)
        frames.append(pd.DataFrame({"item": [str(i) for i in range(len(lines))], "system": system, "text": lines}))
    return pd.concat(frames, ignore_index=True)


def wmt22_zhen_documents(root=None) -> pd.Series:
    """WMT22 zh-en's document of every segment (mt-metrics-eval's ``zh-en.docs``: ``domain<TAB>document`` per
    line, in source order), indexed by the item labels of ``favi_scores``."""
    f = find("mtme-wmt22-zhen", "raw_wmt22/documents/zh-en.docs")
    lines = read_lines(f, root)
    fields = [line.split("\t") for line in lines]
    bad = [n for n, parts in enumerate(fields, 1) if len(parts) != 2]
    if bad:
        raise DataError(f"{f.path}:{bad[0]}: expected 'domain<TAB>document'")
    return pd.Series([parts[1] for parts in fields], index=[str(i) for i in range(len(fields))], name="document")


def build_scores(root=None, jobs: int | None = None) -> tuple[pd.DataFrame, list[DataFile]]:
    """The ``favi_scores`` table; the datasets are read (and their lexical metrics computed) on ``jobs`` processes."""
    builders = (_summeval, _wmt22_ende, _wmt21_ende, _wmt22_zhen, _usr)  # slowest first
    with process_pool(jobs) as pool:
        results = [pool.submit(build, root) for build in builders]
        parts, inputs = [], []
        for future in results:
            more, used = future.result()
            parts += more
            inputs += used
    table = pd.concat(parts, ignore_index=True)
    if table.duplicated(["domain", "dataset", "item", "system", "rater"]).any():
        raise ValueError("favi_scores has duplicated (domain, dataset, item, system, rater) rows")
    return table, inputs


# -- ChatGPT head-to-head on SummEval -------------------------------------------------------------------------------

H2H_SCHEMA = {
    "aspect": "string",
    "system_1": "string",
    "system_2": "string",
    "document": "string",
    "order": "string",
    "response": "string",
    "preferred": "string",
    "expert_1": "float64",
    "expert_2": "float64",
}
H2H_COLUMNS = list(H2H_SCHEMA)
_H2H_FILE = re.compile(r"comp_res/gpt-3\.5-turbo-0301/(?P<a>M\d+)-(?P<b>M\d+)_(?P<aspect>[a-z]+)(?P<toggle>_toggle)?"
                       r"\.result$")


def build_llm_h2h(root=None) -> tuple[pd.DataFrame, list[DataFile]]:
    """ChatGPT's head-to-head SummEval preferences (Wu et al. 2023), one row per (pair, aspect, document, order).

    In a file ``<M1>-<M2>_<aspect>.result`` Summary #1 is M1 (``order = "original"``); in ``..._toggle.result`` the
    two summaries are shown the other way round (``order = "toggled"``: Summary #1 is M2). ``response`` is the
    model's answer as published (``A``/``B``/``C``, sometimes followed by a sentence); ``preferred`` is the system
    it names, or ``tie`` for C. ``expert_1`` and ``expert_2`` are the mean expert ratings of M1 and M2 for the
    aspect, in the same order in both files.
    """
    records, inputs = [], []
    for f in source_files("llm-summeval", r"\.result$"):
        m = _H2H_FILE.fullmatch(f.path)
        if not m:
            raise DataError(f"unexpected head-to-head file name {f.path}")
        inputs.append(f)
        toggled = bool(m["toggle"])
        first, second = (m["b"], m["a"]) if toggled else (m["a"], m["b"])
        for number, line in enumerate(read_lines(f, root), 1):
            if not line.strip():
                continue
            entry = json.loads(line)
            answer = re.match(r"\s*([ABC])\b", entry["resp"])
            if not answer:
                raise DataError(f"{f.path}:{number}: cannot read a preference from {entry['resp']!r}")
            preferred = {"A": first, "B": second, "C": "tie"}[answer.group(1)]
            records.append((m["aspect"], m["a"], m["b"], entry["id"], "toggled" if toggled else "original",
                            entry["resp"], preferred, entry["human_score_1"], entry["human_score_2"]))
    return pd.DataFrame(records, columns=H2H_COLUMNS), inputs


def lexical_signatures() -> dict[str, str]:
    """sacrebleu's signatures of the sentence BLEU and chrF computed here (:func:`sentence_bleu_chrf`)."""
    from sacrebleu.metrics import BLEU
    return {"BLEU": sentence_signature(BLEU(effective_order=True)).replace("nrefs:1|", ""),
            "chrF": chrf_signature().replace("nrefs:1|", ""),
            "references": "1 for the WMT datasets, 11 for SummEval",
            "ROUGE": "rouge-score, F1, Porter stemmer (summeval)"}


TABLES = (
    Table("favi_scores", SCHEMA, ("mqm-wmt22-ende", "wmt22-ende-text", "gemba", "mtme-wmt22-zhen", "mqm-wmt21",
                                  "wmt21-ende-text", "summeval", "usr", ("bt-eval", r"Dialogue")),
          build_scores, provenance=lexical_signatures),
    Table("favi_llm_h2h", H2H_SCHEMA, ("llm-summeval",), build_llm_h2h),
)
