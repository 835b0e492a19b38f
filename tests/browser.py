"""Reading the built book in a real browser: Debian's Chromium driven by PyPI's ``playwright`` (which never downloads
a browser of its own here: ``executable_path`` points at the system one), the HTML served on loopback.

:func:`read_book` visits every page once and returns what a reader would meet there: console errors, requests that
left loopback, images that failed or are shown much smaller than drawn, figures without a caption, visible text
(for tracebacks, raw LaTeX and missing-value marks), the running text and the glossary terms it links, the cells of
the claims tables' "Ours" columns, and the links; it saves a full-page screenshot of each page.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-default-apps", "--no-first-run"]
#: the width at which the book is read (a laptop screen); its content column is about 750 px wide there
VIEWPORT = {"width": 1400, "height": 900}

IMAGES_JS = """() => Array.from(document.querySelectorAll('main img, article img')).map(img => ({
    src: img.currentSrc || img.src, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
    complete: img.complete, alt: img.alt,
    caption: (img.closest('figure') && img.closest('figure').querySelector('figcaption'))
             ? img.closest('figure').querySelector('figcaption').innerText.trim() : ''}))"""
LINKS_JS = "() => Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"
#: links in the page's text that only jump to its own top (a link to the page it is on)
SELF_LINKS_JS = ("() => Array.from(document.querySelectorAll('article a[href=\"#\"], main article a[href=\"\"]'))"
                 ".map(a => a.innerText.trim())")
TEXT_JS = "() => (document.querySelector('main') || document.body).innerText"
#: code cells whose source a reader sees without clicking (MyST-NB puts hidden sources in a closed <details>)
#: tables a reader would have to scroll sideways (wider than the box that holds them) and their header cells
TABLES_JS = """() => Array.from(document.querySelectorAll('main table, article table')).map(t => ({
    wide: t.scrollWidth > t.parentElement.clientWidth + 1 ? t.scrollWidth - t.parentElement.clientWidth : 0,
    start: (t.innerText || '').trim().slice(0, 60),
    headers: Array.from(t.querySelectorAll('thead th')).map(th => th.innerText.trim())}))"""
#: the page's running text (paragraphs and list items, with admonitions and dropdowns) as a reader reads it for its
#: terms: without tables, captions, code, cell outputs, math, the text of links and the glossary's own list
PROSE_JS = """() => Array.from(document.querySelectorAll('article p, article li'))
    .filter(e => !e.closest('table, figcaption, figure, .cell_output, .output, nav, .toctree-wrapper, dl.glossary,'
                            + ' .bibliography, .footnote, .citation, pre')
                 && !e.querySelector('p, li'))
    .map(e => { const c = e.cloneNode(true);
                c.querySelectorAll('mjx-container, .math, code, pre, script, style, a').forEach(x => x.remove());
                return c.textContent.replace(/\\s+/g, ' ').trim(); })
    .join('\\n')"""
#: the glossary terms a page links to (the anchors of Sphinx's ``{term}`` role, ``glossary.html#term-...``)
TERM_LINKS_JS = ("() => Array.from(document.querySelectorAll('article a[href*=\"#term-\"]'))"
                 ".map(a => decodeURIComponent(a.href.split('#')[1]))")
#: the terms a glossary page defines: each ``<dt>``'s anchor and its text
GLOSSARY_JS = """() => Array.from(document.querySelectorAll('dl.glossary > dt')).map(dt => {
    const c = dt.cloneNode(true); c.querySelectorAll('a.headerlink').forEach(x => x.remove());
    return {id: dt.id, term: c.textContent.trim()}; })"""
#: the cells of every "Ours" column (the claims tables, those in closed drop-downs too: textContent, not innerText)
OURS_JS = """() => Array.from(document.querySelectorAll('article table')).flatMap(t => {
    const heads = Array.from(t.querySelectorAll('thead th')).map(th => th.textContent.trim());
    const k = heads.indexOf('Ours');
    if (k < 0) return [];
    return Array.from(t.querySelectorAll('tbody tr')).map(tr => {
        const cells = tr.querySelectorAll('td');
        return cells.length > k ? cells[k].textContent.replace(/\\s+/g, ' ').trim() : ''; }); })"""
VISIBLE_CODE_JS = ("() => Array.from(document.querySelectorAll('.cell_input'))"
                   ".filter(e => !e.closest('details:not([open])') && e.checkVisibility()).length")


@dataclass
class Page:
    """What a reader meets on one page."""

    path: str
    title: str = ""
    console_errors: list = field(default_factory=list)
    outside_requests: list = field(default_factory=list)
    failed_requests: list = field(default_factory=list)
    bad_responses: list = field(default_factory=list)
    images: list = field(default_factory=list)
    links: list = field(default_factory=list)
    text: str = ""
    visible_code: int = 0
    tables: list = field(default_factory=list)
    self_links: list = field(default_factory=list)
    prose: str = ""
    term_links: list = field(default_factory=list)
    glossary: list = field(default_factory=list)
    ours: list = field(default_factory=list)
    #: what ``read_book``'s ``measure`` returned for the page (e.g. its layout), or None
    measured: object = None


@contextmanager
def serve(folder: Path):
    """``http.server`` on 127.0.0.1 (a free port) serving ``folder``; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):  # a page closed mid-transfer
            super().handle_error(request, client_address)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test reads the requests from the browser, not the server's log
        pass


@contextmanager
def chromium():
    """Debian's Chromium under playwright (``playwright install`` is never needed)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def pages_of(html: Path) -> list[str]:
    """The book's pages (relative paths), Sphinx's own index pages left out."""
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    return sorted(str(p.relative_to(html)) for p in html.rglob("*.html")
                  if p.name not in skip and "_static" not in p.parts and "_sources" not in p.parts)


def read_book(html: Path, screenshots: Path | None, measure=None) -> list[Page]:
    """Visit every page of the built book at :data:`VIEWPORT`, collect what :class:`Page` holds and save a
    full-page screenshot of each under ``screenshots`` (named after the page; None: none saved). ``measure(view)``,
    when given, runs last on each page (it may resize the page) and its result is kept as ``Page.measured``: one
    visit of each page serves every check."""
    if screenshots is not None:
        screenshots.mkdir(parents=True, exist_ok=True)
    found = []
    with serve(html) as base, chromium() as browser:
        host = urlsplit(base).netloc
        for path in pages_of(html):
            page_view = browser.new_page(viewport=VIEWPORT)
            page = Page(path)
            page_view.on("console", lambda m, page=page: page.console_errors.append(m.text)
                         if m.type == "error" else None)
            page_view.on("pageerror", lambda e, page=page: page.console_errors.append(str(e)))
            page_view.on("request", lambda r, page=page: page.outside_requests.append(r.url)
                         if urlsplit(r.url).scheme in ("http", "https") and urlsplit(r.url).netloc != host
                         else None)
            page_view.on("requestfailed", lambda r, page=page: page.failed_requests.append(r.url))
            page_view.on("response", lambda r, page=page: page.bad_responses.append(f"{r.status} {r.url}")
                         if r.status >= 400 else None)
            page_view.goto(f"{base}/{path}", wait_until="load")
            page_view.wait_for_load_state("networkidle")
            page.title = page_view.title()
            page.images = page_view.evaluate(IMAGES_JS)
            page.links = page_view.evaluate(LINKS_JS)
            page.text = page_view.evaluate(TEXT_JS)
            page.visible_code = page_view.evaluate(VISIBLE_CODE_JS)
            page.tables = page_view.evaluate(TABLES_JS)
            page.self_links = page_view.evaluate(SELF_LINKS_JS)
            page.prose = page_view.evaluate(PROSE_JS)
            page.term_links = page_view.evaluate(TERM_LINKS_JS)
            page.glossary = page_view.evaluate(GLOSSARY_JS)
            page.ours = page_view.evaluate(OURS_JS)
            if screenshots is not None:
                page_view.screenshot(path=str(screenshots / (path.replace("/", "__").removesuffix(".html") + ".png")),
                                     full_page=True)
            if measure is not None:
                page.measured = measure(page_view)
            page_view.close()
            found.append(page)
    return found


def search(html: Path, term: str) -> list[str]:
    """The pages Sphinx's search (run in the browser, offline) lists for ``term``."""
    with serve(html) as base, chromium() as browser:
        view = browser.new_page(viewport=VIEWPORT)
        view.goto(f"{base}/search.html?q={term}", wait_until="load")
        # Sphinx lists the hits one by one and then writes "Search finished, found N page(s)" (or "did not match")
        view.wait_for_function("() => { const s = document.querySelector('#search-results .search-summary');"
                               " return s && /finished|did not match/.test(s.innerText); }", timeout=60_000)
        hits = view.evaluate("() => Array.from(document.querySelectorAll('#search-results li a'))"
                             ".map(a => a.getAttribute('href'))")
        view.close()
    return hits


def broken_links(pages: list[Page], html: Path) -> list[str]:
    """Links to a page or an anchor of this book that does not exist (external links are not followed)."""
    problems = []
    ids: dict[Path, str] = {}
    for page in pages:
        for url in page.links:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.netloc.startswith("127.0.0.1"):
                continue
            target = html / parts.path.lstrip("/")
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"{page.path}: {parts.path} does not exist")
                continue
            if parts.fragment and target.suffix == ".html":
                text = ids.setdefault(target, target.read_text(encoding="utf-8", errors="replace"))
                if f'id="{parts.fragment}"' not in text:
                    problems.append(f"{page.path}: {parts.path}#{parts.fragment}: no such anchor")
    return sorted(set(problems))


def term_forms(term: str) -> list[str]:
    """How a glossary term is written in running text: its name, and the symbol it is listed with when that is not
    a plain letter or one of :data:`AMBIGUOUS_SYMBOLS` ("Kendall's tau (τ)": "Kendall's tau" and "τ"; "total error
    (E)": "total error" only)."""
    found = re.fullmatch(r"(.+?)\s*\(([^()]+)\)", term)
    if not found:
        return [term]
    name, symbol = found.groups()
    return [name] + ([symbol] if not re.fullmatch(r"[A-Za-z]", symbol) and symbol not in AMBIGUOUS_SYMBOLS else [])


#: symbols the book also uses in another sense than their glossary entry's (α: Krippendorff's alpha, and the
#: significance level of a test), matched by their names only
AMBIGUOUS_SYMBOLS = {"α"}


def is_jargon(term: str) -> bool:
    """A term a reader may not know by its plain English: a name or an abbreviation (a capital letter, a digit) or
    a symbol (a non-ASCII letter) in how it is written; plain words ("setup", "instance", "reproduced") are linked
    where a chapter gives them their sense, not wherever they occur."""
    return any(re.search(r"[A-Z0-9]|[^\x00-\x7f]", form) for form in term_forms(term))


def terms_used(prose: str, glossary: list[dict]) -> dict[str, str]:
    """The glossary terms (``{id, term}`` of :data:`GLOSSARY_JS`) that are jargon (:func:`is_jargon`) and occur in
    ``prose``, as {anchor id: the form found}: case-sensitive, as whole words (``BT`` not in ``BTbin``), the longest
    forms first so that a term inside a longer one (``chrF`` in ``chrF++``, ``REF`` in ``BAD_REF``) is not counted."""
    text = prose.replace("\u2019", "'")
    forms = sorted(((form, entry["id"]) for entry in glossary if is_jargon(entry["term"])
                    for form in term_forms(entry["term"])), key=lambda f: -len(f[0]))
    used = {}
    for form, anchor in forms:
        pattern = re.compile(rf"(?<![\w+\-]){re.escape(form)}(?![\w+]|-\w)")
        if pattern.search(text):
            used.setdefault(anchor, form)
            text = pattern.sub(" ", text)
    return used
