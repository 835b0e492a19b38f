"""§7: "even rank-only perturbations in the official ranking can be expected to cause changes to metrics task
results". The 2020 per-judgment files are not reachable, so each MT system's segment z are resampled instead; a
resample is *rank-only* when every system stays in its official cluster. The WMT20 metrics' Pearson correlations with
the human system z (Mathur et al. 2020) are recomputed on each; human translations are left out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .paper2020 import original_2020


def pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r of every row of ``a`` (n x k) with every row of ``b`` (m x k): an (n x m) array."""
    a, b = (x - x.mean(axis=-1, keepdims=True) for x in (np.asarray(a, float), np.asarray(b, float)))
    a, b = (x / np.linalg.norm(x, axis=-1, keepdims=True) for x in (a, b))  # unit rows: a dot product is their r
    return a @ b.T


def pair_inputs(segments: pd.DataFrame, metrics: pd.DataFrame, pair: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One 2020 pair's official ranking of its MT systems and their metric scores (systems x metrics: the metrics
    that score every one of them against the main reference)."""
    official = original_2020(segments, pair)
    official = official[~official["human"]].reset_index(drop=True)
    scores = metrics[(metrics["pair"] == pair) & (metrics["reference"] == "newstest2020")]
    wide = scores.pivot(index="system", columns="metric", values="score").reindex(official["system"])
    return official, wide.dropna(axis=1)


def resampled_z(segments: pd.DataFrame, pair: str, systems, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    """(resamples x systems) mean segment z after drawing each system's judged segments again with replacement."""
    seg = segments[(segments["collection"] == "newstest2020") & (segments["pair"] == pair)]
    out = np.empty((n_resamples, len(systems)))
    for k, system in enumerate(systems):
        z = seg.loc[seg["system"] == system, "z"].to_numpy(float)
        if not len(z):
            raise ValueError(f"{pair}: no 2020 segment scores for {system}")
        out[:, k] = z[rng.integers(0, len(z), size=(n_resamples, len(z)))].mean(axis=1)
    return out


#: the least gap between two metrics' official correlations for their reversal to count in the stricter reading of
#: §7 (``share_reordered_apart``): two metrics closer than this are a tie a reader would not call a result
METRIC_GAP = 0.02


def _discordant_pairs(order_scores: np.ndarray, reference: np.ndarray, min_gap: float = 0.0) -> np.ndarray:
    """Per row of ``order_scores``: the pairs of items ordered the other way than in ``reference`` (ties: no), only
    those whose ``reference`` values differ by at least ``min_gap``."""
    i, j = np.triu_indices(len(reference), 1)
    ref = np.sign(reference[i] - reference[j]) * (np.abs(reference[i] - reference[j]) >= min_gap)
    return ((np.sign(order_scores[:, i] - order_scores[:, j]) * ref) < 0).sum(axis=1)


def pair_consequences(segments: pd.DataFrame, official: pd.DataFrame, wide: pd.DataFrame, pair: str,
                      rng: np.random.Generator, n_resamples: int) -> dict:
    """One pair's row of ``wmt_sec7_metrics.csv``: the official correlations, and how often a resample changes the
    human ranking only within clusters and how often such a change reorders the metrics."""
    z0 = official["z"].to_numpy(float)
    r0 = pearson_rows(wide.to_numpy(float).T, z0[None])[:, 0]
    z = resampled_z(segments, pair, official["system"], rng, n_resamples)
    r = pearson_rows(z, wide.to_numpy(float).T)  # resamples x metrics
    reordered = _discordant_pairs(z, z0) > 0
    clusters = official["cluster_official"].to_numpy()
    kept = np.all(np.diff(clusters[np.argsort(-z, axis=1, kind="stable")], axis=1) >= 0, axis=1)
    rank_only = reordered & kept
    metric_swaps = _discordant_pairs(r, r0)
    apart_swaps = _discordant_pairs(r, r0, METRIC_GAP)
    top = np.argmax(r, axis=1) != np.argmax(r0)
    return {
        "pair": pair, "systems": len(z0), "metrics": wide.shape[1], "resamples": n_resamples,
        "top_metric": wide.columns[np.argmax(r0)], "top_r": float(r0.max()), "median_r": float(np.median(r0)),
        "rank_only": int(rank_only.sum()),
        "rank_only_metrics_reordered": int((rank_only & (metric_swaps > 0)).sum()),
        "rank_only_metrics_reordered_apart": int((rank_only & (apart_swaps > 0)).sum()),
        "rank_only_top_changed": int((rank_only & top).sum()),
        "rank_only_mean_metric_pairs_swapped": float(metric_swaps[rank_only].mean()) if rank_only.any() else np.nan,
        "metric_pairs": wide.shape[1] * (wide.shape[1] - 1) // 2,
        "median_abs_r_change": float(np.median(np.abs(r - r0))),
    }


def consequences(segments: pd.DataFrame, metrics: pd.DataFrame, *, seed: int, n_resamples: int) -> pd.DataFrame:
    """``wmt_sec7_metrics.csv``: :func:`pair_consequences` per 2020 pair with five MT systems (a correlation over
    fewer says little) and two metrics, one seed stream per pair; the last row (``all``) pools them."""
    pairs = sorted(set(segments.loc[segments["collection"] == "newstest2020", "pair"]) & set(metrics["pair"]))
    rows = []
    for k, pair in enumerate(pairs):
        official, wide = pair_inputs(segments, metrics, pair)
        if len(official) >= 5 and wide.shape[1] >= 2:
            rows.append(pair_consequences(segments, official, wide, pair, np.random.default_rng([seed, k]),
                                          n_resamples))
    out = pd.DataFrame(rows)
    if out.empty:
        raise ValueError("no 2020 pair has both segment scores and metric scores")
    pooled = {"pair": "all", "systems": int(out["systems"].sum()), "metrics": int(out["metrics"].max()),
              **{c: int(out[c].sum()) for c in ("resamples", "rank_only", "rank_only_metrics_reordered",
                                                 "rank_only_metrics_reordered_apart", "rank_only_top_changed")}}
    out = pd.concat([out, pd.DataFrame([pooled])], ignore_index=True)
    out["share_reordered"] = out["rank_only_metrics_reordered"] / out["rank_only"].where(out["rank_only"] > 0)
    out["share_reordered_apart"] = (out["rank_only_metrics_reordered_apart"]
                                    / out["rank_only"].where(out["rank_only"] > 0))
    out["share_top_changed"] = out["rank_only_top_changed"] / out["rank_only"].where(out["rank_only"] > 0)
    return out


def page_numbers(table: pd.DataFrame) -> dict:
    """The pooled row of ``wmt_sec7_metrics.csv`` as the page quotes it, under the keys it pastes."""
    pooled = table[table["pair"] == "all"].iloc[0]
    per_pair = table[table["pair"] != "all"]
    return {"sec7-pairs": len(per_pair), "sec7-resamples": int(pooled["resamples"]),
            "sec7-rank_only": int(pooled["rank_only"]), "sec7-resamples-per-pair": int(per_pair["resamples"].iloc[0]),
            "sec7-share_reordered": float(pooled["share_reordered"]),
            "sec7-share_top_changed": float(pooled["share_top_changed"]),
            "sec7-median_abs_r_change": float(per_pair["median_abs_r_change"].median())}


def view(table: pd.DataFrame) -> pd.DataFrame:
    """The per-pair table as the page shows it."""
    columns = {"pair": "pair", "systems": "MT systems", "metrics": "metrics", "top_metric": "best metric",
               "top_r": "its r", "rank_only": "rank-only draws", "share_reordered": "share reordered",
               "share_top_changed": "top changed", "median_abs_r_change": "median |Δr|"}
    return table[list(columns)].rename(columns=columns).set_index("pair")
