"""The batch runner behind ``make reproduce`` and ``python -m analysis reproduce``.

Each chapter is a Jupytext percent-format notebook ``notebooks/<chapter>.py``. The runner converts it to ``.ipynb``,
executes it with papermill under a profile (:mod:`analysis.profiles`) and writes the executed notebook to
``book/_generated/notebooks/<chapter>.ipynb``, which the book renders. Failures are isolated: a failing chapter's
notebook goes to ``book/_generated/failed/`` (the last good output is kept), the other chapters still run, and the
run ends non-zero naming the failed chapters. ``book/_generated/manifest.json`` records every chapter's run.
"""

from __future__ import annotations

import ast
import json
import os
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import __version__
from .files import atomic_write
from .paths import generated_dir, notebooks_dir
from .profiles import PROFILES, parameters_for


@dataclass
class ChapterRun:
    chapter: str
    profile: str
    status: str  # "ok" or "failed"
    parameters: dict
    seed: int | None
    duration_s: float
    analysis_version: str
    data: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    error: str | None = None


def discover(only: list[str] | None = None) -> list[str]:
    """Chapter names (notebook stems) in order; ``only`` selects by full name, number prefix or name suffix."""
    chapters = sorted(p.stem for p in notebooks_dir().glob("[0-9][0-9]_*.py"))
    if not only:
        return chapters
    picked = []
    for want in only:
        hits = [c for c in chapters if c == want or c.split("_", 1)[0] == want or c.split("_", 1)[1] == want]
        if not hits:
            raise ValueError(f"no chapter matches {want!r}; chapters: {chapters}")
        picked.extend(h for h in hits if h not in picked)
    return picked


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


def run_chapter(chapter: str, profile: str, output_root: str | None = None) -> ChapterRun:
    """Convert, parameterise and execute one chapter; never raises for a notebook error (it is reported)."""
    import jupytext
    import nbformat
    import papermill

    root = Path(output_root) if output_root else generated_dir()
    source = notebooks_dir() / f"{chapter}.py"
    injected = parameters_for(profile, chapter)
    if root.resolve() != generated_dir().resolve():
        injected["output_root"] = str(root)  # only when not the default, so no local path leaks into the book
    start = time.perf_counter()
    nb = jupytext.read(source)
    has_tag = _parameters_source(nb) is not None
    params = {**notebook_parameters(nb), **injected}
    out_dir = root / "notebooks"
    failed_dir = root / "failed"
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_in = tempfile.mkstemp(suffix=".ipynb", dir=out_dir, prefix=f".{chapter}.in.")
    os.close(fd)
    fd, tmp_out = tempfile.mkstemp(suffix=".ipynb", dir=out_dir, prefix=f".{chapter}.out.")
    os.close(fd)
    error = None
    try:
        if not has_tag:
            raise ValueError(f"{source.name} has no cell tagged 'parameters' (# %% tags=[\"parameters\"])")
        nbformat.write(nb, tmp_in)
        papermill.execute_notebook(
            tmp_in,
            tmp_out,
            parameters=injected,
            kernel_name="python3",
            cwd=str(notebooks_dir()),
            progress_bar=False,
            log_output=False,
        )
        executed = nbformat.read(tmp_out, as_version=4)
        executed.metadata["papermill"]["input_path"] = f"notebooks/{chapter}.py"  # not the temporary file names
        executed.metadata["papermill"]["output_path"] = f"book/_generated/notebooks/{chapter}.ipynb"
        nbformat.write(executed, tmp_out)
        os.replace(tmp_out, out_dir / f"{chapter}.ipynb")
    except Exception as exc:  # papermill raises PapermillExecutionError with the cell's traceback
        error = f"{type(exc).__name__}: {exc}".strip()[:4000]
        failed_dir.mkdir(parents=True, exist_ok=True)
        if Path(tmp_out).exists() and Path(tmp_out).stat().st_size:
            os.replace(tmp_out, failed_dir / f"{chapter}.ipynb")
    finally:
        for tmp in (tmp_in, tmp_out):
            Path(tmp).unlink(missing_ok=True)
    chapter_dir = root / chapter
    outputs = {}
    data = {}
    provenance = chapter_dir / "provenance.json"
    if provenance.exists():
        records = json.loads(provenance.read_text())["artefacts"]
        for record in records.values():
            outputs.update(record["files"])
            data.update(record.get("data", {}))
    return ChapterRun(
        chapter=chapter,
        profile=profile,
        status="failed" if error else "ok",
        parameters=params,
        seed=params.get("seed"),
        duration_s=round(time.perf_counter() - start, 2),
        analysis_version=__version__,
        data=data,
        outputs=outputs if not error else {},
        error=error,
    )


def _write_manifest(root: Path, runs: list[ChapterRun]) -> Path:
    path = root / "manifest.json"
    previous = {}
    if path.exists():
        try:
            previous = {r["chapter"]: r for r in json.loads(path.read_text())["chapters"]}
        except (ValueError, KeyError):
            previous = {}
    for run in runs:
        previous[run.chapter] = asdict(run)
    payload = {"analysis_version": __version__, "chapters": [previous[k] for k in sorted(previous)]}
    text = json.dumps(payload, indent=2, sort_keys=True, default=str) + "\n"
    atomic_write(path, lambda tmp: Path(tmp).write_text(text))
    return path


def run(
    profile: str = "full",
    only: list[str] | None = None,
    jobs: int = 1,
    output_root: str | None = None,
    stream=sys.stderr,
) -> list[ChapterRun]:
    """Run the selected chapters (in parallel with ``jobs`` > 1), print progress, write the manifest."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {sorted(PROFILES)}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    chapters = discover(only)
    root = Path(output_root) if output_root else generated_dir()
    root.mkdir(parents=True, exist_ok=True)
    total = len(chapters)
    print(f"reproduce: {total} chapter(s), profile {profile!r}, {jobs} job(s)", file=stream, flush=True)
    runs: list[ChapterRun] = []

    def report(result: ChapterRun) -> None:
        runs.append(result)
        mark = "ok    " if result.status == "ok" else "FAILED"
        print(f"[{len(runs)}/{total}] {mark} {result.chapter} ({result.duration_s:.1f} s)", file=stream, flush=True)
        if result.error:
            print(f"        {result.error.splitlines()[0]}", file=stream, flush=True)

    if jobs == 1 or total == 1:
        for chapter in chapters:
            print(f"        running {chapter} ...", file=stream, flush=True)
            try:
                report(run_chapter(chapter, profile, str(root)))
            except Exception:  # a bug in the runner itself: still isolate the chapter
                report(_crashed(chapter, profile))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(run_chapter, c, profile, str(root)): c for c in chapters}
            for future in as_completed(futures):
                try:
                    report(future.result())
                except Exception:
                    report(_crashed(futures[future], profile))
    runs.sort(key=lambda r: chapters.index(r.chapter))
    manifest = _write_manifest(root, runs)
    print(f"manifest: {manifest}", file=stream, flush=True)
    return runs


def _crashed(chapter: str, profile: str) -> ChapterRun:
    return ChapterRun(chapter, profile, "failed", {}, None, 0.0, __version__, error=traceback.format_exc()[-4000:])
