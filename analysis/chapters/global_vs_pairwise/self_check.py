"""The paper checked against itself (Levtsov & Ustalov 2025): its printed Tables 2-7 and two of its statements
recomputed from its own appendices, typed in ``data/published/gvp.toml``. Nothing here reads our data.

* :func:`paper_consistency` is the saved ``gvp_paper_consistency.csv``: one row per recomputed value — ``item``,
  ``pair`` (a pair of measures, or one measure for an average precision), ``printed`` (with ``printed_low`` and
  ``printed_high`` where the paper prints an interval), ``recomputed``, ``source`` — which the claims registry reads
  with its ``consistent`` rule;
* :func:`agrees` says whether a recomputed value equals the printed one to the printed decimals;
* :func:`b2_ratio_bound`: the largest BT strength ratio B.2's accuracies allow;
* :func:`b1_renormalised`: B.1's BT over the models trained here, for comparison with ours.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.metrics import average_precision_score

from ... import bt
from ...data import published

#: the source of Table 3 recomputed on the SST-5 models trained here only (a restriction, not a check of the paper)
FIVE_MODELS = "Appendices B.1-B.2, the models trained here"

#: the source of Table 3's accuracy-F1 recomputed with Appendix B.2's accuracy column in place of B.1's
B2_ACCURACY = "Appendix B.2's accuracy, B.1's F1"

#: half a unit of the last printed digit: a printed value with two decimals stands for anything this close
PRINTED_2 = 0.005


def _spearman(frame: pd.DataFrame, a: str, b: str) -> tuple[float, float, float]:
    """Spearman's rho with ties as average ranks (scipy's default), and its smallest and largest value when the
    printed ties are broken in table order, one way or the other (unrounded values would break them)."""
    def rho(x, y):
        return float(spearmanr(x, y).statistic)

    x, y = frame[a].to_numpy(dtype=float), frame[b].to_numpy(dtype=float)
    order = np.arange(len(x)) * 1e-9
    values = [rho(x + order, y + order), rho(x - order, y - order)]
    average = rho(x, y)
    return average, min(values + [average]), max(values + [average])


def _ap(measures: pd.DataFrame, originals) -> pd.DataFrame:
    """Per measure (higher is better) the AP of the originals over the copies with ties as scikit-learn scores
    them, and its smallest and largest value when tied values are broken against or for the originals."""
    relevant = measures.index.isin(list(originals))
    nudge = np.where(relevant, 1e-9, 0.0)
    out = {}
    for c in measures.columns:
        v = measures[c].to_numpy(dtype=float)
        values = [average_precision_score(relevant, v + sign * nudge) for sign in (-1, 1)]
        average = average_precision_score(relevant, v)
        out[c] = (average, min(values + [average]), max(values + [average]))
    return pd.DataFrame(out, index=["recomputed", "tie_low", "tie_high"]).T


def _rank(values: pd.Series, model: str) -> int:
    return int(values.rank(ascending=False, method="min")[model])


def _row(item, pair, printed, recomputed, source, low=np.nan, high=np.nan) -> dict:
    """One recomputed value: ``recomputed`` is a value or (value, lowest, highest over the orders of printed
    ties)."""
    value, tie_low, tie_high = recomputed if isinstance(recomputed, tuple) else (recomputed,) * 3
    return {"item": item, "pair": pair, "printed": float(printed), "printed_low": float(low),
            "printed_high": float(high), "recomputed": float(value), "tie_low": float(tie_low),
            "tie_high": float(tie_high), "source": source}


def canonical_names(frame: pd.DataFrame, item: str) -> pd.DataFrame:
    """An appendix table with its model names as Appendix A.1 prints them (A.2 and A.3 print three differently:
    their ``aliases``), copies keeping their "Binarized " / "Penalized " prefix."""
    aliases = published.item("gvp", item).get("aliases", {})

    def name(model: str) -> str:
        for prefix in ("Binarized ", "Penalized "):
            if model.startswith(prefix):
                return prefix + aliases.get(model.removeprefix(prefix), model.removeprefix(prefix))
        return aliases.get(model, model)

    return frame.assign(model=frame["model"].map(name))


def b_tables(models=None) -> pd.DataFrame:
    """Appendices B.1 and B.2 as one table per model: B.1's accuracy, BT and F1, and B.2's BT as BTbin (Table 3's
    columns); only ``models`` (default: all eight)."""
    b1 = published.frame("gvp", "appendix_b1").set_index("model")
    b2 = published.frame("gvp", "appendix_b2").set_index("model")
    table = b1[["acc", "bt", "f1"]].join(b2["bt"].rename("bt_bin"))
    return table if models is None else table.loc[list(models)]


# -- one function per printed item ------------------------------------------------------------------------------------


def table2_rows() -> list[dict]:
    """Table 2's ten pairs from Appendix A.1 (A.1's accuracy has one tie, TTA + PL and JMTC-20, ranked as average
    ranks)."""
    t2, a1 = published.item("gvp", "table2"), published.frame("gvp", "appendix_a1")
    cols = t2["columns"]
    return [_row("table2", f"{a}-{b}", t2["matrix"][i][j], _spearman(a1, a, b), "Appendix A.1")
            for i, a in enumerate(cols) for j, b in enumerate(cols) if j > i]


def table3_rows(models_here) -> list[dict]:
    """Table 3's six pairs from Appendices B.1 (Acc, BT, F1) and B.2 (BTbin): on all eight models and on the
    ``models_here`` only; and its accuracy-F1 with B.2's accuracy in place of B.1's (:data:`B2_ACCURACY`)."""
    t3 = published.item("gvp", "table3")
    cols = t3["columns"]
    rows = []
    for source, frame in (("Appendices B.1-B.2", b_tables()),
                          (FIVE_MODELS, b_tables(models_here))):
        rows += [_row("table3", f"{a}-{b}", t3["matrix"][i][j], _spearman(frame, a, b), source)
                 for i, a in enumerate(cols) for j, b in enumerate(cols) if j > i]
    # the printed accuracy-F1 against B.2's accuracy (B.2 repeats B.1's F1): where the printed value comes from
    b2_acc = b_tables().assign(acc=published.frame("gvp", "appendix_b2").set_index("model")["acc"])
    rows.append(_row("table3", "acc-f1", t3["matrix"][cols.index("acc")][cols.index("f1")],
                     _spearman(b2_acc, "acc", "f1"), B2_ACCURACY))
    return rows


def _copies_rows(item: str, measures: pd.DataFrame, printed: dict, bt_printed, source: str) -> list[dict]:
    originals = [m for m in measures.index if not m.startswith(("Binarized ", "Penalized "))]
    ap = _ap(measures, originals)
    rows = []
    for measure in measures.columns:
        if measure == "bt":
            low, high = bt_printed
            rows.append(_row(item, "bt", (low + high) / 2, tuple(ap.loc["bt"]), source, low, high))
        elif measure in printed:
            rows.append(_row(item, measure, printed[measure], tuple(ap.loc[measure]), source))
    return rows


def table4_rows() -> list[dict]:
    """Table 4 from Appendices A.2 (binarised copies) and A.3 (penalised copies): the AP of the originals over their
    copies under MAE (read from the "Accuracy" column as 1 - MAE, higher is better), AUC, BT and F1."""
    t4 = published.item("gvp", "table4")
    rows = []
    for item, name, key, source in (("table4-binary", "appendix_a2", "binary", "Appendix A.2"),
                                    ("table4-penalized", "appendix_a3", "penalized", "Appendix A.3")):
        frame = canonical_names(published.frame("gvp", name), name).set_index("model")
        measures = frame.rename(columns={"acc": "mae"})[["mae", "auc", "bt", "f1"]]  # 1 - MAE: higher is better
        rows += _copies_rows(item, measures, t4[f"{key}_ap"], t4[f"bt_{key}"], source)
    return rows


def table5_rows() -> list[dict]:
    """Table 5 from Appendices B.1 (the originals) and B.2 (their binarised copies): AP under accuracy, BT and F1.
    BT in B.1 and in B.2 are separate fits, each summing to 1 over its eight models."""
    t5 = published.item("gvp", "table5")
    b1 = published.frame("gvp", "appendix_b1").set_index("model")
    b2 = published.frame("gvp", "appendix_b2").set_index("model").rename(index=lambda m: f"Binarized {m}")
    measures = pd.concat([b1, b2])[["acc", "bt", "f1"]]
    return _copies_rows("table5", measures, t5["binary_ap"], t5["bt_binary"], "Appendices B.1-B.2")


def table6_rows() -> list[dict]:
    """Table 6 from Appendix C.2, both ways round: every measure read as higher-is-better, and ED and WER as the
    distances they are (lower is better)."""
    t6 = published.item("gvp", "table6")
    c2 = published.frame("gvp", "appendix_c2").set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in c2.index if not m.startswith("Penalized ")]
    rows = []
    for source, lower in (("Appendix C.2, every measure read as higher-is-better", ()),
                          ("Appendix C.2, ED and WER as distances", ("ed", "wer"))):
        ap = _ap(c2.assign(**{m: -c2[m] for m in lower}), originals)
        rows += [_row("table6", m, t6["ap"][m], tuple(ap.loc[m]), source) for m in ("ed", "wer", "chrf")]
        low, high = t6["bt"]
        rows.append(_row("table6", "bt", (low + high) / 2, tuple(ap.loc["bt"]), source, low, high))
    return rows


def table7_rows() -> list[dict]:
    """Table 7's BT row from Appendix C.1 and from C.2's six original rows."""
    t7 = published.item("gvp", "table7")
    c1 = published.frame("gvp", "appendix_c1")
    c2 = published.frame("gvp", "appendix_c2")
    c2 = c2[~c2["model"].str.startswith("Penalized ")]
    return [_row("table7", f"{m}-bt", t7["matrix"][k][3], _spearman(frame, m, "bt"), source)
            for source, frame in (("Appendix C.1", c1), ("Appendix C.2 (six originals)", c2))
            for k, m in enumerate(("ed", "wer", "chrf"))]


def pair_scores(accuracy: pd.Series) -> np.ndarray:
    """The share of points model i takes from model j (ties half) when every match is decided by right / wrong
    only: ``0.5 + (acc_i - acc_j) / 2`` whatever the joint distribution of their errors (wins minus losses of i
    against j are i's correct answers minus j's)."""
    acc = accuracy.to_numpy(dtype=float)
    return 0.5 + (acc[:, None] - acc[None, :]) / 2


def b2_ratio_bound(accuracy: pd.Series | None = None, top: str = "SVM", bottom: str = "TextBlob") -> dict:
    """The BT strength ratio of ``top`` over ``bottom`` that B.2's accuracies allow: BT fitted to the pair scores
    :func:`pair_scores` (equal numbers of matches per pair; binarised matches are decided by right / wrong), and
    the two-model closed form ``(1 + d) / (1 - d)``, d the accuracy difference; next to the ratio B.2 prints (NaN
    for models B.2 does not have). ``accuracy`` defaults to B.2's."""
    b2 = published.frame("gvp", "appendix_b2").set_index("model")
    accuracy = b2["acc"] if accuracy is None else accuracy
    wins = pair_scores(accuracy)
    np.fill_diagonal(wins, 0.0)
    strengths = bt.fit(wins, systems=list(accuracy.index)).series()
    d = float(accuracy[top] - accuracy[bottom])
    return {"fitted": float(strengths[top] / strengths[bottom]), "two_models": (1 + d) / (1 - d),
            "printed": float(b2.loc[top, "bt"] / b2.loc[bottom, "bt"]) if {top, bottom} <= set(b2.index) else np.nan}


def ratio_rows() -> list[dict]:
    bound = b2_ratio_bound()
    return [_row("appB2-ratio", "svm/textblob", bound["printed"], bound["fitted"],
                 "Appendix B.2's accuracies (BT on the pair scores they imply)")]


def svm_rows() -> list[dict]:
    """§5's "SVM rose to the top of the BT ranking": its BT place in B.1 and in B.2."""
    return [_row("sec5-svm", "svm-bt-rank", 1, _rank(published.frame("gvp", name).set_index("model")["bt"], "SVM"),
                 source) for name, source in (("appendix_b1", "Appendix B.1"), ("appendix_b2", "Appendix B.2"))]


def paper_consistency(models_here=("TextBlob", "VADER", "Logistic Regression", "SVM", "fastText")) -> pd.DataFrame:
    """Every printed value recomputed from the paper's own appendices (module docstring); ``models_here``: the
    SST-5 models trained here, for Table 3 on them."""
    rows = (table2_rows() + table3_rows(models_here) + table4_rows() + table5_rows() + table6_rows() + table7_rows()
            + ratio_rows() + svm_rows())
    table = pd.DataFrame(rows, columns=["item", "pair", "printed", "printed_low", "printed_high", "recomputed",
                                        "tie_low", "tie_high", "source"])
    # the value an order of the printed ties gives that is nearest the printed one (the claims registry reads it)
    table["nearest"] = table["printed"].clip(table["tie_low"], table["tie_high"])
    return table


def agrees(consistency: pd.DataFrame, tol: float = PRINTED_2) -> pd.Series:
    """Whether some order of the printed ties gives the printed value to its printed decimals: the range of
    recomputed values meets the printed value (or interval) widened by ``tol``."""
    low = consistency["printed_low"].fillna(consistency["printed"]) - tol
    high = consistency["printed_high"].fillna(consistency["printed"]) + tol
    return (consistency["tie_high"] >= low - 1e-12) & (consistency["tie_low"] <= high + 1e-12)


def b1_renormalised(ours: pd.Series) -> pd.DataFrame:
    """Appendix B.1's BT (eight models, summing to 1) for the models in ``ours`` (our BT, summing to 1 over them),
    renormalised to sum to 1 over those models — under BT a ratio of two strengths does not depend on the others —
    next to ours, with each model's place by both."""
    paper = published.frame("gvp", "appendix_b1").set_index("model")["bt"].loc[list(ours.index)]
    out = pd.DataFrame({"paper_bt": paper, "paper_bt_renormalised": paper / paper.sum(), "bt": ours})
    out["paper_place"] = out["paper_bt"].rank(ascending=False, method="min").astype(int)
    out["place"] = out["bt"].rank(ascending=False, method="min").astype(int)
    return out.rename_axis("model")
