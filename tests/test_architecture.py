"""The package's layout stays what DESIGN.md says: no import cycle anywhere (function-level imports included), the
data layer imports no method and no chapter code, methods read no files, and notebooks stay thin."""

import ast
import graphlib
from pathlib import Path

import pytest

from analysis.reproduce import notebook_stats

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "analysis"
#: infrastructure every layer may use
SHARED = {"analysis", "analysis.files", "analysis.paths", "analysis.processes", "analysis._kernels", "analysis.validation"}
#: the methods: pure functions on score matrices and ratings
METHODS = {"analysis.aggregate", "analysis.pairwise", "analysis.agreement", "analysis.simulate", "analysis.wmt",
           "analysis.compare"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


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
    for name in METHODS:
        wrong = {d for d in graph[name] if not (d in METHODS or d in SHARED)}
        assert not wrong, f"method module {name} imports {sorted(wrong)}"


def test_nothing_but_chapters_and_the_command_line_imports_a_chapter():
    graph = import_graph()
    for name, deps in graph.items():
        if not name.startswith("analysis.chapters") and name != "analysis.__main__":
            assert not {d for d in deps if d.startswith("analysis.chapters")}, name


NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_thin(path):
    """A notebook reads like the paper section: no function longer than 5 lines, code well under markdown + 150."""
    stats = notebook_stats(path)
    assert stats["longest_def"] <= 5, f"{path.name}: {stats['longest_def_name']} is {stats['longest_def']} lines"
    assert stats["code"] < stats["markdown"] + 150, stats


def test_notebook_stats_counts_what_a_reader_sees(tmp_path):
    nb = tmp_path / "x.py"
    nb.write_text('# %% [markdown]\n# # Title\n#\n# text\n\n# %%\nx = 1\n\n\ndef f(a):\n    return a\n')
    assert notebook_stats(nb) == {"code": 3, "markdown": 2, "longest_def": 2, "longest_def_name": "f"}
