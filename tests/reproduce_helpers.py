"""What the runner's tests share (test_reproduce*.py): tiny chapter notebooks, the two fixtures that make a book of
them (``toy_chapters``: really executed by papermill; ``book``: papermill replaced by a stand-in that runs in no
time), and the command line. A test module uses a fixture by importing it."""

from pathlib import Path

import pytest

from analysis import execution, profiles, reproduce, uptodate
from analysis.output_checks import verify_outputs

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
from analysis.paths import output_root as where
folder = where(output_root) / "{name}"
folder.mkdir(parents=True, exist_ok=True)
(folder / "result.csv").write_text(f",value\\n0,{{value}}\\n")
{extra}
"""
# The chapter saves its one table as ``Outputs.table`` would (same place, same bytes) without importing pandas or
# matplotlib: a kernel that imports them costs about 5 s of CPU, and the runner's tests start dozens of kernels.


def use_notebooks(monkeypatch, nb_dir):
    """Make the runner find the chapters' notebooks in ``nb_dir`` (each of its modules that looks for them)."""
    for module in (reproduce, execution, uptodate):
        monkeypatch.setattr(module, "notebooks_dir", lambda: nb_dir)


@pytest.fixture
def toy_chapters(tmp_path, monkeypatch):
    nb_dir = tmp_path / "notebooks"
    nb_dir.mkdir()
    (nb_dir / "01_good.py").write_text(NOTEBOOK.format(name="01_good", extra=""))
    (nb_dir / "02_broken.py").write_text(NOTEBOOK.format(name="02_broken",
                                                         extra="raise RuntimeError('boom in chapter')"))
    (nb_dir / "03_untagged.py").write_text(NOTEBOOK.format(name="03_untagged", extra="")
                                           .replace(' tags=["parameters"]', ""))
    use_notebooks(monkeypatch, nb_dir)
    monkeypatch.setitem(profiles.PROFILES, "quick", {"01_good": {"value": 3}})
    return tmp_path


def break_late(toy_chapters, message="late failure"):
    """Make 01_good fail after it has saved its table."""
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text() + f"\nraise RuntimeError({message!r})\n")


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
    use_notebooks(monkeypatch, nb_dir)
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


def all_recorded(out) -> bool:
    return verify_outputs(out) == {"01_good": [], "09_last": []}


def cli(*args) -> int:
    from analysis.__main__ import main

    return main(list(args))
