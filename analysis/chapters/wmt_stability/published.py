"""Ours next to the paper's published values: the Sec. 5 toy example, Table 1, the Sec. 5.1 REF shares, Tables 2-3
and Fig. 1's fractions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt
from ...data import published
from .experiments import _fraction, stability_summary
from .packages import CHANGE_COLUMNS, STYLE_TOTALS


def toy_example() -> pd.DataFrame:
    """§5's toy HITs: the z (ddof = 1) of a sentence scored 50 in each, next to the paper's."""
    toy = published.item("wmt", "section5_toy")
    rows = []
    for scores, paper in zip(toy["hits"], toy["z"]):
        frame = pd.DataFrame({"worker": "w", "raw": np.asarray(scores, float)})
        z = wmt.standardise(frame)[frame["raw"] == toy["value"]].iloc[0]
        rows.append({"HIT raw scores": ", ".join(map(str, scores)), "z of a 50": z, "paper": paper})
    return pd.DataFrame(rows)


def table1(judgments: pd.DataFrame) -> pd.DataFrame:
    """Item types per package here (``good-stnd-redup`` files, the same judgments as the paper's
    ``good-raw-redup``), then the paper's Table 1 rows."""
    ours = judgments.groupby("collection", sort=False)["item_type"].value_counts().unstack(fill_value=0)
    ours = ours.reindex(columns=["SYSTEM", "REPEAT", "REF", "BAD_REF"], fill_value=0)
    ours.index = [f"{c} (here, {judgments.loc[judgments['collection'] == c, 'pair'].nunique()} pairs)"
                  for c in ours.index]
    theirs = published.frame("wmt", "table1").set_index("dataset")
    theirs.index = [f"{d} (paper)" for d in theirs.index]
    return pd.concat([ours, theirs]).rename_axis("dataset")


def ref_shares(composition: pd.DataFrame) -> pd.DataFrame:
    """Share of workers who judged at least one REF item, per pair, with the paper's 2018 values (§5.1); beside it
    the shares that judged a HUMAN system's output and a BAD_REF item (§5.1's "100% of workers annotated BAD_REF")."""
    paper = published.item("wmt", "section51_ref_shares")
    table = composition[["collection", "pair", "workers", "workers_saw_ref", "workers_saw_human", "hits",
                         "hits_saw_ref", "hits_saw_human", "workers_saw_bad_ref"]].copy()
    table["paper_workers_saw_ref"] = [paper["shares"].get(p, np.nan) / 100 if c == "newstest2018" else np.nan
                                      for c, p in zip(table["collection"], table["pair"])]
    return table


def _paper_fraction(value) -> str:
    return f"{value[0]}/{value[1]}"


def table2(per_pair: pd.DataFrame, human_pairs=()) -> pd.DataFrame:
    """Table 2 (remove HUMAN and REF) by package and style, the SR+DC pairs split by whether a HUMAN system is
    ranked (``human_pairs``: (collection, pair) keys) or only REF items go; then the paper's rows."""
    ours = stability_summary(per_pair, ["remove_human"], by_package=True).drop(columns="experiment")
    part = per_pair[(per_pair["experiment"] == "remove_human") & (per_pair["style"] == "SR+DC")
                    & per_pair["collection"].isin(STYLE_TOTALS)]
    has_human = pd.Series([(c, p) in set(human_pairs) for c, p in zip(part["collection"], part["pair"])],
                          index=part.index)
    split = [{"group": label, **{c.replace("_changed", ""): _fraction(rows[c]) for c in CHANGE_COLUMNS}}
             for label, rows in (("SR+DC with a HUMAN system", part[has_human]),
                                 ("SR+DC, REF items only", part[~has_human])) if len(rows)]
    ours = pd.concat([ours, pd.DataFrame(split)], ignore_index=True)
    theirs = published.frame("wmt", "table2").drop(columns="style")
    for c in ("rank", "cluster", "both"):
        theirs[c] = theirs[c].map(_paper_fraction)
    theirs["group"] = "paper: " + theirs["group"]
    return pd.concat([ours, theirs], ignore_index=True).set_index("group")


def table3(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Table 3 (remove the single lowest / highest system) by package and style, ours next to the paper's (which
    prints only the style totals)."""
    ours = stability_summary(per_pair, ["remove_lowest", "remove_highest"], by_package=True)
    ours = ours.set_index(["experiment", "group"])
    theirs = published.frame("wmt", "table3")
    theirs["group"] = "ALL " + theirs["style"]
    theirs = theirs.drop(columns="style").set_index(["experiment", "group"])
    for c in ("rank", "cluster", "both"):
        ours[f"paper_{c}"] = theirs[c].map(_paper_fraction).reindex(ours.index)  # NaN: the paper has no such row
    return ours


def fig1_fractions(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Long table for Fig. 1: divisor, style, measure, fraction changed, ours and the paper's."""
    part = per_pair[per_pair["experiment"].str.startswith("divide_") & per_pair["collection"].isin(STYLE_TOTALS)]
    part = part.assign(divisor=part["experiment"].str.removeprefix("divide_").astype(float))
    ours = part.groupby(["divisor", "style"])[CHANGE_COLUMNS].agg(["sum", "size"])
    rows = []
    for (divisor, style), r in ours.iterrows():
        for c in CHANGE_COLUMNS:
            rows.append({"divisor": divisor, "style": style, "measure": c.replace("_changed", ""), "source": "here",
                         "changed": int(r[(c, "sum")]), "pairs": int(r[(c, "size")])})
    paper = published.item("wmt", "fig1")
    for divisor, style, *values in paper["rows"]:
        for measure, (changed, pairs) in zip(("rank", "cluster", "both"), values):
            rows.append({"divisor": float(divisor), "style": style, "measure": measure, "source": "paper",
                         "changed": changed, "pairs": pairs})
    out = pd.DataFrame(rows)
    out["fraction"] = out["changed"] / out["pairs"]
    return out
