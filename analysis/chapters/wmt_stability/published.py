"""Ours next to the paper's values: Sec. 5's toy example, Table 1, Sec. 5.1's REF shares, Tables 2-3 and Fig. 1."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt
from ...data import published
from .packages import CHANGE_COLUMNS, MEASURES, PACKAGES, STYLE_TOTALS, check_rows, fractions, pair_name

#: the paper's Table 1 datasets (its package names) in words: year, platform, level and style
TABLE1_DATASETS = {
    "newstest2018-humaneval": "2018 MTurk, segment level (SR-DC)",
    "appraise-doclevel-humaneval-newstest2019": "2019 Appraise, document level (SR+DC)",
    "mturk-sntlevel-humaneval-newstest2019": "2019 MTurk, segment level (SR-DC)",
    "turkle-sntlevel-humaneval-newstest2019": "2019 Turkle, segment level (SR-DC)",
    "appraise-doclevel-humaneval-newstest2020": "2020 Appraise, document level (SR+DC)",
    "mturk-sntlevel-humaneval-newstest2020": "2020 MTurk, segment level (SR-DC)",
    "mturk-doclevel-humaneval-newstest2020": "2020 MTurk, document level (SR+DC)",
}
#: Fig. 1: the years of the paper's pairs and of ours per style, and the colours
PAPER_YEARS = {"SR-DC": "paper, 2018–20", "SR+DC": "paper, 2019–20"}
HERE = {"SR-DC": "here, 2018", "SR+DC": "here, 2021-22 to-English"}
STYLE_COLORS = {"SR-DC": "#4C72B0", "SR+DC": "#DD8452"}


#: the differences of shares that carry Sec. 5.2's contrast: (label, minuend group, subtrahend group)
CONTRASTS = (("SR+DC minus SR-DC", "SR+DC", "SR-DC"), ("REF items only minus SR-DC", "SR+DC, REF items only", "SR-DC"))


def toy_example() -> pd.DataFrame:
    """§5's toy HITs: the z (ddof = 1) of a sentence scored 50 in each, next to the paper's."""
    toy = published.item("wmt", "section5_toy")
    z = [wmt.standardise(pd.DataFrame({"worker": "w", "raw": np.asarray(s, float)}))[np.equal(s, toy["value"])].iloc[0]
         for s in toy["hits"]]
    return pd.DataFrame({"HIT raw scores": [", ".join(map(str, s)) for s in toy["hits"]], "z of a 50": z,
                         "paper": toy["z"]})


def table1(judgments: pd.DataFrame) -> pd.DataFrame:
    """Table 1: item types per package here (``good-stnd-redup``: the paper's ``good-raw-redup`` judgments), then
    the paper's rows."""
    ours = judgments.groupby("collection", sort=False)["item_type"].value_counts().unstack(fill_value=0)
    ours = ours.reindex(columns=["SYSTEM", "REPEAT", "REF", "BAD_REF"], fill_value=0)
    ours.index = [f"{c} (here, {judgments.loc[judgments['collection'] == c, 'pair'].nunique()} pairs)"
                  for c in ours.index]
    theirs = published.frame("wmt", "table1").set_index("dataset")
    theirs.index = [f"{d} (paper)" for d in theirs.index]
    return pd.concat([ours, theirs]).rename_axis("dataset")


def table1_view(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`table1` with the package names in words."""
    def label(dataset: str) -> str:
        name, _, where = dataset.rpartition(" (")
        words = TABLE1_DATASETS.get(name) or (PACKAGES[name][0] if name in PACKAGES else name)
        return f"{words}: {where.rstrip(')')}"

    return table.rename(index=label)


def item_type_checks(judgments: pd.DataFrame, collections) -> pd.DataFrame:
    """Table 1: every package in ``collections`` holds all four item types (SYSTEM, REPEAT, REF, BAD_REF)."""
    types = {"SYSTEM", "REPEAT", "REF", "BAD_REF"}
    return check_rows("table1_all_item_types", {
        c: types <= set(judgments.loc[judgments["collection"] == c, "item_type"]) for c in collections})


def ref_shares(composition: pd.DataFrame) -> pd.DataFrame:
    """§5.1: per pair, the shares of workers who judged a REF item (with the paper's 2018 values), a HUMAN system's
    output and a BAD_REF item."""
    paper = published.item("wmt", "section51_ref_shares")
    return composition[["collection", "pair", "workers", "workers_saw_ref", "workers_saw_human", "hits",
                        "hits_saw_ref", "hits_saw_human", "workers_saw_bad_ref"]].assign(paper_workers_saw_ref=[
        paper["shares"].get(p, np.nan) / 100 if c == "newstest2018" else np.nan
        for c, p in zip(composition["collection"], composition["pair"])])


def ref_share_numbers(composition: pd.DataFrame) -> dict:
    """§5.1's numbers for the page, from :func:`ref_shares`, under the keys the page pastes."""
    y2018 = composition[composition["collection"] == "newstest2018"].sort_values("workers_saw_ref")
    plus = composition[composition["collection"].isin(["newstest2021-toen", "newstest2022-toen"])]
    worst = plus.loc[plus["workers_saw_ref"].idxmin()]
    human = composition[composition["workers_saw_human"] > 0]
    return {"s51-lowest-2018": ", ".join(f"{p} {s:.1%}" for p, s in y2018[["pair", "workers_saw_ref"]].head(3).values),
            "s51-no-hit-id-2018": ", ".join(y2018.loc[y2018["hits"].isna(), "pair"]) or "none",
            "s51-plus-every": int((plus["workers_saw_ref"] == 1).sum()), "s51-plus-pairs": len(plus),
            "s51-plus-lowest": float(worst["workers_saw_ref"]),
            "s51-plus-lowest-pair": pair_name(worst["collection"], worst["pair"]),
            "s51-human-workers-min": float(human["workers_saw_human"].min()),
            "s51-human-workers-max": float(human["workers_saw_human"].max()),
            "s51-human-hits-min": float(human["hits_saw_human"].min()),
            "s51-human-hits-max": float(human["hits_saw_human"].max())}


def human_seen_checks(composition: pd.DataFrame) -> pd.DataFrame:
    """Sec. 5.1: in every pair that ranks a HUMAN system, some workers saw its output and some did not."""
    rows = composition[composition["workers_saw_human"] > 0]
    return check_rows("section51_human_seen_by_some", {
        f"{c} {p}": 0 < s < 1 for c, p, s in zip(rows["collection"], rows["pair"], rows["workers_saw_human"])},
        rows["workers_saw_human"])


def plot_ref_shares(composition: pd.DataFrame):
    """§5.1 per pair (:func:`ref_shares`): the shares of workers who judged a REF item and a HUMAN system, and the
    paper's."""
    import matplotlib.pyplot as plt

    rows = composition.reset_index(drop=True)
    y = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.22 * len(rows)))
    ax.scatter(rows["workers_saw_ref"], y, color="#4C72B0", s=28, label="here: saw a REF item", zorder=3)
    human = rows["workers_saw_human"] > 0
    ax.scatter(rows.loc[human, "workers_saw_human"], y[human], color="#DD8452", marker="^", s=32, zorder=3,
               label="here: saw a HUMAN system")
    paper = rows["paper_workers_saw_ref"].notna()
    ax.scatter(rows.loc[paper, "paper_workers_saw_ref"], y[paper], color="black", marker="x", s=40, zorder=4,
               label="paper: saw a REF item")
    ax.set_yticks(y, [pair_name(c, p) for c, p in zip(rows["collection"], rows["pair"])])
    ax.tick_params(axis="y", labelsize=9)
    for k in np.flatnonzero(rows["collection"].to_numpy()[1:] != rows["collection"].to_numpy()[:-1]):
        ax.axhline(k + 0.5, color="grey", linewidth=0.8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-0.03, 1.03)
    ax.xaxis.set_major_formatter(plt.matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("share of the pair's workers")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06 - 1.0 / len(rows)), ncol=2, fontsize=9, frameon=False)
    fig.tight_layout()
    return fig


def change_shares(per_pair: pd.DataFrame, human_pairs=()) -> pd.DataFrame:
    """``wmt_change_shares.csv``: Sec. 5.2's contrast (Tables 2-3, Fig. 1). Per experiment and measure, the pairs
    changed and their share per style and for the SR+DC pairs with (``human_pairs``) or without a HUMAN system, then
    the differences of :data:`CONTRASTS`."""
    part = per_pair[per_pair["collection"].isin(STYLE_TOTALS)]
    plus = (part["style"] == "SR+DC").to_numpy()
    human = pd.MultiIndex.from_frame(part[["collection", "pair"]]).isin(list(human_pairs))
    long = pd.concat([part.assign(group=part["style"]), part[plus & human].assign(group="SR+DC, HUMAN system"),
                      part[plus & ~human].assign(group="SR+DC, REF items only")])
    long = long.melt(["experiment", "group"], CHANGE_COLUMNS, "measure", "flag").astype({"flag": bool})
    out = long.assign(measure=long["measure"].str.removesuffix("_changed")).groupby(
        ["experiment", "measure", "group"])["flag"].agg(changed="sum", pairs="size", share="mean")
    share = out["share"].unstack()
    out = pd.concat([out] + [(share[a] - share[b]).dropna().to_frame("share").assign(group=label).set_index(
        "group", append=True) for label, a, b in CONTRASTS if a in share and b in share])
    # the fixed row order: experiments as they come, then measures, groups, contrasts
    groups = ["SR+DC", "SR-DC", "SR+DC, HUMAN system", "SR+DC, REF items only", *(c[0] for c in CONTRASTS)]
    order = pd.MultiIndex.from_product([dict.fromkeys(part["experiment"]), MEASURES, groups], names=out.index.names)
    return out.reindex(order[order.isin(out.index)]).reset_index()


def rank_most_common(shares: pd.DataFrame, experiment: str = "remove_human") -> pd.DataFrame:
    """Claim values for §5.2's "rank changes are the most common" (Table 2): per style, the share of pairs whose
    rank changes minus the larger of the shares whose clusters, or both, change (``shares``: :func:`change_shares`)."""
    part = shares[(shares["experiment"] == experiment) & shares["group"].isin(["SR-DC", "SR+DC"])]
    wide = part.pivot(index="group", columns="measure", values="share")
    return pd.DataFrame([{"key": "sec52-rank-most-common", "detail": f"{experiment}, {style}",
                          "value": float(wide.loc[style, "rank"] - wide.loc[style, ["cluster", "both"]].max())}
                         for style in ("SR-DC", "SR+DC") if style in wide.index])


def by_package_and_style(per_pair: pd.DataFrame, experiments) -> pd.DataFrame:
    """Changed / pairs for ``experiments`` by package and by style (the packages of :data:`STYLE_TOTALS`)."""
    part = per_pair[per_pair["experiment"].isin(experiments)]
    totals = part[part["collection"].isin(STYLE_TOTALS)]
    groups = pd.concat([part.assign(group=part["collection"].map(lambda c: PACKAGES[c][0])),
                        totals.assign(group="ALL " + totals["style"])])
    return fractions(groups, ["experiment", "group"])


def table2(per_pair: pd.DataFrame, human_pairs=()) -> pd.DataFrame:
    """Table 2 (remove HUMAN and REF) by package and style, the SR+DC pairs split by whether a HUMAN system is
    ranked (``human_pairs``); then the paper's rows."""
    ours = by_package_and_style(per_pair, ["remove_human"]).droplevel("experiment")
    part = per_pair[(per_pair["experiment"] == "remove_human") & (per_pair["style"] == "SR+DC")
                    & per_pair["collection"].isin(STYLE_TOTALS)]
    human = pd.MultiIndex.from_frame(part[["collection", "pair"]]).isin(list(human_pairs))
    split = fractions(part.assign(group=np.where(human, "SR+DC with a HUMAN system", "SR+DC, REF items only")),
                      "group")  # sorted: the pairs with a HUMAN system first
    theirs = published.frame("wmt", "table2").drop(columns="style")
    theirs[["rank", "cluster", "both"]] = theirs[["rank", "cluster", "both"]].map("{0[0]}/{0[1]}".format)
    return pd.concat([ours, split, theirs.set_index("paper: " + theirs["group"]).drop(columns="group")])


def table3(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Table 3 (remove the lowest / highest system) by package and style, next to the paper's style totals."""
    ours = by_package_and_style(per_pair, ["remove_lowest", "remove_highest"])
    theirs = published.frame("wmt", "table3")
    theirs = theirs.assign(group="ALL " + theirs["style"]).drop(columns="style").set_index(["experiment", "group"])
    for c in ("rank", "cluster", "both"):
        ours[f"paper_{c}"] = theirs[c].map("{0[0]}/{0[1]}".format).reindex(ours.index)  # NaN: the paper has no such row
    return ours


def fig1_fractions(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Fig. 1's shares of pairs changed per divisor, style and measure, ours and the paper's."""
    part = per_pair[per_pair["experiment"].str.startswith("divide_") & per_pair["collection"].isin(STYLE_TOTALS)]
    part = part.assign(divisor=part["experiment"].str.removeprefix("divide_").astype(float))
    groups = part.groupby(["divisor", "style"])
    here = groups[CHANGE_COLUMNS].sum().set_axis(pd.Index(MEASURES, name="measure"), axis=1).stack().rename("changed")
    here = here.reset_index().join(groups.size().rename("pairs"), on=["divisor", "style"])
    here.insert(3, "source", "here")
    paper = pd.DataFrame([(float(d), style, m, "paper", changed, pairs)
                          for d, style, *values in published.item("wmt", "fig1")["rows"]
                          for m, (changed, pairs) in zip(MEASURES, values)], columns=list(here.columns))
    out = pd.concat([here, paper], ignore_index=True)
    return out.assign(fraction=out["changed"] / out["pairs"])


def growth_checks(shares: pd.DataFrame) -> pd.DataFrame:
    """Fig. 1: per measure, the share of SR-DC pairs changed never falls as the divisor grows and ends higher than it
    starts."""
    part = shares[(shares["group"] == "SR-DC") & shares["experiment"].str.startswith("divide_")]
    part = part.assign(divisor=part["experiment"].str.removeprefix("divide_").astype(float)).sort_values("divisor")
    values = {m: part.loc[part["measure"] == m, "share"].to_numpy() for m in MEASURES}
    return check_rows("fig1_sr_minus_grows", {
        m: len(v) > 1 and bool(np.all(np.diff(v) >= 0)) and v[-1] > v[0] for m, v in values.items()},
        [v[-1] - v[0] if len(v) else np.nan for v in values.values()])


def plot_fig1(fractions: pd.DataFrame):
    """Fig. 1: per measure, the share of pairs changed against the divisor, ours (solid) and the paper's (dashed)."""
    import matplotlib.pyplot as plt

    ticks = sorted(fractions["divisor"].unique())  # ours (the ``divisors`` parameter) and the paper's, evenly spaced
    fig, axes = plt.subplots(1, 3, figsize=(7.6, 3.5), sharey=True)
    for ax, measure in zip(axes, ("rank", "cluster", "both")):
        for (style, source), rows in fractions[fractions["measure"] == measure].groupby(["style", "source"]):
            rows = rows.sort_values("divisor")
            here = source == "here"
            ax.plot([ticks.index(d) for d in rows["divisor"]],
                    rows["fraction"], marker="o" if here else "s", linestyle="-" if here else "--",
                    color=STYLE_COLORS[style], alpha=1.0 if here else 0.6,
                    label=f"{style}, {(HERE if here else PAPER_YEARS)[style]} ({rows['pairs'].iloc[0]} pairs)")
        ax.set_xticks(list(range(len(ticks))), [f"{d:g}" for d in ticks])
        ax.set_title(f"Δ{measure}")
        ax.set_ylim(-0.03, 1.03)
    axes[0].set_ylabel("share of pairs changed")
    axes[1].set_xlabel("HUMAN and REF raw scores divided by")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return fig
