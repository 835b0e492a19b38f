"""The comparison as tables people read: a terminal view within 100 columns (names cut, full names in the files),
Markdown, CSV or LaTeX tables, and the files of ``--out``."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from ..agreement import MECHANISM_LABELS
from .core import Comparison

WIDTH = 100
NAME_CHARS = 20


def decimals(values) -> int:
    """Decimals that give the largest of ``values`` three significant digits (Elo ~1500: 0; BT ~0.2: 3)."""
    arr = np.abs(np.asarray(values, dtype=float))
    largest = float(np.nanmax(arr[np.isfinite(arr)])) if len(arr) and np.isfinite(arr).any() else 0.0
    return int(np.clip(2 - np.floor(np.log10(largest)), 0, 6)) if largest > 0 else 3


def number_format(values) -> str:
    """The format of a column of numbers: fixed decimals (:func:`decimals`), or three significant digits in
    scientific notation where fixed decimals would print a nonzero number as 0.000000 or need more than seven
    digits before the point (scores near 1e-310 or 1e305)."""
    arr = np.abs(np.asarray(values, dtype=float))
    arr = arr[np.isfinite(arr) & (arr > 0)]
    if len(arr) and (arr.max() < 5e-7 or arr.max() >= 1e7):
        return ".3g"
    return f".{decimals(values)}f"


def escape_markdown(text) -> str:
    """A cell of a Markdown table: ``|`` would end the cell, a backslash escapes it."""
    return str(text).replace("\\", "\\\\").replace("|", "\\|")


LATEX_SPECIALS = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def escape_latex(text) -> str:
    """A cell of a LaTeX table with TeX's special characters escaped (a system called ``A&B_1`` would break it)."""
    return "".join(LATEX_SPECIALS.get(ch, ch) for ch in str(text))


def cut(name, limit: int = NAME_CHARS) -> str:
    """A name shortened to ``limit`` characters with an ellipsis."""
    name = str(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


ALL = ("win_rate", "mean", "median", "bt", "elo", "trueskill")
LABELS = {**MECHANISM_LABELS, "win_rate": "win rate", "mean_adj": "adjusted MEAN"}


def present(comparison: Comparison) -> list[str]:
    """The mechanisms this comparison has (a judgment file has no MEAN and MEDIAN, a win rate instead)."""
    return [m for m in ALL if m in comparison.systems]


def labelled(name: str, settings: dict) -> str:
    """A mechanism's column label; MEAN and MEDIAN say when lower is better (they stay in the file's units)."""
    label = LABELS.get(name, name)
    if settings.get("lower_is_better") and name in ("mean", "median", "mean_adj"):
        label += " (lower is better)"
    return label


def with_interval(systems: pd.DataFrame, name: str) -> list[str]:
    est, low, high = (systems[c] for c in (name, f"{name}_low", f"{name}_high"))
    spec = number_format(est)

    def f(v):
        return "–" if not np.isfinite(v) else f"{v:{spec}}"

    return [f"{f(e)} [{f(lo)}, {f(hi)}]" if np.isfinite(lo) else f(e) for e, lo, hi in zip(est, low, high)]


def ranking_table(comparison: Comparison, names=None) -> pd.DataFrame:
    """One row per system, sorted by BT: BT's score, 95% rank interval and tied group, then every other mechanism
    with its interval (and, with missing scores, the adjusted mean and the instances each system has); ``names``
    maps the system names shown (default: whole)."""
    systems = comparison.systems.sort_values("bt", ascending=False)
    s = comparison.settings
    table = pd.DataFrame(index=pd.Index([names(x) if names else x for x in systems.index], name="system"))
    if s.get("scale") == "elo" and "rating" in systems:
        table["BT rating"] = with_interval(systems, "rating")
    else:
        table["BT"] = with_interval(systems, "bt")
    table["rank (95%)"] = [f"{lo:.0f}–{hi:.0f}" if np.isfinite(lo) else "–"
                           for lo, hi in zip(systems["rank_low"], systems["rank_high"])]
    table["tied group"] = systems["group"].astype(int).to_numpy()
    if s.get("scale") == "elo" and "rank_arena" in systems:  # arena's rank (UB): from the rating intervals
        table["rank (UB)"] = systems["rank_arena"].astype(int).to_numpy()
    elif "rank_fastchat" in systems:
        table["rank (UB)"] = systems["rank_fastchat"].astype(int).to_numpy()
    if "bt_controlled" in systems and s.get("scale") == "elo" and "rating_controlled" in systems:
        table["BT rating, style-controlled"] = with_interval(systems, "rating_controlled")
    elif "bt_controlled" in systems:
        table["BT, style-controlled"] = with_interval(systems, "bt_controlled")
    if "trueskill_conservative" in systems:  # TrueSkill's leaderboard value, μ − 3σ
        spec = number_format(systems["trueskill_conservative"])
        table["TrueSkill μ−3σ"] = [f"{v:{spec}}" for v in systems["trueskill_conservative"]]
    for name in [m for m in present(comparison) if m != "bt"] + (["mean_adj"] if "mean_adj" in systems else []):
        table[labelled(name, s)] = with_interval(systems, name)
    if s.get("alignment") == "judgments":
        counts = systems["instances"].to_numpy()
        table["judgments"] = counts.astype(int) if np.all(counts == np.round(counts)) else counts.round(1)
    if s.get("alignment") == "pairwise":
        table["instances"] = systems["instances"].astype(int).to_numpy()
    return table


def rank_view(comparison: Comparison) -> pd.Series:
    return comparison.systems[[f"{m}_rank" for m in present(comparison)]].astype(int).astype(str).agg("/".join, axis=1)


def first_line(comparison: Comparison) -> str:
    """What was compared, and how, in one line."""
    s = comparison.settings
    if s.get("alignment") == "judgments":
        how = ("BT's from its sandwich (robust) covariance, rank intervals from normal draws, Elo's and TrueSkill's "
               "from a bootstrap over judgments" if s["interval"] == "sandwich" else
               f"intervals over judgments ({s['interval']})")
        scale = ("; BT as arena ratings (400 per factor of ten in the odds, θ centred on its arithmetic mean at "
                 "1000, intervals as arena-rank's)" if s.get("scale") == "elo" else "")
        orders = (f"Elo in the file's order, TrueSkill the mean of {s['n_orders']} random orders"
                  if s.get("elo_order") == "file" else f"Elo and TrueSkill the mean of {s['n_orders']} random orders")
        ties = f"; a tie credited {s['tie_weight']:g} win to each side" if s.get("tie_weight", 0.5) != 0.5 else ""
        anchor = f", {s['anchor'][0]} anchored at {s['anchor'][1]:g}" if s.get("anchor") and scale else ""
        return (f"{s['n_systems']} systems, {judgment_count(s)}; {how}; {orders}, {s['n_resamples_sequential']} "
                f"resamples (bounded by the number of judgments){_elo_settings(s)}{ties}{scale}{anchor}; rank "
                f"(UB): 1 + the systems whose BT interval lies wholly above; p-values adjusted by {s['adjust']}.")
    what = (f"{s['n_systems']} systems x {s['n_instances']:,} instances; "
            + ("complete" if s.get("alignment") == "complete" else
               "INCOMPLETE: each pair compared on the instances both systems have (pairwise alignment)"))
    return what + (f"; {s['interval']} intervals over instances, p-values adjusted by {s['adjust']}"
                   f"{_elo_settings(s)}.")


def _elo_settings(s: dict) -> str:
    """Elo's step and start when --elo-k or --elo-initial changed them."""
    from .sequential import ELO_INITIAL, ELO_K

    k, start = s.get("elo_k", ELO_K), s.get("elo_initial", ELO_INITIAL)
    return f"; Elo with K {k:g}, starting at {start:g}" if (k, start) != (ELO_K, ELO_INITIAL) else ""


def judgment_count(settings: dict) -> str:
    """How many judgments: the rows, and with a ``weight`` column the judgments their weights add up to (an
    aggregated file: a row of weight 5 is five judgments for BT and the win rate, one row for the bootstrap)."""
    rows = settings["n_instances"]
    weighted = settings.get("n_judgments_weighted")
    if weighted is None or settings.get("unit_weights", True):
        return f"{rows:,} pairwise judgments"
    return f"{rows:,} rows of pairwise judgments holding {weighted:,.6g} judgments by their weights"


def mean_warning(comparison: Comparison) -> str:
    """Why MEAN and MEDIAN are not comparable on an incomplete file, and the fair alternative (empty if complete)."""
    s = comparison.systems
    if comparison.settings.get("alignment") != "pairwise":
        return ""
    return (f"Warning: systems are scored on {int(s['instances'].min()):,} to {int(s['instances'].max()):,} "
            "instances, so MEAN and MEDIAN average different instances and are not comparable between systems; "
            "the adjusted MEAN (instance difficulty removed by a two-way additive fit) is, as are BT, Elo and "
            "TrueSkill (fitted to each pair's common instances).")


def notes(result: Comparison) -> list[str]:
    """Warnings about the data every reader of the report should see (their facts are in the JSON's settings):
    systems without a finite BT estimate, too few units for a bootstrap, judgments left out."""
    s = result.settings
    out = []
    for key, what in (("never_lose", "never lose"), ("never_win", "never win")):
        for group in s.get("degenerate", {}).get(key, []):
            out.append(f"warning: {', '.join(map(str, group))} {what} against the other systems: BT has no finite "
                       "estimate for them (the score shown is where the fit stopped) and their interval does not "
                       "measure uncertainty")
    no_wins = s.get("degenerate", {}).get("no_wins", [])
    if no_wins:
        out.append(f"warning: {', '.join(map(str, no_wins))} win(s) no comparison: BT puts them at strength 0, a "
                   "boundary estimate whose interval does not measure uncertainty")
    if s.get("n_instances", 99) < 10:
        unit = "judgments" if s.get("alignment") == "judgments" else "instances"
        out.append(f"warning: only {s['n_instances']} {unit}: bootstrap intervals from so few units understate the "
                   "uncertainty (a single unit gives intervals of width zero)")
    for name, c in (s.get("covariates") or {}).items():
        out.append(f"style control: covariate {name} has coefficient {c['coef']:+.3g} [{c['low']:+.3g}, "
                   f"{c['high']:+.3g}] (log-odds per unit of the difference; sandwich 95% interval)")
    if s.get("zero_weight"):
        out.append(f"note: {s['zero_weight']:,} judgment(s) with weight 0 left out")
    return out


def print_report(result: Comparison, fmt: str = "text", stream=None) -> None:
    """Print the report: ``text`` within :data:`WIDTH` columns, or the tables as ``markdown``, ``csv``, ``latex``."""
    out = stream or sys.stdout
    alpha = result.settings.get("alpha", 0.05)
    if fmt != "text":
        tables = [("systems", ranking_table(result), True),
                  ("P(row beats column)", result.marked_prob(alpha), True)]
        if len(result.human):  # one row per pair of systems: no index
            tables.append((human_title(result), human_view(result), False))
        for title, table, index in tables:
            if fmt == "markdown":
                table = _cells(table, escape_markdown)
                print(f"### {title}\n\n{table.to_markdown(index=index)}\n", file=out)
            elif fmt == "csv":
                print(f"# {title}\n{table.to_csv(lineterminator=chr(10), index=index)}", file=out)
            else:
                print(latex_table(_cells(table, escape_latex), escape_latex(title), index), file=out)
        return
    print(_wrap(first_line(result)), file=out)
    for note in notes(result):
        print(_wrap(note), file=out)
    warning = mean_warning(result)
    if warning:
        print(_wrap(warning), file=out)
    table = ranking_table(result, cut)
    print("\nSystems, best first by BT: score [95% interval], BT's rank interval and tied group:\n", file=out)
    print(table.to_string(line_width=WIDTH), "\n", file=out)
    numbers = {str(x): str(i + 1) for i, x in enumerate(result.systems.sort_values("bt", ascending=False).index)}
    order = list(numbers)
    marks = result.marked_prob(alpha).loc[order, order]
    marks.index = [f"{numbers[x]} {cut(x, 16)}" for x in order]
    marks.columns = [numbers[x] for x in order]
    print(_wrap(f"P(row beats column), ties as half, systems numbered in BT order; * sign test, † Wilcoxon, "
                f"p < {alpha:g} after {result.settings.get('adjust', 'holm')} adjustment:") + "\n", file=out)
    print(marks.to_string(line_width=WIDTH), "\n", file=out)
    d = result.disagreement.round(3)
    print(_wrap("How much the mechanisms disagree (share of system pairs ordered differently; different best "
                "system; different top-3 set):") + "\n", file=out)
    print(d.to_string(line_width=WIDTH), "\n", file=out)
    if len(result.human):
        print(human_text(result) + "\n", file=out)
        print(human_view(result, cut).to_string(line_width=WIDTH, index=False), "\n", file=out)
    print("Stability: does removing the best / worst system reorder the others?\n", file=out)
    print(stability_summary(result).map(lambda v: cut(v, 44)).to_string(line_width=WIDTH), "\n", file=out, flush=True)


def latex_table(table: pd.DataFrame, caption: str, index: bool = True) -> str:
    """A table of escaped text cells as a LaTeX ``table`` with booktabs rules (the layout of pandas' ``to_latex``,
    written here because pandas' LaTeX writer makes a namedtuple of the column names, which fails on system names
    that are equal as Python identifiers: 'é' in NFC and NFD, 'ﬁ' and 'fi')."""
    lead = [""] if index else []
    lines = ["\\begin{table}", f"\\caption{{{caption}}}", f"\\begin{{tabular}}{{{'l' * (len(lead) + table.shape[1])}}}",
             "\\toprule", " & ".join([*lead, *map(str, table.columns)]) + " \\\\"]
    if index and table.index.name:
        lines.append(" & ".join([str(table.index.name), *[""] * table.shape[1]]) + " \\\\")
    lines.append("\\midrule")
    for label, row in zip(table.index, table.to_numpy()):
        lines.append(" & ".join([*([str(label)] if index else []), *map(str, row)]) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"


def _cells(table: pd.DataFrame, escape) -> pd.DataFrame:
    """Every cell, label and header of ``table`` as escaped text."""
    out = table.map(escape)
    out.index = pd.Index([escape(x) for x in table.index], name=escape(table.index.name or ""))
    out.columns = [escape(c) for c in table.columns]
    return out


def _wrap(text: str) -> str:
    import textwrap

    return textwrap.fill(text, WIDTH)


def stability_summary(comparison: Comparison) -> pd.DataFrame:
    """Per mechanism: which system was removed (best, worst) and how many pairs of the others changed order."""
    s = comparison.stability.copy()
    s["result"] = [f"{system}: {reordered} of {pairs} pairs reordered" if reordered >= 0
                   else f"{system}: the rest cannot be ranked together"
                   for system, reordered, pairs in zip(s["system"], s["pairs_reordered"], s["pairs"])]
    out = s.pivot(index="mechanism", columns="removed", values="result").reindex(present(comparison))
    return out.rename(index=LABELS, columns={"best": "remove the best", "worst": "remove the worst"})


def human_text(comparison: Comparison) -> str:
    """The overall sign accuracies against the human ratings, in words (empty without human ratings)."""
    h = comparison.settings.get("human")
    if not h:
        return ""
    unmatched = ""
    if "judge_only" in h:
        zero = [f"{h[k]:,} of the {who} with weight 0" for k, who in (("judge_zero_weight", "judge's verdicts"),
                                                                       ("human_zero_weight", "humans'")) if h.get(k)]
        unmatched = (f" ({h['judge_only']:,} of the judge's verdicts and {h['human_only']:,} of the humans' have no "
                     "counterpart on the same item and pair and are left out"
                     + (f"; so are {' and '.join(zero)}" if zero else "") + ")")
    return _wrap(f"Against the human ratings{unmatched}: sample-level sign accuracy {h['sample_accuracy']:.3f} "
                 f"[{h['sample_accuracy_low']:.3f}, {h['sample_accuracy_high']:.3f}] over {h['items']:,} item pairs; "
                 f"system-level {h['system_accuracy']:.3f} [{h['system_accuracy_low']:.3f}, "
                 f"{h['system_accuracy_high']:.3f}] over {h['pairs']} pairs of systems (Wilson intervals). Per pair, "
                 "the Favi-Score (positive: the scores favour system A relative to the humans) with its bootstrap "
                 "interval and permutation p-value:")


def human_title(comparison: Comparison) -> str:
    """The human table's title in the Markdown, CSV and LaTeX reports: the overall accuracies in one line."""
    h = comparison.settings.get("human") or {}
    return (f"Favi-Score and sign accuracy against the human ratings (sample-level sign accuracy "
            f"{h.get('sample_accuracy', float('nan')):.3f} over {h.get('items', 0):,} item pairs, system-level "
            f"{h.get('system_accuracy', float('nan')):.3f} over {h.get('pairs', 0)} pairs of systems)")


def human_view(comparison: Comparison, names=None) -> pd.DataFrame:
    """The human column per pair: Favi-Score [interval], p, sample-level sign accuracy [interval], margin signs."""
    h = comparison.human
    name = names or str
    return pd.DataFrame({
        "system A": [name(x) for x in h["system_a"]], "system B": [name(x) for x in h["system_b"]],
        "items": h["n_items"].astype(int),
        "Favi-Score": [f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]" if np.isfinite(v) else "–"
                       for v, lo, hi in zip(h["favi"], h["favi_low"], h["favi_high"])],
        "p": [f"{p:.3f}" if np.isfinite(p) else "–" for p in h["favi_p"]],
        "sign accuracy": [f"{v:.2f} [{lo:.2f}, {hi:.2f}]" for v, lo, hi in
                          zip(h["sample_accuracy"], h["accuracy_low"], h["accuracy_high"])],
        "same winner": h["system_sign_agrees"].map({True: "yes", False: "no"}).to_numpy()})
