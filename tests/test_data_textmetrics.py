"""Sentence-level metrics recomputed from text, checked against the libraries they wrap and hand computations."""

import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

from analysis.data import ngram_statistics, textmetrics
from analysis.data.textmetrics import SEGMENT_METRICS, SegmentScorer, caption_scores, js_divergence
from analysis.data.tokenizer13a import Tokenizer13a
from tests.reference import text_metrics_row as _reference_row

PAIRS = [
    ("The cat sat on the mat.", "The cat is sitting on the mat."),
    ("A completely different sentence", "Nothing in common here"),
    ("Identical output .", "Identical output ."),
    ("", "The reference is not empty."),
    ("Running runners ran quickly, faster than before!", "The runner runs fast; quicker than before."),
]


@pytest.fixture(scope="module")
def scorer():
    return SegmentScorer()


@pytest.mark.parametrize("hyp, ref", PAIRS)
def test_bleu_n_equals_sacrebleu_with_that_max_order(scorer, hyp, ref):
    row = dict(zip(SEGMENT_METRICS, scorer.score(hyp, ref)))
    for n in (1, 2, 3, 4):
        direct = BLEU(effective_order=True, max_ngram_order=n).sentence_score(hyp, [ref]).score
        assert row[f"BLEU_{n}"] == pytest.approx(direct, abs=1e-9)
    assert row["Chrfpp"] == pytest.approx(CHRF(word_order=2).sentence_score(hyp, [ref]).score)


@pytest.mark.parametrize("hyp, ref", PAIRS)
def test_rouge_equals_rouge_score_with_the_stemmer(scorer, hyp, ref):
    row = dict(zip(SEGMENT_METRICS, scorer.score(hyp, ref)))
    direct = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True).score(ref, hyp)
    for ours, theirs in (("ROUGE_1", "rouge1"), ("ROUGE_2", "rouge2"), ("ROUGE_L", "rougeL")):
        assert row[ours] == pytest.approx(direct[theirs].fmeasure)


def test_js_by_hand():
    # P = (1/2, 1/2, 0), Q = (0, 1/2, 1/2): M = (1/4, 1/2, 1/4); KL(P||M) = 1/2 log2 2 + 1/2 log2 1 = 1/2
    assert js_divergence(Counter("ab"), Counter("bc")) == pytest.approx(0.5)
    assert js_divergence(Counter("ab"), Counter("ba")) == 0.0
    assert js_divergence(Counter("aa"), Counter("bb")) == pytest.approx(1.0)
    assert js_divergence(Counter(), Counter("a")) == 1.0


@given(st.lists(st.sampled_from("abcde"), max_size=12), st.lists(st.sampled_from("abcde"), max_size=12))
def test_js_is_symmetric_and_bounded(a, b):
    p, q = Counter(a), Counter(b)
    d = js_divergence(p, q)
    assert 0.0 <= d <= 1.0
    assert d == pytest.approx(js_divergence(q, p))


def test_identical_segment_is_perfect_and_empty_is_worst(scorer):
    best = dict(zip(SEGMENT_METRICS, scorer.score("Identical output .", "Identical output .")))
    assert (best["BLEU_1"] == pytest.approx(100) and best["ROUGE_L"] == 1.0 and best["JS_1"] == 0.0
            and best["JS_2"] == 0.0)
    worst = dict(zip(SEGMENT_METRICS, scorer.score("", "Not empty at all.")))
    assert worst["JS_1"] == -1.0 and worst["ROUGE_1"] == 0.0 and worst["BLEU_4"] == 0.0


def test_score_many_refuses_unaligned_lists(scorer):
    with pytest.raises(ValueError, match="not aligned"):
        scorer.score_many(["a", "b"], ["a"])


def test_caption_scores_match_pycocoevalcap_and_reject_missing_images():
    from pycocoevalcap.cider.cider import Cider

    refs = {1: ["A cat on a mat.", "The cat sits on the mat"], 2: ["A dog runs.", "Dog running in a park"],
            3: ["Two people ride bikes", "People riding bicycles on a road"]}
    cands = {1: "a cat sits on a mat", 2: "a dog in a park", 3: "two people on bikes", 99: "ignored"}
    scores = caption_scores(refs, cands)
    assert list(scores.index) == [1, 2, 3] and list(scores.columns) == list(textmetrics.CAPTION_METRICS)
    gts = {i: [textmetrics.caption_tokens(r) for r in refs[i]] for i in refs}
    res = {i: [textmetrics.caption_tokens(cands[i])] for i in refs}
    np.testing.assert_allclose(scores["CIDEr"], Cider().compute_score(gts, res)[1])
    assert (scores.loc[1] > scores.loc[2]).sum() >= 4  # the near-paraphrase beats the partial match
    with pytest.raises(ValueError, match="no candidate caption"):
        caption_scores(refs, {1: "a cat"})


def test_caption_tokens():
    assert textmetrics.caption_tokens("A Cat, on the  mat!") == "a cat on the mat"
    assert set(textmetrics.library_versions()) == {"sacrebleu", "rouge-score", "rapidfuzz", "pycocoevalcap"}


@pytest.mark.parametrize("seed", range(5))
def test_js_divergence_equals_scipy_jensenshannon(seed):
    """scipy returns the Jensen-Shannon *distance*, the square root of the divergence."""
    from scipy.spatial.distance import jensenshannon

    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(12)]
    p = Counter(rng.choice(words, size=20).tolist())
    q = Counter(rng.choice(words, size=15).tolist())
    keys = sorted(set(p) | set(q))
    expected = jensenshannon([p[k] for k in keys], [q[k] for k in keys], base=2) ** 2
    assert js_divergence(p, q) == pytest.approx(expected, abs=1e-12)
    assert js_divergence(p, Counter()) == 1.0


def test_segment_scores_do_not_depend_on_the_hash_seed():
    """Every metric, JS included, gives the same bits under different PYTHONHASHSEEDs (a set's order does not)."""
    import subprocess
    import sys

    code = ("from analysis.data.textmetrics import SegmentScorer; s = SegmentScorer(); "
            "print([repr(v) for v in s.score('the cat sat on the mat with a hat and a bat', "
            "'a cat was sitting on the mat, the hat on a bat')])")
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}) for seed in ("1", "2", "3", "4")]
    outputs = {run.communicate()[0] for run in runs}
    assert [run.returncode for run in runs] == [0] * 4 and len(outputs) == 1, outputs


_TEXT = st.lists(st.sampled_from(list("aAbB éÉ.,;!?-'\"()\t\n 0123 İßﬁ中文&<>/\xa0\x1c\u2028\ud800K")
                                 + ["the", "The ", " cat", "ran.", "&quot;", "&AMP;", "<skipped>", "-\n", "1,5",
                                    "2.-"]),
                 max_size=30).map("".join)


@given(_TEXT, _TEXT)
def test_every_metric_equals_the_libraries_on_arbitrary_text(hyp, ref):
    """Unicode (lone surrogates too), empty, whitespace-only and punctuation-only segments: BLEU, ROUGE and chrF++
    are exactly the libraries', JS exactly its definition."""
    ours = SegmentScorer().score(hyp, ref)
    assert list(ours) == _reference_row(hyp, ref)


@given(_TEXT)
def test_13a_tokens_equal_sacrebleus(text):
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as Sacrebleu13a

    assert Tokenizer13a()(text) == Sacrebleu13a()(text)


@given(st.lists(st.integers(0, 6), max_size=14), st.lists(st.integers(0, 6), max_size=14), st.integers(1, 6),
       st.sampled_from([1, 2**21, 2**40]))
def test_match_counts_equal_counter_intersections(hyp, ref, max_order, scale):
    """The kernel's n-gram counts and multiset intersections are Counter's, whatever the symbols' size."""
    hyp, ref = np.array(hyp, np.int64) * scale, np.array(ref, np.int64) * scale
    out = np.full(3 * max_order + 2, -1, np.int64)
    ngram_statistics._match_counts(hyp, ref, max_order, out, 1, np.empty((6, len(hyp) + len(ref) + 1), np.int64))
    for n in range(1, max_order + 1):
        h, r = (Counter(zip(*(s.tolist()[i:] for i in range(n)))) for s in (hyp, ref))
        expected = [sum(h.values()), sum(r.values()), sum((h & r).values())]
        assert out[1 + 3 * (n - 1):1 + 3 * n].tolist() == expected
    assert out[0] == out[-1] == -1


def _sacrebleu_bleu(stats, n):
    sys_len, ref_len = stats[0], stats[1]
    totals = [max(sys_len - i, 0) for i in range(n)]
    return BLEU.compute_bleu(list(stats[2:2 + n]), totals, sys_len, ref_len, smooth_method="exp",
                             effective_order=True, max_ngram_order=n).score


def test_bleu_from_statistics_equals_sacrebleus_compute_bleu_on_every_small_case():
    """Every (hypothesis length, reference length, matches) with lengths up to 6: the transcription of
    ``compute_bleu`` gives sacrebleu's float for each maximum order."""
    import itertools

    scorer = SegmentScorer()
    for sys_len, ref_len in itertools.product(range(7), range(7)):
        ranges = [range(max(sys_len - i, 0) + 1) for i in range(4)]
        for correct in itertools.product(*ranges):
            stats = (sys_len, ref_len, *correct)
            for n in (1, 2, 3, 4):
                assert scorer._bleu_n(stats, n) == _sacrebleu_bleu(stats, n), (stats, n)


@given(st.integers(0, 400), st.integers(0, 400), st.lists(st.floats(0, 1), min_size=4, max_size=4))
def test_bleu_from_statistics_equals_sacrebleus_compute_bleu(sys_len, ref_len, shares):
    stats = (sys_len, ref_len, *(round(s * max(sys_len - i, 0)) for i, s in enumerate(shares)))
    for n in (1, 2, 3, 4):
        assert SegmentScorer()._bleu_n(stats, n) == _sacrebleu_bleu(stats, n)


@given(st.lists(st.integers(-3, 3), max_size=40))
def test_sort_positions_is_a_stable_argsort(keys):
    keys = np.array(keys, np.int64)
    order = np.empty(len(keys), np.int64)
    ngram_statistics._sort_positions(keys, len(keys), order, np.empty(len(keys), np.int64))
    np.testing.assert_array_equal(order, np.argsort(keys, kind="stable"))


def test_a_scorer_scores_the_same_whatever_it_scored_before():
    """Caches (texts, words, pairs, BLEU statistics) and the growing vocabulary change no score."""
    pairs = PAIRS + [("the cat sat on the mat .", "on the mat sat the cat")]
    used = SegmentScorer()
    used.score_many(["zebra quagga", "a b c d e f"] * 3, ["aardvark zebra", "f e d c b a"] * 3)
    np.testing.assert_array_equal(used.score_many(*zip(*pairs)), SegmentScorer().score_many(*zip(*pairs)))
    np.testing.assert_array_equal(used.score_many(*zip(*pairs[::-1])),
                                  np.array([_reference_row(*p) for p in pairs[::-1]]))


def test_every_segment_of_a_full_language_pair_equals_the_libraries(fetched):
    """All 11 systems x 1,000 segments of WMT19 kk-en, scored by the compendium and by the libraries one segment at
    a time (JS by its definition): equal to the last bit; and every text's 13a tokens are sacrebleu's."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as Sacrebleu13a

    from analysis.data.paired import read_lines, wmt_inventory

    ref_file, outputs = wmt_inventory()[("WMT19", "kk-en")]
    reference = read_lines(ref_file, fetched)
    scorer, ours_13a, sacrebleu_13a = SegmentScorer(), Tokenizer13a(), Sacrebleu13a()
    for _, output in outputs:
        hypotheses = read_lines(output, fetched)
        ours = scorer.score_many(hypotheses, reference)
        theirs = np.array([_reference_row(h, r) for h, r in zip(hypotheses, reference)])
        np.testing.assert_array_equal(ours, theirs)
        for text in hypotheses:
            assert ours_13a(text) == sacrebleu_13a(text) and ours_13a(text.lower()) == sacrebleu_13a(text.lower())


@given(st.lists(st.tuples(_TEXT, st.lists(st.sampled_from(["The cat sat.", "", "a b c d e f", "Ünïcödé text!"]),
                                          min_size=1, max_size=2)), max_size=8),
       st.sampled_from([0, 2]))
def test_sentence_chrf_equals_sacrebleu_one_by_one_with_references_counted_once(pairs, word_order):
    hypotheses, references = [h for h, _ in pairs], [refs for _, refs in pairs]
    theirs = [CHRF(word_order=word_order).sentence_score(h, refs).score for h, refs in pairs]
    assert textmetrics.sentence_chrf(hypotheses, references, word_order).tolist() == theirs
