"""Everything the compendium can say about one score matrix: every mechanism with a bootstrap interval, pairwise
P(A > B) with significance, how often the mechanisms disagree, and whether removing a system reorders the rest.

This is the "bring your own scores" analysis (``python -m analysis compare`` and chapter ``09_your_own_scores``),
built from the four papers' methods:

* MEAN, MEDIAN, BT, Elo, TrueSkill (Peyrard et al. 2021) with 95% percentile-bootstrap intervals over instances;
* P(A > B) per pair with the sign test and Wilcoxon's signed-rank test (Peyrard et al. 2021, §3.2, App. D);
* Table 1's disagreement measures between every pair of mechanisms;
* Knowles (2021)'s stability question, asked of every mechanism: does removing the best or the worst system change
  the order of the others? (MEAN and MEDIAN score each system alone, so they never change; BT, Elo and TrueSkill
  can.)

The bootstrap draws one set of resamples: MEAN, MEDIAN and BT use all ``n_resamples`` (BT's win counts are
computed for every resample at once from per-instance outcomes), Elo and TrueSkill, which replay every game, the
first ``n_resamples_sequential`` of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import aggregate, bt, comparisons
from .agreement import compare_aggregators, measure_column, mechanism_pairs, order_changes, pair_label
from .comparisons import comparison_counts
from .pairwise import sign_test, wilcoxon
from .validation import check_rng, check_scores

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
SEQUENTIAL = ("elo", "trueskill")
_BLOCK = 1 << 24  # elements per block of resampled values (bounds the memory of the vectorised bootstrap)


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`. ``systems``: per system, each mechanism's score, its interval and the
    system's rank under it (1 = best). ``prob``: P(row beats column) with ties as half. ``sign_p`` and
    ``wilcoxon_p``: two-sided p-values per pair. ``disagreement``: Table 1's measures per pair of mechanisms.
    ``stability``: per mechanism, whether removing its best or worst system reorders the others."""

    systems: pd.DataFrame
    prob: pd.DataFrame
    sign_p: pd.DataFrame
    wilcoxon_p: pd.DataFrame
    disagreement: pd.DataFrame
    stability: pd.DataFrame
    settings: dict = field(default_factory=dict)

    def marked_prob(self, alpha: float = 0.05) -> pd.DataFrame:
        """P(row > column) as text, with * where the sign test and † where Wilcoxon's test reject at ``alpha``."""
        text = self.prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}")
        text += (self.sign_p < alpha).map(lambda s: "*" if s else "")
        text += (self.wilcoxon_p < alpha).map(lambda s: "†" if s else "")
        return text

    def to_dict(self) -> dict:
        """Everything as plain JSON-able values (``--json``); :func:`from_dict` reads it back."""
        def frame(f: pd.DataFrame) -> dict:
            return {"index": [_plain(i) for i in f.index], "index_name": f.index.name,
                    "columns": [str(c) for c in f.columns],
                    "data": [[_plain(v) for v in row] for row in f.itertuples(index=False)]}

        return {"settings": self.settings, **{name: frame(getattr(self, name)) for name in _FRAMES}}


_FRAMES = ("systems", "prob", "sign_p", "wilcoxon_p", "disagreement", "stability")


def _plain(v):
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if np.isnan(v) else float(v)
    return v


def from_dict(payload: dict) -> Comparison:
    """The :class:`Comparison` that :meth:`Comparison.to_dict` wrote."""
    def frame(d: dict) -> pd.DataFrame:
        out = pd.DataFrame(d["data"], index=d["index"], columns=d["columns"]).fillna(np.nan)
        return out.rename_axis(index=d.get("index_name"))

    return Comparison(**{name: frame(payload[name]) for name in _FRAMES}, settings=payload["settings"])


def mechanisms(ties: str = "half") -> dict[str, Callable]:
    """The five mechanisms with one tie policy (:func:`analysis.aggregate.mechanisms`)."""
    return aggregate.mechanisms(ties, MECHANISMS)


def _ranks(values: pd.Series) -> pd.Series:
    return values.rank(ascending=False, method="min").astype(int)


def bootstrap_draws(scores: pd.DataFrame, fns: dict, *, rng, n_resamples: int, n_resamples_sequential: int,
                    ties: str, progress: Callable[[str], None] | None = None) -> dict[str, np.ndarray]:
    """Per mechanism, a (resamples x systems) array of its scores on resampled test sets (instances drawn with
    replacement). The resamples are those of :func:`analysis.pairwise.bootstrap_ci` with the same generator."""
    values = check_scores(scores)
    gen = check_rng(rng)
    n = len(values)
    idx = gen.integers(0, n, size=(n_resamples, n))
    say = progress or (lambda _: None)
    draws = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        if name == "mean":
            draws[name] = np.vstack([values[rows].mean(axis=1) for rows in _blocks(idx, values.shape[1])])
        elif name == "median":
            draws[name] = np.vstack([np.median(values[rows], axis=1) for rows in _blocks(idx, values.shape[1])])
        elif name == "bt":
            draws[name] = _bootstrap_bt(values, idx, ties)
        else:
            k = min(n_resamples_sequential, n_resamples)
            draws[name] = np.array([np.asarray(fn(pd.DataFrame(values[idx[r]], columns=scores.columns)), float)
                                    for r in range(k)]).reshape(k, values.shape[1])
        say(f"bootstrap {name}: {len(draws[name])} resamples in {time.perf_counter() - start:.1f} s")
    return draws


def _blocks(idx: np.ndarray, n_systems: int):
    step = max(1, _BLOCK // max(1, idx.shape[1] * n_systems))
    for start in range(0, len(idx), step):
        yield idx[start:start + step]


def _bootstrap_bt(values: np.ndarray, idx: np.ndarray, ties: str) -> np.ndarray:
    """BT on every resample: each resample's instance multiplicities weight the per-instance comparisons
    (:func:`analysis.comparisons.win_matrices`), and every block of resamples is fitted as one stack."""
    n, s = values.shape
    per_instance = comparisons.from_scores(pd.DataFrame(values), by_instance=True)
    out = np.empty((len(idx), s))
    for start in range(0, len(idx), 256):
        block = idx[start:start + 256]
        weights = np.zeros((len(block), n))
        np.add.at(weights, (np.repeat(np.arange(len(block)), n), block.ravel()), 1.0)
        out[start:start + len(block)] = bt.fit(comparisons.win_matrices(per_instance, ties, weights)).strengths
    return out


def stability(scores: pd.DataFrame, fns: dict) -> pd.DataFrame:
    """Knowles (2021)'s remove-a-system test for every mechanism: remove its best, then its worst system, re-run it
    on the rest, and count the pairs of remaining systems it now orders differently."""
    rows = []
    for name, fn in fns.items():
        full = pd.Series(np.asarray(fn(scores), float), index=scores.columns)
        for which, system in (("best", full.idxmax()), ("worst", full.idxmin())):
            rest = scores.drop(columns=system)
            if rest.shape[1] < 2:
                rows.append({"mechanism": name, "removed": which, "system": system, "pairs": 0, "pairs_reordered": 0,
                             "reordered": False})
                continue
            after = pd.Series(np.asarray(fn(rest), float), index=rest.columns)
            changed = order_changes(full, after)
            k = rest.shape[1]
            rows.append({"mechanism": name, "removed": which, "system": system, "pairs": k * (k - 1) // 2,
                         "pairs_reordered": changed, "reordered": changed > 0})
    return pd.DataFrame(rows)


def pairwise_tables(scores: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(P(row > column) with ties as half, sign-test p, Wilcoxon p); diagonals empty."""
    values = check_scores(scores)
    wins, ties = comparison_counts(values)
    names = scores.columns
    share = (wins + 0.5 * ties) / len(values)
    np.fill_diagonal(share, np.nan)
    prob = pd.DataFrame(share, index=names, columns=names)
    sign_p = pd.DataFrame(np.nan, index=names, columns=names)
    wil_p = pd.DataFrame(np.nan, index=names, columns=names)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i < j:
                sign_p.loc[a, b] = sign_p.loc[b, a] = sign_test(values[:, i], values[:, j]).pvalue
                wil_p.loc[a, b] = wil_p.loc[b, a] = wilcoxon(values[:, i], values[:, j]).pvalue
    return prob, sign_p, wil_p


def disagreement_table(scores: pd.DataFrame, fns: dict) -> pd.DataFrame:
    """Table 1's measures on this one setup: per pair of mechanisms, the share of system pairs ordered differently
    and whether the best system and the top-3 set differ."""
    row = compare_aggregators(scores, fns, k=3)
    return pd.DataFrame([{"pair": pair_label((a, b)), "disagree": row[measure_column((a, b), "disagree")],
                          "top1_differs": bool(row[measure_column((a, b), "top1")]),
                          "top3_differs": bool(row[measure_column((a, b), "top3")])}
                         for a, b in mechanism_pairs(fns)]).set_index("pair")


def compare(scores: pd.DataFrame, *, ties: str = "half", rng=2021, n_resamples: int = 1000,
            n_resamples_sequential: int = 100, confidence: float = 0.95,
            progress: Callable[[str], None] | None = None) -> Comparison:
    """The whole comparison of one score matrix (higher is better; negate scores where lower is better)."""
    check_scores(scores)
    for name, value, low in (("n_resamples", n_resamples, 1), ("n_resamples_sequential", n_resamples_sequential, 0)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    fns = mechanisms(ties)
    say = progress or (lambda _: None)
    start = time.perf_counter()
    estimates = {name: pd.Series(np.asarray(fn(scores), float), index=scores.columns) for name, fn in fns.items()}
    draws = bootstrap_draws(scores, fns, rng=rng, n_resamples=n_resamples,
                            n_resamples_sequential=n_resamples_sequential, ties=ties, progress=say)
    alpha = (1 - confidence) / 2
    systems = pd.DataFrame(index=pd.Index(scores.columns, name="system"))  # a new Index: never rename the caller's
    for name in fns:
        low, high = (np.quantile(draws[name], [alpha, 1 - alpha], axis=0) if len(draws[name])
                     else (np.full(scores.shape[1], np.nan),) * 2)
        systems[name] = estimates[name]
        systems[f"{name}_low"] = low
        systems[f"{name}_high"] = high
        systems[f"{name}_rank"] = _ranks(estimates[name])
    prob, sign_p, wil_p = pairwise_tables(scores)
    say(f"pairwise tests: {scores.shape[1] * (scores.shape[1] - 1) // 2} pairs")
    table = disagreement_table(scores, fns)
    stable = stability(scores, fns)
    settings = {"ties": ties, "n_resamples": n_resamples,
                "n_resamples_sequential": min(n_resamples_sequential, n_resamples), "confidence": confidence,
                "seed": rng if isinstance(rng, (int, np.integer)) else None,
                "n_instances": int(scores.shape[0]), "n_systems": int(scores.shape[1]),
                "seconds": round(time.perf_counter() - start, 3)}
    return Comparison(systems, prob, sign_p, wil_p, table, stable, settings)
