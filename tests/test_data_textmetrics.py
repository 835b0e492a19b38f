"""Sentence-level metrics recomputed from text, checked against the libraries they wrap and hand computations."""

import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

from analysis.data import textmetrics
from analysis.data.textmetrics import SEGMENT_METRICS, SegmentScorer, caption_scores, js_divergence

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
    assert best["BLEU_1"] == pytest.approx(100) and best["ROUGE_L"] == 1.0 and best["JS_1"] == 0.0 and best["JS_2"] == 0.0
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
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3", "4")}
    assert len(outputs) == 1, outputs


def _library_row(hyp: str, ref: str) -> list[float]:
    """The ten metrics of one segment from the reference libraries, one call each (BLEU-n from sacrebleu with that
    maximum order)."""
    rouge = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True).score(ref, hyp)
    bleu = [BLEU(effective_order=True, max_ngram_order=n).sentence_score(hyp, [ref]).score for n in (1, 2, 3, 4)]
    chrf = CHRF(word_order=2).sentence_score(hyp, [ref]).score
    return bleu + [rouge[k].fmeasure for k in ("rouge1", "rouge2", "rougeL")] + [chrf]


_TEXT = st.lists(st.sampled_from(list("aAbB éÉ.,;!?-'\"()\t\n 0123 İßﬁ中文") + ["the", "The ", " cat", "ran."]),
                 max_size=30).map("".join)


@given(_TEXT, _TEXT)
def test_every_metric_equals_the_libraries_on_arbitrary_text(hyp, ref):
    """Unicode, empty, whitespace-only and punctuation-only segments: BLEU, ROUGE and chrF++ are exactly the
    libraries' (the reference-side cache and the compiled LCS change nothing)."""
    ours = SegmentScorer().score(hyp, ref)
    assert list(ours[:8]) == _library_row(hyp, ref)


def test_every_segment_of_a_full_language_pair_equals_the_libraries(fetched):
    """All 11 systems x 1,000 segments of WMT19 kk-en, scored by the compendium and by the libraries one segment at
    a time: equal to the last bit."""
    from analysis.data.paired import read_lines, wmt_inventory

    ref_file, outputs = wmt_inventory()[("WMT19", "kk-en")]
    reference = read_lines(ref_file, fetched)
    scorer = SegmentScorer()
    for _, output in outputs:
        hypotheses = read_lines(output, fetched)
        ours = scorer.score_many(hypotheses, reference)
        theirs = np.array([_library_row(h, r) for h, r in zip(hypotheses, reference)])
        np.testing.assert_array_equal(ours[:, :8], theirs)
