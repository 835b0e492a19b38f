"""The book's bibliography (issue 26, item 4): every work has a DOI or a stable URL a reader can follow."""

from pathlib import Path

import pybtex.database

BIB = Path(__file__).resolve().parent.parent / "book" / "references.bib"


def test_every_work_has_a_doi_or_a_url():
    entries = pybtex.database.parse_file(str(BIB)).entries
    assert len(entries) >= 40
    missing = [key for key, entry in entries.items() if not ({"doi", "url"} & {f.lower() for f in entry.fields})]
    assert not missing, missing


def test_dois_are_bare_identifiers():
    """``doi = {10.x/y}``, not a resolver URL (the style adds https://doi.org/ itself)."""
    entries = pybtex.database.parse_file(str(BIB)).entries
    for key, entry in entries.items():
        doi = entry.fields.get("doi")
        assert doi is None or doi.startswith("10."), (key, doi)
