"""The papermill batch runner: discovery, profiles, failure isolation, manifest, determinism, notebook smoke runs."""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jupytext
import pandas as pd
import pytest

from analysis import paths, profiles, reproduce

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))

NOTEBOOK = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% tags=["parameters"]
seed = 1
value = 10
output_root = None

# %%
from analysis.plotting import Outputs
import pandas as pd
out = Outputs("{name}", dict(seed=seed, value=value), root=output_root)
out.table(pd.DataFrame({{"value": [value]}}), "result")
{extra}
"""


@pytest.fixture
def toy_chapters(tmp_path, monkeypatch):
    nb_dir = tmp_path / "notebooks"
    nb_dir.mkdir()
    (nb_dir / "01_good.py").write_text(NOTEBOOK.format(name="01_good", extra=""))
    (nb_dir / "02_broken.py").write_text(NOTEBOOK.format(name="02_broken", extra="raise RuntimeError('boom in chapter')"))
    (nb_dir / "03_untagged.py").write_text(NOTEBOOK.format(name="03_untagged", extra="").replace(' tags=["parameters"]', ""))
    monkeypatch.setattr(reproduce, "notebooks_dir", lambda: nb_dir)
    monkeypatch.setitem(profiles.PROFILES, "quick", {"01_good": {"value": 3}})
    return tmp_path


def test_every_chapter_has_a_tagged_parameters_cell_and_kernelspec():
    assert CHAPTERS, "no chapter notebooks found"
    for chapter in CHAPTERS:
        nb = jupytext.read(ROOT / "notebooks" / f"{chapter}.py")
        assert nb.metadata["kernelspec"]["name"] == "python3", chapter
        tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, f"{chapter}: needs exactly one cell tagged 'parameters'"
        assert "seed" in tagged[0].source and "output_root" in tagged[0].source


def test_code_is_hidden_behind_a_toggle_except_where_copying_is_the_point():
    import nbformat

    from analysis.notebooks import hide_code

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# t"), nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("y = 2", metadata={"tags": ["remove-input"]}),
        nbformat.v4.new_code_cell("z = 3", metadata={"tags": ["show-input", "parameters"]})])
    assert hide_code(nb) == 1
    assert [c.metadata.get("tags") for c in nb.cells] == [None, ["hide-input"], ["remove-input"],
                                                          ["show-input", "parameters"]]
    assert hide_code(nb) == 0  # idempotent
    shown = [c for c in CHAPTERS if reproduce._shows_code(c)]
    assert shown == ["09_your_own_scores"]


def test_papermill_parses_every_parameter_line(caplog):
    """papermill reads the parameters cell line by line for `--help-notebook` and its records; a comment holding
    " = " (or an unbalanced quote) makes it log "Unable to parse line" and drop that parameter from what it shows."""
    from papermill.inspection import _infer_parameters

    for chapter in CHAPTERS:
        nb = jupytext.read(ROOT / "notebooks" / f"{chapter}.py")
        for cell in nb.cells:
            cell.metadata.setdefault("tags", [])
        caplog.clear()
        with caplog.at_level("WARNING", logger="papermill"):
            names = [p.name for p in _infer_parameters(nb)]
        assert not [r.message for r in caplog.records if "Unable to parse" in r.message], chapter
        assert "seed" in names and "output_root" in names, (chapter, names)


def test_profiles_only_name_existing_chapters_and_parameters():
    for profile, chapters in profiles.PROFILES.items():
        for chapter, params in chapters.items():
            assert chapter in CHAPTERS, f"profile {profile} names unknown chapter {chapter}"
            source = (ROOT / "notebooks" / f"{chapter}.py").read_text()
            for name in params:
                assert f"\n{name} = " in source, f"{chapter} has no parameter {name}"
    with pytest.raises(ValueError, match="unknown profile"):
        profiles.parameters_for("fast", CHAPTERS[0])


def test_discover_selects_by_name_number_or_suffix(toy_chapters):
    assert reproduce.discover() == ["01_good", "02_broken", "03_untagged"]
    assert reproduce.discover(["02"]) == ["02_broken"]
    assert reproduce.discover(["good", "01_good"]) == ["01_good"]
    with pytest.raises(ValueError, match="no chapter matches 'nope'"):
        reproduce.discover(["nope"])


def test_failures_are_isolated_and_reported(toy_chapters):
    out = toy_chapters / "out"
    runs = reproduce.run(profile="quick", output_root=str(out))
    status = {r.chapter: r for r in runs}
    assert status["01_good"].status == "ok"
    assert status["02_broken"].status == "failed" and "boom in chapter" in status["02_broken"].error
    assert status["03_untagged"].status == "failed" and "no cell tagged 'parameters'" in status["03_untagged"].error
    assert (out / "notebooks" / "01_good.ipynb").exists()
    assert not (out / "notebooks" / "02_broken.ipynb").exists()
    assert (out / "failed" / "02_broken.ipynb").exists()
    assert pd.read_csv(out / "01_good" / "result.csv")["value"].tolist() == [3]  # the profile was injected
    manifest = json.loads((out / "manifest.json").read_text())
    entry = {c["chapter"]: c for c in manifest["chapters"]}["01_good"]
    assert entry["parameters"]["value"] == 3 and entry["seed"] == 1 and entry["profile"] == "quick"
    assert "01_good/result.csv" in entry["outputs"] and entry["duration_s"] > 0
    assert "notebooks/01_good.ipynb" in entry["outputs"]
    assert not list((out / "notebooks").glob(".*"))  # no temporary files left behind
    assert not any((out / ".staging").iterdir())


# -- issue 12, items 1 and 2: outputs change all at once or not at all; hand runs never write into the book ---------

def _break_late(toy_chapters, message="late failure"):
    """Make 01_good fail after it has saved its table."""
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text() + f"\nraise RuntimeError({message!r})\n")


def test_a_failing_chapter_keeps_its_last_good_outputs(toy_chapters):
    out = toy_chapters / "out"
    assert reproduce.run(profile="quick", only=["01"], output_root=str(out))[0].status == "ok"
    before = reproduce._chapter_files(out, "01_good")
    _break_late(toy_chapters)
    assert reproduce.run(profile="full", only=["01"], output_root=str(out))[0].status == "failed"
    assert reproduce._chapter_files(out, "01_good") == before
    assert pd.read_csv(out / "01_good" / "result.csv")["value"].tolist() == [3]  # the good quick run's, not 10
    entry = reproduce.read_manifest(out)["01_good"]
    assert entry["status"] == "ok" and entry["profile"] == "quick" and entry["outputs"] == before
    assert "RuntimeError: late failure" in entry["last_failure"]["error"]
    assert (out / "failed" / "01_good.ipynb").exists()
    assert reproduce.verify_outputs(out, ["01_good"]) == {"01_good": []}


def test_an_interrupted_run_changes_nothing_and_its_leftovers_are_removed(toy_chapters, monkeypatch):
    import papermill

    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    before = reproduce._chapter_files(out, "01_good")
    manifest = (out / "manifest.json").read_bytes()

    def interrupted(input_path, output_path, **kwargs):  # Ctrl-C after the notebook wrote half its outputs
        stage = Path(kwargs["parameters"]["output_root"]) / "01_good"
        stage.mkdir(parents=True)
        (stage / "result.csv").write_text("value\n99\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(papermill, "execute_notebook", interrupted)
    with pytest.raises(KeyboardInterrupt):
        reproduce.run_chapter("01_good", "full", str(out))
    assert reproduce._chapter_files(out, "01_good") == before
    assert (out / "manifest.json").read_bytes() == manifest
    assert not any((out / ".staging").iterdir())
    # a run killed outright (kill -9) leaves its staging folder; the next run removes it
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout)
    killed = out / ".staging" / f"01_good.{dead}.x1y2z3" / "01_good"
    killed.mkdir(parents=True)
    (killed / "result.csv").write_text("value\n99\n")
    monkeypatch.undo()
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert not any((out / ".staging").iterdir())


def test_the_console_names_the_exception_and_its_message(toy_chapters):
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["02"], output_root=str(toy_chapters / "out"), stream=stream)
    lines = stream.getvalue().splitlines()
    failed = next(i for i, line in enumerate(lines) if "FAILED 02_broken" in line)
    assert lines[failed + 1].strip().startswith("RuntimeError: boom in chapter")
    assert "failed/02_broken.ipynb" in lines[failed + 2]


def test_failed_notebooks_are_cleared_and_stale_chapters_kept_until_pruned(toy_chapters, capsys):
    out = toy_chapters / "out"
    _break_late(toy_chapters)
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert (out / "failed" / "01_good.ipynb").exists()
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text().replace("raise RuntimeError('late failure')", ""))
    gone = reproduce.ChapterRun("07_gone", "full", "ok", {}, None, 1.0, "0",
                                outputs={"07_gone/t.csv": hashlib.sha256(b"x").hexdigest()})
    reproduce._update_manifest(out, gone)
    (out / "07_gone").mkdir()
    (out / "07_gone" / "t.csv").write_text("x")
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["01"], output_root=str(out), stream=stream)
    assert not (out / "failed" / "01_good.ipynb").exists()
    assert reproduce.read_manifest(out)["01_good"]["status"] == "ok"
    # issue 31 item 1: a chapter without a notebook keeps its outputs and record until pruned explicitly
    assert set(reproduce.read_manifest(out)) == {"01_good", "07_gone"} and (out / "07_gone" / "t.csv").exists()
    assert "07_gone: recorded, but notebooks/07_gone.py does not exist; its outputs are kept" in stream.getvalue()
    assert reproduce.verify_outputs(out, ["01_good"])["07_gone"][0].startswith("no notebook: notebooks/07_gone.py")
    from analysis.__main__ import main

    assert main(["outputs", "prune", "--output-root", str(out)]) == 0
    assert "removed the outputs of 07_gone" in capsys.readouterr().err
    assert set(reproduce.read_manifest(out)) == {"01_good"} and not (out / "07_gone").exists()
    assert reproduce.verify_outputs(out, ["01_good"]) == {"01_good": []}


def test_verify_outputs_finds_changed_missing_and_unrecorded_files(toy_chapters):
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert reproduce.verify_outputs(out, ["01_good"]) == {"01_good": []}
    (out / "01_good" / "result.csv").write_text("value\n7\n")
    (out / "01_good" / "extra.csv").write_text("x\n")
    (out / "notebooks" / "01_good.ipynb").unlink()
    (out / "notebooks" / "05_stray.ipynb").write_text("{}")
    assert reproduce.verify_outputs(out, ["01_good"]) == {
        "01_good": ["missing: notebooks/01_good.ipynb", "changed: 01_good/result.csv",
                    "not recorded: 01_good/extra.csv"],
        "05_stray": ["not recorded: notebooks/05_stray.ipynb"],
    }
    from analysis.__main__ import main

    assert main(["outputs", "verify", "--output-root", str(out)]) == 1


def test_a_notebook_run_by_hand_writes_to_scratch_never_into_the_book(toy_chapters):
    """The README's example (papermill ... -p seed 7) used to rewrite book/_generated behind the manifest's back."""
    import nbformat

    nbformat.write(jupytext.read(toy_chapters / "notebooks" / "01_good.py"), toy_chapters / "in.ipynb")
    env = os.environ | {"ANALYSIS_ROOT": str(toy_chapters)}
    papermill = Path(sys.executable).with_name("papermill")
    subprocess.run([str(papermill), "in.ipynb", "out.ipynb", "-p", "value", "7", "--log-level", "ERROR"],
                   cwd=toy_chapters, env=env, check=True, capture_output=True)
    assert pd.read_csv(toy_chapters / "scratch" / "01_good" / "result.csv")["value"].tolist() == [7]
    assert not (toy_chapters / "book").exists()


def test_cli_exits_non_zero_naming_the_failed_chapter(toy_chapters, capsys):
    from analysis.__main__ import main

    out = str(toy_chapters / "cli-out")  # never the real book/_generated (its manifest would be overwritten)
    assert main(["reproduce", "--profile", "quick", "--only", "02", "--output-root", out]) == 1
    assert "failed: 02_broken" in capsys.readouterr().err


def test_cli_rejects_unknown_profile():
    result = subprocess.run(
        [sys.executable, "-m", "analysis", "reproduce", "--profile", "fast"], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 2 and "invalid choice: 'fast'" in result.stderr


def test_repo_root_is_found_from_a_subdirectory(monkeypatch):
    monkeypatch.delenv("ANALYSIS_ROOT", raising=False)
    monkeypatch.chdir(ROOT / "tests")
    assert paths.repo_root() == ROOT


def test_a_real_chapter_refuses_a_bad_parameter_before_any_work(tmp_path, monkeypatch):
    """Issue 12 item 3: ``-p seed 7.5`` used to fail deep in numpy; now the first cell names the parameter."""
    import nbformat
    import papermill

    nbformat.write(jupytext.read(ROOT / "notebooks" / "00_why_pairing_matters.py"), tmp_path / "in.ipynb")
    with pytest.raises(papermill.PapermillExecutionError) as failure:
        papermill.execute_notebook(tmp_path / "in.ipynb", tmp_path / "run.ipynb",
                                   parameters={"seed": 7.5, "output_root": str(tmp_path / "out")},
                                   cwd=str(ROOT / "notebooks"), progress_bar=False, kernel_name="python3")
    assert failure.value.ename == "ValueError"
    assert failure.value.evalue == "parameter seed must be an integer >= 0, got 7.5"
    assert not (tmp_path / "out").exists()


# -- issue 31, item 6: every byte a chapter writes through Outputs is the same under any hash seed -------------------

SAVE_TWICE = """
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from analysis.plotting import Outputs
out = Outputs("99_toy", {"seed": 3, "systems": {"b", "a", "c", "d", "e"}, "grid": frozenset({"x", "y", "z"}),
                         "nested": {"k": {"q", "r", "s"}, 2: ("t", "u")}}, root=sys.argv[1],
              data={"raw/x.csv": "abc", "sources": {"u", "v", "w"}})
fig, ax = plt.subplots()
for name in ["alpha", "beta", "gamma"]:
    ax.plot([1, 2, 3], [1, len(name), 2], marker="o", label=name)
ax.legend()
out.figure(fig, "fig", "Three lines.", display=False)  # no set_theme(): the SVG ids' salt must still be fixed
out.table(pd.DataFrame({"v": [1, 2]}, index=["a", "b"]), "t")
"""


def test_saved_figures_tables_and_provenance_are_byte_identical_under_two_hash_seeds(tmp_path):
    """Provenance listed sets in hash order (json's ``default=str``) and an SVG saved without :func:`set_theme` got
    matplotlib's random id salt; chapter 04's SVGs, a PNG and provenance.json differed between hash seeds."""
    script = tmp_path / "save.py"
    script.write_text(SAVE_TWICE)
    runs = {}
    for seed in ("1", "2"):
        env = os.environ | {"PYTHONHASHSEED": seed, "ANALYSIS_ROOT": str(ROOT), "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, str(script), str(tmp_path / seed)], env=env, check=True, cwd=tmp_path)
        folder = tmp_path / seed / "99_toy"
        runs[seed] = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    assert sorted(runs["1"]) == ["fig.png", "fig.svg", "provenance.json", "t.csv"]
    for name in runs["1"]:
        assert runs["1"][name] == runs["2"][name], f"{name} depends on the hash seed"
    record = json.loads(runs["1"]["provenance.json"])["artefacts"]["fig"]
    assert record["parameters"]["systems"] == ["a", "b", "c", "d", "e"]
    assert record["parameters"]["nested"] == {"2": ["t", "u"], "k": ["q", "r", "s"]}
    assert record["data"]["sources"] == ["u", "v", "w"]


# -- issue 31, items 1-3 and 5: outputs and records are never lost; publishing recovers from a kill at any step ------

class Killed(BaseException):
    """A kill -9 as the runner sees it: no handler runs (see ``_kill_at``)."""


@pytest.fixture
def book(tmp_path, monkeypatch):
    """Two good chapters whose notebooks papermill "runs" in no time (each run writes a new value), and the
    output root ``out``."""
    import nbformat
    import papermill

    nb_dir = tmp_path / "notebooks"
    nb_dir.mkdir()
    for name in ("01_good", "09_last"):
        (nb_dir / f"{name}.py").write_text(NOTEBOOK.format(name=name, extra=""))
    monkeypatch.setattr(reproduce, "notebooks_dir", lambda: nb_dir)
    monkeypatch.setitem(profiles.PROFILES, "quick", {})
    counter = iter(range(1000))

    def execute(input_path, output_path, parameters, **kwargs):
        nb = nbformat.read(input_path, as_version=4)
        nb.metadata["papermill"] = {"input_path": str(input_path), "output_path": str(output_path),
                                    "parameters": dict(parameters)}
        nbformat.write(nb, output_path)
        stage = Path(parameters["output_root"])
        (stage / stage.name.split(".")[0]).mkdir()
        (stage / stage.name.split(".")[0] / "result.csv").write_text(f"value\n{next(counter)}\n")

    monkeypatch.setattr(papermill, "execute_notebook", execute)
    return tmp_path / "out"


def _all_recorded(out) -> bool:
    return reproduce.verify_outputs(out) == {"01_good": [], "09_last": []}


def _cli(*args) -> int:
    from analysis.__main__ import main

    return main(list(args))


def test_a_missing_notebook_never_deletes_that_chapters_outputs(book, capsys):
    """The probe: with 09's notebook renamed, ``reproduce --only 01`` deleted 09's outputs, notebook and entry, and
    after the notebook came back ``outputs verify`` said "as recorded" although 09 had nothing."""
    reproduce.run(profile="quick", output_root=str(book))
    before = reproduce._chapter_files(book, "09_last")
    source = book.parent / "notebooks" / "09_last.py"
    source.rename(source.with_suffix(".bak"))
    reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert reproduce._chapter_files(book, "09_last") == before and "09_last" in reproduce.read_manifest(book)
    assert reproduce.verify_outputs(book)["09_last"][0].startswith("no notebook: notebooks/09_last.py")
    assert _cli("outputs", "verify", "--output-root", str(book)) == 1
    source.with_suffix(".bak").rename(source)
    assert _all_recorded(book) and _cli("outputs", "verify", "--output-root", str(book)) == 0
    # a chapter without an entry (e.g. lost by the old runner) is reported, not "as recorded"
    entries = reproduce.read_manifest(book)
    del entries["09_last"]
    reproduce._write_manifest(book, entries)
    assert reproduce.verify_outputs(book)["09_last"][0].startswith("no manifest entry")
    capsys.readouterr()
    assert _cli("outputs", "verify", "--output-root", str(book)) == 1
    assert "09_last: no manifest entry" in capsys.readouterr().err
    reproduce.run(profile="quick", only=["09"], output_root=str(book))
    assert _all_recorded(book)


def test_a_damaged_manifest_is_named_restored_from_its_backup_or_refused(book, capsys):
    """The probe: with manifest.json truncated, verify blamed every chapter and ``reproduce --only 09`` rewrote the
    manifest with 09 alone."""
    reproduce.run(profile="quick", output_root=str(book))
    manifest = book / "manifest.json"
    manifest.write_text(manifest.read_text()[:200])
    with pytest.raises(reproduce.ManifestError, match="manifest.json is not readable as JSON"):
        reproduce.verify_outputs(book)
    capsys.readouterr()
    assert _cli("outputs", "verify", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not readable as JSON" in err[0] and "restores the manifest from it" in err[0]
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert "restored it from .manifest.backup.json (2 chapter record(s))" in stream.getvalue()
    assert set(reproduce.read_manifest(book)) == {"01_good", "09_last"} and _all_recorded(book)
    assert len(list(book.glob("manifest.damaged.*.json"))) == 1  # the damaged file is kept for inspection
    # no usable backup: refuse, and change nothing
    manifest.write_text("{}")
    (book / ".manifest.backup.json").write_text("[")
    with pytest.raises(reproduce.ManifestError, match="has no list of chapters; its backup .* not usable either"):
        reproduce.run(profile="quick", only=["09"], output_root=str(book))
    assert manifest.read_text() == "{}"
    with pytest.raises(SystemExit) as usage:
        _cli("reproduce", "--profile", "quick", "--only", "09", "--output-root", str(book))
    assert usage.value.code == 2 and "not usable either" in capsys.readouterr().err


def test_a_manifest_entry_without_a_status_is_named(book, capsys):
    reproduce.run(profile="quick", output_root=str(book))
    payload = json.loads((book / "manifest.json").read_text())
    del payload["chapters"][0]["status"]
    (book / "manifest.json").write_text(json.dumps(payload))
    with pytest.raises(reproduce.ManifestError, match="the entry of 01_good has no status ok or failed"):
        reproduce.read_manifest(book)
    capsys.readouterr()
    assert _cli("outputs", "verify", "--output-root", str(book)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "the entry of 01_good has no status" in err[0]


def test_a_file_in_place_of_the_notebooks_folder_publishes_nothing(book, capsys):
    """The probe: a failed run published its artefacts and deleted the last good ones while the manifest kept the
    old checksums and claimed "what is on disk is the last good run"."""
    reproduce.run(profile="quick", output_root=str(book))
    before = reproduce._chapter_files(book, "01_good")
    shutil.rmtree(book / "notebooks")
    (book / "notebooks").write_text("not a folder")
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert run.status == "failed" and "notebooks is not a folder" in run.error
    artefacts = {k: v for k, v in before.items() if not k.startswith("notebooks/")}
    assert reproduce._chapter_files(book, "01_good") == artefacts  # the last good artefacts, untouched
    assert reproduce.read_manifest(book)["01_good"]["outputs"] == before
    assert reproduce.verify_outputs(book)["01_good"] == ["missing: notebooks/01_good.ipynb"]  # the true state
    assert not any((book / ".staging").iterdir())
    (book / "notebooks").unlink()
    reproduce.run(profile="quick", output_root=str(book))
    assert _all_recorded(book)


def _kill_at(monkeypatch, step: int, exc: BaseException):
    """From the start of publishing, make the ``step``-th rename or replace (0: the journal's) raise ``exc``; with
    ``Killed``, nothing is undone either (as after kill -9). Returns a function that disarms it."""
    calls, armed = [], [False]
    real_rename, real_replace, real_publish = os.rename, os.replace, reproduce._publish

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
    monkeypatch.setattr(reproduce, "_publish", publish)
    if isinstance(exc, Killed):
        def no_rollback(*args):
            raise Killed
        monkeypatch.setattr(reproduce, "_roll_back", no_rollback)

    def disarm():
        for name, real in (("rename", real_rename), ("replace", real_replace)):
            monkeypatch.setattr(os, name, real)
        monkeypatch.setattr(reproduce, "_publish", real_publish)
        monkeypatch.setattr(reproduce, "_roll_back", _ROLL_BACK)
        return calls
    return disarm


_ROLL_BACK = getattr(reproduce, "_roll_back", None)
# publishing's renames and replaces: 0 journal, 1 old artefacts out, 2 new in, 3 old notebook out, 4 new in,
# 5 manifest, 6 its backup, 7 journal "recorded"
PUBLISH_STEPS = range(8)


@pytest.mark.parametrize("step", PUBLISH_STEPS)
def test_a_run_killed_at_any_step_of_publishing_is_recovered_by_the_next_run(book, monkeypatch, step):
    """The probe: a kill between the two renames lost the chapter's folder, and the next run deleted the staging
    folder holding the previous outputs."""
    reproduce.run(profile="quick", output_root=str(book))
    old = reproduce._chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, step, Killed())
    with pytest.raises(Killed):
        reproduce.run(profile="quick", only=["01"], output_root=str(book))
    assert len(disarm()) == step + 1
    monkeypatch.setattr(reproduce, "pid_alive", lambda pid: False)  # the killed run's process is gone
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert _all_recorded(book), stream.getvalue()
    assert not any((book / ".staging").iterdir())
    now = reproduce._chapter_files(book, "01_good")
    if step == 0:  # killed before publishing began: nothing changed
        assert now == old
    elif step < 7:
        assert now != old and "completed the publication" in stream.getvalue()  # rolled forward
    assert reproduce.read_manifest(book)["01_good"]["outputs"] == now


@pytest.mark.parametrize("step", range(1, 7))
def test_an_error_at_any_step_of_publishing_puts_the_last_good_outputs_back(book, monkeypatch, step):
    reproduce.run(profile="quick", output_root=str(book))
    old = reproduce._chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, step, OSError(28, "No space left on device"))
    [run] = reproduce.run(profile="quick", only=["01"], output_root=str(book))
    disarm()
    if step == 6:  # the backup of the manifest: best effort, the manifest already records the new outputs
        assert run.status == "ok" and _all_recorded(book)
        return
    assert run.status == "failed" and "cannot publish 01_good" in run.error and "last good outputs are kept" in run.error
    assert reproduce._chapter_files(book, "01_good") == old and _all_recorded(book)
    assert not any((book / ".staging").iterdir())


def test_a_killed_publication_that_cannot_be_completed_is_undone(book, monkeypatch):
    reproduce.run(profile="quick", output_root=str(book))
    old = reproduce._chapter_files(book, "01_good")
    disarm = _kill_at(monkeypatch, 2, Killed())  # between the two renames: the chapter's folder is in the stage
    with pytest.raises(Killed):
        reproduce.run(profile="quick", only=["01"], output_root=str(book))
    disarm()
    assert not (book / "01_good").exists()
    monkeypatch.setattr(reproduce, "pid_alive", lambda pid: False)

    def cannot(*args):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(reproduce, "_roll_forward", cannot)
    stream = io.StringIO()
    reproduce.run(profile="quick", only=["09"], output_root=str(book), stream=stream)
    assert "01_good: undid the publication" in stream.getvalue() and "Read-only file system" in stream.getvalue()
    assert reproduce._chapter_files(book, "01_good") == old and _all_recorded(book)


def test_runner_inputs_that_point_nowhere_end_in_one_line(book, capsys):
    """Item 5: ``--output-root`` pointing nowhere, and a notebook without a parameters tag (``outputs verify`` named
    a failed notebook that does not exist)."""
    assert _cli("outputs", "verify", "--output-root", str(book.parent / "nowhere")) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not exist (no run has written there)" in err[0]
    (book.parent / "a-file").write_text("x")
    with pytest.raises(SystemExit) as usage:
        _cli("reproduce", "--profile", "quick", "--output-root", str(book.parent / "a-file" / "out"))
    assert usage.value.code == 2 and "cannot use the output root" in capsys.readouterr().err


def test_verify_names_a_failed_notebook_only_when_there_is_one(toy_chapters, capsys):
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["03"], output_root=str(out))
    capsys.readouterr()
    assert _cli("outputs", "verify", "--output-root", str(out)) == 1
    err = capsys.readouterr().err
    assert "03_untagged: its last run failed: ValueError: 03_untagged.py has no cell tagged 'parameters'" in err
    assert "failed/03_untagged.ipynb" not in err


def test_the_books_build_record_follows_the_manifest(book):
    """The reproducibility page says which profile and seed made each chapter's outputs (issue 26, item 4)."""
    reproduce.run(profile="quick", output_root=str(book))
    record = (book / reproduce.BUILD_RECORD).read_text()
    entries = reproduce.read_manifest(book)
    assert record == reproduce.build_record(entries)
    assert f"outputs of {len(entries)} chapter runs" in record and "the **quick** profile" in record
    for chapter, entry in entries.items():
        assert f"| {chapter.replace('_', ' ')} | quick | {entry['seed']} |" in record
    entries[sorted(entries)[0]]["profile"] = "full"
    assert "different profiles: **full**, **quick**" in reproduce.build_record(entries)
    assert reproduce.build_record({}).startswith("No chapter has been run")
