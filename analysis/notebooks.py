"""Reading the chapter notebooks (Jupytext percent-format ``notebooks/<chapter>.py``): the parameters a notebook
declares in its cell tagged ``parameters``, and the measures of a thin notebook."""

from __future__ import annotations

import ast
import re

from .paths import notebooks_dir


def _parameters_source(nb) -> str | None:
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            return cell.source
    return None


def notebook_parameters(nb) -> dict:
    """The parameters a notebook declares in its cell tagged ``parameters``: {name: default} in order (a default
    that is not a literal is kept as its source text); empty if there is no such cell."""
    source = _parameters_source(nb)
    if source is None:
        return {}
    values = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                values[node.targets[0].id] = ast.get_source_segment(source, node.value)
    return values


def chapter_parameters(chapter: str) -> dict:
    """:func:`notebook_parameters` of ``notebooks/<chapter>.py``."""
    import jupytext

    return notebook_parameters(jupytext.read(notebooks_dir() / f"{chapter}.py"))


def notebook_stats(path) -> dict:
    """Lines of a Jupytext notebook a reader sees: non-blank ``code`` and ``markdown`` lines, and the longest
    function defined in it (``longest_def``, in lines, with its name) -- the measures of a thin notebook."""
    import jupytext

    nb = jupytext.read(path)
    counts = {"code": 0, "markdown": 0}
    longest = (0, None)
    for cell in nb.cells:
        if cell.cell_type in counts:
            counts[cell.cell_type] += sum(1 for line in cell.source.splitlines() if line.strip())
        if cell.cell_type == "code":
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    length = node.end_lineno - node.lineno + 1
                    longest = max(longest, (length, node.name), key=lambda t: t[0])
    return counts | {"longest_def": longest[0], "longest_def_name": longest[1]}


#: cell tags that already decide whether a code cell's source is shown (MyST-NB's hide/remove tags)
VISIBILITY_TAGS = {"hide-input", "hide-cell", "remove-input", "remove-cell", "show-input"}


def hide_code(nb) -> int:
    """Hide the source of every code cell behind MyST-NB's toggle (tag ``hide-input``) unless the cell already has a
    visibility tag (``show-input`` keeps one visible): the book shows results and prose, code a click away. Returns
    the number of cells tagged. Works on the executed notebook, so papermill's injected parameters are hidden too."""
    tagged = 0
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if not VISIBILITY_TAGS & set(tags):
            tags.append("hide-input")
            tagged += 1
    return tagged


def scrub_machine_paths(nb, chapter: str) -> None:
    """No path of this machine on the page: the staging folder handed in as ``output_root`` leaves the injected
    parameters cell (which keeps the profile's own parameters, or goes when there are none) and papermill's record
    names the repository's files, not the staging ones."""
    nb.metadata["papermill"]["input_path"] = f"notebooks/{chapter}.py"
    nb.metadata["papermill"]["output_path"] = f"book/_generated/notebooks/{chapter}.ipynb"
    nb.metadata["papermill"]["parameters"].pop("output_root", None)
    for cell in list(nb.cells):
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            kept = [line for line in cell.source.splitlines() if not line.startswith("output_root = ")]
            if any(line.strip() and not line.startswith("#") for line in kept):
                cell.source = "\n".join(kept)
            else:
                nb.cells.remove(cell)


_GLUE_REFERENCE = re.compile(r"\{glue(?::[a-z]+)?\}`([^`<]+?)(?::[^`:]*)?`|```\{glue(?::[a-z]+)?\}\s+(\S+)")


def glue_problems(nb) -> list[str]:
    """What a build would stumble on in an executed notebook's glue (MyST-NB): a key its markdown pastes
    (``{glue:text}`key:.1%```, ``{glue:md}`key```, a ``{glue:figure}`` directive) that no cell glued, and a key glued
    twice. Empty when every reference resolves."""
    glued: list[str] = []
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                glued.append(name)
    problems = [f"{key!r} is glued {glued.count(key)} times" for key in sorted(set(glued)) if glued.count(key) > 1]
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for match in _GLUE_REFERENCE.finditer(cell.source):
                key = match.group(1) or match.group(2)
                if key not in glued:
                    problems.append(f"the text pastes {key!r}, which no cell glued")
    return problems
