"""Chapter ``09_your_own_scores``: the comparison of one user's score file (:mod:`analysis.compare`) as the page's
tables (its figures are the command's, :mod:`analysis.compare.figures`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..compare import Comparison, report
from ..data.scorefiles import read_judgments, read_scores
from ..paths import repo_root
from .common import SEED, Param

CHAPTER = "09_your_own_scores"
#: this chapter's code is meant to be copied: the book shows it (every other chapter hides its code behind a toggle)
SHOW_CODE = True
PARAMETERS = {
    "scores_path": Param("str"),
    "format": Param("str", choices=("auto", "long", "wide", "mtme")),
    "where": Param("dict", optional=True),
    "align": Param("str", choices=("auto", "exact", "intersect", "pairwise")),
    "lower_is_better": Param("bool"),
    "ties": Param("str", choices=("half", "loss")),
    "seed": SEED,
    "n_resamples": Param("int", low=1, quick=200),
    "n_resamples_sequential": Param("int", low=1, quick=20),
    "alpha": Param("number", low=0, high=1, low_open=True, high_open=True),
    "incomplete_path": Param("str"),
    "judgments_path": Param("str"),
    "judge_aspect": Param("str", choices=("coherence", "consistency", "fluency", "relevance")),
}
#: The example shipped with the repository (see examples/README.md for its provenance).
EXAMPLE = "examples/topicalchat_chrfpp.csv"


def _from_root(path) -> Path:
    """``path``, a relative one read from the repository root (the examples are named that way)."""
    path = Path(path)
    return path if path.is_absolute() else repo_root() / path


def load(path, fmt: str = "auto", *, where=None, align: str = "auto") -> pd.DataFrame:
    """:func:`~analysis.data.scorefiles.read_scores` of ``path`` (:func:`analysis.compare.compare` takes the
    direction)."""
    return read_scores(_from_root(path), fmt, where=where, align=align)


def load_judgments(path):
    """:func:`~analysis.data.scorefiles.read_judgments` of ``path``."""
    return read_judgments(_from_root(path))


#: the multiple-comparison adjustments by name (a comparison's ``settings["adjust"]``)
ADJUSTMENTS = {"holm": "Holm's", "bh": "Benjamini and Hochberg's", "none": "no"}
#: the intervals by name (a comparison's ``settings["interval"]``)
INTERVALS = {"percentile": "percentile-bootstrap", "bca": "BCa-bootstrap", "sandwich": "sandwich (robust)"}


def page_numbers(comparison: Comparison, alpha: float | None = None) -> dict:
    """The numbers the page pastes about one comparison (MyST-NB glue): systems, instances or judgments, pairs,
    pairs each test finds different after adjustment at ``alpha``, tied groups, and how often the mechanisms pick a
    different best system and order pairs differently."""
    s, settings = comparison.systems, comparison.settings
    alpha = settings.get("alpha", 0.05) if alpha is None else alpha
    n = len(s)
    upper = np.triu_indices(n, 1)
    values = {"systems": n, "instances": int(settings.get("n_instances", 0)), "pairs": n * (n - 1) // 2,
              "resamples": int(settings.get("n_resamples", 0)),
              "resamples_sequential": int(settings.get("n_resamples_sequential", 0)),
              "orders": int(settings.get("n_orders", 0)), "alpha": alpha,
              "sign_different": int((comparison.sign_p_adj.to_numpy()[upper] < alpha).sum()),
              "groups": int(s["group"].max())}
    if not comparison.wilcoxon_p_adj.isna().all().all():
        values["wilcoxon_different"] = int((comparison.wilcoxon_p_adj.to_numpy()[upper] < alpha).sum())
    d = comparison.disagreement
    if len(d):
        values |= {"mechanism_pairs": len(d), "best_differs": int(d["top1_differs"].sum()),
                   "top3_differs": int(d["top3_differs"].sum()),
                   "pairs_ordered_differently": float(d["disagree"].mean())}
    return values


def best_by_mechanism(comparison: Comparison) -> str:
    """Each mechanism's best system, as a list: ``"MEAN: A, MEDIAN: B, ..."``."""
    return ", ".join(f"{report.LABELS[m]}: {comparison.systems[f'{m}_rank'].idxmin()}"
                     for m in report.present(comparison))


def widest_rank_intervals(comparison: Comparison) -> str:
    """Every system sharing the widest 95% rank interval, with it: ``"B (2–8), C (3–9)"``."""
    s = comparison.systems
    width = s["rank_high"] - s["rank_low"]
    return ", ".join(f"{name} ({s.loc[name, 'rank_low']:.0f}–{s.loc[name, 'rank_high']:.0f})"
                     for name in width.index[width == width.max()])


def places_moved(comparison: Comparison) -> int:
    """In how many places MEAN's order of the systems differs from the adjusted mean's (an incomplete file)."""
    s = comparison.systems
    return sum(a != b for a, b in zip(s.sort_values("mean_rank").index, s.sort_values("mean_adj_rank").index))


def ranking_table(comparison: Comparison) -> pd.DataFrame:
    """One row per system, sorted by BT: BT with its interval, BT's 95% rank interval and tied group, every other
    mechanism's score with its interval (three significant digits for the mechanism's largest score), and the rank
    under each (:func:`analysis.compare.report.ranking_table`)."""
    table = report.ranking_table(comparison)
    ranks = report.rank_view(comparison).reindex(table.index)
    label = "/".join(report.LABELS[m] if m != "trueskill" else "TS" for m in report.present(comparison))
    table[f"ranks ({label})"] = ranks.to_numpy()
    return table


#: the most mechanism columns (each "score [low, high]") one table of the page holds beside the system names
PAGE_COLUMNS = 4


def ranking_views(comparison: Comparison) -> list[pd.DataFrame]:
    """:func:`ranking_table` in tables that fit the book's text column: BT with its rank interval, tied group and the
    rank under each mechanism first, then the other mechanisms' scores with their intervals, at most PAGE_COLUMNS
    per table, split evenly."""
    table = ranking_table(comparison)
    first = ["BT", "rank (95%)", "tied group", table.columns[-1]]
    rest = [c for c in table.columns if c not in first]
    n = -(-len(rest) // PAGE_COLUMNS)
    size = -(-len(rest) // n) if n else 0
    return [table[first]] + [table[rest[k:k + size]] for k in range(0, len(rest), size or 1)]


def disagreement_view(comparison: Comparison) -> pd.DataFrame:
    """The paired paper's Table 1 measures per pair of mechanisms, in words."""
    d = comparison.disagreement

    def yes(flags):
        return flags.map({True: "yes", False: "no"})

    return pd.DataFrame({"system pairs ordered differently": d["disagree"],
                         "different best system": yes(d["top1_differs"]),
                         "different top-3 set": yes(d["top3_differs"])}, index=d.index)


# -- incomplete files, judgment files, human ratings (issue 30) --------------------------------------------------------


def llm_judge_files(h2h: pd.DataFrame, aspect: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """ChatGPT's head-to-head SummEval verdicts (:func:`analysis.data.favi.build_llm_h2h`, Wu et al. 2023) as the two
    judgment files of ``compare JUDGE --human HUMAN --covariates first``, for one ``aspect``:

    * the judge's: ``model_a`` is the summary shown first, in both presentation orders, ``winner`` ChatGPT's answer,
      ``first`` = 1 in every row (as a covariate, its coefficient is the judge's preference for the first position,
      which the pairs' two orders make identifiable);
    * the experts': the pair's mean expert ratings for the aspect compared (equal means are a tie), repeated for
      both orders so that every verdict of the judge has its human counterpart.

    Both have ``question_id`` = the document and the order."""
    rows = h2h[h2h["aspect"] == aspect]
    if rows.empty:
        raise ValueError(f"no head-to-head verdicts for aspect {aspect!r}; aspects: {sorted(set(h2h['aspect']))}")
    original = (rows["order"] == "original").to_numpy()
    one, two = rows["system_1"].to_numpy(dtype=object), rows["system_2"].to_numpy(dtype=object)
    first, second = np.where(original, one, two), np.where(original, two, one)
    preferred = rows["preferred"].to_numpy(dtype=object)
    item = (rows["document"] + "/" + rows["order"]).to_numpy(dtype=object)
    judge = pd.DataFrame({"question_id": item, "model_a": first, "model_b": second,
                          "winner": np.select([preferred == first, preferred == second], ["model_a", "model_b"], "tie"),
                          "first": 1})
    e1, e2 = rows["expert_1"].to_numpy(), rows["expert_2"].to_numpy()
    human = pd.DataFrame({"question_id": item, "model_a": one, "model_b": two,
                          "winner": np.select([e1 > e2, e1 < e2], ["model_a", "model_b"], "tie")})
    return judge, human


def llm_judge_ranking(judge: Comparison, experts: Comparison) -> pd.DataFrame:
    """The judge's BT strengths, plain and with the covariates taken out, beside the experts' own BT (each with its
    95% interval), systems in the experts' order."""
    order = experts.systems.sort_values("bt", ascending=False).index
    views = {"ChatGPT's BT": report.with_interval(judge.systems.loc[order], "bt"),
             "ChatGPT's BT, first position taken out": report.with_interval(judge.systems.loc[order], "bt_controlled"),
             "experts' BT": report.with_interval(experts.systems.loc[order], "bt")}
    return pd.DataFrame(views, index=pd.Index(order, name="system"))


def position_table(position: dict) -> pd.DataFrame:
    """The first position's coefficient (log-odds) with its sandwich interval and standard error, as a table."""
    return pd.DataFrame([position], index=pd.Index(["first position"], name="covariate"))


def agreement_view(agreement: pd.DataFrame) -> pd.DataFrame:
    """The judge-against-experts table as the command prints it (:func:`analysis.compare.report.human_view`)."""
    from types import SimpleNamespace

    return report.human_view(SimpleNamespace(human=agreement))
