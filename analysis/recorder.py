"""The recorder every chapter writes through: :class:`Outputs` saves a chapter's figures and tables under
``book/_generated/<chapter>/`` with their provenance (``provenance.json``: the chapter's parameters, its seed, the
checksums of the data it read and the package version), and records the values its claims read
(:meth:`Outputs.value`, the chapter's ``claim_values.csv``); :func:`glue_values` glues values for the page's text
(MyST-NB). Figures are rendered and checked for legibility by :mod:`analysis.plotting`."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from . import __version__
from .files import atomic_write, sha256_file
from .paths import output_root
from .plotting import canonical, figure_files


class Outputs:
    """The artefacts of one chapter run: ``Outputs(chapter, parameters, root=None)``.

    ``figure(fig, name)`` saves ``name.png`` and ``name.svg`` (and shows the figure); ``table(df, name)`` saves
    ``name.csv`` and returns the frame for display. Both record provenance in ``provenance.json`` in the chapter's
    folder.
    """

    def __init__(self, chapter: str, parameters: dict, root: str | os.PathLike | None = None, data: dict | None = None):
        self.chapter = chapter
        self.dir = output_root(root) / chapter
        self.dir.mkdir(parents=True, exist_ok=True)
        self.parameters = {k: v for k, v in parameters.items() if not k.startswith("_")}
        self.data = dict(data or {})
        self._records: dict[str, dict] = {}
        self._claim_values: list[tuple] = []

    def _record(self, name: str, files: list[Path], **extra) -> None:
        self._records[name] = {**extra,
            "files": {p.name: sha256_file(p) for p in files},
            "parameters": self.parameters,
            "seed": self.parameters.get("seed"),
            "data": self.data,
            "analysis_version": __version__,
        }
        target = self.dir / "provenance.json"
        record = canonical({"chapter": self.chapter, "artefacts": self._records})
        payload = json.dumps(record, indent=2, sort_keys=True, default=str)
        atomic_write(target, lambda tmp: Path(tmp).write_text(payload + "\n"))

    def figure(self, fig: plt.Figure, name: str, *, legible: bool = True) -> None:
        """Save ``fig`` as ``name.png`` and ``name.svg``, glue the PNG for the page under ``name``, and close the
        figure. The caption is the notebook's markdown: a ``glue:figure`` directive pastes the figure there,
        numbered and labelled ``name`` (``{numref}`name``` links to it), with its caption and glued numbers::

            ```{glue:figure} paired_table3_disagree
            :name: paired_table3_disagree
            :figclass: compendium-figure
            :alt: Table 3's Disagree cells as a heat map

            Table 3's *Disagree* cells ... {glue:text}`t3-draws:,` test sets ...
            ```

        (``tests/test_glue_keys.py`` checks that every saved figure has one, with a caption and alt text.)

        With ``legible`` (default) a figure whose text would be shown smaller than :data:`MIN_TEXT_PX` in the
        book's text column, or that would be shrunk below :data:`MIN_SHOWN_SHARE` of its width, is refused with a
        ValueError naming the text, before anything is written."""
        png, svg = figure_files(fig, name, legible=legible)
        paths = [self.dir / f"{name}.png", self.dir / f"{name}.svg"]
        for path, payload in zip(paths, (png, svg)):
            atomic_write(path, lambda tmp, payload=payload: Path(tmp).write_bytes(payload))
        self._record(name, paths)
        if _in_notebook():
            from IPython.display import Image
            from myst_nb import glue

            glue(name, Image(data=png, format="png"), display=False)
        plt.close(fig)
        # nothing returned: as a cell's last expression it would print local paths into the book

    def download(self, name: str, text: str | None = None) -> str:
        """A MyST ``{download}`` link to the saved file ``name`` (``.csv`` when no suffix is given), for a sentence
        in the page: the book copies the file and the reader gets it with a click. The path is relative to the
        chapter's notebook as the book holds it (``notebooks/`` beside the chapters' output folders)."""
        file = self.dir / (name if Path(name).suffix else f"{name}.csv")
        if not file.is_file():
            raise FileNotFoundError(f"{file.name} has not been saved by this chapter; save it before linking it")
        return f"{{download}}`{text or file.name} <../{self.chapter}/{file.name}>`"

    def table(self, frame: pd.DataFrame, name: str, index: bool = True) -> pd.DataFrame:
        path = self.dir / f"{name}.csv"
        atomic_write(path, lambda tmp: frame.to_csv(tmp, index=index, lineterminator="\n"))
        self._record(name, [path])
        return frame

    def value(self, key: str, value=None, *, detail: str = "", holds: bool | None = None, low=None,
              high=None) -> None:
        """Record one value for the claims registry: a number (``value``), the outcome of a stated test
        (``holds``), or both (the number the test read), with its interval (``low``, ``high``) when it has one,
        which the pages show beside it. This is the one hand-off from a chapter to its claims:
        every value lands in the chapter's :data:`CLAIM_VALUES` file (:data:`CLAIM_VALUE_COLUMNS`), which a claim
        reads with ``source = "claim_values.csv"`` and ``rows = { key = ..., detail = ... }``. A value without a
        ``detail`` is also glued for the page's text as ``value-<key>`` (``{glue:text}`value-<key>:.1%```). A
        (key, detail) recorded twice, an empty key, a value that is not a real number, or a ``holds`` that is not a
        boolean is refused with a ValueError naming the key."""
        self.values([{"key": key, "detail": detail, "value": value, "low": low, "high": high, "holds": holds}])

    def values(self, rows) -> None:
        """Record many values at once (:meth:`value`): a mapping ``{key: number, boolean or (number, boolean)}`` (a
        boolean is a test's outcome, a pair the number the test read and its outcome), or a table (or list of dicts)
        with a ``key`` column and any of ``detail``, ``value``, ``low``, ``high`` and ``holds``."""
        if isinstance(rows, Mapping):
            if bad := [k for k, v in rows.items() if isinstance(v, tuple) and len(v) != 2]:
                raise ValueError(f"claim values {bad}: a tuple must be (number, holds)")
            rows = [{"key": k, "value": v[0], "holds": v[1]} if isinstance(v, tuple)
                    else {"key": k, "holds": v} if isinstance(v, (bool, np.bool_)) else {"key": k, "value": v}
                    for k, v in rows.items()]
        frame = pd.DataFrame(rows)
        if "key" not in frame:
            raise ValueError("claim values need a 'key' column")
        unknown = sorted(set(frame.columns) - set(CLAIM_VALUE_COLUMNS))
        if unknown:
            raise ValueError(f"claim values: unknown columns {unknown} (only {CLAIM_VALUE_COLUMNS})")
        frame = frame.reindex(columns=CLAIM_VALUE_COLUMNS)
        frame["detail"] = ["" if pd.isna(d) else str(d) for d in frame["detail"]]
        new = [_claim_value_row(*row) for row in frame.itertuples(index=False)]
        seen = {(r[0], r[1]) for r in self._claim_values}
        for row in new:
            if (row[0], row[1]) in seen:
                raise ValueError(f"claim value {row[0]!r}" + (f" ({row[1]!r})" if row[1] else "")
                                 + " is recorded twice")
            seen.add((row[0], row[1]))
        self._claim_values += new
        path = self.dir / CLAIM_VALUES
        table = pd.DataFrame(self._claim_values, columns=CLAIM_VALUE_COLUMNS)
        atomic_write(path, lambda tmp: table.to_csv(tmp, index=False, lineterminator="\n"))
        self._record(path.stem, [path])
        glue_values({f"value-{k}": h if np.isnan(v) else v for k, d, v, _, _, h in new if not d})


#: the file of a chapter's values for the claims registry (:meth:`Outputs.value`), and its columns
CLAIM_VALUES = "claim_values.csv"
CLAIM_VALUE_COLUMNS = ["key", "detail", "value", "low", "high", "holds"]


def _claim_value_row(key, detail, value, low, high, holds) -> tuple:
    """One checked row of :data:`CLAIM_VALUES`: ``(key, detail, value, low, high, holds)``, the numbers as floats
    (NaN when absent: ``low`` and ``high`` are the value's interval, when it has one), ``holds`` a bool or None."""
    if not isinstance(key, str) or not key.strip():
        raise ValueError(f"a claim value needs a non-empty key, not {key!r}")
    label = repr(key) + (f" ({detail!r})" if detail else "")
    numbers = []
    for name, number in (("value", value), ("low", low), ("high", high)):
        if number is None or (isinstance(number, float) and np.isnan(number)):
            number = np.nan
        elif (isinstance(number, (bool, np.bool_)) or not isinstance(number, (int, float, np.integer, np.floating))
              or np.isinf(number)):
            raise ValueError(f"claim value {label}: {name} must be a finite real number, not {number!r}")
        numbers.append(float(number))
    if holds is None or (isinstance(holds, float) and np.isnan(holds)):
        holds = None
    elif not isinstance(holds, (bool, np.bool_)):
        raise ValueError(f"claim value {label}: holds must be True, False or None, not {holds!r}")
    return key, detail, *numbers, None if holds is None else bool(holds)


def glue_values(values: Mapping) -> None:
    """Glue each of ``values`` for the page's text under its key (MyST-NB ``glue``): a number as itself
    (``{glue:text}`key:.1%```), a string, such as a list of names, as Markdown (``{glue:md}`key```). Write each key
    in full, as the page uses it, so that a search for a page's key finds the code that glues it
    (``tests/test_glue_keys.py``). Outside an IPython kernel (a script, a test) there is no page: nothing is
    glued."""
    if not values or not _in_notebook():
        return
    from IPython.display import Markdown
    from myst_nb import glue

    for key, value in values.items():
        glue(key, Markdown(value) if isinstance(value, str) else value, display=False)


def _in_notebook() -> bool:
    """Whether this runs in an IPython kernel, where glued values reach the page."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None
