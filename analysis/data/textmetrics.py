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

:class:`SegmentScorer` counts its statistics with the compiled kernels of :mod:`analysis.data.ngram_statistics`, on
the 13a tokens of :mod:`analysis.data.tokenizer13a`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from importlib.metadata import version
from itertools import chain

import numpy as np
import pandas as pd

from .ngram_statistics import _BLEU, _CHRF, _ROUGE, _WIDTH, _segment_statistics
from .tokenizer13a import Tokenizer13a

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
    holds one list of reference strings per hypothesis. :func:`chrf_signature` says exactly what was computed.
    Equal to ``CHRF(word_order=...).sentence_score(h, refs).score`` one by one (tested), with each distinct list of
    references turned into n-gram counts once (sacrebleu's own reference cache, kept across hypotheses)."""
    metric = chrf_metric(word_order)
    cached: dict[tuple, object] = {}
    scores = []
    for hypothesis, refs in zip(hypotheses, references):
        refs = list(refs)
        metric._check_sentence_score_args(hypothesis, refs)
        info = cached.get(key := tuple(refs))
        if info is None:
            info = cached[key] = metric._cache_references([[r] for r in refs])[0]
        stats = [metric._compute_segment_statistics(metric._preprocess_segment(hypothesis), info)]
        scores.append(metric._aggregate_and_compute(stats).score)
    return np.array(scores)


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


def js_divergence(p: Counter, q: Counter) -> float:
    """Jensen-Shannon divergence (base 2, in [0, 1]) between two count distributions; 1 if either is empty."""
    total_p, total_q = sum(p.values()), sum(q.values())
    if total_p == 0 or total_q == 0:
        return 1.0
    js = 0.0
    # a fixed order: a set's follows PYTHONHASHSEED, and so would the sum's last bit
    for key in sorted(p.keys() | q.keys()):
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


_STEMS: dict[str, str] = {}  # word -> Porter stem (pure Python, slow)

_ROUGE_SPACES = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789" else 32 for c in range(256))


class _Ids(dict):
    """word -> tuple of the ids of its tokens (``split(word)``; ids from ``ids``, a token -> id dict that grows),
    computed on first look-up."""

    def __init__(self, split, ids: dict[str, int]):
        super().__init__()
        self._split, self._ids = split, ids

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids = self._ids
        out = self[word] = tuple(ids.setdefault(t, len(ids)) for t in self._split(word))
        return out


class SegmentScorer:
    """Scores (hypothesis, reference) segment pairs with :data:`SEGMENT_METRICS`; build once, call many times.

    Every metric is a formula of integer statistics -- n-gram counts and matches, the ROUGE-L LCS length -- and is
    computed by the libraries' own formula code (chrF's ``_compute_f_score``, rouge-score's precision, recall and
    ``fmeasure``; for BLEU a transcription of sacrebleu's ``compute_bleu``, which builds a costly ``BLEUScore``,
    tested equal to it). The statistics are counted exactly from the libraries' tokens: sacrebleu's 13a tokens
    (:class:`~analysis.data.tokenizer13a.Tokenizer13a`, token-equal to sacrebleu's), rouge-score's stemmed tokens,
    chrF's characters and words. Texts become integer symbol streams (token ids, code points), once per distinct
    text (a reference once, not once per system), split into words first so that each distinct word's tokens, ids
    and Porter stem are computed once; a compiled kernel (:func:`~analysis.data.ngram_statistics._segment_statistics`)
    counts the matches of a whole batch of pairs, and computes JS-1/2 as :func:`js_divergence` does; RapidFuzz's
    compiled ``LCSseq`` gives ROUGE-L's LCS. A pair already scored (another system's identical output) is not scored
    again, and BLEU once per distinct statistics. The test suite checks every metric equal to the libraries called
    one segment at a time (JS to its definition), bit for bit, on a full WMT language pair and on generated text."""

    # part of the metric cache key (data/paired.py)
    IMPLEMENTATION = "compiled n-gram statistics of cached text features"
    _CACHE = 65536  # texts, pairs and BLEU statistics remembered (each cache is emptied when full)

    def __init__(self):
        from nltk.stem import porter
        from rapidfuzz.distance import LCSseq
        from rouge_score import scoring, tokenize
        from sacrebleu.utils import my_log

        self._log = my_log
        self._chrf = chrf_metric(word_order=2)
        self._fmeasure = scoring.fmeasure
        self._lcs = LCSseq.similarity
        if tokenize.NON_ALPHANUM_PATTERN != r"[^a-z0-9]+":
            raise RuntimeError("rouge-score's tokenizer changed: update SegmentScorer._features")
        self._valid = tokenize.VALID_TOKEN_RE
        self._stem = porter.PorterStemmer().stem
        self._tokenizer = Tokenizer13a()
        ids: dict[str, int] = {}  # token -> id, shared by the streams compared by equality only
        self._js_ids: dict[str, int] = {}  # lower-cased 13a token -> id; ranked when scoring
        self._words = (_Ids(self._tokenizer.word, ids), _Ids(self._tokenizer.word, self._js_ids),
                       _Ids(self._rouge_word, ids), _Ids(self._chrf._remove_punctuation, ids))
        self._ranks = np.zeros(0, np.int64)
        self._texts: dict[str, tuple] = {}
        self._pairs: dict[tuple[str, str], tuple[float, ...]] = {}
        self._bleu: dict[tuple[int, ...], float] = {}

    def _rouge_word(self, word: bytes) -> tuple[str, ...]:
        # rouge_score.tokenize.tokenize for one word of its split: stemmed if longer than 3, dropped if invalid
        word = word.decode("ascii")
        if len(word) > 3:
            if word not in _STEMS:
                if len(_STEMS) >= 1 << 20:
                    _STEMS.clear()
                _STEMS[word] = self._stem(word)
            word = _STEMS[word]
        return (word,) if self._valid.match(word) else ()

    def _features(self, text: str) -> tuple:
        """The five symbol streams of one text (see :func:`~analysis.data.ngram_statistics._segment_statistics`):
        sacrebleu's BLEU tokens (``Tokenizer13a()(text.rstrip()).split()``), the JS tokens
        (``Tokenizer13a()(text.lower()).split()``), rouge-score's tokens (its ``[^a-z0-9]+`` to spaces as a byte
        translation of the lower-cased text encoded in ASCII, a non-ASCII character as "?"), chrF's characters
        (``"".join(text.split())``) and words (``_remove_punctuation``); split into words first, each word's token ids
        remembered."""
        bleu, js, rouge, chrf = self._words
        lower = text.lower()
        return (
            tuple(chain.from_iterable(map(bleu.__getitem__, self._tokenizer.words(text.rstrip())))),
            tuple(chain.from_iterable(map(js.__getitem__, self._tokenizer.words(lower)))),
            tuple(chain.from_iterable(
                map(rouge.__getitem__, lower.encode("ascii", "replace").translate(_ROUGE_SPACES).split()))),
            "".join(text.split()).encode("utf-32-le", "surrogatepass"),
            tuple(chain.from_iterable(map(chrf.__getitem__, text.split()))),
        )

    def _text_features(self, text: str) -> tuple:
        out = self._texts.get(text)
        if out is None:
            if len(self._texts) >= self._CACHE:
                self._texts.clear()
                for words in self._words:
                    words.clear()
            out = self._texts[text] = self._features(text)
        return out

    def _bleu_n(self, stats: tuple[int, ...], n: int) -> float:
        """sacrebleu's sentence BLEU with maximum order ``n`` (``BLEU.compute_bleu`` with exponential smoothing and
        effective order, its operations in its order, without building a ``BLEUScore``) from (hypothesis length,
        reference length, matches of orders 1 to 4)."""
        key = stats[:2 + n]
        out = self._bleu.get(key)
        if out is not None:
            return out
        sys_len, ref_len, correct = stats[0], stats[1], stats[2:2 + n]
        bp = 1.0
        if sys_len < ref_len:
            bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        if not any(correct):
            out = 0.0
        else:
            precisions = [0.0] * n
            smooth_mteval = 1.0
            eff_order = n
            for order in range(1, n + 1):
                total = max(sys_len - order + 1, 0)
                if total == 0:
                    break
                eff_order = order
                if correct[order - 1] == 0:
                    smooth_mteval *= 2
                    precisions[order - 1] = 100.0 / (smooth_mteval * total)
                else:
                    precisions[order - 1] = 100.0 * correct[order - 1] / total
            out = bp * math.exp(sum([self._log(p) for p in precisions[:eff_order]]) / eff_order)
        self._bleu[key] = out
        return out

    def _scores(self, ints: list[int], js: list[float], hyp_rouge: tuple, ref_rouge: tuple) -> tuple[float, ...]:
        bleu = ints[_BLEU:_ROUGE]
        stats = (bleu[0], bleu[1], bleu[2], bleu[5], bleu[8], bleu[11])
        if len(self._bleu) >= self._CACHE:
            self._bleu.clear()
        rouge = []
        for c in (_ROUGE, _ROUGE + 3):  # rouge_scorer._score_ngrams (target: the reference)
            n_hyp, n_ref, matches = ints[c:c + 3]
            rouge.append(self._fmeasure(matches / max(n_hyp, 1), matches / max(n_ref, 1)))
        if hyp_rouge and ref_rouge:  # rouge_scorer._score_lcs, the LCS length from RapidFuzz
            lcs = self._lcs(ref_rouge, hyp_rouge)
            rouge.append(self._fmeasure(lcs / len(hyp_rouge), lcs / len(ref_rouge)))
        else:
            rouge.append(0.0)
        chrf = ints[_CHRF:_WIDTH]
        for c in range(0, 24, 3):  # CHRF._get_match_statistics: no hypothesis count without reference n-grams
            if not chrf[c + 1]:
                chrf[c] = 0
        return (*(self._bleu_n(stats, n) for n in (1, 2, 3, 4)), *rouge, self._chrf._compute_f_score(chrf), *js)

    def score(self, hypothesis: str, reference: str) -> tuple[float, ...]:
        """The :data:`SEGMENT_METRICS` of one hypothesis against one reference."""
        return tuple(self.score_many([hypothesis], [reference])[0].tolist())

    def score_many(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """(segments x metrics) array for aligned lists of hypotheses and references."""
        if len(hypotheses) != len(references):
            raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} references: not aligned")
        for h, r in zip(hypotheses, references):
            if not isinstance(h, str) or not isinstance(r, str):
                raise TypeError(f"segments must be strings, got {type(h).__name__} and {type(r).__name__}")
        pairs = list(zip(hypotheses, references))
        todo = list(dict.fromkeys(p for p in pairs if p not in self._pairs))
        if todo:
            if len(self._pairs) + len(todo) > self._CACHE:
                self._pairs.clear()
            self._pairs.update(zip(todo, self._score_new(todo)))
        return np.array([self._pairs[p] for p in pairs], dtype=float).reshape(len(pairs), len(SEGMENT_METRICS))

    def _score_new(self, pairs: list[tuple[str, str]]) -> list[tuple[float, ...]]:
        texts = {}
        hyp = np.array([texts.setdefault(h, len(texts)) for h, _ in pairs], np.int64)
        ref = np.array([texts.setdefault(r, len(texts)) for _, r in pairs], np.int64)
        features = [self._text_features(t) for t in texts]
        lengths = np.array([[len(f[s]) for f in features] for s in range(5)], np.int64)
        lengths[3] //= 4  # utf-32 bytes
        offsets = np.zeros((5, len(texts) + 1), np.int64)
        offsets[:, 1:] = np.cumsum(lengths.ravel()).reshape(lengths.shape)
        offsets[1:, 0] = offsets[:-1, -1]
        symbols = np.empty(offsets[-1, -1], np.int64)
        for s in range(5):
            stream = (f[s] for f in features)
            symbols[offsets[s, 0]:offsets[s, -1]] = (
                np.frombuffer(b"".join(stream), np.uint32) if s == 3 else
                np.fromiter(chain.from_iterable(stream), np.int64, offsets[s, -1] - offsets[s, 0]))
        if len(self._ranks) != len(self._js_ids):  # new tokens: rank the vocabulary again
            tokens = list(self._js_ids)
            self._ranks = np.empty(len(tokens), np.int64)
            self._ranks[sorted(range(len(tokens)), key=tokens.__getitem__)] = np.arange(len(tokens))
        ints, js = _segment_statistics(hyp, ref, offsets, symbols, self._ranks, max(len(self._ranks), 1))
        rouge = [f[2] for f in features]
        return [self._scores(i, j, rouge[h], rouge[r])
                for i, j, h, r in zip(ints.tolist(), js.tolist(), hyp.tolist(), ref.tolist())]


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
