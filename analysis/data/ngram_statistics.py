"""The compiled kernels of :class:`analysis.data.textmetrics.SegmentScorer`: the n-gram counts of two symbol
streams (token ids or code points) and the size of their multiset intersection, order by order (BLEU's, ROUGE-1/2's
and chrF++'s statistics), JS-1/2 as :func:`~analysis.data.textmetrics.js_divergence` computes it, and all of them for
a whole batch of (hypothesis, reference) pairs in one call (:func:`_segment_statistics`)."""

from __future__ import annotations

import math

import numba
import numpy as np

# columns of _segment_statistics: sacrebleu BLEU orders 1-4, rouge 1-2, chrF++ characters 1-6, words 1-2
_BLEU, _ROUGE, _CHRF, _WIDTH = 0, 12, 18, 42
# symbol streams of a text: BLEU's 13a tokens, lower-cased 13a tokens (JS), rouge-score's tokens, chrF's characters
# (whitespace removed), chrF's words; the n-gram orders and first column of the counted ones
_COUNTED, _ORDERS, _COLUMNS = (0, 2, 3, 4), (4, 2, 6, 2), (_BLEU, _ROUGE, _CHRF, _CHRF + 18)


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
    """:func:`~analysis.data.textmetrics.js_divergence` of the n-gram counts of a hypothesis (``keys[:nh]``) and a
    reference (``keys[nh:m]``), n-grams given as integers in the order of the sorted n-grams: the terms are summed in
    that order with the same operations as there, so the result is the same float."""
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
