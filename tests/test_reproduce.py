"""The papermill batch runner: discovery, profiles, failure isolation, manifest, determinism, notebook smoke runs."""

import io
import json
import os
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
    assert reproduce.verify_outputs(out) == {"01_good": []}


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


def test_stale_entries_and_failed_notebooks_are_cleared(toy_chapters):
    out = toy_chapters / "out"
    _break_late(toy_chapters)
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert (out / "failed" / "01_good.ipynb").exists()
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text().replace("raise RuntimeError('late failure')", ""))
    gone = reproduce.ChapterRun("07_gone", "full", "ok", {}, None, 1.0, "0", outputs={"07_gone/t.csv": "0"})
    reproduce._update_manifest(out, gone)
    (out / "07_gone").mkdir()
    (out / "07_gone" / "t.csv").write_text("x")
    (out / "notebooks").mkdir(exist_ok=True)
    (out / "notebooks" / "07_gone.ipynb").write_text("{}")
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert not (out / "failed" / "01_good.ipynb").exists()
    assert set(reproduce.read_manifest(out)) == {"01_good"}
    assert not (out / "07_gone").exists() and not (out / "notebooks" / "07_gone.ipynb").exists()
    assert reproduce.read_manifest(out)["01_good"]["status"] == "ok"


def test_verify_outputs_finds_changed_missing_and_unrecorded_files(toy_chapters):
    out = toy_chapters / "out"
    reproduce.run(profile="quick", only=["01"], output_root=str(out))
    assert reproduce.verify_outputs(out) == {"01_good": []}
    (out / "01_good" / "result.csv").write_text("value\n7\n")
    (out / "01_good" / "extra.csv").write_text("x\n")
    (out / "notebooks" / "01_good.ipynb").unlink()
    (out / "notebooks" / "05_stray.ipynb").write_text("{}")
    assert reproduce.verify_outputs(out) == {
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
out.figure(fig, "fig", display=False)  # no set_theme(): the SVG ids' salt must still be fixed
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
