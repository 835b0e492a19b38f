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
from itertools import chain

import numba
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


_WORD_TOKENS: dict[str, tuple[str, ...]] = {}  # word -> its 13a tokens
_STEMS: dict[str, str] = {}  # word -> Porter stem (pure Python, slow)
# sacrebleu's TokenizerRegexp rules (pattern, template) that Tokenizer13a reproduces
_RULES_13A = (
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
)


class Tokenizer13a:
    """sacrebleu's ``13a`` tokenisation (``Tokenizer13a``), equal to it token for token (tested on every segment of
    WMT19 kk-en and on generated text), computed one whitespace-separated word at a time so that a caller can
    remember each distinct word's tokens. That is exact: each of sacrebleu's rules looks at two adjacent
    characters, and in them a whitespace character can only be "a character that is not a digit" -- which the
    space padding each word is as well --, is never consumed by a match that a later match would need, and is
    given back. The first rule, padding every character of one ASCII class with spaces, is a ``str.translate``;
    the others are sacrebleu's own expressions."""

    def __init__(self):
        from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

        rules = TokenizerRegexp()._re
        if tuple((rule.pattern, template) for rule, template in rules) != _RULES_13A:
            raise RuntimeError("sacrebleu's 13a tokenizer changed its rules: update Tokenizer13a")
        first = rules[0][0]
        self._padding = {c: f" {chr(c)} " for c in range(128) if first.fullmatch(chr(c))}  # an ASCII-only class
        self._rules = rules[1:]

    @staticmethod
    def words(line: str) -> list[str]:
        """The line's replacements (``Tokenizer13a.__call__``), then its whitespace-separated words."""
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        return line.split()

    def word(self, word: str) -> tuple[str, ...]:
        """The tokens of one word of :meth:`words` (``TokenizerRegexp.__call__`` on the padded word), remembered
        for the process."""
        out = _WORD_TOKENS.get(word)
        if out is None:
            line = f" {word} ".translate(self._padding)
            for rule, template in self._rules:
                line = rule.sub(template, line)
            if len(_WORD_TOKENS) >= 1 << 20:
                _WORD_TOKENS.clear()
            out = _WORD_TOKENS[word] = tuple(line.split())
        return out

    def __call__(self, line: str) -> str:
        return " ".join(t for w in self.words(line) for t in self.word(w))


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


@numba.njit(cache=True)
def _sort_positions(keys, m, order, buffer):
    """Writes to ``order[:m]`` the positions 0 .. m-1 sorted by ``keys`` (a stable bottom-up merge sort; a few
    lines compile much faster than numba's ``argsort``)."""
    for i in range(m):
        order[i] = i
    source, target, width, swapped = order, buffer, 1, False
    while width < m:
        for low in range(0, m, 2 * width):
            middle, high = min(low + width, m), min(low + 2 * width, m)
            i, j = low, middle
            for k in range(low, high):
                if j < high and (i == middle or keys[source[j]] < keys[source[i]]):
                    target[k] = source[j]
                    j += 1
                else:
                    target[k] = source[i]
                    i += 1
        source, target, swapped, width = target, source, not swapped, 2 * width
    if swapped:
        order[:m] = buffer[:m]


@numba.njit(cache=True)
def _runs(where, m, lh, first, second, shift, rank):
    """Walk the sorted positions ``where[:m]`` in runs of equal keys ``(first[i], second[i + shift])``: ``rank[i]`` =
    the number of the run of position ``i``. Returns the last run's number and the multiset intersection, the sum
    over runs of the smaller of its hypothesis (``i < lh``) and reference positions."""
    groups, in_hyp, in_ref, matches = 0, 0, 0, 0
    for k in range(m):
        i = where[k]
        if k > 0:
            j = where[k - 1]
            if first[i] != first[j] or second[i + shift] != second[j + shift]:
                matches += min(in_hyp, in_ref)
                in_hyp, in_ref = 0, 0
                groups += 1
        if i < lh:
            in_hyp += 1
        else:
            in_ref += 1
        rank[i] = groups
    return groups, matches + min(in_hyp, in_ref)


@numba.njit(cache=True)
def _match_counts(hyp, ref, max_order, out, col, work):
    """For n = 1 .. ``max_order``: the number of n-grams of ``hyp`` and of ``ref`` and the size of their multiset
    intersection (sum over n-grams of the smaller count), written to ``out[col + 3 (n - 1) : col + 3 n]``.

    Symbols are integers (token ids or code points). The n-grams of both sequences are ranked order by order: an
    n-gram is the pair (rank of its (n-1)-gram prefix, rank of its last symbol), both smaller than the number of
    positions, sorted by two counting sorts. Equal n-grams get equal ranks, so the counts are exact. ``work`` is
    scratch space of at least 6 x (len(hyp) + len(ref) + 1)."""
    lh, lr = len(hyp), len(ref)
    size = lh + lr
    for n in range(max_order):
        out[col + 3 * n] = max(lh - n, 0)
        out[col + 3 * n + 1] = max(lr - n, 0)
        out[col + 3 * n + 2] = 0
    if lh == 0 or lr == 0:
        return
    symbols, rank, previous, last, where, buffer = work[0], work[1], work[2], work[3], work[4], work[5]
    symbols[:lh] = hyp
    symbols[lh:size] = ref
    count = symbols  # reused once order 1 is ranked
    _sort_positions(symbols, size, where, buffer)
    groups, out[col + 2] = _runs(where, size, lh, symbols, symbols, 0, last)  # order 1: runs of equal symbols
    symbol_groups = groups + 1
    rank[:size] = last[:size]
    for n in range(2, max_order + 1):
        nh, nr = max(lh - n + 1, 0), max(lr - n + 1, 0)
        if nh == 0 or nr == 0:
            return
        previous, rank = rank, previous
        prefix_groups = groups + 1
        m = 0
        for i in range(nh):
            where[m] = i
            m += 1
        for i in range(lh, lh + nr):
            where[m] = i
            m += 1
        # stable counting sort by the last symbol, then by the prefix
        count[:symbol_groups + 1] = 0
        for k in range(m):
            count[last[where[k] + n - 1] + 1] += 1
        for g in range(symbol_groups):
            count[g + 1] += count[g]
        for k in range(m):
            i = where[k]
            g = last[i + n - 1]
            buffer[count[g]] = i
            count[g] += 1
        count[:prefix_groups + 1] = 0
        for k in range(m):
            count[previous[buffer[k]] + 1] += 1
        for g in range(prefix_groups):
            count[g + 1] += count[g]
        for k in range(m):
            i = buffer[k]
            g = previous[i]
            where[count[g]] = i
            count[g] += 1
        groups, out[col + 3 * (n - 1) + 2] = _runs(where, m, lh, previous, last, n - 1, rank)


@numba.njit(cache=True)
def _js(keys, nh, m, work):
    """:func:`js_divergence` of the n-gram counts of a hypothesis (``keys[:nh]``) and a reference
    (``keys[nh:m]``), n-grams given as integers in the order of the sorted n-grams: the terms are summed in that
    order with the same operations as there, so the result is the same float."""
    nr = m - nh
    if nh == 0 or nr == 0:
        return 1.0
    order = work[0]
    _sort_positions(keys, m, order, work[1])
    js, count_p, count_q = 0.0, 0, 0
    for k in range(m):
        i = order[k]
        if i < nh:
            count_p += 1
        else:
            count_q += 1
        if k == m - 1 or keys[order[k + 1]] != keys[i]:
            a, b = count_p / nh, count_q / nr
            mean = (a + b) / 2
            if count_p:
                js += 0.5 * a * math.log2(a / mean)
            if count_q:
                js += 0.5 * b * math.log2(b / mean)
            count_p, count_q = 0, 0
    return min(max(js, 0.0), 1.0)


# columns of _segment_statistics: sacrebleu BLEU orders 1-4, rouge 1-2, chrF++ characters 1-6, words 1-2
_BLEU, _ROUGE, _CHRF, _WIDTH = 0, 12, 18, 42
# symbol streams of a text: BLEU's 13a tokens, lower-cased 13a tokens (JS), rouge-score's tokens, chrF's characters
# (whitespace removed), chrF's words; the n-gram orders and first column of the counted ones
_COUNTED, _ORDERS, _COLUMNS = (0, 2, 3, 4), (4, 2, 6, 2), (_BLEU, _ROUGE, _CHRF, _CHRF + 18)


@numba.njit(cache=True)
def _segment_statistics(hyp_text, ref_text, offsets, symbols, ranks, vocabulary):
    """Integer statistics (see the columns above) and JS-1/2 of each (hypothesis, reference) pair of texts.

    ``symbols`` concatenates the five symbol streams of every text, stream ``s`` of text ``t`` at
    ``offsets[s, t]:offsets[s, t + 1]``; tokens are ids, characters code points. ``ranks`` maps an id of the
    lower-cased tokens to its position among the ``vocabulary`` such tokens sorted."""
    n = len(hyp_text)
    ints = np.zeros((n, _WIDTH), np.int64)
    js = np.empty((n, 2))
    longest = 1
    for s in range(5):
        for t in range(offsets.shape[1] - 1):
            longest = max(longest, offsets[s, t + 1] - offsets[s, t])
    work = np.empty((6, 2 * longest + 1), np.int64)
    for k in range(n):
        h, r = hyp_text[k], ref_text[k]
        for j in range(4):
            s = _COUNTED[j]
            _match_counts(symbols[offsets[s, h]:offsets[s, h + 1]], symbols[offsets[s, r]:offsets[s, r + 1]],
                          _ORDERS[j], ints[k], _COLUMNS[j], work)
        hyp, ref = symbols[offsets[1, h]:offsets[1, h + 1]], symbols[offsets[1, r]:offsets[1, r + 1]]
        keys = work[5]
        for order in (1, 2):
            nh, nr = max(len(hyp) - order + 1, 0), max(len(ref) - order + 1, 0)
            for i in range(nh):
                keys[i] = ranks[hyp[i]] if order == 1 else ranks[hyp[i]] * vocabulary + ranks[hyp[i + 1]]
            for i in range(nr):
                keys[nh + i] = ranks[ref[i]] if order == 1 else ranks[ref[i]] * vocabulary + ranks[ref[i + 1]]
            js[k, order - 1] = -_js(keys, nh, nh + nr, work)
    return ints, js


class SegmentScorer:
    """Scores (hypothesis, reference) segment pairs with :data:`SEGMENT_METRICS`; build once, call many times.

    Every metric is a formula of integer statistics -- n-gram counts and matches, the ROUGE-L LCS length -- and is
    computed by the libraries' own formula code (chrF's ``_compute_f_score``, rouge-score's precision, recall and
    ``fmeasure``; for BLEU a transcription of sacrebleu's ``compute_bleu``, which builds a costly ``BLEUScore``,
    tested equal to it). The statistics are counted exactly from the libraries' tokens: sacrebleu's 13a tokens
    (:class:`Tokenizer13a`, token-equal to sacrebleu's), rouge-score's stemmed tokens, chrF's characters and
    words. Texts become integer symbol streams (token ids, code points), once per distinct text (a reference once,
    not once per system), split into words first so that each distinct word's tokens, ids and Porter stem are
    computed once; a compiled kernel (:func:`_segment_statistics`) counts the matches of a whole batch of pairs,
    and computes JS-1/2 as :func:`js_divergence` does; RapidFuzz's compiled ``LCSseq`` gives ROUGE-L's LCS. A pair
    already scored (another system's identical output) is not scored again, and BLEU once per distinct
    statistics. The test suite checks every metric equal to the libraries called one segment at a time (JS to
    its definition), bit for bit, on a full WMT language pair and on generated text."""

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
        """The five symbol streams of one text (see :func:`_segment_statistics`): sacrebleu's BLEU tokens
        (``Tokenizer13a()(text.rstrip()).split()``), the JS tokens (``Tokenizer13a()(text.lower()).split()``),
        rouge-score's tokens (its ``[^a-z0-9]+`` to spaces as a byte translation of the lower-cased text encoded in
        ASCII, a non-ASCII character as "?"), chrF's characters (``"".join(text.split())``) and words
        (``_remove_punctuation``); split into words first, each word's token ids remembered."""
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
