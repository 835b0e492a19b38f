"""The run manifest (analysis.manifest) and the outputs checked against it (analysis.output_checks): records are never
lost (a missing or damaged manifest is restored from its backup, or the run refused), chapters without a notebook
keep their outputs until pruned, ``outputs verify`` says what is wrong and what the next run will do, and the
book's build record follows the manifest."""

import hashlib
import io
import json

import pytest

from analysis import reproduce
from analysis.manifest import (
    BACKUP,
    BUILD_RECORD,
    ChapterRun,
    ManifestError,
    OutputRootError,
    build_record,
    chapter_files,
    parse_manifest,
    read_manifest,
    update_manifest,
    write_manifest,
)
from analysis.output_checks import verify_outputs

from . import reproduce_helpers
from .reproduce_helpers import all_recorded, break_late, cli

toy_chapters, book = reproduce_helpers.toy_chapters, reproduce_helpers.book  # the fixtures this module uses


def test_failed_notebooks_are_cleared_and_stale_chapters_kept_until_pruned(toy_chapters, capsys):
    out = toy_chapters / "out"
    break_late(toy_chapters)
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert (out / "failed" / "01_good.ipynb").exists()
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text().replace("raise RuntimeError('late failure')", ""))
    gone = ChapterRun("07_gone", "full", "ok", {}, None, 1.0, "0",
                                outputs={"07_gone/t.csv": hashlib.sha256(b"x").hexdigest()})
    update_manifest(out, gone)
    (out / "07_gone").mkdir()
    (out / "07_gone" / "t.csv").write_text("x")
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["01"], output_root=str(out), stream=stream)
    assert not (out / "failed" / "01_good.ipynb").exists()
    assert read_manifest(out)["01_good"]["status"] == "ok"
    # issue 31 item 1: a chapter without a notebook keeps its outputs and record until pruned explicitly
    assert set(read_manifest(out)) == {"01_good", "07_gone"} and (out / "07_gone" / "t.csv").exists()
    assert "07_gone: recorded, but notebooks/07_gone.py does not exist; its outputs are kept" in stream.getvalue()
    assert verify_outputs(out, ["01_good"])["07_gone"][0].startswith("no notebook: notebooks/07_gone.py")
    from analysis.__main__ import main

    assert main(["outputs", "prune", "--output-root", str(out)]) == 0
    assert "removed the outputs of 07_gone" in capsys.readouterr().err
    assert set(read_manifest(out)) == {"01_good"} and not (out / "07_gone").exists()
    assert verify_outputs(out, ["01_good"]) == {"01_good": []}


def test_verify_outputs_finds_changed_missing_and_unrecorded_files(toy_chapters):
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert verify_outputs(out, ["01_good"]) == {"01_good": []}
    (out / "01_good" / "result.csv").write_text("value\n7\n")
    (out / "01_good" / "extra.csv").write_text("x\n")
    (out / "notebooks" / "01_good.ipynb").unlink()
    (out / "notebooks" / "05_stray.ipynb").write_text("{}")
    assert verify_outputs(out, ["01_good"]) == {
        "01_good": ["missing: notebooks/01_good.ipynb", "changed: 01_good/result.csv",
                    "not recorded: 01_good/extra.csv"],
        "05_stray": ["not recorded: notebooks/05_stray.ipynb"],
    }
    from analysis.__main__ import main

    assert main(["outputs", "verify", "--output-root", str(out)]) == 1


def test_a_missing_notebook_never_deletes_that_chapters_outputs(book, capsys):
    """The probe: with 09's notebook renamed, ``reproduce --only 01`` deleted 09's outputs, notebook and entry, and
    after the notebook came back ``outputs verify`` said "as recorded" although 09 had nothing."""
    reproduce.run(profile="quick", output_root=str(book))
    before = chapter_files(book, "09_last")
    source = book.parent / "notebooks" / "09_last.py"
    source.rename(source.with_suffix(".bak"))
    reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert chapter_files(book, "09_last") == before and "09_last" in read_manifest(book)
    assert verify_outputs(book)["09_last"][0].startswith("no notebook: notebooks/09_last.py")
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    source.with_suffix(".bak").rename(source)
    assert all_recorded(book) and cli("outputs", "verify", "--output-root", str(book)) == 0
    # a chapter without an entry (e.g. lost by the old runner) is reported, not "as recorded"
    entries = read_manifest(book)
    del entries["09_last"]
    write_manifest(book, entries)
    assert verify_outputs(book)["09_last"][0].startswith("no manifest entry")
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    assert "09_last: no manifest entry" in capsys.readouterr().err
    reproduce.run(profile="quick", only=["09"], output_root=str(book))
    assert all_recorded(book)


def test_a_damaged_manifest_is_named_restored_from_its_backup_or_refused(book, capsys):
    """The probe: with manifest.json truncated, verify blamed every chapter and ``reproduce --only 09`` rewrote the
    manifest with 09 alone."""
    reproduce.run(profile="quick", output_root=str(book))
    manifest = book / "manifest.json"
    manifest.write_text(manifest.read_text()[:200])
    with pytest.raises(ManifestError, match="manifest.json is not readable as JSON"):
        verify_outputs(book)
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not readable as JSON" in err[0] and "restores the manifest from it" in err[0]
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert "restored it from .manifest.backup.json (2 chapter record(s))" in stream.getvalue()
    assert set(read_manifest(book)) == {"01_good", "09_last"} and all_recorded(book)
    assert len(list(book.glob("manifest.damaged.*.json"))) == 1  # the damaged file is kept for inspection
    # no usable backup: refuse, and change nothing
    manifest.write_text("{}")
    (book / ".manifest.backup.json").write_text("[")
    with pytest.raises(ManifestError, match="has no list of chapters; its backup .* not usable either"):
        reproduce.run(profile="quick", only=["09"], output_root=str(book))
    assert manifest.read_text() == "{}"
    with pytest.raises(SystemExit) as usage:
        cli("reproduce", "--profile", "quick", "--only", "09", "--output-root", str(book))
    assert usage.value.code == 2 and "not usable either" in capsys.readouterr().err


def test_a_manifest_entry_without_a_status_is_named(book, capsys):
    reproduce.run(profile="quick", output_root=str(book))
    payload = json.loads((book / "manifest.json").read_text())
    del payload["chapters"][0]["status"]
    (book / "manifest.json").write_text(json.dumps(payload))
    with pytest.raises(ManifestError, match="the entry of 01_good has no status ok or failed"):
        read_manifest(book)
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the entry of 01_good has no status" in err[0]


def test_verify_names_a_failed_notebook_only_when_there_is_one(toy_chapters, capsys):
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["03"], output_root=str(out))
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(out)) == 1
    err = capsys.readouterr().err
    assert "03_untagged: its last run failed: ValueError: 03_untagged.py has no cell tagged 'parameters'" in err
    assert "failed/03_untagged.ipynb" not in err


def test_the_books_build_record_follows_the_manifest(book):
    """The reproducibility page says which profile and seed made each chapter's outputs (issue 26, item 4)."""
    reproduce.run(profile="quick", output_root=str(book))
    record = (book / BUILD_RECORD).read_text()
    entries = read_manifest(book)
    assert record == build_record(entries)
    assert f"outputs of {len(entries)} chapter runs" in record and "the **quick** profile" in record
    for chapter, entry in entries.items():
        assert f"| {chapter.replace('_', ' ')} | quick | {entry['seed']} |" in record
    entries[sorted(entries)[0]]["profile"] = "full"
    assert "different profiles: **full**, **quick**" in build_record(entries)
    assert build_record({}).startswith("No chapter has been run")


# -- hostile cases: a deleted manifest, a damaged backup, a folder in place of the build record ----------------------

def test_a_deleted_manifest_is_restored_from_its_backup_before_anything_is_recorded(book, capsys):
    """The probe: with manifest.json deleted and its backup intact, ``reproduce --only 09`` wrote a manifest of 09
    alone, and then its backup, over the backup: 01's record was lost."""
    reproduce.run(profile="quick", output_root=str(book))
    (book / "manifest.json").unlink()
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    assert (f"{book / 'manifest.json'} is missing; {BACKUP} holds 2 chapter record(s): the next reproduce restores "
            "the manifest from it") in capsys.readouterr().err
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert f"manifest.json is missing; restored it from {BACKUP} (2 chapter record(s))" in stream.getvalue()
    assert set(read_manifest(book)) == {"01_good", "09_last"} and all_recorded(book)
    assert parse_manifest(book / BACKUP) == read_manifest(book)


def test_a_deleted_manifest_with_a_damaged_backup_is_refused_and_nothing_written(book):
    reproduce.run(profile="quick", output_root=str(book))
    (book / "manifest.json").unlink()
    (book / BACKUP).write_text("{")
    with pytest.raises(ManifestError, match=r"manifest.json is missing; its backup \.manifest\.backup\.json is not "
                                            r"usable either \(.*not readable as JSON.*move "
                                            r"\.manifest\.backup\.json aside"):
        reproduce.run(profile="quick", only=["09"], output_root=str(book))
    assert not (book / "manifest.json").exists() and (book / BACKUP).read_text() == "{"


def test_verify_does_not_promise_a_restore_from_a_damaged_backup(book, capsys):
    """The probe: with manifest.json and its backup both damaged, verify said "the next reproduce restores the
    manifest from it"; the next reproduce refuses to run."""
    reproduce.run(profile="quick", output_root=str(book))
    (book / "manifest.json").write_text("[")
    (book / BACKUP).write_text("{}")
    capsys.readouterr()
    assert cli("outputs", "verify", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "restores the manifest from it" not in err[0]
    assert f"its backup {BACKUP} is not usable either" in err[0] and "has no list of chapters" in err[0]
    assert "the next reproduce refuses to run" in err[0]
    with pytest.raises(ManifestError, match="not usable either"):  # as it said
        reproduce.run(profile="quick", only=["09"], output_root=str(book))


def test_a_folder_in_place_of_the_build_record_is_an_error_before_anything_changes(book, capsys):
    """The probe: with build.md a folder, every chapter said ok and the command exited 0 while the book's record of
    the runs stayed stale."""
    reproduce.run(profile="quick", output_root=str(book))
    manifest, before = (book / "manifest.json").read_bytes(), chapter_files(book, "01_good")
    (book / BUILD_RECORD).unlink()
    (book / BUILD_RECORD).mkdir()
    capsys.readouterr()
    assert cli("reproduce", "--profile", "quick", "--only", "01", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{book / BUILD_RECORD} is a folder, not the book's build record" in err[0]
    assert (book / "manifest.json").read_bytes() == manifest and chapter_files(book, "01_good") == before


def test_a_build_record_that_becomes_unwritable_during_the_run_fails_it(book, monkeypatch, capsys):
    import papermill

    reproduce.run(profile="quick", output_root=str(book))
    execute = papermill.execute_notebook

    def and_block_the_record(*args, **kwargs):  # build.md becomes a folder while the chapter runs
        execute(*args, **kwargs)
        (book / BUILD_RECORD).unlink(missing_ok=True)
        (book / BUILD_RECORD).mkdir(exist_ok=True)

    monkeypatch.setattr(papermill, "execute_notebook", and_block_the_record)
    with pytest.raises(OutputRootError, match=r"cannot write the book's build record .*build.md \(it is a folder\): "
                                              "it no longer matches manifest.json"):
        reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert all_recorded(book)  # the chapter itself was published and recorded
    (book / BUILD_RECORD).rmdir()
    capsys.readouterr()
    assert cli("reproduce", "--profile", "quick", "--only", "01", "--output-root", str(book)) == 1
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith(
        "reproduce: error: cannot write the book's build record")
