import os
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

from analysis import data
from tests.helpers import MIRROR

settings.register_profile(
    "compendium", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "compendium"))


@pytest.fixture
def fig1_scores() -> pd.DataFrame:
    """Three systems with equal means and medians 10/10/7 (the scores chapter 00 constructed for Fig. 1 before it used
    the authors' own; the aggregate tests keep them as a hand-checked example)."""
    return pd.DataFrame({"A": [1, 5, 10, 15, 19], "B": [5, 10, 15, 19, 1], "C": [4, 7, 14, 18, 7]}, dtype=float)


@pytest.fixture(scope="session")
def fetched(tmp_path_factory):
    """Every registered file, fetched from the mirror into a fresh directory (skipped without a mirror)."""
    if MIRROR is None:
        pytest.skip("no local data mirror (../shared/data or $COMPENDIUM_DATA_MIRROR)")
    root = tmp_path_factory.mktemp("raw")
    data.fetch(root=root, mirror=MIRROR)
    return root


@pytest.fixture(scope="session")
def prepared(fetched, tmp_path_factory):
    """Every table, prepared from ``fetched`` into a fresh directory. The tables `make data` prepared (the test target
    runs it first, from the raw files, in a fresh clone) are copied in and :func:`analysis.data.prepare` rebuilds
    there whatever is not up to date with them: the same tables in about a second instead of a minute."""
    import shutil

    from analysis.paths import processed_dir

    out = tmp_path_factory.mktemp("processed")
    if processed_dir().is_dir():
        shutil.copytree(processed_dir(), out, dirs_exist_ok=True)
    data.prepare(root=fetched, out=out)
    return out


@pytest.fixture(scope="session")
def wmt_tables(prepared):
    """The WMT tables, prepared from the mirror in this session."""
    return {name: data.tables.load_table(name, out=prepared) for name in data.tables.SCHEMAS if name.startswith("wmt_")}


@pytest.fixture(scope="session")
def quick_book(tmp_path_factory):
    """Every chapter run ONCE per test session under the quick profile (two jobs), into a scratch copy of the book's
    sources: ``(site, runs)``, the chapters' outputs under ``site / "book" / "_generated"``. The slow tests (the
    smoke run, the pinned tables, the book build, the browser) all read this one run."""
    import shutil

    from analysis import reproduce
    from tests.helpers import ROOT

    site = tmp_path_factory.mktemp("site")
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy(ROOT / name, site / name)
    shutil.copytree(ROOT / "book", site / "book", ignore=shutil.ignore_patterns("_generated"))
    runs = reproduce.run(profile="quick", output_root=str(site / "book" / "_generated"), jobs=2)
    return site, runs


@pytest.fixture(scope="session")
def quick_claims(quick_book):
    """As `make book` does before the HTML build: the claims' verdicts and pages computed from the quick run's
    outputs. ``(exit code, printed report)``."""
    import io

    from analysis import claims_cli

    site, _ = quick_book
    report = io.StringIO()
    code = claims_cli.main(["--outputs", str(site / "book" / "_generated")], stream=report)
    return code, report.getvalue()


@pytest.fixture(scope="session")
def quick_html(quick_book, quick_claims):
    """The quick run compiled into a book (Jupyter Book, Sphinx warnings as errors), as `make book` does:
    ``(site / "_build" / "html", the build's CompletedProcess)``."""
    import subprocess
    import sys
    from pathlib import Path

    site, _ = quick_book
    jb = Path(sys.executable).with_name("jupyter-book")
    result = subprocess.run([str(jb), "build", str(site), "-W", "-n", "--keep-going"], capture_output=True, text=True)
    return site / "_build" / "html", result



#: session fixtures that cost minutes, by family: under pytest-xdist (``make test`` runs two workers) the tests of
#: every module that uses one of a family run on one worker, so each fixture is built once per session, not per worker
_SHARED_FIXTURES = {"book": ("quick_book", "quick_claims", "quick_html"), "data": ("fetched", "prepared", "wmt_tables")}


def _module_groups(folder: Path) -> dict[str, str]:
    """``tests/test_x.py`` -> the families of costly fixtures its source names (modules that name none: absent)."""
    groups = {}
    for path in sorted(folder.glob("test_*.py")):
        text = path.read_text()
        found = [family for family, names in _SHARED_FIXTURES.items()
                 if any(re.search(rf"\b{name}\b", text) for name in names)]
        if found:
            groups[f"{folder.name}/{path.name}"] = "+".join(found)
    return groups


def pytest_xdist_make_scheduler(config, log):
    """Load balancing test by test, except that the modules of one fixture family form one unit of work (pytest 9.2
    ignores xdist's own ``xdist_group`` marks, which rename node ids)."""
    from xdist.scheduler import LoadScopeScheduling

    groups = _module_groups(Path(__file__).resolve().parent)

    class SharedFixtureScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return groups.get(nodeid.split("::", 1)[0], nodeid)

    return SharedFixtureScheduling(config, log)
