"""Chapter ``04_favoritism``'s shared pieces: the datasets and settings (a dataset, a human rating, an automatic
rater), every system pair's Φ with its interval and test (:func:`per_pair`), and the settings' names for a reader."""

from __future__ import annotations

import pandas as pd

from ... import favi
from ..common import metric_label

#: dataset -> its label (WMT22 zh-en stands in for en-de's neural metrics, USR for the paper's BST chatbot data)
DATASETS = {"wmt22-ende": "WMT22 en-de", "wmt22-zhen": "WMT22 zh-en", "wmt21-ende": "WMT21 en-de",
            "summeval": "SummEval", "usr-tc": "USR TopicalChat", "usr-pc": "USR PersonaChat"}
#: WMT22's refA, the metrics' reference (they would favour it unduly); the paper compares eight MT systems and refB
EXCLUDED_SYSTEMS = {"wmt22-ende": ("refA",), "wmt22-zhen": ("refA",)}
SUMMEVAL_ASPECTS = ("expert_coherence", "expert_consistency", "expert_fluency", "expert_relevance")
KEYS = ["domain", "dataset", "aspect", "rater"]
#: the level below which the attenuation reading counts a pair's Φ as significant
ATTENUATION_ALPHA = 0.05
PER_PAIR_COLUMNS = [*KEYS, "system_a", "system_b", "n_items", *favi.CELLS, "favi", "sample_accuracy",
                    "system_sign_agrees"]


def span(low, high) -> str:
    """A count, or a range of counts where they differ: "1,200" or "1,200–1,315"."""
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


def settings(scores: pd.DataFrame, datasets) -> pd.DataFrame:
    """Every setting to evaluate, in the order of ``datasets``: each human rater of a dataset against each of its
    automatic raters (metrics and LLM judges)."""
    if unknown := sorted(set(datasets) - set(scores["dataset"].unique())):
        raise ValueError(f"no Favi-Score data for datasets {unknown}")
    kinds = scores[["domain", "dataset", "rater", "rater_kind"]].drop_duplicates()
    human = kinds["rater_kind"] == "human"
    out = kinds[human & kinds["dataset"].isin(datasets)].drop(columns="rater_kind").rename(columns={"rater": "aspect"})
    out = out.merge(kinds[~human], on=["domain", "dataset"])
    return out.iloc[pd.Index(datasets).get_indexer(out["dataset"]).argsort(kind="stable")].reset_index(drop=True)


def score_matrices(scores: pd.DataFrame, dataset: str) -> dict[str, pd.DataFrame]:
    """Every rater's items x systems matrix of ``dataset`` (NaN = not rated) on the same items and systems, without
    the :data:`EXCLUDED_SYSTEMS`."""
    part = scores[(scores["dataset"] == dataset) & ~scores["system"].isin(EXCLUDED_SYSTEMS.get(dataset, ()))]
    if part.duplicated(["item", "rater", "system"]).any():
        raise ValueError(f"{dataset}: more than one score for some (item, rater, system)")
    wide = part.pivot_table(index="item", columns=["rater", "system"], values="score", dropna=False, aggfunc="first")
    systems = sorted(part["system"].unique())
    return {rater: wide[rater].reindex(columns=systems) for rater in part["rater"].unique()}


def per_pair(scores: pd.DataFrame, datasets, *, n_resamples: int, rng) -> pd.DataFrame:
    """:func:`analysis.favi.favi_uncertainty` for every setting: one row per setting and system pair."""
    plan = settings(scores, datasets)[KEYS]
    matrices = {dataset: score_matrices(scores, dataset) for dataset in plan["dataset"].unique()}
    out = pd.concat([favi.favi_uncertainty(matrices[dataset][aspect], matrices[dataset][rater], n_resamples=n_resamples,
                                           rng=rng).assign(domain=domain, dataset=dataset, aspect=aspect, rater=rater)
                     for domain, dataset, aspect, rater in plan.itertuples(index=False)], ignore_index=True)
    return out[[*KEYS, *[c for c in out.columns if c not in KEYS]]]


def setting_table(frame: pd.DataFrame, dataset: str, aspect: str, rater: str, *, required: bool = True):
    """The rows of ``frame`` for one setting; none is an error when ``required``."""
    part = frame[(frame["dataset"] == dataset) & (frame["aspect"] == aspect) & (frame["rater"] == rater)]
    if required and part.empty:
        raise ValueError(f"no system pairs for {dataset} / {aspect} / {rater}")
    return part.reset_index(drop=True)


def setting_name(dataset: str, rater: str) -> str:
    """``rater`` on ``dataset`` in words: "ROUGE-L on SummEval"."""
    return f"{metric_label(rater)} on {DATASETS[dataset]}"


def setting_index(frame: pd.DataFrame) -> pd.Index:
    return pd.Index(list(map(setting_name, frame["dataset"], frame["rater"])), name="setting")


def aspect_label(aspect: str) -> str:
    """A human rating's name for a reader: expert_consistency → experts' consistency, USR_Overall → overall."""
    if aspect.startswith("expert_"):
        return f"experts' {aspect.removeprefix('expert_')}"
    return {"USR_Overall": "overall"}.get(aspect, aspect.replace("_", " "))


#: the saved tables' column names in words
WORDS = {"domain": "Domain", "data": "Data", "metrics": "Metrics", "systems": "Systems",
         "ratings_per_pair": "Items per system pair", "spearman_rho": "Spearman's ρ", "paper": "paper's ρ",
         "accuracy": "same preference in both orders", "alpha_nominal": "Krippendorff's α, nominal",
         "alpha_ordinal": "α, ordinal", "order": "presentation order", "sample_accuracy": "sample-level accuracy",
         "system_accuracy": "system-level accuracy", "mean_abs_favi": "mean |Φ|",
         "favours_weaker": "Φ favours the humans' weaker system",
         "rho_favi_attenuation": "Spearman's ρ of Φ and −mar(d)/E",
         "favours_weaker_significant": f"… among pairs with p < {ATTENUATION_ALPHA:g}", "tests": "pairs tested",
         "significant_share": "significant, uncorrected",
         "significant_bh_share": "significant after Benjamini–Hochberg"}


def in_words(frame: pd.DataFrame, **more: str) -> pd.DataFrame:
    return frame.rename(columns=WORDS | more)
