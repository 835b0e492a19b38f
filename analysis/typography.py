"""How numbers and labels are set in the book's tables: a true minus sign before a number, and short hyphenated
labels ("en-de", "SR-DC", "Top-3") kept on one line. Used for what a reader sees, never for saved files."""

from __future__ import annotations

import re

#: a true minus sign (U+2212), as typeset text has it; a hyphen-minus reads as a dash beside it
MINUS = "\u2212"
#: a hyphen the browser does not break a line at (U+2011)
NON_BREAKING_HYPHEN = "\u2011"
#: the longest word whose hyphens are kept from breaking ("en-de", "SR-DC", "ROUGE-L"): a longer one, such as a
#: list of metric names, may need the break to fit the text column (20 made Favi's Table 1 26 px too wide)
SHORT_WORD = 10

_NEGATIVE = re.compile(r"(?<![\w.\-])-(?=\.?\d)")
_WORD = re.compile(r"\S+")
_INNER_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")


def true_minus(text: str) -> str:
    """``text`` with a minus sign before each negative number written in it ("-0.25" → "−0.25"); hyphens inside
    words and exponents ("en-de", "1e-15", "2020-21") are left alone."""
    return _NEGATIVE.sub(MINUS, text)


def keep_hyphens(text: str) -> str:
    """``text`` with the hyphens inside its short words (at most :data:`SHORT_WORD` characters) made non-breaking,
    so that a table cell never reads "en-" on one line and "de" on the next."""
    return _WORD.sub(lambda m: _INNER_HYPHEN.sub(NON_BREAKING_HYPHEN, m.group(0))
                     if len(m.group(0)) <= SHORT_WORD else m.group(0), text)


def for_table(text: str) -> str:
    """A table cell's text as set: :func:`true_minus`, then :func:`keep_hyphens`."""
    return keep_hyphens(true_minus(text))
