"""The WMT tables (analysis.data.wmt): judgment counts and the official rankings, p-values and clusters."""

import numpy as np

from tests.helpers import needs_mirror


@needs_mirror
def test_judgment_counts(wmt_tables):
    j = wmt_tables["wmt_judgments"]
    counts = j.groupby("collection").agg(rows=("z", "size"), pairs=("pair", "nunique")).to_dict("index")
    assert counts == {
        "newstest2018": {"rows": 295742, "pairs": 13},
        "newstest2021-toen": {"rows": 115059, "pairs": 6},
        "newstest2022-toen": {"rows": 187734, "pairs": 7},
        "wikipedia2021-fb": {"rows": 14443, "pairs": 4},
    }
    assert set(j["item_type"]) == {"SYSTEM", "REPEAT", "REF", "BAD_REF"}
    assert j.loc[j["collection"] == "newstest2018", "style"].eq("SR-DC").all()
    assert j.loc[j["collection"] != "newstest2018", "style"].eq("SR+DC").all()
    assert j.loc[j["collection"] == "wikipedia2021-fb", "raw"].notna().all()
    assert j["raw"].dropna().between(0, 100).all()


@needs_mirror
def test_official_tables(wmt_tables):
    r = wmt_tables["wmt_official_rankings"]
    assert r.groupby("collection")["pair"].nunique().to_dict() == {
        "newstest2018": 14, "newstest2019": 14, "newstest2020": 18, "newstest2021-toen": 7, "newstest2022-toen": 7,
        "wikipedia2021-fb": 4}
    assert (r.groupby(["collection", "pair"])["rank"].apply(lambda s: list(s) == list(range(1, len(s) + 1)))).all()
    w = wmt_tables["wmt_official_wilcoxon"]
    assert set(w["significance"].dropna()) == {"", "*", "**", "***"}
    diff = w[w["table"] == "wilcoxon-diff"].set_index(["collection", "pair", "system_a", "system_b"])["diff"]
    swapped = diff.rename_axis(["collection", "pair", "system_b", "system_a"]).reorder_levels(diff.index.names)
    np.testing.assert_allclose(diff, -swapped.loc[diff.index], atol=1e-9)  # antisymmetric, as published
    c = wmt_tables["wmt_official_clusters"]
    assert c.groupby("collection")["pair"].nunique().to_dict() == {"newstest2018": 14, "wikipedia2021-fb": 4}
    assert (c.groupby(["collection", "pair"])["end_of_cluster"].last()).all()
