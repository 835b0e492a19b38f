"""The comparison of one score matrix (complete, or with missing scores) by every mechanism of the book."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .. import aggregate, bt, comparisons
from ..agreement import disagreement as rank_disagreement
from ..agreement import mechanism_pairs, order_changes, pair_label, top_k_differs
from ..validation import check_rng, check_scores
from . import evidence, intervals, sequential

MECHANISMS = ("mean", "median", "bt", "elo", "trueskill")
SEQUENTIAL = ("elo", "trueskill")
#: random game orders averaged into the Elo and TrueSkill estimates, and in the stability test's reruns
N_ORDERS = 10
N_ORDERS_STABILITY = 2
#: ``n_resamples_sequential=None``: 100 resamples, or fewer (at least 20) where they would replay more games than this
SEQUENTIAL_GAMES = 40_000_000
FRAMES = ("systems", "prob", "prob_low", "prob_high", "common", "sign_p", "wilcoxon_p", "sign_p_adj",
          "wilcoxon_p_adj", "disagreement", "stability", "human")


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare`. ``systems``: per system, each mechanism's score, its interval and the
    system's rank under it (1 = best), BT's 95% rank interval and its statistically tied group (and, for a file
    with missing scores, the per-instance-adjusted mean and each system's number of instances). ``prob``: P(row
    beats column) with ties as half, with ``prob_low``/``prob_high`` its interval and ``common`` the instances
    (or judgments) of each pair. ``sign_p`` and ``wilcoxon_p``: two-sided p-values per pair, ``*_adj`` adjusted
    for the number of pairs. ``disagreement``: the paired paper's Table 1 measures per pair of mechanisms.
    ``stability``: per mechanism, whether removing its best or worst system reorders the others. ``human`` (empty
    without human ratings): per pair, the Favi-Score and sign accuracy against the human ratings
    (:func:`analysis.compare.human.human_table`; the overall accuracies in ``settings["human"]``)."""

    systems: pd.DataFrame
    prob: pd.DataFrame
    prob_low: pd.DataFrame
    prob_high: pd.DataFrame
    common: pd.DataFrame
    sign_p: pd.DataFrame
    wilcoxon_p: pd.DataFrame
    sign_p_adj: pd.DataFrame
    wilcoxon_p_adj: pd.DataFrame
    disagreement: pd.DataFrame
    stability: pd.DataFrame
    human: pd.DataFrame = field(default_factory=pd.DataFrame)
    settings: dict = field(default_factory=dict)

    def marked_prob(self, alpha: float | None = None) -> pd.DataFrame:
        """P(row > column) as text, with * where the sign test and † where Wilcoxon's test reject at ``alpha``
        after the adjustment for multiple comparisons (``settings["adjust"]``)."""
        alpha = self.settings.get("alpha", 0.05) if alpha is None else alpha
        text = self.prob.map(lambda v: "" if np.isnan(v) else f"{v:.2f}")
        text += (self.sign_p_adj < alpha).map(lambda s: "*" if s else "")
        text += (self.wilcoxon_p_adj < alpha).map(lambda s: "†" if s else "")
        return text

    def to_dict(self) -> dict:
        """Everything as plain JSON-able values (``--json``, schema in ``examples/README.md``); :func:`from_dict`
        reads it back. Infinite or NaN numbers are ``null``."""
        def frame(f: pd.DataFrame) -> dict:
            return {"index": [_plain(i) for i in f.index], "index_name": f.index.name,
                    "columns": [str(c) for c in f.columns],
                    "data": [[_plain(v) for v in row] for row in f.itertuples(index=False, name=None)]}

        return {"settings": _plain_tree(self.settings), **{name: frame(getattr(self, name)) for name in FRAMES}}


def _plain(v):
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if np.isfinite(v) else None
    if isinstance(v, np.generic):
        return v.item()
    return v


def _plain_tree(v):
    if isinstance(v, dict):
        return {str(k): _plain_tree(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain_tree(x) for x in v]
    return _plain(v)


def from_dict(payload: dict) -> Comparison:
    """The :class:`Comparison` that :meth:`Comparison.to_dict` wrote."""
    def frame(d: dict) -> pd.DataFrame:
        out = pd.DataFrame(d["data"], index=d["index"], columns=d["columns"]).fillna(np.nan)
        return out.rename_axis(index=d.get("index_name"))

    return Comparison(**{name: frame(payload[name]) for name in FRAMES if name in payload},
                      settings=payload["settings"])


def mechanisms(ties: str = "half") -> dict[str, Callable]:
    """The five mechanisms with one tie policy (:func:`analysis.aggregate.mechanisms`), in the file's game order."""
    return aggregate.mechanisms(ties, MECHANISMS)


def _ranks(values) -> np.ndarray:
    return pd.Series(values).rank(ascending=False, method="min").fillna(len(values)).astype(int).to_numpy()


def check_settings(n_resamples, n_resamples_sequential, confidence, alpha, method, adjust) -> None:
    """Refuse settings that make no interval or no test (the message names the setting)."""
    for name, value, low in (("n_resamples", n_resamples, 2),
                             ("n_resamples_sequential",
                              0 if n_resamples_sequential is None else n_resamples_sequential, 0)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if n_resamples_sequential == 1:
        raise ValueError("n_resamples_sequential must be 0 (no Elo/TrueSkill intervals) or >= 2, got 1")
    for name, value in (("confidence", confidence), ("alpha", alpha)):
        if not isinstance(value, (int, float, np.floating)) or isinstance(value, bool) or not 0 < value < 1:
            raise ValueError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    if method not in intervals.METHODS:
        raise ValueError(f"interval must be one of {list(intervals.METHODS)}, got {method!r}")
    if adjust not in evidence.ADJUST:
        raise ValueError(f"adjust must be one of {list(evidence.ADJUST)}, got {adjust!r}")


def _check_magnitude(values: np.ndarray, names) -> None:
    with np.errstate(over="ignore", invalid="ignore"):
        total = np.nansum(np.abs(values), axis=0) * 2
    if not np.isfinite(total).all():
        bad = [str(n) for n, ok in zip(names, np.isfinite(total)) if not ok]
        raise ValueError(f"scores of {bad} are so large (up to {np.nanmax(np.abs(values)):.3g}) that their sums "
                         "overflow to infinity; divide the scores by a power of ten")


def compare(scores: pd.DataFrame, *, ties: str = "half", rng=2021, n_resamples: int = 1000,
            n_resamples_sequential: int | None = None, confidence: float = 0.95, interval: str = "percentile",
            adjust: str = "holm", alpha: float = 0.05, lower_is_better: bool = False, n_orders: int = N_ORDERS,
            human: pd.DataFrame | None = None, progress: Callable[[str], None] | None = None,
            elo_k: float = sequential.ELO_K, elo_initial: float = sequential.ELO_INITIAL) -> Comparison:
    """The whole comparison of one score matrix (rows instances, columns systems; NaN = a system not scored on an
    instance, each pair then compared on the instances both have). ``lower_is_better``: the scores are errors;
    every mechanism ranks the lowest first and MEAN and MEDIAN are reported in the file's units.
    ``n_resamples_sequential`` (Elo and TrueSkill): default 100, or fewer (at least 20) where 100 would replay more
    than :data:`SEQUENTIAL_GAMES` games; ``settings`` records the number used."""
    check_scores(scores, allow_missing=True)
    check_settings(n_resamples, n_resamples_sequential, confidence, alpha, interval, adjust)
    say = progress or (lambda _: None)
    gen = check_rng(rng)
    start = time.perf_counter()
    names = pd.Index([str(c) for c in scores.columns], name="system")
    sign = -1.0 if lower_is_better else 1.0
    values = sign * scores.to_numpy(dtype=float)
    _check_magnitude(values, names)
    present = ~np.isnan(values)
    if not present.any(axis=0).all():
        raise ValueError(f"systems without any score: {list(names[~present.any(axis=0)])}")
    complete = bool(present.all())
    n, s = values.shape
    comps = evidence.instance_comparisons(values, names)
    credit = evidence.credit_matrix(comps, ties)
    try:
        bt_est = _bt(values, ties, complete, names)
    except ValueError as exc:
        raise ValueError(f"Bradley-Terry cannot rank these systems together: {exc}") from None
    degenerate = _degenerate(np.asarray(credit.sum(axis=0)).reshape(s, s), names)
    n_orders = _orders(n_orders, len(comps))
    elo = {"k": elo_k, "initial": elo_initial}  # Elo's step and start (--elo-k, --elo-initial)
    est = {"mean": np.nanmean(values, axis=0), "median": np.nanmedian(values, axis=0), "bt": bt_est}
    if not complete:
        est["mean_adj"] = evidence.adjusted_mean(values)
    order_gen = np.random.default_rng(gen.bit_generator.jumped())  # the orders never shift the resamples' stream
    all_rows = np.arange(n)
    for name in SEQUENTIAL:
        est[name] = sequential.replay_scores(values, name, np.tile(all_rows, (n_orders, 1)), order_gen,
                                             ties, **elo).mean(axis=0)
    say(f"estimates: {time.perf_counter() - start:.1f} s")
    draws = {m: [] for m in est}
    prob_draws = []
    report = intervals.Progress(say, n_resamples)
    if n_resamples_sequential is None:
        n_resamples_sequential = int(min(100, max(20, SEQUENTIAL_GAMES // max(1, len(comps)))))
    n_seq = min(n_resamples_sequential, n_resamples)
    for first, idx in intervals.index_blocks(gen, n, n_resamples, s):
        weights = intervals.counts(idx, n)
        draws["mean"].append(intervals.resampled_means(values, weights))
        draws["median"].append(intervals.resampled_medians(values, idx))
        stack = intervals.bt_stack(credit, weights, s)
        draws["bt"].append(intervals.bt_strengths(stack))
        prob_draws.append(intervals.prob_from_wins(stack))
        if not complete:
            draws["mean_adj"].append(evidence.adjusted_mean(values, weights))
        take = max(0, min(len(idx), n_seq - first))
        for name in SEQUENTIAL:
            if take:
                draws[name].append(sequential.replay_scores(values, name, idx[:take], order_gen, ties, **elo))
        report(first + len(idx))
    draws = {m: np.vstack(d) if d else np.empty((0, s)) for m, d in draws.items()}
    say(f"bootstrap: {n_resamples:,} resamples ({n_seq:,} for Elo and TrueSkill): {time.perf_counter() - start:.1f} s")
    jack = _jackknife(values, credit, est, complete, s) if interval == "bca" else {}
    systems = pd.DataFrame(index=names)
    widened = {}
    for name in est:
        method = interval if name in jack else "percentile"
        low, high = intervals.interval(draws[name], est[name], confidence, method, jack.get(name))
        if len(draws[name]):
            low, high, flag = intervals.contain(est[name], low, high)
            if flag.any():
                widened[name] = [str(x) for x in names[flag]]
        out, lo, hi = est[name], low, high
        if lower_is_better and name in ("mean", "median", "mean_adj"):
            out, lo, hi = -est[name], -high, -low
        systems[name], systems[f"{name}_low"], systems[f"{name}_high"] = out, lo, hi
        systems[f"{name}_rank"] = _ranks(est[name])
    ranks = intervals.rank_draws(draws["bt"])
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    systems["rank_low"], systems["rank_high"] = intervals.nan_quantiles(ranks, q) if len(ranks) else (np.nan,) * 2
    systems["instances"] = present.sum(axis=0)
    tables = evidence.pairwise_tables(values, names)
    say(f"pairwise tests: {s * (s - 1) // 2} pairs: {time.perf_counter() - start:.1f} s")
    probs = np.vstack(prob_draws) if prob_draws else np.empty((0, s, s))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the diagonal has no value
        p_low, p_high = (intervals.nan_quantiles(probs, q) if len(probs)
                         else (np.full((s, s), np.nan),) * 2)
    p_low = np.fmin(p_low, tables["prob"].to_numpy())  # every interval contains its estimate
    p_high = np.fmax(p_high, tables["prob"].to_numpy())
    sign_adj = evidence.adjust(tables["sign_p"], adjust)
    better = (sign_adj.to_numpy() < alpha) & (tables["prob"].to_numpy() > 0.5)
    order = np.argsort(-est["bt"], kind="stable")
    groups = intervals.tied_groups(list(order), better)
    systems["group"] = pd.Series(groups, index=order).sort_index().to_numpy()
    stable = stability(values, names, ties, complete, min(n_orders, N_ORDERS_STABILITY), order_gen, est, elo)
    settings = {"alignment": "complete" if complete else "pairwise", "ties": ties, "n_resamples": n_resamples,
                "n_resamples_sequential": n_seq, "n_orders": n_orders, "confidence": confidence,
                "interval": interval, "adjust": adjust, "alpha": alpha, "lower_is_better": bool(lower_is_better),
                "seed": int(rng) if isinstance(rng, (int, np.integer)) else None,
                "n_instances": int(n), "n_systems": int(s), "n_comparisons": int(len(comps)),
                "widened": widened, "degenerate": degenerate, "elo_k": float(elo_k), "elo_initial": float(elo_initial)}
    human_frame = pd.DataFrame()
    if human is not None:
        from .human import human_table

        human_frame, settings["human"] = human_table(human, scores, n_resamples=n_resamples, rng=gen,
                                                     confidence=confidence, lower_is_better=lower_is_better)
    frame = pd.DataFrame
    names = tables["prob"].index
    return Comparison(systems, tables["prob"], frame(p_low, index=names, columns=names),
                      frame(p_high, index=names, columns=names), tables["common"], tables["sign_p"],
                      tables["wilcoxon_p"], sign_adj, evidence.adjust(tables["wilcoxon_p"], adjust),
                      disagreement_table(systems), stable, human_frame, settings)


def _degenerate(wins: np.ndarray, names) -> dict:
    """The systems BT cannot place at a finite interior strength: groups that never lose or never win against the
    others (:func:`analysis.bt.unbounded_groups`), and systems that win no comparison at all (strength exactly 0)."""
    names = [str(x) for x in names]
    never_lose, never_win = bt.unbounded_groups(wins, names)
    off = ~np.eye(len(names), dtype=bool)
    no_wins = [names[i] for i in np.flatnonzero(((wins > 0) & off).sum(axis=1) == 0)]
    return {"never_lose": never_lose, "never_win": never_win, "no_wins": no_wins}


def _jackknife(values, credit, est, complete, s) -> dict:
    """Leave-one-group-out estimates of MEAN, MEDIAN, BT (and the adjusted mean): BCa's acceleration."""
    keep = intervals.jackknife_groups(len(values))
    out = {"bt": intervals.bt_strengths(intervals.bt_stack(credit, keep, s))}
    out["mean"], out["median"] = intervals.resampled_means(values, keep), intervals.weighted_medians(values, keep)
    if "mean_adj" in est:
        out["mean_adj"] = evidence.adjusted_mean(values, keep)
    return out


def disagreement_table(systems: pd.DataFrame, mechanisms=MECHANISMS) -> pd.DataFrame:
    """Table 1's measures on this one setup: per pair of mechanisms, the share of system pairs ordered differently
    and whether the best system and the top-3 set differ."""
    rows = []
    scores = {m: -systems[f"{m}_rank"].to_numpy(dtype=float) for m in mechanisms}
    k = min(3, len(systems))
    for a, b in mechanism_pairs(mechanisms):
        try:
            share = rank_disagreement(scores[a], scores[b])
        except ValueError:
            share = np.nan
        rows.append({"pair": pair_label((a, b)), "disagree": share,
                     "top1_differs": bool(top_k_differs(scores[a], scores[b], 1)),
                     "top3_differs": bool(top_k_differs(scores[a], scores[b], k))})
    return pd.DataFrame(rows).set_index("pair")


def _orders(n_orders: int, games: int) -> int:
    """Random orders for the Elo/TrueSkill estimates: ``n_orders``, fewer (at least 3) beyond 5 million games."""
    return int(min(n_orders, max(3, 5_000_000 // max(1, games))))


def _bt(values: np.ndarray, ties: str, complete: bool, names=None) -> np.ndarray:
    """BT on every pair's common instances (the complete case counted as :func:`analysis.aggregate.bradley_terry`
    counts it), solved to the maximum-likelihood estimate (``intervals.BT_RULE``); ``names`` name the systems in an
    error (a comparison graph that falls apart into groups)."""
    names = [str(x) for x in (range(values.shape[1]) if names is None else names)]
    if complete:
        wins = comparisons.score_win_matrices(values[None], ties)[0]
    else:
        wins, tie_counts, _ = evidence.pair_counts(values)
        to_left, to_right = comparisons.tie_credit(ties)
        upper = np.triu(tie_counts, 1)  # a pair's tie credited to its earlier column by to_left, the later by to_right
        wins = wins + to_left * upper + to_right * upper.T
    return bt.fit(wins, systems=names, rule=intervals.BT_RULE).strengths[0]


def _scores_of(name, values, ties, complete, n_orders, gen, names=None, elo=None) -> np.ndarray:
    if name == "mean":
        return np.nanmean(values, axis=0)
    if name == "median":
        return np.nanmedian(values, axis=0)
    if name == "bt":
        return _bt(values, ties, complete, names)
    rows = np.tile(np.arange(len(values)), (n_orders, 1))
    return sequential.replay_scores(values, name, rows, gen, ties, **(elo or {})).mean(axis=0)


def stability(values: np.ndarray, names, ties: str, complete: bool, n_orders: int, gen,
              estimates: dict | None = None, elo: dict | None = None) -> pd.DataFrame:
    """Knowles (2021)'s remove-a-system test for every mechanism: remove its best, then its worst system, re-run it
    on the rest, and count the pairs of remaining systems it now orders differently."""
    rows = []
    for name in MECHANISMS:
        full = pd.Series(estimates[name] if estimates else _scores_of(name, values, ties, complete, n_orders, gen,
                                                                           elo=elo),
                         index=names)
        for which, system in (("best", full.idxmax()), ("worst", full.idxmin())):
            keep = names != system
            k = int(keep.sum())
            if k < 2:
                rows.append({"mechanism": name, "removed": which, "system": system, "pairs": 0,
                             "pairs_reordered": 0, "reordered": False})
                continue
            rest = values[:, keep]
            try:
                after = pd.Series(_scores_of(name, rest, ties, complete, n_orders, gen, names[keep], elo),
                                  index=names[keep])
                changed = order_changes(full[keep], after)
            except ValueError:  # BT without the removed system falls apart into groups never compared
                changed = -1
            rows.append({"mechanism": name, "removed": which, "system": system, "pairs": k * (k - 1) // 2,
                         "pairs_reordered": changed, "reordered": changed != 0})
    return pd.DataFrame(rows)
