"""Reading the chapter notebooks (Jupytext percent-format ``notebooks/<chapter>.py``): the parameters a notebook
declares in its cell tagged ``parameters``, and the measures of a thin notebook."""

from __future__ import annotations

import ast
import re
from pathlib import Path

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


def _glued(cells) -> list[tuple[str, dict]]:
    """(key, output) of every value ``cells`` glue (MyST-NB's ``scrapbook`` outputs), in order."""
    found = []
    for cell in cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                found.append((name, output))
    return found


def _pasted(cells) -> list[str]:
    """The keys the markdown of ``cells`` pastes, in order."""
    return [match.group(1) or match.group(2) for cell in cells if cell.cell_type == "markdown"
            for match in _GLUE_REFERENCE.finditer(cell.source)]


def glue_problems(nb) -> list[str]:
    """What a build would stumble on in an executed notebook's glue (MyST-NB): a key its markdown pastes
    (``{glue:text}`key:.1%```, ``{glue:md}`key```, a ``{glue:figure}`` directive) that no cell glued, and a key glued
    twice. Empty when every reference resolves."""
    glued = [key for key, _ in _glued(nb.cells)]
    problems = [f"{key!r} is glued {glued.count(key)} times" for key in sorted(set(glued)) if glued.count(key) > 1]
    problems += [f"the text pastes {key!r}, which no cell glued" for key in _pasted(nb.cells) if key not in glued]
    return problems


# --- a chapter as a story page and a details page ---------------------------------------------------------------------

#: the cell tag that sends a section to the chapter's details page: the tagged markdown cell, which starts with a
#: heading, and every cell after it up to the next heading of the same or a higher level
DETAILS_TAG = "details"
#: the tag of the markdown cell whose sentence (on what the details page checks) opens the details page
DETAILS_OPENING_TAG = "details-opening"
#: the details page's name in the chapter's artefact folder (``book/_generated/<chapter>/details.ipynb``)
DETAILS_PAGE = "details"
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$", re.MULTILINE)
_LABEL = re.compile(r"^\(([\w.:-]+)\)=\s*$")


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _heading(cell) -> tuple[int, str, str | None] | None:
    """(level, text, label) of the heading a markdown cell starts with (after blank and ``(label)=`` lines), or
    None when it does not start with one."""
    if cell.cell_type != "markdown":
        return None
    label = None
    for line in cell.source.splitlines():
        if not line.strip():
            continue
        if found := _LABEL.fullmatch(line.strip()):
            label = found.group(1)
            continue
        found = _HEADING.match(line)
        return (len(found.group(1)), found.group(2).strip(), label) if found else None
    return None


def details_sections(nb) -> list[tuple[int, int]]:
    """The ``(start, end)`` cell ranges the chapter sends to its details page (:data:`DETAILS_TAG`), in order."""
    sections, k = [], 0
    while k < len(nb.cells):
        if DETAILS_TAG not in _tags(nb.cells[k]):
            k += 1
            continue
        heading = _heading(nb.cells[k])
        if heading is None:
            raise ValueError(f"cell {k} is tagged {DETAILS_TAG!r} but does not start with a heading (a details "
                             "section starts at its heading)")
        end = k + 1
        while end < len(nb.cells):
            other = _heading(nb.cells[end])
            if other is not None and other[0] <= heading[0]:
                break
            end += 1
        sections.append((k, end))
        k = end
    return sections


def _carrying_glue(cells: list, outputs: dict) -> list:
    """``cells`` with a hidden code cell, after the first, holding the glued values their text pastes that the
    other page computes (MyST-NB reads glue from every code cell of a page, removed ones included)."""
    import nbformat

    own = {key for key, _ in _glued(cells)}
    missing = sorted({key for key in _pasted(cells) if key not in own and key in outputs})
    if not missing:
        return cells
    carrier = nbformat.v4.new_code_cell("", metadata={"tags": ["remove-cell"]})
    carrier.outputs = [outputs[key] for key in missing]
    return [cells[0], carrier, *cells[1:]]


def details_title(title: str) -> str:
    """A details page's title from its chapter's: "Details: " and the chapter's title without its source in
    parentheses or its subtitle after a colon, its first letter lower-cased unless the first word is an abbreviation
    or a name ("The stability of WMT system rankings (Knowles 2021)" -> "Details: the stability of WMT system
    rankings"; "Favoritism of automatic preference metrics (…)" -> "Details: favoritism of automatic preference
    metrics")."""
    short = re.sub(r"\s*\([^()]*\)\s*$", "", title).split(":")[0].strip() or title
    first = short.split()[0] if short.split() else ""
    if first[:1].isupper() and (first[1:].islower() or len(first) == 1):
        short = short[0].lower() + short[1:]
    return f"Details: {short}"


def split_details(nb, *, story: str, details: str, glossary: str = "../../glossary"):
    """An executed chapter as two pages, ``(story_nb, details_nb)``: the sections tagged :data:`DETAILS_TAG` move,
    in order, to the details page, which opens with the chapter's title and a link back to ``story`` (the story's
    document path as seen from the details page); the story keeps a link to each where it was (``details``: the
    details page's path as seen from the story, for a section without a label). The details page is titled after the
    chapter ("Details: the stability of WMT system rankings", :func:`details_title`) and opens with the sentence on
    what it checks of the markdown cell tagged :data:`DETAILS_OPENING_TAG` (moved there from the story; a generic
    sentence without one). Each page carries the glued values its text pastes and the other page computes;
    ``glossary`` is the glossary's path from the details page. ``details_nb`` is None when nothing is tagged."""
    import copy

    import nbformat

    sections = details_sections(nb)
    if not sections:
        return nb, None
    ends = dict(sections)
    story_cells, details_cells, openings, k = [], [], [], 0
    while k < len(nb.cells):
        if k not in ends:
            if nb.cells[k].cell_type == "markdown" and DETAILS_OPENING_TAG in _tags(nb.cells[k]):
                openings.append(nb.cells[k].source.strip())
            else:
                story_cells.append(nb.cells[k])
            k += 1
            continue
        _, text, label = _heading(nb.cells[k])
        link = f"{{ref}}`{label}`" if label else f"{{doc}}`{text} <{details}>`"
        story_cells.append(nbformat.v4.new_markdown_cell(f"*On the chapter's details page:* {link}."))
        details_cells.extend(nb.cells[k:ends[k]])
        k = ends[k]
    title = next((h[1] for h in map(_heading, story_cells) if h and h[0] == 1), "the chapter")
    what = " ".join(openings) or ("This page holds the checks behind the chapter's numbers: replications, "
                                    "recoveries, variants and run times.")
    opening = nbformat.v4.new_markdown_cell(
        f"# {details_title(title)}\n\n{what} It belongs to the chapter {{doc}}`{title} <{story}>`, whose terms it "
        f"uses (see the {{doc}}`glossary <{glossary}>`).")
    outputs = dict(_glued(nb.cells))
    story_nb, details_nb = copy.copy(nb), copy.copy(nb)
    story_nb.cells = _carrying_glue(story_cells, outputs)
    details_nb.cells = _carrying_glue([opening, *details_cells], outputs)
    return story_nb, details_nb


# --- what a chapter's code is made of: the analysis modules it imports --------------------------------------------

def _code_of(source: str) -> ast.Module | None:
    """``source`` parsed, IPython's magics and shell escapes (``%``, ``!`` lines) read as comments; None if it is not
    Python even then."""
    lines = [f"# {line}" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _imported_names(tree: ast.Module, module: str | None, is_package: bool) -> set[str]:
    """Dotted names ``tree`` imports anywhere (in functions too): for ``from a import b`` both ``a`` and ``a.b``
    (``b`` may be a submodule); relative imports resolved against ``module`` (a package when ``is_package``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if module is None:
                    continue
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def package_home() -> Path:
    """The folder that holds the ``analysis`` package: module paths in a chapter's record (``analysis/bt.py``) are
    relative to it."""
    return Path(__file__).resolve().parent.parent


def analysis_modules(sources: list[str], package: str = "analysis") -> dict[str, str]:
    """{path of the module's file, from the package's parent (``analysis/bt.py``): sha256} of every module of the
    ``analysis`` package that code cells ``sources`` import, followed transitively through the package's own imports
    (imports inside functions included, as running them may import them) with every ``__init__.py`` on the way
    (importing ``analysis.data.tables`` runs ``analysis/__init__.py`` and ``analysis/data/__init__.py``). Only the
    package's files are followed; the hashes say whether the code a chapter ran has changed since."""
    from .files import sha256_file

    home = package_home() / package
    found: dict[str, Path] = {}

    def locate(name: str) -> Path | None:
        rel = name.split(".")[1:]
        for candidate in (home.joinpath(*rel, "__init__.py"), home.joinpath(*rel).with_suffix(".py") if rel else None):
            if candidate is not None and candidate.is_file():
                return candidate
        return None

    todo = [name for source in sources if (tree := _code_of(source)) is not None
            for name in _imported_names(tree, None, False)]
    while todo:
        name = todo.pop()
        if name != package and not name.startswith(package + "."):
            continue
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # the packages on the way are imported too
            prefix = ".".join(parts[:k])
            if prefix in found:
                continue
            path = locate(prefix)
            if path is None:
                break  # ``from analysis.x import a_function``: no module of that name
            found[prefix] = path
            tree = _code_of(path.read_text())
            if tree is not None:
                todo.extend(_imported_names(tree, prefix, path.name == "__init__.py"))
    return {path.relative_to(home.parent).as_posix(): sha256_file(path)
            for path in sorted(found.values())}
