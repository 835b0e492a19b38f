"""Journalled publishing (analysis.journal): a chapter's outputs change all at once or not at all, and a run killed
or failing at any step of publishing leaves (or the next run restores) the last good outputs with their record."""

import io
import os
import shutil

import pytest

from analysis import journal, reproduce
from analysis.manifest import BACKUP, BUILD_RECORD, build_record, chapter_files, parse_manifest, read_manifest
from analysis.output_checks import verify_outputs

from . import reproduce_helpers
from .reproduce_helpers import all_recorded

book = reproduce_helpers.book  # the fixture this module uses


class Killed(BaseException):
    """A kill -9 as the runner sees it: no handler runs (see ``_kill_at``)."""


def test_a_file_in_place_of_the_notebooks_folder_publishes_nothing(book, capsys):
    """The probe: a failed run published its artefacts and deleted the last good ones while the manifest kept the
    old checksums and claimed "what is on disk is the last good run"."""
    reproduce.run(profile="quick", output_root=str(book))
    before = chapter_files(book, "01_good")
    shutil.rmtree(book / "notebooks")
    (book / "notebooks").write_text("not a folder")
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert run.status == "failed" and "notebooks is not a folder" in run.error
    artefacts = {k: v for k, v in before.items() if not k.startswith("notebooks/")}
    assert chapter_files(book, "01_good") == artefacts  # the last good artefacts, untouched
    assert read_manifest(book)["01_good"]["outputs"] == before
    assert verify_outputs(book)["01_good"] == ["missing: notebooks/01_good.ipynb"]  # the true state
    assert not any((book / ".staging").iterdir())
    (book / "notebooks").unlink()
    reproduce.run(profile="quick", output_root=str(book))
    assert all_recorded(book)


def _kill_at(monkeypatch, step: int, exc: BaseException):
    """From the start of publishing, make the ``step``-th rename or replace (0: the journal's) raise ``exc``; with
    ``Killed``, nothing is undone either (as after kill -9). Returns a function that disarms it."""
    calls, armed = [], [False]
    real_rename, real_replace, real_publish = os.rename, os.replace, reproduce.publish

    def counted(real):
        def move(*args, **kwargs):
            if armed[0]:
                calls.append(args)
                if len(calls) - 1 == step:
                    raise exc
            return real(*args, **kwargs)
        return move

    def publish(*args, **kwargs):
        armed[0] = True
        try:
            return real_publish(*args, **kwargs)
        finally:
            armed[0] = False

    monkeypatch.setattr(os, "rename", counted(real_rename))
    monkeypatch.setattr(os, "replace", counted(real_replace))
    monkeypatch.setattr(reproduce, "publish", publish)
    if isinstance(exc, Killed):
        def no_rollback(*args):
            raise Killed
        monkeypatch.setattr(journal, "roll_back", no_rollback)

    def disarm():
        for name, real in (("rename", real_rename), ("replace", real_replace)):
            monkeypatch.setattr(os, name, real)
        monkeypatch.setattr(reproduce, "publish", real_publish)
        monkeypatch.setattr(journal, "roll_back", _ROLL_BACK)
        return calls
    return disarm


_ROLL_BACK = journal.roll_back
# publishing's renames and replaces: 0 journal, 1 old artefacts out, 2 new in, 3 old notebook out, 4 new in,
# 5 manifest, 6 its backup, 7 the build record, 8 journal "recorded"
PUBLISH_STEPS = range(9)


@pytest.mark.parametrize("step", PUBLISH_STEPS)
def test_a_run_killed_at_any_step_of_publishing_is_recovered_by_the_next_run(book, monkeypatch, step):
    """The probe: a kill between the two renames lost the chapter's folder, and the next run deleted the staging
    folder holding the previous outputs."""
    reproduce.run(profile="quick", output_root=str(book))
    old = chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, step, Killed())
    with pytest.raises(Killed):
        reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert len(disarm()) == step + 1
    monkeypatch.setattr(journal, "pid_alive", lambda pid: False)  # the killed run's process is gone
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert all_recorded(book), stream.getvalue()
    assert not any((book / ".staging").iterdir())
    now = chapter_files(book, "01_good")
    if step == 0:  # killed before publishing began: nothing changed
        assert now == old
    elif step < 7:
        assert now != old and "completed the publication" in stream.getvalue()  # rolled forward
    assert read_manifest(book)["01_good"]["outputs"] == now


@pytest.mark.parametrize("step", range(1, 7))
def test_an_error_at_any_step_of_publishing_puts_the_last_good_outputs_back(book, monkeypatch, step):
    reproduce.run(profile="quick", output_root=str(book))
    old = chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, step, OSError(28, "No space left on device"))
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(book))
    disarm()
    if step == 6:  # the backup of the manifest: best effort, the manifest already records the new outputs
        assert run.status == "ok" and all_recorded(book)
        return
    assert (run.status == "failed" and "cannot publish 01_good" in run.error
            and "last good outputs are kept" in run.error)
    assert chapter_files(book, "01_good") == old and all_recorded(book)
    assert not any((book / ".staging").iterdir())


def test_a_killed_publication_that_cannot_be_completed_is_undone(book, monkeypatch):
    reproduce.run(profile="quick", output_root=str(book))
    old = chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, 2, Killed())  # between the two renames: the chapter's folder is in the stage
    with pytest.raises(Killed):
        reproduce.run(profile="quick", only=["01"], output_root=str(book))
    disarm()
    assert not (book / "01_good").exists()
    monkeypatch.setattr(journal, "pid_alive", lambda pid: False)

    def cannot(*args):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(journal, "roll_forward", cannot)
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert "01_good: undid the publication" in stream.getvalue() and "Read-only file system" in stream.getvalue()
    assert chapter_files(book, "01_good") == old and all_recorded(book)



def test_a_build_record_that_cannot_be_written_leaves_the_backup_current_and_is_rewritten(book, monkeypatch):
    """The manifest's backup was written after the build record: a build record that could not be written left the
    backup one run behind (a later restore from it lost that run), and the run said ok with a stale record."""
    reproduce.run(profile="quick", output_root=str(book))
    real_replace, failed = os.replace, []

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(dst) == BUILD_RECORD and not failed:
            failed.append(dst)
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert failed and run.status == "ok" and all_recorded(book)
    assert parse_manifest(book / BACKUP) == read_manifest(book)
    assert (book / BUILD_RECORD).read_text() == build_record(read_manifest(book))  # rewritten at the run's end
