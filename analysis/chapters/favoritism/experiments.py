"""Chapter ``04_favoritism``'s computations: the datasets and settings, every system pair's Favi-Score with its
interval and test (:func:`per_pair`), and the tables of numbers per paper item — Table 1 for the data at hand,
Lemmas 1-2, Fig. 4's per-metric summary, the win-graph agreement, ChatGPT's head-to-head judgments (App. C.2.1) and
beyond the paper whether Φ is favoritism or attenuation."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ... import favi

#: dataset -> its label (WMT22 zh-en stands in for WMT22 en-de's neural metrics, the USR data for the paper's BST
#: chatbot data; the notebook's "What differs" says what each stands for)
DATASETS = {"wmt22-ende": "WMT22 en-de", "wmt22-zhen": "WMT22 zh-en", "wmt21-ende": "WMT21 en-de",
            "summeval": "SummEval", "usr-tc": "USR TopicalChat", "usr-pc": "USR PersonaChat"}
#: systems left out per dataset: WMT22's refA is the reference the metrics score against (reference-based metrics
#: would favour it unduly); the paper compares eight MT systems and ref-B
EXCLUDED_SYSTEMS = {"wmt22-ende": ("refA",), "wmt22-zhen": ("refA",)}
SUMMEVAL_ASPECTS = ("expert_coherence", "expert_consistency", "expert_fluency", "expert_relevance")
KEYS = ["domain", "dataset", "aspect", "rater"]
#: the level below which :func:`attenuation_table` counts a pair's Φ as significant
ATTENUATION_ALPHA = 0.05
PER_PAIR_COLUMNS = [*KEYS, "system_a", "system_b", "n_items", *favi.CELLS, "favi", "sample_accuracy",
                    "system_sign_agrees"]


def dataset_label(dataset: str) -> str:
    return DATASETS[dataset]


def span(low, high) -> str:
    """A count, or a range of counts where they differ: "1,200" or "1,200–1,315"."""
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


# -- data --------------------------------------------------------------------------------------------------------

def settings(scores: pd.DataFrame, datasets) -> pd.DataFrame:
    """Every (domain, dataset, aspect, rater, rater_kind) to evaluate: each human rater of a dataset against each of
    its automatic raters (metrics and LLM judges), in the order of ``datasets``."""
    unknown = sorted(set(datasets) - set(scores["dataset"].unique()))
    if unknown:
        raise ValueError(f"no Favi-Score data for datasets {unknown}")
    kinds = scores[["domain", "dataset", "rater", "rater_kind"]].drop_duplicates()
    rows = []
    for dataset in datasets:
        part = kinds[kinds["dataset"] == dataset]
        automatic = part[part["rater_kind"] != "human"]
        humans = part["rater"][part["rater_kind"] == "human"]
        rows += [(part["domain"].iloc[0], dataset, aspect, rater, kind) for aspect in humans
                 for rater, kind in zip(automatic["rater"], automatic["rater_kind"])]
    return pd.DataFrame(rows, columns=[*KEYS, "rater_kind"])


def score_matrices(scores: pd.DataFrame, dataset: str) -> dict[str, pd.DataFrame]:
    """Every rater's items x systems matrix of ``dataset`` (NaN = not rated), all on the same items and systems,
    without the :data:`EXCLUDED_SYSTEMS`."""
    part = scores[(scores["dataset"] == dataset) & ~scores["system"].isin(EXCLUDED_SYSTEMS.get(dataset, ()))]
    if part.duplicated(["item", "rater", "system"]).any():
        raise ValueError(f"{dataset}: more than one score for some (item, rater, system)")
    wide = part.pivot_table(index="item", columns=["rater", "system"], values="score", dropna=False,
                            aggfunc="first")
    systems = sorted(part["system"].unique())
    return {rater: wide[rater].reindex(columns=systems) for rater in part["rater"].unique()}


def per_pair(scores: pd.DataFrame, datasets, *, n_resamples: int, rng) -> pd.DataFrame:
    """:func:`analysis.favi.favi_table` and :func:`analysis.favi.favi_uncertainty` for every setting: one row per
    (domain, dataset, aspect, rater, system_a, system_b), with margins, Φ's interval, p-value and null |Φ|."""
    frames = []
    plan = settings(scores, datasets)
    for dataset, group in plan.groupby("dataset", sort=False):
        matrices = score_matrices(scores, dataset)
        for row in group.itertuples(index=False):
            human, metric = matrices[row.aspect], matrices[row.rater]
            table = favi.favi_uncertainty(human, metric, n_resamples=n_resamples, rng=rng)
            frames.append(table.assign(domain=row.domain, dataset=dataset, aspect=row.aspect, rater=row.rater))
    out = pd.concat(frames, ignore_index=True)
    return out[[*KEYS, *[c for c in out.columns if c not in KEYS]]]


def setting_rows(frame: pd.DataFrame, dataset: str, aspect: str, rater: str) -> pd.DataFrame:
    """The rows of ``frame`` for one setting (dataset, aspect, rater)."""
    return frame[(frame["dataset"] == dataset) & (frame["aspect"] == aspect) & (frame["rater"] == rater)]


def setting_table(pairs: pd.DataFrame, dataset: str, aspect: str, rater: str) -> pd.DataFrame:
    part = setting_rows(pairs, dataset, aspect, rater)
    if part.empty:
        raise ValueError(f"no system pairs for {dataset} / {aspect} / {rater}")
    return part.reset_index(drop=True)


# -- the lemmas --------------------------------------------------------------------------------------------------

def lemma_checks(pairs: pd.DataFrame) -> pd.DataFrame:
    """Lemma 1 (Φ = (mar(d̂) - mar(d)) / E) and Lemma 2 (Φ = 0 implies equal margin signs) on every real pair, and
    the counter-examples to Lemma 2's converse (App. B: equal signs do not imply Φ = 0)."""
    defined = pairs[pairs["total_error"] > 0]
    via_margins = (defined["margin_metric"] - defined["margin_human"]) / defined["total_error"]
    zero = defined[defined["favi"] == 0]
    disagree = pairs[~pairs["system_sign_agrees"]]
    return pd.DataFrame([
        {"check": "pairs evaluated", "value": len(pairs)},
        {"check": "pairs without any error (Φ undefined, so left empty)", "value": int((pairs["total_error"] == 0).sum())},
        {"check": "Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|", "value": float((defined["favi"] - via_margins).abs().max())},
        {"check": "Lemma 2: pairs with Φ = 0", "value": len(zero)},
        {"check": "Lemma 2: ... of which the margin signs differ", "value": int((~zero["system_sign_agrees"]).sum())},
        {"check": "pairs whose margin signs differ", "value": len(disagree)},
        {"check": "... of which Φ = 0", "value": int((disagree["favi"] == 0).sum())},
        {"check": "Lemma 2's converse: pairs with Φ ≠ 0 whose margin signs agree",
         "value": int(((defined["favi"] != 0) & defined["system_sign_agrees"]).sum())},
    ]).set_index("check")


# -- Table 1 --------------------------------------------------------------------------------------------------------

def table1(scores: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand, per dataset of ``pairs`` (in its order): its automatic raters, the systems
    compared (those in at least one evaluated pair: with human ratings, without the :data:`EXCLUDED_SYSTEMS`) and
    the items per system pair (|E|, from ``items_min`` to ``items_max``); beside them the systems with human
    ratings, the systems one automatic rater's pairs compare (fewest, most), the human-rated items per system
    (fewest, most), whether every system is rated on the same items, and the dataset's items."""
    rows = []
    for dataset, part in pairs.groupby("dataset", sort=False):
        data = scores[scores["dataset"] == dataset]
        kinds = data.drop_duplicates("rater")
        automatic = kinds[kinds["rater_kind"] != "human"]["rater"].tolist()
        human = data[data["rater_kind"] == "human"].dropna(subset=["score"])
        low, high = part["n_items"].min(), part["n_items"].max()
        compared = [len(set(g["system_a"]) | set(g["system_b"])) for _, g in part.groupby("rater")]
        rated = human.groupby(["rater", "system"])["item"].nunique()
        shared = human.groupby(["rater", "item"])["system"].nunique()
        rows.append({"domain": part["domain"].iloc[0], "data": dataset_label(dataset),
                     "human_raters": int((kinds["rater_kind"] == "human").sum()),
                     "automatic_raters": len(automatic),
                     "systems": len(set(part["system_a"]) | set(part["system_b"])),
                     "ratings_per_pair": f"{low}" if low == high else f"{low}-{high}",
                     "items_min": int(low), "items_max": int(high), "automatic": ", ".join(automatic),
                     "systems_rated": int(human["system"].nunique()),
                     "same_rated_items": bool((shared == human["system"].nunique()).sum() == rated.max()),
                     "systems_compared_min": min(compared), "systems_compared_max": max(compared),
                     "rated_items_min": int(rated.min()), "rated_items_max": int(rated.max()),
                     "dataset_items": int(data["item"].nunique())})
    return pd.DataFrame(rows)


# -- Fig. 4 and the per-metric summary ---------------------------------------------------------------------------

def metric_summary(pairs: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> pd.DataFrame:
    """Per (domain, dataset, aspect, rater): Defs. 10-11 (sample- and system-level sign accuracy), mean |Φ| and its
    sd over pairs (Fig. 4), the share of pairs whose win-graph verdicts agree (§2), and beyond the paper the mean
    |Φ| a metric with the same errors and no favoritism would show and the share of pairs with p < ``alpha``."""
    rows = []
    for key, part in pairs.groupby(KEYS, sort=False):
        accuracy = favi.sign_accuracies(part)
        outcomes = favi.significance_outcomes(part, alpha=alpha, ties=ties)
        absolute = part["favi"].abs()
        rows.append({**dict(zip(KEYS, key)), "pairs": accuracy.pairs, "sample_accuracy": accuracy.sample,
                     "system_accuracy": accuracy.system, "mean_abs_favi": absolute.mean(),
                     "sd_abs_favi": absolute.std(ddof=1), "null_mean_abs_favi": part["null_mean_abs"].mean(),
                     "significant_share": (part["p_value"] < alpha).mean(),
                     "graph_agreement": favi.graph_agreement(outcomes)})
    return pd.DataFrame(rows)


def fig4_scope(frame: pd.DataFrame, summeval_aspect: str) -> pd.DataFrame:
    """The rows Fig. 4 plots: one human rater per dataset (SummEval: ``summeval_aspect``)."""
    keep = (frame["dataset"] != "summeval") | (frame["aspect"] == summeval_aspect)
    return frame[keep]


# -- the win graphs (Fig. 1, Figs. 8-13) ---------------------------------------------------------------------------

def graph_summary(summary_pairs: pd.DataFrame, cases, *, alpha: float = 0.05) -> pd.DataFrame:
    """Per case: edges of the full significance relation (human, metric) and the verdict agreement with ties
    dropped (the conventional sign test) and split (Coakley & Heise's conservative version)."""
    rows = []
    for dataset, aspect, rater in cases:
        table = setting_table(summary_pairs, dataset, aspect, rater)
        row = {"dataset": dataset, "aspect": aspect, "rater": rater, "pairs": len(table)}
        for ties in ("drop", "half"):
            outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
            row[f"human_edges_{ties}"] = int((outcomes["human"] != 0).sum())
            row[f"metric_edges_{ties}"] = int((outcomes["metric"] != 0).sum())
            row[f"agreement_{ties}"] = favi.graph_agreement(outcomes)
        rows.append(row)
    return pd.DataFrame(rows)


def case_numbers(table: pd.DataFrame, *, alpha: float = 0.05, ties: str = "drop") -> dict:
    """The numbers a case figure's caption states (``table``: :func:`setting_table`): systems, the shared items per
    pair (a range where pairs differ), the pairs, the share of them whose win-graph verdicts agree, and the sign
    accuracies and mean |Φ| the paper prints in its figure titles."""
    outcomes = favi.significance_outcomes(table, alpha=alpha, ties=ties)
    accuracy = favi.sign_accuracies(table)
    return {"systems": len(set(table["system_a"]) | set(table["system_b"])),
            "items": span(table["n_items"].min(), table["n_items"].max()), "pairs": len(outcomes),
            "agreement": favi.graph_agreement(outcomes), "system": accuracy.system, "sample": accuracy.sample,
            "mean_abs_favi": table["favi"].abs().mean()}


# -- Appendix C.2.1 and ChatGPT's head-to-head judgments -------------------------------------------------------------

def h2h_ratings(h2h: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's SummEval head-to-head judgments as preference ratings of (system_a, system_b), system_a < system_b:
    one row per (aspect, pair, document) with the ``original`` and ``toggled`` presentation's rating and the
    experts' (Def. 13 on their mean ratings)."""
    frame = h2h.copy()
    swap = frame["system_1"] > frame["system_2"]
    frame["system_a"] = frame["system_1"].where(~swap, frame["system_2"])
    frame["system_b"] = frame["system_2"].where(~swap, frame["system_1"])
    frame["rating"] = np.select([frame["preferred"] == frame["system_a"], frame["preferred"] == frame["system_b"],
                                 frame["preferred"] == "tie"], [1, -1, 0], default=99)
    if (frame["rating"] == 99).any():
        raise ValueError(f"head-to-head judgments naming neither system: {frame.loc[frame['rating'] == 99, 'preferred'].unique()[:5]}")
    expert_a = frame["expert_1"].where(~swap, frame["expert_2"])
    expert_b = frame["expert_2"].where(~swap, frame["expert_1"])
    frame["expert"] = favi.derived_preferences(expert_a.to_numpy(), expert_b.to_numpy())
    wide = frame.pivot_table(index=["aspect", "system_a", "system_b", "document"], columns="order",
                             values="rating", aggfunc="first")
    experts = frame.drop_duplicates(["aspect", "system_a", "system_b", "document"]).set_index(
        ["aspect", "system_a", "system_b", "document"])["expert"]
    out = wide.join(experts).reset_index()
    if out[["original", "toggled"]].isna().any().any():
        raise ValueError("some head-to-head judgments lack their other presentation order")
    return out.astype({"original": "int8", "toggled": "int8", "expert": "int8"})


def symmetry_confusion(ratings: pd.DataFrame) -> pd.DataFrame:
    s = favi.preference_symmetry(ratings["original"].to_numpy(), ratings["toggled"].to_numpy())
    labels = ["+ (a better)", "= (tie)", "- (b better)"]
    return pd.DataFrame(s.confusion, index=pd.Index(labels, name="original order"),
                        columns=pd.Index(labels, name="toggled order"))


def h2h_favi(ratings: pd.DataFrame) -> pd.DataFrame:
    """ChatGPT's head-to-head judgments as a preference metric against the experts, per aspect and presentation
    order: sample- and system-level sign accuracy and mean |Φ| over its 11 system pairs."""
    rows = []
    for (aspect, order), part in ratings.melt(id_vars=["aspect", "system_a", "system_b", "document", "expert"],
                                              value_vars=["original", "toggled"], var_name="order",
                                              value_name="judge").groupby(["aspect", "order"]):
        grouped = part.groupby(["system_a", "system_b"], sort=True)
        c = np.stack([favi.confusion_matrix(g["expert"].to_numpy(), g["judge"].to_numpy()) for _, g in grouped])
        r = favi.summarize(c)
        rows.append({"aspect": aspect, "order": order, "pairs": len(c),
                     "sample_accuracy": np.trace(c, axis1=1, axis2=2).sum() / c.sum(),
                     "system_accuracy": r.system_sign_agrees.mean(), "mean_abs_favi": np.nanmean(np.abs(r.favi))})
    return pd.DataFrame(rows)


# -- beyond the paper: favoritism or attenuation --------------------------------------------------------------------

def attenuation_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """Is a pair's Φ favoritism or attenuation? A metric that only adds noise shrinks every margin towards 0, so by
    Lemma 1 its Φ ≈ -mar(d) / E: it "favours" whichever system the humans rate lower. Per dataset: the share of
    pairs (with a human margin and an error) whose Φ favours the humans' weaker system, and Spearman's ρ between Φ
    and -mar(d) / E (1 = pure attenuation)."""
    usable = pairs[(pairs["total_error"] > 0) & (pairs["margin_human"] != 0)]
    rows = []
    for dataset, part in usable.groupby("dataset", sort=False):
        attenuation = -part["margin_human"] / part["total_error"]
        rows.append({"dataset": dataset_label(dataset), "pairs": len(part),
                     "favours_weaker": float((np.sign(part["favi"]) == np.sign(attenuation)).mean()),
                     "rho_favi_attenuation": stats.spearmanr(part["favi"], attenuation).statistic,
                     "favours_weaker_significant": float(
                         (np.sign(part["favi"]) == np.sign(attenuation))[part["p_value"] < ATTENUATION_ALPHA].mean())})
    return pd.DataFrame(rows).set_index("dataset")
