"""The paper's own values as tables: Appendix C.1, the correlation matrices it prints, and ours next to C.1."""

from __future__ import annotations

import pandas as pd

from ...data import published


def published_c1() -> pd.DataFrame:
    return published.frame("gvp", "appendix_c1")


def published_c2_originals() -> pd.DataFrame:
    """Appendix C.2's first six rows: the original models in the penalised experiment (Table 7's BT row follows
    from these, not from C.1)."""
    c2 = published.frame("gvp", "appendix_c2")
    return c2[~c2["model"].str.startswith("Penalized ")].reset_index(drop=True)


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
