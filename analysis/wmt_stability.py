"""WMT rankings under perturbation (Knowles 2021, Secs. 3, 5 and 6), vectorised for one language pair at a time.

A language pair's judgments are coded once into integer arrays (:class:`PairJudgments`); a ranking is then a few
``np.bincount`` calls (standardise per worker, average per (system, segment), average per system) and one matrix
product for every rank-sum test (:func:`analysis.wmt.rank_sum_pvalues`). Every perturbation of the paper is a row
mask or a change of raw scores before standardising:

* ``remove``: systems left out of everything, their quality-control items included (as her ``get_ranking.py``);
* ``remove_human``: HUMAN systems (name contains ``HUMAN``) and REF items left out of everything (Table 2);
* ``divide``: raw scores of REF items and HUMAN systems divided before standardising (Fig. 1);
* ``cluster_exclude``: systems scored but left out of the ranking and its clusters (the "original" side of each
  comparison: the original data, with the clusters recomputed without the systems the perturbation removes);
* ``weights``: a count per judgment, for the bootstrap over HITs (a resample without materialising it);
* ``by``: standardise per worker (WMT's choice) or per HIT (one of Sec. 8's questions).

Removing judgments and restandardising needs no raw scores: per worker, raw is an exact affine function of the
published z (raw = mean + sd * z), and standardising is invariant to it. Dividing needs raw. ``wmt_judgments``
holds it for every judgment of 2021-2022 (the organisers' per-worker mean and sd, and the Facebook raw file) and for
singly judged segments of 2018; :func:`reconstruct_raw` recovers most of the rest of 2018 from the z and the
official segment sums (and, on 2021-2022 with the raws hidden, serves as a check of both). Where a worker's raws
stay unknown (two workers in each of two 2018 pairs), ``unknown_raw="keep_z"`` keeps that worker's published z
undivided instead of dropping the worker, so that the unperturbed ranking stays the official one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from . import wmt
from .wmt_composition import composition, cooccurrence, recover_documents  # noqa: F401  (their home before)

HUMAN_MARK = "HUMAN"
EXPERIMENTS = ("remove_human", "remove_lowest", "remove_highest", "divide_1.25", "divide_1.5", "divide_2", "divide_4",
               "divide_10")
DIVISORS = (1.25, 1.5, 2.0, 4.0, 10.0)


@dataclass(frozen=True)
class PairJudgments:
    """The judgments of one (collection, pair) as integer codes; build with :func:`code_pair`."""

    systems: tuple[str, ...]  # system names; ``system`` indexes them
    system: np.ndarray  # per judgment
    worker: np.ndarray  # per judgment: worker code
    hit: np.ndarray  # per judgment: HIT code, -1 where the package has none
    key: np.ndarray  # per judgment: code of its (system, segment)
    key_names: np.ndarray  # per key: "system<TAB>segment"
    key_system: np.ndarray  # per key: its system
    scored: np.ndarray  # SYSTEM or REPEAT: counts towards its system
    ref: np.ndarray  # a REF item
    pool: np.ndarray  # in the standardisation pool (False for the package's re-duplicated copies)
    z: np.ndarray  # the published worker z
    raw: np.ndarray  # raw 0-100 score, NaN where unknown

    @property
    def human(self) -> np.ndarray:
        """Per system: a HUMAN system (a reference translation ranked as a system)."""
        return np.array([HUMAN_MARK in s for s in self.systems])

    @property
    def n(self) -> int:
        return len(self.system)


def standardisation_pool(judgments: pd.DataFrame) -> np.ndarray:
    """Judgments that enter a worker's mean and sd. The ``redup`` files repeat one judgment for every system that
    produced the same translation (same worker, HIT, item, segment, score and time, another system); the organisers
    standardised before re-duplicating, so the copies are left out. Without a HIT id (2018's Appraise HITs) nothing
    is re-duplicated and every judgment counts; with this pool the published z have mean 0 and sd 1 per worker."""
    keys = ["worker", "hit", "document", "segment", "z", "time"]
    copies = judgments.duplicated(subset=keys, keep="first") & judgments["hit"].notna()
    return ~copies.to_numpy()


def code_pair(judgments: pd.DataFrame) -> PairJudgments:
    """Code one language pair's rows of the ``wmt_judgments`` table."""
    wmt._require(judgments, ["pair", "worker", "hit", "system", "segment", "item_type", "z", "raw"])
    if judgments[["collection", "pair"]].drop_duplicates().shape[0] != 1:
        raise ValueError("code_pair takes the judgments of exactly one (collection, pair)")
    bad = sorted(set(judgments["item_type"]) - set(wmt.SCORED_TYPES) - {"REF", "BAD_REF"})
    if bad:
        raise ValueError(f"unknown item types {bad}")
    system, systems = pd.factorize(judgments["system"], sort=True)
    worker, _ = pd.factorize(judgments["worker"], sort=True)
    hit, _ = pd.factorize(judgments["hit"], sort=True, use_na_sentinel=True)
    key, keys = pd.factorize(judgments["system"].astype(str) + "\t" + judgments["segment"].astype(str), sort=True)
    key_system = np.searchsorted(np.asarray(systems, dtype=object), np.array([k.split("\t")[0] for k in keys],
                                                                              dtype=object))
    z = judgments["z"].to_numpy(float)
    if not np.isfinite(z).all():
        raise ValueError("z has missing or infinite values")
    return PairJudgments(
        systems=tuple(systems), system=system, worker=worker, hit=hit, key=key, key_names=np.asarray(keys),
        key_system=key_system,
        scored=judgments["item_type"].isin(wmt.SCORED_TYPES).to_numpy(),
        ref=(judgments["item_type"] == "REF").to_numpy(), pool=standardisation_pool(judgments), z=z,
        raw=judgments["raw"].to_numpy(float))


# -- raw scores --------------------------------------------------------------------------------------------------


def _affine_fit(group, z, raw, n_groups):
    """Per group: (intercept, slope) of raw on z over rows with known raw, NaN without two distinct z."""
    known = ~np.isnan(raw)
    g, x, y = group[known], z[known], raw[known]
    count = np.bincount(g, minlength=n_groups).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.bincount(g, x, n_groups) / count
        my = np.bincount(g, y, n_groups) / count
        dx = x - mx[g]
        sxx = np.bincount(g, dx * dx, n_groups)
        slope = np.bincount(g, dx * (y - my[g]), n_groups) / sxx
        slope[~(sxx > 1e-12)] = np.nan
        intercept = my - slope * mx
    fitted = intercept[g] + slope[g] * x
    worst = np.nanmax(np.abs(fitted - y)) if len(y) else 0.0
    if worst > 1e-4:
        raise ValueError(f"raw is not an affine function of z within a worker (residual {worst:.3g})")
    return intercept, slope


def reconstruct_raw(pair: PairJudgments, segments: pd.DataFrame | None = None) -> tuple[np.ndarray, dict]:
    """Raw scores for as many judgments as can be recovered exactly, and a coverage summary.

    1. Per worker, raw = a + b * z exactly (the worker's mean and sd); two known raws with different z give a and b,
       hence every raw of that worker, REF and BAD_REF items included.
    2. The official segment file gives each (system, segment)'s raw *mean* over its n judgments, hence their sum; if
       all but one of them are known, the last one follows. That adds known raws to other workers; repeat.

    Raws are integers 0-100 in these packages; recovered values are rounded after checking that they are integers to
    within 1e-4. ``segments``: the pair's rows of ``wmt_segments`` (system, segment, raw, n), or None for step 1 only.
    """
    raw = pair.raw.copy()
    n_workers = pair.worker.max() + 1
    sums = None
    if segments is not None:
        seg = segments.assign(key=segments["system"].astype(str) + "\t" + segments["segment"].astype(str))
        codes = pd.Series(np.arange(len(pair.key_names)), index=pair.key_names)
        seg = seg[seg["key"].isin(codes.index)]
        sums = np.full(len(codes), np.nan)
        sums[codes[seg["key"]].to_numpy()] = (seg["raw"] * seg["n"]).to_numpy()
        judged = np.bincount(pair.key[pair.scored], minlength=len(codes))
        n_published = np.zeros(len(codes), int)
        n_published[codes[seg["key"]].to_numpy()] = seg["n"].to_numpy()
        sums[n_published != judged] = np.nan  # a sum over other judgments than ours says nothing exact
    while True:
        before = np.isnan(raw).sum()
        a, b = _affine_fit(pair.worker, pair.z, raw, n_workers)
        fill = np.isnan(raw) & ~np.isnan(b[pair.worker])
        raw[fill] = _integer(a[pair.worker[fill]] + b[pair.worker[fill]] * pair.z[fill])
        if sums is not None:
            rows = np.flatnonzero(pair.scored)
            keys = pair.key[rows]
            missing = np.isnan(raw[rows])
            n_missing = np.bincount(keys, missing, len(sums))
            known_sum = np.bincount(keys, np.where(missing, 0.0, raw[rows]), len(sums))
            last = missing & (n_missing[keys] == 1) & ~np.isnan(sums[keys])
            raw[rows[last]] = _integer(sums[keys[last]] - known_sum[keys[last]])
        if np.isnan(raw).sum() == before:
            break
    covered = ~np.isnan(raw)
    workers_covered = np.bincount(pair.worker, ~covered, n_workers) == 0
    summary = {"judgments": pair.n, "raw_published": int((~np.isnan(pair.raw)).sum()), "raw_known": int(covered.sum()),
               "workers": int(n_workers), "workers_known": int(workers_covered.sum())}
    return raw, summary


def _integer(values: np.ndarray) -> np.ndarray:
    rounded = np.round(values)
    if (np.abs(values - rounded) > 1e-4).any() or (rounded < 0).any() or (rounded > 100).any():
        raise ValueError("a recovered raw score is not an integer in [0, 100]")
    return rounded


# -- rankings ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ranking:
    """A WMT ranking: systems best first, their z scores and cluster numbers (0 = top cluster)."""

    systems: tuple[str, ...]
    scores: np.ndarray
    clusters: np.ndarray

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame({"rank": np.arange(1, len(self.systems) + 1), "system": self.systems, "z": self.scores,
                             "cluster": self.clusters})

    def changes(self, other: Ranking) -> tuple[bool, bool]:
        """(Δrank, Δcluster) against ``other`` (:func:`analysis.wmt.ranking_changes`)."""
        return wmt.ranking_changes(self.systems, self.clusters, other.systems, other.clusters)


def segment_means(pair: PairJudgments, values: np.ndarray, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """(system code, mean) of ``values`` per judged (system, segment), over SYSTEM/REPEAT judgments with a value (NaN
    = left out), each counted ``weights`` times."""
    system, mean, _ = segment_cells(pair, values, weights)
    return system, mean


def segment_cells(pair: PairJudgments, values: np.ndarray, weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(system code, mean, weight) per judged (system, segment): :func:`segment_means` plus the cell's weight, the
    mean multiplicity of its judgments (their summed ``weights`` over their number; 1 without weights). A bootstrap
    resample that draws a cell's HIT twice counts the cell twice in the system mean and in the rank-sum test, as it
    counts its judgments twice in the z: one resampling unit throughout."""
    weighted = weights is not None
    w = np.asarray(weights, dtype=float) if weighted else np.ones(len(values))
    return _cells(pair.key, pair.key_system, pair.scored, np.asarray(values, dtype=float), w, weighted)


@numba.njit(cache=True)
def _cells(key, key_system, scored, values, weights, weighted):  # pragma: no cover (compiled)
    """:func:`segment_cells` bit for bit as numpy computed it: per key, ``bincount`` sums added row after row from 0
    of the row weight (``rows * weights``, rows = scored with a value), of weight * value and of the rows; then
    the keys with a positive weight."""
    n_keys = len(key_system)
    weight = np.zeros(n_keys)
    total = np.zeros(n_keys)
    count = np.zeros(n_keys)
    for i in range(len(key)):
        row = scored[i] and not np.isnan(values[i])
        w = (1.0 if row else 0.0) * weights[i] if weighted else (1.0 if row else 0.0)
        weight[key[i]] += w
        total[key[i]] += w * (values[i] if row else 0.0)
        count[key[i]] += 1.0 if row else 0.0
    n_present = 0
    for k in range(n_keys):
        n_present += weight[k] > 0
    system = np.empty(n_present, key_system.dtype)
    mean = np.empty(n_present)
    cell_weight = np.ones(n_present)
    m = 0
    for k in range(n_keys):
        if weight[k] > 0:
            system[m] = key_system[k]
            mean[m] = total[k] / weight[k]
            if weighted:
                cell_weight[m] = weight[k] / count[k]
            m += 1
    return system, mean, cell_weight


def ranking(pair: PairJudgments, z: np.ndarray, weights=None, cluster_exclude=(), variant: str = "greater",
            alpha: float = 0.05) -> Ranking:
    """Rank the systems by the mean of their (system, segment) means of ``z`` (:func:`segment_cells`), with WMT's
    significance lines (:func:`rank_segment_scores`); with ``weights`` (a bootstrap resample), each cell counts its
    weight in the system mean and the rank-sum test."""
    system, mean, cell_weight = segment_cells(pair, z, weights)
    return rank_segment_scores(pair.systems, system, mean, cluster_exclude, variant, alpha,
                               weights=None if weights is None else cell_weight)


def rank_segment_scores(systems, seg_system, seg_score, cluster_exclude=(), variant: str = "greater",
                        alpha: float = 0.05, weights=None) -> Ranking:
    """Rank ``systems`` by the mean of their segment scores (``seg_system`` indexes ``systems``) and draw WMT's
    significance lines (:func:`analysis.wmt.significance_lines`) from rank-sum tests on the segment scores; systems
    in ``cluster_exclude`` (names) are left out of the ranking and its clusters (Knowles 2021's ``_sig`` options).
    ``weights``: a frequency weight per segment score (None = 1), in the means and the tests."""
    return rankings_excluding(systems, seg_system, seg_score, [cluster_exclude], variant, alpha, weights)[0]


def rankings_excluding(systems, seg_system, seg_score, excludes, variant: str = "greater", alpha: float = 0.05,
                       weights=None) -> list[Ranking]:
    """:func:`rank_segment_scores` for several ``cluster_exclude`` lists of the same segment scores in one pass: a
    rank-sum test between two systems uses only their own scores, so one matrix of p-values serves every subset."""
    names = np.asarray(systems, dtype=object)
    k = len(names)
    w = np.ones(len(seg_score)) if weights is None else np.asarray(weights, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.bincount(seg_system, w * seg_score, k) / np.bincount(seg_system, w, k)
    seg_system = np.asarray(seg_system)
    p_all = wmt.rank_sum_pvalues(seg_system, seg_score, k, variant, None if weights is None else w)
    out = []
    done = {}  # the ranking of each exclude list seen before
    for exclude in excludes:
        if callable(exclude):  # a function of the ranking without exclusions, e.g. its first system
            exclude = exclude(out[0] if out else rankings_excluding(systems, seg_system, seg_score, [()], variant,
                                                                    alpha, weights)[0])
        seen = tuple(sorted(set(exclude)))
        if seen not in done:
            ranked = np.flatnonzero(~np.isnan(scores) & ~np.isin(names, list(exclude)))
            order = ranked[np.lexsort((names[ranked], -scores[ranked]))]
            p = p_all[np.ix_(order, order)]
            lines = wmt.significance_lines(p, alpha) if len(order) > 1 else np.zeros(0, bool)
            done[seen] = Ranking(tuple(names[order]), scores[order], wmt.clusters_from_lines(lines))
        out.append(done[seen])
    return out


def unperturbed_rankings(pair: PairJudgments, excludes, *, weights=None, by: str = "worker",
                         variant: str = "greater", alpha: float = 0.05) -> list[Ranking]:
    """The unperturbed ranking with each list of ``excludes`` left out of the ranking and its clusters (equal to
    :func:`perturbed_ranking` with ``cluster_exclude``), from one standardisation and one matrix of tests. An
    exclude may be a function of the first ranking (put ``()`` first), e.g. ``lambda r: [r.systems[0]]``."""
    group = pair.worker if by == "worker" else pair.hit
    z = wmt.z_scores(pair.z, group, None, pair.pool, weights)
    system, mean, cell_weight = segment_cells(pair, z, weights)
    return rankings_excluding(pair.systems, system, mean, excludes, variant, alpha,
                              None if weights is None else cell_weight)


def perturbed_ranking(pair: PairJudgments, *, remove=(), remove_human: bool = False, divide: float = 1.0,
                      raw: np.ndarray | None = None, cluster_exclude=(), weights=None, keep=None, by: str = "worker",
                      variant: str = "greater", alpha: float = 0.05, unknown_raw: str = "error") -> Ranking:
    """The ranking after one of Knowles 2021's perturbations (module docstring), restandardised from scratch.

    ``divide`` needs ``raw`` for every judgment of a worker with REF or HUMAN items; workers without such items keep
    their z, since dividing nothing changes nothing for them. A worker with such items and an unknown raw raises
    (``unknown_raw="error"``) or keeps its published z undivided (``"keep_z"``). ``keep``: a row mask of the
    judgments to use at all (default: every one).
    """
    if unknown_raw not in ("error", "keep_z"):
        raise ValueError(f"unknown_raw must be 'error' or 'keep_z', got {unknown_raw!r}")
    unknown = sorted(set(remove) - set(pair.systems))
    if unknown:
        raise ValueError(f"cannot remove unknown systems {unknown}")
    if by not in ("worker", "hit"):
        raise ValueError(f"by must be 'worker' or 'hit', got {by!r}")
    if not divide > 0:
        raise ValueError(f"divide must be positive, got {divide!r}")
    group = pair.worker if by == "worker" else pair.hit
    if (group < 0).any():
        raise ValueError(f"some judgments have no {by} id")
    removed = [pair.systems.index(s) for s in remove] if remove else []  # system codes, not names per judgment
    kept = ~np.isin(pair.system, removed) if removed else np.ones(pair.n, bool)
    keep = kept & (True if keep is None else np.asarray(keep, bool))
    degraded = pair.ref | pair.human[pair.system]
    if remove_human:
        keep &= ~degraded
    values = pair.z
    if divide != 1.0:
        if raw is None:
            raise ValueError("dividing raw scores needs raw (see reconstruct_raw)")
        needs = _any_per_group(group, keep & degraded)[group] & keep
        if unknown_raw == "keep_z":
            needs &= ~_any_per_group(group, np.isnan(raw))[group]
        if np.isnan(raw[needs]).any():
            raise ValueError("raw scores are missing for workers with REF or HUMAN items; restrict to covered ones")
        values = np.where(needs, np.where(degraded, raw / divide, raw), pair.z)
    z = wmt.z_scores(values, group, keep, pair.pool, weights)
    return ranking(pair, z, weights, cluster_exclude, variant, alpha)


# -- the paper's experiments (Tables 2-3, Fig. 1) ----------------------------------------------------------------


def experiments(pair: PairJudgments, raw: np.ndarray | None = None, *, divisors=DIVISORS, weights=None,
                by: str = "worker", variant: str = "greater", alpha: float = 0.05, only=None,
                unknown_raw: str = "drop", against: Ranking | None = None) -> list[dict]:
    """Every experiment of Knowles 2021 on one pair: one dict per experiment with ``experiment``, ``n_systems``,
    ``rank_changed``, ``cluster_changed``, ``both_changed``.

    Each perturbed ranking is compared with the original data's ranking with its clusters recomputed without the
    systems the perturbation removes (her ``orig-rhs``, ``orig-rlows``, ``orig-rhighs``): ``remove_human`` (HUMAN
    systems and REF items gone; skipped where a pair has neither), ``remove_lowest`` / ``remove_highest`` (the
    last / first system of the original ranking, HUMAN systems included, as in her scripts) and ``divide_<d>`` (REF
    and HUMAN raw scores divided by d; HUMAN systems left out of both sides' clusters). For the divisions, workers
    with REF or HUMAN items whose raw scores are not known (``raw`` NaN) are left out of both sides; ``raw`` None
    skips the divisions. ``only``: the names of :data:`EXPERIMENTS` to run (default all). ``unknown_raw``: how the
    divisions treat workers with REF or HUMAN items and an unknown raw: ``"drop"`` leaves them out of both sides
    (:func:`divisible`), ``"keep_z"`` keeps their published z undivided on both sides (the unperturbed side is
    then the full data's ranking). ``against``: a ranking to compare the unperturbed one with, recorded first as
    experiment ``noise`` (the bootstrap's full-data ranking).
    """
    if unknown_raw not in ("drop", "keep_z"):
        raise ValueError(f"unknown_raw must be 'drop' or 'keep_z', got {unknown_raw!r}")
    wanted = set(EXPERIMENTS if only is None else only)
    unknown = sorted(wanted - set(EXPERIMENTS))
    if unknown:
        raise ValueError(f"unknown experiments {unknown}; expected some of {list(EXPERIMENTS)}")
    common = {"weights": weights, "by": by, "variant": variant, "alpha": alpha}
    humans = [s for s, h in zip(pair.systems, pair.human) if h]
    has_human = bool(humans) or bool(pair.ref.any())
    extremes = [lambda r: [r.systems[-1]], lambda r: [r.systems[0]]]
    if not wanted & {"remove_lowest", "remove_highest"}:  # their bases are not needed
        extremes = [(), ()]
    original, base_human, base_low, base_high = unperturbed_rankings(pair, [(), humans, *extremes], **common)
    rows = []
    if against is not None and sorted(against.systems) == sorted(original.systems):
        rows.append({"experiment": "noise", **comparison(original, against)})

    def record(name, perturbed, base):
        rows.append({"experiment": name, **comparison(perturbed, base)})

    if has_human and "remove_human" in wanted:
        record("remove_human", perturbed_ranking(pair, remove_human=True, **common), base_human)
    for name, system, base in (("remove_lowest", original.systems[-1], base_low),
                               ("remove_highest", original.systems[0], base_high)):
        if name not in wanted:
            continue
        record(name, perturbed_ranking(pair, remove=[system], **common), base)
    divisors = [d for d in divisors if f"divide_{d:g}" in wanted]
    if has_human and raw is not None and divisors:
        keep = divisible(pair, raw, by) if unknown_raw == "drop" else None
        mode = "keep_z" if unknown_raw == "keep_z" else "error"
        base = base_human if keep is None else perturbed_ranking(pair, cluster_exclude=humans, keep=keep, **common)
        for d in divisors:
            record(f"divide_{d:g}", perturbed_ranking(pair, divide=d, raw=raw, cluster_exclude=humans, keep=keep,
                                                     unknown_raw=mode, **common), base)
    return rows


def comparison(perturbed: Ranking, base: Ranking) -> dict:
    """``n_systems``, the yes/no flags (``rank_changed``, ``cluster_changed``, ``both_changed``) and the effect sizes
    (:func:`analysis.wmt.ranking_effect_sizes`: ``discordant``, ``tau_distance``, ``reversals``) of a perturbed
    ranking against its unperturbed side."""
    rank, cluster = perturbed.changes(base)
    sizes = wmt.ranking_effect_sizes(perturbed.systems, perturbed.clusters, base.systems, base.clusters)
    return {"n_systems": len(perturbed.systems), "rank_changed": rank, "cluster_changed": cluster,
            "both_changed": rank and cluster, **sizes}


def divisible(pair: PairJudgments, raw: np.ndarray, by: str = "worker") -> np.ndarray:
    """Rows usable in the division experiments: all but those of workers (or HITs) that have REF or HUMAN items and
    a judgment whose raw score is unknown."""
    group = pair.worker if by == "worker" else pair.hit
    touched = _any_per_group(group, pair.ref | pair.human[pair.system])
    return ~(touched & _any_per_group(group, np.isnan(raw)))[group]


def _any_per_group(group: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """Per group code: whether any of its rows is flagged."""
    return np.bincount(group, flags, group.max() + 1) > 0


def resampling_units(pair: PairJudgments) -> np.ndarray:
    """The bootstrap unit of each judgment: its HIT, or its worker where the package has no HIT id (2018's Appraise
    HITs, whose worker ids stand for one annotator's whole assignment)."""
    n_hits = pair.hit.max() + 1
    return np.where(pair.hit >= 0, pair.hit, n_hits + pair.worker)


def bootstrap_experiments(pair: PairJudgments, raw: np.ndarray | None, rng: np.random.Generator, n_resamples: int,
                          *, by: str = "worker", variant: str = "greater", alpha: float = 0.05,
                          only=None, unknown_raw: str = "drop") -> pd.DataFrame:
    """The experiments on ``n_resamples`` resamples of the pair's HITs (with replacement; :func:`resampling_units`),
    each drawn as a count per HIT and passed as judgment weights, plus ``noise``: the resampled original ranking
    against the full data's (does resampling alone change the ranking?). One row per (resample, experiment)."""
    _, units = np.unique(resampling_units(pair), return_inverse=True)
    n_units = units.max() + 1
    ranking_options = {"by": by, "variant": variant, "alpha": alpha}
    full = perturbed_ranking(pair, **ranking_options)
    rows = []
    for b in range(n_resamples):
        weights = np.bincount(rng.integers(0, n_units, n_units), minlength=n_units)[units].astype(float)
        draw = experiments(pair, raw, weights=weights, only=only, unknown_raw=unknown_raw, against=full,
                           **ranking_options)
        rows += [dict(r, resample=b) for r in draw]
    return pd.DataFrame(rows)
