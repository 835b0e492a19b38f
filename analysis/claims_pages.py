"""The claims pages: the front page's *Results at a glance*, each chapter's opening and its *What differs from the
paper, and why*, and the front page's verdict figure, from the table :func:`analysis.claims.evaluate` returns.

The pages' words are Jinja2 templates in ``book/templates/`` (``at_a_glance.md.j2``, ``chapter_opening.md.j2``,
``chapter_differences.md.j2`` and ``headlines.md.j2``, the headline claims told in sentences): this module hands them
rows, counts and the values the chapters recorded, never a sentence. A headline claim (``headline = true`` in the
registry) is told by the macro of ``headlines.md.j2`` named after its id (``-`` read as ``_``), on the front page and
at the top of its chapter alike.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from .claim_records import CATEGORIES, PAPERS, VERDICTS
from .files import write_if_changed
from .paths import generated_dir, repo_root
from .typography import for_table

#: the compendium's own findings test hypotheses, not published results: their verdicts read in these words on the
#: pages (``claims.csv`` keeps the one vocabulary of VERDICTS)
OWN_FINDINGS = "synthesis"
OWN_WORDS = {"reproduced": "holds", "reproduced in part": "holds in part", "not reproduced": "does not hold"}
#: the same words after a count of more than one ("3 hold")
PLURAL = {"holds": "hold", "holds in part": "hold in part", "does not hold": "do not hold"}
#: the glossary term each verdict word links to
TERMS = {"holds": "holds", "holds in part": "holds", "does not hold": "holds"}
#: the chapter of each paper, which the front page links
PAPER_CHAPTERS = {"paired": "02_real_setups", "wmt": "03_wmt_stability", "favi": "04_favoritism",
                  "gvp": "05_global_vs_pairwise", "synthesis": "06_synthesis"}
TEMPLATES = "book/templates"


class PageError(ValueError):
    """A claims page that cannot be written: a value, a claim or a headline's macro the templates name is missing."""


def verdict_words(verdict: str, paper: str, category: str | None = None) -> str:
    """How a verdict reads on the pages: the registry's word, or for the compendium's own findings (the synthesis,
    and a paper's records in the category "our own checks") :data:`OWN_WORDS`'."""
    own = paper == OWN_FINDINGS or category == "our own checks"
    return OWN_WORDS.get(verdict, verdict) if own else verdict


def verdict_term(word: str) -> str:
    """A verdict word linked to its glossary entry (MyST ``{term}``)."""
    term = TERMS.get(word, word)
    return f"{{term}}`{word}`" if term == word else f"{{term}}`{word} <{term}>`"


def _cell(text) -> str:
    return for_table(str(text).replace("|", "\\|").replace("\n", " "))


def _link(row, *, on_chapter_page: bool = False) -> str:
    """The claim's item linked to its section, or to its chapter from other pages (on its own chapter's page a
    claim without a section is plain text: a link to the page itself only jumps to the top)."""
    item = str(row["item"]).replace("|", "\\|")
    if row["section"]:
        return f"{{ref}}`{item} <{row['section']}>`"
    if on_chapter_page:
        return item
    return f"{{doc}}`{item} </book/_generated/notebooks/{row['chapter']}>`"


def _row(row: pd.Series, on_chapter_page: bool) -> dict:
    """One claim as the templates read it: its fields, its cells as printed, its verdict's word and term."""
    word = verdict_words(row["verdict"], row["paper"], row.get("category"))
    return {**row.to_dict(), "link": _link(row, on_chapter_page=on_chapter_page), "word": word,
            "term": verdict_term(word), "claim_cell": _cell(row["claim"]), "paper_cell": _cell(row["paper value"]),
            "ours_cell": _cell(row["our value"]), "rule_cell": _cell(row["rule"]), "reason_cell": _cell(row["reason"]),
            "data_cell": _cell(row.get("data") or ""), "share": _share(row.get("paper's share"))}


def _share(value):
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)


def counts(rows: pd.DataFrame) -> list[dict]:
    """Per category (:data:`CATEGORIES`, in order), its verdicts and how many claims each: ``[{"category": ...,
    "n": 7, "verdicts": [{"word": "reproduced", "term": ..., "n": 5}, ...]}]``."""
    out = []
    for name in CATEGORIES:
        group = rows[rows.category == name] if "category" in rows else rows.iloc[:0]
        if not len(group):
            continue
        found = group.verdict.value_counts()
        verdicts = []
        for v in VERDICTS:
            if v in found:
                word = verdict_words(v, group.paper.iloc[0], name)
                n = int(found[v])
                shown = PLURAL.get(word, word) if n != 1 else word
                verdicts.append({"word": word, "term": verdict_term(word) if shown == word else
                                 f"{{term}}`{shown} <{TERMS.get(word, word)}>`", "n": n, "verdict": v})
        out.append({"category": name, "n": len(group), "verdicts": verdicts})
    return out


class _Values:
    """The values the chapters recorded (``<chapter>/claim_values.csv``), for the headline templates: ``value(chapter,
    key, detail)`` is the number (``low``/``high`` with ``column=``); a missing one is an error naming it, so a
    template never prints an empty place. ``recorded(chapter, key, detail)`` says whether the chapter recorded it:
    for a clause that only a run with some parameter values supports (chapter 02's second tie rule)."""

    def __init__(self, outputs: Path):
        self.outputs, self.frames = outputs, {}

    def _frame(self, chapter: str):
        if chapter not in self.frames:
            path = self.outputs / chapter / "claim_values.csv"
            self.frames[chapter] = pd.read_csv(path, keep_default_na=False) if path.is_file() else None
        return self.frames[chapter]

    def recorded(self, chapter: str, key: str, detail: str = "") -> bool:
        frame = self._frame(chapter)
        return frame is not None and bool(((frame.key == key) & (frame.detail.astype(str) == detail)).any())

    def __call__(self, chapter: str, key: str, detail: str = "", column: str = "value"):
        frame = self._frame(chapter)
        if frame is None:
            raise PageError(f"{chapter}/claim_values.csv is missing (a headline needs {key!r})")
        hit = frame[(frame.key == key) & (frame.detail.astype(str) == detail)]
        if len(hit) != 1:
            raise PageError(f"{chapter}/claim_values.csv holds {len(hit)} rows for key {key!r}, detail {detail!r} (a "
                            "headline reads one)")
        return float(hit.iloc[0][column])


def _pct(value, decimals: int = 0) -> str:
    return "—" if value is None or math.isnan(value) else f"{value:.{decimals}%}"


def _num(value, fmt: str = ",.0f") -> str:
    text = "—" if value is None or math.isnan(value) else format(value, fmt)
    return for_table(text)


def environment():
    """The Jinja2 environment of the claims pages: templates from ``book/templates``, undefined names an error."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(repo_root() / TEMPLATES),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, autoescape=False)
    env.filters.update(pct=_pct, num=_num)
    return env


def _context(table: pd.DataFrame, outputs: Path | None, *, on_chapter_page: bool = False) -> dict:
    rows = {r["id"]: _row(r, on_chapter_page) for _, r in table.iterrows()}

    def claim(cid: str) -> dict:
        if cid not in rows:
            raise PageError(f"the headlines name claim {cid!r}, which is not in the claims table")
        return rows[cid]

    values = _Values(outputs or generated_dir())
    return {"claim": claim, "value": values, "recorded": values.recorded}


def headline_macro(cid: str) -> str:
    """The name of the macro of ``headlines.md.j2`` that tells headline claim ``cid``."""
    return cid.replace("-", "_").replace(".", "_")


def at_a_glance(table: pd.DataFrame, profile: str | None = None, outputs: Path | None = None) -> str:
    """The front page's summary: per paper, its verdicts counted by category and its headline claims told."""
    papers = []
    for paper, title in PAPERS.items():
        rows = table[table.paper == paper]
        if len(rows):
            papers.append({"key": paper, "title": title, "n": len(rows), "counts": counts(rows),
                           "chapter": PAPER_CHAPTERS[paper],
                           "headlines": [headline_macro(c) for c in rows[rows.headline.astype(bool)].id]})
    return environment().get_template("at_a_glance.md.j2").render(
        profile=profile, papers=papers, **_context(table, outputs))


def chapter_opening(table: pd.DataFrame, chapter: str, outputs: Path | None = None) -> str:
    """A chapter's opening: its verdicts counted, its headline claims told, every claim in a drop-down table."""
    rows = table[table.chapter == chapter]
    context = _context(table, outputs, on_chapter_page=True)
    return environment().get_template("chapter_opening.md.j2").render(
        n=len(rows), counts=counts(rows), own=bool(len(rows)) and set(rows.paper) == {OWN_FINDINGS},
        headlines=[headline_macro(c) for c in rows[rows.headline.astype(bool)].id],
        rows=[context["claim"](c) for c in rows.id], **context)


def chapter_differences(table: pd.DataFrame, chapter: str) -> str:
    """A chapter's "What differs": every claim not reproduced in full, with its reason, grouped by category and
    verdict."""
    rows = table[(table.chapter == chapter) & (table.verdict != "reproduced")]
    groups = []
    for cat in CATEGORIES:
        in_cat = rows[rows.category == cat]
        for name in VERDICTS:
            group = in_cat[in_cat.verdict == name]
            if len(group):
                word = verdict_words(name, group.paper.iloc[0], cat)
                groups.append({"category": cat, "word": word, "term": verdict_term(word), "n": len(group),
                               "own": set(group.paper) == {OWN_FINDINGS},
                               "rows": [_row(r, True) for _, r in group.iterrows()]})
    return environment().get_template("chapter_differences.md.j2").render(groups=groups)


#: the segments of the front page's figure (:func:`verdict_figure`), in drawing order: (category, verdict, legend
#: label, colour, hatch); the compendium's own checks are drawn apart, right of the papers' claims
FIGURE_SEGMENTS = (
    ("the paper's data", "reproduced", "reproduced", "#1b7837", None),
    ("the paper's data", "reproduced in part", "reproduced in part", "#a6dba0", None),
    ("the paper's data", "not reproduced", "not reproduced", "#d6604d", None),
    ("the paper's data", "paper inconsistent", "paper inconsistent", "#762a83", None),
    ("the paper's simulation", "reproduced", "reproduced", "#1b7837", "..."),
    ("the paper's simulation", "reproduced in part", "reproduced in part", "#a6dba0", "..."),
    ("the paper's simulation", "not reproduced", "not reproduced", "#d6604d", "..."),
    ("stand-in data", "reproduced", "reproduced", "#5aae61", "///"),
    ("stand-in data", "reproduced in part", "reproduced in part", "#d9f0d3", "///"),
    ("stand-in data", "not reproduced", "not reproduced", "#f4a582", "///"),
    ("not testable here", "not testable here", "not testable here", "#bababa", None),
    ("our own checks", "reproduced", "holds", "#2166ac", None),
    ("our own checks", "reproduced in part", "holds in part", "#92c5de", None),
    ("our own checks", "not reproduced", "does not hold", "#fdb863", None),
)
#: the figure's file name (PNG and SVG) beside ``at_a_glance.md``
FIGURE_NAME = "verdicts_by_category"
_DARK = {"#1b7837", "#762a83", "#2166ac"}
_LEGEND_GROUPS = {"the paper's data": "paper's data: ", "the paper's simulation": "paper's simulation: ",
                  "stand-in data": "stand-in data: ", "our own checks": "our check: "}


def verdict_figure(table: pd.DataFrame):
    """The front page's figure: one horizontal bar per paper, its claims counted by category and verdict
    (:data:`FIGURE_SEGMENTS`): the paper's data, its simulation rerun (dotted), stand-in data (hatched), not testable
    here; the compendium's own checks apart, in a panel of their own on the right. A matplotlib Figure (no pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    papers = [p for p in PAPERS if (table.paper == p).any()]
    counted = {p: {(c, v): int(((table.paper == p) & (table.category == c) & (table.verdict == v)).sum())
                   for c, v, *_ in FIGURE_SEGMENTS} for p in papers}
    widths = {p: {own: sum(n for (c, _), n in counted[p].items() if (c == "our own checks") == own)
                  for own in (False, True)} for p in papers}
    theirs = max([widths[p][False] for p in papers] + [1])
    own_width = max([widths[p][True] for p in papers] + [0])
    height = 0.5 * len(papers) + 2.4
    fig = Figure(figsize=(7.4, height))
    FigureCanvasAgg(fig)
    panels = [theirs] + ([max(own_width, 0.18 * theirs)] if own_width else [])
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False, gridspec_kw={"width_ratios": panels})[0]
    for ax, own, title in zip(axes, (False, True), ("the papers' claims", "our own checks")):
        for row, paper in enumerate(papers):
            left = 0
            for cat, verdict, _, colour, hatch in FIGURE_SEGMENTS:
                n = counted[paper][(cat, verdict)]
                if not n or (cat == "our own checks") != own:
                    continue
                ax.barh(row, n, left=left, height=0.62, color=colour, edgecolor="white", linewidth=0.8, hatch=hatch)
                if n >= 2:
                    ax.text(left + n / 2, row, str(n), ha="center", va="center", fontsize=9,
                            color="white" if colour in _DARK else "black")
                left += n
        ax.set_title(title, fontsize=10)
        ax.set_xlim(0, (own_width if own else theirs) + 0.5)
        ax.set_xlabel("claims", fontsize=10)
        ax.tick_params(axis="x", labelsize=9)
        ax.tick_params(axis="y", length=0)
        ax.grid(False)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    axes[0].set_yticks(range(len(papers)), [PAPERS[p].replace(" (beyond the papers)", "") for p in papers],
                       fontsize=10)
    axes[0].invert_yaxis()
    handles = [Patch(facecolor=colour, edgecolor="white", hatch=hatch, label=_LEGEND_GROUPS.get(cat, "") + label)
               for cat, _, label, colour, hatch in FIGURE_SEGMENTS]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=9, frameon=False, handlelength=1.6,
               columnspacing=1.0)
    fig.tight_layout(rect=(0, 1.45 / height, 1, 1))
    return fig


def figure_files(table: pd.DataFrame) -> tuple[bytes, bytes]:
    """The figure (:func:`verdict_figure`) as PNG and SVG bytes (:func:`analysis.plotting.figure_files`: the same
    bytes on every run, and legible in the book's text column, else a ValueError)."""
    import matplotlib
    import matplotlib.pyplot as plt

    from . import plotting

    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig = verdict_figure(table)
        files = plotting.figure_files(fig, FIGURE_NAME)
    plt.close(fig)
    return files


def write(table: pd.DataFrame, outputs: str | Path | None = None, profile: str | None = None) -> list[Path]:
    """Write ``claims.csv`` and the pages (``claims/at_a_glance.md``, ``claims/<chapter>.md`` and
    ``claims/<chapter>_differs.md``) and the front page's figure (``claims/verdicts_by_category.png`` and ``.svg``)
    under ``outputs``, each atomically and only when its bytes change; every page is rendered before anything is
    written. Returns the paths."""
    import jinja2

    outputs = Path(outputs) if outputs else generated_dir()
    try:
        pages = {outputs / "claims" / "at_a_glance.md": at_a_glance(table, profile, outputs)}
        for chapter in sorted(set(table.chapter)):
            pages[outputs / "claims" / f"{chapter}.md"] = chapter_opening(table, chapter, outputs)
            pages[outputs / "claims" / f"{chapter}_differs.md"] = chapter_differences(table, chapter)
    except jinja2.TemplateError as exc:  # a macro or a name the templates use is missing
        raise PageError(f"{TEMPLATES}: {exc}") from exc
    figures = dict(zip((outputs / "claims" / f"{FIGURE_NAME}.png", outputs / "claims" / f"{FIGURE_NAME}.svg"),
                       figure_files(table)))
    files = {outputs / "claims.csv": table.to_csv(index=False), **pages, **figures}
    for path, content in files.items():  # an unchanged page keeps its time, so Sphinx does not read it again
        write_if_changed(path, content)
    return list(files)
