"""The numbers the page's sentences paste (MyST-NB ``glue`` in the notebook), each read from the chapter's tables:
every function returns ``{name: value}``, a number or a short list of names, never a sentence. The sentences
themselves are the notebook's markdown; a conclusion that depends on a result pastes a claim's verdict
(``data/published/claims/gvp.toml``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...data import published
from ...sweeps import sample_size
from .claim_values import at_marker
from .self_check import FIVE_MODELS, agrees

#: the paper items of the consistency table (:func:`.self_check.paper_consistency`) in words
ITEMS = {"table2": "Table 2", "table3": "Table 3", "table4-binary": "Table 4 (binarised copies)",
         "table4-penalized": "Table 4 (penalised copies)", "table5": "Table 5", "table6": "Table 6",
         "table7": "Table 7", "appB2-ratio": "Appendix B.2's BT ratio", "sec5-svm": "§5's SVM on top"}


def names(items) -> str:
    """'a', 'a and b', 'a, b and c'; 'none' when empty."""
    items = [str(n) for n in items]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else (items[0] if items else "none")


def ranking(values: pd.Series) -> str:
    """The index of ``values`` from the highest value down: 'A > B > C'."""
    return " > ".join(map(str, values.sort_values(ascending=False).index))


def place(values: pd.Series, model: str) -> int:
    """1-based place of ``model`` by ``values``, highest first (ties share the best place)."""
    return int(values.rank(ascending=False, method="min")[model])


# -- the paper against itself -----------------------------------------------------------------------------------------


def self_check(consistency: pd.DataFrame) -> dict:
    """How many printed values were recomputed from the paper's appendices (on all its models), how many agree
    (:func:`.self_check.agrees`), and the paper items of the others."""
    ok = agrees(consistency)
    main = consistency["source"] != FIVE_MODELS
    failed = [ITEMS.get(i, i) for i in dict.fromkeys(consistency.loc[main & ~ok, "item"])]
    return {"checked": int(main.sum()), "agree": int((ok & main).sum()), "failed": names(failed)}


# -- CEval ------------------------------------------------------------------------------------------------------------


def missing_generations(texts: pd.DataFrame) -> str:
    """The CEval models with reviews that have no generation, and how many: 'Llama 2 (4) and LLaMA (7)'."""
    missing = (texts == "").sum()
    return names(f"{m} ({n})" for m, n in missing.items() if n)


def sampling(quality: pd.DataFrame) -> dict:
    """The paper's sampling rule on ``quality`` (instances x models): m, the 12·m·ln m matches per pair it asks
    (``rule``) and the number drawn (``size``: fewer when the instances run out), and the instances."""
    m, n = quality.shape[1], quality.shape[0]
    return {"m": m, "rule": sample_size(m, 10**9), "size": sample_size(m, n), "instances": n}


def penalised_copies(scores_c2: pd.DataFrame) -> dict:
    """Appendix C.2: per measure (ED, WER, chrF, BT), how many of the originals score better than their own
    penalised copy (ED and WER lower, the others higher)."""
    measures = scores_c2.set_index("model")
    originals = [m for m in measures.index if not m.startswith("Penalized ")]
    copies = [f"Penalized {m}" for m in originals]
    better = {c: measures.loc[originals, c].to_numpy() < measures.loc[copies, c].to_numpy() for c in ("ed", "wer")}
    better |= {c: measures.loc[originals, c].to_numpy() > measures.loc[copies, c].to_numpy() for c in ("chrf", "bt")}
    above = {f"{c}_above": int(v.sum()) for c, v in better.items()}
    return {"originals": len(originals), "models": len(measures)} | above


# -- the binary stand-in and SST-5 ------------------------------------------------------------------------------------


def binary_a1(a1: pd.DataFrame, table2: pd.DataFrame, zero_one: str = "Decision Tree",
              paper_zero_one: str = "XGBoost") -> dict:
    """Appendix A.1 and Table 2: the 0/1 model's places by accuracy and BT (and the paper's XGBoost's), BT's
    Spearman correlations with sharpness and accuracy (also without the 0/1 model) and with AUC, the smallest
    correlation between two global measures, and BTbin's correlation with accuracy."""
    paper = published.frame("gvp", "appendix_a1").set_index("model")
    sharp = a1[["acc", "bt", "sharpness"]].corr(method="spearman")
    glob = ["acc", "auc", "f1"]
    return {"n": len(a1), "acc_place": place(a1["acc"], zero_one), "bt_place": place(a1["bt"], zero_one),
            "paper_n": len(paper), "paper_acc_place": place(paper["acc"], paper_zero_one),
            "paper_bt_place": place(paper["bt"], paper_zero_one),
            "bt_sharpness": float(sharp.loc["bt", "sharpness"]), "bt_acc": float(sharp.loc["bt", "acc"]),
            "bt_acc_without": float(a1.drop(index=zero_one)[["acc", "bt"]].corr(method="spearman").loc["acc", "bt"]),
            "bt_auc": float(table2.loc["auc", "bt"]),
            "global_min": float(min(table2.loc[a, b] for i, a in enumerate(glob) for b in glob[i + 1:])),
            "btbin_acc": float(table2.loc["acc", "bt_bin"])}


def copies_below(originals: pd.DataFrame, copies: pd.DataFrame, column: str = "mae") -> int:
    """How many copies score below their original under ``column`` (rows in the same order)."""
    return int((copies[column].to_numpy() < originals[column].to_numpy()).sum())


def sst5_b1(b1: pd.DataFrame) -> dict:
    """Appendix B.1: the BT order of the models trained here, the SVM's BT place among them and in the paper's B.1
    (over its eight models)."""
    here = b1.dropna(subset=["acc"])
    paper_bt = b1["paper_bt"].dropna()
    return {"order": ranking(here["bt"]), "n": len(here), "svm_place": place(here["bt"], "SVM"),
            "paper_n": len(paper_bt), "paper_svm_place": place(paper_bt, "SVM")}


def sst5_b2(b2: pd.DataFrame, b1: pd.DataFrame) -> dict:
    """Appendix B.2: the binarised BT order here, the model on top of the paper's B.2, the models whose most
    confident class is not always their predicted one (their accuracy differs between B.1 and B.2),
    and in the paper's own appendices the models whose B.2 accuracy is below their B.1 accuracy and those whose F1
    is the same in both."""
    here = b2.dropna(subset=["acc"])
    changed = [m for m in here.index if not np.isclose(here.loc[m, "acc"], b1.loc[m, "acc"])]
    paper = published.frame("gvp", "appendix_b2").set_index("model")
    paper_b1 = published.frame("gvp", "appendix_b1").set_index("model").reindex(paper.index)
    return {"order": ranking(here["bt"]), "paper_top": str(b2["paper_bt"].idxmax()), "changed": names(changed),
            "paper_n": len(paper), "paper_acc_lower": int((paper["acc"] < paper_b1["acc"]).sum()),
            "paper_f1_same": int((paper["f1"] == paper_b1["f1"]).sum())}


def ap(table: pd.DataFrame) -> dict:
    """A Table 4/5 frame (:func:`.classification.ap_versus_paper`) as ``{"<experiment>_<measure>": AP}``, with
    BT's interval as ``..._bt_low`` and ``..._bt_high``."""
    out = {}
    for row in table.itertuples():
        out[f"{row.experiment}_{row.measure}"] = float(row.ap)
        if row.measure == "bt":
            out[f"{row.experiment}_bt_low"], out[f"{row.experiment}_bt_high"] = float(row.ap_low), float(row.ap_high)
    return out


# -- Figs. 1-3, §5's random models ------------------------------------------------------------------------------------


def tie_sweep(sweep: pd.DataFrame, near: float) -> dict:
    """Fig. 1: the mean correlation without added ties, and at the tie probability nearest ``near`` (the page reads
    the paper's own share of ties) its value and its middle 95%."""
    defined = sweep.dropna(subset=["spearman_mean"])
    row = defined.loc[(defined["tie_probability"] - near).abs().idxmin()]
    return {"start": float(defined["spearman_mean"].iloc[0]), "p": float(row["tie_probability"]),
            "at_p": float(row["spearman_mean"]), "at_p_low": float(row["spearman_low"]),
            "at_p_high": float(row["spearman_high"])}


def random_binary(table: pd.DataFrame) -> dict:
    """§5's three random binary models: repetitions, the spread of the three accuracies (mean, largest), the share
    of repetitions where BT on every instance orders the models as accuracy does, and for BT on one sample of
    12·m·ln m matches per pair its size, its mean share of ties, its mean correlation with accuracy and the share of
    repetitions where it equals the paper's value."""
    paper = published.item("gvp", "section5_random_binary")["spearman_bt"]
    return {"repeats": len(table), "spread_mean": float(table["accuracy_spread"].mean()),
            "spread_max": float(table["accuracy_spread"].max()),
            "full_agree": float((table["spearman_full"] == 1).mean()),
            "sample": sample_size(3, 10**9), "ties": float(table["tie_share"].mean()),
            "sampled_mean": float(table["spearman_sampled"].mean()),
            "at_paper": float((table["spearman_sampled"].round(2) == paper).mean()), "paper": float(paper)}


def detection(curve: pd.DataFrame) -> dict:
    """Fig. 3: the largest difference on the grid, and for each number of matches the probability of the correct
    order there by the count of wins (``pairwise_<n>``) and by the mean (``global_<n>``)."""
    largest = curve["difference"].max()
    at = curve[np.isclose(curve["difference"], largest)].set_index("matches")
    return {"largest": float(largest)} | {f"{kind}_{n}": float(row[kind]) for n, row in at.iterrows()
                                          for kind in ("pairwise", "global")}


def stability_view(curves: dict) -> pd.DataFrame:
    """Fig. 2's curves (title -> (curve, 12·m·ln m)) at the red line and at the grid's end, one row per curve: the
    grid point nearest 12·m·ln m, the share of trials that misplace some model there and the mean number of
    misplaced models, then that mean at the largest number of comparisons."""
    rows = {}
    for title, (curve, marker) in curves.items():
        at, end = at_marker(curve, marker), curve.iloc[-1]
        rows[title] = {"12·m·ln m": marker, "nearest grid point": int(at["comparisons"]),
                       "trials misplacing a model there": at["changed_share"],
                       "models misplaced there (mean)": at["changes_mean"],
                       f"models misplaced at {end['comparisons']:,.0f} (mean)": end["changes_mean"]}
    return pd.DataFrame.from_dict(rows, orient="index")


# -- llmfao -----------------------------------------------------------------------------------------------------------


def llmfao(sweep: pd.DataFrame, ranks: pd.DataFrame, rho_boot: np.ndarray, curve: pd.DataFrame) -> dict:
    """llmfao beyond the paper: the halves' mean correlation without added ties; the bootstrap's mean correlation
    with BT on every judgment and the width of the models' 95% rank ranges (median, largest); and the split-half
    curve's smallest and largest share (judgments per part, mean correlation, its 2.5% percentile and the mean
    displacement of a model's rank)."""
    width = ranks["rank_high"] - ranks["rank_low"]
    first, last = curve.iloc[0], curve.iloc[-1]
    start = sweep.dropna(subset=["spearman_mean"])["spearman_mean"]
    return {"start": float(start.iloc[0]) if len(start) else np.nan, "boot_rho": float(np.nanmean(rho_boot)),
            "width_median": float(width.median()), "width_max": float(width.max()),
            "small_share": float(first["share"]), "small_judgments": float(first["judgments"]),
            "small_rho": float(first["spearman_mean"]), "half_judgments": float(last["judgments"]),
            "half_rho": float(last["spearman_mean"]), "half_low": float(last["spearman_low"]),
            "half_moves": float(last["rank_displacement"])}
