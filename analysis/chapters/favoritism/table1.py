"""Table 1 for the data at hand: what each dataset holds, as saved, as shown and beside the paper's rows."""

from __future__ import annotations

import pandas as pd

from ...data import published
from ..common import metric_label
from .experiments import DATASETS, aspect_label, span


def table1(scores: pd.DataFrame, pairs: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand, per dataset: its automatic raters, the systems compared and the items per pair
    (|E|), and beside them the systems and items with human ratings."""
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
        rows.append({"domain": part["domain"].iloc[0], "data": DATASETS[dataset],
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


def human_ratings_label(aspects) -> str:
    """A dataset's human ratings in words: experts' coherence, fluency."""
    aspects = list(aspects)
    if aspects and all(a.startswith("expert_") for a in aspects):
        return "experts' " + ", ".join(a.removeprefix("expert_") for a in aspects)
    return ", ".join(map(aspect_label, aspects))


def table1_page(table1: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    humans = (scores[scores["rater_kind"] == "human"].drop_duplicates(["dataset", "rater"])
              .groupby("dataset", sort=False)["rater"].agg(list))
    by_label = {label: key for key, label in DATASETS.items()}
    return pd.DataFrame({
        "Domain": table1["domain"], "Data": table1["data"],
        "Systems with human ratings": table1["systems_rated"].astype(int),
        "Systems compared by Φ": list(map(span, table1["systems_compared_min"], table1["systems_compared_max"])),
        "Items per system pair": list(map(span, table1["items_min"], table1["items_max"])),
        "Human ratings": [human_ratings_label(humans.get(by_label.get(d, d), [])) for d in table1["data"]],
        "Automatic raters": [", ".join(map(metric_label, a.split(", "))) for a in table1["automatic"]]})


#: the row of the paper's Table 1 that each dataset here stands for (WMT22 zh-en stands in for metrics, not a row)
PAPER_TABLE1_ROWS = {"WMT22 en-de": "WMT22", "WMT21 en-de": "WMT21", "SummEval": "SummEval",
                     "USR TopicalChat": "Chatbot", "USR PersonaChat": "Chatbot"}


def table1_beside_paper(table1: pd.DataFrame) -> pd.DataFrame:
    """Table 1 for the data at hand beside the paper's row each dataset stands for ("—" where none)."""
    paper = (pd.DataFrame(published.item("favi", "table1")["rows"]).set_index("domain")
             .reindex(table1["data"].map(PAPER_TABLE1_ROWS)))  # NaN where no row

    def theirs(written, column):
        return paper[column].map(written.format, na_action="ignore").fillna("—").to_numpy()

    return pd.DataFrame({
        ("systems", "here"): table1["systems"].astype(int).to_numpy(),
        ("systems", "paper"): theirs("{:.0f}", "systems"),
        ("items per system pair", "here"): list(map(span, table1["items_min"], table1["items_max"])),
        ("items per system pair", "paper"): theirs("{:,.0f}", "ratings_per_pair"),
        ("metrics", "here"): table1["automatic_raters"].astype(int).to_numpy(),
        ("metrics", "paper"): theirs("{:.0f}", "metrics"),
        ("", "the paper's data"): (paper.index + " (" + paper["data"] + ")").fillna("—").to_numpy(),
    }, index=pd.Index(table1["data"], name="data"))
