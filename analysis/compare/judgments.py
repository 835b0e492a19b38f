"""Pairwise judgment files (arena, LLM-judge: ``model_a, model_b, winner``) compared with BT, Elo, TrueSkill,
win rates and the P matrix, each with an interval over judgments (the units of such a file), the sign test per
pair with adjusted p-values, rank intervals and tied groups."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from .. import bt
from ..comparisons import from_judgments
from ..pairwise import sign_test_pvalues
from ..validation import check_rng
from . import evidence, intervals, robust, sequential, style
from .core import (
                   N_ORDERS,
                   N_ORDERS_STABILITY,
                   SEQUENTIAL_GAMES,
                   Comparison,
                   _degenerate,
                   _orders,
                   check_settings,
                   disagreement_table,
)

MECHANISMS = ("win_rate", "bt", "elo", "trueskill")
#: ``interval="auto"``: BT's sandwich intervals from this many judgments on. Beyond it the bootstrap's multinomial
#: draws over the cells cost tens of seconds (20 s for 3,000,000 judgments among 250 systems on two cores) while
#: the normal approximation behind the sandwich is then close (each strength rests on thousands of judgments;
#: the two agree on the 100,000-judgment benchmark, tested); below it the percentile bootstrap stays the default.
SANDWICH_ABOVE = 1_000_000
#: the fewest default Elo/TrueSkill resamples of a judgment file (a file of millions of judgments replays each one
#: per resample: 10 resamples of 3,000,000 judgments are 60 million rating updates)
MIN_SEQUENTIAL = 10


def win_rates(stack: np.ndarray) -> np.ndarray:
    """Average win rate (evalica's ``average_win_rate``): per system, the mean over its opponents of its share of
    their judgments won, ties as half."""
    prob = intervals.prob_from_wins(stack)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(prob, axis=2)


def _bt(wins, names) -> np.ndarray:
    try:
        return bt.fit(wins, systems=[str(x) for x in names], rule=intervals.BT_RULE).strengths[0]
    except ValueError as exc:
        raise ValueError(f"Bradley-Terry cannot rank these systems together: {exc}") from None


def judgment_cells(c) -> tuple:
    """The judgments counted once (as arena-rank and evalica do): the distinct (left, right, outcome, weight) cells
    as a :class:`~analysis.comparisons.Comparisons` with one unit per cell, each cell's number of judgments, and
    each judgment's cell. Memory and the bootstrap's work then grow with the cells (at most 3 x systems² for
    unweighted judgments), not with the judgments."""
    s = len(c.systems)
    code = (c.left.astype(np.int64) * s + c.right) * 3 + (c.outcome.astype(np.int64) + 1)
    if np.all(c.weight == c.weight[0]):
        keys, cell_of, count = np.unique(code, return_inverse=True, return_counts=True)
        weight = np.full(len(keys), c.weight[0])
    else:
        pairs, cell_of, count = np.unique(np.column_stack([code.astype(np.float64), c.weight]), axis=0,
                                          return_inverse=True, return_counts=True)
        keys, weight = pairs[:, 0].astype(np.int64), pairs[:, 1]
    outcome, pair = keys % 3 - 1, keys // 3
    n = len(keys)
    cells = evidence.Comparisons(c.systems, pair // s, pair % s, outcome.astype(np.int8), weight,
                                 np.arange(n, dtype=np.int64), n)
    return cells, count.astype(np.float64), cell_of.ravel()


def cell_blocks(gen: np.random.Generator, count: np.ndarray, n_resamples: int, n_systems: int):
    """Yield (first resample, (k x cells) judgment counts) blocks: a bootstrap resample of the judgments, counted
    per cell, is one multinomial draw of all the judgments over the cells with the cells' shares (the same
    distribution as drawing judgments with replacement, in work per cell instead of per judgment)."""
    m = int(count.sum())
    shares = count / m
    step = max(1, intervals.BLOCK // max(1, len(count), n_systems * n_systems))
    for start in range(0, n_resamples, step):
        k = min(step, n_resamples - start)
        yield start, gen.multinomial(m, shares, size=k).astype(np.float64)


def _jackknife_cells(count: np.ndarray, cell_of: np.ndarray) -> np.ndarray:
    """(groups x cells) judgment counts leaving out each of the grouped jackknife's contiguous groups of judgments
    (:func:`analysis.compare.intervals.jackknife_groups`, counted per cell)."""
    m = len(cell_of)
    g = min(intervals.JACKKNIFE_GROUPS, m)
    group = np.arange(m) * g // m
    left_out = np.bincount(group * len(count) + cell_of, minlength=g * len(count)).reshape(g, len(count))
    return count[None, :] - left_out


def compare_judgments(games: pd.DataFrame, *, rng=2021, n_resamples: int = 1000,
                      n_resamples_sequential: int | None = None, confidence: float = 0.95,
                      interval: str = "auto", adjust: str = "holm", alpha: float = 0.05,
                      n_orders: int = N_ORDERS, covariates=(), progress=None, tie_weight: float = 0.5,
                      elo_k: float = sequential.ELO_K, elo_initial: float = sequential.ELO_INITIAL,
                      elo_order: str = "random", anchor: tuple | None = None,
                      style_options: dict | None = None) -> Comparison:
    """The comparison of a judgment table (``left``, ``right``, ``winner`` in {left, right, tie}, ``weight``):
    BT (ties as half), win rate, Elo and TrueSkill (averaged over random orders of the judgments; each judgment
    played once whatever its weight), each with a bootstrap interval over judgments; P(row beats column) with
    ties as half, the sign test per pair (ties dropped) with adjusted p-values. ``covariates``: columns of ``games``
    holding per-judgment differences between the two responses (style control, :mod:`.style`): BT is also fitted
    jointly with them, giving controlled strengths beside the plain ones and each covariate's coefficient.

    Peers' options (issue 53): ``tie_weight`` w credits a tie w wins to each side in BT, the win rate and P (evalica's
    ``tie_weight``; 0.5 = half, 0 drops ties everywhere); ``elo_k``, ``elo_initial`` Elo's step and start;
    ``elo_order="file"`` plays Elo once in the file's order (resamples in their judgments' file order) instead of
    averaging random orders; ``anchor=(system, rating)`` shifts the arena ratings so that ``system`` has ``rating``
    (FastChat anchors mixtral at 1114). TrueSkill's σ and μ − 3σ are columns ``trueskill_sigma`` and
    ``trueskill_conservative``."""
    if elo_order not in ("random", "file"):
        raise ValueError(f"elo_order must be 'random' or 'file', got {elo_order!r}")
    if not 0 <= tie_weight <= 1:
        raise ValueError(f"tie_weight must be between 0 and 1, got {tie_weight!r}")
    if tie_weight != 0.5:  # a tie of weight v is 2w·v judgments of outcome ½: w wins to each side
        ties = (games["winner"] == "tie").to_numpy()
        weight = games["weight"].to_numpy(dtype=float) if "weight" in games else np.ones(len(games))
        games = games.assign(weight=np.where(ties, weight * 2 * tie_weight, weight))
    if interval not in ("auto", "sandwich", *intervals.METHODS):
        raise ValueError(f"interval must be one of {['auto', 'sandwich', *intervals.METHODS]}, got {interval!r}")
    check_settings(n_resamples, n_resamples_sequential, confidence, alpha,
                   "percentile" if interval in ("auto", "sandwich") else interval, adjust)
    say = progress or (lambda _: None)
    gen = check_rng(rng)
    start = time.perf_counter()
    zero = int((games["weight"] == 0).sum()) if "weight" in games else 0
    if zero:  # a judgment of weight 0 says nothing: Elo and TrueSkill, which play each judgment once, must not see it
        games = games[games["weight"] > 0]
        if len(pd.unique(np.concatenate([np.asarray(games["left"], dtype=object),
                                         np.asarray(games["right"], dtype=object)]))) < 2:
            where = f"{games.attrs['file']}: " if games.attrs.get("file") else ""
            raise ValueError(f"{where}after leaving out the {zero:,} judgments with weight 0, fewer than two systems "
                             "remain")
    c = from_judgments(games["left"], games["right"], games["winner"].to_numpy(dtype=object),
                       games["weight"].to_numpy() if "weight" in games else None)
    names = pd.Index(c.systems, name="system")
    s, m = len(names), len(c)
    n_orders = _orders(n_orders, m)
    cells, count, cell_of = judgment_cells(c)
    credit = evidence.credit_matrix(cells, "half")  # (cells x systems²): a cell's wins per judgment in it
    wins = np.asarray(count @ credit).reshape(s, s)
    left, right, outcome = c.left, c.right, c.outcome.astype(np.int64)
    # Elo and TrueSkill replay judgments through their cells: the same games in the same order (a permutation of
    # cell indices is the cell of the permuted judgments), read from a table that fits in the cache
    played = (cells.left.astype(np.int64), cells.right.astype(np.int64), cells.outcome.astype(np.int64))
    cell_of = cell_of.astype(np.int32 if len(count) < 2**31 else np.int64)
    order_gen = np.random.default_rng(gen.bit_generator.jumped())
    seq_gen = np.random.default_rng(gen.bit_generator.jumped(2))
    est = {"win_rate": win_rates(wins[None])[0], "bt": _bt(wins, names)}
    degenerate = _degenerate(wins, names)
    if interval == "auto":
        regular = not any(degenerate.values())
        interval = "sandwich" if m >= SANDWICH_ABOVE and regular else "percentile"
    robust_bt = interval == "sandwich"
    elo_options = {"k": elo_k, "initial": elo_initial, "order": elo_order}
    elo_rows = np.tile(cell_of, (1 if elo_order == "file" else n_orders, 1))  # one pass in the file's order
    est["elo"] = sequential.replay_games(s, *played, "elo", elo_rows, order_gen, **elo_options).mean(axis=0)
    mu, sigma = sequential.replay_games(s, *played, "trueskill", np.tile(cell_of, (n_orders, 1)), order_gen, sigma=True)
    est["trueskill"], trueskill_sigma = mu.mean(axis=0), sigma.mean(axis=0)
    if n_resamples_sequential is None:
        n_resamples_sequential = int(min(100, max(MIN_SEQUENTIAL, SEQUENTIAL_GAMES // max(1, m))))
    n_seq = min(n_resamples_sequential, n_resamples)
    draws = {k: [] for k in est}
    prob_draws = []
    report = intervals.Progress(say, n_resamples)
    for first, weights in ([] if robust_bt else cell_blocks(gen, count, n_resamples, s)):
        stack = intervals.bt_stack(credit, weights, s)
        draws["bt"].append(intervals.bt_strengths(stack))
        draws["win_rate"].append(win_rates(stack))
        prob_draws.append(intervals.prob_from_wins(stack))
        report(first + len(weights))
    for first in range(0, n_seq, sequential.BATCH):  # Elo and TrueSkill replay every judgment of a resample
        drawn = seq_gen.integers(0, m, size=(min(sequential.BATCH, n_seq - first), m))
        idx = cell_of[drawn]
        draws["elo"].append(sequential.replay_games(s, *played, "elo", cell_of[np.sort(drawn, axis=1)]
                                                    if elo_order == "file" else idx, order_gen, **elo_options))
        draws["trueskill"].append(sequential.replay_games(s, *played, "trueskill", idx, order_gen))
    draws = {k: np.vstack(d) if d else np.empty((0, s)) for k, d in draws.items()}
    say(f"bootstrap: {0 if robust_bt else n_resamples:,} resamples of {m:,} judgments in {len(count):,} distinct "
        f"cells ({n_seq} for Elo and TrueSkill): {time.perf_counter() - start:.1f} s")
    analytic = _sandwich(cells, count, est, wins, confidence, n_resamples, gen, degenerate) if robust_bt else {}
    jack = {}
    if interval == "bca":
        keep = _jackknife_cells(count, cell_of)
        stack = intervals.bt_stack(credit, keep, s)
        jack = {"bt": intervals.bt_strengths(stack), "win_rate": win_rates(stack)}
    systems = pd.DataFrame(index=names)
    widened = {}
    for name in MECHANISMS:
        if name in analytic:
            low, high = analytic[name]
        else:
            low, high = intervals.interval(draws[name], est[name], confidence,
                                           interval if name in jack else "percentile", jack.get(name))
        if len(draws[name]):
            low, high, flag = intervals.contain(est[name], low, high)
            if flag.any():
                widened[name] = [str(x) for x in names[flag]]
        systems[name], systems[f"{name}_low"], systems[f"{name}_high"] = est[name], low, high
        systems[f"{name}_rank"] = pd.Series(est[name]).rank(ascending=False, method="min").astype(int).to_numpy()
    ranks = analytic["ranks"] if robust_bt else intervals.rank_draws(draws["bt"])
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    systems["rank_low"], systems["rank_high"] = intervals.nan_quantiles(ranks, q)
    # arena ratings as arena-rank computes them: θ centred on its arithmetic mean, the sandwich's intervals
    # rating ± z·se (arena-rank's regularised Hessian) or each resample centred on its own mean, rank (UB) from them
    systems["rating"] = robust.elo_scale(est["bt"])
    if robust_bt:
        low, high = analytic["rating"]
    else:
        low, high = intervals.interval(robust.draw_ratings(draws["bt"]), systems["rating"].to_numpy(), confidence,
                                       interval if "bt" in jack else "percentile",
                                       robust.draw_ratings(jack["bt"]) if "bt" in jack else None)
        low, high, _ = intervals.contain(systems["rating"].to_numpy(), low, high)
    systems["rating_low"], systems["rating_high"] = low, high
    systems["rank_fastchat"] = robust.fastchat_rank(systems["bt_low"], systems["bt_high"])
    systems["rank_arena"] = robust.fastchat_rank(low, high)
    per_system = np.bincount(np.concatenate([left, right]), weights=np.concatenate([c.weight, c.weight]),
                             minlength=s)
    systems["instances"] = per_system
    plain = pd.Index([str(x) for x in names])
    strict_wins = np.zeros((s, s))
    np.add.at(strict_wins, (np.where(outcome > 0, left, right)[outcome != 0],
                            np.where(outcome > 0, right, left)[outcome != 0]), c.weight[outcome != 0])
    games_ab = wins + wins.T
    with np.errstate(invalid="ignore", divide="ignore"):
        prob = np.where(games_ab > 0, wins / games_ab, np.nan)
    np.fill_diagonal(prob, np.nan)
    i, j = np.triu_indices(s, 1)
    sign = np.full((s, s), np.nan)
    tested = games_ab[i, j] > 0
    p = sign_test_pvalues(np.round(strict_wins[i, j]).astype(int), np.round(strict_wins[j, i]).astype(int))
    sign[i[tested], j[tested]] = sign[j[tested], i[tested]] = np.asarray(p)[tested]
    frame = lambda a: pd.DataFrame(a, index=plain, columns=plain)  # noqa: E731
    sign_p = frame(sign)
    sign_adj = evidence.adjust(sign_p, adjust)
    if robust_bt:
        p_low, p_high = analytic["prob"]
    else:
        probs = np.vstack(prob_draws)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            p_low, p_high = intervals.nan_quantiles(probs, q)
    p_low, p_high = np.fmin(p_low, prob), np.fmax(p_high, prob)  # every interval contains its estimate
    better = (sign_adj.to_numpy() < alpha) & (prob > 0.5)
    order = np.argsort(-est["bt"], kind="stable")
    systems["group"] = pd.Series(intervals.tied_groups(list(order), better), index=order).sort_index().to_numpy()
    systems["trueskill_sigma"] = trueskill_sigma
    systems["trueskill_conservative"] = est["trueskill"] - 3 * trueskill_sigma
    stable = _stability(c, (cells, cell_of), names, est, min(n_orders, N_ORDERS_STABILITY), order_gen, elo_options)
    controlled = {}
    if covariates:
        try:
            z = style.check_covariates(np.column_stack([_covariate(games, name) for name in covariates]), covariates)
            arena = style_options is not None
            if arena:
                zq = style.normalise_features(z) if style_options.get("normalise") else z
                w = c.weight * (style.propensity_weights(c.left, c.right, s) if style_options.get("reweight")
                                else 1.0)
                joint = style.fit_arena(s, c.left, c.right, c.outcome, w, zq[c.unit],
                                        reg=style_options.get("reg", 0.0), confidence=confidence)
            else:
                joint = style.fit(s, c.left, c.right, c.outcome, c.weight, z[c.unit], confidence=confidence)
        except ValueError as exc:  # the message names the covariate; the file and the option too
            where = f"{games.attrs['file']}: " if games.attrs.get("file") else ""
            raise ValueError(f"{where}--covariates {','.join(covariates)}: {exc}") from None
        if arena:  # arena-rank's intervals are on θ: the strengths' ends from the ratings' ends, one normaliser
            ends = [np.exp((x - robust.ELO_CENTRE) / robust.ELO_SCALE * np.log(robust.ELO_BASE)) /
                    np.exp(joint.theta).sum() for x in (joint.ratings_low, joint.ratings_high)]
            systems["bt_controlled"], systems["bt_controlled_low"], systems["bt_controlled_high"] = (
                joint.strengths, *ends)
            systems["rating_controlled"] = joint.ratings
            systems["rating_controlled_low"], systems["rating_controlled_high"] = joint.ratings_low, joint.ratings_high
            zq_ = stats_norm_ppf((1 + confidence) / 2)
            joint_coef_low, joint_coef_high = joint.coef - zq_ * joint.coef_se, joint.coef + zq_ * joint.coef_se
        else:
            systems["bt_controlled"], systems["bt_controlled_low"], systems["bt_controlled_high"] = (
                joint.strengths, joint.strengths_low, joint.strengths_high)
            # on the arena scale as the plain ratings: θ centred on its arithmetic mean, rating ± z·se
            centre = np.eye(s) - 1 / s
            full = np.zeros((s, s))
            full[1:, 1:] = joint.cov[: s - 1, : s - 1]  # θ_0 = 0 in the joint fit
            systems["rating_controlled"] = robust.elo_scale(joint.strengths)
            systems["rating_controlled_low"], systems["rating_controlled_high"] = robust.rating_intervals(
                systems["rating_controlled"].to_numpy(), centre @ full @ centre.T, confidence)
            joint_coef_low, joint_coef_high = joint.coef_low, joint.coef_high
        systems["bt_controlled_rank"] = pd.Series(joint.strengths).rank(ascending=False, method="min").astype(
            int).to_numpy()
        controlled = {str(name): {"coef": float(b), "low": float(lo), "high": float(hi), "se": float(se)}
                      for name, b, lo, hi, se in zip(covariates, joint.coef, joint_coef_low, joint_coef_high,
                                                     joint.coef_se)}
    if anchor is not None:  # FastChat's scale_and_offset: the plain and the style-controlled ratings alike
        system, rating = anchor
        if str(system) not in map(str, names):
            raise ValueError(f"--anchor: no system {str(system)!r} among the {s} systems (e.g. "
                             f"{', '.join(map(str, list(names)[:5]))})")
        row = [str(x) == str(system) for x in names]
        for base in ("rating", "rating_controlled") if covariates else ("rating",):
            shift = float(rating) - float(systems.loc[row, base].iloc[0])
            for column in (base, f"{base}_low", f"{base}_high"):
                systems[column] = systems[column] + shift
    settings = {"alignment": "judgments", "ties": "half", "n_resamples": n_resamples, "n_resamples_sequential": n_seq,
                "n_orders": n_orders, "confidence": confidence, "interval": interval, "adjust": adjust,
                "alpha": alpha, "lower_is_better": False, "seed": int(rng) if isinstance(rng, (int, np.integer))
                else None, "n_instances": int(m), "n_systems": int(s), "n_comparisons": int(m), "widened": widened,
                "degenerate": degenerate, "zero_weight": zero, "covariates": controlled,
                "n_judgments_weighted": float(c.weight.sum()), "unit_weights": bool(np.all(c.weight == 1)),
                "tie_weight": float(tie_weight), "elo_k": float(elo_k), "elo_initial": float(elo_initial),
                "elo_order": elo_order, "anchor": None if anchor is None else [str(anchor[0]), float(anchor[1])],
                "covariates_arena": None if style_options is None else dict(style_options)}
    nan = frame(np.full((s, s), np.nan))
    return Comparison(systems, frame(prob), frame(p_low), frame(p_high), frame(games_ab), sign_p, nan, sign_adj, nan,
                      disagreement_table(systems, MECHANISMS), stable, pd.DataFrame(), settings)


def _covariate(games: pd.DataFrame, name: str) -> np.ndarray:
    """A covariate column, or ``A:B`` (raw per-side features, arena's and FastChat's layout): column A less B."""
    if ":" in name:
        a, b = name.split(":")
        return games[a].to_numpy(dtype=float) - games[b].to_numpy(dtype=float)
    return games[name].to_numpy(dtype=float)


def stats_norm_ppf(q: float) -> float:
    from scipy import stats

    return float(stats.norm.ppf(q))


def _sandwich(cells, count, est, wins, confidence, n_draws, gen, degenerate) -> dict:
    """The intervals of ``interval="sandwich"``, none by resampling: BT's from its sandwich covariance (:mod:`.robust`)
    with rank intervals from ``n_draws`` normal draws of the log-strengths; P(row beats column) per pair from the
    standard error of its judgments' mean credit (ties as ½; each pair's judgments are its own sample), and the win
    rate, a mean of independent pairs' P, from theirs."""
    from scipy import stats

    s = len(est["bt"])
    z = stats.norm.ppf((1 + confidence) / 2)
    if any(degenerate.values()) or not (est["bt"] > 0).all():
        raise ValueError("--interval sandwich needs every system to win and lose at least once (a system that never "
                         "wins or never loses has no finite BT estimate); use percentile")
    cov = robust.log_strength_cov(cells.left, cells.right, cells.outcome, cells.weight, count, est["bt"])
    out = {"bt": robust.strength_intervals(est["bt"], cov, confidence),
           "ranks": robust.rank_draws(est["bt"], cov, n_draws, gen),
           "rating": robust.rating_intervals(robust.elo_scale(est["bt"]), robust.theta_cov(
               cells.left, cells.right, cells.outcome, cells.weight, count, est["bt"]), confidence)}
    games = wins + wins.T
    with np.errstate(invalid="ignore", divide="ignore"):
        prob = np.where(games > 0, wins / games, np.nan)
        y = (cells.outcome.astype(float) + 1) / 2
        dev = count * (cells.weight * (y - prob[cells.left, cells.right])) ** 2
        var = np.zeros((s, s))
        np.add.at(var, (cells.left, cells.right), dev)
        var = var + var.T
        se = np.sqrt(var) / games
        out["prob"] = (np.clip(prob - z * se, 0, 1), np.clip(prob + z * se, 0, 1))
        met = games > 0
        np.fill_diagonal(met, False)
        k = met.sum(axis=1)
        rate_se = np.sqrt(np.where(met, se, 0) ** 2 @ np.ones(s)) / k
    out["win_rate"] = (est["win_rate"] - z * rate_se, est["win_rate"] + z * rate_se)
    return out


def _stability(c, cells_of, names, est, n_orders, gen, elo_options=None) -> pd.DataFrame:
    """Remove the best, then the worst system of each mechanism with its judgments, re-run, count reordered pairs
    (Elo and TrueSkill replaying the kept judgments through their cells, ``cells_of``: :func:`judgment_cells`' cells
    and each judgment's cell)."""
    from ..agreement import order_changes

    rows = []
    s = len(names)
    for name in MECHANISMS:
        full = pd.Series(est[name], index=names)
        for which, system in (("best", full.idxmax()), ("worst", full.idxmin())):
            k = names.get_loc(system)
            keep_games = (c.left != k) & (c.right != k)
            remap = np.cumsum(np.arange(s) != k) - 1
            left, right = remap[c.left[keep_games]], remap[c.right[keep_games]]
            outcome = c.outcome[keep_games].astype(np.int64)
            rest = names.drop(system)
            try:
                if name in ("elo", "trueskill"):
                    cells, cell_of = cells_of
                    keep_cells = (cells.left != k) & (cells.right != k)
                    kept = (np.cumsum(keep_cells) - 1).astype(cell_of.dtype)[cell_of[keep_games]]
                    played = (remap[cells.left[keep_cells]], remap[cells.right[keep_cells]],
                              cells.outcome[keep_cells].astype(np.int64))
                    after = sequential.replay_games(s - 1, *played, name, np.tile(kept, (n_orders, 1)), gen,
                                                    **((elo_options or {}) if name == "elo" else {})).mean(axis=0)
                else:
                    sub = evidence.Comparisons(tuple(map(str, rest)), left, right, outcome.astype(np.int8),
                                               c.weight[keep_games], np.arange(len(left)), len(left))
                    wins = np.asarray(evidence.credit_matrix(sub, "half").sum(axis=0)).reshape(s - 1, s - 1)
                    after = (bt.fit(wins, rule=intervals.BT_RULE).strengths[0] if name == "bt" else
                             win_rates(wins[None])[0])
                changed = order_changes(full[rest], pd.Series(after, index=rest))
            except ValueError:
                changed = -1
            pairs = (s - 1) * (s - 2) // 2
            rows.append({"mechanism": name, "removed": which, "system": system, "pairs": pairs,
                         "pairs_reordered": changed, "reordered": changed != 0})
    return pd.DataFrame(rows)
