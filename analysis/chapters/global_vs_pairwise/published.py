"""The paper's own values as tables: Appendix C.1, the correlation matrices it prints, and ours next to C.1."""

from __future__ import annotations

import pandas as pd

from ...data import published


def published_c1() -> pd.DataFrame:
    return published.frame("gvp", "appendix_c1")


def published_matrix(name: str) -> pd.DataFrame:
    """A correlation table as the paper prints it (``table2``, ``table3``, ``table7``)."""
    item = published.item("gvp", name)
    return pd.DataFrame(item["matrix"], index=item["columns"], columns=item["columns"])


def appendix_c1(scores: pd.DataFrame) -> pd.DataFrame:
    """Ours next to Appendix C.1's values, model by model."""
    paper = published.frame("gvp", "appendix_c1").set_index("model")
    ours = scores.set_index("model")
    out = pd.concat({"here": ours[["ed", "wer", "chrf", "bt"]], "paper": paper[["ed", "wer", "chrf", "bt"]]}, axis=1)
    for c in ("ed", "wer", "chrf"):
        out[("difference", c)] = (ours[c] - paper[c]).round(4)
    return out
