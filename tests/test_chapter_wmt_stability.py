"""Chapter 03 (analysis.chapters.wmt_stability): its toy example, published fractions and the real WMT packages."""

import numpy as np
import pandas as pd
import pytest

from analysis import wmt
from analysis import wmt_stability as ws
from analysis.chapters import wmt_stability as ch
from analysis.data import published, tables
from tests.helpers import needs_mirror
from tests.reference import knowles_ranking_loop


def as_lines(ranking: ws.Ranking) -> list:
    return list(np.diff(ranking.clusters) > 0) + [False]


# --- the chapter's pieces ---------------------------------------------------------------------------------------------

def test_section5_toy_example():
    toy = ch.toy_example()
    np.testing.assert_allclose(toy["z of a 50"], [0.0, 0.387298, -0.387298], atol=1e-6)
    assert (toy["z of a 50"].round(2) == toy["paper"]).all()


def test_published_fractions_are_consistent():
    wmt_items = published.load("wmt")
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
    coded = ch.coded_pairs(t["wmt_judgments"], t["wmt_segments"], ["newstest2018", "wikipedia2021-fb"])
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
    rep = ch.replication(t["wmt_judgments"], t["wmt_segments"], t["wmt_official_rankings"],
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
    full = ch.replication(t["wmt_judgments"], t["wmt_segments"], t["wmt_official_rankings"],
                          t["wmt_official_clusters"], t["wmt_official_wilcoxon"], {})
    y2020 = full[full["collection"] == "newstest2020"]
    assert len(y2020) == 18 and (y2020["verdicts_differ_greater"] == 0).all()
    assert y2020["verdicts_differ_scipy<1.7"].sum() == 2  # en-iu and en-pl


@needs_mirror
def test_section51_ref_shares_of_2018_are_the_papers(real):
    t, _ = real
    j = t["wmt_judgments"]
    shares = ch.ref_shares(ws.composition(j[j["collection"] == "newstest2018"])).set_index("pair")
    for pair, percent in published.item("wmt", "section51_ref_shares")["shares"].items():
        assert round(100 * shares.loc[pair, "workers_saw_ref"], 1) == percent


@needs_mirror
def test_2018_remove_human_matches_table2(real):
    t, coded = real
    info = ch.pair_info(t["wmt_judgments"])
    only2018 = {k: v for k, v in coded.items() if k[0] == "newstest2018"}
    per_pair = ch.stability_per_pair(only2018, info, divisors=[2.0], variant="greater", alpha=0.05)
    assert set(per_pair.columns) == set(ch.PER_PAIR_COLUMNS)
    removed = per_pair[per_pair["experiment"] == "remove_human"]
    assert len(removed) == 13
    assert (removed["rank_changed"].sum(), removed["cluster_changed"].sum()) == (1, 0)  # paper's '18 row: 1/13, 0/13


@needs_mirror
def test_printed_official_pvalues_equal_ours_and_the_hi_bn_case(real):
    t, _ = real
    printed = ch.printed_pvalues(t["wmt_segments"], t["wmt_official_wilcoxon"])
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
