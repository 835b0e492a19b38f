"""From a page to the code that makes it: every value a chapter's page pastes (``{glue:...}`key``` and the
``glue:figure`` directive) is named by a key that a search finds in the code, and every figure a chapter saves has
its caption in the notebook's markdown.

A key is *found* when it appears as a quoted string in ``analysis/`` or in a notebook's code cells. Five families
are derived from one name written once, and are found when that name is: ``verdict-<id>``, ``ours-<id>``,
``passed-<id>`` and ``values-<id>`` (glued for every claim by :func:`analysis.chapters.common.glue_verdicts`;
``<id>`` is the claim's ``id`` in ``data/published/claims/``), and ``value-<key>`` (glued by
:meth:`analysis.recorder.Outputs.values` for a value recorded under ``<key>``)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))

_ROLE = re.compile(r"\{glue(?::\w+)?\}`([^`:<]+)")
_DIRECTIVE = re.compile(r"```\{glue(?::\w+)?\}\s+(\S+)")
_CLAIM_FAMILIES = ("verdict-", "ours-", "passed-", "values-")


def _cells(path: Path) -> tuple[str, str]:
    """A percent-format notebook's markdown (comment markers removed) and its code."""
    markdown, code, kind = [], [], "code"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# %%"):
            kind = "markdown" if "[markdown]" in line else "code"
            continue
        if kind == "markdown":
            markdown.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        else:
            code.append(line)
    return "\n".join(markdown), "\n".join(code)


@cache
def _code_strings() -> frozenset[str]:
    """Every string constant in the package's modules and the notebooks' code cells."""
    sources = [p.read_text(encoding="utf-8") for p in (ROOT / "analysis").rglob("*.py")]
    sources += [_cells(p)[1] for p in NOTEBOOKS]
    strings = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
    return frozenset(strings)


@cache
def _claim_ids() -> frozenset[str]:
    ids = set()
    for path in (ROOT / "data" / "published" / "claims").glob("*.toml"):
        ids |= set(re.findall(r'^id\s*=\s*"([^"]+)"', path.read_text(encoding="utf-8"), flags=re.M))
    return frozenset(ids)


def found(key: str) -> bool:
    """Whether a search for ``key`` (or, for a derived family, for the name it is derived from) finds it."""
    if key in _code_strings():
        return True
    for family in _CLAIM_FAMILIES:
        if key.startswith(family):
            return key.removeprefix(family) in _claim_ids()
    return key.startswith("value-") and key.removeprefix("value-") in _code_strings()


def page_keys(path: Path) -> set[str]:
    markdown, _ = _cells(path)
    return {m.group(1).strip() for m in _ROLE.finditer(markdown)} | set(_DIRECTIVE.findall(markdown))


def saved_figures(path: Path) -> list:
    """The names given to ``out.figure(fig, name, ...)`` in a notebook's code cells (None for a name that is not
    a literal string)."""
    names = []
    for node in ast.walk(ast.parse(_cells(path)[1])):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "figure"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "out"):
            name = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "name"),
                                                                  None)
            names.append(name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None)
    return names


def figure_directives(path: Path) -> dict[str, tuple[dict, str]]:
    """Each ``glue:figure`` directive of a notebook's markdown: key -> (options, caption)."""
    markdown, _ = _cells(path)
    found_ = {}
    for block in re.finditer(r"```\{glue:figure\}\s+(\S+)\n(.*?)```", markdown, flags=re.S):
        lines = block.group(2).splitlines()
        options = {m.group(1): m.group(2).strip() for line in lines if (m := re.match(r":(\w+):\s*(.*)", line))}
        caption = "\n".join(line for line in lines if not re.match(r":\w+:", line)).strip()
        found_[block.group(1)] = (options, caption)
    return found_


def _chapter(path: Path) -> str:
    return path.name[:2]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=_chapter)
def test_every_key_a_page_pastes_is_found_in_the_code(notebook):
    missing = sorted(k for k in page_keys(notebook) if not found(k))
    assert not missing, f"{notebook.name}: keys the code does not name literally: {missing}"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=_chapter)
def test_every_saved_figure_has_its_caption_in_the_markdown(notebook):
    names = saved_figures(notebook)
    assert None not in names, f"{notebook.name}: give every out.figure a literal name"
    directives = figure_directives(notebook)
    assert sorted(directives) == sorted(names), f"{notebook.name}: figures saved and pasted differ"
    for name, (options, caption) in directives.items():
        assert options.get("name") == name, f"{name}: the directive's :name: must be the figure's name"
        assert options.get("alt"), f"{name}: the directive needs :alt: text"
        assert caption, f"{name}: the directive needs a caption"
    _, code = _cells(notebook)
    assert "caption" not in {k.arg for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)
                             for k in n.keywords}, f"{notebook.name}: a caption is written in code"


def test_the_search_finds_literal_and_derived_keys_and_nothing_else():
    assert found("n-setups")  # literal in notebook 02's code
    claim = next(iter(_claim_ids()))
    assert found(f"verdict-{claim}") and found(f"passed-{claim}")
    assert not found("verdict-no-such-claim-anywhere")
    assert not found("no-such-key-anywhere-at-all")
