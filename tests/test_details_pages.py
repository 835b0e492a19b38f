"""A chapter as a story page and a details page (analysis.notebooks.split_details; the runner publishes the details
page beside the chapter's artefacts)."""

import nbformat
import pytest

from analysis import reproduce
from analysis.notebooks import (
    DETAILS_OPENING_TAG,
    DETAILS_TAG,
    details_sections,
    details_title,
    glue_problems,
    split_details,
)
from tests import reproduce_helpers

toy_chapters = reproduce_helpers.toy_chapters  # the fixture this module uses


def md(text, details=False):
    return nbformat.v4.new_markdown_cell(text, metadata={"tags": [DETAILS_TAG]} if details else {})


def glued(key, value):
    """A code cell whose output glues ``key`` as MyST-NB does."""
    cell = nbformat.v4.new_code_cell(f"glue({key!r}, {value!r})")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/plain": repr(value)},
                                           metadata={"scrapbook": {"name": key, "mime_prefix": ""}})]
    return cell


def chapter():
    return nbformat.v4.new_notebook(cells=[
        md("# A chapter\n\nIt finds {glue:text}`late:.2f`."),
        glued("early", 1),
        md("## Story section\n\nText."),
        md("(ch-checks)=\n## Checks\n\nThey use {glue:text}`early`.", details=True),
        glued("late", 2.5),
        md("### A subsection of the checks"),
        nbformat.v4.new_code_cell("x = 1"),
        md("## Run time", details=True),
        nbformat.v4.new_code_cell("timings"),
        md("## What differs"),
    ])


def test_a_tagged_section_runs_to_the_next_heading_of_its_level():
    nb = chapter()
    assert details_sections(nb) == [(3, 7), (7, 9)]
    assert details_sections(nbformat.v4.new_notebook(cells=[md("# Only a story")])) == []


def test_split_moves_the_sections_links_them_and_carries_the_glue_each_page_needs():
    story, details = split_details(chapter(), story="../notebooks/ch", details="../ch/details")
    story_text = [c.source for c in story.cells if c.cell_type == "markdown"]
    assert story_text[0].startswith("# A chapter") and story_text[-1] == "## What differs"
    assert "*On the chapter's details page:* {ref}`ch-checks`." in story_text
    assert "*On the chapter's details page:* {doc}`Run time <../ch/details>`." in story_text
    assert not any("Checks" in t or "subsection" in t for t in story_text)
    details_text = [c.source for c in details.cells if c.cell_type == "markdown"]
    assert (details_text[0].startswith("# Details: a chapter\n")
            and "{doc}`A chapter <../notebooks/ch>`" in details_text[0])
    assert [t.splitlines()[0] for t in details_text[1:]] == ["(ch-checks)=", "### A subsection of the checks",
                                                             "## Run time"]
    for page in (story, details):  # every pasted key is glued on its page, none twice
        assert glue_problems(page) == []
    carrier = [c for c in story.cells if "remove-cell" in c.metadata.get("tags", [])]
    assert [o.metadata["scrapbook"]["name"] for o in carrier[0].outputs] == ["late"]


def test_the_details_page_is_titled_after_its_chapter_and_opens_with_the_chapters_sentence():
    assert details_title("The stability of WMT system rankings (Knowles 2021)") == (
        "Details: the stability of WMT system rankings")
    assert details_title("Global vs pairwise scores: ties, sample size, confidence (Levtsov & Ustalov 2025)") == (
        "Details: global vs pairwise scores")
    nb = chapter()
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("It checks {glue:text}`late:.2f`.",
                                                     metadata={"tags": [DETAILS_OPENING_TAG]}))
    story, details = split_details(nb, story="../notebooks/ch", details="../ch/details")
    assert not any("It checks" in c.source for c in story.cells)
    assert details.cells[0].source.startswith("# Details: a chapter\n\nIt checks {glue:text}`late:.2f`. ")
    assert glue_problems(details) == []


def test_a_chapter_without_tags_is_one_page_and_a_tag_without_a_heading_is_refused():
    nb = nbformat.v4.new_notebook(cells=[md("# One page"), md("## A section")])
    assert split_details(nb, story="s", details="d") == (nb, None)
    with pytest.raises(ValueError, match="does not start with a heading"):
        split_details(nbformat.v4.new_notebook(cells=[md("# Title"), md("No heading here.", details=True)]),
                      story="s", details="d")


def test_the_runner_publishes_the_details_page_beside_the_artefacts(toy_chapters):
    nb = toy_chapters / "notebooks" / "01_good.py"
    nb.write_text(nb.read_text().replace("# %% tags=[\"parameters\"]", "# %% [markdown]\n# # Good\n\n"
                                         "# %% tags=[\"parameters\"]")
                  + '\n# %% [markdown] tags=["details"]\n# ## Run time\n\n# %%\nprint("timings")\n')
    out = toy_chapters / "out"
    [run] = reproduce.run(profile="quick", output_root=out, only=["01"])
    assert run.status == "ok"
    details = nbformat.read(out / "01_good" / "details.ipynb", as_version=4)
    assert details.cells[0].source.startswith("# Details: ")
    assert any(c.source == "## Run time" for c in details.cells)
    story = nbformat.read(out / "notebooks" / "01_good.ipynb", as_version=4)
    assert not any(c.source == "## Run time" for c in story.cells)
    assert "01_good/details.ipynb" in run.outputs  # in the manifest, checked like every artefact
