"""The paper's own 2020 pairs from the official segment scores (Sec. 5.3, Figs. 2-3's "original" columns, fn. 17),
and the range the paper's 21-pair SR-DC totals allow for its 2018 counts (Tables 2-3, Fig. 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import wmt_stability as ws
from ...data import published

#: the paper's SR-DC pairs: 13 of 2018, 5 of 2019 and 3 of 2020 (Table 2)
PAPER_SR_DC_2018, PAPER_SR_DC_ALL = 13, 21
#: of our 13 SR-DC pairs of 2018, those among the paper's 13 (all but tr-en, which holds de-en's place)
PAPER_SR_DC_SHARED = 12


def base_name(system: str) -> str:
    """``AFRL.1069`` -> ``AFRL`` (2020's segment files name a system by name and submission id)."""
    head, _, tail = system.rpartition(".")
    return head if head and tail.isdigit() else system


def assessments_per_system(segments: pd.DataFrame) -> pd.DataFrame:
    """§5.3: judgments per system in 2020 (from the official segment files), next to the paper's."""
    paper = published.item("wmt", "section53")["assessments_per_system"]
    seg = segments[(segments["collection"] == "newstest2020") & segments["pair"].isin(["en-de", "zh-en"])]
    out = seg.groupby("pair").agg(systems=("system", "nunique"), judgments=("n", "sum")).astype({"judgments": int})
    out["per_system"] = out["judgments"] / out["systems"]
    return out.assign(paper=[paper.get(p, np.nan) for p in out.index]).reset_index()


def original_2020(segments: pd.DataFrame, pair: str, *, variant: str = "greater", alpha: float = 0.05) -> pd.DataFrame:
    """Figs. 2-3's "original" column for a 2020 pair, best first: the clusters with HUMAN systems left out (as the
    paper's figures) and with them in (the official ranking)."""
    seg = segments[(segments["collection"] == "newstest2020") & (segments["pair"] == pair)]
    if seg.empty:
        raise ValueError(f"no 2020 segment scores for {pair}")
    codes, names = pd.factorize(seg["system"], sort=True)
    humans = [s for s in names if ws.HUMAN_MARK in s]
    full, without = ws.rankings_excluding(tuple(names), codes, seg["z"].to_numpy(float), [(), humans], variant, alpha)
    out = pd.DataFrame({"cluster": without.clusters, "line": np.append(np.diff(without.clusters), 0)},
                       index=list(without.systems)).reindex(list(full.systems), fill_value=-1)  # -1: a HUMAN system
    return pd.DataFrame({
        "pair": pair, "rank": np.arange(1, len(full.systems) + 1), "system": full.systems, "z": full.scores,
        "human": [s in humans for s in full.systems], "cluster_without_human": out["cluster"].to_numpy(),
        "line_below_without_human": out["line"].to_numpy() > 0, "cluster_official": full.clusters,
        "line_below_official": np.append(np.diff(full.clusters) > 0, False)})


def footnote17_checks(originals: pd.DataFrame) -> pd.DataFrame:
    """§5.3 and footnote 17: each statement the paper makes about the "original" 2020 rankings, and ours."""
    spec = published.item("wmt", "section53")
    names = originals["system"].map(base_name)

    def value(pair, name, column):  # the one system of ``pair`` named ``name`` (without its submission id)
        rows = originals[(originals["pair"] == pair) & (names == name)
                         & ~(originals["human"] & (column == "cluster_without_human"))]  # HUMAN: no such cluster
        if len(rows) != 1:
            raise ValueError(f"{pair}: expected one system named {name}, found {len(rows)}")
        return rows[column].iloc[0]

    def differ(pair, a, b, column):  # a line between systems a and b in ``column``'s clusters
        return bool(value(pair, a, column) != value(pair, b, column))

    rows = [(f"{p}: {a} and {b} in one cluster (HUMAN systems left out of the clusters)",
             not differ(p, a, b, "cluster_without_human")) for p, a, b in spec["same_cluster"]]
    rows += [(f"{p}: {a} above {b}", bool(value(p, a, "z") > value(p, b, "z")))
             for p, a, b in spec["above"]]
    rows += [(f"{p}: a line between {a} and {b} with HUMAN systems left out of the clusters",
              differ(p, a, b, "cluster_without_human")) for p, a, b in spec["line_between_without_human"]]
    rows += [(f"{p}: no line between {a} and {b} in the official clusters (HUMAN systems in)",
              not differ(p, a, b, "cluster_official")) for p, a, b in spec["no_line_between_official"]]
    for pair in spec["top_alone_official"]:
        part = originals[originals["pair"] == pair]
        top = base_name(part["system"].iloc[0])
        rows += [(f"{pair}: the top system ({top}) alone in the top official cluster",
                  bool((part["cluster_official"] == part["cluster_official"].iloc[0]).sum() == 1)),
                 (f"{pair}: the top system ({top}) alone in the top cluster with HUMAN systems left out",
                  bool((part.loc[~part["human"], "cluster_without_human"] == 0).sum() == 1))]
    table = pd.DataFrame(rows, columns=["statement", "ours"])
    table.insert(1, "paper", True)
    return table.assign(holds=table["paper"] == table["ours"])


def paper_2018_ranges(per_pair: pd.DataFrame) -> pd.DataFrame:
    """Tables 2-3 and Fig. 1, SR-DC: outside Table 2 the paper prints totals over 21 pairs (13 of 2018), which bound
    its 2018 count to [max(0, total - 8), min(total, 13)]. Our 13 pairs share 12 with its 2018 ones, so our count
    (``value``) is compatible when in that range widened by one each side (``low``, ``high``, ``inside``)."""
    measures = list(enumerate(("rank", "cluster", "both"), start=2))  # (column in the published rows, measure)
    t2 = {r[0]: r for r in published.item("wmt", "table2")["rows"]}
    totals = [("remove_human", m, t2["ALL SR-DC"][k][0], t2["'18 (-DC)"][k][0]) for k, m in measures]
    totals += [(r[0], m, r[k][0], None) for r in published.item("wmt", "table3")["rows"] if r[1] == "SR-DC"
               for k, m in measures]
    totals += [(f"divide_{r[0]:g}", m, r[k][0], None) for r in published.item("wmt", "fig1")["rows"] if r[1] == "SR-DC"
               for k, m in measures]
    ours = per_pair[per_pair["collection"] == "newstest2018"]
    other = PAPER_SR_DC_ALL - PAPER_SR_DC_2018
    swapped = PAPER_SR_DC_2018 - PAPER_SR_DC_SHARED  # pairs of ours the paper's 2018 pairs do not hold
    rows = []
    for experiment, measure, total, known in totals:
        part = ours[ours["experiment"] == experiment]
        low, high = (known, known) if known is not None else (max(0, total - other), min(total, PAPER_SR_DC_2018))
        mine = int(part[f"{measure}_changed"].sum())
        ours_low, ours_high = max(0, low - swapped), min(PAPER_SR_DC_2018, high + swapped)
        rows.append({"experiment": experiment, "measure": measure, "paper_total": f"{total}/{PAPER_SR_DC_ALL}",
                     "paper_2018_low": low, "paper_2018_high": high, "low": ours_low, "high": ours_high,
                     "value": mine, "pairs": len(part), "inside": ours_low <= mine <= ours_high})
    return pd.DataFrame(rows)


def original_2020_view(originals: pd.DataFrame, pair: str) -> pd.DataFrame:
    """One 2020 pair's "original" column for the page."""
    part = originals[originals["pair"] == pair]
    mark = {True: "line", False: ""}
    return pd.DataFrame({"rank": part["rank"].to_numpy(), "system": part["system"].map(base_name).to_numpy(),
                         "z": part["z"].to_numpy(),
                         "line below, HUMAN out of the clusters (Figs. 2–3)": [
                             "(HUMAN)" if h else mark[b] for h, b in zip(part["human"],
                                                                       part["line_below_without_human"])],
                         "line below, official (HUMAN in)": part["line_below_official"].map(mark).to_numpy()})
