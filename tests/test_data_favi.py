"""The Favi-Score tables: counts, missing-not-zero, joins checked against the data itself, symmetry files."""

import itertools
import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from analysis.data import DataError, DataFile, find, read_verified, tables
from analysis.data import favi as favidata
from tests.helpers import needs_mirror


@pytest.fixture(scope="module")
def scores(prepared):
    return tables.load_table("favi_scores", out=prepared)


def _rated(scores, dataset, rater):
    sel = scores[(scores["dataset"] == dataset) & (scores["rater"] == rater)]
    return sel, sel[sel["score"].notna()]


@needs_mirror
def test_wmt22_ende_mqm_has_1315_rated_segments_for_16_systems(scores):
    everything, rated = _rated(scores, "wmt22-ende", "MQM")
    assert everything["system"].nunique() == 17 and everything.groupby("system").size().eq(2037).all()
    per_system = rated.groupby("system")["item"].nunique()
    assert len(per_system) == 16 and per_system.eq(1315).all()
    assert rated["item"].nunique() == 1315 and (rated["score"] <= 0).all()  # MQM: 0 is perfect, lower is worse
    assert "chrf_bestmbr" not in set(rated["system"])  # the one unrated system stays, with missing scores


@needs_mirror
def test_dataset_shapes(scores):
    _, rated = _rated(scores, "wmt21-ende", "MQM")
    assert rated.groupby("system")["item"].nunique().eq(527).all() and rated["system"].nunique() == 17
    _, zh = _rated(scores, "wmt22-zhen", "MQM")
    assert zh["system"].nunique() == 16 and zh.groupby("system")["item"].nunique().eq(1875).all()
    summ, _ = _rated(scores, "summeval", "expert_relevance")
    assert summ["item"].nunique() == 100 and summ["system"].nunique() == 16 and len(summ) == 1600
    for dataset, systems in (("usr-tc", 6), ("usr-pc", 5)):
        usr, _ = _rated(scores, dataset, "USR_Overall")
        assert usr["item"].nunique() == 60 and usr["system"].nunique() == systems
        metric, _ = _rated(scores, dataset, "BERTScore")  # the reference response has no metric score
        assert metric["system"].nunique() == systems - 1 and favidata.USR_REFERENCE not in set(metric["system"])
    assert set(scores["rater_kind"]) == {"human", "metric", "llm"}
    assert not scores.duplicated(["domain", "dataset", "item", "system", "rater"]).any()
    # only MQM leaves items unrated (kept as missing scores); every other rater scores all items of its systems
    missing = scores[scores["score"].isna()]
    assert set(missing["rater"]) == {"MQM"}


@needs_mirror
def test_recomputed_bleu_and_chrf_are_sacrebleus(scores, fetched):
    ref = read_verified(find("wmt22-ende-text", "txt/references/generaltest2022.en-de.ref.A.de"), fetched)
    hyp = read_verified(find("wmt22-ende-text", "txt/system-outputs/generaltest2022.en-de.hyp.Online-W.de"), fetched)
    ref, hyp = ref.decode().split("\n"), hyp.decode().split("\n")
    for item in (0, 17, 2036):
        for rater, metric in (("BLEU", BLEU(effective_order=True)), ("chrF", CHRF())):
            sel, _ = _rated(scores, "wmt22-ende", rater)
            value = sel[(sel["system"] == "Online-W") & (sel["item"] == str(item))]["score"].item()
            assert value == pytest.approx(metric.sentence_score(hyp[item], [ref[item]]).score, abs=1e-9)


@needs_mirror
def test_usr_responses_join_the_dialogue_setups_in_usr_order(scores, fetched):
    """BT-eval's Dialogue systems carry no names. Our chrF of each USR response against the ground truth
    correlates with BT-eval's chrF++ best when M0.. are the non-reference responses in USR's order (of all 120
    orders), which pins the join down from the data itself."""
    contexts = json.loads(read_verified(find("usr", "data/usr_topical_chat.json"), fetched))
    models = [r["model"] for r in contexts[0]["responses"] if r["model"] != favidata.USR_REFERENCE]
    chrf = CHRF(word_order=2)
    ours = np.array([[chrf.sentence_score(r["response"], [next(x["response"] for x in c["responses"]
                                                              if x["model"] == favidata.USR_REFERENCE)]).score
                      for r in c["responses"] if r["model"] != favidata.USR_REFERENCE] for c in contexts])
    sel, _ = _rated(scores, "usr-tc", "Chrfpp")
    bt = sel.pivot(index="item", columns="system", values="score")
    bt = bt.loc[[str(i) for i in range(len(contexts))]]
    correlations = {perm: np.corrcoef(ours.ravel(), bt[list(perm)].to_numpy().ravel())[0, 1]
                    for perm in itertools.permutations(models)}
    assert max(correlations, key=correlations.get) == tuple(models)
    assert correlations[tuple(models)] > 0.8


@needs_mirror
def test_llm_head_to_head(prepared):
    h = tables.load_table("favi_llm_h2h", out=prepared)
    assert len(h) == 11 * 4 * 100 * 2
    assert h.groupby(["system_1", "system_2", "aspect", "order"]).size().eq(100).all()
    assert set(h["preferred"]) <= set(h["system_1"]) | set(h["system_2"]) | {"tie"}
    # the toggled files show the summaries the other way round: with that reading ChatGPT agrees with the experts
    # equally often in both orders (about 63%); the opposite reading would make it disagree in one order
    expert = np.where(h["expert_1"] > h["expert_2"], h["system_1"], np.where(h["expert_1"] < h["expert_2"],
                                                                            h["system_2"], "tie"))
    decided = (expert != "tie") & (h["preferred"] != "tie")
    agree = (h["preferred"] == expert)[decided].groupby(h.loc[decided, "order"]).mean()
    assert agree["original"] > 0.55 and agree["toggled"] > 0.55
    # expert scores are given in file order in both files
    both = h.pivot_table(index=["system_1", "system_2", "aspect", "document"], columns="order", values="expert_1")
    np.testing.assert_array_equal(both["original"], both["toggled"])


def test_mtme_reader_rejects_ragged_files(tmp_path, monkeypatch):
    payload = b"A\t1.0\nA\tNone\nB\t2.0\n"
    f = DataFile("test", "o/r", "0" * 40, "x.seg.score", len(payload), "0")
    monkeypatch.setattr("analysis.data.raw.read_verified", lambda *_: payload)
    with pytest.raises(DataError, match="different numbers of segments"):
        favidata.read_mtme_scores(f)
    monkeypatch.setattr("analysis.data.raw.read_verified", lambda *_: b"A\t1.0\nA\tNone\n")
    frame = favidata.read_mtme_scores(f)
    assert frame["score"].isna().tolist() == [False, True] and frame["item"].tolist() == [0, 1]


def test_mtme_reader_accepts_any_whitespace_and_names_bad_lines(monkeypatch):
    f = DataFile("test", "o/r", "0" * 40, "x.seg.score", 0, "0")
    monkeypatch.setattr("analysis.data.raw.read_verified", lambda *_: b"A 1.0\nA\t 2.5\nB  3\nB\tNone\n")
    frame = favidata.read_mtme_scores(f)
    assert frame["system"].tolist() == ["A", "A", "B", "B"] and frame["score"].tolist()[:3] == [1.0, 2.5, 3.0]
    monkeypatch.setattr("analysis.data.raw.read_verified", lambda *_: b"A\t1.0\nA\n")
    with pytest.raises(DataError, match=r"x.seg.score:2: expected"):
        favidata.read_mtme_scores(f)
    monkeypatch.setattr("analysis.data.raw.read_verified", lambda *_: b"A\tabc\n")
    with pytest.raises(DataError, match=r"x.seg.score:1: score 'abc'"):
        favidata.read_mtme_scores(f)


@needs_mirror
def test_output_texts_use_the_scores_labels_and_the_files_lines(scores, fetched):
    for dataset, systems in (("wmt22-ende", 10), ("wmt21-ende", 10), ("summeval", 16)):
        texts = favidata.output_texts(dataset, fetched)
        part = scores[scores["dataset"] == dataset]
        assert texts["system"].nunique() == systems and not texts.duplicated(["item", "system"]).any()
        assert set(texts["system"]) <= set(part["system"]) and set(texts["item"]) <= set(part["item"])
    hyp = read_verified(find("wmt22-ende-text", "txt/system-outputs/generaltest2022.en-de.hyp.Online-W.de"), fetched)
    texts = favidata.output_texts("wmt22-ende", fetched).set_index(["item", "system"])["text"]
    assert texts[("17", "Online-W")] == hyp.decode().split("\n")[17]
    with pytest.raises(ValueError, match="no registered outputs"):
        favidata.output_texts("usr-tc", fetched)


@needs_mirror
def test_wmt22_zhen_documents_cover_every_item_in_contiguous_blocks(scores, fetched):
    docs = favidata.wmt22_zhen_documents(fetched)
    items = set(scores.loc[scores["dataset"] == "wmt22-zhen", "item"])
    assert len(docs) == 1875 and set(docs.index) == items and docs.nunique() == 256
    starts = (docs != docs.shift()).sum()
    assert starts == docs.nunique()  # a document's segments are consecutive
