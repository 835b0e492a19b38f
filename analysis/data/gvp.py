"""Tables of the global-vs-pairwise chapter (Levtsov & Ustalov 2025): ``llmfao``, ``sst5`` and ``ceval``.

``llmfao`` (id, prompt, model_x, model_y, worker, winner, left, right)
    8,931 pairwise LLM judgments with ties (``winner`` is left / right / tie).
``sst5`` (split, sentence, label, text)
    SST-5 sentences with fine-grained labels 1-5 (train 8,544, dev 1,101, test 2,210).
``ceval`` (method, instance, label, texts, CEval's automatic evaluation)
    Counterfactual IMDB generations of 8 methods for 488 reviews (:func:`build_ceval`).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .raw import read_lines, read_table
from .registry import Table, find, source_files
from .textmetrics import sentence_chrf

LLMFAO = {
    "id": "int64",
    "prompt": "int64",
    "model_x": "int64",
    "model_y": "int64",
    "worker": "int64",
    "winner": "string",
    "left": "string",
    "right": "string",
}
SST5 = {"split": "string", "sentence": "int64", "label": "int8", "text": "string"}
CEVAL = {
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
}


def build_llmfao(root=None) -> tuple[pd.DataFrame, list]:
    f = find("llmfao", "llmfao.csv")
    table = read_table(f, root)
    bad = set(table["winner"]) - {"left", "right", "tie"}
    if bad:
        raise ValueError(f"llmfao.csv has unknown winner values {sorted(bad)}")
    return table, [f]


def build_sst5(root=None) -> tuple[pd.DataFrame, list]:
    files = [find("sst5", f"data/sst/sst_{split}.txt") for split in ("train", "dev", "test")]
    parts = []
    for split, f in zip(("train", "dev", "test"), files):
        lines = read_lines(f, root)
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
    reviews = read_table(original, root, sep="\t")
    if list(reviews.columns) != ["Sentiment", "Text"]:
        raise ValueError(f"{original.path}: expected the columns Sentiment, Text")
    reference_words = reviews["Text"].map(_words)
    parts = []
    for method in sorted({f.path.split("/")[2] for f in files if f.path.startswith("results/")}):
        results = find("ceval", f"results/imdb/{method}/results.csv")
        auto = find("ceval", f"results/imdb/{method}/results_auto_eval.csv")
        gen = read_table(results, root)
        if len(gen) != len(reviews):
            raise ValueError(f"{results.path} has {len(gen)} rows for {len(reviews)} reviews")
        evaluated = read_table(auto, root)
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


TABLES = (
    Table("llmfao", LLMFAO, ("llmfao",), build_llmfao),
    Table("sst5", SST5, ("sst5",), build_sst5),
    Table("ceval", CEVAL, ("ceval",), build_ceval),
)


def text_quality(outputs: pd.DataFrame, reference: pd.Series) -> dict[str, pd.DataFrame]:
    """CEval's per-(instance, model) quality (Levtsov & Ustalov 2025, App. C.1): character edit distance
    (rapidfuzz's Levenshtein, as jiwer's), word error rate (jiwer) and sentence chrF
    (:func:`~analysis.data.textmetrics.sentence_chrf`; signature :func:`~analysis.data.textmetrics.chrf_signature`)
    of each output against the reference, each an (instances x models) frame keyed ``ed``, ``wer``, ``chrf``."""
    import jiwer
    from rapidfuzz.distance import Levenshtein

    refs = reference.loc[outputs.index].tolist()
    frames = {name: pd.DataFrame(index=outputs.index, columns=outputs.columns, dtype=float)
              for name in ("ed", "wer", "chrf")}
    for model in outputs.columns:
        hyps = outputs[model].tolist()
        frames["ed"][model] = [Levenshtein.distance(h, r) for h, r in zip(hyps, refs)]
        frames["wer"][model] = [jiwer.wer(r, h) for h, r in zip(hyps, refs)]
    # every model against the same references in one call: each reference's n-grams are counted once
    chrf = sentence_chrf([h for m in outputs.columns for h in outputs[m].tolist()],
                         [[r] for r in refs] * outputs.shape[1])
    for k, model in enumerate(outputs.columns):
        frames["chrf"][model] = chrf[k * len(refs):(k + 1) * len(refs)]
    return frames
