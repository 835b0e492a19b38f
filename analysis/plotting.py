"""One look for every figure: the theme, rendering to deterministic PNG and SVG bytes, the legibility checks a
figure must pass in the book's text column, and tables for people (:func:`show`). Output bytes are deterministic,
whatever the hash seed (``PYTHONHASHSEED``): SVGs carry no date and a fixed id salt (also when :func:`set_theme` was
not called), PNGs no timestamp. Saving a chapter's artefacts with their provenance is :mod:`analysis.recorder`'s
job."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import struct

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from .agreement import MECHANISM_LABELS as MECHANISM_LABELS
from .typography import MINUS as MINUS
from .typography import for_table, true_minus

MECHANISM_COLORS = {
    "mean": "#4C72B0",
    "median": "#DD8452",
    "bt": "#55A868",
    "elo": "#8172B3",
    "trueskill": "#937860",
}


#: the salt of the ids in saved SVGs (matplotlib's default is a random one per process)
SVG_HASHSALT = "analysis-compendium"

#: the width of the book's text column in CSS px (sphinx-book-theme at a 1,400 px window, measured in Chromium by
#: the browser test); the theme shows an image at its natural size up to this width and scales wider ones down to it
CONTENT_PX = 768
#: the smallest text a reader is shown, in CSS px, once a figure is scaled to the text column
MIN_TEXT_PX = 9.0
#: a figure is not to be shown at less than this share of its natural width (wider ones are re-laid out instead)
MIN_SHOWN_SHARE = 0.55


#: the resolution of the saved PNGs (the book shows these files)
SAVE_DPI = 150


def set_theme() -> None:
    """The compendium's seaborn theme, with deterministic SVG output."""
    sns.set_theme(context="notebook", style="whitegrid", palette="colorblind")
    matplotlib.rcParams.update(
        {
            "figure.dpi": 100,
            "savefig.dpi": SAVE_DPI,
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


def figure_files(fig: plt.Figure, name: str, *, legible: bool = True) -> tuple[bytes, bytes]:
    """``fig`` as PNG and SVG bytes, the same on every run (no date, no software tag, a fixed SVG id salt unless one
    is set). With ``legible`` (default) a figure whose text would be shown smaller than :data:`MIN_TEXT_PX` in the
    book's text column, or shrunk below :data:`MIN_SHOWN_SHARE` of its width, is closed and refused with a
    ValueError naming ``name`` and the text (:func:`legibility_problems`)."""
    png, problems = render_for_page(fig)
    if legible and problems:
        plt.close(fig)
        raise ValueError(f"figure {name!r} is not legible in the book's {CONTENT_PX} px text column: "
                         + "; ".join(problems) + ". Re-lay it out (fewer panels per row, stacked, or split) rather "
                         "than shrink it.")
    with matplotlib.rc_context({"svg.hashsalt": matplotlib.rcParams["svg.hashsalt"] or SVG_HASHSALT}):
        svg = _render(fig, "svg", metadata={"Date": None, "Creator": None})
    return png, svg


def _render(fig: plt.Figure, fmt: str, **kwargs) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=SAVE_DPI, bbox_inches="tight", **kwargs)
    return buffer.getvalue()


def render_for_page(fig: plt.Figure) -> tuple[bytes, list[str]]:
    """``fig`` as the PNG the book shows (no timestamp) and the reasons it could not be read there
    (:func:`legibility_problems`; empty when it can)."""
    png = _render(fig, "png", metadata={"Software": None})
    return png, legibility_problems(fig, png_width(png))


def png_width(png: bytes) -> int:
    """The width in pixels of a PNG, from its header."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    return struct.unpack(">I", png[16:20])[0]


def shown_text_px(fig: plt.Figure, natural_width: int) -> list[tuple[str, float]]:
    """Each visible text of ``fig`` with its height in CSS px once its PNG (``natural_width`` px wide, drawn at
    :data:`SAVE_DPI`) is shown in the book's text column: the theme shows an image at its natural size and
    scales a wider one down to :data:`CONTENT_PX`."""
    scale = min(1.0, CONTENT_PX / natural_width)
    fig.canvas.draw()  # lay out tick labels, legends and graph labels as saved
    texts = []
    for text in _drawn_texts(fig):
        if text.get_text().strip():
            texts.append((text.get_text(), text.get_fontsize() * SAVE_DPI / 72 * scale))
    return texts


def _drawn_texts(artist):
    """The texts under ``artist`` that are drawn: visible, under visible parents, not on a switched-off axis."""
    if not artist.get_visible():
        return
    if isinstance(artist, matplotlib.text.Text):
        yield artist
    children = artist.get_children()
    if isinstance(artist, matplotlib.axes.Axes) and not artist.axison:
        children = [c for c in children if not isinstance(c, matplotlib.axis.Axis)]
    for child in children:
        yield from _drawn_texts(child)


def legibility_problems(fig: plt.Figure, natural_width: int) -> list[str]:
    """Why ``fig`` (saved ``natural_width`` px wide) cannot be read in the book's text column: texts shown
    smaller than :data:`MIN_TEXT_PX`, the smallest first, and a width the column shrinks below
    :data:`MIN_SHOWN_SHARE`. Empty when it can be read."""
    problems = []
    if CONTENT_PX / natural_width < MIN_SHOWN_SHARE:
        problems.append(f"it is {natural_width} px wide and would be shown at {CONTENT_PX / natural_width:.0%} "
                        f"(at least {MIN_SHOWN_SHARE:.0%}: at most {CONTENT_PX / MIN_SHOWN_SHARE:.0f} px, "
                        f"{CONTENT_PX / MIN_SHOWN_SHARE / SAVE_DPI:.1f} in)")
    small = {}
    for text, px in shown_text_px(fig, natural_width):
        if px < MIN_TEXT_PX:
            small[text[:40]] = min(px, small.get(text[:40], px))
    if small:
        listed = sorted(small, key=small.get)
        problems.append(f"{len(small)} distinct texts would be shown {min(small.values()):.1f}-"
                        f"{max(small.values()):.1f} px tall (at least {MIN_TEXT_PX:g}): "
                        + ", ".join(repr(t) for t in listed[:8]) + (", ..." if len(listed) > 8 else ""))
    return problems


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
    ``digits``, whole-number float columns (counts after a mean or a median) as integers, no negative zeros, a true
    minus sign (−), snake_case labels and values spaced, one missing-value mark (:data:`MISSING`), nothing
    truncated, no row numbers when the index is only a row count, and one header row (the row labels' names sit in
    it, not in a row of their own)."""
    from IPython.display import display

    display(styled(frame, digits))


def styled(frame: pd.DataFrame, digits: int = 3):
    """``frame`` as :func:`show` displays it: a pandas Styler over :func:`readable`."""
    out = readable(frame, digits)
    named_rows = any(name is not None for name in out.index.names)
    if out.columns.nlevels > 1:
        # grouped columns: the levels' names would take the row-label column of the header; the groups say enough
        out.columns = out.columns.set_names([None] * out.columns.nlevels)
    if named_rows and (out.index.nlevels > 1 or out.columns.nlevels > 1):
        out = _levels_as_columns(out)
    elif out.index.name is not None and out.columns.name is None:
        # Styler writes a named index in a header row of its own; the columns' name sits in the header row itself
        out.columns.name, out.index.name = out.index.name, None

    def number(value):
        if isinstance(value, (float, np.floating)):
            if not np.isfinite(value):
                return MISSING if np.isnan(value) else str(value)
            text = f"{value:,.{digits}f}"
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            text = f"{value:,}"
        else:
            return MISSING if value is None or value is pd.NA else value
        return true_minus(text)

    style = out.style.format(number, na_rep=MISSING)
    style = style.format_index(number, na_rep=MISSING)
    # the cells' CSS ids from the table itself, not pandas' random uuid: the same table renders to the same bytes
    style = style.set_uuid(hashlib.sha256(out.to_csv().encode()).hexdigest()[:8])
    if isinstance(out.index, pd.RangeIndex):
        style = style.hide(axis="index")
    return style


def _levels_as_columns(out: pd.DataFrame) -> pd.DataFrame:
    """A table with a named multi-level row index as plain columns headed by the level names (Styler would give
    the names a header row of their own), an outer label written once for the run of rows it spans."""
    flat = out.reset_index()
    depth = out.columns.nlevels
    keys = [name if depth == 1 else (name,) + ("",) * (depth - 1) for name in out.index.names]  # their columns
    for k, key in enumerate(keys[:-1]):
        level = flat[keys[: k + 1]].astype(str).agg("\x1f".join, axis=1)
        flat[key] = flat[key].astype(object).where(level.ne(level.shift()), "")
    flat.columns = [("" if c is None else c) for c in flat.columns] if depth == 1 else flat.columns
    return flat


def readable(frame: pd.DataFrame, digits: int = 3) -> pd.DataFrame:
    """``frame`` as :func:`show` displays it, before styling. A whole-number float column is a count and shown as
    integers, unless all its values lie in [0, 1] (a share or a probability that happens to be 0 or 1)."""
    out = frame.round(digits)
    for column in out.columns:
        values = frame[column]  # whole before rounding: 0.0001 rounded to 0.0 is not a count
        if (pd.api.types.is_float_dtype(values) and values.notna().any() and (values.dropna() % 1 == 0).all()
                and not values.dropna().between(0, 1).all()):
            out[column] = values.astype("Int64")
        elif pd.api.types.is_float_dtype(out[column]):
            out[column] = out[column] + 0.0  # -0.0 + 0.0 is 0.0: no negative zero after rounding
        elif out[column].dtype == object or pd.api.types.is_string_dtype(out[column]):
            # a column of mixed cells (words, counts, shares) keeps each cell's own type: a count stays an integer
            out[column] = pd.Series([_cell(v, digits) for v in out[column]], index=out.index, dtype=object)

    def spaced(label):
        return for_table(label.replace("_", " ")) if isinstance(label, str) else label

    out = out.rename(columns=spaced)
    if out.index.dtype == object or pd.api.types.is_string_dtype(out.index):
        out.index = out.index.map(_spaced_value)
    out.index.names = [spaced(n) for n in out.index.names]
    out.columns.names = [spaced(n) for n in out.columns.names]
    return out


def _spaced_value(value):
    """A snake_case identifier shown as words (``remove_highest`` → ``remove highest``); other values unchanged."""
    return value.replace("_", " ") if isinstance(value, str) and _SNAKE.match(value) else value


def _cell(value, digits: int):
    """One cell of a mixed column as a reader sees it: a float rounded (no negative zero), a word spaced."""
    if isinstance(value, (float, np.floating)) and not isinstance(value, bool):
        return round(float(value), digits) + 0.0
    if isinstance(value, str):  # a number written as text ("-0.23", "-0.250 to -0.233") gets the true minus too
        return for_table(_spaced_value(value))
    return _spaced_value(value)
