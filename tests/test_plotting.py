"""analysis.plotting: the tables a reader sees."""

import pandas as pd

from analysis.plotting import readable


def test_readable_prints_counts_as_integers_and_spaces_headers():
    frame = pd.DataFrame({"n_setups": [120.0, 3.0], "share_x": [0.12345, 0.5]})
    shown = readable(frame)
    assert list(shown.columns) == ["n setups", "share x"]
    assert str(shown["n setups"].dtype) == "Int64" and shown["share x"].iloc[0] == 0.123
