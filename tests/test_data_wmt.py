"""The WMT tables (analysis.data.wmt): judgment counts and the official rankings, p-values and clusters."""

import numpy as np
import pandas as pd
import pytest

from analysis.data import wmt
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


def test_parse_worker_mean_sd_and_raw_by_hand():
    text = '[1] "W1"\n[1] 50\n[1] 10\n\n[1] "W2"\n[1] 70.5\n[1] NA\n'
    frame = wmt.parse_worker_mean_sd(text)
    assert frame["worker"].tolist() == ["W1", "W2"]
    assert frame["mean"].tolist() == [50.0, 70.5] and frame["sd"].iloc[0] == 10 and np.isnan(frame["sd"].iloc[1])
    judgments = pd.DataFrame({"worker": ["W1", "W1", "W3"], "z": [1.5, -2.0, 0.0]})
    raw = wmt.raw_from_mean_sd(judgments, frame)
    np.testing.assert_allclose(raw[:2], [65.0, 30.0])  # 50 + 10 * 1.5, 50 - 10 * 2
    assert np.isnan(raw[2])  # W3 is not listed
    for bad in ('[1] "W1"\n[1] 50\n', 'W1 50 10\n', '[1] W1\n[1] 50\n[1] 10\n', '[1] "W1"\n[1] x\n[1] 1\n',
                '[1] "W1"\n[1] 1\n[1] 1\n[1] "W1"\n[1] 1\n[1] 1\n'):
        with pytest.raises(ValueError):
            wmt.parse_worker_mean_sd(bad)


@needs_mirror
def test_exact_raw_for_every_2021_22_judgment(wmt_tables):
    j = wmt_tables["wmt_judgments"]
    recent = j[j["year"] >= 2021]
    assert recent["raw"].notna().all()
    assert (recent["raw"] == recent["raw"].round()).all() and recent["raw"].between(0, 100).all()
    v = wmt_tables["wmt_raw_variants"].set_index(["collection", "pair", "variant"])
    assert len(v) == 26
    with_refs = v.xs("with REF items", level="variant")
    assert (with_refs["share_integer"] == 1).all() and (with_refs["max_distance_to_integer"] < 1e-9).all()
    assert (with_refs["single_segments_disagreeing"] == 0).all() and (with_refs["judgments_without_worker"] == 0).all()
    without = v.xs("without REF items", level="variant")
    assert (without["single_segments_disagreeing"] > 0).all() and (without["share_integer"] < 0.1).all()
