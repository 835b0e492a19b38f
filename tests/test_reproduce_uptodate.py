"""Rebuild only what changed (issue 54): a chapter is up to date when its outputs are as recorded and its
notebook, the profile's parameters for it, the data it read, the ``analysis`` modules it imports and the lock file
are unchanged since the run that made them; ``reproduce`` skips it (``--force``, ``--only`` rerun it) and ``outputs
status`` says why each chapter is stale."""

import hashlib
import io
import json
import shutil

import pytest

from analysis import notebooks, profiles, reproduce, uptodate
from analysis.manifest import read_manifest
from analysis.output_checks import status

from . import reproduce_helpers
from .reproduce_helpers import NOTEBOOK, cli

toy_chapters, book = reproduce_helpers.toy_chapters, reproduce_helpers.book  # the fixtures this module uses


@pytest.fixture
def home(book, tmp_path, monkeypatch):
    """The ``book`` fixture's two chapters, 01 importing ``analysis.streams`` and 09 ``analysis.wmt_composition``
    (and through it ``analysis.wmt``), run once; the ``analysis`` package's sources hashed from a copy in
    ``tmp_path / "src"`` (so that a test can edit a module), the repository root (lock file, data) ``tmp_path``."""
    src = tmp_path / "src"
    shutil.copytree(notebooks.package_home() / "analysis", src / "analysis",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    monkeypatch.setattr(notebooks, "package_home", lambda: src)
    monkeypatch.setattr(uptodate, "package_home", lambda: src)
    monkeypatch.setenv("ANALYSIS_ROOT", str(tmp_path))
    (tmp_path / "requirements.lock").write_text("pandas==2.2.3\n")
    for name, extra in (("01_good", "import analysis.streams"), ("09_last", "from analysis import wmt_composition")):
        (tmp_path / "notebooks" / f"{name}.py").write_text(NOTEBOOK.format(name=name, extra=extra))
    reproduce.run(profile="quick", output_root=str(book))
    return tmp_path


def snapshot(out):
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*")) if p.is_file() and p.name != ".manifest.lock"}


def stale(out, profile="quick"):
    return {c: r for c, r in status(out, profile, stream=io.StringIO()).items() if r}


def test_an_unchanged_rerun_skips_every_chapter_and_leaves_every_output_byte_identical(home, book):
    before = snapshot(book)
    stream = io.StringIO()
    assert reproduce.run(profile="quick", output_root=str(book), stream=stream) == []
    assert snapshot(book) == before  # bytes and modification times: Sphinx re-reads nothing
    assert "reproduce: 0 chapter(s) to run (2 up to date)" in stream.getvalue()
    lines = [line.strip() for line in stream.getvalue().splitlines() if "up to date, skipped" in line]
    assert [line.split(":")[0] for line in lines] == ["01_good", "09_last"]
    assert lines[0].startswith("01_good: up to date, skipped (notebook, profile quick's parameters, 0 data table(s), ")
    assert "analysis module(s), lock file and 2 output(s) unchanged; --force reruns it)" in lines[0]
    entry = read_manifest(book)["09_last"]
    assert set(entry["inputs"]) == {"notebook", "profile_parameters", "lock", "modules", "data"}
    assert entry["inputs"]["notebook"] == hashlib.sha256((home / "notebooks" / "09_last.py").read_bytes()).hexdigest()
    assert {"analysis/wmt_composition.py", "analysis/wmt.py", "analysis/paths.py"} <= set(entry["inputs"]["modules"])
    assert "analysis/streams.py" not in entry["inputs"]["modules"]
    assert stale(book) == {}


def test_force_and_only_rerun_chapters_that_are_up_to_date(home, book):
    assert [r.chapter for r in reproduce.run(profile="quick", output_root=str(book), force=True)] == \
        ["01_good", "09_last"]
    assert [r.chapter for r in reproduce.run(profile="quick", output_root=str(book), only=["09"])] == ["09_last"]
    assert cli("reproduce", "--profile", "quick", "--output-root", str(book), "--force") == 0
    assert stale(book) == {}


def test_a_notebook_edit_makes_only_its_chapter_stale(home, book):
    nb = home / "notebooks" / "09_last.py"
    nb.write_text(nb.read_text().replace("value = 10", "value = 11"))
    assert stale(book) == {"09_last": ["notebook changed"]}
    assert [r.chapter for r in reproduce.run(profile="quick", output_root=str(book))] == ["09_last"]
    assert stale(book) == {}


def test_a_module_makes_stale_exactly_the_chapters_that_import_it_directly_or_not(home, book):
    src = home / "src" / "analysis"
    (src / "streams.py").write_text((src / "streams.py").read_text() + "\n# edited\n")
    assert stale(book) == {"01_good": ["analysis/streams.py changed"]}
    (src / "wmt.py").write_text((src / "wmt.py").read_text() + "\n# edited\n")  # 09 imports it through another
    assert stale(book) == {"01_good": ["analysis/streams.py changed"], "09_last": ["analysis/wmt.py changed"]}
    (src / "paths.py").write_text((src / "paths.py").read_text() + "\n# edited\n")  # both import it
    assert set(stale(book)) == {"01_good", "09_last"} and "analysis/paths.py changed" in stale(book)["09_last"]
    (src / "claims.py").write_text((src / "claims.py").read_text() + "\n# edited\n")  # neither imports it
    assert all("analysis/claims.py changed" not in r for r in stale(book).values())
    for name in ("__init__.py", "validation.py"):  # more than three: one line, counted
        (src / name).write_text((src / name).read_text() + "\n# edited\n")
    assert stale(book)["09_last"] == ["analysis/__init__.py, analysis/paths.py, analysis/validation.py and 1 more "
                                      "analysis modules changed"]


def test_a_parameter_of_the_profile_the_lock_file_or_the_profile_makes_the_right_chapters_stale(home, book,
                                                                                                 monkeypatch, capsys):
    monkeypatch.setitem(profiles.PROFILES, "quick", {"01_good": {"value": 4}})
    assert stale(book) == {"01_good": ["profile quick's parameters changed"]}
    monkeypatch.setitem(profiles.PROFILES, "quick", {})
    assert stale(book) == {}
    assert set(stale(book, "full")) == {"01_good", "09_last"}
    assert stale(book, "full")["09_last"] == ["profile full ≠ quick"]
    (home / "requirements.lock").write_text("pandas==2.2.4\n")
    assert stale(book) == {"01_good": ["lock file changed"], "09_last": ["lock file changed"]}
    assert cli("outputs", "status", "--profile", "quick", "--output-root", str(book)) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["01_good  stale: lock file changed", "09_last  stale: lock file changed",
                       "outputs status: 0 chapter(s) up to date, 2 stale (profile quick)"]


def test_outputs_that_are_not_as_recorded_make_the_chapter_stale(home, book):
    (book / "09_last" / "result.csv").write_text("value\n-1\n")
    assert stale(book) == {"09_last": ["outputs not as recorded (09_last/result.csv)"]}
    assert [r.chapter for r in reproduce.run(profile="quick", output_root=str(book))] == ["09_last"]


def test_a_chapter_killed_mid_run_or_failed_is_stale_on_the_next_run(home, book, monkeypatch):
    import papermill

    run_for_real = papermill.execute_notebook

    def killed(input_path, output_path, parameters, **kwargs):
        if "01_good" in str(parameters["output_root"]):
            raise KeyboardInterrupt  # as Ctrl-C; a kill -9 leaves the same record (nothing after the start)
        return run_for_real(input_path, output_path, parameters, **kwargs)

    monkeypatch.setattr(papermill, "execute_notebook", killed)
    with pytest.raises(KeyboardInterrupt):
        reproduce.run(profile="quick", output_root=str(book), only=["01"])
    assert stale(book) == {"01_good": ["its last run was stopped before it finished"]}
    monkeypatch.setattr(papermill, "execute_notebook", run_for_real)
    assert [r.chapter for r in reproduce.run(profile="quick", output_root=str(book))] == ["01_good"]
    assert stale(book) == {}
    nb = home / "notebooks" / "09_last.py"
    nb.write_text(nb.read_text() + "\n# %%\nraise RuntimeError('late')\n")
    monkeypatch.setattr(reproduce, "_execute", lambda *a: (_ for _ in ()).throw(RuntimeError("late")))
    [run] = reproduce.run(profile="quick", output_root=str(book))
    assert run.status == "failed" and stale(book) == {"09_last": ["its last run failed", "notebook changed"]}


def test_a_data_table_makes_stale_only_the_chapter_that_read_it(toy_chapters, monkeypatch):
    """Really executed: the kernel lists the data files a chapter opens (here as ``load_table`` reads a table)."""
    monkeypatch.setenv("ANALYSIS_ROOT", str(toy_chapters))
    processed = toy_chapters / "elsewhere"  # data/processed is a link to it (a bigger disk): still tracked
    processed.mkdir()
    (toy_chapters / "data").mkdir()
    (toy_chapters / "data" / "processed").symlink_to(processed)
    for name in ("alpha", "beta"):
        (processed / f"{name}.parquet").write_bytes(name.encode())
        (processed / f"{name}.json").write_text(json.dumps({"sha256": hashlib.sha256(name.encode()).hexdigest()}))
    (processed / "other.csv").write_text("x\n1\n")
    read = ("from analysis.paths import processed_dir\n(processed_dir() / '{table}.parquet').read_bytes()\n"
            "open(processed_dir() / 'other.csv').read()\n")
    for name, table in (("01_good", "alpha"), ("04_also", "beta")):
        (toy_chapters / "notebooks" / f"{name}.py").write_text(NOTEBOOK.format(name=name, extra=read.format(
            table=table)))
    out = toy_chapters / "out"
    assert [r.status for r in reproduce.run(profile="quick", only=["01", "04"], output_root=str(out))] == ["ok"] * 2
    assert read_manifest(out)["01_good"]["inputs"]["data"] == {
        "tables": {"alpha": hashlib.sha256(b"alpha").hexdigest()},
        "files": {"data/processed/other.csv": hashlib.sha256(b"x\n1\n").hexdigest()}}
    assert set(stale(out)) == {"02_broken", "03_untagged"}  # never run
    (processed / "alpha.json").write_text(json.dumps({"sha256": "0" * 64}))
    assert stale(out)["01_good"] == ["data table alpha changed"] and "04_also" not in stale(out)
    (processed / "other.csv").write_text("x\n2\n")
    assert stale(out)["04_also"] == ["data file data/processed/other.csv changed"]
