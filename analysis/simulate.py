"""Synthetic evaluation setups with known system strengths (Peyrard et al. 2021, Section 4 and Appendix A.2).

A setup is a score matrix (rows = test instances, columns = systems) drawn from a generator whose latent system
strengths are known, so an aggregation mechanism can be judged by Kendall's tau between its scores and the truth.

The generator has two readings of the paper, selected by ``strengths``:

* ``"section4"`` (default). Section 4: "for each type, systems perform differently but still have the same relative
  strength, differing only by an added offset". System j has one latent strength lambda_j ~ U[0, 1]; instance type t
  adds an offset eps_t ~ U[0, offset_scale] shared by all systems; a score on an instance of type t is
  N(lambda_j + eps_t, sigma^2). The truth is lambda_j. The paper's text gives no offset distribution; the default
  ``offset_scale=100`` is the published code's (``scale = 100 * np.random.rand()`` in ``simulations.py``).
* ``"appendix_a2"``. Appendix A.2 read literally: lambda_{t,j} ~ U[0, 1] drawn independently for every type and
  system, score N(lambda_{t,j}, sigma^2), so a system's relative strength changes from type to type. The truth is
  then a system's expected score over the setup's instances, sum_t (m_t / M) lambda_{t,j}.

Outliers (Appendix A.2): a fraction f of the instances, ``max(1, floor(f * M))`` of them when f > 0 (the published
code's rule, so that f > 0 always adds at least one outlier), are replaced by

* ``"permute"`` (default, the text): scores drawn from the systems' own distributions and then permuted across the
  systems by a random derangement, "so that each system receives a score that is not sampled from its
  distribution";
* ``"adversarial"`` (the published code): scores 100 * U[0, 1] per system, redrawn until their Kendall tau with the
  latent strengths is negative, i.e. large scores that rank the systems roughly upside down.

Instances are split as evenly as possible between the types and shuffled, so the game order seen by the
order-dependent Elo and TrueSkill carries no block structure.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import aggregate
from .agreement import kendall_tau_b
from .comparisons import comparison_counts
from .pairwise import bootstrap_summary
from .validation import check_rng

STRENGTH_MODELS = ("section4", "appendix_a2")
OUTLIER_MODELS = ("permute", "adversarial")

#: The grid of Appendix A.2: 4 x 3 x 6 x 4 = 288 parameter choices, 10 datasets each = 2,880 setups.
PAPER_GRID: dict[str, tuple] = {
    "n_types": (1, 3, 5, 10),
    "outlier_fraction": (0.0, 0.01, 0.025),
    "n_systems": (2, 3, 5, 10, 25, 50),
    "n_instances": (10, 30, 100, 200),
}
PAPER_DATASETS = 10
GRID_KEYS = ("n_types", "outlier_fraction", "n_systems", "n_instances", "dataset")


@dataclass(frozen=True)
class SimulatedSetup:
    """One synthetic setup: ``scores`` (instances x systems), the ``latent`` truth per system, each instance's
    ``instance_type`` and whether it is an ``outlier``."""

    scores: pd.DataFrame
    latent: pd.Series
    instance_type: np.ndarray
    outlier: np.ndarray


def n_outliers(outlier_fraction: float, n_instances: int) -> int:
    """Number of outlier instances: 0 for f = 0, else ``max(1, floor(f * M))`` (the published code's rule)."""
    if outlier_fraction == 0:
        return 0
    return min(n_instances, max(1, int(np.floor(outlier_fraction * n_instances + 1e-9))))


def _derangement(n: int, gen: np.random.Generator) -> np.ndarray:
    """A uniformly random permutation with no fixed point (rejection sampling; about e draws on average)."""
    while True:
        perm = gen.permutation(n)
        if not (perm == np.arange(n)).any():
            return perm


def simulate_setup(
    n_systems: int,
    n_instances: int,
    n_types: int = 1,
    outlier_fraction: float = 0.0,
    *,
    rng,
    strengths: str = "section4",
    outliers: str = "permute",
    offset_scale: float = 100.0,
    sigma: float = 1.0,
    resolution: float | None = None,
) -> SimulatedSetup:
    """Draw one synthetic evaluation setup (see the module docstring for the two readings of the paper).

    ``resolution`` rounds every score to a multiple of it (e.g. 1.0 for integer ratings), which creates ties;
    ``None`` keeps continuous scores, where ties have probability zero.
    """
    gen = check_rng(rng)
    _check_setup_args(n_systems, n_instances, n_types, outlier_fraction, strengths, outliers, offset_scale, sigma)
    if resolution is not None and not (np.isfinite(resolution) and resolution > 0):
        raise ValueError(f"resolution must be a positive number or None, got {resolution}")

    instance_type = gen.permutation(np.arange(n_instances) % n_types)
    if strengths == "section4":
        latent = gen.uniform(0.0, 1.0, n_systems)
        offsets = gen.uniform(0.0, offset_scale, n_types)
        means = latent[None, :] + offsets[instance_type][:, None]
    else:
        per_type = gen.uniform(0.0, 1.0, (n_types, n_systems))
        means = per_type[instance_type]
        latent = means.mean(axis=0)
    values = means + gen.normal(0.0, sigma, (n_instances, n_systems))

    outlier = np.zeros(n_instances, dtype=bool)
    k = n_outliers(outlier_fraction, n_instances)
    if k:
        rows = gen.choice(n_instances, size=k, replace=False)
        outlier[rows] = True
        for row in rows:
            values[row] = _outlier_row(values[row], latent, outliers, gen)
    if resolution is not None:
        values = np.round(values / resolution) * resolution

    columns = [f"sys{j:02d}" for j in range(n_systems)]
    return SimulatedSetup(
        scores=pd.DataFrame(values, columns=columns),
        latent=pd.Series(latent, index=columns, name="latent"),
        instance_type=instance_type,
        outlier=outlier,
    )


def _outlier_row(row: np.ndarray, latent: np.ndarray, model: str, gen: np.random.Generator) -> np.ndarray:
    if model == "permute":
        return row[_derangement(len(row), gen)]
    while True:  # the published code: 100 * U[0,1] scores ordered against the latent strengths (tau < 0)
        draw = gen.uniform(0.0, 1.0, len(row))
        if kendall_tau_b(draw, latent)[0] < 0:
            return 100.0 * draw


def _check_setup_args(n_systems, n_instances, n_types, outlier_fraction, strengths, outliers, offset_scale, sigma):
    for name, value, low in (("n_systems", n_systems, 2), ("n_instances", n_instances, 1), ("n_types", n_types, 1)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if n_types > n_instances:
        raise ValueError(f"n_types ({n_types}) cannot exceed n_instances ({n_instances}): a type needs an instance")
    if not 0 <= outlier_fraction <= 1:
        raise ValueError(f"outlier_fraction must be in [0, 1], got {outlier_fraction}")
    if strengths not in STRENGTH_MODELS:
        raise ValueError(f"unknown strengths model {strengths!r}; expected one of {list(STRENGTH_MODELS)}")
    if outliers not in OUTLIER_MODELS:
        raise ValueError(f"unknown outlier model {outliers!r}; expected one of {list(OUTLIER_MODELS)}")
    if not (np.isfinite(offset_scale) and offset_scale >= 0):
        raise ValueError(f"offset_scale must be a non-negative number, got {offset_scale}")
    if not (np.isfinite(sigma) and sigma > 0):
        raise ValueError(f"sigma must be a positive number, got {sigma}")


def kendall_to_latent(latent, estimate) -> float:
    """Kendall's tau-b between the latent strengths and an aggregate; 0 when the aggregate ranks nothing.

    A constant aggregate (e.g. BT on two systems that win equally often) orders no pair, correctly or not; scipy
    returns NaN there, which the published code then silently dropped from its averages. Counting it as tau = 0
    keeps every setup in the average.
    """
    tau = kendall_tau_b(np.asarray(latent, dtype=float), np.asarray(estimate, dtype=float))[0]  # scipy's, bit for bit
    return 0.0 if np.isnan(tau) else float(tau)


def setup_seed(seed: int, n_types: int, outlier_fraction: float, n_systems: int, n_instances: int, dataset: int):
    """The random stream of one grid cell: a function of the seed and the cell only, so a setup's data does not
    depend on which other cells are run, in which order, or on how many processes run them."""
    return np.random.SeedSequence(
        [int(seed), int(n_types), int(round(outlier_fraction * 1e6)), int(n_systems), int(n_instances), int(dataset)]
    )


def run_grid(
    *,
    seed: int,
    grid: Mapping[str, Iterable] = PAPER_GRID,
    n_datasets: int = PAPER_DATASETS,
    mechanism_names: Iterable[str] = ("mean", "median", "bt"),
    ties: str = "half",
    **generator_options,
) -> pd.DataFrame:
    """Simulate every cell of ``grid`` ``n_datasets`` times and score each mechanism against the truth.

    Returns one row per setup: the grid keys, ``n_outliers``, ``tie_rate`` (share of tied system pairs over
    instances), ``tau_<mechanism>`` (:func:`kendall_to_latent`) and, with BT, ``bt_degenerate`` (BT had no finite
    fit: :attr:`analysis.bt.BTFit.degenerate`). ``generator_options`` go to :func:`simulate_setup`; ``ties`` is
    the tie policy of :func:`analysis.aggregate.mechanisms` (pass "loss" to reproduce the paper's code). The
    DataFrame's ``attrs["seconds"]`` holds the time spent in each mechanism.
    """
    missing = [k for k in GRID_KEYS[:-1] if k not in grid]
    if missing:
        raise ValueError(f"grid is missing {missing}")
    if n_datasets < 1:
        raise ValueError(f"n_datasets must be positive, got {n_datasets}")
    aggregators = aggregate.mechanisms(ties, mechanism_names)
    seconds = dict.fromkeys(aggregators, 0.0)
    rows = []
    cells = itertools.product(*(tuple(grid[k]) for k in GRID_KEYS[:-1]), range(n_datasets))
    for n_types, f, n_sys, m, d in cells:
        setup = simulate_setup(
            n_sys, m, n_types, f, rng=np.random.default_rng(setup_seed(seed, n_types, f, n_sys, m, d)),
            **generator_options,
        )
        row = dict(zip(GRID_KEYS, (n_types, f, n_sys, m, d)))
        row["n_outliers"] = int(setup.outlier.sum())
        row["tie_rate"] = _tie_rate(setup.scores.to_numpy())
        for name, fn in aggregators.items():
            start = time.perf_counter()
            estimate = fn(setup.scores)
            row[f"tau_{name}"] = kendall_to_latent(setup.latent, estimate)
            if name == "bt":
                row["bt_degenerate"] = bool(estimate.attrs["fit"].degenerate[0])
            seconds[name] += time.perf_counter() - start
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.attrs["seconds"] = seconds
    return frame


def _tie_rate(values: np.ndarray) -> float:
    """Share of (instance, system pair) comparisons that are ties."""
    ordered = np.sort(values, axis=1)
    if not (ordered[:, 1:] == ordered[:, :-1]).any():
        return 0.0
    _, ties = comparison_counts(values)
    n_instances, n = values.shape
    return float(ties.sum() / 2 / (n_instances * n * (n - 1) / 2))


#: Fig. 3's eight panels: (label, title, subset of setups, x-axis). The caption does not pin the subsets of (e)-(h);
#: these follow the panel labels of the published ``simulations.py``.
FIG3_PANELS: tuple[tuple[str, str, str, str], ...] = (
    ("a", "easy cases", "n_types == 1 and outlier_fraction == 0", "n_systems"),
    ("b", "easy cases", "n_types == 1 and outlier_fraction == 0", "n_instances"),
    ("c", "outliers only (1 type)", "n_types == 1", "outlier_fraction"),
    ("d", "types only (no outliers)", "outlier_fraction == 0", "n_types"),
    ("e", "types, with outliers", "outlier_fraction > 0", "n_types"),
    ("f", "outliers, with several types", "n_types > 1", "outlier_fraction"),
    ("g", "all simulations", "index == index", "n_systems"),
    ("h", "all simulations", "index == index", "n_instances"),
)


def summarise_panels(
    per_setup: pd.DataFrame,
    mechanism_names: Iterable[str],
    *,
    rng,
    panels=FIG3_PANELS,
    n_resamples: int = 1000,
) -> pd.DataFrame:
    """Mean tau and 95% bootstrap interval (over setups) per panel, x value and mechanism: the data of Fig. 3."""
    gen = check_rng(rng)
    names = {f"tau_{name}": name for name in mechanism_names}
    parts = []
    for label, title, subset, x in panels:
        s = bootstrap_summary(per_setup.query(subset), list(names), by=x, rng=gen, n_resamples=n_resamples)
        parts.append(pd.DataFrame({
            "panel": label, "title": title, "x": x, "x_value": s[x], "mechanism": s["column"].map(names),
            "n_setups": s["n"], "tau": s["estimate"], "low": s["low"], "high": s["high"],
        }))
    return pd.concat(parts, ignore_index=True)
