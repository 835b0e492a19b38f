"""Beyond the paper: how much of Φ is noise. The mean |Φ| of a metric without favoritism, the sign-flip tests read
as one family, document-level intervals on WMT22 zh-en, and whether Φ is favoritism or attenuation (on the same
items and on split halves)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from scipy import stats

from ... import favi
from ...validation import check_rng
from .experiments import ATTENUATION_ALPHA, DATASETS, KEYS, score_matrices, settings
from .wingraphs import FONT


def attenuation_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Is a pair's Φ favoritism or attenuation? A metric that only adds noise shrinks every margin, so by Lemma 1
    Φ ≈ -mar(d) / E: it "favours" the system the humans rate lower. Per dataset: how often Φ does, and Spearman's ρ
    between Φ and -mar(d) / E (1 = pure attenuation)."""
    usable = pairs[(pairs["total_error"] > 0) & (pairs["margin_human"] != 0)]
    usable = usable.assign(attenuation=-usable["margin_human"] / usable["total_error"])
    weaker = np.sign(usable["favi"]) == np.sign(usable["attenuation"])
    return pd.DataFrame([
        {"dataset": DATASETS[dataset], "pairs": len(part), "favours_weaker": float(weaker[part.index].mean()),
         "rho_favi_attenuation": stats.spearmanr(part["favi"], part["attenuation"]).statistic,
         "favours_weaker_significant": float(weaker[part.index][part["p_value"] < ATTENUATION_ALPHA].mean())}
        for dataset, part in usable.groupby("dataset", sort=False)]).set_index("dataset")


def split_half_attenuation(scores: pd.DataFrame, datasets, *, n_splits: int, rng) -> pd.DataFrame:
    """The attenuation reading without the humans' margin shared by Φ and −mar(d)/E: per dataset, split the items
    in halves ``n_splits`` times, orient each pair by the humans' margin on one half and compute Φ on the other."""
    rng = check_rng(rng)
    rows = []
    for dataset, group in settings(scores, datasets).groupby("dataset", sort=False):
        matrices = score_matrices(scores, dataset)
        cells = [favi.pair_cells(matrices[r.aspect], matrices[r.rater]) for r in group.itertuples(index=False)]
        n_items = len(cells[0].items)
        agree, rhos = [], []
        for _ in range(n_splits):
            first = np.isin(np.arange(n_items), rng.permutation(n_items)[: n_items // 2])
            phi, orient = [], []
            for c in cells:
                halves = (c.table(first), c.table(~first))
                for orienting, evaluating in (halves, halves[::-1]):
                    keep = ((orienting["margin_human"] != 0) & (orienting["total_error"] > 0)
                            & (evaluating["total_error"] > 0)).to_numpy()
                    phi.append(evaluating["favi"].to_numpy()[keep])
                    orient.append((-orienting["margin_human"] / orienting["total_error"]).to_numpy()[keep])
            phi, orient = np.concatenate(phi), np.concatenate(orient)
            agree.append(np.sign(phi) == np.sign(orient))
            rhos.append(stats.spearmanr(phi, orient).statistic if len(phi) > 2 else np.nan)
        agree = np.concatenate(agree)
        rows.append({"dataset": DATASETS[dataset], "comparisons": len(agree),
                     "favours_weaker": float(agree.mean()) if len(agree) else np.nan,
                     "rho": float(np.nanmean(rhos)) if np.isfinite(rhos).any() else np.nan})
    return pd.DataFrame(rows).set_index("dataset")


def split_half_page(same: pd.DataFrame, split: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({("same items", "Φ favours the weaker"): same["favours_weaker"],
                         ("same items", "ρ(Φ, −mar(d)/E)"): same["rho_favi_attenuation"],
                         ("split halves", "Φ favours the weaker"): split["favours_weaker"],
                         ("split halves", "ρ(Φ, −mar(d)/E)"): split["rho"]}).rename_axis("data")


def document_bootstrap(scores: pd.DataFrame, pairs: pd.DataFrame, documents: pd.Series, *, dataset: str,
                       n_resamples: int, rng) -> pd.DataFrame:
    """``dataset``'s pairs with their 95% item-bootstrap interval and one from resampling whole documents
    (``documents``: every item's document)."""
    matrices = score_matrices(scores, dataset)
    items = next(iter(matrices.values())).index  # every rater's matrix has the same items
    if len(missing := items.difference(documents.index)):
        raise ValueError(f"{dataset}: items without a document, e.g. {list(missing[:3])}")
    groups = documents.reindex(items).to_numpy()
    frames = [favi.favi_bootstrap(matrices[row.aspect], matrices[row.rater], groups=groups, n_resamples=n_resamples,
                                  rng=rng).assign(dataset=dataset, aspect=row.aspect, rater=row.rater)
              for row in settings(scores, [dataset]).itertuples(index=False)]
    doc = pd.concat(frames, ignore_index=True).rename(columns={"low": "doc_low", "high": "doc_high"})
    item = pairs[pairs["dataset"] == dataset][[*KEYS, "system_a", "system_b", "favi", "low", "high"]]
    out = item.merge(doc[["dataset", "aspect", "rater", "system_a", "system_b", "doc_low", "doc_high"]],
                     on=["dataset", "aspect", "rater", "system_a", "system_b"], how="inner", validate="one_to_one")
    return out.assign(item_width=out["high"] - out["low"], doc_width=out["doc_high"] - out["doc_low"])


def bootstrap_summary(intervals: pd.DataFrame) -> pd.DataFrame:
    """Per rater and over all: median interval widths, their ratio, and the shares excluding 0."""
    return pd.DataFrame([
        {"rater": rater, "pairs": len(part), "item_width": part["item_width"].median(),
         "doc_width": part["doc_width"].median(), "width_ratio": (part["doc_width"] / part["item_width"]).median(),
         "item_excludes_zero": ((part["low"] > 0) | (part["high"] < 0)).mean(),
         "doc_excludes_zero": ((part["doc_low"] > 0) | (part["doc_high"] < 0)).mean()}
        for rater, part in [*intervals.groupby("rater", sort=False), ("all raters", intervals)]])


def bootstrap_page(summary: pd.DataFrame) -> pd.DataFrame:
    heads = [("", "pairs"), *[("median width of the 95% interval", k) for k in ("items", "documents", "ratio")],
             *[("interval excludes 0", k) for k in ("items", "documents")]]  # :func:`bootstrap_summary`'s columns
    out = summary.set_index("rater").set_axis(pd.MultiIndex.from_tuples(heads), axis=1)
    return out.rename(index=lambda r: r.replace("_", "-"))


def multiple_testing(pairs: pd.DataFrame, *, alpha: float, n_resamples: int) -> pd.DataFrame:
    """The sign-flip tests of all pairs as one family: per dataset and over all, the shares with p < ``alpha``
    before and after the Benjamini-Hochberg correction."""
    tested = pairs[pairs["p_value"].notna()]
    adjusted = pd.Series(favi.benjamini_hochberg(tested["p_value"].to_numpy()), index=tested.index)
    return pd.DataFrame([
        {"data": DATASETS.get(name, name), "tests": len(part), "significant_share": (part["p_value"] < alpha).mean(),
         "significant_bh_share": (adjusted[part.index] <= alpha).mean(), "smallest_p": 1 / (1 + n_resamples)}
        for name, part in [*tested.groupby("dataset", sort=False), ("all datasets", tested)]])


def plot_noise(summary: pd.DataFrame) -> plt.Figure:
    """Observed mean |Φ| per setting against that of a metric with the same errors and no favoritism."""
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    palette = dict(zip(DATASETS, sns.color_palette("colorblind", len(DATASETS))))
    markers = dict(zip(DATASETS, "osD^vP"))  # colour and shape: SummEval's and PersonaChat's colours are close
    for dataset, part in summary.groupby("dataset", sort=False):
        ax.scatter(part["null_mean_abs_favi"], part["mean_abs_favi"], s=24, color=palette[dataset],
                   marker=markers[dataset], label=DATASETS[dataset])
    right = float(np.nanmax(summary["null_mean_abs_favi"])) * 1.1
    top = float(np.nanmax(summary["mean_abs_favi"])) * 1.05
    ax.plot([0, right], [0, right], color="black", lw=0.8, ls="--", label="observed = expected")
    ax.set(xlim=(0, right), ylim=(0, top), xlabel="mean |Φ| expected without favoritism", ylabel="observed mean |Φ|")
    ax.legend(fontsize=FONT, loc="upper left")
    fig.tight_layout()
    return fig
