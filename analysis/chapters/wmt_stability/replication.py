"""Sec. 3 and Appendix A: our system scores, clusters and significance verdicts against the official WMT outputs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt
from ... import wmt_stability as ws
from ...plotting import MISSING
from .packages import PACKAGE_SHORT, check_rows


def official_ranking(collection: str, pair: str, rankings, clusters, wilcoxon) -> dict:
    """The official order and clusters, from ``clusters.csv`` (2018, Facebook) and from WMT's line rule on the
    published significance table (all but 2019); either may be None. ``significance``: the published "row better
    than column", 0 = significant (a star, or p < 0.05); only its upper triangle (a row above its column) is tested."""
    order = rankings[(rankings["collection"] == collection) & (rankings["pair"] == pair)].sort_values("rank")
    systems = list(order["system"])
    cl = clusters[(clusters["collection"] == collection) & (clusters["pair"] == pair)]
    from_file = None
    if len(cl):
        if list(cl["system"]) != systems:
            raise ValueError(f"{collection} {pair}: clusters.csv and the ranking list systems in different orders")
        from_file = wmt.clusters_from_lines(cl["end_of_cluster"].to_numpy()[:-1])
    w = wilcoxon[(wilcoxon["collection"] == collection) & (wilcoxon["pair"] == pair)]
    significance, from_table, table = None, None, "none published"
    if len(w):
        table = "wilcoxon-p" if (w["table"] == "wilcoxon-p").any() else "wilcoxon-diff"
        w = w[w["table"] == table]
        w = w.assign(system_a=w["system_a"].map(_system_name), system_b=w["system_b"].map(_system_name))
        better = (w["significance"].fillna("") != "") if table == "wilcoxon-diff" else (w["p_value"] < 0.05)
        matrix = pd.Series(np.where(better, 0.0, 1.0), index=pd.MultiIndex.from_frame(w[["system_a", "system_b"]]))
        significance = matrix.unstack().reindex(index=systems, columns=systems).to_numpy(copy=True)
        np.fill_diagonal(significance, np.nan)
        from_table = wmt.clusters_from_lines(wmt.significance_lines(significance))
    return {"systems": systems, "z": order["z"].to_numpy(), "raw": order["raw"].to_numpy(),
            "clusters_file": from_file, "clusters_table": from_table, "significance": significance, "table": table}


def _system_name(name: str) -> str:
    """2020 en-de's Wilcoxon table names systems by file (``newstest2020.en-de.OPPO.1535.sgm``), the rest by id."""
    parts = name.split(".")
    return ".".join(parts[2:-1]) if name.startswith("newstest") and name.endswith(".sgm") else name


def replication(judgments, segments, rankings, clusters, wilcoxon, coded, *, alpha=0.05) -> pd.DataFrame:
    """Sec. 3, App. A: our system z, raw and clusters against the official ones, per pair with judgments or segment
    scores; per rank-sum variant, whether our clusters equal the official ones and how many published pairwise
    verdicts (row above column) ours contradict."""
    rows = []
    by_pair = segments.groupby(["collection", "pair"], sort=False, observed=True).indices  # one pass
    style = judgments[["collection", "style"]].drop_duplicates().set_index("collection")["style"]
    for collection, year, pair in rankings[["collection", "year", "pair"]].drop_duplicates().itertuples(index=False):
        official = official_ranking(collection, pair, rankings, clusters, wilcoxon)
        systems, from_file, from_table = official["systems"], official["clusters_file"], official["clusters_table"]
        seg = segments.iloc[by_pair.get((collection, pair), [])]
        row = {"collection": collection, "year": year, "pair": pair, "style": style.get(collection, pd.NA),
               "n_systems": len(systems), "data": "judgments",
               "cluster_source": "clusters.csv" if from_file is not None else official["table"]}
        if from_file is not None and from_table is not None:
            row["official_files_agree"] = not wmt.ranking_changes(systems, from_file, systems, from_table)[1]
        if (collection, pair) in coded:
            pj, raw, coverage = coded[collection, pair]
            names, segs = pj.systems, ws.segment_means(pj, pj.z)
            raw_segs = ws.segment_means(pj, raw) if not np.isnan(raw[pj.scored]).any() else None
            row["raw_known"] = coverage["raw_known"] / coverage["judgments"]
            # official segment rows of ranked systems with no judgment behind them (the official scores average them in)
            ranked = seg[seg["system"].isin(systems)]
            row["segments_without_judgments"] = int((~(ranked["system"] + "\t" + ranked["segment"]).isin(
                pj.key_names[np.unique(pj.key[pj.scored])])).sum())
        elif seg.empty:
            rows.append({**row, "data": "ranking only", "note": "only the ranking is published"})
            continue
        else:
            codes, names = pd.factorize(seg["system"], sort=True)
            segs, raw_segs = (codes, seg["z"].to_numpy()), (codes, seg["raw"].to_numpy())
            row["data"] = "segments"
        extra = sorted(set(np.asarray(names, dtype=object)[np.unique(segs[0])]) - set(systems))
        if extra:  # scored in the package, left out of the official ranking
            row["note"] = f"{', '.join(extra)}: in the package, not in the official ranking; left out here too"
        ours = {v: ws.rank_segment_scores(tuple(names), *segs, extra, v, alpha) for v in wmt.RANK_SUM_VARIANTS}
        mine = ours[wmt.RANK_SUM_VARIANTS[0]]
        common = [s for s in systems if s in mine.systems]
        row |= {"systems_match": set(mine.systems) == set(systems), "order_match": list(mine.systems) == systems,
                "max_abs_z_diff": _max_diff(mine, official["z"], systems, common)}
        if raw_segs is not None:
            row["max_abs_raw_diff"] = _max_diff(ws.rank_segment_scores(tuple(names), *raw_segs, extra),
                                                official["raw"], systems, common)
        reference = from_file if from_file is not None else from_table
        if reference is None or not row["systems_match"]:
            rows.append(row)
            continue
        where = pd.Index(systems).get_indexer(list(names))[segs[0]]  # -1: not in the official ranking
        upper = np.triu(np.ones((len(systems), len(systems)), dtype=bool), 1)
        for v, ranked in ours.items():
            row[f"clusters_match_{v}"] = not ranked.changes(ws.Ranking(tuple(systems), official["z"], reference))[1]
            if official["significance"] is not None:
                p = wmt.rank_sum_pvalues(where[where >= 0], segs[1][where >= 0], len(systems), v)
                row[f"verdicts_differ_{v}"] = int(((p < alpha) != (official["significance"] == 0))[upper].sum())
        rows.append(row)
    return pd.DataFrame(rows)


def _max_diff(ranking: ws.Ranking, official, systems, common) -> float:
    """The largest |ours - official| over the systems both rank."""
    ours = pd.Series(ranking.scores, index=ranking.systems)[common]
    return float(np.abs(ours.to_numpy() - pd.Series(official, index=systems)[common].to_numpy()).max())


#: why a pair is replicated from its official segment scores only: where its per-judgment file is published
SEGMENTS_ONLY = {
    "newstest2018": "its per-judgment file is published in the WMT18 human-evaluation package (statmt.org) but "
                    "missing from the copy reachable here",
    "newstest2020": "the WMT20 per-judgment files are published on the WMT20 results page (statmt.org), not "
                    "reachable here",
    "newstest2021-toen": "its per-judgment file is published (wmt-conference/wmt21-news-systems) but too large for "
                         "this compendium's mirror, so not reachable here",
}


def replication_csv(table: pd.DataFrame, variant: str) -> pd.DataFrame:
    """``wmt_replication.csv``: one row per pair with data; ``exact``: z within 1e-9, same order and same clusters
    (with ``variant``); ``note``: what differs and why."""
    rows = table[table["data"] != "ranking only"].copy()
    rows["clusters_match"] = rows[f"clusters_match_{variant}"]
    close = rows["max_abs_z_diff"] <= 1e-9
    rows["exact"] = close & rows["order_match"].astype(bool) & (rows["clusters_match"] == True)  # noqa: E712 (NaN)
    unjudged = rows["segments_without_judgments"]
    notes = pd.DataFrame({
        "note": rows["note"],
        "segments": ("from the official segment scores: " + rows["collection"].map(SEGMENTS_ONLY).fillna(
            "its per-judgment file is not reachable here")).where(rows["data"] == "segments"),
        "z": ("the official segment file holds " + unjudged.map("{:.0f}".format) + " (system, segment) rows with no "
              "judgment behind them, which the official system scores average in").where(
            unjudged > 0, "the system z differ from the official ones for a reason not found here").where(~close),
        "raw": ("raw recovered for " + rows["raw_known"].map("{:.1%}".format) + " of judgments, so no system "
                "raw").where(rows["max_abs_raw_diff"].isna() & (rows["data"] == "judgments")),
        "files": pd.Series("the published clusters.csv and Wilcoxon tables disagree; compared with clusters.csv",
                           rows.index).where(rows.get("official_files_agree", pd.Series(dtype=object)).eq(False))})
    rows["note"] = notes.apply(lambda parts: "; ".join(parts.dropna()), axis=1)
    return rows[["collection", "year", "pair", "style", "n_systems", "max_abs_z_diff", "max_abs_raw_diff",
                 "order_match", "clusters_match", "exact", "note"]].reset_index(drop=True)


def replicated_counts(table: pd.DataFrame, years=(2018, 2020)) -> pd.DataFrame:
    """Claim values for §3's count of replicated rankings (its 21 SR–DC and 25 SR+DC pairs of 2018-2020), on the
    years whose data are the paper's own here: per year, the pairs of :func:`replication_csv` replicated exactly
    (same z, order and clusters), out of the pairs with data."""
    rows = []
    for year in years:
        part = table[table["year"] == year]
        rows += [{"key": "sec3-replicated", "detail": f"{year}: pairs replicated exactly",
                  "value": float(part["exact"].astype(bool).sum())},
                 {"key": "sec3-replicated", "detail": f"{year}: pairs with data", "value": float(len(part))}]
    return pd.DataFrame(rows)


def _yes(value) -> str | float:
    return np.nan if pd.isna(value) else ("yes" if value else "no")


def replication_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`replication` as read on the page, by (short package name, pair)."""
    rows = table[table["data"] != "ranking only"]
    return pd.DataFrame({
        "package": rows["collection"].map(PACKAGE_SHORT), "pair": rows["pair"], "from": rows["data"],
        "systems": rows["n_systems"],
        **{label: rows[column].map(lambda v: np.nan if pd.isna(v) else f"{v:.0e}")
           for label, column in (("max Δz", "max_abs_z_diff"), ("max Δraw", "max_abs_raw_diff"))},
        "same order": rows["order_match"].map(_yes),
        "same clusters (1-sided / old)": [f"{_yes(a)} / {_yes(b)}" for a, b in zip(
            rows["clusters_match_greater"], rows["clusters_match_scipy<1.7"])],
        "verdicts differing (1-sided / old)": [
            np.nan if pd.isna(a) else f"{a:.0f} / {b:.0f}"
            for a, b in zip(rows["verdicts_differ_greater"], rows["verdicts_differ_scipy<1.7"])],
    }).set_index(["package", "pair"])


def replication_exceptions(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`replication_view` not replicated exactly, with the two reasons found for a difference:
    official segment rows with no judgment behind them, and official cluster and Wilcoxon files that disagree."""
    rows = table[table["data"] != "ranking only"]
    verdicts = rows[["verdicts_differ_greater", "verdicts_differ_scipy<1.7"]]
    exact = ((rows["max_abs_z_diff"] <= 1e-9) & rows["order_match"].eq(True)
             & rows[["clusters_match_greater", "clusters_match_scipy<1.7"]].eq(True).all(axis=1)
             & (verdicts.iloc[:, 0].isna() | verdicts.eq(0).all(axis=1)))
    view = replication_view(table).drop(columns="systems").assign(**{
        "unjudged rows": [MISSING if pd.isna(v) else f"{v:.0f}" for v in rows["segments_without_judgments"]],
        "files agree": [MISSING if pd.isna(v) else _yes(v) for v in rows["official_files_agree"]]})
    return view[~exact.to_numpy()]


def printed_pvalues(segments: pd.DataFrame, wilcoxon: pd.DataFrame) -> dict:
    """The p-values the organisers printed (2020, Facebook; 0.12 marks "not run or p >= 0.12") against our one-sided
    ones from the segment scores: how many and the largest difference."""
    printed = wilcoxon[(wilcoxon["table"] == "wilcoxon-p") & (wilcoxon["p_value"] != 0.12)]
    by_pair = segments.groupby(["collection", "pair"], sort=False, observed=True).indices  # one pass
    diffs = []
    for (collection, pair), rows in printed.groupby(["collection", "pair"], sort=False):
        seg = segments.iloc[by_pair.get((collection, pair), [])]
        codes, names = pd.factorize(seg["system"], sort=True)
        p = wmt.rank_sum_pvalues(codes, seg["z"].to_numpy(), len(names), "greater")
        a, b = (names.get_indexer(rows[column].map(_system_name)) for column in ("system_a", "system_b"))
        if (a < 0).any() or (b < 0).any():
            unknown = sorted(set(rows["system_a"][a < 0]) | set(rows["system_b"][b < 0]))
            raise ValueError(f"{collection} {pair}: printed p-values name systems without segment scores: {unknown}")
        diffs.append(np.abs(p[a, b] - rows["p_value"].to_numpy()))
    return {"printed": sum(map(len, diffs)), "max_abs_diff": float(np.concatenate(diffs).max()),
            "collections": list(dict.fromkeys(printed["collection"]))}


def unperturbed_vs_official(coded: dict, rankings, clusters, wilcoxon, *, variant: str = "greater",
                            alpha: float = 0.05) -> pd.DataFrame:
    """Per pair with judgments: does the experiments' unperturbed ranking have the official order, and the clusters
    of one official source (they disagree for Facebook hi-bn)?"""
    rows = []
    for (collection, pair), (pj, _, _) in coded.items():
        official = official_ranking(collection, pair, rankings, clusters, wilcoxon)
        extra = [s for s in pj.systems if s not in official["systems"]]
        mine = ws.perturbed_ranking(pj, cluster_exclude=extra, variant=variant, alpha=alpha)
        order = list(mine.systems) == list(official["systems"])
        sources = [c for c in (official["clusters_file"], official["clusters_table"]) if c is not None]
        same = order and any(len(c) == len(mine.clusters) and (np.asarray(c) == mine.clusters).all()
                             for c in sources)
        rows.append({"collection": collection, "pair": pair, "n_systems": len(mine.systems), "order_match": order,
                     "clusters_match": same})
    return pd.DataFrame(rows)


def rank_sum_disagreements(segments: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """The lines one rank-sum variant draws and the other does not (pairs with segment scores): per line, the system
    above it, each system below it the other variant does not find worse, their z and p-values; ``p_lower_better``
    below 0.5: the rank sums lean the lower system's way."""
    rows = []
    for (collection, pair), seg in segments.groupby(["collection", "pair"], sort=True):
        codes, names = pd.factorize(seg["system"], sort=True)
        z = seg["z"].to_numpy(float)
        ranked = {v: ws.rank_segment_scores(tuple(names), codes, z, (), v, alpha) for v in wmt.RANK_SUM_VARIANTS}
        lines = {v: np.diff(r.clusters) > 0 for v, r in ranked.items()}
        differ = np.flatnonzero(lines["greater"] != lines["scipy<1.7"])
        if not differ.size:
            continue
        p = {v: wmt.rank_sum_pvalues(codes, z, len(names), v) for v in wmt.RANK_SUM_VARIANTS}
        idx = names.get_indexer(ranked["greater"].systems)
        for i in differ:
            with_line, without = ("greater", "scipy<1.7") if lines["greater"][i] else ("scipy<1.7", "greater")
            upper = idx[i]
            rows += [{"collection": collection, "pair": pair, "line_from": with_line, "upper": names[upper],
                      "lower": names[j], "z_upper": ranked["greater"].scores[i],
                      "z_lower": float(np.mean(z[codes == j])),
                      "p_greater": p["greater"][upper, j], "p_old": p["scipy<1.7"][upper, j],
                      "p_lower_better": p["greater"][j, upper]}
                     for j in idx[i + 1:] if not p[without][upper, j] < alpha]
    return pd.DataFrame(rows, columns=["collection", "pair", "line_from", "upper", "lower", "z_upper", "z_lower",
                                       "p_greater", "p_old", "p_lower_better"])


def disagreement_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`rank_sum_disagreements` as read on the page."""
    view = pd.DataFrame({"package": table["collection"].map(PACKAGE_SHORT), "pair": table["pair"],
                         "upper (z)": [f"{s} ({z:.3f})" for s, z in zip(table["upper"], table["z_upper"])],
                         "lower (z)": [f"{s} ({z:.3f})" for s, z in zip(table["lower"], table["z_lower"])],
                         "line from": table["line_from"].map({"greater": "WMT's one-sided test",
                                                              "scipy<1.7": "the paper's scipy < 1.7 p"}),
                         "p 1-sided": table["p_greater"].round(3), "p old": table["p_old"].round(3)})
    return view.set_index(["package", "pair"])


def missing_pairs_checks(segments: pd.DataFrame, collection: str = "newstest2020") -> pd.DataFrame:
    """App. A: "2020 en-{km, ps} appear to be missing from the released data" (from the official segment scores)."""
    held = set(segments.loc[segments["collection"] == collection, "pair"])
    return check_rows("appA_2020_missing_pairs", {p: bool(held) and p not in held for p in ("en-km", "en-ps")})
