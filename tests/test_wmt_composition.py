"""analysis.wmt_composition: who judged what in a WMT package (Knowles 2021, Secs. 5.1, 5.4, 6), on hand-made
packages; the composition of the real packages is checked in tests/test_chapter_wmt_stability.py."""

import numpy as np
import pandas as pd

from analysis import wmt_composition as wc
from analysis import wmt_stability as ws


def test_cooccurrence_counts_hits_holding_both_systems():
    frame = pd.DataFrame({
        "collection": "c", "pair": "xx-yy", "hit": ["h1", "h1", "h2", "h2", "h3"], "worker": "w",
        "system": ["A", "B", "A", "C", "B"], "segment": ["1", "2", "3", "4", "5"], "item_type": "SYSTEM",
        "z": [0.0, 1.0, 2.0, 3.0, 4.0], "raw": np.nan, "document": "d", "time": 0.0})
    m = wc.cooccurrence(ws.code_pair(frame))
    assert m.loc["A", "A"] == 2 and m.loc["A", "B"] == 1 and m.loc["B", "C"] == 0 and m.loc["B", "B"] == 2


def test_recover_documents_joins_overlapping_instances():
    frame = pd.DataFrame({"pair": "xx-yy", "document": ["i1", "i1", "i2", "i2", "i3", "i3"],
                          "segment": ["1", "3", "2", "4", "7", "8"]})
    docs = wc.recover_documents(frame)
    assert docs.iloc[0] == docs.iloc[2] != docs.iloc[4]


def test_wmt_stability_still_exports_the_composition_functions():
    assert ws.composition is wc.composition and ws.cooccurrence is wc.cooccurrence
