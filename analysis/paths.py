"""Where things live. The repository root is found from the ``ANALYSIS_ROOT`` environment variable, else by
walking up from the current directory to the folder that holds ``_toc.yml`` and ``analysis/``, else next to this
package (an editable install)."""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    env = os.environ.get("ANALYSIS_ROOT")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if (candidate / "_toc.yml").is_file() and (candidate / "analysis").is_dir():
            return candidate
    return Path(__file__).resolve().parent.parent


def notebooks_dir() -> Path:
    return repo_root() / "notebooks"


def generated_dir() -> Path:
    """``book/_generated``: everything the notebooks produce (git-ignored)."""
    return repo_root() / "book" / "_generated"


def scratch_dir() -> Path:
    """``scratch/``: artefacts of notebooks run by hand, outside the batch runner (git-ignored)."""
    return repo_root() / "scratch"


def raw_dir() -> Path:
    """``data/raw``: the fetched, verified upstream files (git-ignored)."""
    return repo_root() / "data" / "raw"


def processed_dir() -> Path:
    """``data/processed``: the tidy tables and the metric caches (git-ignored)."""
    return repo_root() / "data" / "processed"


def output_root(root: str | os.PathLike | None = None) -> Path:
    """Where a chapter's artefacts go: ``root`` if given (the batch runner passes the run's staging folder as the
    notebook's ``output_root`` parameter); else ``scratch/`` in the repository. So a notebook run by hand
    (papermill, Jupyter) never writes into ``book/_generated``, whose files only the runner replaces, all at once."""
    if root:
        return Path(root)
    return scratch_dir()
