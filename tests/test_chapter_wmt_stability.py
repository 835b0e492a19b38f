"""Chapter 03 (analysis.chapters.wmt_stability): its toy example, published fractions and the real WMT packages."""

import numpy as np
import pandas as pd
import pytest

from analysis import (
    claim_records,
    wmt,
)
from analysis import wmt_stability as ws
from analysis.chapters.wmt_stability import (
    controls,
    experiments,
    fig4,
    fig5,
    fig23,
    packages,
    paper2020,
    published,
    replication,
)
from analysis.data import published as published_data
from analysis.data import tables
from analysis.plotting import MISSING
from tests.helpers import ROOT, needs_mirror
from tests.reference import knowles_ranking_loop


def as_lines(ranking: ws.Ranking) -> list:
    return list(np.diff(ranking.clusters) > 0) + [False]


# --- the chapter's pieces ---------------------------------------------------------------------------------------------

def test_section5_toy_example():
    toy = published.toy_example()
    np.testing.assert_allclose(toy["z of a 50"], [0.0, 0.387298, -0.387298], atol=1e-6)
    assert (toy["z of a 50"].round(2) == toy["paper"]).all()


def test_published_fractions_are_consistent():
    wmt_items = published_data.load("wmt")
    rows = {r[0]: r for r in wmt_items["table2"]["rows"]}
    for style, parts in (("SR-DC", ["'18 (-DC)", "'19 (-DC, MTurk)", "'20 (-DC, MT.)"]),
                         ("SR+DC", ["'19 (+DC, MT.)", "'19 (+DC, A.)", "'20 (+DC, MT.)", "'20 (+DC, A.)"])):
        for k in (2, 3, 4):
            assert sum(rows[p][k][0] for p in parts) == rows[f"ALL {style}"][k][0]
            assert sum(rows[p][k][1] for p in parts) == rows[f"ALL {style}"][k][1]


# --- the real packages ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real(prepared):
    names = ["wmt_judgments", "wmt_segments", "wmt_official_rankings", "wmt_official_wilcoxon", "wmt_official_clusters"]
    t = {n: tables.load_table(n, out=prepared) for n in names}
    coded = packages.coded_pairs(t["wmt_judgments"], t["wmt_segments"], ["newstest2018", "wikipedia2021-fb"])
    return t, coded


@needs_mirror
def test_standardisation_pool_gives_the_published_z(real):
    t, coded = real
    for (collection, pair), (pj, _, _) in coded.items():
        z = wmt.z_scores(pj.z, pj.worker, np.ones(pj.n, bool), pj.pool)
        assert np.abs(z - pj.z).max() < 5e-6, (collection, pair)


@needs_mirror
def test_replication_of_2018_and_facebook(real):
    t, coded = real
    rep = replication.replication(t["wmt_judgments"], t["wmt_segments"], t["wmt_official_rankings"],
                                  t["wmt_official_clusters"], t["wmt_official_wilcoxon"], coded)
    mine = rep[rep["collection"].isin(["newstest2018", "wikipedia2021-fb"]) & (rep["data"] != "ranking only")]
    assert len(mine) == 18
    assert (mine["max_abs_z_diff"] < 1e-9).all() and mine["order_match"].all()
    assert (mine["verdicts_differ_greater"] == 0).all()
    mismatched = mine.loc[~mine["clusters_match_greater"].astype(bool), "pair"].tolist()
    assert mismatched == ["hi-bn"]  # clusters.csv disagrees with the package's own Wilcoxon table
    assert not mine.set_index("pair").loc["hi-bn", "official_files_agree"]
    # recovered raw scores reproduce the official system raw wherever every judgment's raw is known
    assert (mine["max_abs_raw_diff"].dropna() < 1e-9).all() and mine["max_abs_raw_diff"].notna().sum() >= 14
    # 2020: the published p-values equal ours
    full = replication.replication(t["wmt_judgments"], t["wmt_segments"], t["wmt_official_rankings"],
                                   t["wmt_official_clusters"], t["wmt_official_wilcoxon"], {})
    y2020 = full[full["collection"] == "newstest2020"]
    assert len(y2020) == 18 and (y2020["verdicts_differ_greater"] == 0).all()
    assert y2020["verdicts_differ_scipy<1.7"].sum() == 2  # en-iu and en-pl


@needs_mirror
def test_exact_raw_keeps_every_unperturbed_ranking_official_and_the_recovery_agrees(real):
    t, coded18 = real
    j = t["wmt_judgments"]
    recent = packages.coded_pairs(j[j["pair"].isin(["lv-en", "ru-en", "de-en"])], t["wmt_segments"],
                                  ["newstest2021-toen", "newstest2022-toen"])
    coded = {**coded18, **recent}
    table = replication.unperturbed_vs_official(coded, t["wmt_official_rankings"], t["wmt_official_clusters"],
                                                t["wmt_official_wilcoxon"])
    assert len(table) == 22 and table["order_match"].all() and table["clusters_match"].all()
    # the divisions' unperturbed side is the full data's ranking, also where 2018 raws stay unknown (et-en, tr-en)
    for key in [("newstest2018", "et-en"), ("newstest2018", "tr-en"), ("newstest2021-toen", "de-en")]:
        pj, raw, _ = coded[key]
        assert np.isnan(raw).any() == (key[0] == "newstest2018")
        full = ws.perturbed_ranking(pj)
        same = ws.perturbed_ranking(pj, divide=1.0, raw=raw, unknown_raw="keep_z")
        assert same.systems == full.systems and (same.clusters == full.clusters).all()
        ws.perturbed_ranking(pj, divide=2.0, raw=raw, unknown_raw="keep_z")  # runs without dropping anyone
    # the recovery from segment sums, on the exact raws with all but singly judged segments hidden
    check = experiments.recovery_check(recent, t["wmt_segments"])
    assert len(check) == 5 and (check["disagreeing"] == 0).all() and (check["recovered"] > 0).all()
    assert (check["recovered"] <= check["hidden"]).all()


@needs_mirror
def test_section51_ref_shares_of_2018_are_the_papers(real):
    t, _ = real
    j = t["wmt_judgments"]
    shares = published.ref_shares(ws.composition(j[j["collection"] == "newstest2018"])).set_index("pair")
    for pair, percent in published_data.item("wmt", "section51_ref_shares")["shares"].items():
        assert round(100 * shares.loc[pair, "workers_saw_ref"], 1) == percent
    assert len(shares) == 13 and (shares["workers_saw_bad_ref"] == 1.0).all()  # "100% of workers annotated BAD_REF"


@needs_mirror
def test_2018_remove_human_matches_table2(real):
    t, coded = real
    info = packages.pair_info(t["wmt_judgments"])
    only2018 = {k: v for k, v in coded.items() if k[0] == "newstest2018"}
    per_pair = experiments.stability_per_pair(only2018, info, divisors=[2.0], variant="greater", alpha=0.05)
    assert set(per_pair.columns) == set(experiments.PER_PAIR_COLUMNS)
    removed = per_pair[per_pair["experiment"] == "remove_human"]
    assert len(removed) == 13
    assert (removed["rank_changed"].sum(), removed["cluster_changed"].sum()) == (1, 0)  # paper's '18 row: 1/13, 0/13


@needs_mirror
def test_printed_official_pvalues_equal_ours_and_the_hi_bn_case(real):
    t, _ = real
    printed = replication.printed_pvalues(t["wmt_segments"], t["wmt_official_wilcoxon"])
    assert printed["printed"] == 1092 and printed["max_abs_diff"] < 1e-12
    seg = t["wmt_segments"]
    seg = seg[(seg["collection"] == "wikipedia2021-fb") & (seg["pair"] == "hi-bn")]
    codes, names = pd.factorize(seg["system"], sort=True)
    at = {n: k for k, n in enumerate(names)}
    p = wmt.rank_sum_pvalues(codes, seg["z"].to_numpy(), len(names), "greater")
    means = seg.groupby("system")["z"].mean()
    # the chapter's example: Online-B is below TRANSSION in z, but better by rank sums
    assert means["Online-B.5"] < means["TRANSSION.3"]
    assert round(p[at["Online-B.5"], at["TRANSSION.3"]], 3) == 0.047
    w = t["wmt_official_wilcoxon"]
    official = w[(w["collection"] == "wikipedia2021-fb") & (w["pair"] == "hi-bn") & (w["table"] == "wilcoxon-p")
                 & (w["system_a"] == "Online-B.5") & (w["system_b"] == "MS-EgDC.8")]["p_value"].item()
    assert round(official, 3) == 0.001


@needs_mirror
def test_real_pair_with_reduplicated_rows_equals_the_papers_script(real):
    """2018 cs-en re-duplicates identical translations; the script's means and sds come from its ad-latest.csv (the
    pool), its system scores from the re-duplicated file, and so do ours."""
    t, coded = real
    pj, raw, _ = coded["newstest2018", "cs-en"]
    j = t["wmt_judgments"]
    rows = j[(j["collection"] == "newstest2018") & (j["pair"] == "cs-en")].assign(raw=raw)
    assert (~pj.pool).sum() > 500  # copies that the pool leaves out
    columns = ["worker", "system", "segment", "item_type", "raw"]
    loop = knowles_ranking_loop(list(rows[columns].itertuples(index=False, name=None)), divide=4.0,
                                pool_rows=list(rows[pj.pool][columns].itertuples(index=False, name=None)))
    ours = ws.perturbed_ranking(pj, divide=4.0, raw=raw, variant="scipy<1.7")
    assert list(ours.systems) == [s for s, _, _ in loop] and as_lines(ours) == [b for _, _, b in loop]
    np.testing.assert_allclose(ours.scores, [z for _, z, _ in loop], atol=1e-9)


# --- the tidy values the claims registry reads ------------------------------------------------------------------------

def per_pair_frame(rows) -> pd.DataFrame:
    """(collection, pair, style, experiment, rank, cluster, both) tuples as a per-pair table."""
    frame = pd.DataFrame(rows, columns=["collection", "pair", "style", "experiment", "rank_changed",
                                        "cluster_changed", "both_changed"])
    frame = frame.assign(year=2021, n_systems=5, discordant=0, tau_distance=0.0, reversals=0)
    return frame[experiments.PER_PAIR_COLUMNS]


PER_PAIR = per_pair_frame([
    ("newstest2021-toen", "a", "SR+DC", "remove_human", True, True, True),
    ("newstest2021-toen", "b", "SR+DC", "remove_human", True, False, False),
    ("newstest2022-toen", "c", "SR+DC", "remove_human", False, False, False),
    ("newstest2018", "d", "SR-DC", "remove_human", True, False, False),
    ("newstest2018", "e", "SR-DC", "remove_human", False, False, False),
    ("wikipedia2021-fb", "f", "SR+DC", "remove_human", True, True, True),  # not in the style totals
])


def share_of(shares: pd.DataFrame, experiment: str, measure: str, group: str) -> pd.Series:
    """The single row of ``change_shares`` for (experiment, measure, group)."""
    hit = shares[(shares["experiment"] == experiment) & (shares["measure"] == measure) & (shares["group"] == group)]
    if len(hit) != 1:
        raise KeyError(f"no single row for {(experiment, measure, group)} in the change shares")
    return hit.iloc[0]


def test_change_shares_by_style_split_and_contrast():
    shares = published.change_shares(PER_PAIR, [("newstest2021-toen", "a")])
    row = share_of(shares, "remove_human", "rank", "SR+DC")
    assert (row["changed"], row["pairs"]) == (2, 3)
    assert share_of(shares, "remove_human", "rank", "SR-DC")["share"] == 0.5
    assert share_of(shares, "remove_human", "rank", "SR+DC minus SR-DC")["share"] == pytest.approx(2 / 3 - 0.5)
    assert share_of(shares, "remove_human", "cluster", "SR+DC, HUMAN system")["changed"] == 1
    assert share_of(shares, "remove_human", "cluster", "REF items only minus SR-DC")["share"] == 0
    with pytest.raises(KeyError):
        share_of(shares, "remove_lowest", "rank", "SR+DC")


def test_noise_against_perturbation_both_ways():
    shares = published.change_shares(PER_PAIR)
    summary = pd.DataFrame({"style": ["SR+DC", "SR-DC"], "experiment": "noise", "rank_mean": [1.5, 0.5],
                            "cluster_mean": [0.5, 0.5], "both_mean": [0.5, 0.5]})
    noise = experiments.noise_vs_perturbation(summary, shares).set_index(["style", "measure"])
    assert noise.loc[("SR+DC", "rank"), "exceeds_noise"] and not noise.loc[("SR-DC", "cluster"), "exceeds_noise"]
    assert noise.loc[("SR+DC", "cluster"), "exceeds_noise"]  # 1 changed > 0.5 on average
    assert noise.loc[("SR-DC", "rank"), "perturbation"] == 1


REMEDY = pd.DataFrame([
    {"standardised": s, "experiment": e, "measure": m, "changed": c, "pairs": 13}
    for s, e, m, c in [("worker", "remove_human", "rank", 5), ("hit", "remove_human", "rank", 7),
                       ("worker", "remove_human", "cluster", 4), ("hit", "remove_human", "cluster", 2),
                       ("worker", "remove_human", "both", 1), ("hit", "remove_human", "both", 1),
                       ("worker", "divide_2", "rank", 6), ("hit", "divide_2", "rank", 6),
                       ("worker", "divide_2", "cluster", 3), ("hit", "divide_2", "cluster", 0),
                       ("worker", "divide_2", "both", 1), ("hit", "divide_2", "both", 0)]])


def test_remedy_totals_view_and_numbers():
    totals = experiments.remedy_totals(REMEDY).set_index("measure")
    assert (totals.loc["rank", "per_worker"], totals.loc["rank", "per_hit"]) == (11, 13)
    assert totals.loc["rank", "per_worker_fewer"] and not totals.loc["cluster", "per_worker_fewer"]
    assert (totals.loc["rank", "experiments_per_worker_fewer"],
            totals.loc["rank", "experiments_per_hit_fewer"]) == (1, 0)
    view = experiments.remedy_view(REMEDY)
    assert view.loc["remove_human", ("rank", "z per HIT")] == "7/13"
    numbers = experiments.remedy_numbers(totals.reset_index(), pd.Series([2, 3]), pd.Series([1, 2]), 1.5)
    assert (numbers["remedy-rank-worker"], numbers["remedy-rank-hit"], numbers["remedy-cluster-worker"],
            numbers["remedy-cluster-hit"]) == (11, 13, 7, 2)
    assert (numbers["remedy-lines-worker"], numbers["remedy-lines-hit"], numbers["remedy-pairs"],
            numbers["remedy-experiments"]) == (5, 3, 2, 2)
    assert numbers["remedy-per-line-worker"] == 7 / 5 and numbers["remedy-per-line-hit"] == 2 / 3
    # no /0
    no_lines = experiments.remedy_numbers(totals.reset_index(), pd.Series([0]), pd.Series([0]), 1.0)
    assert no_lines["remedy-per-line-hit"] == 2


def test_growth_checks_both_ways():
    def checks(rank_shares):
        rows = []
        for d, rank, cluster in zip((1.25, 2, 10), rank_shares, (0.0, 0.1, 0.3)):
            rows += [{"experiment": f"divide_{d:g}", "measure": m, "group": "SR-DC", "changed": 0, "pairs": 10,
                      "share": {"rank": rank, "cluster": cluster, "both": 0.0}[m]} for m in packages.MEASURES]
        return published.growth_checks(pd.DataFrame(rows)).set_index("detail")["holds"]

    grows = checks((0.0, 0.2, 0.2))
    assert grows["rank"] and grows["cluster"] and not grows["both"]  # flat is not growth
    assert not checks((0.1, 0.0, 0.3))["rank"]  # falls before it rises


def test_trajectory_summary_and_reshuffle_checks():
    def setting(label, order, lines):
        return [{"setting": label, "system": s, "rank": k + 1, "z": 0.0, "line_below": b}
                for k, (s, b) in enumerate(zip(order, lines))]

    moving = pd.DataFrame(setting("original", "ABC", [True, False, False])
                          + setting("d-2", "BAC", [True, False, False]))
    still = pd.DataFrame(setting("original", "ABC", [True, False, False]) + setting("d-2", "ABC", [True, False, False]))
    info = pd.DataFrame({"collection": ["newstest2021-toen", "newstest2018"], "pair": ["x", "y"],
                         "year": [2021, 2018], "style": ["SR+DC", "SR-DC"]}).set_index(["collection", "pair"])
    summary = fig23.trajectory_summary({("newstest2021-toen", "x"): moving, ("newstest2018", "y"): still}, info,
                                              shown=[("newstest2021-toen", "x"), ("newstest2018", "y")])
    s = summary.set_index("pair")
    # {A} | {B, C} -> {B} | {A, C}
    assert (s.loc["x", "ranks_moved"], s.loc["x", "divisions_with_other_clusters"]) == (2, 1)
    assert (s.loc["y", "ranks_moved"], s.loc["y", "divisions_with_other_clusters"]) == (0, 0)
    assert fig23.reshuffle_checks(summary)["holds"].tolist() == [True]
    removed = pd.DataFrame({"collection": ["newstest2021-toen"], "pair": ["x"], "highest": ["A"], "lowest": ["HUMAN.0"],
                            "human_removed": [True]})
    assert packages.pair_names(removed, "lowest") == "x 2021 (HUMAN.0)" and packages.pair_names(removed) == "x 2021"
    assert packages.pair_names(removed.iloc[:0], "lowest") == "none"
    summary.loc[summary["pair"] == "x", "divisions_with_other_clusters"] = 0
    assert not fig23.reshuffle_checks(summary)["holds"].all()


def test_fig5_variance_checks_and_numbers():
    docs = pd.Index([0, 1, 2, 3], name="test_document")
    by_document = pd.DataFrame({"s1": [90, 60, 30, 10], "s2": [88, 62, 28, 12.0]}, index=docs).rename_axis(
        columns="system")
    variance = fig5.fig5_variance(by_document, by_document)
    assert variance["documents_at_least_systems"].all() and variance["documents_omega2"].iloc[0] > 0.9
    checks = fig5.document_checks(variance, by_document)
    assert not checks.set_index("key").loc["fig5_different_documents", "holds"]  # both judged on every document
    by_system = pd.DataFrame({"s1": [90, 88, np.nan, 91], "s2": [10, 12, 11, 9.0]}, index=docs).rename_axis(
        columns="system")
    variance = fig5.fig5_variance(by_system, by_system)
    assert not variance["documents_at_least_systems"].any()
    assert fig5.document_checks(variance, by_system).set_index("key").loc["fig5_different_documents", "holds"]
    assert variance.set_index("scores").loc["raw", "systems_omega2"] > 0.9
    summary = fig5.document_summary(fig5.document_shifts(by_system), by_system)
    assert (summary["systems"].iloc[0], summary["documents"].iloc[0]) == (2, 4)


def test_item_type_and_human_seen_checks():
    j = pd.DataFrame({"collection": ["x"] * 4 + ["y"] * 2, "item_type": ["SYSTEM", "REPEAT", "REF", "BAD_REF",
                                                                          "SYSTEM", "REF"]})
    assert published.item_type_checks(j, ["x", "y"])["holds"].tolist() == [True, False]
    composition = pd.DataFrame({"collection": "c", "pair": ["a", "b", "c"], "workers_saw_human": [0.0, 0.5, 1.0]})
    assert published.human_seen_checks(composition)["holds"].tolist() == [True, False]


def test_missing_pairs_checks():
    segments = pd.DataFrame({"collection": ["newstest2020"] * 2 + ["newstest2018"],
                             "pair": ["km-en", "en-ps", "en-km"]})
    checks = replication.missing_pairs_checks(segments)
    assert checks["detail"].tolist() == ["en-km", "en-ps"] and checks["holds"].tolist() == [True, False]
    # no 2020 data: no claim
    assert not replication.missing_pairs_checks(segments, collection="newstest2019")["holds"].any()


# --- the numbers the text pastes ----------------------------------------------------------------------------------

def test_raw_numbers():
    coverage = pd.DataFrame({"collection": ["newstest2018", "newstest2018"], "pair": ["et-en", "cs-en"],
                             "judgments": [100, 300], "raw_published": [0.5, 0.5], "raw_known": [0.9, 1.0],
                             "workers": [10, 20], "workers_fully_known": [8, 20], "undivided": [0.006, 0.0]})
    variants = pd.DataFrame({"variant": ["with REF items", "without REF items"], "judgments": [50, 50],
                             "max_distance_to_integer": [1e-13, 0.5], "share_integer": [1.0, 0.02],
                             "outside_0_100": [0, 3], "single_segments": [10, 10],
                             "single_segments_disagreeing": [0, 7]})
    recovery = pd.DataFrame({"hidden": [40, 10], "recovered": [30, 10], "disagreeing": [0, 0]})
    unperturbed = pd.DataFrame({"collection": ["newstest2018", "newstest2022-toen"], "pair": ["cs-en", "de-en"],
                                "order_match": [True, True], "clusters_match": [True, False]})
    n = experiments.raw_numbers(coverage, variants, recovery, unperturbed)
    assert (n["raw-with-pairs"], n["raw-with-judgments"], n["raw-with-integer"], n["raw-with-contradicted"]) == (
        1, 50, 1.0, 0)
    assert (n["raw-without-integer"], n["raw-without-outside"], n["raw-without-contradicted"],
            n["raw-without-single"]) == (0.02, 3, 7, 10)
    assert (n["raw-recovered"], n["raw-hidden"], n["raw-recovered-share"], n["raw-recovered-wrong"]) == (40, 50, 0.8, 0)
    assert (n["raw-2018-known"], n["raw-2018-judgments"], n["raw-2018-known-share"]) == (390, 400, 0.975)
    assert (n["raw-2018-complete"], n["raw-2018-pairs"], n["raw-undivided"], n["raw-undivided-max"]) == (
        1, 2, "et-en 2018", 0.006)
    assert (n["raw-unperturbed-same"], n["raw-unperturbed-pairs"]) == (1, 2)
    assert experiments.raw_numbers(coverage.assign(undivided=0.0), variants, recovery,
                                   unperturbed)["raw-undivided"] == "none"


def replication_rows(**changes) -> pd.DataFrame:
    base = {"collection": ["newstest2022-toen", "newstest2020", "wikipedia2021-fb"],
            "pair": ["de-en", "en-pl", "hi-bn"],
            "data": ["judgments", "segments", "judgments"], "max_abs_z_diff": [1e-3, 0.0, 0.0],
            "segments_without_judgments": [65, np.nan, 0], "order_match": [True, True, True],
            "clusters_match_greater": [True, True, False], "clusters_match_scipy<1.7": [True, True, False],
            "verdicts_differ_greater": [0, 0, 0], "verdicts_differ_scipy<1.7": [0, 2, 1],
            "official_files_agree": [np.nan, np.nan, False]}
    base.update(changes)
    return pd.DataFrame(base)


def test_replication_csv_notes_say_where_the_judgments_are():
    table = replication_rows(year=[2022, 2020, 2021], style=["SR+DC", pd.NA, "SR+DC"], n_systems=5,
                             max_abs_raw_diff=[np.nan, 0.0, 0.0], raw_known=[0.9, np.nan, 1.0], note=np.nan)
    csv = replication.replication_csv(table, "greater").set_index("pair")
    assert "WMT20 results page" in csv.loc["en-pl", "note"] and "not reachable here" in csv.loc["en-pl", "note"]
    assert "no per-judgment file" not in " ".join(csv["note"])
    assert "holds 65 (system, segment) rows" in csv.loc["de-en", "note"]
    assert csv["exact"].tolist() == [False, True, False]
    assert "too large for this compendium's mirror" in replication.SEGMENTS_ONLY["newstest2021-toen"]


def test_ref_share_numbers():
    composition = pd.DataFrame({
        "collection": ["newstest2018"] * 4 + ["newstest2021-toen", "newstest2022-toen"],
        "pair": ["en-et", "en-cs", "en-fi", "zh-en", "is-en", "cs-en"],
        "workers_saw_ref": [0.049, 0.258, 0.474, 0.988, 0.89, 1.0], "hits": [np.nan] * 3 + [300, 180, 260],
        "workers_saw_human": [0, 0, 0, 0, 0, 0.5], "hits_saw_human": [0, 0, 0, 0, 0, 0.4]})
    n = published.ref_share_numbers(composition)
    assert n["s51-lowest-2018"] == "en-et 4.9%, en-cs 25.8%, en-fi 47.4%"
    assert n["s51-no-hit-id-2018"] == "en-et, en-cs, en-fi"
    assert (n["s51-plus-every"], n["s51-plus-pairs"], n["s51-plus-lowest"], n["s51-plus-lowest-pair"]) == (
        1, 2, 0.89, "is-en 2021")
    assert (n["s51-human-workers-min"], n["s51-human-workers-max"], n["s51-human-hits-max"]) == (0.5, 0.5, 0.4)
    assert published.ref_share_numbers(composition.assign(hits=300.0))["s51-no-hit-id-2018"] == "none"


def test_bootstrap_numbers():
    summary = pd.DataFrame({"style": ["SR+DC", "SR-DC"], "experiment": "noise", "pairs": 13,
                            "rank_mean": [12.5, 8.3], "cluster_mean": [8.9, 8.3], "both_mean": [8.8, 5.7]})
    noise = pd.DataFrame({"style": "SR+DC", "experiment": ["remove_human", "divide_1.25"] * 2,
                          "measure": ["rank", "rank", "cluster", "cluster"], "pairs": 13,
                          "perturbation": [10, 10, 6, 10], "resampling_mean": [12.5, 12.5, 8.9, 8.9],
                          "exceeds_noise": [False, False, False, True]})
    contrast = pd.DataFrame({"experiment": ["noise", "remove_human", "remove_human"],
                             "measure": ["rank", "rank", "cluster"], "SR+DC more": [0.75, 1.0, 0.5],
                             "SR+DC fewer": [0.0, 0.0, 0.3]}).set_index(["experiment", "measure"])
    n = experiments.bootstrap_numbers(pd.DataFrame({"resample": [0, 1, 2, 0, 1, 2]}), summary, contrast, noise)
    assert (n["boot-resamples"], n["boot-rerun"], n["boot-noise-plus-more"]) == (3, "remove HUMAN and REF", 0.75)
    assert (n["boot-plus-rank"], n["boot-minus-rank"], n["boot-plus-cluster"], n["boot-plus-pairs"]) == (
        12.5, 8.3, 8.9, 13)
    assert (n["boot-beyond-rank"], n["boot-beyond-cluster"], n["boot-perturbations"]) == (0, 1, 2)


def test_every_claim_reads_a_table_the_notebook_saves():

    notebook = (ROOT / "notebooks" / "03_wmt_stability.py").read_text(encoding="utf-8")
    sources = {c.source for c in claim_records.load() if c.paper == "wmt" and c.source}
    saved = lambda source: ("out.values(" in notebook if source == "claim_values.csv"  # noqa: E731
                            else f'"{source.removesuffix(".csv")}"' in notebook)
    assert sources and all(saved(source) for source in sources), sources


# --- figures and views for the page (issue 26) --------------------------------------------------------------------

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from analysis.plotting import set_theme  # noqa: E402
from tests.helpers import legible  # noqa: E402


def trajectory_frame(n: int, name_length: int = 12) -> pd.DataFrame:
    systems = [f"S{k:02d}".ljust(name_length, "x") for k in range(n)]
    rows = []
    for d, setting in enumerate(["original", "d-1.25", "d-2", "d-10"]):
        order = systems[d:] + systems[:d]
        rows += [{"setting": setting, "system": s, "rank": k + 1, "z": 0.0, "line_below": k % 5 == 4}
                 for k, s in enumerate(order)]
    return pd.DataFrame(rows)


def test_every_figure_fits_the_book_column_with_legible_text():
    set_theme()
    fractions = published.fig1_fractions(per_pair_frame([
        (c, p, style, f"divide_{d:g}", True, False, p == "a")
        for c, p, style in (("newstest2021-toen", "a", "SR+DC"), ("newstest2018", "d", "SR-DC"))
        for d in (1.25, 1.5, 2, 4, 10)]))
    assert legible(published.plot_fig1(fractions)) <= 1200
    # 20 systems with names as long as WMT 2018's (28 characters): one pair per figure stays readable
    assert legible(fig23.plot_trajectory(trajectory_frame(20, 28))) <= 1425
    short_names, long_names = trajectory_frame(5), trajectory_frame(5, 28)
    assert legible(fig23.plot_trajectory(short_names)) < legible(fig23.plot_trajectory(long_names))
    names = [f"System-{k}.{k}" for k in range(16)]
    share = pd.DataFrame(np.full((16, 16), 0.5), index=names, columns=names)
    assert legible(fig4.plot_cooccurrence(share)) <= 1425
    matrix = pd.DataFrame(np.random.default_rng(0).uniform(0, 100, (100, 12)), columns=names[:12])
    assert legible(fig5.plot_fig5(matrix)) <= 1100
    composition = pd.DataFrame({"collection": ["newstest2018"] * 13 + ["newstest2022-toen"] * 17,
                                "pair": [f"p{k}" for k in range(30)], "workers_saw_ref": 0.5,
                                "workers_saw_human": [0.0] * 29 + [0.3],
                                "paper_workers_saw_ref": [0.5] + [np.nan] * 29})
    assert legible(published.plot_ref_shares(composition)) <= 1000


def test_setting_labels_in_words():
    assert [fig23.setting_label(s) for s in ("original", "d-1.25", "d-10")] == ["original", "÷1.25", "÷10"]


def test_trajectory_figures():
    info = pd.DataFrame({"collection": ["newstest2021-toen", "newstest2022-toen", "newstest2018", "newstest2022-toen"],
                         "pair": ["de-en", "zh-en", "zh-en", "de-en"], "year": [2021, 2022, 2018, 2022],
                         "style": ["SR+DC", "SR+DC", "SR-DC", "SR+DC"]}).set_index(["collection", "pair"])
    moved = pd.Series([9, 7, 5, 3], index=pd.MultiIndex.from_tuples([
        ("newstest2021-toen", "de-en"), ("newstest2018", "zh-en"), ("newstest2022-toen", "zh-en"),
        ("newstest2022-toen", "de-en")]))  # the third SR+DC pair: not drawn
    drawn = fig23.trajectory_figures(moved, info)
    assert list(drawn.items()) == [("fig2", ("newstest2021-toen", "de-en")), ("fig3", ("newstest2022-toen", "zh-en")),
                                   ("contrast", ("newstest2018", "zh-en"))]
    # no SR+DC pair: the contrast only
    assert list(fig23.trajectory_figures(moved.iloc[1:2], info)) == ["contrast"]


def test_pair_labels():
    assert packages.pair_label("newstest2021-toen", "ru-en") == "ru-en, 2021 to-English (SR+DC)"
    assert packages.pair_name("wikipedia2021-fb", "hi-bn") == "hi-bn 2021 FB"


def test_views_put_experiments_and_tests_in_words():
    assert packages.experiment_label("divide_1.25") == "divide by 1.25"
    assert packages.experiment_label("remove_human") == "remove HUMAN and REF"
    frame = pd.DataFrame({"experiment": ["divide_2", "noise"], "measure": "rank", "x": [1, 2]})
    assert packages.with_experiment_labels(frame)["experiment"].tolist() == ["divide by 2", "none (resampling only)"]
    indexed = packages.with_experiment_labels(frame.set_index(["experiment", "measure"]))
    assert indexed.index.get_level_values("experiment").tolist() == ["divide by 2", "none (resampling only)"]
    variants = pd.DataFrame({(m, v): ["1/13", "2/13"] for m in ("rank", "cluster", "both")
                             for v in ("greater", "scipy<1.7")},
                            index=pd.MultiIndex.from_tuples([("divide_2", "SR+DC"), ("divide_2", "SR-DC")],
                                                            names=["experiment", "style"]))
    variants.loc[("divide_2", "SR-DC"), ("cluster", "scipy<1.7")] = "3/13"
    view = experiments.variant_view(variants)
    assert list(view.columns) == ["Δrank", "Δcluster", "Δboth"]
    assert view["Δcluster"].tolist() == ["1/13", "2/13 → 3/13"] and view.index[0] == ("divide by 2", "SR+DC")
    moved = pd.Series([60, 41], index=pd.MultiIndex.from_tuples([("newstest2021-toen", "de-en"),
                                                                 ("wikipedia2021-fb", "hi-bn")]))
    assert fig23.moved_view(moved)[["package", "pair"]].values.tolist() == [["2021", "de-en"], ["2021 FB", "hi-bn"]]


def test_replication_view_marks_missing_values_once():
    rows = replication_rows(year=[2022, 2020, 2021], n_systems=5, max_abs_raw_diff=[np.nan, 0.0, 0.0],
                            **{"verdicts_differ_scipy<1.7": [0, 0, 1]})
    view = replication.replication_view(rows)
    assert view["max Δraw"].isna().tolist() == [True, False, False]  # shown as the one missing mark
    reasons = replication.replication_exceptions(rows)
    assert len(reasons) == 2  # de-en's z differ, hi-bn's clusters differ
    assert reasons["unjudged rows"].tolist() == ["65", "0"]  # de-en's z: rows with no judgment behind them
    assert reasons["files agree"].tolist() == [MISSING, "no"]  # hi-bn: the official files disagree


# --- the paper's own 2020 pairs and the 2018 ranges ------------------------------------------------------------------

def test_base_name_and_2018_ranges_by_hand():
    assert paper2020.base_name("AFRL.1069") == "AFRL" and paper2020.base_name("HUMAN-B") == "HUMAN-B"
    assert paper2020.base_name("Online-B.5") == "Online-B"
    per_pair = pd.DataFrame({"collection": "newstest2018", "experiment": ["remove_lowest"] * 13,
                             "rank_changed": [True] * 6 + [False] * 7, "cluster_changed": False,
                             "both_changed": False})
    ranges = paper2020.paper_2018_ranges(per_pair).set_index(["experiment", "measure"])
    # Table 3, SR-DC, lowest: rank 4/21 -> the paper's 2018 between max(0, 4 - 8) and min(4, 13); our 13 pairs swap
    # one of its pairs, so ours may lie one further out: 0-5, and our 6 is outside
    assert ranges.loc[("remove_lowest", "rank"), ["paper_2018_low", "paper_2018_high", "low", "high",
                                                  "value"]].tolist() == [0, 4, 0, 5, 6]
    assert not ranges.loc[("remove_lowest", "rank"), "inside"] and ranges.loc[("remove_lowest", "cluster"), "inside"]
    # Table 2 prints the 2018 row: the paper's range is that one value (1 of 13 for rank), ours 0-2
    assert ranges.loc[("remove_human", "rank"), ["paper_2018_low", "paper_2018_high", "low",
                                                 "high"]].tolist() == [1, 1, 0, 2]
    # a count the paper's range excludes but the swapped pair explains is inside: 5 of 13 against 0-4
    five = per_pair.assign(rank_changed=[True] * 5 + [False] * 8)
    five_ranges = paper2020.paper_2018_ranges(five).set_index(["experiment", "measure"])
    assert five_ranges.loc[("remove_lowest", "rank"), "inside"]
    # Fig. 1 at 10: 10/21 -> the paper's 2018 count at least 2, ours at least 1; none of ours changed
    assert ranges.loc[("divide_10", "rank"), ["value", "low", "high"]].tolist() == [0, 1, 11]
    assert ranges[~ranges["inside"]].index.tolist() == [("remove_lowest", "rank"), ("divide_10", "rank")]


@needs_mirror
def test_the_papers_2020_numbers_from_the_segment_files(real):
    t, _ = real
    assessments = paper2020.assessments_per_system(t["wmt_segments"]).set_index("pair")
    assert assessments["judgments"].to_dict() == {"en-de": 19102, "zh-en": 34596}  # over 17 systems each
    assert (assessments["per_system"].round(1) == assessments["paper"]).all()
    originals = pd.concat([paper2020.original_2020(t["wmt_segments"], p) for p in ("en-de", "zh-en")],
                          ignore_index=True)
    # the official clusters (HUMAN systems in) are the published ones: the replication checks them pair by pair
    checks = paper2020.footnote17_checks(originals)
    assert len(checks) == 6 and checks["holds"].all()
    zh = originals[originals["pair"] == "zh-en"].set_index("system")
    assert zh.loc["Online-A.1585", "line_below_without_human"] and not zh.loc["Online-A.1585", "line_below_official"]


# --- controls ---------------------------------------------------------------------------------------------------------

def test_pair_null_enumerates_mid_systems_and_draws_judgments():
    from tests.test_wmt_stability import synthetic_pair

    pj = ws.code_pair(synthetic_pair(5))
    rows = pd.DataFrame(controls.pair_null(pj, np.random.default_rng(0), 4, variant="greater", alpha=0.05))
    original = ws.perturbed_ranking(pj)
    mid = [s for s in original.systems[1:-1] if "HUMAN" not in s]
    assert (rows["control"] == "remove_mid").sum() == len(mid)
    assert (rows["control"] == "remove_random_judgments").sum() == 4
    again = pd.DataFrame(controls.pair_null(pj, np.random.default_rng(0), 4, variant="greater", alpha=0.05))
    pd.testing.assert_frame_equal(rows, again)  # same seed, same draws


def test_null_summary_and_contrast_by_hand():
    per_pair = pd.DataFrame({
        "collection": ["c18", "c18", "c21", "c21"], "pair": ["a", "b", "a", "b"],
        "style": ["SR-DC", "SR-DC", "SR+DC", "SR+DC"], "experiment": "remove_human",
        "rank_changed": [False, False, True, True], "cluster_changed": [False, True, True, True],
        "both_changed": [False, False, True, True], "discordant": [0, 0, 1, 2], "tau_distance": [0, 0, 0.1, 0.2],
        "reversals": [0, 0, 0, 1]})
    null = pd.DataFrame({
        "collection": ["c18"] * 2 + ["c18"] * 2 + ["c21"] * 2 + ["c21"] * 2, "pair": list("aabbaabb"),
        "style": ["SR-DC"] * 4 + ["SR+DC"] * 4, "control": "remove_random_judgments", "draw": [0, 1] * 4,
        "rank_changed": [True, False, False, False, True, True, True, False],
        "cluster_changed": False, "both_changed": False, "discordant": 0, "tau_distance": 0.0, "reversals": 0})

    old = controls.STYLE_TOTALS
    controls.STYLE_TOTALS = ("c18", "c21")
    try:
        summary = controls.null_summary(per_pair, null).set_index("style")
        shares = controls.null_contrast_share(per_pair, null, seed=0, n_draws=20_000).set_index("measure")
        again = controls.null_contrast_share(per_pair, null, seed=0, n_draws=20_000)
        levels = controls.null_level_share(per_pair, null, seed=0, n_draws=20_000).set_index("measure")
        levels_again = controls.null_level_share(per_pair, null, seed=0, n_draws=20_000).set_index("measure")
    finally:
        controls.STYLE_TOTALS = old
    # rank: observed contrast 1 - 0 = 1; the null reaches it only when both SR+DC pairs draw a change (a always, b half
    # the time) and neither SR-DC pair does (a half the time, b always): 1/4 of the draws
    assert abs(shares.loc["rank", "null_share_at_or_above"] - 0.25) < 0.02
    # cluster: observed 1 - 0.5 = 0.5, the null never changes a cluster: its contrast is always 0
    assert shares.loc["cluster", "null_share_at_or_above"] == 0.0 and shares["null_contrasts"].eq(20_000).all()
    # both: observed 1 - 0 = 1 against a null of 0
    assert shares.loc["both", "null_share_at_or_above"] == 0.0
    pd.testing.assert_frame_equal(shares.reset_index()[again.columns], again)  # same seed, same draws
    # SR-DC: observed rank 0/2, null (0.5 + 0) / 2 = 0.25; SR+DC: observed 1, null (1 + 0.5) / 2 = 0.75
    assert summary.loc["SR-DC", "rank_null"] == 0.25 and summary.loc["SR+DC", "rank_null"] == 0.75
    assert summary.loc["SR+DC", "rank_excess"] == 0.25 and summary.loc["SR-DC", "cluster_observed"] == 0.5
    contrast = controls.contrast_after_controls(summary.reset_index()).set_index("measure")
    assert contrast.loc["rank", "contrast"] == 1.0 and contrast.loc["rank", "null_contrast"] == 0.5
    assert contrast.loc["rank", "excess_contrast"] == 0.5 and contrast.loc["reversals", "contrast"] == 0.5
    merged = controls.contrast_after_controls(summary.reset_index(), shares.reset_index()).set_index("measure")
    assert merged.loc["rank", "null_share_at_or_above"] == shares.loc["rank", "null_share_at_or_above"]
    assert merged.loc["reversals", "null_share_at_or_above"] != merged.loc["reversals", "null_share_at_or_above"]  # NaN
    # SR+DC alone against its null (the null's spread counted): rank observed 2/2; the null reaches it when b draws
    # its change (a always does), half the draws; clusters and both: observed 1, the null never changes them
    assert abs(levels.loc["rank", "null_share_at_or_above"] - 0.5) < 0.02 and levels.loc["rank", "observed"] == 1.0
    assert (levels.loc["cluster", "null_share_at_or_above"] == 0.0
            and levels.loc["both", "null_share_at_or_above"] == 0.0)
    assert levels.loc["rank", "null_mean"] == pytest.approx(0.75, abs=0.02) and levels["pairs"].eq(2).all()
    pd.testing.assert_frame_equal(levels, levels_again)  # same seed, same draws


def test_controls_numbers():
    rows = [("remove_lowest", "remove_mid", "SR+DC", 0.5, 0.2, 0.6, 0.3),
            ("remove_lowest", "remove_mid", "SR-DC", 0.1, 0.0, 0.0, 0.0),
            ("remove_highest", "remove_mid", "SR+DC", 0.5, 0.2, 0.7, 0.1),
            ("remove_highest", "remove_mid", "SR-DC", 0.1, 0.0, 0.0, 0.1),
            ("remove_human", "remove_random_judgments", "SR+DC", 0.9, 0.4, 0.8, 0.5),
            ("remove_human", "remove_random_judgments", "SR-DC", 0.4, 0.3, 0.1, 0.0)]
    summary = pd.DataFrame(rows, columns=["experiment", "control", "style", "rank_null", "cluster_null",
                                          "rank_observed", "cluster_observed"]).assign(
        pairs=10, reversals_observed=[0, 0, 0.1, 0, 0, 0], reversals_null=[0, 0.2, 0, 0, 0, 0])
    strata = pd.DataFrame({"stratum": ["closer", "closer"], "style": ["SR+DC", "SR-DC"], "pairs": [3, 2],
                           "cluster_changed": [0.5, 0.0], "null_cluster_changed": [0.4, 0.3], "cut": 0.02})
    close = pd.DataFrame({"collection": ["newstest2021-toen", "newstest2018", "wikipedia2021-fb"],
                          "style": ["SR+DC", "SR-DC", "SR+DC"], "median_gap": [0.01, 0.05, 9.0],
                          "z_range": [0.3, 0.6, 9.0]})
    n = controls.controls_numbers(summary, strata, close)
    assert (n["ctl-mid-plus-rank"], n["ctl-mid-minus-cluster"], n["ctl-random-plus-cluster"],
            n["ctl-human-plus-rank"]) == (0.5, 0.0, 0.4, 0.8)
    assert (n["ctl-reversals"], n["ctl-reversals-null"], n["ctl-gap-plus"], n["ctl-range-minus"]) == (
        1.0, 0.2, 0.01, 0.6)  # not FB
    assert (n["ctl-closer-plus-changed"], n["ctl-closer-minus-pairs"], n["ctl-closer-minus-null"], n["ctl-cut"]) == (
        0.5, 2, 0.3, 0.02)


# --- Fig. 5, two-way -------------------------------------------------------------------------------------------------

def test_two_way_recovers_an_additive_matrix_with_missing_cells():
    rng = np.random.default_rng(3)
    doc, sys = rng.normal(0, 5, 8), rng.normal(0, 3, 5)
    doc -= doc.mean()
    values = 70 + doc[:, None] + sys[None, :]
    values[rng.random(values.shape) < 0.3] = np.nan  # unbalanced: each system on its own documents
    values[0, :] = 70 + doc[0] + sys  # every system judged somewhere
    matrix = pd.DataFrame(values, index=[f"d{i}" for i in range(8)], columns=list("ABCDE"))
    mu, d, s = fig5.two_way(matrix)
    fitted = mu + d.to_numpy()[:, None] + s.to_numpy()[None, :]
    judged = ~np.isnan(values)
    np.testing.assert_allclose(fitted[judged], values[judged], atol=1e-8)
    shifts = fig5.document_shifts(matrix).set_index("system")
    np.testing.assert_allclose(shifts["mean"], shifts["adjusted"] + shifts["shift"], atol=1e-8)
    # the adjusted means differ by the true system gaps, whatever documents each system got
    adjusted = shifts["adjusted"].reindex(list("ABCDE")).to_numpy()
    np.testing.assert_allclose(adjusted - adjusted[0], sys - sys[0], atol=1e-8)


@needs_mirror
def test_rank_sum_disagreements_are_computed(real):
    t, _ = real
    table = replication.rank_sum_disagreements(t["wmt_segments"])
    assert table[["pair", "upper", "lower", "line_from"]].values.tolist() == [
        ["hi-bn", "TRANSSION.3", "Online-B.5", "scipy<1.7"]]
    row = table.iloc[0]
    assert row["z_lower"] < row["z_upper"] and row["p_lower_better"] < 0.5 and row["p_old"] < 0.05 < row["p_greater"]
    view = replication.disagreement_view(table)
    assert view.iloc[0].tolist() == ["TRANSSION.3 (0.045)", "Online-B.5 (0.029)", "the paper's scipy < 1.7 p", 0.953,
                                     0.047] and view.index[0] == ("2021 FB", "hi-bn")


def test_the_variant_table_lists_the_experiments_in_the_papers_order_not_as_text():
    order = ["divide_1.25", "divide_10", "divide_2", "remove_highest", "remove_human"]
    index = pd.MultiIndex.from_tuples([(e, "SR+DC") for e in order], names=["experiment", "style"])
    columns = pd.MultiIndex.from_product([["rank", "cluster", "both"], ["greater", "scipy<1.7"]])
    view = experiments.variant_view(pd.DataFrame(1, index=index, columns=columns))
    assert [e for e, _ in view.index] == ["remove HUMAN and REF", "remove the highest system", "divide by 1.25",
                                          "divide by 2", "divide by 10"]


def test_table1_view_names_every_dataset_in_words():
    """Table 1 as shown: no package id as a row label (issue 38), ours and the paper's rows told apart."""
    table = pd.DataFrame({"SYSTEM": [1, 2]}, index=pd.Index(
        ["newstest2021-toen (here, 6 pairs)", "appraise-doclevel-humaneval-newstest2019 (paper)"], name="dataset"))
    shown = published.table1_view(table)
    assert list(shown.index) == ["2021 to-English (SR+DC): here, 6 pairs",
                                 "2019 Appraise, document level (SR+DC): paper"]
    assert set(published.TABLE1_DATASETS) == {row[0] for row in published_data.item("wmt", "table1")["rows"]}


def test_check_rows_carry_the_number_each_test_reads():
    rows = packages.check_rows("c", {"a": True, "b": False}, [0.25, 0.5])
    assert rows["value"].tolist() == [0.25, 0.5] and rows["holds"].tolist() == [True, False]
    assert packages.check_rows("c", {"a": True})["value"].isna().all()


def test_printed_pvalues_naming_a_system_without_segments_are_refused():
    segments = pd.DataFrame({"collection": "c", "pair": "p", "system": ["A.1", "A.1", "B.2", "B.2"],
                             "z": [0.1, 0.2, -0.1, 0.0]})
    printed = pd.DataFrame({"table": "wilcoxon-p", "collection": "c", "pair": "p", "system_a": ["A.1", "C.3"],
                            "system_b": ["B.2", "A.1"], "p_value": [0.3, 0.4]})
    with pytest.raises(ValueError, match=r"c p: printed p-values name systems without segment scores: \['C.3'\]"):
        replication.printed_pvalues(segments, printed)


def test_footnote17_names_one_system_each_and_no_human_among_clusters_without_humans(monkeypatch):
    originals = pd.DataFrame({"pair": "zh-en", "system": ["A.1", "B.2", "Human-A.0", "B.3"],
                              "human": [False, False, True, False], "cluster_without_human": [1, 2, -1, 2],
                              "cluster_official": [1, 2, 2, 2]})
    monkeypatch.setattr(paper2020.published, "item", lambda paper, item: {
        "same_cluster": [("zh-en", "A", "Human-A")], "above": [], "line_between_without_human": [],
        "no_line_between_official": [], "top_alone_official": []})
    with pytest.raises(ValueError, match="zh-en: expected one system named Human-A, found 0"):
        paper2020.footnote17_checks(originals)
    monkeypatch.setattr(paper2020.published, "item", lambda paper, item: {
        "same_cluster": [("zh-en", "A", "B")], "above": [], "line_between_without_human": [],
        "no_line_between_official": [], "top_alone_official": []})
    with pytest.raises(ValueError, match="zh-en: expected one system named B, found 2"):
        paper2020.footnote17_checks(originals)


def test_sec7_stricter_readings_count_only_metric_pairs_apart_and_the_top_metric():
    from analysis.chapters.wmt_stability import section7

    reference = np.array([0.90, 0.89, 0.50])  # metrics 0 and 1 are 0.01 apart: a reversal of them is not counted
    rows = np.array([[0.88, 0.89, 0.5], [0.4, 0.89, 0.5], [0.9, 0.89, 0.95]])
    assert section7._discordant_pairs(rows, reference).tolist() == [1, 2, 2]
    assert section7._discordant_pairs(rows, reference, section7.METRIC_GAP).tolist() == [0, 1, 2]
    from tests.test_wmt_sec7 import _pair

    segments, metrics = _pair()
    table = section7.consequences(segments, metrics, seed=3, n_resamples=200)
    pooled = table.iloc[-1]
    assert pooled["rank_only_metrics_reordered_apart"] <= pooled["rank_only_metrics_reordered"]
    assert pooled["share_reordered_apart"] <= pooled["share_reordered"]
    assert pooled["rank_only_top_changed"] <= pooled["rank_only_metrics_reordered"]


def test_style_contrast_over_pairs_resamples_each_style_apart():
    per_pair = pd.DataFrame({
        "collection": ["c18"] * 4 + ["c21"] * 4, "pair": list("abcdabcd"), "experiment": "remove_lowest",
        "style": ["SR-DC"] * 4 + ["SR+DC"] * 4,
        "rank_changed": [False] * 4 + [True] * 4, "cluster_changed": [False] * 4 + [True, False, False, False],
        "both_changed": False})
    old = controls.STYLE_TOTALS
    controls.STYLE_TOTALS = ("c18", "c21")
    try:
        table = controls.style_contrast_over_pairs(per_pair, seed=0, n_resamples=2000).set_index("measure")
        again = controls.style_contrast_over_pairs(per_pair, seed=0, n_resamples=2000).set_index("measure")
    finally:
        controls.STYLE_TOTALS = old
    pd.testing.assert_frame_equal(table, again)
    # every SR+DC pair changes rank, no SR-DC pair: the contrast is 1 in every resample
    assert (table.loc["rank", "contrast"], table.loc["rank", "low"], table.loc["rank", "high"]) == (1.0, 1.0, 1.0)
    # one SR+DC pair of four changes clusters: +25%, and a resample can miss it (low 0)
    assert table.loc["cluster", "contrast"] == 0.25 and table.loc["cluster", "low"] == 0.0
    assert table.loc["both", "high"] == 0.0 and (table["pairs_sr_plus"] == 4).all()


def test_section3_counts_and_rank_changes_most_common():
    from analysis.chapters.wmt_stability import published as pub
    from analysis.chapters.wmt_stability import replication

    table = pd.DataFrame({"year": [2018, 2018, 2020, 2019], "exact": [True, False, True, True]})
    counts = replication.replicated_counts(table).set_index("detail").value
    assert counts["2018: pairs replicated exactly"] == 1 and counts["2018: pairs with data"] == 2
    assert counts["2020: pairs replicated exactly"] == 1 and counts["2020: pairs with data"] == 1
    shares = pd.DataFrame({"experiment": "remove_human", "group": ["SR-DC"] * 3 + ["SR+DC"] * 3,
                           "measure": ["rank", "cluster", "both"] * 2, "share": [0.2, 0.05, 0.0, 0.5, 0.6, 0.4]})
    most = pub.rank_most_common(shares).set_index("detail").value
    assert most["remove_human, SR-DC"] == pytest.approx(0.15) and most["remove_human, SR+DC"] == pytest.approx(-0.1)


def test_footnote15_inflating_the_low_systems_and_its_difference_from_dividing():
    from analysis.chapters.wmt_stability import experiments as ex
    from tests.test_wmt_stability import synthetic_pair

    pj = ws.code_pair(synthetic_pair(6))
    rows = ex.inflate_low(pj, pj.raw, [1, 4], variant="greater", alpha=0.05)
    assert [r["experiment"] for r in rows] == ["inflate_1", "inflate_4"]
    assert not rows[0]["rank_changed"] and not rows[0]["cluster_changed"]  # a factor of 1 changes nothing
    assert rows[1]["rank_changed"] and rows[1]["low_systems"] == 2  # the last third of four non-HUMAN systems
    assert ex.inflate_low(pj, None, [4], variant="greater", alpha=0.05) == []
    old = ex.STYLE_TOTALS
    ex.STYLE_TOTALS = ("c",)
    try:
        inflation = pd.DataFrame({"collection": "c", "pair": ["a", "b"], "style": "SR+DC", "experiment": "inflate_2",
                                  "rank_changed": [True, True], "cluster_changed": [True, False],
                                  "both_changed": [True, False]})
        divided = inflation.assign(experiment="divide_2", rank_changed=[True, False], cluster_changed=False,
                                   both_changed=False)
        values = ex.inflation_values(inflation, divided).set_index("detail").value
    finally:
        ex.STYLE_TOTALS = old
    assert values["inflate_2, rank"] == 0.5 and values["inflate_2, cluster"] == 0.5 and values["inflate_2, both"] == 0.5
