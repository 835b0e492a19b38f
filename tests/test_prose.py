"""No generated phrasing in the pages' prose (issue 50): the built book's visible text, read from its HTML, has no
phrase that only a program pasting words together would write. Each rule below is a regular expression over the text
of one block of a page (a paragraph, a list item, a heading, a caption, a table cell: text is never joined across
blocks, so two cells of a table never read as a repeated word); code (the cells' inputs and printed outputs, ``<pre>``),
typeset mathematics, the navigation and the permalink marks are not text a reader reads as sentences and are left out.

* **a repeated word**: the same word twice in a row ("the the"), or joined by "and"/"or" ("reproduced and reproduced"),
  case-insensitive, whole words of letters ("BLEU or BLEU-1" is two names); idioms in :data:`ALLOWED_REPEATS` (with
  their reason) are allowed.
* **a verdict word pasted after a copula**: "is", "are", "was", "were" or "be" followed by a verdict of the compendium's
  own findings, which are finite verbs ("holds", "hold", "does not hold", "holds in part", ...; "X is holds" is
  what pasting a glued verdict after "is" produces), or by "paper inconsistent", which is a verdict's name, not an
  adjective ("the claim is paper inconsistent"). The papers' verdicts "reproduced", "not reproduced", "reproduced in
  part" and "not testable here" read as English after "is" (a passive participle or an adjective) and are allowed.
* **a "(s)" plural**: a word followed by "(s)" ("value(s)", "check(s)"): a page knows its counts and says "1 value"
  or "3 values".
* **a pasted count of checks in running text**: "(18 of 21 checks passed)" or "…; 18 of 21 checks pass" (a claims
  table's "Ours" cell pasted) inside a paragraph, list item, heading or caption. The claims tables' "Ours" cells
  carry their count so (issue 38); a sentence says what passed in words it can carry ("18 of the 21
  cells lie within our intervals").
* **a truncated number list in running text**: "…" followed by a count of values ("…, 0.31 (21 values)"): a list of
  numbers belongs in a table, not in a sentence.
* **a degenerate bound**: "at least 100%", "at most 0%", "more than 100%", "less than 0%" (a bound that can only be
  met with equality, or never, is a generated comparison; say "in every setup" or "in no setup").
* **raw markup**: MyST roles or directives that did not render, ``{glue``, ``{term}``, ``{ref}``, ``{doc}``,
  ``{numref}``, ``{cite``, ``{download}``, or a fence opening a directive (three backticks and a brace).
* **a Python object's repr**: "<IPython.core.display.Markdown object>" (a glued Markdown value pasted with
  ``{glue:text}``, which shows its plain-text repr, instead of ``{glue:md}``).

The module runs on the suite's quick build (``quick_html``). ``python -m tests.test_prose _build/html`` lists every
hit on any other build, such as the full one.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

#: legitimate repeats (lower case) -> why a page may write them
ALLOWED_REPEATS = {
    "more and more": "an idiom (a growing amount)",
    "again and again": "an idiom (repeatedly)",
    "over and over": "an idiom (repeatedly)",
}

#: verdicts that are finite verbs (the compendium's own findings) or a verdict's name, which break the grammar after
#: a copula; the papers' verdicts read as participles or adjectives there ("is reproduced", "is not testable here")
PASTED_VERDICTS = ("does not hold", "do not hold", "holds in part", "hold in part", "holds", "hold",
                   "paper inconsistent")

RULES = {
    "a repeated word": re.compile(r"\b([A-Za-z]+)(?:\s+(?:and|or))?\s+\1\b(?![-\u2010\u2011+])", flags=re.I),
    "a verdict word pasted after a copula": re.compile(
        r"\b(?:is|are|was|were|be)\s+(?:\*+)?(?:" + "|".join(map(re.escape, PASTED_VERDICTS)) + r")\b", flags=re.I),
    'a "(s)" plural': re.compile(r"\w\(s\)"),
    "a degenerate bound": re.compile(r"\b(?:at least|more than|over)\s+100\s*%|\b(?:at most|less than|under)\s+0\s*%",
                                     flags=re.I),
    "raw markup": re.compile(r"\{(?:glue|term|ref|doc|numref|cite|download|eq)\b[^}]*\}|\{glue|```\s*\{"),
    "a Python object's repr": re.compile(r"<[\w.]+ object(?: at 0x[0-9a-f]+)?>"),
}
#: rules for running text only (paragraphs, list items, headings, captions; not table cells)
PROSE_RULES = {
    "a pasted count of checks": re.compile(
        r"\([^()]*\b\d[\d,]* of \d[\d,]* checks? pass(?:es|ed)?\b[^()]*\)|;\s*\d[\d,]* of \d[\d,]* checks? pass"),
    "a truncated number list": re.compile(r"…[^()]{0,40}\(\d[\d,]* values\)"),
}

BLOCKS = {"p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "figcaption", "div",
          "section", "tr", "table", "thead", "tbody", "blockquote", "br", "summary", "details", "ul", "ol", "dl",
          "article", "aside", "figure", "hr", "main", "body"}
VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source", "track", "wbr"}
SKIPPED_TAGS = {"script", "style", "pre", "nav", "header", "footer", "svg", "button", "head", "title", "noscript"}
SKIPPED_CLASSES = {"headerlink", "cell_input", "math", "MathJax", "bd-sidebar-primary", "bd-sidebar-secondary",
                   "prev-next-area", "bd-header-article", "toggle-details__summary"}


class _Text(HTMLParser):
    """The visible text of a page as blocks: ``[(text, in_table)]``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[str, bool]] = []
        self._parts: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, whether it starts a skipped subtree)
        self._skipping = 0
        self._tables = 0

    def _flush(self):
        text = re.sub(r"\s+", " ", "".join(self._parts)).strip()
        if text:
            self.blocks.append((text, self._tables > 0))
        self._parts = []

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if tag in BLOCKS:
            self._flush()
        if tag in VOID:
            return
        skip = tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES)  # a cell's printed output is a <pre>
        self._stack.append((tag, skip))
        self._skipping += skip
        self._tables += tag == "table"

    def handle_startendtag(self, tag, attrs):
        if tag in BLOCKS:
            self._flush()

    def handle_endtag(self, tag):
        if tag in VOID or not any(t == tag for t, _ in self._stack):
            return
        while self._stack:  # close up to the matching tag (HTML that leaves inner tags open)
            open_tag, skip = self._stack.pop()
            self._skipping -= skip
            if open_tag == "table":
                self._flush()
                self._tables -= 1
            if open_tag == tag:
                break
        if tag in BLOCKS:
            self._flush()

    def handle_data(self, data):
        if not self._skipping:
            self._parts.append(data)

    def close(self):
        super().close()
        self._flush()


def page_blocks(html: str) -> list[tuple[str, bool]]:
    """The visible text of an HTML page's article (the whole body when it has none), block by block, each with
    whether it is inside a table."""
    found = re.search(r"<article\b.*</article>", html, flags=re.S)
    parser = _Text()
    parser.feed(found.group(0) if found else html)
    parser.close()
    return parser.blocks


def problems(blocks: list[tuple[str, bool]]) -> list[tuple[str, str, str]]:
    """``(rule, the phrase, its context)`` for every hit of :data:`RULES` (and, outside tables, :data:`PROSE_RULES`)
    in ``blocks``."""
    found = []
    for text, in_table in blocks:
        rules = RULES if in_table else {**RULES, **PROSE_RULES}
        for name, pattern in rules.items():
            for hit in pattern.finditer(text):
                phrase = hit.group(0)
                if name == "a repeated word" and re.sub(r"\s+", " ", phrase.lower()) in ALLOWED_REPEATS:
                    continue
                context = text[max(hit.start() - 70, 0):hit.end() + 50]
                found.append((name, phrase, context))
    return found


def book_problems(html_root: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Every page's hits under a built book's HTML folder (Sphinx's own index and search pages left out)."""
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    pages = sorted(p for p in html_root.rglob("*.html")
                   if p.name not in skip and "_static" not in p.parts and "_sources" not in p.parts)
    assert pages, f"no pages under {html_root}"
    found = {}
    for page in pages:
        hits = problems(page_blocks(page.read_text(encoding="utf-8", errors="replace")))
        if hits:
            found[str(page.relative_to(html_root))] = hits
    return found


# the rules on examples: each must catch its phrase and let its look-alike pass


@pytest.mark.parametrize("text", [
    "Both are reproduced and reproduced in part.", "the the", "The claim is holds.", "The rule is does not hold here.",
    "the two are hold in part", "which is **holds**", "The claim is paper inconsistent.", "every value(s)",
    "the rule holds in at least 100% of the setups", "see {glue:text}`n-setups` and {term}`BT`", "raw ```{note}",
    "a {ref}`label` link", "14 <IPython.core.display.Markdown object> of the cells"])
def test_each_rule_catches_its_phrase(text):
    assert problems([(text, True)]), text


@pytest.mark.parametrize("text", [
    "Ours is 19% (18 of 21 checks passed), which the paper", "values 0.1, 0.2, … (21 values) in a sentence",
    "changes of −18, +14; 1 of 2 checks pass) is"])
def test_the_prose_rules_catch_their_phrase_in_running_text_only(text):
    assert problems([(text, False)]) and not problems([(text, True)]), text


@pytest.mark.parametrize("text", [
    "The claim is reproduced, and it holds in part.", "It is not reproduced; the paper is inconsistent.",
    "It is not testable here.", "more and more systems", "18 of the 21 checks pass", "in 100% of the setups",
    "the values 1 1 and 2 2", "BLEU or BLEU-1…4", "a set (of names)", "at least 10% of them"])
def test_ordinary_english_passes(text):
    assert not problems([(text, False)]), problems([(text, False)])


def test_the_reader_keeps_blocks_apart_and_leaves_code_and_navigation_out():
    html = """<html><body><nav><p>Details Details</p></nav><article>
        <h1>Title<a class="headerlink" href="#t">#</a></h1><p>One <em>word</em> here.</p>
        <table><tr><td>reproduced</td><td>reproduced</td></tr></table>
        <div class="cell_input"><pre>glue("x", x) {glue:text}</pre></div>
        <div class="cell_output"><pre>the the</pre><table class="dataframe"><tr><td>a b</td></tr></table></div>
        <p>x<br/>y <span class="math">\\(a a\\)</span></p></article></body></html>"""
    assert page_blocks(html) == [("Title", False), ("One word here.", False), ("reproduced", True),
                                 ("reproduced", True), ("a b", True), ("x", False), ("y", False)]


@pytest.mark.slow
def test_no_page_of_the_quick_build_has_generated_phrasing(quick_html):
    html, result = quick_html
    assert result.returncode == 0, "the book did not build (see test_book_builds_with_warnings_as_errors)"
    found = book_problems(html)
    assert not found, "\n".join(f"{page}: {rule}: {phrase!r} in …{context}…"
                                for page, hits in found.items() for rule, phrase, context in hits)


if __name__ == "__main__":  # python -m tests.test_prose <a built book's html folder>: every hit, page by page
    hits = book_problems(Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html"))
    for page, page_hits in hits.items():
        for rule, phrase, context in page_hits:
            print(f"{page}: {rule}: {phrase!r}\n    …{context}…")
    print(f"{sum(map(len, hits.values()))} hits on {len(hits)} pages")
    sys.exit(1 if hits else 0)
