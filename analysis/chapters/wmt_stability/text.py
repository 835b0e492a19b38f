"""Sentences for the page, each computed from the chapter's tables and branching on their values (no conclusion is
typed in): raw-score coverage, the Sec. 3 / App. A replication, the Sec. 5.1 shares, Table 3, Figs. 2-5, the
bootstrap, the Sec. 8 remedy and the rank-sum variant."""

from __future__ import annotations

import pandas as pd

from .claim_values import share_of
from .packages import STYLE_TOTALS
from .views import PACKAGE_SHORT, experiment_label


def _name(collection: str, pair: str) -> str:
    return f"{pair} {PACKAGE_SHORT.get(collection, collection)}"


def _names(rows: pd.DataFrame) -> str:
    return ", ".join(_name(c, p) for c, p in zip(rows["collection"], rows["pair"]))


def _compare(a: float, b: float, words=("fewer", "as many", "more")) -> str:
    """``words[0]`` if a < b, ``words[1]`` if equal, ``words[2]`` if a > b."""
    return words[0] if a < b else words[2] if a > b else words[1]


def share_range(values: pd.Series) -> str:
    return f"{values.min():.0%}–{values.max():.0%}"


def raw_text(coverage: pd.DataFrame, variants: pd.DataFrame | None = None, recovery: pd.DataFrame | None = None) -> str:
    """Where the raw scores come from (``variants``: the ``wmt_raw_variants`` table, which per-worker mean/sd file
    reproduces the published z), how the recovery from segment sums checks them (``recovery``:
    :func:`.experiments.recovery_check`), and what the divisions leave undivided."""
    text = []
    if variants is not None and len(variants):
        with_refs = variants[variants["variant"] == "with REF items"]
        without = variants[variants["variant"] == "without REF items"]
        n = int(with_refs["judgments"].sum())
        exact = bool((with_refs["share_integer"] == 1).all() and (with_refs["outside_0_100"] == 0).all()
                     and (with_refs["single_segments_disagreeing"] == 0).all())
        verdict = ("gives every one of them as an integer in 0–100" if exact else
                   "does **not** give every one of them as an integer in 0–100")
        text.append(
            f"For the {len(with_refs)} pairs of 2021–22 ({n:,} judgments), raw = mean + sd · z with the organisers' "
            f"per-worker mean and sd computed *with* REF items {verdict} (at most "
            f"{with_refs['max_distance_to_integer'].max():.0e} from an integer) and agrees with every singly judged "
            f"segment's official raw; the file computed *without* REF items gives integers for "
            f"{without['share_integer'].mul(without['judgments']).sum() / without['judgments'].sum():.1%} of them, "
            f"{int(without['outside_0_100'].sum()):,} values outside 0–100, and contradicts "
            f"{int(without['single_segments_disagreeing'].sum()):,} of "
            f"{int(without['single_segments'].sum()):,} singly judged segments. So the published z were standardised "
            f"with REF items in each worker's pool, and the with-REF file gives the exact raw used below.")
    if recovery is not None and len(recovery):
        hidden = int(recovery["hidden"].sum())
        found = int(recovery["recovered"].sum())
        wrong = int(recovery["disagreeing"].sum())
        text.append(f"As a check, the recovery from z and the official segment sums (used for 2018, which publishes "
                    f"no per-worker mean and sd), run on 2021–22 with the raws of all but singly judged segments "
                    f"hidden, recovers {found:,} of the {hidden:,} hidden raws ({found / hidden:.0%}) and "
                    + ("agrees with every one." if wrong == 0 else f"**disagrees on {wrong:,}**."))
    old = coverage[~coverage["collection"].isin(["newstest2021-toen", "newstest2022-toen", "wikipedia2021-fb"])]
    if len(old):
        n = old["judgments"].sum()
        known = old["raw_known"].mul(old["judgments"]).sum()
        complete = int((old["workers_fully_known"] == old["workers"]).sum())
        text.append(f"In 2018 the recovery finds {known:,.0f} of {n:,} raws ({known / n:.1%}), every worker of "
                    f"{complete} of {len(old)} pairs completely.")
    undivided = coverage[coverage["undivided"] > 0]
    if undivided.empty:
        text.append("Every judgment with a REF or HUMAN item in its worker's pool is divided in Fig. 1.")
    else:
        text.append(f"The divisions of Fig. 1 cannot divide the raws of workers with REF or HUMAN items whose raws "
                    f"stay unknown; those keep their published z on both sides (no judgment is dropped, so the "
                    f"unperturbed ranking is the official one): {_names(undivided)} "
                    f"({undivided['undivided'].min():.1%}–{undivided['undivided'].max():.1%} of their judgments).")
    return " ".join(text)


def unperturbed_text(table: pd.DataFrame) -> str:
    """Whether the unperturbed side of every experiment is the official ranking
    (:func:`.replication.unperturbed_vs_official`)."""
    same = table["order_match"] & table["clusters_match"]
    text = (f"Without any perturbation, the ranking of {int(same.sum())} of {len(table)} pairs with judgments equals "
            "the official one, order and clusters")
    if same.all():
        return text + "."
    return text + f" (not: {_names(table[~same])})."


def replication_text(done: pd.DataFrame, printed: dict, missing_line) -> str:
    """Sec. 3 / App. A: how many pairs reproduce the official z, order, clusters and verdicts, why the others do
    not, and the pairs the paper reports missing a significance line (``missing_line``: (collection, pair) keys)."""
    exact = done["max_abs_z_diff"] <= 1e-9
    text = [f"**{int(exact.sum())} of {len(done)} pairs** reproduce the official system z to 1e-9"]
    off = done[~exact]
    if len(off):
        phantom = off["segments_without_judgments"].fillna(0)
        explained = off[phantom > 0]
        text[-1] += (f" (the other {len(off)}: " + "; ".join(
            f"{_name(r.collection, r.pair)}, whose official segment file holds {r.segments_without_judgments:.0f} "
            "(system, segment) rows with no judgment behind them, which the official averages include"
            for r in explained.itertuples(index=False))
            + ("; " if len(explained) and len(explained) < len(off) else "")
            + (f"{_names(off[phantom == 0])}, for a reason not found here" if (phantom == 0).any() else "") + ")")
    text[-1] += "."
    text.append(f"The ranking order matches in {int(done['order_match'].sum())} of {len(done)}.")
    text.append(
        f"With the official one-sided test the clusters match in {int(done['clusters_match_greater'].sum())} "
        f"of {int(done['clusters_match_greater'].notna().sum())} pairs and contradict "
        f"{int(done['verdicts_differ_greater'].sum())} of the published pairwise verdicts; with the paper's scipy < 1.7 "
        f"p (half the two-sided p, whichever direction the data lean) they match in "
        f"{int(done['clusters_match_scipy<1.7'].sum())} and contradict {int(done['verdicts_differ_scipy<1.7'].sum())}.")
    packages = " and ".join(PACKAGE_SHORT.get(c, c) for c in printed["collections"])
    text.append(f"The {printed['printed']:,} p-values the organisers printed ({packages}) "
                + (f"equal ours to {printed['max_abs_diff']:.0e}." if printed["max_abs_diff"] < 1e-9 else
                   f"differ from ours by up to {printed['max_abs_diff']:.2g}."))
    mismatch = done[done["clusters_match_greater"].notna() & ~done["clusters_match_greater"].astype(bool)]
    for r in mismatch.itertuples(index=False):
        if getattr(r, "official_files_agree", True) is False and r.verdicts_differ_greater == 0:
            text.append(f"The cluster mismatch of {_name(r.collection, r.pair)} is the official files disagreeing with "
                        "each other: ours follows every pairwise verdict of the package's Wilcoxon table, which its "
                        "cluster file does not.")
        else:
            text.append(f"The clusters of {_name(r.collection, r.pair)} differ from the official ones for a reason not "
                        "found here.")
    for collection, pair in missing_line:
        row = done[(done["collection"] == collection) & (done["pair"] == pair)]
        if row.empty:
            continue
        a, b = bool(row["clusters_match_greater"].iloc[0]), bool(row["clusters_match_scipy<1.7"].iloc[0])
        name = _name(collection, pair)
        if a and b:
            text.append(f"{name}, which the paper reports missing a significance line, matches here under both tests, "
                        "so the paper's miss must come from what differs in its pipeline (it standardised the organisers' "
                        "file of all judgments, not reachable here, and compared with the Findings tables).")
        else:
            which = [w for w, ok in (("the official test", a), ("the paper's p", b)) if not ok]
            text.append(f"{name}, which the paper reports missing a significance line, differs here too with "
                        f"{' and '.join(which)}.")
    return " ".join(text)


def ref_share_text(composition: pd.DataFrame, lowest: int = 3) -> str:
    """Sec. 5.1: which 2018 pairs have the lowest shares of workers who saw REF items (and whether their judgments
    carry HIT ids), how many SR+DC pairs had every worker see REF items, and who saw a HUMAN system."""
    y2018 = composition[composition["collection"] == "newstest2018"].sort_values("workers_saw_ref")
    low = y2018.head(lowest)
    no_hit = low["hits"].isna()
    text = [f"The lowest 2018 shares are {', '.join(f'{p} {s:.1%}' for p, s in zip(low['pair'], low['workers_saw_ref']))}"
            + (": all pairs whose judgments carry no HIT id, the ones collected in Appraise, where the alternate HIT "
               "structure had no REF items (§5.1)." if no_hit.all() else
               f"; {int(no_hit.sum())} of them carry no HIT id (Appraise).")]
    plus = composition[composition["collection"].isin(["newstest2021-toen", "newstest2022-toen"])]
    if len(plus):
        worst = plus.loc[plus["workers_saw_ref"].idxmin()]
        every = int((plus["workers_saw_ref"] == 1).sum())
        text.append(f"In the SR+DC stand-ins every worker saw REF items in {every} of {len(plus)} pairs"
                    + ("." if every == len(plus) else
                       f" (the lowest share: {worst['workers_saw_ref']:.0%}, {_name(worst['collection'], worst['pair'])})."))
    human = composition[composition["workers_saw_human"] > 0]
    if len(human):
        text.append(f"Where a HUMAN system is ranked, {share_range(human['workers_saw_human'])} of the workers "
                    f"({share_range(human['hits_saw_human'])} of the HITs) saw its output.")
    return " ".join(text)


def table3_text(shares: pd.DataFrame, paper: pd.DataFrame, removed: pd.DataFrame, lines: pd.Series,
                info: pd.DataFrame) -> str:
    """Table 3 against the paper's (``paper``: the published frame, [changed, pairs] per cell): per removal, the
    order and cluster changes by style, the style contrast and our shares against the paper's; which removed systems
    are HUMAN ones, and the significance lines each style has to move (``lines``: per pair, the packages of
    :data:`STYLE_TOTALS` counted)."""
    def cell(experiment, measure, style):
        r = share_of(shares, experiment, measure, style)
        return int(r["changed"]), int(r["pairs"]), float(r["share"])

    def theirs(experiment, measure, style):
        changed, pairs = paper[(paper["experiment"] == experiment) & (paper["style"] == style)][measure].iloc[0]
        return changed, pairs, changed / pairs

    text, rank_more = [], []
    for experiment, label in (("remove_lowest", "worst"), ("remove_highest", "best")):
        parts = []
        for measure, what in (("rank", "order"), ("cluster", "clusters")):
            plus, minus = cell(experiment, measure, "SR+DC"), cell(experiment, measure, "SR-DC")
            p_plus, p_minus = theirs(experiment, measure, "SR+DC"), theirs(experiment, measure, "SR-DC")
            contrast = _compare(plus[2], minus[2], ("fewer SR+DC than SR-DC pairs", "as large a share of both styles",
                                                    "more SR+DC than SR-DC pairs"))
            parts.append(
                f"the {what} of {plus[0]}/{plus[1]} SR+DC and {minus[0]}/{minus[1]} SR-DC pairs (paper "
                f"{p_plus[0]}/{p_plus[1]} and {p_minus[0]}/{p_minus[1]}): {contrast}, a share "
                f"{_compare(plus[2], p_plus[2], ('below', 'equal to', 'above'))} the paper's for SR+DC and "
                f"{_compare(minus[2], p_minus[2], ('below', 'equal to', 'above'))} it for SR-DC")
            if measure == "rank":
                rank_more.append(plus[2] > minus[2])
        text.append(f"Removing the {label} system changes " + "; and ".join(parts) + ".")
    humans = removed[removed["human_removed"]]
    if len(humans):
        text.append("As in the paper's scripts, the highest and lowest systems are taken from the original ranking "
                    "with HUMAN systems in it, so a HUMAN system is the one removed in " + ", ".join(
                        f"{_name(r.collection, r.pair)} ({r.highest if 'HUMAN' in r.highest else r.lowest})"
                        for r in humans.itertuples(index=False)) + ".")
    lines = lines[[k[0] in STYLE_TOTALS for k in lines.index]]
    style = pd.Series([info.loc[k, "style"] for k in lines.index], index=lines.index)
    plus_lines, minus_lines = lines[style == "SR+DC"].median(), lines[style == "SR-DC"].median()
    text.append(f"The SR+DC rankings have {_compare(plus_lines, minus_lines)} significance lines to move (a median of "
                f"{plus_lines:.0f} per pair, against {minus_lines:.0f} for SR-DC)"
                + (", yet their orders change more often after either removal." if all(rank_more)
                   and plus_lines < minus_lines else "."))
    return " ".join(text)


def trajectory_text(summary: pd.DataFrame, removed: pd.DataFrame) -> str:
    """Figs. 2-3: what the panels shown do under division (ranks moved, divisions that change the clusters)."""
    shown = summary[summary["shown"]]
    parts = [f"{_name(r.collection, r.pair)} ({r.style}) moves {r.ranks_moved} (system, divisor) ranks and changes its "
             f"clusters under {r.divisions_with_other_clusters} of {r.divisions} divisions"
             for r in shown.itertuples(index=False)]
    plus = shown[shown["style"] == "SR+DC"]
    both = (plus["ranks_moved"] > 0) & (plus["divisions_with_other_clusters"] > 0)
    text = "In the figures: " + "; ".join(parts) + ". "
    if len(plus) and both.all():
        text += ("As in the paper's Figs. 2–3, the SR+DC rankings shown reshuffle as the human scores are degraded, "
                 "their clusters included, with no change to any MT system's own raw scores.")
    elif len(plus):
        text += "Not every SR+DC ranking shown changes both its order and its clusters, as the paper's Figs. 2–3 do."
    last = removed[removed["lowest"].str.contains("HUMAN") & removed["collection"].isin(summary["collection"])]
    if len(last):
        text += (" Not every stand-in has a strong HUMAN system to degrade: in " + ", ".join(
            f"{_name(r.collection, r.pair)} {r.lowest}" for r in last.itertuples(index=False)) + " ranks last.")
    return text


def fig4_text(summary: pd.DataFrame) -> str:
    """Fig. 4's verdict (the figures' captions give the numbers): whether a system meets some other system in fewer
    than half of its HITs in SR+DC while most SR-DC HITs hold every system (Sec. 5.4); empty without both styles."""
    plus, minus = summary[summary["style"] == "SR+DC"], summary[summary["style"] == "SR-DC"]
    if not (len(plus) and len(minus)):
        return ""
    if (plus["min_share"] < 0.5).any() and (minus["hits_with_every_system"].min()
                                            > plus["hits_with_every_system"].max()):
        return (f"In SR+DC a system meets some other system in fewer than half of its HITs (as few as "
                f"{plus['min_share'].min():.0%}), while in the SR-DC {'pair' if len(minus) == 1 else 'pairs'} "
                f"drawn, {minus['hits_with_every_system'].min():.0%} or more of the HITs hold every system: which systems a system's scores are standardised against differs from "
                "system to system in SR+DC, the paper's §5.4 point.")
    return "The two styles do not differ here as the paper's §5.4 describes."


def fig5_text(variance: pd.DataFrame, different_documents: bool) -> str:
    """Sec. 6: how much of the (document, system) cell variance documents and systems explain (raw and z)."""
    v = variance.set_index("scores")
    raw, z = v.loc["raw"], v.loc["z"]
    text = (f"{raw['documents']:.0f} documents × {raw['systems']:.0f} systems, {raw['cells_judged']:.0%} of the cells "
            f"judged. Documents explain ω² = {raw['documents_omega2']:.2f} of the cell variance and systems "
            f"{raw['systems_omega2']:.2f} (one-way, corrected for the number of levels; on z scores, which remove each "
            f"worker's leniency, {z['documents_omega2']:.2f} and {z['systems_omega2']:.2f}). A cell is usually one "
            "worker's judgments of one document, so part of the document effect may still be the worker's. ")
    if raw["documents_at_least_systems"] and z["documents_at_least_systems"]:
        text += ("Which document a cell holds explains at least as much of its score as which system it is, on raw "
                 "and z scores: documents differ as much as the paper's §6 says. Whether that moves the systems' "
                 "means is another question, answered by the joint fit below.")
    elif raw["documents_at_least_systems"]:
        text += ("Documents explain at least as much as systems on raw scores but not on z scores: part of the "
                 "document effect is the workers'.")
    else:
        text += "Systems explain more of the cell variance than documents here, a weaker document effect than §6's."
    text += (" The systems are judged on different subsets of the documents." if different_documents else
             " Every system is judged on the same documents here.")
    return text


def bootstrap_text(summary: pd.DataFrame, contrast: pd.DataFrame, noise: pd.DataFrame) -> str:
    """The bootstrap: how much resampling the HITs alone changes, against every perturbation (``noise``:
    :func:`noise_vs_perturbation`), and whether the style contrast survives resampling (``contrast``)."""
    s = summary.set_index(["style", "experiment"])
    text = []
    if ("SR+DC", "noise") in s.index and ("SR-DC", "noise") in s.index:
        plus, minus = s.loc[("SR+DC", "noise")], s.loc[("SR-DC", "noise")]
        text.append(f"Resampling HITs alone changes the order in {plus['rank_mean']:.1f} of {plus['pairs']:.0f} SR+DC "
                    f"and {minus['rank_mean']:.1f} of {minus['pairs']:.0f} SR-DC rankings on average, and the clusters "
                    f"in {plus['cluster_mean']:.1f} and {minus['cluster_mean']:.1f}.")
        sr_plus = noise[noise["style"] == "SR+DC"]
        beats, none_beat, some_beat = [], [], []
        for measure, what in (("rank", "orders"), ("cluster", "clusters")):
            rows = sr_plus[sr_plus["measure"] == measure]
            more = rows[rows["exceeds_noise"]]
            beats.append(len(more) / max(len(rows), 1))
            if more.empty:
                none_beat.append((what, len(rows)))
            else:
                some_beat.append(f"For SR+DC, {len(more)} of the {len(rows)} perturbations change more {what} than "
                                 f"resampling alone does ({', '.join(map(experiment_label, more['experiment']))}).")
        if none_beat:
            counts = {n for _, n in none_beat}
            what = " or ".join(w for w, _ in none_beat)
            text.append(f"For SR+DC, resampling alone changes more {what} than every one of the "
                        + (f"{counts.pop()} perturbations does" if len(counts) == 1 else "perturbations does")
                        + " on the full data.")
        text.extend(some_beat)
        text.append("Most perturbations, then, change no more SR+DC rankings than which HITs were collected does: a "
                    "changed order or cluster on its own is weak evidence about the protocol." if max(beats) < 0.5
                    else "Some perturbations change more SR+DC rankings than resampling alone does.")
        if ("noise", "rank") in contrast.index:
            share = contrast.loc[("noise", "rank"), "SR+DC more"]
            text.append(f"Under resampling alone, more SR+DC than SR-DC orders change in {share:.0%} of the resamples"
                        + (": the SR+DC orders are the more fragile ones." if share > 0.5 else "."))
    perturbations = [e for e in contrast.index.get_level_values(0).unique() if e != "noise"]
    cells = {(e, m): contrast.loc[(e, m), "SR+DC more"] for e in perturbations for m in ("rank", "cluster")}
    text.append("Against the unperturbed ranking *of the same resample*, more SR+DC than SR-DC pairs change their "
                "order in " + ", ".join(f"{cells[(e, 'rank')]:.0%} ({experiment_label(e)})" for e in perturbations)
                + " of the resamples, and their clusters in "
                + ", ".join(f"{cells[(e, 'cluster')]:.0%} ({experiment_label(e)})" for e in perturbations) + ".")
    weak = [f"{'order' if m == 'rank' else 'clusters'} after {experiment_label(e)}" for (e, m), v in cells.items()
            if v <= 0.5]
    rerun = ", ".join(experiment_label(e) for e in perturbations)
    text.append(f"So for the perturbations rerun on the resamples ({rerun}), the contrast between the styles holds in "
                "most resamples for every measure" if not weak
                else f"Of the perturbations rerun on the resamples ({rerun}), the contrast between the styles holds in "
                "at most half of the resamples for " + ", ".join(weak))
    text[-1] += ("; it cannot tell the protocol apart from the other differences between these packages (year, "
                 "systems, HUMAN systems in some SR+DC pairs), nor from SR+DC systems being closer together.")
    return " ".join(text)


def remedy_text(totals: pd.DataFrame, long: pd.DataFrame, lines_worker: pd.Series, lines_hit: pd.Series,
                hits: float) -> str:
    """Sec. 8: z per worker against z per HIT, summed over the experiments (``totals``: :func:`remedy_totals`;
    ``long``: :func:`remedy_per_hit`)."""
    t = totals.set_index("measure")
    rank, cluster = t.loc["rank"], t.loc["cluster"]
    text = [f"Summed over the {rank['experiments']} experiments, the status quo (z per worker, what §8 recommends "
            f"keeping) changes the order {rank['per_worker']} times and the clusters {cluster['per_worker']} times; "
            f"z per HIT {rank['per_hit']} and {cluster['per_hit']} times.",
            f"Per-worker z changes {_compare(rank['per_worker'], rank['per_hit'])} orders than per-HIT z "
            f"(fewer in {rank['experiments_per_worker_fewer']} experiments, more in "
            f"{rank['experiments_per_hit_fewer']}) and {_compare(cluster['per_worker'], cluster['per_hit'])} clusters "
            f"(fewer in {cluster['experiments_per_worker_fewer']}, more in {cluster['experiments_per_hit_fewer']}).",
            f"The original per-HIT rankings have {_compare(lines_hit.sum(), lines_worker.sum())} significance lines "
            f"than the per-worker ones ({lines_hit.sum()} against {lines_worker.sum()} over the {len(lines_worker)} "
            f"pairs). A worker here did {hits:.1f} HITs on average.",
            f"Fewer lines leave fewer clusters to change, so the two sides start from different baselines: per "
            f"significance line of the original rankings, the clusters change "
            f"{int(cluster['per_worker']) / max(int(lines_worker.sum()), 1):.2f} times with z per worker and "
            f"{int(cluster['per_hit']) / max(int(lines_hit.sum()), 1):.2f} times with z per HIT."]
    clusters = long[long["measure"] == "cluster"].groupby("standardised")["changed"].min()
    text.append("Under either standardisation every perturbation still changes the clusters of some SR+DC pair: "
                "neither removes the instability." if (clusters > 0).all() else
                "Under " + " and ".join(f"z per {s}" for s in clusters.index[clusters == 0])
                + " some perturbation leaves every SR+DC clustering unchanged.")
    text.append("§8 adds that workers would also have to see comparable mixes of systems.")
    return " ".join(text)


def variant_text(variants: pd.DataFrame) -> str:
    same = all((variants[(c, "greater")] == variants[(c, "scipy<1.7")]).all() for c in ("rank", "cluster", "both"))
    return ("Every count is the same with both tests: the lines they disagree on are not in the pairs' perturbed "
            "rankings here." if same else
            "The counts differ between the tests in some rows: the lines they disagree on matter here.")


def resampling_text(boot: pd.DataFrame, seed: int) -> str:
    """How the bootstrap resamples were drawn: their number per pair and the seed, in words."""
    return (f"Each pair's HITs are resampled {boot['resample'].nunique():,} times (seed {seed}), one stream per "
            "pair.")


def fig4_sr_dc_text(table: pd.DataFrame) -> str:
    """§5.4 over every 2018 pair with HIT ids: the share of HITs that hold every system."""
    share = table["hits_with_every_system"]
    worst = table.loc[share.idxmin()]
    return (f"Over all {len(table)} 2018 pairs with HIT ids, {share.min():.0%}–{share.max():.0%} of HITs hold every "
            f"system (fewest: {_name(worst['collection'], worst['pair'])}), and {int((share >= 0.9).sum())} of "
            f"{len(table)} pairs have at least 90%.")
