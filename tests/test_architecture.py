"""The package's layout stays what README.md's "The `analysis` package" says: no import cycle anywhere (function-level
imports included), the data layer imports no method and no chapter code, methods read no files, and notebooks stay
thin."""

import ast
import graphlib
import re
from pathlib import Path

import pytest

from analysis.notebooks import notebook_stats

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analysis"
#: infrastructure every layer may use
SHARED = {"analysis", "analysis.files", "analysis.paths", "analysis.processes", "analysis._kernels",
          "analysis.validation"}
#: the methods: pure functions on score matrices, comparisons and ratings (the papers' equations)
METHODS = {"analysis.aggregate", "analysis.agreement", "analysis.bt", "analysis.compare", "analysis.comparisons",
           "analysis.favi", "analysis.pairwise", "analysis.simulate", "analysis.streams", "analysis.sweeps",
           "analysis.wmt", "analysis.wmt_composition", "analysis.wmt_stability"}
#: the command line of a method package (``python -m analysis compare``: reads files, prints, saves its tables and
#: figures)
COMMAND_PARTS = {"analysis.compare.cli", "analysis.compare.options", "analysis.compare.output_paths",
                 "analysis.compare.report", "analysis.compare.figures"}
#: the runner and the book's machinery
RUNNER = {"analysis.__main__", "analysis.claim_records", "analysis.claims",
          "analysis.claims_pages", "analysis.claims_cli", "analysis.notebooks", "analysis.plotting",
          "analysis.recorder", "analysis.profiles", "analysis.reproduce", "analysis.execution", "analysis.uptodate",
          "analysis.manifest", "analysis.journal", "analysis.output_checks",
          "analysis.typography"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
#: the modules of a method package (``analysis.compare``) other than its command line: methods too
METHOD_PARTS = {m for m in MODULES if any(m.startswith(p + ".") for p in METHODS)} - COMMAND_PARTS


def _resolve(importer: str, node: ast.AST) -> set[str]:
    """The package modules an import statement (at any depth of the module) refers to."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name.split(".")[0] == "analysis"}
    if node.level:
        package = importer if MODULES[importer].name == "__init__.py" else importer.rsplit(".", 1)[0]
        for _ in range(node.level - 1):
            package = package.rsplit(".", 1)[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    if base.split(".")[0] != "analysis":
        return set()
    found = set()
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        found.add(candidate if candidate in MODULES else base)
    return found


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                deps |= _resolve(name, node)
        graph[name] = {d for d in deps if d in MODULES and d != name}
    return graph


def test_the_graph_sees_function_level_imports():
    graph = import_graph()
    assert "analysis.reproduce" in graph["analysis.__main__"]  # imported inside main()
    assert "analysis.data.tables" in graph["analysis.data"]


def test_no_import_cycle_anywhere_in_the_package():
    graph = import_graph()
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_data_layer_imports_no_methods_and_no_chapters():
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("analysis.data"):
            wrong = {d for d in deps if not (d.startswith("analysis.data") or d in SHARED)}
            assert not wrong, f"{name} imports {sorted(wrong)}: the data layer may only use itself and {sorted(SHARED)}"


def test_methods_import_neither_data_nor_chapters_nor_the_runner():
    graph = import_graph()
    for name in METHODS | METHOD_PARTS:
        wrong = {d for d in graph[name] if not (d in METHODS or d in SHARED or d in METHOD_PARTS)}
        assert not wrong, f"method module {name} imports {sorted(wrong)}"


def test_every_top_level_module_has_a_layer():
    top = {name for name in MODULES if name.count(".") == 1 and not name.startswith(("analysis.data",
                                                                                   "analysis.chapters"))}
    assert top <= METHODS | SHARED | RUNNER, f"modules without a layer: {sorted(top - METHODS - SHARED - RUNNER)}"


def test_nothing_but_chapters_the_profiles_and_the_command_line_imports_a_chapter():
    """The profiles read each chapter's declared quick values (``Param.quick``)."""
    graph = import_graph()
    for name, deps in graph.items():
        if not name.startswith("analysis.chapters") and name not in ("analysis.__main__", "analysis.profiles"):
            assert not {d for d in deps if d.startswith("analysis.chapters")}, name


def _chapter_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "chapters" and parts[2] != "common" else None


def test_no_chapter_imports_another_and_no_chapter_module_is_long():
    graph = import_graph()
    for name, deps in graph.items():
        mine = _chapter_of(name)
        if mine:
            others = {d for d in deps if _chapter_of(d) not in (None, mine)}
            assert not others, f"{name} imports another chapter: {sorted(others)}"
            lines = len(MODULES[name].read_text().splitlines())
            assert lines <= 450, f"{name} has {lines} lines (split it by job)"


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("chapters/*/__init__.py")), ids=lambda p: p.parent.name)
def test_a_chapter_package_re_exports_nothing(path):
    """A chapter package's ``__init__`` declares its ``CHAPTER`` and ``PARAMETERS`` and imports only what those
    need: the notebook and the tests import the module that holds each paper item (no re-export layer, no
    ``__all__``)."""
    tree = ast.parse(path.read_text())
    bound = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
    assert bound <= {"CHAPTER", "PARAMETERS"}, f"{path} binds {sorted(bound - {'CHAPTER', 'PARAMETERS'})}"
    assert not [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))], f"{path} defines code"
    imported = {(a.asname or a.name).split(".")[0] for node in tree.body
                if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names} - {"annotations"}
    used = {n.id for node in tree.body if isinstance(node, ast.Assign) for n in ast.walk(node.value)
            if isinstance(n, ast.Name)}
    used |= {n.value.id for node in tree.body if isinstance(node, ast.Assign) for n in ast.walk(node.value)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    assert imported <= used, f"{path} imports {sorted(imported - used)} that its PARAMETERS do not use (a re-export)"


def test_every_method_module_has_its_test_file():
    """Test files mirror the modules (issue 24): analysis/<m>.py is tested in tests/test_<m>.py."""
    expected = {f"test_{name.rsplit('.', 1)[1]}.py" for name in METHODS}
    missing = sorted(f for f in expected if not (ROOT / "tests" / f).is_file())
    assert not missing, f"method modules without their test file: {missing}"


def test_every_chapter_has_its_test_file():
    """Each chapter module or package analysis/chapters/<c> (but common) is tested in tests/test_chapter_<c>.py."""
    chapters = {_chapter_of(name) for name in MODULES} - {None}
    assert {"why_pairing", "real_setups", "your_own_scores"} <= chapters  # modules and packages alike
    expected = {f"test_chapter_{c}.py" for c in chapters}
    missing = sorted(f for f in expected if not (ROOT / "tests" / f).is_file())
    assert not missing, f"chapters without their test file: {missing}"


def test_every_bradley_terry_fit_goes_through_the_one_core():
    """The MM iteration and the degeneracy checks are written once, in analysis/bt.py: no other module iterates to a
    tolerance, uses graph connectivity, or calls another library's BT."""
    for name, path in MODULES.items():
        if name == "analysis.bt":
            continue
        source = path.read_text()
        for needle in ("max_iter + 1", "connected_components", "import evalica", "import choix"):
            assert needle not in source, f"{name} contains {needle!r}: fit BT through analysis.bt"


NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_thin(path):
    """A notebook reads like the paper section: no function longer than 5 lines, code well under markdown + 150."""
    stats = notebook_stats(path)
    assert stats["longest_def"] <= 5, f"{path.name}: {stats['longest_def_name']} is {stats['longest_def']} lines"
    assert stats["code"] < stats["markdown"] + 150, stats


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_heading_or_label_is_hidden_in_a_code_cell(path):
    """A section label ``# (name)=`` or heading ``# ## ...`` in a code cell is a comment, not a section: links to it
    break and the heading vanishes (a ``# %% [markdown]`` line was missing)."""
    import jupytext

    for number, cell in enumerate(jupytext.read(path).cells):
        if cell.cell_type == "code":
            stray = [line for line in cell.source.splitlines() if re.match(r"#\s*(\([\w-]+\)=|#+ )", line)]
            assert not stray, f"{path.name}, code cell {number}: {stray} belong in a markdown cell"


def test_notebook_stats_counts_what_a_reader_sees(tmp_path):
    nb = tmp_path / "x.py"
    nb.write_text('# %% [markdown]\n# # Title\n#\n# text\n\n# %%\nx = 1\n\n\ndef f(a):\n    return a\n')
    assert notebook_stats(nb) == {"code": 3, "markdown": 2, "longest_def": 2, "longest_def_name": "f"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_chapter_hands_its_claims_their_values_one_way(path):
    """A value the claims read that no page table holds is recorded with ``out.value`` / ``out.values`` (the chapter's
    one ``claim_values.csv``, :meth:`analysis.recorder.Outputs.value`): no notebook saves a table of its own for the
    claims, and a chapter whose claims read ``claim_values.csv`` records values."""
    from analysis import claim_records

    text = path.read_text(encoding="utf-8")
    assert not re.findall(r"[\"'][\w-]*claim_(?:values|checks)[\"']", text), "a table saved for the claims"
    sources = {c.source for c in claim_records.load() if c.chapter == path.stem}
    if "claim_values.csv" in sources:
        assert re.search(r"\bout\.values?\(", text), f"{path.name}: its claims read claim_values.csv"
