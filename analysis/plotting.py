"""One look for every figure, and saving of figures and tables with their provenance.

Every chapter writes its artefacts under ``book/_generated/<chapter>/`` with stable names that say which paper item
they rebuild (``paired_fig1_example.png``, ``paired_table2_pairing.csv``). Next to them, ``provenance.json`` records
for each artefact the chapter's parameters, its seed, the checksums of the data it read and the package version.
Output bytes are deterministic, whatever the hash seed (``PYTHONHASHSEED``): SVGs carry no date and a fixed id
salt (also when :func:`set_theme` was not called), PNGs no timestamp, and ``provenance.json`` lists sets sorted.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from . import __version__
from .agreement import MECHANISM_LABELS as MECHANISM_LABELS
from .files import atomic_write, sha256_file
from .paths import output_root

MECHANISM_COLORS = {
    "mean": "#4C72B0",
    "median": "#DD8452",
    "bt": "#55A868",
    "elo": "#8172B3",
    "trueskill": "#937860",
}


#: the salt of the ids in saved SVGs (matplotlib's default is a random one per process)
SVG_HASHSALT = "analysis-compendium"


def set_theme() -> None:
    """The compendium's seaborn theme, with deterministic SVG output."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    matplotlib.rcParams.update(
        {
            "figure.dpi": 100,
            "savefig.dpi": 150,
            "savefig.bbox": "tight",
            "svg.hashsalt": SVG_HASHSALT,
            "svg.fonttype": "none",
        }
    )


def canonical(value):
    """``value`` as JSON with one spelling whatever the hash seed: sets and frozensets become sorted lists (their
    iteration order follows ``PYTHONHASHSEED``), tuples lists, mapping keys strings, numpy scalars and arrays
    Python numbers and lists; anything else is kept for ``json.dumps`` (``default=str``)."""
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, np.ndarray):
        return canonical(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


class Outputs:
    """The artefacts of one chapter run: ``Outputs(chapter, parameters, root=None)``.

    ``figure(fig, name)`` saves ``name.png`` and ``name.svg`` (and shows the figure); ``table(df, name)`` saves ``name.csv`` and returns the
    frame for display. Both record provenance in ``provenance.json`` in the chapter's folder.
    """

    def __init__(self, chapter: str, parameters: dict, root: str | os.PathLike | None = None, data: dict | None = None):
        self.chapter = chapter
        self.dir = output_root(root) / chapter
        self.dir.mkdir(parents=True, exist_ok=True)
        self.parameters = {k: v for k, v in parameters.items() if not k.startswith("_")}
        self.data = dict(data or {})
        self._records: dict[str, dict] = {}

    def _record(self, name: str, files: list[Path]) -> None:
        self._records[name] = {
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

    def figure(self, fig: plt.Figure, name: str, display: bool = True) -> None:
        """Save ``fig`` as PNG and SVG; with ``display`` (default) show it in the notebook at this point and close
        it, so that it appears once, where the call is."""
        paths = [self.dir / f"{name}.png", self.dir / f"{name}.svg"]
        atomic_write(paths[0], lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}))
        with matplotlib.rc_context({"svg.hashsalt": matplotlib.rcParams["svg.hashsalt"] or SVG_HASHSALT}):
            atomic_write(paths[1], lambda tmp: fig.savefig(tmp, format="svg",
                                                           metadata={"Date": None, "Creator": None}))
        self._record(name, paths)
        if display:
            from IPython.display import display as show_in_notebook

            show_in_notebook(fig)
            plt.close(fig)
        # nothing returned: as a cell's last expression it would print local paths into the book

    def table(self, frame: pd.DataFrame, name: str, index: bool = True) -> pd.DataFrame:
        path = self.dir / f"{name}.csv"
        atomic_write(path, lambda tmp: frame.to_csv(tmp, index=index, lineterminator="\n"))
        self._record(name, [path])
        return frame


def dodged_errorbars(ax, frame: pd.DataFrame, *, x: str, hue: str, y: str = "estimate", low: str = "low",
                     high: str = "high", colors: dict, labels: dict, kind: str = "line", width: float = 0.7):
    """Grouped estimates with their intervals: one group per ``x`` value (in order of appearance), one dodged
    series per ``hue`` value (in order of appearance), drawn as lines with markers (``kind="line"``, Fig. 3) or as
    bars (``kind="bar"``, Fig. 4); error bars from ``low`` to ``high``. Returns the x values in axis order."""
    if kind not in ("line", "bar"):
        raise ValueError(f"kind must be 'line' or 'bar', got {kind!r}")
    values = list(dict.fromkeys(frame[x]))
    hues = list(dict.fromkeys(frame[hue]))
    step = width / len(hues)
    for k, name in enumerate(hues):
        part = frame[frame[hue] == name]
        xs = np.array([values.index(v) for v in part[x]]) + (k - (len(hues) - 1) / 2) * step
        err = [part[y] - part[low], part[high] - part[y]]
        if kind == "bar":
            ax.bar(xs, part[y], width=step, color=colors[name], label=labels[name], yerr=err, capsize=2,
                   error_kw={"lw": 0.8})
        else:
            ax.errorbar(xs, part[y], yerr=err, fmt="-o", ms=4, capsize=2, color=colors[name], label=labels[name])
    ax.set_xticks(range(len(values)), [f"{v:g}" if isinstance(v, (int, float, np.number)) else str(v)
                                       for v in values])
    return values


#: the one mark of a missing value in the tables a reader sees (a NaN, a pandas NA, an empty cell)
MISSING = "—"
_SNAKE = re.compile(r"^[A-Za-z0-9.]+(?:_[A-Za-z0-9.]+)+$")


def show(frame: pd.DataFrame, digits: int = 3) -> None:
    """Display a table in a notebook for reading (the saved CSVs keep full precision): numbers rounded to
    ``digits``, whole-number float columns (counts after a mean or a median) as integers, no negative zeros,
    snake_case labels and values spaced, one missing-value mark (:data:`MISSING`), nothing truncated, and no
    row numbers when the index is only a row count."""
    from IPython.display import display

    display(styled(frame, digits))


def styled(frame: pd.DataFrame, digits: int = 3):
    """``frame`` as :func:`show` displays it: a pandas Styler over :func:`readable`."""
    out = readable(frame, digits)
    style = out.style.format(na_rep=MISSING, precision=digits, thousands=",")
    style = style.format_index(na_rep=MISSING, thousands=",", precision=digits)
    if isinstance(frame.index, pd.RangeIndex):
        style = style.hide(axis="index")
    return style


def readable(frame: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """``frame`` as :func:`show` displays it, before styling."""
    out = frame.round(digits)
    for column in out.columns:
        values = frame[column]  # whole before rounding: 0.0001 rounded to 0.0 is not a count
        if pd.api.types.is_float_dtype(values) and values.notna().any() and (values.dropna() % 1 == 0).all():
            out[column] = values.astype("Int64")
        elif pd.api.types.is_float_dtype(out[column]):
            out[column] = out[column] + 0.0  # -0.0 + 0.0 is 0.0: no negative zero after rounding
        elif out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            out[column] = out[column].map(_spaced_value)

    def spaced(label):
        return label.replace("_", " ") if isinstance(label, str) else label

    out = out.rename(columns=spaced)
    out.index = out.index.map(_spaced_value) if out.index.dtype == object else out.index
    out.index.names = [spaced(n) for n in out.index.names]
    out.columns.names = [spaced(n) for n in out.columns.names]
    return out


def _spaced_value(value):
    """A snake_case identifier shown as words (``remove_highest`` → ``remove highest``); other values unchanged."""
    return value.replace("_", " ") if isinstance(value, str) and _SNAKE.match(value) else value
