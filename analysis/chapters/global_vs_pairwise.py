"""Chapter ``05_global_vs_pairwise``: Levtsov & Ustalov (2025) on the reachable data. This module: the chapter's
parameters, CEval (the paper's exact text-generation data: Appendix C.1-C.2, Tables 6-7, Fig. 1's tie sweep), Fig. 2's
stability curves, the three random binary models of Sec. 5, Fig. 3's synthetic detection experiment and Fig. 4's
flowchart. SST-5 and the binary stand-in for Jigsaw are in :mod:`.gvp_classification`, llmfao in
:mod:`.gvp_llmfao`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from rapidfuzz.distance import Levenshtein
from sacrebleu.metrics import CHRF
from scipy import stats
from sklearn.metrics import average_precision_score

from .. import sweeps
from ..data import published
from ..validation import check_count, check_rng
from .common import SEED, Param

CHAPTER = "05_global_vs_pairwise"
#: CEval method -> the name the paper prints (Appendix C); "expert" is the reference, llama_06 is not in the paper
CEVAL_MODELS = {"crowd": "Crowd", "mice": "MICE", "llama_02": "Llama 2", "llama_1": "LLaMA", "gbda": "GDBA",
                "crest": "Crest"}
CEVAL_REFERENCE = "expert"
#: the models of Fig. 1 ("five models"): the six without Crowd, the human-written counterfactuals (an assumption)
FIG1_MODELS = ("MICE", "Llama 2", "LLaMA", "GDBA", "Crest")
GLOBAL = ("ed", "wer", "chrf")
#: measures for which a smaller value is better (distances and errors); every other measure is higher-is-better
LOWER_IS_BETTER = ("ed", "wer", "mae")
PARAMETERS = {
    "seed": SEED,
    "n_trials": Param("int", low=1),
    "tie_step": Param("number", low=0, high=1, low_open=True),
    "penalised_share": Param("number", low=0, high=1, low_open=True),
    "n_random_repeats": Param("int", low=1),
    "n_stability_trials": Param("int", low=1),
    "stability_step": Param("int", low=1),
    "n_fig3_repeats": Param("int", low=1),
    "n_llmfao_trials": Param("int", low=1),
    "llmfao_tie_step": Param("number", low=0, high=1, low_open=True),
    "split_half_shares": Param("number", low=0, high=0.5, low_open=True, many=True),
    "stability_tie_probabilities": Param("number", low=0, high=1, high_open=True, many=True),
}


# -- CEval: per-instance quality and global scores (Appendix C.1) --------------------------------------------------


def ceval_outputs(ceval: pd.DataFrame) -> tuple[pd.DataFrame, pd.Series]:
    """(instances x models) generated texts under the paper's model names, and the reference (the expert
    counterfactuals). A missing generation (4 for Llama 2, 7 for LLaMA) is scored as the empty string."""
    texts = ceval.pivot(index="instance", columns="method", values="gen_text")
    reference = texts[CEVAL_REFERENCE]
    if reference.isna().any():
        raise ValueError("the CEval reference (expert) has missing texts")
    outputs = texts[list(CEVAL_MODELS)].rename(columns=CEVAL_MODELS).astype(object).where(lambda t: t.notna(), "")
    return outputs, reference.astype(str)


def text_quality(outputs: pd.DataFrame, reference: pd.Series) -> dict[str, pd.DataFrame]:
    """Per (instance, model): character edit distance (rapidfuzz's Levenshtein, as jiwer's), word error rate
    (jiwer) and sentence chrF (sacrebleu) of the output against the reference, each an (instances x models) frame."""
    import jiwer

    chrf = CHRF()
    refs = reference.loc[outputs.index].tolist()
    frames = {name: pd.DataFrame(index=outputs.index, columns=outputs.columns, dtype=float) for name in GLOBAL}
    for model in outputs.columns:
        hyps = outputs[model].tolist()
        frames["ed"][model] = [Levenshtein.distance(h, r) for h, r in zip(hyps, refs)]
        frames["wer"][model] = [jiwer.wer(r, h) for h, r in zip(hyps, refs)]
        frames["chrf"][model] = [chrf.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
    return frames


def global_scores(quality: dict[str, pd.DataFrame], *, rng, n_trials: int) -> pd.DataFrame:
    """Appendix C.1: mean ED, WER and chrF per model, and BT from chrF-decided matches (a model wins an instance
    when its chrF is higher) on every instance with the paper's 95% interval over ``n_trials`` sampled match sets."""
    table = pd.DataFrame({name: frame.mean() for name, frame in quality.items()})
    bt = sweeps.bradley_terry_interval(sweeps.matches(quality["chrf"]), rng, n_trials)
    return table.join(bt).rename_axis("model").reset_index()


def appendix_c1(scores: pd.DataFrame) -> pd.DataFrame:
    """Ours next to Appendix C.1's values, model by model."""
    paper = published.frame("gvp", "appendix_c1").set_index("model")
    ours = scores.set_index("model")
    out = pd.concat({"here": ours[["ed", "wer", "chrf", "bt"]], "paper": paper[["ed", "wer", "chrf", "bt"]]}, axis=1)
    for c in ("ed", "wer", "chrf"):
        out[("difference", c)] = (ours[c] - paper[c]).round(4)
    return out


def spearman_table(scores: pd.DataFrame, columns) -> pd.DataFrame:
    """Spearman correlations between the models' scores under each measure (Tables 2, 3, 7); signs as the paper
    prints them (ED and WER are lower-is-better, so they correlate negatively with chrF and BT)."""
    return scores[list(columns)].corr(method="spearman").round(2)


# -- CEval: penalised outputs (Appendix C.2, Table 6) ---------------------------------------------------------------


def penalise(outputs: pd.DataFrame, rng, share: float = 0.05, length: int = 1000) -> pd.DataFrame:
    """Sec. 6: a random long string (``length`` random letters and spaces) appended to a random ``share`` of each
    model's outputs; columns renamed "Penalized <model>"."""
    gen = np.random.default_rng(rng)
    alphabet = np.array(list("abcdefghijklmnopqrstuvwxyz     "))
    out = outputs.copy()
    n = len(outputs)
    for model in outputs.columns:
        rows = gen.choice(n, size=int(round(share * n)), replace=False)
        for r in rows:
            out.iloc[r, out.columns.get_loc(model)] += " " + "".join(gen.choice(alphabet, length))
    return out.rename(columns=lambda m: f"Penalized {m}")


def copies_ap(measures: pd.DataFrame, originals, lower_is_better=LOWER_IS_BETTER) -> pd.Series:
    """Per measure (column of ``measures``, one row per model): the average precision of ranking the models by it,
    the ``originals`` relevant — 1 when every original is above every copy (Tables 4-6). Measures in
    ``lower_is_better`` are negated first."""
    relevant = measures.index.isin(list(originals))
    if relevant.all() or not relevant.any():
        raise ValueError("copies_ap needs both originals and copies among the models")
    return pd.Series({c: average_precision_score(relevant, -measures[c] if c in lower_is_better else measures[c])
                      for c in measures.columns}, name="ap")


def lowest_ap(relevant: int, total: int) -> float:
    """The smallest average precision possible: all ``relevant`` items ranked below the others."""
    return float(np.mean([(i + 1) / (total - relevant + i + 1) for i in range(relevant)]))


def penalised_ap(scores: pd.DataFrame) -> pd.DataFrame:
    """Table 6: average precision of each measure's ranking at putting the originals above their penalised copies
    (originals relevant), with ED and WER oriented lower-is-better; and, as the paper's values suggest it did, with
    every measure taken as higher-is-better."""
    measures = scores.set_index("model")[["ed", "wer", "chrf", "bt"]]
    originals = [m for m in measures.index if not m.startswith("Penalized ")]
    return pd.DataFrame({"ap": copies_ap(measures, originals),
                         "ap_higher_is_better": copies_ap(measures, originals, lower_is_better=())}
                        ).rename_axis("measure")


# -- Fig. 1: the tie-probability sweep ------------------------------------------------------------------------------


def tie_grid(step: float) -> np.ndarray:
    """0 to 1 by ``step`` (1 included), rounded so that 0.01 * k prints as itself."""
    return np.round(np.append(np.arange(0.0, 1.0, step), 1.0), 10)


def tie_sweep(quality: pd.DataFrame, probabilities, *, rng, n_trials: int) -> pd.DataFrame:
    """Fig. 1: for each tie probability, ``n_trials`` sampled match sets (12·m·ln m per pair, each match turned into a
    tie with that probability), BT on each, and its Spearman correlation with the models' mean quality. One row per
    probability: mean, 2.5% and 97.5% percentiles of the correlation, and the observed tie share."""
    m = sweeps.matches(quality)
    average = quality.mean().to_numpy()
    gen = np.random.default_rng(rng)
    rows = []
    for q in probabilities:
        strengths = sweeps.bradley_terry_trials(m, gen, n_trials, tie_probability=float(q))
        rho = spearman_rows(strengths, average)
        rows.append({"tie_probability": float(q), **spearman_summary(rho), "undefined": int(np.isnan(rho).sum())})
    return pd.DataFrame(rows)


def spearman_summary(rho: np.ndarray) -> dict:
    """Mean and 2.5-97.5% percentiles of the defined correlations (NaN ones — all strengths equal, e.g. every
    match a tie — have no ranking to correlate); NaN when none is defined."""
    defined = np.asarray(rho)[~np.isnan(rho)]
    if not len(defined):
        return {"spearman_mean": np.nan, "spearman_low": np.nan, "spearman_high": np.nan}
    return {"spearman_mean": float(defined.mean()), "spearman_low": float(np.percentile(defined, 2.5)),
            "spearman_high": float(np.percentile(defined, 97.5))}


def spearman_rows(rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Spearman correlation of each row with ``reference`` (NaN where a row is constant)."""
    rows = np.where(np.ptp(rows, axis=1, keepdims=True) < 1e-12, np.nan, rows)  # equal strengths: no order
    ranked = stats.rankdata(rows, axis=1)
    ref = stats.rankdata(reference)
    a = ranked - ranked.mean(axis=1, keepdims=True)
    b = ref - ref.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (a @ b) / np.sqrt((a**2).sum(axis=1) * (b**2).sum())


def plot_tie_sweep(sweep: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(sweep["tie_probability"], sweep["spearman_low"], sweep["spearman_high"], alpha=0.25,
                    label="95% of trials")
    ax.plot(sweep["tie_probability"], sweep["spearman_mean"], label="mean over trials")
    ax.axhline(0.8, color="grey", linestyle=":", label="0.8 (the paper's threshold)")
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("probability that a match is turned into a tie")
    ax.set_ylabel("Spearman: BT vs mean chrF ranking")
    ax.set_ylim(-1.05, 1.05)
    ax.legend(loc="lower left", fontsize=8)
    fig.tight_layout()
    return fig


# -- Fig. 2: comparisons needed for a stable ranking -----------------------------------------------------------------


def stability_panels(panels: dict, sizes, rngs, *, n_trials: int, tie_probabilities=None) -> dict:
    """Fig. 2 on several datasets: ``panels`` maps a title to its (instances x models) quality frame, ``rngs`` gives
    one stream per panel, ``tie_probabilities`` (default none) one synthetic tie probability per panel; returns
    title -> (:func:`~analysis.sweeps.stability_curve`, 12·m·ln m)."""
    ties = [0.0] * len(panels) if tie_probabilities is None else list(tie_probabilities)
    out = {}
    for (title, quality), rng, p in zip(panels.items(), rngs, ties, strict=True):
        m = sweeps.matches(quality)
        out[title] = (sweeps.stability_curve(m, sizes, rng, n_trials=n_trials, tie_probability=float(p)),
                      sweeps.sample_size(len(m.models), 10**9))
    return out


def tie_stability(quality: pd.DataFrame, probabilities, sizes, *, rng, n_trials: int) -> dict:
    """Fig. 2 on one dataset with synthetic ties: one :func:`~analysis.sweeps.stability_curve` per tie probability
    (each sampled match a tie with that probability; the reference untied), titled "<p> ties"."""
    streams = check_rng(rng).spawn(len(probabilities))
    return stability_panels({f"{float(p):.0%} added ties": quality for p in probabilities}, sizes, streams,
                            n_trials=n_trials, tie_probabilities=probabilities)


def settling_point(curve: pd.DataFrame, level: float = 0.1) -> float:
    """The fewest comparisons per pair from which the mean number of misplaced models stays at or below ``level``
    (NaN if it never does on the grid)."""
    above = curve["changes_mean"].to_numpy() > level
    if above[-1]:
        return np.nan
    last_above = np.flatnonzero(above)
    return float(curve["comparisons"].iloc[last_above[-1] + 1] if len(last_above) else curve["comparisons"].iloc[0])


def tie_cost_text(curves: dict) -> str:
    """Sec. 7's claim that ties make BT need more comparisons: the mean number of misplaced models of each curve
    where the first (untied) curve settles and at the grid's end."""
    first = next(iter(curves.values()))[0]
    point = settling_point(first)
    point = first["comparisons"].iloc[-1] if not np.isfinite(point) else point
    end = first["comparisons"].iloc[-1]
    parts = []
    for title, (curve, _) in curves.items():
        at = curve.set_index("comparisons")["changes_mean"]
        parts.append(f"{title}: {at[point]:.2f} at {point:.0f} and {at[end]:.2f} at {end:.0f}")
    return ("Mean number of misplaced models, against the ranking from 100,000 untied comparisons per pair — "
            + "; ".join(parts) + ". Ties do not bias the ranking, but a tie carries no evidence about the order, "
            "so with more ties more comparisons are needed for the same stability: the paper's point holds.")


def plot_stability(curves: dict):
    """Fig. 2, one panel per dataset: ``curves`` maps a panel title to (stability curve, 12·m·ln m)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(curves), 1, figsize=(7, 2.8 * len(curves)), sharex=True, squeeze=False)
    for ax, (title, (curve, marker)) in zip(axes[:, 0], curves.items()):
        ax.plot(curve["comparisons"], curve["changes_mean"], label="mean over trials")
        ax.plot(curve["comparisons"], curve["changes_p95"], linestyle=":", label="95th percentile")
        ax.axvline(marker, color="red", linewidth=1, label=f"12·m·ln m = {marker}")
        ax.set_title(title, fontsize=10)
        ax.set_ylabel("models off their\nreference position")
        ax.legend(fontsize=7)
    axes[-1, 0].set_xlabel("comparisons per model pair")
    fig.tight_layout()
    return fig


def stability_text(curves: dict) -> str:
    """One sentence per Fig. 2 panel: where 12·m·ln m falls on the curve and where the curve settles."""
    parts = []
    for title, (curve, marker) in curves.items():
        at = curve.iloc[(curve["comparisons"] - marker).abs().argmin()]
        settled = settling_point(curve)
        parts.append(f"{title}: at 12·m·ln m = {marker} comparisons per pair ({at['comparisons']:.0f} on the grid) "
                     f"{at['changed_share']:.0%} of the trials rank some model elsewhere than the reference, "
                     f"{at['changes_mean']:.2f} models on average; the mean "
                     + (f"stays at 0.1 or below from {settled:.0f} comparisons per pair on." if np.isfinite(settled)
                        else f"is still {curve['changes_mean'].iloc[-1]:.2f} at {curve['comparisons'].iloc[-1]:.0f}."))
    return (" ".join(parts) + " The rule is a compromise between cost and stability, not a guarantee: how many "
            "comparisons suffice depends on how close the models are.")


# -- Sec. 5: three random binary models -----------------------------------------------------------------------------


def random_binary_models(*, rng, n_instances: int = 1000, n_models: int = 3, n_repeats: int = 1000) -> pd.DataFrame:
    """Sec. 5's simulation, repeated: ``n_models`` models output uniform random labels for ``n_instances`` random
    binary gold labels. Per repetition: the models' accuracy, BT from every instance's matches (a model wins when it
    is right and the other wrong; both right or both wrong is a tie) and BT from one sample of 12·m·ln m matches per
    pair, and the Spearman correlations of the two BTs with accuracy."""
    gen = np.random.default_rng(rng)
    rows = []
    for r in range(n_repeats):
        gold = gen.integers(0, 2, n_instances)
        predictions = gen.integers(0, 2, (n_instances, n_models))
        correct = pd.DataFrame((predictions == gold[:, None]).astype(float),
                               columns=[f"model {k + 1}" for k in range(n_models)])
        accuracy = correct.mean().to_numpy()
        m = sweeps.matches(correct)
        full = sweeps.bradley_terry_all(m).to_numpy()
        sampled = sweeps.bradley_terry_trials(m, gen, 1)[0]
        rows.append({"repeat": r, "accuracy_spread": float(accuracy.max() - accuracy.min()),
                     "tie_share": m.tie_share(),
                     "spearman_full": float(spearman_rows(full[None], accuracy)[0]),
                     "spearman_sampled": float(spearman_rows(sampled[None], accuracy)[0])})
    return pd.DataFrame(rows)


# -- Fig. 3: how large a difference can pairwise comparison see? --------------------------------------------------

#: matches per repetition in Fig. 3: 12·m·ln m for two models (16) and for CEval's six (129), and 1,000
FIG3_SIZES = (16, 129, 1000)


def difference_grid(steps: int = 100) -> np.ndarray:
    """Fig. 3's grid: scaling factors from 0.9 to 1.0 in ``steps`` steps."""
    return np.linspace(0.9, 1.0, check_count(steps, "steps", minimum=2))


def detection_curve(factors, sizes=FIG3_SIZES, *, rng, n_repeats: int = 1000) -> pd.DataFrame:
    """Fig. 3, as we read its one-paragraph description: two models, A and B; on each of n instances A's decision
    value for the gold class is uniform on [0, 1] and B's is f times an independent uniform, f on the grid
    (1 - f is "the difference in class probability"). Per repetition, pairwise comparison ranks A first when A wins
    more of the n matches (with two models BT orders them by wins, ties as half), the global score when A's mean
    decision value is higher; an exact tie counts as half correct. One row per (n, f): the share of
    ``n_repeats`` repetitions ranking A first. The same draws serve every f (common random numbers)."""
    gen = check_rng(rng)
    n_repeats = check_count(n_repeats, "n_repeats")
    rows = []
    for n in sizes:
        a = gen.random((n_repeats, check_count(n, "size")))
        b = gen.random((n_repeats, n))
        for f in factors:
            margin = np.sign(a - f * b).sum(axis=1)
            gap = a.mean(axis=1) - f * b.mean(axis=1)
            rows.append({"matches": int(n), "factor": float(f), "difference": round(1 - float(f), 12),
                         "pairwise": float(((margin > 0) + 0.5 * (margin == 0)).mean()),
                         "global": float(((gap > 0) + 0.5 * (gap == 0)).mean())})
    return pd.DataFrame(rows)


def plot_detection(curve: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for colour, (n, part) in zip(colours, curve.groupby("matches")):
        ax.plot(part["difference"], part["pairwise"], color=colour, label=f"pairwise (BT), {n} matches")
        ax.plot(part["difference"], part["global"], color=colour, linestyle="--", label=f"global (mean), {n}")
    ax.set_xlabel("1 - f: B's decision values are f times A's in distribution (mean gap (1 - f)/2)")
    ax.set_ylabel("probability of the correct order")
    ax.set_ylim(0.45, 1.02)
    ax.legend(fontsize=7, ncol=2, loc="lower right")
    fig.tight_layout()
    return fig


def detection_text(curve: pd.DataFrame) -> str:
    at = curve[np.isclose(curve["difference"], curve["difference"].max())].set_index("matches")
    parts = [f"{n} matches: {row['pairwise']:.2f} pairwise vs {row['global']:.2f} global" for n, row in at.iterrows()]
    return (f"At the largest difference on the grid ({at['difference'].iloc[0]:.2f}) the probability of the correct "
            "order is " + "; ".join(parts) + ". Whether 10% is enough depends on how many matches there are, "
            "and on the same draws the mean of the decision values finds the better model at least as often as the count "
            "of wins: a match keeps only the sign of each difference, the mean keeps its size.")


# -- Fig. 4: the paper's decision flowchart ---------------------------------------------------------------------------

#: Fig. 4 rebuilt from its caption and Secs. 5-8 (the figure itself is an image the text copy does not hold):
#: (question, answer leading to the next question, outcome of the other answer)
FLOWCHART = (
    ("Is the quality measure hard to define\n(\"uneasy\", e.g. text generation)?", "no",
     "pairwise comparisons\n(BT on 12·m·ln m matches per pair)"),
    ("Do some models give more confident\ndecision values (0/1, another scale)?", "no",
     "global scores\n(accuracy, ROC AUC, F1)"),
    ("Are the models close, with many ties\n(scores relatively consistent)?", "no",
     "global scores\n(they need less data)"),
)
FLOWCHART_END = "pairwise comparisons\n(scores vary widely, no model over-confident)"


def plot_flowchart():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.4))
    ax.set_axis_off()
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    question = {"boxstyle": "round,pad=0.5", "facecolor": "#dbe9f6", "edgecolor": "#31688e"}
    outcome = {"boxstyle": "round,pad=0.5", "facecolor": "#f3f3f3", "edgecolor": "#555555"}
    arrow = {"arrowstyle": "-|>", "color": "#333333", "shrinkA": 0, "shrinkB": 0}
    ys = np.linspace(8.4, 3.4, len(FLOWCHART))
    ax.text(2.6, 9.8, "Comparing models on one test set", ha="center", va="center", fontsize=10, weight="bold")
    ax.annotate("", xy=(2.6, ys[0] + 0.75), xytext=(2.6, 9.45), arrowprops=arrow)
    for y, (text, down, side) in zip(ys, FLOWCHART):
        ax.text(2.6, y, text, ha="center", va="center", fontsize=9, bbox=question)
        ax.text(7.7, y, side, ha="center", va="center", fontsize=8.5, bbox=outcome)
        ax.annotate("", xy=(5.9, y), xytext=(5.0, y), arrowprops=arrow)
        ax.text(5.45, y + 0.25, "yes", ha="center", fontsize=8)
        ax.annotate("", xy=(2.6, y - 1.75), xytext=(2.6, y - 0.75), arrowprops=arrow)
        ax.text(2.75, y - 1.25, down, va="center", fontsize=8)
    ax.text(2.6, ys[-1] - 2.5, FLOWCHART_END, ha="center", va="center", fontsize=8.5, bbox=outcome)
    fig.tight_layout()
    return fig


# -- sentences and small tables for the notebook --------------------------------------------------------------------


def published_c1() -> pd.DataFrame:
    return published.frame("gvp", "appendix_c1")


def published_matrix(name: str) -> pd.DataFrame:
    """A correlation table as the paper prints it (``table2``, ``table3``, ``table7``)."""
    item = published.item("gvp", name)
    return pd.DataFrame(item["matrix"], index=item["columns"], columns=item["columns"])


def penalty_rise(scores: pd.DataFrame) -> float:
    """Mean rise of ED from each model to its penalised copy (Appendix C.2's rows)."""
    ed = scores.set_index("model")["ed"]
    originals = [m for m in ed.index if not m.startswith("Penalized ")]
    return float(np.mean([ed[f"Penalized {m}"] - ed[m] for m in originals]))


def table6_text(table6: pd.DataFrame, scores_c2: pd.DataFrame) -> str:
    paper = published.item("gvp", "table6")
    rise_paper = penalty_rise(published.frame("gvp", "appendix_c2"))
    return (f"With ED and WER oriented as distances (lower is better) their AP is {table6.loc['ed', 'ap']:.2f} and "
            f"{table6.loc['wer', 'ap']:.2f}; chrF {table6.loc['chrf', 'ap']:.2f} and BT {table6.loc['bt', 'ap']:.2f} "
            f"(paper: ED {paper['ap']['ed']}, WER {paper['ap']['wer']}, chrF {paper['ap']['chrf']}, BT "
            f"{paper['bt'][0]}–{paper['bt'][1]}). The paper's ED and WER values are near the smallest AP possible "
            "with six relevant of twelve (0.35), which is what ranking the penalised copies (larger distances) on "
            "top gives: consistent with ED and WER read as higher-is-better, likely an orientation slip. Read that "
            f"way they come out here at {table6.loc['ed', 'ap_higher_is_better']:.2f} and "
            f"{table6.loc['wer', 'ap_higher_is_better']:.2f}. Our appended strings (1,000 random letters and "
            f"spaces; the paper gives neither length nor alphabet) raise a model's mean ED by {penalty_rise(scores_c2):.0f} "
            f"characters on average, the paper's by {rise_paper:.0f}, so the absolute C.2 values differ. "
            "chrF and BT put every original above its own penalised copy but interleave the models, as in the paper; "
            "correctly oriented, the distances do at least as well.")


def tie_sweep_text(sweep: pd.DataFrame) -> str:
    defined = sweep.dropna(subset=["spearman_mean"])
    above = defined[defined["spearman_mean"] >= 0.8]["tie_probability"]
    at_half = defined.loc[(defined["tie_probability"] - 0.5).abs().idxmin()]
    start = defined.iloc[0]
    return (f"Without added ties the mean correlation is already {start['spearman_mean']:.2f}, not 1: BT and mean chrF "
            "disagree on the order of some close models (per-review wins and average quality are different things). "
            f"It stays at or above 0.8 up to a tie probability of {above.max():.2f} (paper: 0.8 up "
            f"to 50% ties); at p = 0.5 it is {at_half['spearman_mean']:.2f}, with 95% of the trials between "
            f"{at_half['spearman_low']:.2f} and {at_half['spearman_high']:.2f}. Ties dilute the evidence rather than "
            "bias it: each drawn match is a tie at random, so the remaining decided matches still favour the better "
            "model, only fewer of them. At p = 1 every match is a tie and BT has no ranking to give.")


def random_binary_summary(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "BT on every instance": table["spearman_full"].describe()[["mean", "min", "max"]],
        "BT on 12·m·ln m sampled matches": table["spearman_sampled"].describe()[["mean", "min", "max"]],
    }).T.assign(**{"share at -0.5": [float((table[c].round(2) == -0.5).mean()) for c in
                                      ("spearman_full", "spearman_sampled")]})


def random_binary_text(table: pd.DataFrame) -> str:
    spread = table["accuracy_spread"]
    return (f"The three accuracies are 0.5 only to one decimal: they differ by {spread.mean():.3f} on average "
            f"(up to {spread.max():.3f}). BT fitted on every instance orders the models exactly as accuracy does in "
            f"all {len(table)} repetitions (Spearman 1), because a model's wins minus losses against another equal "
            "its correct answers minus the other's. BT on one sample of 12·3·ln 3 = 39 matches per pair correlates "
            f"{table['spearman_sampled'].mean():.2f} with accuracy on average and exactly −0.5 in "
            f"{(table['spearman_sampled'].round(2) == -0.5).mean():.0%} of the repetitions: the paper's −0.5 is one "
            "draw of sampling noise between models whose true quality is identical, not a bias of pairwise "
            "comparison. (With about half of the matches tied and only 39 per pair, the sample cannot separate "
            "accuracy differences of a few percentage points.)")


def recommendations_text(table2: pd.DataFrame, table4: pd.DataFrame, table5: pd.DataFrame, ceval_sweep: pd.DataFrame,
                         llmfao_sweep: pd.DataFrame, split_half: pd.DataFrame, detection: pd.DataFrame) -> str:
    """The closing paragraph: the paper's recommendations against what this chapter measured."""
    def threshold(sweep, column):
        above = sweep.dropna(subset=["spearman_mean"])
        above = above[above["spearman_mean"] >= 0.8]
        return f"{above[column].max():.0%}" if len(above) else "no"

    ap = table4.set_index(["experiment", "measure"])["ap"]
    ap5 = table5.set_index(["experiment", "measure"])["ap"]
    half = split_half.iloc[-1]
    big = detection[np.isclose(detection["difference"], detection["difference"].max())]
    small = big[big["matches"] == big["matches"].min()].iloc[0]
    return (
        "*Compare pairwise only models whose decision values share a domain* holds on the binary stand-in: sharper "
        f"decision values win matches, so BT correlates only {table2.loc['acc', 'bt']:.2f} with accuracy there and "
        f"prefers binarised copies to their originals (AP {ap[('binary', 'bt')]:.2f}). Which way it errs depends on "
        "accuracy: a confident copy wins where the model is right, so with accuracies below one half (SST-5) BT "
        f"prefers the originals instead (AP {ap5[('binary', 'bt')]:.2f}). *BT's ranking survives many ties* holds, "
        "more strongly than the paper's 50%, for the test the paper ran (agreement at a fixed number of matches): "
        f"the correlation stays at or above 0.8 up to {threshold(ceval_sweep, 'tie_probability')} synthetic ties "
        f"on CEval and up to {threshold(llmfao_sweep, 'tie_share')} ties in all on llmfao's real judgments; its "
        "other claim, that many ties make BT need many more comparisons, holds too (Fig. 2 with ties). *12·m·ln m "
        "comparisons per pair give a stable ranking* cannot even be tried on llmfao: it asks thousands of judgments "
        "per pair where the data has a median of five. There the ranking from all the data is itself uncertain — "
        f"two disjoint halves of the judgments correlate {half['spearman_mean']:.2f}, a model moving "
        f"{half['rank_displacement']:.1f} places between them — so ranks need intervals. *Pairwise comparison "
        "needs non-negligible differences* holds in our reading of Fig. 3, where the global mean, on the same "
        f"draws, does at least as well (at a difference of {small['difference']:.2f} with "
        f"{int(small['matches'])} matches: {small['global']:.2f} vs {small['pairwise']:.2f}); that is a property "
        "of well-behaved decision values: with rare but large errors (CEval's penalised outputs) the count of wins "
        "is the steadier one, which is the paper's case for pairwise comparison."
    )
