"""Chapter 02's page values: the numbers (and lists of names) that the page's prose pastes through glue, computed
from the chapter's tables, and the small tables the text points to. The sentences are the notebook's markdown; the
verdicts are the claims registry's (``data/published/claims/paired.toml``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...agreement import pair_label, pair_name
from ...data import published
from ..common import metric_label
from .claim_values import _in_interval
from .published import TABLE3_EXACT, published_table4, table3_agreement, table3_swaps
from .setups import KEYS, MEASURES, TABLE1_PAIRS


def table1_numbers(ours: dict[str, pd.DataFrame]) -> dict:
    """Tables 1 and 4 as the text quotes them (``ours`` = ``{policy: summarise() frame}``): for MEAN vs. BT and MEAN
    vs. MEDIAN, each measure's mean over setups and its 95% interval (``<policy>-<pair>-<measure>[-low|-high]``)
    and the paper's value as a fraction (``paper-<pair>-<measure>``)."""
    paper = published_table4()
    numbers = {}
    for pair in (("mean", "bt"), ("mean", "median")):
        for measure in MEASURES:
            numbers[f"paper-{pair_name(pair)}-{measure}"] = float(paper.loc[[pair], measure].iloc[0]) / 100
            numbers |= {f"{policy}-{pair_name(pair)}-{measure}{end}": float(frame.loc[pair_name(pair), measure + end])
                        for policy, frame in ours.items() for end in ("", "_low", "_high")}
    return {k.replace("_", "-"): v for k, v in numbers.items()}


def table1_hits(frame: pd.DataFrame) -> int:
    """How many of Table 1's nine published cells lie in our 95% interval (± the printed rounding)."""
    paper = published_table4()
    return sum(_in_interval(paper.loc[[p], m].iloc[0], frame.loc[pair_name(p)], m) for p in TABLE1_PAIRS
               for m in MEASURES)


def table3_numbers(side: pd.DataFrame, inventory: pd.DataFrame) -> dict:
    """Table 3's reading in numbers (``side`` = :func:`.published.table3_side_by_side`, ``inventory`` = our setups):
    on the paper's own data, the Disagree cells within 0.02 in each reading and those lower on the full test sets
    than on the sub-samples; the draws' noise (the median SD of a single metric's ≠ SotA difference); the counts of
    :func:`table3_swaps_view` and :func:`table3_far_cells`; the paper's other TAC Disagree cells where MEAN vs. BT
    disagrees least; WMT's Disagree cells within 0.02; the systems of the dialogue datasets and the stand-ins."""
    exact = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna()]
    dis = exact[exact.measure == "disagree"]
    counts = table3_agreement(side).reindex([("exact (TAC, TC, PC)", MEASURES["disagree"])]).iloc[0].fillna(0)
    single = exact[(exact.measure == "top1") & exact.metric_group.isin(["BLEU", "MoverScore", "BERTScore"])]
    swaps = table3_swaps(side)
    wmt = side[side.dataset.str.startswith("WMT") & side.ours.notna() & (side.measure == "disagree")]
    systems = inventory.groupby("collection").systems.max()
    paper_systems = published.frame("paired", "appendix_a3").set_index("dataset").systems
    tac = side[side.dataset.str.startswith("TAC") & (side.measure == "disagree")]
    tac = tac[~tac.set_index(["dataset", "metric_group"]).index.isin(swaps)]
    wide = tac.pivot_table(index=["dataset", "metric_group"], columns="pair", values="paper")
    return {
        "cells": len(dis), "within": int(counts[("20% sub-samples", "within 0.02")]),
        "within-full": int(counts[("full test sets", "within 0.02")]), "lower": int((dis.ours_full < dis.ours).sum()),
        "noise-sd": float(single.noise_sd.median()), "swaps": len(swaps), "far": len(table3_far_cells(side)),
        "tac-other": len(wide),
        "tac-mean-bt-least": int((wide["mean_bt"] < wide[["median_bt", "mean_median"]].min(axis=1)).sum()),
        "dialogue-min": int(paper_systems[["TC", "PC"]].min()), "dialogue-max": int(paper_systems[["TC", "PC"]].max()),
        "wmt-near": int(((wmt.ours - wmt.paper).abs() <= 0.02 + 1e-12).sum()), "wmt-cells": len(wmt),
        "cnndm-systems": int(systems.get("CNNDM", 0)), "coco-systems": int(systems.get("COCO", 0)),
        "paper-cnndm-systems": int(paper_systems["CNN/DM"]), "paper-coco-systems": int(paper_systems["MSCOCO"]),
    }


def table3_swaps_view(side: pd.DataFrame) -> pd.DataFrame:
    """The cells of :func:`.published.table3_swaps` (the paper's Mean/BT and Med/BT columns look exchanged), one row
    per (dataset, metric family, measure): the paper's two values, ours, and whether MEAN vs. BT disagrees least of
    the three pairs in the paper's cell when the two columns are read exchanged."""
    rows = []
    for dataset, group in table3_swaps(side):
        cells = side[(side.dataset == dataset) & (side.metric_group == group)].set_index(["measure", "pair"])
        paper = cells.xs("disagree").paper
        least = "yes" if paper["median_bt"] < min(paper["mean_bt"], paper["mean_median"]) else "no"
        rows += [[dataset, group, name, *(cells.loc[(measure, pair), value] for value in ("paper", "ours")
                                          for pair in ("mean_bt", "median_bt")), least]
                 for measure, name in MEASURES.items()]
    return pd.DataFrame(rows, columns=["dataset", "metrics", "measure", "paper MEAN vs. BT", "paper MEDIAN vs. BT",
                                       "ours MEAN vs. BT", "ours MEDIAN vs. BT", "MEAN vs. BT least, read exchanged"])


def table3_far_cells(side: pd.DataFrame) -> pd.DataFrame:
    """The paper's own-data Disagree cells further from ours than the draws explain (more than 0.02 and more than two
    noise standard deviations), other than the exchanged-looking ones: dataset, metric family, pair, paper, ours."""
    dis = side[side.dataset.isin(TABLE3_EXACT) & side.ours.notna() & (side.measure == "disagree")]
    gap = (dis.ours - dis.paper).abs()
    far = dis[(gap > 2 * dis.noise_sd) & (gap > 0.02)]
    far = far[~far.set_index(["dataset", "metric_group"]).index.isin(table3_swaps(side))]
    return pd.DataFrame({"dataset": far.dataset, "metrics": far.metric_group,
                         "mechanisms": [pair_label(tuple(p.split("_"))) for p in far.pair],
                         "paper": far.paper, "ours": far.ours}).reset_index(drop=True)


def fig6_numbers(cells: pd.DataFrame, full: pd.DataFrame, profile: pd.Series) -> dict:
    """Fig. 6 in numbers: BT-eval's draws against the paper (``cells`` = :func:`.claim_values.fig6_cells`; of the
    pairs Mood's test finds significant, how many the sign test does too), what those draws test (``profile`` =
    :func:`.experiments.pooled_pairs_profile`) and the full-test-set matrix ``full``."""
    gap = (cells.ours - cells.paper).abs()
    diag = cells[cells.given == cells.also].set_index("given")
    mood_sign = cells.set_index(["given", "also"]).loc[("Mood", "sign")]
    numbers = {"close": int(cells.close.sum()), "cells": len(cells), "max-gap": float(gap.max()),
               "median-gap": float(gap.median()), "share-tac": float(profile["share TAC"]),
               "median-instances": float(profile["median instances"]), "mood-pairs": int(mood_sign.pairs),
               "mood-sign-pairs": int(round(mood_sign.ours * mood_sign.pairs)) if mood_sign.pairs else 0,
               "paper-mood-sign": float(mood_sign.paper), "full-mood-sign": float(full.loc["Mood", "sign"])}
    for test in diag.index:
        numbers |= {f"ours-{test}": float(diag.ours[test]), f"paper-{test}": float(diag.paper[test]),
                    f"full-{test}": float(full.loc[test, test])}
    return {k.lower(): v for k, v in numbers.items()}


def iia_numbers(by_size: pd.DataFrame, iia: pd.DataFrame, examples: pd.DataFrame) -> dict:
    """App. F's search on the full setups in numbers (``by_size`` = :func:`.experiments.iia_by_size`, ``iia`` its
    rows, ``examples`` the violations found): combinations reversed and tied, setups with more than 10 instances and
    those with a violation, and the share of its pair's comparisons each reversal's winner wins alone."""
    full = by_size.loc["full"]
    big = iia[(iia["size"].astype(str) == "full") & (iia.n_instances > 10)]
    shares = examples.loc[examples.kind == "reversed", "winner_share"] if len(examples) else pd.Series(dtype=float)
    return {"reversed": int(full.reversed), "tied": int(full.tied), "combinations": 3 * int(full.triples),
            "big-setups": len(big), "big-violated": int(((big.reversed + big.tied) > 0).sum()),
            "reversals": len(shares), "winner-median": float(shares.median()), "winner-max": float(shares.max())}


def degenerate_setups(*frames: pd.DataFrame) -> str:
    """The setups (rows with ``bt_degenerate``) in any of ``frames`` where BT has no finite maximum-likelihood fit,
    as a list of names ("none" when there is none), metrics spelt as the paper spells them."""
    found = pd.concat([frame.loc[frame["bt_degenerate"], KEYS] for frame in frames]).drop_duplicates()
    return ", ".join(f"{c} {d} {metric_label(m)}" for c, d, m in found.itertuples(index=False)) or "none"


def iia_full_numbers(full: pd.DataFrame, worked: pd.DataFrame) -> dict:
    """App. F on the full test sets of more than 10 instances, reversals only (``full`` =
    :func:`.experiments.iia_full_reversals`' per-setup table, ``worked`` = :func:`.experiments.iia_worked_triple`):
    setups, those with a reversal, the median and largest share of combinations reversed, the reversals, how many
    of them the sign test separates, include the best system or either, the share from TAC; and the worked
    triple's setup, its pair's winner alone (``x``) and loser (``y``), the third system (``c``) and their win counts
    (``w-xy`` = instances x beats y, ties half to each) and total wins with c."""
    big = full[full.n_instances > 10]
    numbers = {"setups": len(big), "setups-reversed": int((big.reversed > 0).sum()),
               "share-median": float(big["share reversed"].median()), "share-max": float(big["share reversed"].max()),
               **{k: int(big[k].sum()) for k in ("combinations", "reversed", "significant", "best", "either")},
               "tac-share": float(big.loc[big.collection == "TAC", "reversed"].sum() / big.reversed.sum())
               if big.reversed.sum() else np.nan}
    keys = ("n", "p", "w-xy", "w-yx", "w-xc", "w-cx", "w-yc", "w-cy", "total-x", "total-y")
    if worked.empty:  # the same keys, empty, so that the page's text still finds each
        return numbers | dict.fromkeys(("example", "x", "y", "c"), "—") | dict.fromkeys(keys, np.nan)
    w = worked.iloc[0]
    # x: the pair's winner alone, y: its loser (the triple's a and b are in column order)
    x, y = ("a", "b") if w.alone == "a" else ("b", "a")
    win = {f"{p}{q}": float(w[f"w_{p}{q}"]) for p in "abc" for q in "abc" if p != q}
    named = {f"w-{k.replace(x, 'X').replace(y, 'Y').lower()}": v for k, v in win.items()}
    return numbers | {
        "example": f"{w.collection} {w.dataset} {metric_label(w.metric)}", "n": int(w.n_instances),
        "x": str(w[x]), "y": str(w[y]), "c": str(w.c), "p": float(w.sign_p), **named,
        "total-x": named["w-xy"] + named["w-xc"], "total-y": named["w-yx"] + named["w-yc"]}


def metric_numbers(inventory_frame: pd.DataFrame) -> dict:
    """Our metric names against the paper's 18 (``data/published/paired.toml``, ``metrics``): how many names our
    setups have, how many of them are the paper's, the paper's we lack and ours it does not list (as the paper
    spells them)."""
    paper = set(published.item("paired", "metrics")["names"])
    ours = set(inventory_frame.metric)
    return {"ours": len(ours), "paper": len(paper), "shared": len(ours & paper),
            "missing": ", ".join(metric_label(m) for m in sorted(paper - ours)) or "none",
            "extra": ", ".join(metric_label(m) for m in sorted(ours - paper)) or "none"}
