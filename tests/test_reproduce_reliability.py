"""The runner's cases of the fourth reliability probe (issues 55 and 56): a chapter record the manifest lost is
restored from the backup before anything is rewritten; ``outputs prune`` refuses without notebooks; ``outputs
verify`` fails a chapter whose only run failed; a backup that cannot be written is said; ``--timeout`` holds for the
whole chapter."""

import io
import json
import time

import pytest

from analysis import reproduce
from analysis.manifest import BACKUP, MANIFEST, OutputRootError, parse_manifest, read_manifest
from analysis.output_checks import verify_outputs

from . import reproduce_helpers
from .reproduce_helpers import NOTEBOOK, all_recorded, cli

toy_chapters, book = reproduce_helpers.toy_chapters, reproduce_helpers.book  # the fixtures this module uses


def test_a_record_the_manifest_lost_is_restored_from_the_backup_before_a_run_rewrites_it(book, capsys):
    """Issue 55: a valid manifest without 01's entry, then ``reproduce --only 09``: the run rewrote the backup
    without 01's record, and neither file held it any more."""
    reproduce.run(profile="quick", output_root=str(book))
    manifest = json.loads((book / MANIFEST).read_text())
    manifest["chapters"] = [e for e in manifest["chapters"] if e["chapter"] != "01_good"]
    (book / MANIFEST).write_text(json.dumps(manifest))
    assert verify_outputs(book, ["01_good", "09_last"])["01_good"][0] == (
        f"no manifest entry, but {BACKUP} holds its record: the next `python -m analysis reproduce` restores it")
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert set(read_manifest(book)) == {"01_good", "09_last"} == set(parse_manifest(book / BACKUP))
    assert f"{MANIFEST} has no record of 01_good, which {BACKUP} holds: restored it" in stream.getvalue()
    assert all_recorded(book)
    assert cli("outputs", "verify", "--output-root", str(book)) == 0


def test_prune_refuses_when_no_notebook_is_found(book, monkeypatch, capsys):
    """Issue 56: with the notebooks/ folder missing (a wrong checkout), prune deleted every chapter's outputs."""
    reproduce.run(profile="quick", output_root=str(book))
    before = read_manifest(book)
    missing = book.parent / "no-notebooks-here"
    monkeypatch.setattr(reproduce, "notebooks_dir", lambda: missing)
    assert cli("outputs", "prune", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"no chapter notebook found in {missing}" in err
    assert read_manifest(book) == before and all((book / c / "result.csv").exists() for c in before)


def test_verify_fails_a_chapter_whose_only_record_is_a_failed_run(toy_chapters, capsys):
    """Issue 56: ``outputs verify`` exited 0 when a chapter's only record was a failed run with nothing on disk."""
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01", "02"], output_root=str(out))
    assert read_manifest(out)["02_broken"]["status"] == "failed"
    assert verify_outputs(out, ["01_good", "02_broken"])["02_broken"] == [
        "no good run: its only recorded run failed, and it has no outputs "
        "(`python -m analysis reproduce --only 02_broken`)"]
    assert cli("outputs", "verify", "--output-root", str(out)) == 1
    assert "02_broken: no good run" in capsys.readouterr().err


def test_a_backup_in_the_form_of_a_folder_is_refused_before_anything_changes(book):
    """Issue 56: with ``.manifest.backup.json`` a folder, runs succeeded with no backup and no word."""
    reproduce.run(profile="quick", output_root=str(book))
    before = (book / MANIFEST).read_bytes()
    (book / BACKUP).unlink()
    (book / BACKUP).mkdir()
    with pytest.raises(OutputRootError, match=rf"^{book / BACKUP} is a folder, not the manifest's backup"):
        reproduce.run(profile="quick", output_root=str(book))
    assert (book / MANIFEST).read_bytes() == before


def test_a_backup_that_cannot_be_written_is_said_in_one_line(book, monkeypatch, capsys):
    """Issue 56: in a folder where the backup cannot be written (read-only for this file), the runs succeeded with
    no backup and no word. The manifest is still the record; the run says the backup is stale and exits 1."""
    from analysis import manifest

    reproduce.run(profile="quick", output_root=str(book))
    real = manifest.write_if_changed

    def no_backup(path, content):
        if str(path).endswith(BACKUP):
            raise PermissionError(13, "Permission denied")
        return real(path, content)

    monkeypatch.setattr(manifest, "write_if_changed", no_backup)
    monkeypatch.setattr(reproduce, "generated_dir", lambda: book)
    assert cli("reproduce", "--profile", "quick", "--only", "01") == 1
    err = capsys.readouterr().err
    line = next(x for x in err.splitlines() if x.startswith("reproduce: error:"))
    assert (f"cannot write the manifest's backup {book / BACKUP} (Permission denied)" in line
            and "the backup holds an older record" in line)


def test_a_time_limit_holds_for_the_whole_chapter_of_quick_cells(toy_chapters):
    """Issue 56: every cell was given at least 0.1 s, so a chapter of many quick cells never hit a small limit."""
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(NOTEBOOK.split("# %%\nfrom analysis.paths")[0] + "".join(
        "# %%\nimport time\ntime.sleep(0.05)\n\n" for _ in range(60)))  # no cell near the limit, 3 s in all
    out = toy_chapters / "out"
    start = time.monotonic()
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(out), timeout=1.5)
    assert run.status == "failed", "60 cells of 0.05 s ran through a limit of 1.5 s"
    assert run.error.startswith("TimeoutError: the chapter ran longer than its time limit of 1.5 s (--timeout)")
    assert time.monotonic() - start < 30 and not (out / "01_good").exists()
