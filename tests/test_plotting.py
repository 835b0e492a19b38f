"""analysis.plotting: the tables a reader sees."""

import numpy as np
import pandas as pd

from analysis.plotting import readable


def test_readable_prints_counts_as_integers_and_spaces_headers():
    frame = pd.DataFrame({"n_setups": [120.0, 3.0], "share_x": [0.12345, 0.5]})
    shown = readable(frame)
    assert list(shown.columns) == ["n setups", "share x"]
    assert str(shown["n setups"].dtype) == "Int64" and shown["share x"].iloc[0] == 0.123


def test_readable_has_no_negative_zero_and_spaces_identifiers():
    frame = pd.DataFrame({"x": [-0.0001, 0.5], "experiment": ["remove_highest", "BLEU"]})
    shown = readable(frame)
    assert str(shown.x.iloc[0]) == "0.0" and list(shown.experiment) == ["remove highest", "BLEU"]


def test_styled_tables_have_one_missing_mark_and_no_row_numbers():
    from analysis.plotting import MISSING, styled

    frame = pd.DataFrame({"n": [2.0, None], "share": [float("nan"), 0.25], "name": ["a", None]})
    html = styled(frame).to_html()
    assert "nan" not in html.lower() and "&lt;NA&gt;" not in html and "None" not in html
    assert html.count(MISSING) == 3 and ">0<" not in html  # no row numbers
    assert ">2<" in html and ">0.250<" in html


def test_a_share_that_happens_to_be_whole_keeps_its_decimals_and_counts_do_not():
    from analysis.plotting import styled

    frame = pd.DataFrame({"agree": [1.0, 1.0], "setups": [750.0, 2.0], "tau": [0.0, 1.0]})
    html = styled(frame).to_html()
    assert html.count(">1.000<") == 3 and ">750<" in html and ">0.000<" in html


def test_negative_numbers_carry_a_true_minus_sign_and_no_negative_zero():
    from analysis.plotting import MINUS, styled

    html = styled(pd.DataFrame({"x": [-0.25, -0.0001, 3.5], "n": [-7.0, 2.0, 3.0]})).to_html()
    assert f">{MINUS}0.250<" in html and f">{MINUS}7<" in html and ">0.000<" in html
    assert ">-" not in html and f">{MINUS}0.000<" not in html


def test_the_row_labels_name_sits_in_the_one_header_row():
    """A named index would get a header row of its own from pandas' Styler: one header row instead."""
    from analysis.plotting import styled

    frame = pd.DataFrame({"value": [1.5, 2.5]}, index=pd.Index(["remove_human", "b"], name="experiment"))
    html = styled(frame).to_html()
    assert html.count("<tr>") == 3 and "experiment" in html and "remove human" in html
    multi = frame.set_axis(pd.MultiIndex.from_tuples([("2020", "en_de"), ("2020", "zh_en")],
                                                     names=["year", "pair_name"]))
    html = styled(multi).to_html()
    assert html.count("<tr>") == 3 and ">pair name<" in html and ">year<" in html
    assert html.count(">2020<") == 1  # an outer label once for the rows it spans


# -- figures for the page (issue 26): captioned, legible in the book's text column, refused before anything is written

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from analysis.plotting import (  # noqa: E402
    CONTENT_PX,
    MIN_TEXT_PX,
    SAVE_DPI,
    legibility_problems,
    shown_text_px,
)
from analysis.recorder import Outputs  # noqa: E402


def _figure(width_in, fontsize=11, axis=True):
    fig, ax = plt.subplots(figsize=(width_in, 3))
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x label", fontsize=fontsize)
    ax.tick_params(labelsize=fontsize)
    if not axis:
        ax.axis("off")
    return fig


def test_a_figure_too_wide_for_the_page_is_refused_naming_its_width(tmp_path):
    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    with pytest.raises(ValueError, match=r"px wide and would be shown at \d+%"):
        out.figure(_figure(14), "wide")
    assert not list((tmp_path / "99_toy").glob("wide.*"))


def test_text_too_small_once_scaled_is_refused_naming_the_text(tmp_path):
    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    with pytest.raises(ValueError, match=r"distinct texts would be shown .*'x label'"):
        out.figure(_figure(9, fontsize=5), "small")


def test_a_legible_figure_is_saved_with_its_provenance(tmp_path):
    import json

    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    out.figure(_figure(6), "ok")
    provenance = json.loads((tmp_path / "99_toy" / "provenance.json").read_text())
    assert set(provenance["artefacts"]["ok"]["files"]) == {"ok.png", "ok.svg"}
    assert (tmp_path / "99_toy" / "ok.png").stat().st_size > 1000
    out.figure(_figure(14), "wide_anyway", legible=False)


def test_shown_text_size_follows_the_scaling_to_the_text_column():
    fig = _figure(6, fontsize=10)
    sizes = dict(shown_text_px(fig, natural_width=CONTENT_PX * 2))
    assert sizes["x label"] == pytest.approx(10 * SAVE_DPI / 72 / 2)
    assert dict(shown_text_px(fig, natural_width=CONTENT_PX // 2))["x label"] == pytest.approx(10 * SAVE_DPI / 72)
    plt.close(fig)


def test_tick_labels_of_a_switched_off_axis_are_not_counted():
    fig = _figure(6, fontsize=3, axis=False)
    fig.axes[0].set_xlabel("")
    assert legibility_problems(fig, 900) == []
    fig.axes[0].text(0.5, 0.5, "tiny", fontsize=3)
    assert any("'tiny'" in p for p in legibility_problems(fig, 900))
    assert MIN_TEXT_PX > 3 * SAVE_DPI / 72 * CONTENT_PX / 900
    plt.close(fig)


def test_downloads_link_saved_files_relative_to_the_chapter_notebook(tmp_path):
    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    out.table(pd.DataFrame({"a": [1]}), "numbers")
    assert out.download("numbers", "the numbers") == "{download}`the numbers <../99_toy/numbers.csv>`"
    with pytest.raises(FileNotFoundError, match="not_saved.csv has not been saved"):
        out.download("not_saved")


def test_a_column_of_mixed_cells_keeps_each_cells_type():
    """A column read down (counts, shares, words) shows a count as an integer beside shares with their decimals."""
    import re

    from analysis.plotting import MISSING, styled

    column = pd.Series([120, 0.5, -0.00001, "remove_x", None, "-0.25 to -0.23", "en-de"], index=list("abcdefg"),
                       dtype=object)
    cells = re.findall(r">([^<>]+)</td>", styled(pd.DataFrame({"value": column})).to_html())
    assert cells == ["120", "0.500", "0.000", "remove x", MISSING, "\u22120.25 to \u22120.23", "en\u2011de"]


def test_a_styled_table_renders_to_the_same_bytes_and_keeps_short_hyphenated_labels_whole():
    from analysis.plotting import styled

    frame = pd.DataFrame({"pair": ["en-de", "GEMBA-DA-ChatGPT"], "p": [1e-15, 0.5]})
    html = styled(frame).to_html()
    assert html == styled(frame.copy()).to_html()  # no random uuid
    assert ">en\u2011de<" in html  # never "en-" on one line and "de" on the next
    assert ">GEMBA-DA-ChatGPT<" in html  # a longer word may still break to fit the column


def test_grouped_columns_keep_the_row_labels_name_in_the_header():
    """With grouped columns pandas writes the row labels' name in a header row of its own: not here."""
    from analysis.plotting import styled

    columns = pd.MultiIndex.from_tuples([("here", "rank"), ("here", "cluster"), ("paper", "rank")],
                                        names=["source", "measure"])
    frame = pd.DataFrame([[1, 2, 3], [4, 5, 6]], index=pd.Index(["a", "b"], name="experiment"), columns=columns)
    html = styled(frame).to_html()
    assert html.count("<tr>") == 4  # two header rows (the groups, then the columns) and two rows of data
    assert ">experiment<" in html and ">source<" not in html and ">measure<" not in html


def test_claim_values_land_in_one_file_the_claims_read_back(tmp_path):
    import json

    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    out.value("share", 0.25)
    out.value("test", 3, detail="part a", holds=np.bool_(True))
    out.value("cell", 0.5, low=0.4, high=0.6, holds=True)
    out.values({"flag": False, "count": np.int64(7), "pair": (0.1, True)})
    out.values(pd.DataFrame({"key": ["test", "test"], "detail": ["part b", "part c"], "holds": [False, None]}))
    saved = pd.read_csv(tmp_path / "99_toy" / "claim_values.csv")  # as claims.py reads it
    assert list(saved.columns) == ["key", "detail", "value", "low", "high", "holds"]
    got = saved.set_index(["key", saved.detail.fillna("")])
    assert got.loc[("share", ""), "value"] == 0.25 and np.isnan(got.loc[("share", ""), "holds"])
    assert got.loc[("test", "part a"), "holds"] is True and got.loc[("test", "part b"), "holds"] is False
    assert np.isnan(got.loc[("test", "part c"), "holds"])
    assert got.loc[("cell", ""), ["value", "low", "high"]].tolist() == [0.5, 0.4, 0.6]
    assert got.loc[("count", ""), "value"] == 7 and got.loc[("pair", ""), "holds"] is True
    assert got.loc[("pair", ""), "value"] == 0.1 and got.loc[("flag", ""), "holds"] is False
    assert "claim_values" in json.loads((tmp_path / "99_toy" / "provenance.json").read_text())["artefacts"]


@pytest.mark.parametrize("call, message", [
    (lambda out: out.value("share", 0.3), "'share' is recorded twice"),
    (lambda out: out.value(" ", 1), "non-empty key"),
    (lambda out: out.value("x", "0.3"), "'x': value must be a finite real number"),
    (lambda out: out.value("x", True), "'x': value must be a finite real number"),
    (lambda out: out.value("x", 1, holds=1), "'x': holds must be True, False or None"),
    (lambda out: out.value("x", 1, low="a"), "'x': low must be a finite real number"),
    (lambda out: out.value("x", float("inf")), "'x': value must be a finite real number"),
    (lambda out: out.values({"x": (0.5, True, 3)}), r"claim values \['x'\]: a tuple must be \(number, holds\)"),
    (lambda out: out.values(pd.DataFrame({"name": ["x"]})), "need a 'key' column"),
    (lambda out: out.values(pd.DataFrame({"key": ["x"], "verdict": ["ok"]})), r"unknown columns \['verdict'\]"),
    (lambda out: out.values(pd.DataFrame({"key": ["x", "x"], "detail": ["a", "a"]})), r"'x' \('a'\) is recorded twice"),
])
def test_a_bad_claim_value_is_refused_naming_it_and_nothing_is_added(tmp_path, call, message):
    out = Outputs("99_toy", {"seed": 1}, root=tmp_path)
    out.value("share", 0.25)
    before = (tmp_path / "99_toy" / "claim_values.csv").read_bytes()
    with pytest.raises(ValueError, match=message):
        call(out)
    assert (tmp_path / "99_toy" / "claim_values.csv").read_bytes() == before
