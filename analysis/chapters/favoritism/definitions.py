"""Figs. 2-3's worked examples, Lemmas 1-2, and Defs. 4-11 (with App. A and the Limitations) checked as properties
of the implementation's outputs on every real pair."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ... import favi
from ...data import published
from .experiments import KEYS


def worked_examples() -> pd.DataFrame:
    """Figs. 2 and 3's confusion matrices through :func:`analysis.favi.summarize` beside the printed values, with
    §5's counts of errors by the system they favour and Fig. 3's metric outcome d̂."""
    fig2, fig3 = published.item("favi", "fig2"), published.item("favi", "fig3")
    c = np.array([*fig2["matrices"], fig3["matrix"]], dtype=np.int64)
    r = favi.summarize(c)
    return pd.DataFrame({
        "total_error": r.total_error, "margin_human": r.margin_human, "margin_metric": r.margin_metric, "favi": r.favi,
        "paper_favi": [*fig2["favi"], fig3["favi"]], "sample_accuracy": r.sample_accuracy,
        "paper_sample_accuracy": [np.nan] * len(fig2["names"]) + [fig3["sample_accuracy"]],
        # §5 on Fig. 3: errors in favour of the first system (below the diagonal) and of the second (above it), the
        # severe ones (- read as +, + read as -), and the metric outcome d̂
        "errors_for_first": np.tril(c, -1).sum(axis=(1, 2)), "errors_for_second": np.triu(c, 1).sum(axis=(1, 2)),
        "severe_for_first": c[:, 2, 0], "severe_for_second": c[:, 0, 2], "metric_plus": r.outcome_metric[:, 0],
        "metric_tie": r.outcome_metric[:, 1], "metric_minus": r.outcome_metric[:, 2],
    }, index=pd.Index([*fig2["names"], "C5"], name="matrix"))


def examples_page(examples: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    scores = examples[["total_error", "margin_human", "margin_metric", "favi", "paper_favi", "sample_accuracy",
                       "paper_sample_accuracy"]].set_axis(
        ["errors E", "mar(d)", "mar(d̂)", "Φ", "paper's Φ", "sample-level accuracy", "paper's accuracy"], axis=1)
    counts = examples[["errors_for_first", "errors_for_second", "severe_for_first", "severe_for_second",
                       "metric_plus", "metric_tie", "metric_minus"]].set_axis(
        ["errors for π₁", "errors for π₂", "severe for π₁", "severe for π₂", "d̂ +", "d̂ =", "d̂ −"], axis=1)
    return scores.rename_axis("matrix"), counts.rename_axis("matrix")


def lemma_checks(pairs: pd.DataFrame) -> pd.DataFrame:
    """Lemma 1 (Φ = (mar(d̂) - mar(d)) / E) and Lemma 2 (Φ = 0 implies equal margin signs) on every real pair, and
    the counter-examples to Lemma 2's converse (App. B)."""
    defined = pairs[pairs["total_error"] > 0]
    via_margins = (defined["margin_metric"] - defined["margin_human"]) / defined["total_error"]
    zero = defined[defined["favi"] == 0]
    disagree = pairs[~pairs["system_sign_agrees"]]
    return pd.Series({
        "pairs evaluated": len(pairs),
        "pairs without any error (Φ undefined, so left empty)": int((pairs["total_error"] == 0).sum()),
        "Lemma 1: max |Φ - (mar(d̂) - mar(d)) / E|": float((defined["favi"] - via_margins).abs().max()),
        "Lemma 2: pairs with Φ = 0": len(zero),
        "Lemma 2: ... of which the margin signs differ": int((~zero["system_sign_agrees"]).sum()),
        "pairs whose margin signs differ": len(disagree),
        "... of which Φ = 0": int((disagree["favi"] == 0).sum()),
        "Lemma 2's converse: pairs with Φ ≠ 0 whose margin signs agree":
            int(((defined["favi"] != 0) & defined["system_sign_agrees"]).sum()),
    }, name="value").rename_axis("check").to_frame()


def lemmas_page(lemmas: pd.DataFrame) -> pd.DataFrame:
    out = lemmas.reset_index().set_axis(["check", "value"], axis=1)
    out["value"] = [f"{v:.1e}" if isinstance(v, float) and not float(v).is_integer() else f"{int(v):,}"
                    for v in out["value"]]
    return out


def definition_checks(pairs: pd.DataFrame) -> dict[str, tuple[float, bool]]:
    """Defs. 4-11, App. A's cost enumeration and the Limitations' single error as properties of the outputs on every
    pair, each as (the number it compares, the claims' "Ours"; holds)."""
    c = pairs[list(favi.CELLS)].to_numpy(dtype=np.int64).reshape(-1, 3, 3)
    items, total, phi = pairs["n_items"].to_numpy(), pairs["total_error"].to_numpy(), pairs["favi"].to_numpy(float)
    diagonal = np.trace(c, axis1=1, axis2=2)
    # Def. 7: a margin is the + outcomes minus the - outcomes (the humans' in the rows, the metric's in the columns)
    human, metric = c[:, 0].sum(axis=1) - c[:, 2].sum(axis=1), c[:, :, 0].sum(axis=1) - c[:, :, 2].sum(axis=1)
    wrong = {"def4.cells_count_every_item": c.sum(axis=(1, 2)) != items,
             "def6.total_error_off_diagonal": c.sum(axis=(1, 2)) - diagonal != total,
             "def7.margins_from_outcomes": (human != pairs["margin_human"].to_numpy())
             | (metric != pairs["margin_metric"].to_numpy())}
    outcome = np.array([1, 0, -1])  # +, =, - in matrix order
    costs = int((favi.COST == outcome - outcome[:, None]).sum())  # App. A: the cost is an item's mar(d̂) - mar(d)
    one_error = [favi.favi_score(np.eye(1, 9, k, dtype=np.int64).reshape(3, 3)) for k in range(9) if k % 4]
    largest = np.abs(phi[total > 0])
    accuracy = pairs["sample_accuracy"].to_numpy(float)
    counted, eq7 = system_accuracy_pairs(pairs)
    return {key: (float(bad.sum()), not bad.any()) for key, bad in wrong.items()} | {
        "appA.cost_is_item_margin_change": (float(costs), costs == 9),
        "def9.range_minus2_to_2": (float(largest.max()) if len(largest) else np.nan, bool((largest <= 2).all())),
        "def9.undefined_without_errors": (np.nan, bool((np.isnan(phi) == (total == 0)).all())),
        "def11.sample_accuracy_identity": (float(np.abs(accuracy - diagonal / items).max()),
                                           bool(np.allclose(accuracy, diagonal / items)
                                                and np.allclose(diagonal, items - total))),
        "limitations.one_error_phi_is_1_or_2": (float(sum(abs(f) in (1, 2) for f in one_error)),
                                                sorted(one_error) == [-2, -1, -1, 1, 1, 2]),
        "def10.system_accuracy_over_all_pairs": (counted, bool(counted == 1 and eq7)),
    }


def system_accuracy_pairs(pairs: pd.DataFrame) -> tuple[float, bool]:
    """Def. 10 (eq. 7) per setting: the smallest share of its C(|Π|, 2) system pairs that the system-level
    accuracy counts, and whether it equals eq. 7 recomputed from the margins."""
    keys = [k for k in KEYS if k in pairs.columns]
    groups = [part for _, part in pairs.groupby(keys, sort=False)] if keys else [pairs]
    systems = [len(set(part["system_a"]) | set(part["system_b"])) for part in groups]
    eq7 = [np.mean(np.sign(part["margin_human"].to_numpy()) == np.sign(part["margin_metric"].to_numpy()))
           for part in groups]
    return (float(min(len(part) / (k * (k - 1) / 2) for part, k in zip(groups, systems))),
            all(np.isclose(favi.sign_accuracies(part).system, e, rtol=0, atol=1e-12) for part, e in zip(groups, eq7)))


def paper_example_checks() -> dict[str, tuple[float, bool]]:
    """Def. 8's W against the printed matrix; §1's motivating example (a metric wrong on 10% of the items, every
    error in favour of π_a, while the humans find π_a slightly worse) through :func:`analysis.favi.summarize`; and §6's
    contrast (at a fixed number of errors E, the sample-level accuracy is 0 at |T| = E and grows towards 1 with |T|,
    while Φ does not move), on Fig. 3's errors with ever more correct items. Each as (its number, holds)."""
    printed = np.array(published.item("favi", "def8")["cost"], dtype=np.int64).reshape(3, 3)
    # §1: 100 items, the humans 44 +, 10 =, 46 - (π_a slightly worse); 10 of their - read as = by the metric
    example = favi.summarize(np.array([[[44, 0, 0], [0, 10, 0], [0, 10, 36]]], dtype=np.int64))
    errors = np.array(published.item("favi", "fig3")["matrix"], dtype=np.int64) * (1 - np.eye(3, dtype=np.int64))
    grown = favi.summarize(np.stack([errors + k * np.eye(3, dtype=np.int64) for k in (0, 10, 100, 100_000)]))
    accuracy, phi = np.asarray(grown.sample_accuracy, float), np.asarray(grown.favi, float)
    return {
        "def8.cost_matrix_as_printed": (float((favi.COST == printed).sum()), bool((favi.COST == printed).all())),
        "sec1.ten_percent_errors_reverse_the_pair": (
            float(example.favi[0]), bool(np.isclose(example.sample_accuracy[0], 0.9)
                                         and example.margin_human[0] < 0 < example.margin_metric[0])),
        "sec6.accuracy_depends_on_items_favi_does_not": (
            float(np.abs(phi - phi[0]).max()), bool(accuracy[0] == 0 and (np.diff(accuracy) > 0).all()
                                                    and accuracy[-1] > 0.99 and np.allclose(phi, phi[0]))),
    }
