"""Sentence-level lexical metrics recomputed from system outputs and references (no model weights needed).

Peyrard et al. (2021) §5 score every test instance with the usual lexical metrics. Definitions used here:

* ``BLEU_1`` .. ``BLEU_4``: sacrebleu sentence BLEU with maximum n-gram order 1..4, 13a tokenisation, exponential
  smoothing and effective order (sacrebleu's sentence-level defaults), on the 0-100 scale. The n-gram statistics
  are extracted once per segment and BLEU-n is recombined from the first n orders (identical to running sacrebleu
  with ``max_ngram_order=n``; tested).
* ``ROUGE_1``, ``ROUGE_2``, ``ROUGE_L``: F1 of Google's ``rouge-score`` with its default tokenisation and the Porter
  stemmer (``use_stemmer=True``), 0-1 scale.
* ``Chrfpp``: chrF++ of sacrebleu (character 6-grams and word 2-grams, beta 2), 0-100 scale.
* ``JS_1``, ``JS_2``: the *negated* Jensen-Shannon divergence (base 2, in [-1, 0]; higher is better, as in the
  BT-eval and REALSumm data) between the hypothesis' and the reference's unigram / bigram distributions over
  lower-cased 13a tokens. An empty side has no distribution and gets the maximal divergence (score -1).

Captioning (COCO) uses the COCO caption evaluation code (``pycocoevalcap``): per-image BLEU-1..4 (unsmoothed, as in
COCO), ROUGE-L and CIDEr-D against all references of the image, after a lower-casing, punctuation-stripping
tokenisation (COCO's PTB tokenizer needs Java, which this compendium does not require). CIDEr's document
frequencies come from the references of the evaluated images, so a CIDEr score depends on the image set.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from importlib.metadata import version

import numpy as np
import pandas as pd

SEGMENT_METRICS = ("BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4", "ROUGE_1", "ROUGE_2", "ROUGE_L", "Chrfpp", "JS_1", "JS_2")
CAPTION_METRICS = ("BLEU_1", "BLEU_2", "BLEU_3", "BLEU_4", "ROUGE_L", "CIDEr")


def library_versions() -> dict[str, str]:
    """Versions of the metric libraries: part of the cache key of every recomputed table."""
    return {lib: version(lib) for lib in ("sacrebleu", "rouge-score", "rapidfuzz", "pycocoevalcap")}


def sentence_signature(metric) -> str:
    """sacrebleu's signature of a metric used at sentence level with one reference (it is only known once the metric
    has scored something, so it scores one dummy sentence first)."""
    metric.sentence_score("a", ["a"])
    return metric.get_signature().format()


def chrf_metric(word_order: int = 0):
    """The one chrF of the compendium: sacrebleu's ``CHRF`` (character 6-grams, beta 2) with ``word_order`` word
    n-grams (0: chrF, 2: chrF++)."""
    from sacrebleu.metrics import CHRF

    return CHRF(word_order=word_order)


def sentence_chrf(hypotheses, references, word_order: int = 0) -> np.ndarray:
    """Sentence-level chrF (chrF++ with ``word_order=2``) of each hypothesis against its references: ``references``
    holds one list of reference strings per hypothesis. :func:`chrf_signature` says exactly what was computed."""
    metric = chrf_metric(word_order)
    return np.array([metric.sentence_score(h, list(refs)).score for h, refs in zip(hypotheses, references)])


def chrf_signature(word_order: int = 0) -> str:
    """sacrebleu's signature of :func:`sentence_chrf` with one reference."""
    return sentence_signature(chrf_metric(word_order))


def metric_signatures() -> dict[str, str]:
    """What exactly computed the recomputed scores: sacrebleu's own signatures of BLEU-1..4 and chrF++ as configured
    in :class:`SegmentScorer`, and the library versions. Recorded in the provenance of every table that holds them."""
    from sacrebleu.metrics import BLEU

    bleu = {f"BLEU_{n}": sentence_signature(BLEU(effective_order=True, max_ngram_order=n)) for n in (1, 2, 3, 4)}
    return bleu | {
        "Chrfpp": chrf_signature(word_order=2),
        "ROUGE": f"rouge-score {version('rouge-score')}, F1, Porter stemmer; ROUGE-L's LCS by rapidfuzz "
                 f"{version('rapidfuzz')} LCSseq",
        "JS": "negated Jensen-Shannon divergence, base 2, lower-cased sacrebleu 13a tokens",
        "COCO": f"pycocoevalcap {version('pycocoevalcap')}",
    }


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(zip(*(tokens[i:] for i in range(n))))


def js_divergence(p: Counter, q: Counter) -> float:
    """Jensen-Shannon divergence (base 2, in [0, 1]) between two count distributions; 1 if either is empty."""
    total_p, total_q = sum(p.values()), sum(q.values())
    if total_p == 0 or total_q == 0:
        return 1.0
    js = 0.0
    for key in sorted(p.keys() | q.keys()):  # a fixed order: a set's follows PYTHONHASHSEED, and so would the sum's last bit
        a = p.get(key, 0) / total_p
        b = q.get(key, 0) / total_q
        m = (a + b) / 2
        if a:
            js += 0.5 * a * math.log2(a / m)
        if b:
            js += 0.5 * b * math.log2(b / m)
    return min(max(js, 0.0), 1.0)


class _StemCache:
    """A Porter stemmer that remembers: news text repeats its words across systems and segments."""

    def __init__(self):
        from nltk.stem import porter

        self._stemmer = porter.PorterStemmer()
        self._cache: dict[str, str] = {}

    def stem(self, word: str) -> str:
        out = self._cache.get(word)
        if out is None:
            out = self._cache[word] = self._stemmer.stem(word)
        return out


def rouge_tokenizer():
    """rouge-score's own tokenisation (lower-case, alphanumeric, Porter stems), with each text's tokens cached:
    a reference is tokenised once, not once per system."""
    from rouge_score import tokenize, tokenizers

    class CachedTokenizer(tokenizers.Tokenizer):
        def __init__(self):
            self._stemmer = _StemCache()
            self._cached = lru_cache(maxsize=16384)(self._tokenize)

        def _tokenize(self, text):
            return tokenize.tokenize(text, self._stemmer)

        def tokenize(self, text):
            return self._cached(text)

    return CachedTokenizer()


class SegmentScorer:
    """Scores (hypothesis, reference) segment pairs with :data:`SEGMENT_METRICS`; build once, call many times.

    Every number is computed by the libraries' own code (sacrebleu's BLEU and chrF statistics and scores,
    rouge-score's tokenizer, n-gram scores and F-measure), arranged so that what depends on the reference alone is
    computed once per reference, not once per system: its sacrebleu n-grams, its rouge tokens and n-grams, its JS
    distributions. ROUGE-L's longest common subsequence comes from RapidFuzz's compiled ``LCSseq`` on token ids
    (exact: ids, not hashes, so two different tokens never compare equal) instead of rouge-score's Python table.
    The test suite checks every metric equal to the reference libraries called one segment at a time."""

    IMPLEMENTATION = "reference-side cache + RapidFuzz LCSseq"  # part of the metric cache key (data/paired.py)

    def __init__(self):
        from rapidfuzz.distance import LCSseq
        from rouge_score import rouge_scorer, scoring
        from sacrebleu.metrics import BLEU
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        self._bleu = BLEU(effective_order=True)
        self._compute_bleu = BLEU.compute_bleu
        self._chrf = chrf_metric(word_order=2)
        self._rouge_tokens = rouge_tokenizer().tokenize
        self._rouge_ngrams, self._rouge_score = rouge_scorer._create_ngrams, rouge_scorer._score_ngrams
        self._fmeasure = scoring.fmeasure
        self._lcs = LCSseq.similarity
        self._token_ids: dict[str, int] = {}
        self._tok = Tokenizer13a()
        self._ngrams = lru_cache(maxsize=16384)(self._token_ngrams)
        self._reference = lru_cache(maxsize=16384)(self._reference_info)
        self._pair = lru_cache(maxsize=65536)(self._score)  # a tenth of WMT's pairs repeat another system's

    def _token_ngrams(self, text: str) -> tuple[Counter, Counter]:
        tokens = self._tok(text.lower()).split()
        return _ngrams(tokens, 1), _ngrams(tokens, 2)

    def _rouge_side(self, text: str) -> tuple[list[int], Counter, Counter]:
        tokens = self._rouge_tokens(text)
        ids = [self._token_ids.setdefault(t, len(self._token_ids)) for t in tokens]
        return ids, self._rouge_ngrams(tokens, 1), self._rouge_ngrams(tokens, 2)

    def _reference_info(self, reference: str) -> tuple:
        """What the metrics need of a reference alone (sacrebleu's ``_extract_reference_info``, as its
        ``sentence_score`` computes it for one reference)."""
        bleu = self._bleu._extract_reference_info([self._bleu._preprocess_segment(reference)])
        chrf = self._chrf._extract_reference_info([self._chrf._preprocess_segment(reference)])
        return bleu, chrf, self._rouge_side(reference)

    def _rouge_l(self, target: list[int], prediction: list[int]) -> float:
        # rouge_scorer._score_lcs with the table's last cell from LCSseq
        if not target or not prediction:
            return 0.0
        lcs = self._lcs(target, prediction)
        return self._fmeasure(lcs / len(prediction), lcs / len(target))

    def score(self, hypothesis: str, reference: str) -> tuple[float, ...]:
        """The :data:`SEGMENT_METRICS` of one hypothesis against one reference."""
        if not isinstance(hypothesis, str) or not isinstance(reference, str):
            raise TypeError(f"segments must be strings, got {type(hypothesis).__name__} and "
                            f"{type(reference).__name__}")
        return self._pair(hypothesis, reference)

    def _score(self, hypothesis: str, reference: str) -> tuple[float, ...]:
        bleu_ref, chrf_ref, (ref_ids, ref_1, ref_2) = self._reference(reference)
        stats = self._bleu._compute_segment_statistics(self._bleu._preprocess_segment(hypothesis), bleu_ref)
        sys_len, ref_len, counts, totals = stats[0], stats[1], stats[2:6], stats[6:10]
        bleu = [
            self._compute_bleu(counts[:n], totals[:n], sys_len, ref_len,
                               smooth_method="exp", effective_order=True, max_ngram_order=n).score
            for n in (1, 2, 3, 4)
        ]
        hyp_ids, hyp_1, hyp_2 = self._rouge_side(hypothesis)
        rouge = (self._rouge_score(ref_1, hyp_1).fmeasure, self._rouge_score(ref_2, hyp_2).fmeasure,
                 self._rouge_l(ref_ids, hyp_ids))
        chrf = self._chrf._compute_f_score(
            self._chrf._compute_segment_statistics(self._chrf._preprocess_segment(hypothesis), chrf_ref))
        hyp, ref = self._ngrams(hypothesis), self._ngrams(reference)
        js = [-js_divergence(hyp[n], ref[n]) for n in (0, 1)]
        return (*bleu, *rouge, chrf, *js)

    def score_many(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """(segments x metrics) array for aligned lists of hypotheses and references."""
        if len(hypotheses) != len(references):
            raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} references: not aligned")
        return np.array([self.score(h, r) for h, r in zip(hypotheses, references)], dtype=float).reshape(
            len(hypotheses), len(SEGMENT_METRICS)
        )


_PUNCT = re.compile(r"[^\w\s]")


def caption_tokens(text: str) -> str:
    """Lower-case, strip punctuation, collapse spaces (a Java-free stand-in for COCO's PTB tokenizer)."""
    return " ".join(_PUNCT.sub(" ", text.lower()).split())


def caption_scores(references: dict[int, list[str]], candidates: dict[int, str]) -> pd.DataFrame:
    """Per-image :data:`CAPTION_METRICS` of one system (index = image id, sorted)."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    missing = sorted(set(references) - set(candidates))
    if missing:
        raise ValueError(f"{len(missing)} images have references but no candidate caption, e.g. {missing[:5]}")
    ids = sorted(references)
    gts = {i: [caption_tokens(r) for r in references[i]] for i in ids}
    res = {i: [caption_tokens(candidates[i])] for i in ids}
    _, bleu = Bleu(4).compute_score(gts, res, verbose=0)
    _, rouge = Rouge().compute_score(gts, res)
    _, cider = Cider().compute_score(gts, res)
    columns = dict(zip(CAPTION_METRICS[:4], bleu)) | {"ROUGE_L": rouge, "CIDEr": cider}
    return pd.DataFrame({k: np.asarray(v, dtype=float) for k, v in columns.items()}, index=pd.Index(ids, name="image"))
