"""The data layer: registry, verified atomic fetching, repair, safe unpickling, tidy tables.

Tests that read the local mirror (../shared/data or $COMPENDIUM_DATA_MIRROR) are skipped, with that reason, when it
is absent; everything else runs on files the tests make themselves.
"""

import gzip
import hashlib
import os
import pickle
import subprocess
import sys
import urllib.error
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import data
from analysis.data import DataError, DataFile, paired, raw, tables, textmetrics
from tests.helpers import MIRROR, needs_mirror

ROOT = Path(__file__).resolve().parent.parent


def _file(tmp_path: Path, payload: bytes, name="x.bin", source="test") -> DataFile:
    return DataFile(source, "owner/repo", "0" * 40, name, len(payload), hashlib.sha256(payload).hexdigest())


def _mirror_with(tmp_path: Path, f: DataFile, payload: bytes, compress=True) -> Path:
    mirror = tmp_path / "mirror"
    target = mirror / (f.relpath + (".gz" if compress else ""))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(gzip.compress(payload) if compress else payload)
    return mirror


# --- registry -------------------------------------------------------------------------------------------------------


def test_registry_is_well_formed():
    sources = data.load_registry()
    assert sources and len({s.name for s in sources}) == len(sources)
    for s in sources:
        assert s.status in {"exact", "stand-in", "extra"} and s.licence and s.citation and s.chapters
        for f in s.files:
            assert f.url == f"https://raw.githubusercontent.com/{s.repo}/{s.commit}/{f.path}" and len(s.commit) == 40


def test_registry_citations_are_in_the_bibliography():
    bib = (ROOT / "book" / "references.bib").read_text()
    for s in data.load_registry():
        assert f"{{{s.citation}," in bib, f"{s.name}: citation {s.citation} missing from references.bib"


@needs_mirror
def test_registry_checksums_equal_the_mirror_manifest():
    manifest = pd.read_csv(MIRROR / "MANIFEST.tsv", sep="\t").set_index("url")
    for s in data.load_registry():
        for f in s.files:
            assert f.url in manifest.index, f"{f.url} is not in the mirror"
            assert manifest.loc[f.url, "sha256"] == f.sha256 and manifest.loc[f.url, "bytes"] == f.size


def test_malformed_registry_is_rejected(tmp_path):
    bad = tmp_path / "r.toml"
    bad.write_text('[[source]]\nname = "a"\nrepo = "o/r"\n')
    with pytest.raises(ValueError, match="registry source 'a' lacks"):
        data.load_registry(bad)
    with pytest.raises(ValueError, match="unknown data source"):
        data.select(data.load_registry(), ["nope"])


# --- fetching -------------------------------------------------------------------------------------------------------


def test_fetch_from_gzip_and_plain_mirrors(tmp_path):
    payload = b"hello, data\n"
    f = _file(tmp_path, payload)
    for compress in (True, False):
        mirror = _mirror_with(tmp_path / str(compress), f, payload, compress)
        root = tmp_path / f"raw{compress}"
        origin = data.fetch_file(f, root=root, mirror=mirror)
        assert origin.endswith(".gz") == compress
        assert (root / f.relpath).read_bytes() == payload
        assert data.fetch_file(f, root=root, mirror=mirror) == "present"


def test_checksum_mismatch_names_the_file_and_leaves_nothing(tmp_path):
    f = _file(tmp_path, b"the real bytes")
    mirror = _mirror_with(tmp_path, f, b"tampered bytes")
    root = tmp_path / "raw"
    with pytest.raises(DataError, match=r"checksum mismatch for x\.bin \(https://raw\.githubusercontent\.com/owner/repo/0+/x\.bin\)"):
        data.fetch_file(f, root=root, mirror=mirror)
    assert not root.exists() or not any(p.is_file() for p in root.rglob("*"))


def test_unreachable_source_without_mirror_is_a_clear_error(tmp_path, monkeypatch):
    def offline(*args, **kwargs):
        raise urllib.error.URLError("no network")

    monkeypatch.setattr(raw.urllib.request, "urlopen", offline)
    f = _file(tmp_path, b"bytes")
    with pytest.raises(DataError,
                       match=r"cannot fetch x\.bin from source 'test': no mirror, and https://\S+ is unreachable"):
        data.fetch_file(f, root=tmp_path / "raw", mirror=None)
    with pytest.raises(DataError, match=r"not in the mirror .* unreachable"):
        data.fetch_file(f, root=tmp_path / "raw", mirror=tmp_path / "empty-mirror")
    assert not (tmp_path / "raw").exists()


def test_mirror_env_variable(monkeypatch, tmp_path):
    monkeypatch.setenv(data.MIRROR_ENV, str(tmp_path))
    assert data.default_mirror() == tmp_path
    monkeypatch.setenv(data.MIRROR_ENV, "")
    assert data.default_mirror() is None


@needs_mirror
def test_fetch_is_a_no_op_when_present_and_repairs_exactly_one_corrupted_file(fetched, tmp_path):
    root = tmp_path / "raw"
    data.fetch(root=root, mirror=MIRROR)
    again = data.fetch(root=root, mirror=MIRROR)
    assert set(again.values()) == {"present"}
    victim = next(f for s in data.load_registry() for f in s.files if f.path.endswith("llmfao.csv"))
    (root / victim.relpath).write_bytes(b"corrupted")
    missing = next(f for s in data.load_registry() for f in s.files if f.path.endswith("sst_dev.txt"))
    (root / missing.relpath).unlink()
    report = data.verify(root=root)
    assert report[victim.relpath] == "corrupt" and report[missing.relpath] == "missing"
    repaired = data.fetch(root=root, mirror=MIRROR)
    assert {k for k, v in repaired.items() if v != "present"} == {victim.relpath, missing.relpath}
    assert set(data.verify(root=root).values()) == {"ok"}


# --- safe loading ---------------------------------------------------------------------------------------------------


class _Hostile:
    def __reduce__(self):
        return (os.system, ("echo pwned > /dev/null",))


@pytest.mark.parametrize("payload_obj", [_Hostile(), {"fine": [1, 2]}, pd.Timestamp("2021-01-01")])
def test_pickles_referencing_other_callables_are_refused(tmp_path, payload_obj):
    payload = pickle.dumps(payload_obj)
    f = _file(tmp_path, payload, name="evil.pkl", source="bt-eval")
    (tmp_path / f.relpath).parent.mkdir(parents=True)
    (tmp_path / f.relpath).write_bytes(payload)
    if isinstance(payload_obj, dict):  # plain containers need no global at all
        assert data.load_pickle(f, root=tmp_path) == payload_obj
        return
    with pytest.raises(DataError, match="refused to unpickle"):
        data.load_pickle(f, root=tmp_path)


def test_pickles_are_not_opened_before_the_checksum_matches(tmp_path):
    payload = pickle.dumps({"a": 1})
    f = _file(tmp_path, payload, name="ok.pkl", source="bt-eval")
    (tmp_path / f.relpath).parent.mkdir(parents=True)
    (tmp_path / f.relpath).write_bytes(pickle.dumps(_Hostile()))  # swapped on disk after registration
    with pytest.raises(DataError, match="does not match its registered sha256"):
        data.load_pickle(f, root=tmp_path)
    with pytest.raises(DataError, match="no pickle allow-list"):
        data.load_pickle(_file(tmp_path, payload, source="sst5"), root=tmp_path)


# --- tables ---------------------------------------------------------------------------------------------------------


@needs_mirror
def test_paired_setups_shapes(prepared):
    t = tables.load_table("paired_setups", out=prepared)
    assert not t["score"].isna().any()
    expected = {("TAC", "08"): (48, 58), ("TAC", "09"): (44, 55), ("TAC", "11"): (44, 50),
                ("Dialogue", "tc"): (60, 5), ("Dialogue", "pc"): (60, 4), ("CNNDM", "realsumm"): (100, 24)}
    for (collection, dataset), shape in expected.items():
        metrics = t.loc[(t["collection"] == collection) & (t["dataset"] == dataset), "metric"].unique()
        assert len(metrics) == (6 if collection == "CNNDM" else 13)
        for metric in metrics:
            assert tables.score_matrix(t, collection, dataset, metric).shape == shape, (collection, dataset, metric)
    wmt = t[t["collection"].str.startswith("WMT")]
    segments = wmt.groupby(["collection", "dataset"])["instance"].nunique()
    assert len(segments) == 17 and segments.sum() == 39_005
    assert sorted(wmt["metric"].unique()) == sorted(textmetrics.SEGMENT_METRICS)
    assert segments[("WMT19", "gu-en")] == 1016 and wmt.query("dataset == 'gu-en'")["system"].nunique() == 12
    per_setup = wmt.groupby(["collection", "dataset", "metric"]).size()
    systems = wmt.groupby(["collection", "dataset"])["system"].nunique()
    assert (per_setup == (segments * systems).reindex(per_setup.index.droplevel(2)).to_numpy()).all()
    coco = t[t["collection"] == "COCO"]
    assert coco["dataset"].unique().tolist() == ["val2014-4800"]
    assert coco["instance"].nunique() == 4800 and coco["system"].nunique() == 9
    assert sorted(coco["metric"].unique()) == sorted(textmetrics.CAPTION_METRICS)
    n_wmt = 10 * sum(segments[k] * systems[k] for k in segments.index)
    assert n_wmt == 10 * 470_994
    assert len(t) == 13 * (48 * 58 + 44 * 55 + 44 * 50 + 60 * 5 + 60 * 4) + 6 * 100 * 24 + n_wmt + 6 * 4800 * 9


@needs_mirror
def test_wmt_scores_are_the_metrics_of_the_texts(prepared, fetched):
    """Spot check: rescoring a few segments straight from the raw text gives the table's values."""
    t = tables.load_table("paired_setups", out=prepared)
    ref_file, outputs = paired.wmt_inventory()[("WMT18", "et-en")]
    system, out_file = outputs[3]
    refs, hyps = paired.read_lines(ref_file, fetched), paired.read_lines(out_file, fetched)
    scorer = textmetrics.SegmentScorer()
    for segment in (0, 777, len(refs) - 1):
        expected = dict(zip(textmetrics.SEGMENT_METRICS, scorer.score(hyps[segment], refs[segment])))
        got = t.query("collection == 'WMT18' and dataset == 'et-en' and system == @system and instance == @segment")
        assert got.set_index("metric")["score"].to_dict() == pytest.approx(expected)


def test_wmt_inventory_has_17_pairs_with_aligned_names():
    inventory = paired.wmt_inventory()
    assert len(inventory) == 17
    assert sorted({c for c, _ in inventory}) == ["WMT17", "WMT18", "WMT19"]
    assert sum(len(outputs) for _, outputs in inventory.values()) == 207
    assert ("WMT17", "lv-en") in inventory and ("WMT19", "kk-en") in inventory


def test_misaligned_system_output_is_a_clear_error(tmp_path, monkeypatch):
    ref = _file(tmp_path, b"one\ntwo\nthree\n", "WMT17/references/newstest2017-deen-ref.en", "wmt17-19")
    out = _file(tmp_path, b"one\ntwo\n", "WMT17/system-outputs/de-en/newstest2017.X.1.de-en", "wmt17-19")
    for f, payload in ((ref, b"one\ntwo\nthree\n"), (out, b"one\ntwo\n")):
        target = tmp_path / "raw" / f.relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(payload)
    monkeypatch.setattr(paired, "wmt_inventory", lambda: {("WMT17", "de-en"): (ref, [("X.1", out)])})
    with pytest.raises(data.DataError, match="has 2 segments but the reference .* has 3"):
        paired.build_wmt(root=tmp_path / "raw", cache_dir=tmp_path / "cache")
    assert not any((tmp_path / "cache").iterdir())


def test_read_lines_splits_on_newline_only(tmp_path):
    payload = "a\u2028still a\nb\n".encode()
    f = _file(tmp_path, payload, "t.txt")
    (tmp_path / f.relpath).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / f.relpath).write_bytes(payload)
    assert paired.read_lines(f, tmp_path) == ["a\u2028still a", "b"]


@needs_mirror
def test_score_matrix_keeps_source_column_order_and_values(prepared, fetched):
    t = tables.load_table("paired_setups", out=prepared)
    original = data.load_pickle(data.find("bt-eval", "Data/TAC_dataframe.pickle"), root=fetched)["TAC"]["08"]["ROUGE_2"]
    rebuilt = tables.score_matrix(t, "TAC", "08", "ROUGE_2")
    assert list(rebuilt.columns) == list(original.columns)  # M0, M1, ..., M10: not alphabetical
    np.testing.assert_array_equal(rebuilt.to_numpy(), original.to_numpy())


@needs_mirror
def test_small_tables(prepared):
    sst = tables.load_table("sst5", out=prepared)
    assert sst.groupby("split").size().to_dict() == {"dev": 1101, "test": 2210, "train": 8544}
    assert set(sst["label"]) == {1, 2, 3, 4, 5} and str(sst["label"].dtype) == "int8"
    fao = tables.load_table("llmfao", out=prepared)
    assert len(fao) == 8931 and set(fao["winner"]) == {"left", "right", "tie"}
    for name, schema in tables.SCHEMAS.items():
        frame = tables.load_table(name, out=prepared)
        assert ({c: str(t) for c, t in frame.dtypes.items()}
                == {c: str(pd.Series(dtype=t).dtype) for c, t in schema.items()})


@needs_mirror
def test_ceval_table(prepared):
    c = tables.load_table("ceval", out=prepared)
    assert c.groupby("method").size().to_dict() == dict.fromkeys(
        ["crest", "crowd", "expert", "gbda", "llama_02", "llama_06", "llama_1", "mice"], 488)
    assert c.groupby("method")["label"].apply(lambda s: s.value_counts().to_dict()).unstack().eq(
        {"Positive": 245, "Negative": 243}).all().all()
    # one MICE row holds another review upstream; every other row is the test set's review
    assert (~c["aligned"]).sum() == 1 and c.loc[~c["aligned"], "method"].item() == "mice"
    evaluated = c.groupby("method")["distance"].count().to_dict()
    assert evaluated == {"crest": 488, "crowd": 483, "expert": 483, "gbda": 488, "llama_02": 483, "llama_06": 485,
                         "llama_1": 478, "mice": 488}
    assert set(c["pred_gen_label"].dropna()) == {0, 1}


@needs_mirror
def test_prepare_is_a_no_op_when_inputs_are_unchanged(fetched, prepared):
    assert set(tables.prepare(root=fetched, out=prepared).values()) == {"up to date"}


def test_unprepared_table_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="table sst5 is not prepared"):
        tables.load_table("sst5", out=tmp_path)
    with pytest.raises(ValueError, match="unknown table"):
        tables.prepare(["nope"], out=tmp_path)


def test_cli_verify_reports_missing_files(tmp_path):
    env = {**os.environ, "ANALYSIS_ROOT": str(tmp_path)}
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "registry.toml").write_text((ROOT / "data" / "registry.toml").read_text())
    result = subprocess.run([sys.executable, "-m", "analysis", "data", "verify"], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 1 and "missing: github/" in result.stderr


def test_provenance_table_lists_every_source():
    readme = (ROOT / "data" / "README.md").read_text()
    for s in data.load_registry():
        row = next((line for line in readme.splitlines() if line.startswith(f"| `{s.name}` |")), None)
        assert row is not None, f"data/README.md has no provenance row for {s.name}"
        assert s.repo in row and s.commit[:7] in row and s.licence in row


def test_a_metric_version_change_makes_paired_setups_stale(monkeypatch):
    """The table's recorded provenance carries the metric version, so prepare rebuilds it after a metric change
    (the per-pair metric cache alone would be recomputed, but the table reported up to date)."""
    before = tables.TABLES["paired_setups"].provenance()
    monkeypatch.setattr(paired, "METRICS_VERSION", "test")
    after = tables.TABLES["paired_setups"].provenance()
    assert after != before and after["metrics_version"] == "test"


def test_a_new_scorer_implementation_makes_paired_setups_stale(monkeypatch):
    """The metric cache key names the scorer's implementation, and so does the table's provenance: an existing
    tree rebuilds the table (from a fresh cache entry) rather than keep one an older scorer produced."""
    from analysis.data import paired
    from analysis.data.tables import TABLES

    before = TABLES["paired_setups"].provenance()
    assert before["implementation"] == paired.SegmentScorer.IMPLEMENTATION
    monkeypatch.setattr(paired.SegmentScorer, "IMPLEMENTATION", "another implementation")
    assert TABLES["paired_setups"].provenance() != before
