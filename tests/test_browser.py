"""The book in a real browser (DESIGN.md, "The book as a reader sees it"): the suite's one quick-profile run, compiled
into a book, read page by page in Debian's Chromium. Every page loads with no console error and no request leaving
loopback, every image loads and is shown at no less than 55% of its width inside a numbered, captioned figure with
alt text, no table is wider than the text column or headed by code names, no page shows a traceback, raw LaTeX or a raw missing value (NaN, <NA>), every internal link resolves, the
search finds each chapter, and a screenshot of every page is saved under ``_build/screenshots/`` beside the HTML."""

import re

import pytest

from tests import browser

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(browser.CHROMIUM is None, reason="Debian's chromium is not installed "
                                 "(`apt-get install chromium`; .ci/run installs it, so CI always runs this test)")]


@pytest.fixture(scope="module")
def book(quick_html):
    html, result = quick_html
    assert result.returncode == 0, "the book did not build (see test_book_builds_with_warnings_as_errors)"
    pages = browser.read_book(html, html.parent / "screenshots")
    return html, pages


def test_every_page_loads_offline_without_a_console_error(book):
    html, pages = book
    assert len(pages) >= 9, [p.path for p in pages]  # the front page, the chapters, reproducibility, bibliography
    for page in pages:
        assert page.title, f"{page.path}: no title"
        assert not page.console_errors, f"{page.path}: console errors {page.console_errors[:3]}"
        assert not page.outside_requests, f"{page.path}: requests leaving loopback {page.outside_requests[:3]}"
        assert not page.failed_requests, f"{page.path}: failed requests {page.failed_requests[:3]}"
        assert not page.bad_responses, f"{page.path}: {page.bad_responses[:3]}"


def test_code_is_behind_a_toggle_except_in_the_your_own_scores_chapter(book):
    _, pages = book
    chapters = {p.path.rsplit("/", 1)[-1]: p.visible_code for p in pages if "/notebooks/" in p.path}
    assert chapters.pop("09_your_own_scores.html") > 0
    assert chapters and not any(chapters.values()), chapters


def test_every_image_loads(book):
    _, pages = book
    images = [(page.path, image) for page in pages for image in page.images]
    assert len(images) >= 30
    broken = [(path, image["src"]) for path, image in images if not image["complete"] or not image["natural"]]
    assert not broken, broken


def test_every_image_is_shown_at_no_less_than_55_percent_of_its_width(book):
    """Wide figures are re-laid out for the text column, not shrunk (Outputs.figure refuses them too)."""
    _, pages = book
    shrunk = [(page.path, image["src"].rsplit("/", 1)[-1], round(image["shown"] / image["natural"], 2))
              for page in pages for image in page.images
              if image["natural"] and image["shown"] < 0.55 * image["natural"]]
    assert not shrunk, shrunk


def test_every_figure_is_numbered_and_captioned_with_alt_text(book):
    _, pages = book
    for page in pages:
        for image in page.images:
            name = image["src"].rsplit("/", 1)[-1]
            assert re.match(r"Figure \d+\.\d+\s+\S", image["caption"]), (
                f"{page.path}: {name} has no caption numbered in its chapter (Figure N.k)")
            assert len(image["alt"]) > 15 and not re.search(r"\.(png|svg)$|^_images/", image["alt"]), (
                f"{page.path}: {name}'s alt text is {image['alt']!r}")


def test_no_table_is_wider_than_the_text_column(book):
    """A reader never scrolls a table sideways: a wide table is split or loses columns instead."""
    _, pages = book
    assert sum(len(p.tables) for p in pages) > 50
    wide = [(p.path, t["start"][:40], f"{t['wide']} px too wide") for p in pages for t in p.tables if t["wide"]]
    assert not wide, wide


def test_table_headers_are_words_not_identifiers(book):
    """Headers say what a column holds in words (``remove highest``), never a code name (``remove_highest``)."""
    _, pages = book
    coded = [(p.path, h) for p in pages if not p.path.endswith("reproducibility.html")  # its parameters are names
             for t in p.tables for h in t["headers"] if re.search(r"\b[a-z]+_[a-z]+\b", h)]
    assert not coded, coded


def test_no_sentence_names_a_parameter(book):
    """Sentences say what a setting does ("200 resamples"), never the notebook's name for it (``n_bootstrap``); only
    the chapter that shows its code, and the reproducibility page's table of settings, name them."""
    import json

    html, pages = book
    manifest = json.loads((html.parent.parent / "book" / "_generated" / "manifest.json").read_text())
    names = {k for chapter in manifest["chapters"] for k in chapter["parameters"] if "_" in k}
    assert len(names) > 20
    found = [(p.path, n) for p in pages if "/notebooks/" in p.path and not p.path.endswith("09_your_own_scores.html")
             for n in names if re.search(rf"\b{re.escape(n)}\b", p.text)]
    assert not found, found


MISSING_MARKS = re.compile(r"<NA>|\bNaN\b|\bnan\b|\bNaT\b")


def test_no_page_shows_a_raw_missing_value(book):
    """One missing-value mark (—) in every table and sentence; pandas' NaN, <NA> or None never reach a reader."""
    _, pages = book
    for page in pages:
        found = MISSING_MARKS.search(page.text)
        assert not found, f"{page.path}: {found[0]!r} near {page.text[max(found.start() - 80, 0):found.end() + 40]!r}"


TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\w+Error: ", flags=re.M)
RAW_LATEX = re.compile(r"\\(frac|begin|end|mathrm|sum|hat|cdot|operatorname)\b|\$\$")


def test_no_page_shows_a_traceback_or_raw_latex(book):
    _, pages = book
    for page in pages:
        assert not TRACEBACK.search(page.text), f"{page.path}: a traceback: {TRACEBACK.search(page.text)[0]!r}"
        latex = RAW_LATEX.search(page.text)
        assert not latex, f"{page.path}: raw LaTeX near {page.text[max(latex.start() - 60, 0):latex.end() + 20]!r}"


def test_every_internal_link_resolves(book):
    html, pages = book
    assert sum(len(p.links) for p in pages) > 100
    assert browser.broken_links(pages, html) == []


def test_no_link_in_the_text_leads_only_to_the_top_of_its_own_page(book):
    _, pages = book
    found = [(p.path, p.self_links[:3]) for p in pages if p.self_links]
    assert not found, found


def test_a_screenshot_of_every_page_is_saved(book):
    html, pages = book
    shots = sorted((html.parent / "screenshots").glob("*.png"))
    assert len(shots) == len(pages)
    assert all(shot.stat().st_size > 10_000 for shot in shots)


def test_the_search_finds_every_chapter(book):
    """A word from each chapter's title, searched in the browser, lists that chapter."""
    html, pages = book
    chapters = [p for p in pages if "/notebooks/" in p.path]
    words = {p.path: set(re.findall(r"[A-Za-z]{6,}", p.title.split("—")[0].split("#")[0])) for p in chapters}
    for chapter in chapters:
        others = set().union(*(w for path, w in words.items() if path != chapter.path))
        term = sorted(words[chapter.path] - others, key=len)[-1] if words[chapter.path] - others else None
        assert term, f"{chapter.path}: no distinctive word in its title {chapter.title!r}"
        hits = browser.search(html, term)
        assert any(chapter.path.rsplit("/", 1)[-1] in (hit or "") for hit in hits), (chapter.path, term, hits[:5])
