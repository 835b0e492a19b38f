"""A claims registry for tests: the file under test plus a one-record stub for every other paper (the registry
refuses a folder that lacks a paper's file)."""

from pathlib import Path

#: a valid record for each paper other than the one a claims test writes (every paper needs its registry file)
CLAIMS_STUB = """chapter = "09_your_own_scores"

[[claims]]
id = "{paper}-stub"
item = "Fig. 1"
where = "§1"
claim = "a claim that cannot be tested here"
rule = "none"
status = "not reachable"
reason = "a stub record of the test registry"
"""


def write_claims_registry(folder: Path, files: dict[str, str]) -> Path:
    """A claims registry folder: ``files`` = {paper: text of its ``<paper>.toml``}; every other paper of
    ``analysis.claim_records.PAPERS`` gets a one-record stub (``<paper>-stub``, not testable here)."""
    from analysis.claim_records import PAPERS

    folder.mkdir(parents=True, exist_ok=True)
    for paper in PAPERS:
        text = files.get(paper, CLAIMS_STUB.format(paper=paper))
        (folder / f"{paper}.toml").write_text(text, encoding="utf-8")
    return folder
