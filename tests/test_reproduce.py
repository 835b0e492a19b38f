"""The papermill batch runner: discovery, profiles, failure isolation, manifest, determinism, notebook smoke runs."""

import json
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
    assert "result.csv" in entry["outputs"] and entry["duration_s"] > 0
    assert not list((out / "notebooks").glob(".*"))  # no temporary files left behind


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


@pytest.mark.slow
def test_quick_profile_smoke_run_is_deterministic(tmp_path):
    """Every chapter runs under the quick profile through the runner (two jobs), twice, with identical tables."""
    first, second = tmp_path / "first", tmp_path / "second"
    for root in (first, second):
        runs = reproduce.run(profile="quick", output_root=str(root), jobs=2)
        assert [r.status for r in runs] == ["ok"] * len(CHAPTERS), [r.error for r in runs if r.error]
    for chapter in CHAPTERS:
        tables = sorted((first / chapter).glob("*.csv"))
        assert tables, f"{chapter} wrote no table"
        for table in tables:
            assert table.read_bytes() == (second / chapter / table.name).read_bytes(), f"{table.name} differs"
        assert sorted(p.name for p in (first / chapter).glob("*.png")), f"{chapter} wrote no figure"
    for notebook in sorted((first / "notebooks").glob("*.ipynb")):  # no local path printed into the book
        outputs = json.dumps([c.get("outputs", []) for c in json.loads(notebook.read_text())["cells"]])
        assert "PosixPath(" not in outputs and str(first) not in outputs, f"{notebook.name} prints a local path"
    # issue 4's acceptance: the simulation's per-setup table is among the byte-identical tables
    assert (first / "01_synthetic_simulation" / "paired_fig3_per_setup.csv").stat().st_size > 0


@pytest.mark.slow
def test_book_builds_with_warnings_as_errors(tmp_path):
    """The book builds (Sphinx warnings are errors) from quick-profile notebooks in a scratch copy of the repo."""
    site = tmp_path / "site"
    site.mkdir()
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy(ROOT / name, site / name)
    shutil.copytree(ROOT / "book", site / "book", ignore=shutil.ignore_patterns("_generated"))
    runs = reproduce.run(profile="quick", output_root=str(site / "book" / "_generated"))
    assert all(r.status == "ok" for r in runs)
    jb = Path(sys.executable).with_name("jupyter-book")
    result = subprocess.run([str(jb), "build", str(site), "-W", "-n", "--keep-going"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    index = site / "_build" / "html" / "index.html"
    chapter = site / "_build" / "html" / "book" / "_generated" / "notebooks" / "00_why_pairing_matters.html"
    assert index.exists() and chapter.exists()
    assert "Why pairing matters" in chapter.read_text()
    assert chapter.read_text().count("<img") >= 2


def test_repo_root_is_found_from_a_subdirectory(monkeypatch):
    monkeypatch.delenv("ANALYSIS_ROOT", raising=False)
    monkeypatch.chdir(ROOT / "tests")
    assert paths.repo_root() == ROOT
