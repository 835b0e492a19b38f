"""Straightforward, loop-based transcriptions used as independent references in the tests and benchmarks.

They follow the formulas of Peyrard et al. (2021), Appendix E (BT) and G.1 (Elo), and the game order of the paper's
published tool, with no vectorisation, so that a vectorised implementation can be checked against them.
"""

import itertools
from collections import Counter

import numpy as np
import trueskill as ts
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

from analysis.data.textmetrics import js_divergence
from analysis.data.tokenizer13a import Tokenizer13a


def bt_loop(scores, ties="loss", epsilon=1e-9):
    """Appendix E, eqs. (3)-(4), with Python loops over pairs, instances and systems."""
    names = list(scores.columns)
    n = len(names)
    wins = [[0.0] * n for _ in range(n)]
    for a, b in itertools.combinations(range(n), 2):
        for x, y in zip(scores[names[a]], scores[names[b]]):
            if x > y:
                wins[a][b] += 1
            elif x < y:
                wins[b][a] += 1
            elif ties == "half":
                wins[a][b] += 0.5
                wins[b][a] += 0.5
            elif ties == "loss":
                wins[b][a] += 1
    total = [sum(row) for row in wins]
    p = [0.5] * n
    while True:
        new = []
        for i in range(n):
            s = 0.0
            for j in range(n):
                if i != j and wins[i][j] + wins[j][i] > 0:
                    s += (wins[i][j] + wins[j][i]) / (p[i] + p[j])
            new.append(total[i] / s)
        norm = sum(new)
        new = [v / norm for v in new]
        if sum((u - v) ** 2 for u, v in zip(p, new)) < epsilon:
            return np.array(new)
        p = new


def elo_loop(scores, k=20.0, initial=1500.0, ties="half"):
    """Appendix G.1, eq. (5): R <- R + K (S - E), E = 1 / (1 + 10^((R_other - R) / 400))."""
    rating = {s: initial for s in scores.columns}
    for a, b in itertools.combinations(scores.columns, 2):
        for x, y in zip(scores[a], scores[b]):
            if x > y:
                result = 1.0
            elif x < y:
                result = 0.0
            elif ties == "half":
                result = 0.5
            elif ties == "loss":
                result = 0.0
            else:
                continue
            expected_a = 1.0 / (1.0 + 10 ** ((rating[b] - rating[a]) / 400.0))
            expected_b = 1.0 / (1.0 + 10 ** ((rating[a] - rating[b]) / 400.0))
            rating[a] += k * (result - expected_a)
            rating[b] += k * ((1.0 - result) - expected_b)
    return np.array([rating[s] for s in scores.columns])


def trueskill_loop(scores, ties="half", env=None):
    """The ``trueskill`` package's rate_1vs1 over the same games (the paper's TrueSkill.py wrapper)."""
    env = env or ts.TrueSkill(backend=None)
    rating = {s: env.create_rating() for s in scores.columns}
    for a, b in itertools.combinations(scores.columns, 2):
        for x, y in zip(scores[a], scores[b]):
            if x > y:
                rating[a], rating[b] = ts.rate_1vs1(rating[a], rating[b], env=env)
            elif x < y:
                rating[b], rating[a] = ts.rate_1vs1(rating[b], rating[a], env=env)
            elif ties == "half":
                rating[b], rating[a] = ts.rate_1vs1(rating[b], rating[a], drawn=True, env=env)
            elif ties == "loss":
                rating[b], rating[a] = ts.rate_1vs1(rating[b], rating[a], env=env)
    return np.array([rating[s].mu for s in scores.columns])


def favi_loop(human, metric):
    """von Däniken et al. (2024), Defs. 4-13, pair by pair and item by item: one dict per system pair (a < b as
    strings; pairs without a fully rated item left out) with n_items, the nine confusion cells c_<human><metric>
    (p/e/m = +, =, -), favi (NaN without an error), sample_accuracy and system_sign_agrees."""
    cost = {(m, n): c for m, row in zip((1, 0, -1), ((0, -1, -2), (1, 0, -1), (2, 1, 0)))
            for n, c in zip((1, 0, -1), row)}
    symbol = {1: "p", 0: "e", -1: "m"}
    sign = lambda v: (v > 0) - (v < 0)  # noqa: E731
    rows = []
    for a, b in itertools.combinations(sorted(human.columns, key=str), 2):
        cells = {f"c_{x}{y}": 0 for x in "pem" for y in "pem"}
        total, error, weighted, margin_h, margin_m = 0, 0, 0, 0, 0
        for ha, hb, ma, mb in zip(human[a], human[b], metric[a], metric[b]):
            if any(v != v for v in (ha, hb, ma, mb)):  # NaN: not rated
                continue
            h, m = sign(ha - hb), sign(ma - mb)
            cells[f"c_{symbol[h]}{symbol[m]}"] += 1
            total += 1
            error += h != m
            weighted += cost[h, m]
            margin_h += h
            margin_m += m
        if total:
            rows.append({"system_a": a, "system_b": b, "n_items": total, **cells,
                         "favi": weighted / error if error else float("nan"),
                         "sample_accuracy": (total - error) / total,
                         "system_sign_agrees": sign(margin_h) == sign(margin_m)})
    return rows


def knowles_ranking_loop(rows, divide=1.0, remove=(), remove_human=False, sig_remove=(), remove_human_sig=False,
                         variant="scipy<1.7", pool_rows=None):
    """A line-by-line transcription of Knowles 2021's ``get_ranking.py`` (nrc-cnrc/WMT-Stability), on a list of
    (worker, system, segment, item_type, raw) tuples of one language pair: the mean and sd per worker over all kept
    items, z of SYSTEM/REPEAT items, duplicates averaged per (system, segment), systems sorted by mean z, and a line
    after a system iff its largest Mann-Whitney p against every lower system is < 0.05. Returns [(system, z,
    line_below)]. ``variant`` "greater" swaps in the one-sided test for the old scipy default. ``pool_rows``: the
    rows the means and sds come from (her ``ad-latest.csv``; default ``rows``, her ``ad-good-raw-redup.csv``)."""
    from collections import defaultdict

    from scipy import stats

    def keep(system, stype):
        return system not in remove and not (remove_human and (stype == "REF" or "HUMAN" in system))

    def divided(system, stype, score):
        return score / divide if divide != 1.0 and (stype == "REF" or "HUMAN" in system) else score

    hit_scores = defaultdict(list)
    for worker, system, _, stype, score in (rows if pool_rows is None else pool_rows):
        if keep(system, stype):
            hit_scores[worker].append(divided(system, stype, float(score)))
    hit_vals = {w: (np.mean(v), np.std(v, ddof=1)) for w, v in hit_scores.items()}
    scores = [(w, s, sid, divided(s, t, float(x))) for w, s, sid, t, x in rows
              if keep(s, t) and t in ("SYSTEM", "REPEAT")]
    zscores = []
    for worker in {x[0] for x in scores}:
        mu, sd = hit_vals[worker]
        if sd != 0 and sd == sd:
            zscores += [(w, s, sid, (x - mu) / sd) for w, s, sid, x in scores if w == worker]
    systems = [s for s in {x[1] for x in scores} if s not in sig_remove and not (remove_human_sig and "HUMAN" in s)]

    def average_duplicates(lst):
        return [np.mean([x[3] for x in lst if x[2] == sid]) for sid in sorted({x[2] for x in lst})]

    sys_z = {s: average_duplicates([x for x in zscores if x[1] == s]) for s in systems}
    ordered = sorted(((np.mean(sys_z[s]), s) for s in systems), key=lambda t: (-t[0], t[1]))
    out = []
    for i, (z, s) in enumerate(ordered):
        max_sig = 0.0
        for _, lower in ordered[i + 1:]:
            if variant == "greater":
                sig = stats.mannwhitneyu(sys_z[s], sys_z[lower], alternative="greater", method="asymptotic").pvalue
            else:
                sig = stats.mannwhitneyu(sys_z[s], sys_z[lower], alternative="two-sided",
                                         method="asymptotic").pvalue / 2
            max_sig = max(max_sig, sig)
        out.append((s, z, i + 1 < len(ordered) and max_sig < 0.05))
    return out


# -- sentence-level text metrics, from the libraries one segment at a time ----------------------------------------

def _plain_js(hyp: str, ref: str) -> list[float]:
    """JS_1 and JS_2 by their definition: :func:`js_divergence` of the n-gram Counters of sacrebleu's 13a tokens of
    the lower-cased texts, negated."""
    tokens = [Tokenizer13a()(text.lower()).split() for text in (hyp, ref)]
    return [-js_divergence(*(Counter(zip(*(t[i:] for i in range(n)))) for t in tokens)) for n in (1, 2)]


def _library_row(hyp: str, ref: str) -> list[float]:
    """The ten metrics of one segment from the reference libraries, one call each (BLEU-n from sacrebleu with that
    maximum order)."""
    rouge = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True).score(ref, hyp)
    bleu = [BLEU(effective_order=True, max_ngram_order=n).sentence_score(hyp, [ref]).score for n in (1, 2, 3, 4)]
    chrf = CHRF(word_order=2).sentence_score(hyp, [ref]).score
    return bleu + [rouge[k].fmeasure for k in ("rouge1", "rouge2", "rougeL")] + [chrf]


def text_metrics_row(hyp: str, ref: str) -> list[float]:
    """All ten metrics of ``data prepare`` for one segment, from the reference libraries one call each: sacrebleu's
    BLEU-1..4 (each with that maximum order) and chrF++, rouge-score's ROUGE-1/2/L with the stemmer, and the two JS
    by their definition (:func:`analysis.data.textmetrics.js_divergence` of 13a tokens' n-gram counts)."""
    return _library_row(hyp, ref) + _plain_js(hyp, ref)
