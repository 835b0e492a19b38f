"""analysis.plotting: the tables a reader sees."""

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

    frame = pd.DataFrame({"n": [1.0, None], "share": [float("nan"), 0.25], "name": ["a", None]})
    html = styled(frame).to_html()
    assert "nan" not in html.lower() and "&lt;NA&gt;" not in html and "None" not in html
    assert html.count(MISSING) == 3 and ">0<" not in html  # no row numbers
    assert ">1<" in html and ">0.250<" in html
