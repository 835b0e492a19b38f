"""Chapter ``03_wmt_stability``: Knowles (2021) on the WMT packages that can be reached — the replication of the
official rankings (Sec. 3, Appendix A), the toy example (Sec. 5), Table 1, HIT composition (Sec. 5.1), Tables 2-3
and Fig. 1 (Sec. 5.2), Figs. 2-5 (Secs. 5.3-6), and beyond the paper a bootstrap over HITs and one of Sec. 8's
remedies."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import wmt
from .. import wmt_stability as ws
from ..data import published
from ..processes import process_pool
from .common import SEED, Param

CHAPTER = "03_wmt_stability"
#: the packages with per-judgment data, in the order they are shown; label and what they stand for
PACKAGES = {
    "newstest2018": ("2018 (SR-DC)", "the paper's own 2018 data (13 pairs with judgments; de-en as segment scores)"),
    "newstest2021-toen": ("2021 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "newstest2022-toen": ("2022 to-English (SR+DC)", "stand-in for the paper's 2019-2020 SR+DC MTurk rankings"),
    "wikipedia2021-fb": ("2021 Facebook-Wikipedia", "two professional evaluators per pair; no REF or HUMAN items"),
}
#: packages in the by-style totals: Facebook-Wikipedia's one or two evaluators judged everything, so it has no HIT
#: composition to speak of and is shown on its own
STYLE_TOTALS = ("newstest2018", "newstest2021-toen", "newstest2022-toen")
PARAMETERS = {
    "seed": SEED,
    "variant": Param("str", choices=wmt.RANK_SUM_VARIANTS),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "divisors": Param("number", many=True, low=1, low_open=True),
    "n_bootstrap": Param("int", low=1),
    "bootstrap_experiments": Param("str", many=True, choices=ws.EXPERIMENTS),
    "packages": Param("str", many=True, choices=tuple(PACKAGES)),
}
CHANGE_COLUMNS = ["rank_changed", "cluster_changed", "both_changed"]
PER_PAIR_COLUMNS = ["collection", "year", "pair", "style", "experiment", "n_systems", *CHANGE_COLUMNS]
REPLICATION_COLUMNS = ["collection", "year", "pair", "style", "n_systems", "max_abs_z_diff", "max_abs_raw_diff",
                       "clusters_match", "note"]


# -- data --------------------------------------------------------------------------------------------------------


def coded_pairs(judgments: pd.DataFrame, segments: pd.DataFrame, packages) -> dict:
    """(collection, pair) -> (PairJudgments, reconstructed raw, raw coverage summary), for ``packages``."""
    out = {}
    for (collection, pair), rows in judgments[judgments["collection"].isin(packages)].groupby(
            ["collection", "pair"], sort=False):
        coded = ws.code_pair(rows)
        seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
        raw, coverage = ws.reconstruct_raw(coded, seg)
        out[collection, pair] = (coded, raw, coverage)
    order = {c: k for k, c in enumerate(packages)}
    return dict(sorted(out.items(), key=lambda kv: (order[kv[0][0]], kv[0][1])))


def pair_info(judgments: pd.DataFrame) -> pd.DataFrame:
    return judgments[["collection", "year", "pair", "style"]].drop_duplicates().set_index(["collection", "pair"])


# -- replication (Sec. 3, Appendix A) ----------------------------------------------------------------------------


def official_significance(collection: str, pair: str, systems, wilcoxon) -> tuple[np.ndarray | None, str]:
    """The published significance of "row better than column" for ``systems`` (in official order) as a 0/1 matrix
    (0 = significant: a star, or p < 0.05; 1 = not), or None if nothing is published. The organisers print a test
    only for a row above its column (elsewhere 0.12 or no star), so only the upper triangle is meaningful."""
    w = wilcoxon[(wilcoxon["collection"] == collection) & (wilcoxon["pair"] == pair)]
    if w.empty:
        return None, "none published"
    table = "wilcoxon-p" if (w["table"] == "wilcoxon-p").any() else "wilcoxon-diff"
    w = w[w["table"] == table]
    w = w.assign(system_a=w["system_a"].map(_system_name), system_b=w["system_b"].map(_system_name))
    better = (w["significance"].fillna("") != "") if table == "wilcoxon-diff" else (w["p_value"] < 0.05)
    matrix = pd.Series(np.where(better, 0.0, 1.0), index=pd.MultiIndex.from_frame(w[["system_a", "system_b"]]))
    matrix = matrix.unstack().reindex(index=list(systems), columns=list(systems)).to_numpy(copy=True)
    np.fill_diagonal(matrix, np.nan)
    return matrix, table


def official_ranking(collection: str, pair: str, rankings, clusters, wilcoxon) -> dict:
    """The official order and clusters: from the published ``clusters.csv`` (2018, Facebook) and from WMT's line
    rule applied to the published significance table (every package but 2019's); either may be None."""
    order = rankings[(rankings["collection"] == collection) & (rankings["pair"] == pair)].sort_values("rank")
    systems = list(order["system"])
    cl = clusters[(clusters["collection"] == collection) & (clusters["pair"] == pair)]
    from_file = None
    if len(cl):
        if list(cl["system"]) != systems:
            raise ValueError(f"{collection} {pair}: clusters.csv and the ranking list systems in different orders")
        from_file = wmt.clusters_from_lines(cl["end_of_cluster"].to_numpy()[:-1])
    significance, table = official_significance(collection, pair, systems, wilcoxon)
    from_table = None if significance is None else wmt.clusters_from_lines(wmt.significance_lines(significance))
    return {"systems": systems, "z": order["z"].to_numpy(), "raw": order["raw"].to_numpy(),
            "clusters_file": from_file, "clusters_table": from_table, "significance": significance, "table": table}


def _system_name(name: str) -> str:
    """2020 en-de's Wilcoxon table names systems by file (``newstest2020.en-de.OPPO.1535.sgm``), the rest by id."""
    parts = name.split(".")
    return ".".join(parts[2:-1]) if name.startswith("newstest") and name.endswith(".sgm") else name


def replication(judgments, segments, rankings, clusters, wilcoxon, coded, *, alpha=0.05) -> pd.DataFrame:
    """Our system z, raw and clusters against the official ones, for every pair with judgments or segment scores.

    Per rank-sum variant: whether our clusters equal the official ones (``clusters.csv`` where published, else the
    line rule on the published significance table) and how many of the published pairwise verdicts (row above
    column) ours contradict. ``official_files_agree``: whether ``clusters.csv`` and the table agree with each other.
    """
    rows = []
    keys = rankings[["collection", "year", "pair"]].drop_duplicates()
    style = judgments[["collection", "style"]].drop_duplicates().set_index("collection")["style"]
    for collection, year, pair in keys.itertuples(index=False):
        official = official_ranking(collection, pair, rankings, clusters, wilcoxon)
        systems = official["systems"]
        row = {"collection": collection, "year": year, "pair": pair, "style": style.get(collection, pd.NA),
               "n_systems": len(systems), "data": "judgments", "cluster_source": "clusters.csv"
               if official["clusters_file"] is not None else official["table"]}
        if official["clusters_file"] is not None and official["clusters_table"] is not None:
            row["official_files_agree"] = not wmt.ranking_changes(systems, official["clusters_file"], systems,
                                                                  official["clusters_table"])[1]
        if (collection, pair) in coded:
            pj, raw, coverage = coded[collection, pair]
            scored = np.asarray(pj.systems, dtype=object)[np.unique(pj.system[pj.scored])]
            extra = sorted(set(scored) - set(systems))
            segs = ws.segment_means(pj, pj.z)
            raw_segs = ws.segment_means(pj, raw) if not np.isnan(raw[pj.scored]).any() else None
            row["raw_known"] = coverage["raw_known"] / coverage["judgments"]
            names = pj.systems
        else:
            seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
            if seg.empty:
                rows.append({**row, "data": "ranking only", "note": "only the ranking is published"})
                continue
            row["data"] = "segments"
            codes, names = pd.factorize(seg["system"], sort=True)
            extra = sorted(set(names) - set(systems))
            segs = (codes, seg["z"].to_numpy())
            raw_segs = (codes, seg["raw"].to_numpy())
        if extra:  # scored in the package, left out of the official ranking
            row["note"] = f"{', '.join(extra)}: in the package, not in the official ranking; left out here too"
        ours = {v: ws.rank_segment_scores(tuple(names), *segs, extra, v, alpha) for v in wmt.RANK_SUM_VARIANTS}
        mine = ours[wmt.RANK_SUM_VARIANTS[0]]
        z = pd.Series(mine.scores, index=mine.systems)
        row["systems_match"] = set(mine.systems) == set(systems)
        common = [s for s in systems if s in z.index]
        position = {s: k for k, s in enumerate(systems)}
        row["max_abs_z_diff"] = float(np.abs(z[common].to_numpy() - official["z"][[position[s] for s in common]]).max())
        if raw_segs is not None:
            r = ws.rank_segment_scores(tuple(names), *raw_segs, extra)
            r = pd.Series(r.scores, index=r.systems)[common].to_numpy()
            row["max_abs_raw_diff"] = float(np.abs(r - official["raw"][[position[s] for s in common]]).max())
        row["order_match"] = list(mine.systems) == systems
        reference = official["clusters_file"] if official["clusters_file"] is not None else official["clusters_table"]
        for v, ranked in ours.items():
            if reference is None or not row["systems_match"]:
                continue
            row[f"clusters_match_{v}"] = not ranked.changes(ws.Ranking(tuple(systems), official["z"], reference))[1]
            if official["significance"] is not None:
                where = np.array([position.get(name, -1) for name in names])[segs[0]]
                p = wmt.rank_sum_pvalues(where[where >= 0], segs[1][where >= 0], len(systems), v)
                upper = np.triu(np.ones_like(p, dtype=bool), 1)
                row[f"verdicts_differ_{v}"] = int(((p < alpha) != (official["significance"] == 0))[upper].sum())
        rows.append(row)
    return pd.DataFrame(rows)


def replication_csv(table: pd.DataFrame, variant: str) -> pd.DataFrame:
    """``wmt_replication.csv``: one row per pair with data, in the issue's columns; ``clusters_match`` for
    ``variant``; ``note`` says what differs and why."""
    rows = table[table["data"] != "ranking only"].copy()
    rows["clusters_match"] = rows[f"clusters_match_{variant}"]
    notes = []
    for r in rows.itertuples(index=False):
        parts = [] if pd.isna(r.note) else [r.note]
        if r.data == "segments":
            parts.append("from the official segment scores (no per-judgment file)")
        if r.max_abs_z_diff > 1e-9:
            parts.append("the official segment file holds (system, segment) rows of z = 0 with no judgment behind "
                         "them, which the official system scores average in")
        if pd.isna(r.max_abs_raw_diff) and r.data == "judgments":
            parts.append(f"raw recovered for {r.raw_known:.1%} of judgments, so no system raw")
        if getattr(r, "official_files_agree", True) is False:
            parts.append("the published clusters.csv and Wilcoxon tables disagree; compared with clusters.csv")
        notes.append("; ".join(parts))
    rows["note"] = notes
    return rows[REPLICATION_COLUMNS].reset_index(drop=True)


# -- Sec. 5: toy example, Table 1, Sec. 5.1 ----------------------------------------------------------------------


def toy_example() -> pd.DataFrame:
    """§5's toy HITs: the z (ddof = 1) of a sentence scored 50 in each, next to the paper's."""
    toy = published.item("wmt", "section5_toy")
    rows = []
    for scores, paper in zip(toy["hits"], toy["z"]):
        frame = pd.DataFrame({"worker": "w", "raw": np.asarray(scores, float)})
        z = wmt.standardise(frame)[frame["raw"] == toy["value"]].iloc[0]
        rows.append({"HIT raw scores": ", ".join(map(str, scores)), "z of a 50": z, "paper": paper})
    return pd.DataFrame(rows)


def table1(judgments: pd.DataFrame) -> pd.DataFrame:
    """Item types per package here (``good-stnd-redup`` files, the same judgments as the paper's
    ``good-raw-redup``), then the paper's Table 1 rows."""
    ours = judgments.groupby("collection", sort=False)["item_type"].value_counts().unstack(fill_value=0)
    ours = ours.reindex(columns=["SYSTEM", "REPEAT", "REF", "BAD_REF"], fill_value=0)
    ours.index = [f"{c} (here, {judgments.loc[judgments['collection'] == c, 'pair'].nunique()} pairs)"
                  for c in ours.index]
    theirs = published.frame("wmt", "table1").set_index("dataset")
    theirs.index = [f"{d} (paper)" for d in theirs.index]
    return pd.concat([ours, theirs]).rename_axis("dataset")


def ref_shares(composition: pd.DataFrame) -> pd.DataFrame:
    """Share of workers who judged at least one REF item, per pair, with the paper's 2018 values (§5.1)."""
    paper = published.item("wmt", "section51_ref_shares")
    table = composition[["collection", "pair", "workers", "workers_saw_ref", "workers_saw_human", "hits",
                         "hits_saw_ref", "hits_saw_human"]].copy()
    table["paper_workers_saw_ref"] = [paper["shares"].get(p, np.nan) / 100 if c == "newstest2018" else np.nan
                                      for c, p in zip(table["collection"], table["pair"])]
    return table


# -- Tables 2-3 and Fig. 1 ---------------------------------------------------------------------------------------


def stability_per_pair(coded: dict, info: pd.DataFrame, *, divisors, variant, alpha, by="worker") -> pd.DataFrame:
    """``wmt_stability_per_pair.csv``: one row per (pair, experiment) (:func:`analysis.wmt_stability.experiments`)."""
    rows = []
    for (collection, pair), (pj, raw, _) in coded.items():
        year, style = info.loc[(collection, pair), ["year", "style"]]
        for r in ws.experiments(pj, raw, divisors=divisors, variant=variant, alpha=alpha, by=by):
            rows.append({"collection": collection, "year": year, "pair": pair, "style": style, **r})
    return pd.DataFrame(rows, columns=PER_PAIR_COLUMNS)


def _fraction(flags: pd.Series) -> str:
    return f"{int(flags.sum())}/{len(flags)}"


def _paper_fraction(value) -> str:
    return f"{value[0]}/{value[1]}"


def stability_summary(per_pair: pd.DataFrame, experiments, *, by_package: bool = False) -> pd.DataFrame:
    """Changed / pairs for ``experiments`` by style (packages in :data:`STYLE_TOTALS`) and, with ``by_package``,
    by package (Facebook-Wikipedia on its own row)."""
    part = per_pair[per_pair["experiment"].isin(experiments)]
    groups = []
    if by_package:
        groups += [(PACKAGES[c][0], rows) for c, rows in part.groupby("collection", sort=False)]
    totals = part[part["collection"].isin(STYLE_TOTALS)]
    groups += [(f"ALL {style}", rows) for style, rows in totals.groupby("style", sort=False)]
    out = [{"experiment": experiment, "group": label,
            **{c.replace("_changed", ""): _fraction(sub[c]) for c in CHANGE_COLUMNS}}
           for label, rows in groups for experiment, sub in rows.groupby("experiment", sort=False)]
    return pd.DataFrame(out).sort_values(["experiment", "group"], kind="stable")


def table2(per_pair: pd.DataFrame, human_pairs=()) -> pd.DataFrame:
    """Table 2 (remove HUMAN and REF) by package and style, the SR+DC pairs split by whether a HUMAN system is
    ranked (``human_pairs``: (collection, pair) keys) or only REF items go; then the paper's rows."""
    ours = stability_summary(per_pair, ["remove_human"], by_package=True).drop(columns="experiment")
    part = per_pair[(per_pair["experiment"] == "remove_human") & (per_pair["style"] == "SR+DC")
                    & per_pair["collection"].isin(STYLE_TOTALS)]
    has_human = pd.Series([(c, p) in set(human_pairs) for c, p in zip(part["collection"], part["pair"])],
                          index=part.index)
    split = [{"group": label, **{c.replace("_changed", ""): _fraction(rows[c]) for c in CHANGE_COLUMNS}}
             for label, rows in (("SR+DC with a HUMAN system", part[has_human]),
                                 ("SR+DC, REF items only", part[~has_human])) if len(rows)]
    ours = pd.concat([ours, pd.DataFrame(split)], ignore_index=True)
    theirs = published.frame("wmt", "table2").drop(columns="style")
    for c in ("rank", "cluster", "both"):
        theirs[c] = theirs[c].map(_paper_fraction)
    theirs["group"] = "paper: " + theirs["group"]
    return pd.concat([ours, theirs], ignore_index=True).set_index("group")


def table3(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Table 3 (remove the single lowest / highest system) by package and style, ours next to the paper's (which
    prints only the style totals)."""
    ours = stability_summary(per_pair, ["remove_lowest", "remove_highest"], by_package=True)
    ours = ours.set_index(["experiment", "group"])
    theirs = published.frame("wmt", "table3")
    theirs["group"] = "ALL " + theirs["style"]
    theirs = theirs.drop(columns="style").set_index(["experiment", "group"])
    for c in ("rank", "cluster", "both"):
        ours[f"paper_{c}"] = theirs[c].map(_paper_fraction).reindex(ours.index).fillna("")
    return ours


def fig1_fractions(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Long table for Fig. 1: divisor, style, measure, fraction changed, ours and the paper's."""
    part = per_pair[per_pair["experiment"].str.startswith("divide_") & per_pair["collection"].isin(STYLE_TOTALS)]
    part = part.assign(divisor=part["experiment"].str.removeprefix("divide_").astype(float))
    ours = part.groupby(["divisor", "style"])[CHANGE_COLUMNS].agg(["sum", "size"])
    rows = []
    for (divisor, style), r in ours.iterrows():
        for c in CHANGE_COLUMNS:
            rows.append({"divisor": divisor, "style": style, "measure": c.replace("_changed", ""), "source": "here",
                         "changed": int(r[(c, "sum")]), "pairs": int(r[(c, "size")])})
    paper = published.item("wmt", "fig1")
    for divisor, style, *values in paper["rows"]:
        for measure, (changed, pairs) in zip(("rank", "cluster", "both"), values):
            rows.append({"divisor": float(divisor), "style": style, "measure": measure, "source": "paper",
                         "changed": changed, "pairs": pairs})
    out = pd.DataFrame(rows)
    out["fraction"] = out["changed"] / out["pairs"]
    return out


STYLE_COLORS = {"SR-DC": "#4C72B0", "SR+DC": "#DD8452"}
HERE = {"SR-DC": "here, 2018", "SR+DC": "here, 2021-22 to-English"}
DIVISOR_TICKS = [1.25, 1.5, 2.0, 4.0, 10.0]


def plot_fig1(fractions: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6), sharey=True)
    for ax, measure in zip(axes, ("rank", "cluster", "both")):
        for (style, source), rows in fractions[fractions["measure"] == measure].groupby(["style", "source"]):
            rows = rows.sort_values("divisor")
            ax.plot([DIVISOR_TICKS.index(d) if d in DIVISOR_TICKS else np.nan for d in rows["divisor"]],
                    rows["fraction"], marker="o" if source == "here" else "s",
                    linestyle="-" if source == "here" else "--", color=STYLE_COLORS[style],
                    alpha=1.0 if source == "here" else 0.6,
                    label=f"{style}, {HERE[style] if source == 'here' else 'paper, 2018-20'} ({rows['pairs'].iloc[0]} pairs)")
        ax.set_xticks(list(range(len(DIVISOR_TICKS))), [f"{d:g}" for d in DIVISOR_TICKS])
        ax.set_xlabel("divisor of REF and HUMAN raw scores")
        ax.set_title(f"Δ{measure}")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("fraction of language pairs changed")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


# -- Figs. 2-5 ---------------------------------------------------------------------------------------------------


def trajectories(pj: ws.PairJudgments, raw, divisors, *, variant, alpha) -> pd.DataFrame:
    """Figs. 2-3: the ranking of the original data and after each division (HUMAN systems scored but left out of
    the ranking and clusters, as in the paper's figures); one row per (setting, system) with ``line_below``."""
    humans = [s for s, h in zip(pj.systems, pj.human) if h]
    keep = ws.divisible(pj, raw)
    settings = [("original", 1.0)] + [(f"d-{d:g}", d) for d in divisors]
    rows = []
    for label, d in settings:
        r = ws.perturbed_ranking(pj, divide=d, raw=raw, cluster_exclude=humans, keep=keep, variant=variant,
                                 alpha=alpha)
        below = np.append(np.diff(r.clusters) > 0, False)
        rows += [{"setting": label, "system": s, "rank": k + 1, "z": z, "line_below": b}
                 for k, (s, z, b) in enumerate(zip(r.systems, r.scores, below))]
    return pd.DataFrame(rows)


def most_affected(per_pair_trajectories: dict) -> pd.Series:
    """Per pair: how many (system, divisor) ranks differ from the original ranking, largest first."""
    moved = {}
    for key, t in per_pair_trajectories.items():
        wide = t.pivot(index="system", columns="setting", values="rank")
        moved[key] = int((wide.drop(columns="original").sub(wide["original"], axis=0) != 0).to_numpy().sum())
    return pd.Series(moved).sort_values(ascending=False, kind="stable")


def plot_trajectories(panels: dict):
    """Figs. 2-3: one panel per pair; rank (top = best) per setting, significance lines marked with a black x."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 5.6), squeeze=False)
    for ax, (title, t) in zip(axes[0], panels.items()):
        settings = list(dict.fromkeys(t["setting"]))
        x = {s: k for k, s in enumerate(settings)}
        first = t[t["setting"] == "original"].sort_values("rank")
        palette = plt.get_cmap("tab20")(np.linspace(0, 1, 20))
        for k, system in enumerate(first["system"]):
            rows = t[t["system"] == system]
            ax.plot([x[s] for s in rows["setting"]], rows["rank"], marker="o", markersize=3, linewidth=1.2,
                    color=palette[k % 20])
            ax.annotate(system, (-0.1, rows["rank"].iloc[0]), ha="right", va="center", fontsize=7)
            ax.annotate(system, (len(settings) - 0.9, rows["rank"].iloc[-1]), ha="left", va="center", fontsize=7)
        lines = t[t["line_below"]]
        ax.scatter([x[s] for s in lines["setting"]], lines["rank"] + 0.5, marker="x", color="black", s=30, zorder=3)
        ax.set_xticks(range(len(settings)), settings, rotation=30)
        ax.set_xlabel("HUMAN and REF raw scores divided by d (d-n)")
        ax.set_xlim(-2.6, len(settings) + 1.6)
        ax.invert_yaxis()
        ax.set_yticks([])
        ax.set_ylabel("rank (top = best)")
        ax.set_title(title, fontsize=10)
        for side in ("left", "right", "top"):
            ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig


def cooccurrence_share(pj: ws.PairJudgments, unit: str) -> pd.DataFrame:
    """Fig. 4 as shares: of the HITs (or workers) holding the row system, the share also holding the column one."""
    counts = ws.cooccurrence(pj, unit)
    return counts / np.diag(counts)[:, None]


def plot_fig4(panels: dict):
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, axes = plt.subplots(1, len(panels), figsize=(7.2 * len(panels), 6.4), squeeze=False)
    for ax, (title, share) in zip(axes[0], panels.items()):
        sns.heatmap(share * 100, ax=ax, vmin=0, vmax=100, cmap="viridis", annot=True, fmt=".0f",
                    annot_kws={"fontsize": 6}, cbar_kws={"label": "% of the row system's HITs"}, square=True)
        ax.set_title(title, fontsize=10)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    return fig


def document_matrix(judgments: pd.DataFrame, raw: np.ndarray) -> pd.DataFrame:
    """Fig. 5: mean raw score per (test document, system) over SYSTEM/REPEAT judgments, documents (rows) and
    systems (columns) sorted by their mean, best first; NaN = not judged."""
    rows = judgments.assign(raw=raw, test_document=ws.recover_documents(judgments).to_numpy())
    rows = rows[rows["item_type"].isin(wmt.SCORED_TYPES)]
    matrix = rows.groupby(["test_document", "system"])["raw"].mean().unstack()
    matrix = matrix.loc[matrix.mean(axis=1).sort_values(ascending=False).index]
    return matrix[matrix.mean(axis=0).sort_values(ascending=False).index]


def plot_fig5(matrix: pd.DataFrame, title: str):
    import matplotlib.pyplot as plt
    import seaborn as sns

    fig, ax = plt.subplots(figsize=(7, 7.5))
    ax.set_facecolor("#e6e6e6")  # not judged: light grey, distinct from any score
    ax.grid(False)
    sns.heatmap(matrix, ax=ax, cmap="viridis", vmin=0, vmax=100, yticklabels=False,
                cbar_kws={"label": "mean raw score of the document's judged segments (grey: not judged)"})
    ax.set_ylabel(f"{len(matrix)} test documents, best first")
    ax.set_xlabel("system, best first (mean over documents)")
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return fig


# -- beyond the paper: bootstrap over HITs, a Sec. 8 remedy, the rank-sum variant -------------------------------


def _bootstrap_one(args):
    key, pj, raw, seed, n, options = args
    table = ws.bootstrap_experiments(pj, raw, np.random.default_rng(seed), n, **options)
    return table.assign(collection=key[0], pair=key[1])


def bootstrap(coded: dict, info: pd.DataFrame, *, seed: int, n_resamples: int, experiments, variant, alpha,
              workers: int | None = None) -> pd.DataFrame:
    """The experiments on ``n_resamples`` bootstrap resamples of HITs per pair (news packages only: the Facebook
    pairs have one or two evaluators and no HITs); each pair gets its own seed spawned from ``seed``, so the result
    does not depend on the number of worker processes."""
    keys = [k for k in coded if k[0] in STYLE_TOTALS]
    seeds = np.random.SeedSequence(seed).spawn(len(keys))
    options = {"variant": variant, "alpha": alpha, "only": list(experiments)}
    tasks = [(k, coded[k][0], coded[k][1], s, n_resamples, options) for k, s in zip(keys, seeds)]
    with process_pool(workers) as pool:
        parts = list(pool.map(_bootstrap_one, tasks))
    table = pd.concat(parts, ignore_index=True)
    table["style"] = [info.loc[(c, p), "style"] for c, p in zip(table["collection"], table["pair"])]
    return table


def bootstrap_summary(boot: pd.DataFrame, per_pair: pd.DataFrame) -> pd.DataFrame:
    """Per style and experiment: the observed number of pairs changed, and over resamples the mean number and a
    90% interval, plus how many pairs change in more than half of the resamples."""
    rows = []
    observed = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    for (style, experiment), part in boot.groupby(["style", "experiment"], sort=True):
        n_pairs = part["pair"].astype(str).add(part["collection"]).nunique()
        row = {"style": style, "experiment": experiment, "pairs": n_pairs}
        for c in CHANGE_COLUMNS:
            counts = part.groupby("resample")[c].sum()
            share = part.groupby(["collection", "pair"])[c].mean()
            seen = observed[(observed["style"] == style) & (observed["experiment"] == experiment)][c]
            name = c.replace("_changed", "")
            row[f"{name}_observed"] = int(seen.sum()) if len(seen) else np.nan
            row[f"{name}_mean"] = counts.mean()
            row[f"{name}_interval"] = f"{np.percentile(counts, 5):.0f}-{np.percentile(counts, 95):.0f}"
            row[f"{name}_most_resamples"] = int((share > 0.5).sum())
        rows.append(row)
    return pd.DataFrame(rows)


def remedy_per_hit(coded: dict, info: pd.DataFrame, *, divisors, variant, alpha) -> pd.DataFrame:
    """Sec. 8's question "normalise over annotators or over HITs?": the experiments again with z per HIT instead of
    per worker, on the packages where every judgment has a HIT id (2021-22 to-English)."""
    keys = {k: v for k, v in coded.items() if k[0] in ("newstest2021-toen", "newstest2022-toen")}
    per_worker = stability_per_pair(keys, info, divisors=divisors, variant=variant, alpha=alpha)
    per_hit = stability_per_pair(keys, info, divisors=divisors, variant=variant, alpha=alpha, by="hit")
    out = []
    for label, table in (("z per worker (WMT)", per_worker), ("z per HIT", per_hit)):
        for experiment, part in table.groupby("experiment", sort=False):
            out.append({"standardised": label, "experiment": experiment,
                        **{c.replace("_changed", ""): _fraction(part[c]) for c in CHANGE_COLUMNS}})
    return pd.DataFrame(out).pivot(index="experiment", columns="standardised").reindex(list(ws.EXPERIMENTS))


def variant_sensitivity(coded: dict, info: pd.DataFrame, *, divisors, alpha) -> pd.DataFrame:
    """Tables 2-3 and Fig. 1's counts with each rank-sum variant (the paper's scipy<1.7 p and the official one)."""
    out = []
    for variant in wmt.RANK_SUM_VARIANTS:
        table = stability_per_pair(coded, info, divisors=divisors, variant=variant, alpha=alpha)
        table = table[table["collection"].isin(STYLE_TOTALS)]
        for (experiment, style), part in table.groupby(["experiment", "style"], sort=False):
            out.append({"variant": variant, "experiment": experiment, "style": style,
                        **{c.replace("_changed", ""): _fraction(part[c]) for c in CHANGE_COLUMNS}})
    return pd.DataFrame(out).pivot(index=["experiment", "style"], columns="variant")


def raw_coverage(coded: dict) -> pd.DataFrame:
    """Per pair: judgments and workers, how many raw scores are published and how many are recovered
    (:func:`analysis.wmt_stability.reconstruct_raw`), and the judgments the divisions cannot use."""
    rows = []
    for (collection, pair), (pj, raw, c) in coded.items():
        unusable = int((~ws.divisible(pj, raw)).sum())
        rows.append({"collection": collection, "pair": pair, "judgments": c["judgments"],
                     "raw_published": c["raw_published"] / c["judgments"], "raw_known": c["raw_known"] / c["judgments"],
                     "workers": c["workers"], "workers_fully_known": c["workers_known"],
                     "left_out_of_divisions": unusable / c["judgments"]})
    return pd.DataFrame(rows)


# -- choices and sentences for the notebook ------------------------------------------------------------------------


def pair_title(key: tuple[str, str], info: pd.DataFrame) -> str:
    collection, pair = key
    year, style = info.loc[key, ["year", "style"]]
    return f"{pair} {year} ({style}, {collection})"


def trajectory_panels(moved: pd.Series, info: pd.DataFrame, n_sr_plus: int = 2) -> list:
    """The ``n_sr_plus`` SR+DC pairs whose ranks move most under division, then the SR-DC pair that moves most."""
    style = [info.loc[k, "style"] for k in moved.index]
    plus = [k for k, s in zip(moved.index, style) if s == "SR+DC"][:n_sr_plus]
    minus = [k for k, s in zip(moved.index, style) if s == "SR-DC"][:1]
    return plus + minus


def fig4_pairs(coded: dict) -> list:
    """Fig. 4's pairs: the SR+DC pair with a HUMAN system and the most HITs, and the 2018 pair with the most HITs."""
    def hits(key):
        return int(coded[key][0].hit.max()) + 1

    plus = [k for k in coded if k[0] in ("newstest2021-toen", "newstest2022-toen") and coded[k][0].human.any()]
    minus = [k for k in coded if k[0] == "newstest2018" and hits(k) > 0]
    return [max(group, key=hits) for group in (plus, minus) if group]


def fig4_text(coded: dict, keys) -> str:
    parts = []
    for key in keys:
        share = cooccurrence_share(coded[key][0], "hit").to_numpy()
        off = share[~np.eye(len(share), dtype=bool)]
        parts.append(f"{key[1]} ({key[0]}): a system's HITs hold a given other system {off.mean():.0%} of the time "
                     f"on average (range {off.min():.0%}–{off.max():.0%})")
    return ("Fig. 4, as shares of the row system's HITs (the paper shows counts): " + "; ".join(parts) + ". In SR-DC "
            "every HIT holds (nearly) every system; in SR+DC a system meets a given other in only some of its "
            "HITs, so which systems its scores are standardised against differs from system to system.")


def fig5_pair(coded: dict) -> tuple[str, str]:
    """Fig. 5's pair: the SR+DC pair with a HUMAN system whose raw scores are all known and with the most systems."""
    complete = [k for k, (pj, raw, _) in coded.items() if k[0] in ("newstest2021-toen", "newstest2022-toen")
                and pj.human.any() and not np.isnan(raw[pj.scored]).any()]
    return max(complete, key=lambda k: len(coded[k][0].systems))


def omega_squared(values: pd.Series, groups: pd.Series) -> float:
    """One-way ω² (Hays): the share of variance a factor explains, corrected for its number of levels (a factor
    with many levels explains some variance by chance alone; ω² is about 0 then)."""
    g = values.groupby(groups)
    grand, n, k = values.mean(), len(values), g.ngroups
    between = (g.size() * (g.mean() - grand) ** 2).sum()
    within = ((values - g.transform("mean")) ** 2).sum()
    mean_within = within / (n - k)
    return float((between - (k - 1) * mean_within) / (between + within + mean_within))


def fig5_text(raw_matrix: pd.DataFrame, z_matrix: pd.DataFrame) -> str:
    """How much of the (document, system) cell variance documents and systems explain (ω², raw and z)."""
    shares = {}
    for label, matrix in (("raw", raw_matrix), ("z", z_matrix)):
        long = matrix.stack().rename("value").reset_index()
        shares[label] = (omega_squared(long["value"], long["test_document"]),
                         omega_squared(long["value"], long["system"]))
    judged = raw_matrix.notna().mean().mean()
    return (f"{len(raw_matrix)} documents × {raw_matrix.shape[1]} systems, {judged:.0%} of the cells judged. "
            f"Documents explain ω² = {shares['raw'][0]:.2f} of the cell variance and systems {shares['raw'][1]:.2f} "
            f"(one-way, corrected for the number of levels; on z scores, which remove each worker's leniency, "
            f"{shares['z'][0]:.2f} and {shares['z'][1]:.2f}). A cell is usually one worker's judgments of one "
            "document, so part of the document effect may still be the worker's; but the document a system happened "
            "to be judged on moves its scores more than which system it is, the paper's §6 point, and every system "
            "is judged on a different subset of documents.")


def style_contrast(boot: pd.DataFrame) -> pd.DataFrame:
    """Per experiment and measure: the share of bootstrap resamples in which more SR+DC than SR-DC pairs change
    (and in which fewer), over resamples drawn independently per pair."""
    counts = boot.groupby(["experiment", "style", "resample"])[CHANGE_COLUMNS].sum()
    rows = []
    for experiment, part in counts.groupby(level="experiment"):
        plus = part.xs("SR+DC", level="style")
        minus = part.xs("SR-DC", level="style")
        for c in CHANGE_COLUMNS:
            diff = plus[c] - minus[c]
            rows.append({"experiment": experiment, "measure": c.replace("_changed", ""),
                         "SR+DC more": float((diff > 0).mean()), "SR+DC fewer": float((diff < 0).mean())})
    return pd.DataFrame(rows).set_index(["experiment", "measure"])


def bootstrap_text(summary: pd.DataFrame, contrast: pd.DataFrame) -> str:
    s = summary.set_index(["style", "experiment"])
    noise = {style: s.loc[(style, "noise")] for style in ("SR+DC", "SR-DC") if (style, "noise") in s.index}
    perturbations = [e for e in contrast.index.get_level_values(0).unique() if e != "noise"]
    rank_more = min(contrast.loc[(e, "rank"), "SR+DC more"] for e in perturbations)
    cluster_more = {e: contrast.loc[(e, "cluster"), "SR+DC more"] for e in perturbations}
    text = []
    if len(noise) == 2:
        noise_rank_more = contrast.loc[("noise", "rank"), "SR+DC more"] if ("noise", "rank") in contrast.index else 0
        text.append(
            f"Resampling HITs alone changes the order in {noise['SR+DC']['rank_mean']:.1f} of 13 SR+DC and "
            f"{noise['SR-DC']['rank_mean']:.1f} of 13 SR-DC rankings on average, and the clusters in "
            f"{noise['SR+DC']['cluster_mean']:.1f} and {noise['SR-DC']['cluster_mean']:.1f}: more than any "
            "perturbation changes them. A changed order or cluster on its own is therefore weak evidence about a "
            f"ranking, and the SR+DC orders are the more fragile ones (more of them change in {noise_rank_more:.0%} "
            "of the resamples).")
    text.append(
        "Against the unperturbed ranking *of the same resample*, more SR+DC than SR-DC pairs change their order in "
        + ("every resample" if rank_more == 1 else f"at least {rank_more:.0%} of the resamples")
        + " for every experiment, and their clusters in " + ", ".join(
            f"{v:.0%} ({e})" for e, v in cluster_more.items()) + " of the resamples. So the contrast of Tables 2–3 "
        "does not hinge on which HITs were collected; but part of it may be that the SR+DC systems here are closer "
        "together (their orders also break more easily under resampling), and it cannot tell the protocol apart "
        "from the other differences between these packages (year, systems, HUMAN systems in six SR+DC pairs).")
    return " ".join(text)


def lines_per_pair(coded: dict, *, by: str = "worker", variant: str, alpha: float) -> pd.Series:
    """Significance lines in each pair's original ranking (all systems)."""
    return pd.Series({k: int(ws.perturbed_ranking(pj, by=by, variant=variant, alpha=alpha).clusters.max())
                      for k, (pj, _, _) in coded.items()}, dtype=int)


def hits_per_worker(coded: dict) -> float:
    """Mean number of HITs per worker over the pairs of ``coded`` (judgments with a HIT id)."""
    pairs = [np.unique(np.column_stack([pj.worker, pj.hit])[pj.hit >= 0], axis=0) for pj, _, _ in coded.values()]
    return float(np.mean([len(p) / len(np.unique(p[:, 0])) for p in pairs if len(p)]))


def remedy_text(remedy: pd.DataFrame, lines_worker: pd.Series, lines_hit: pd.Series, hits: float) -> str:
    def total(column):
        return sum(int(v.split("/")[0]) for v in remedy[column].dropna())

    w, h = "z per worker (WMT)", "z per HIT"
    return (f"Summed over the experiments, the status quo (z per worker, what §8 recommends keeping) changes the order "
            f"{total(('rank', w))} times and the clusters {total(('cluster', w))} times; z per HIT "
            f"{total(('rank', h))} and {total(('cluster', h))} times. Per-worker z keeps the order steadier; per-HIT "
            f"z moves the clusters less, and its original rankings also have fewer lines ({lines_hit.sum()} against "
            f"{lines_worker.sum()} over the 13 pairs). A worker here did {hits:.1f} HITs on average, so the two "
            "choices are close; neither removes the SR+DC instability. As §8 says, workers would also have to see comparable "
            "mixes of systems.")


def variant_text(variants: pd.DataFrame) -> str:
    same = all((variants[(c, "greater")] == variants[(c, "scipy<1.7")]).all() for c in ("rank", "cluster", "both"))
    return ("Every count is the same with both tests: the lines they disagree on are not in the pairs' perturbed "
            "rankings here." if same else
            "The counts differ between the tests in some rows: the lines they disagree on matter here.")


# -- compact views for the page --------------------------------------------------------------------------------------

PACKAGE_SHORT = {"newstest2018": "2018", "newstest2019": "2019", "newstest2020": "2020", "newstest2021-toen": "2021",
                 "wikipedia2021-fb": "2021 FB", "newstest2022-toen": "2022"}


def by_pair(frame: pd.DataFrame) -> pd.DataFrame:
    """Index a per-pair table by (package, pair) with short package names, for display."""
    out = frame.assign(package=frame["collection"].map(PACKAGE_SHORT)).set_index(["package", "pair"])
    return out.drop(columns=[c for c in ("collection", "year") if c in out.columns])


def replication_view(table: pd.DataFrame) -> pd.DataFrame:
    """The replication table as read on the page: differences in scientific notation, verdicts as yes/no."""
    rows = table[table["data"] != "ranking only"]

    def yes(value):
        return "" if pd.isna(value) else ("yes" if value else "no")

    def sci(value):
        return "" if pd.isna(value) else f"{value:.0e}"

    view = pd.DataFrame({
        "collection": rows["collection"], "pair": rows["pair"], "from": rows["data"], "systems": rows["n_systems"],
        "max Δz": rows["max_abs_z_diff"].map(sci), "max Δraw": rows["max_abs_raw_diff"].map(sci),
        "same order": rows["order_match"].map(yes),
        "same clusters (1-sided / old)": [f"{yes(a)} / {yes(b)}" for a, b in zip(
            rows["clusters_match_greater"], rows["clusters_match_scipy<1.7"])],
        "verdicts differing (1-sided / old)": [
            "" if pd.isna(a) else f"{a:.0f} / {b:.0f}"
            for a, b in zip(rows["verdicts_differ_greater"], rows["verdicts_differ_scipy<1.7"])],
    })
    return by_pair(view)


def bootstrap_view(summary: pd.DataFrame) -> pd.DataFrame:
    """The bootstrap summary as read on the page: per measure "observed | mean over resamples (90% interval)"."""
    view = summary.set_index(["style", "experiment"])[["pairs"]].copy()
    for m in ("rank", "cluster", "both"):
        observed = summary[f"{m}_observed"].map(lambda v: "–" if pd.isna(v) else f"{v:.0f}")
        view[f"Δ{m}: observed | resampled mean (90%)"] = [
            f"{o} | {mean:.1f} ({interval})" for o, mean, interval in
            zip(observed, summary[f"{m}_mean"], summary[f"{m}_interval"])]
    return view


def printed_pvalues(segments: pd.DataFrame, wilcoxon: pd.DataFrame) -> dict:
    """The official p-value tables (2020, Facebook) against ours (one-sided, from the segment scores), over every
    p the organisers printed (0.12 marks a test not run or p >= 0.12): how many and the largest difference."""
    printed = wilcoxon[(wilcoxon["table"] == "wilcoxon-p") & (wilcoxon["p_value"] != 0.12)]
    worst, count = 0.0, 0
    for (collection, pair), rows in printed.groupby(["collection", "pair"], sort=False):
        seg = segments[(segments["collection"] == collection) & (segments["pair"] == pair)]
        codes, names = pd.factorize(seg["system"], sort=True)
        p = wmt.rank_sum_pvalues(codes, seg["z"].to_numpy(), len(names), "greater")
        position = {n: k for k, n in enumerate(names)}
        ours = [p[position[_system_name(a)], position[_system_name(b)]]
                for a, b in zip(rows["system_a"], rows["system_b"])]
        worst = max(worst, float(np.abs(np.array(ours) - rows["p_value"].to_numpy()).max()))
        count += len(rows)
    return {"printed": count, "max_abs_diff": worst}


def human_pairs(coded: dict) -> list:
    """(collection, pair) keys of the pairs that rank a HUMAN system."""
    return [k for k, (pj, _, _) in coded.items() if pj.human.any()]


def extremes(coded: dict, *, variant: str, alpha: float) -> pd.DataFrame:
    """The systems Table 3 removes: the first and last of each pair's original ranking, HUMAN systems included (as
    in the paper's scripts, which read them from the original ranking file)."""
    rows = []
    for (collection, pair), (pj, _, _) in coded.items():
        r = ws.perturbed_ranking(pj, variant=variant, alpha=alpha)
        rows.append({"collection": collection, "pair": pair, "highest": r.systems[0], "lowest": r.systems[-1]})
    out = pd.DataFrame(rows)
    out["human_removed"] = [ws.HUMAN_MARK in h or ws.HUMAN_MARK in lo for h, lo in zip(out["highest"], out["lowest"])]
    return out


def replication_exceptions(view: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`replication_view` that are not an exact replication."""
    exact = (view["max Δz"].map(lambda v: v == "" or float(v) <= 1e-9) & (view["same order"] == "yes")
             & (view["same clusters (1-sided / old)"] == "yes / yes")
             & (view["verdicts differing (1-sided / old)"].isin(["0 / 0", ""])))
    return view[~exact]


def share_range(values: pd.Series) -> str:
    return f"{values.min():.0%}–{values.max():.0%}"
