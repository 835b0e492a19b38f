"""The pages are written as text (issue 37): each chapter's prose is its notebook's markdown with glued numbers, no
chapter module builds sentences or captions, and no threshold a claim record holds is repeated in chapter code
(where it would decide a sentence the claim's verdict should decide)."""

import ast
import re

import pytest

from analysis import claim_records
from tests.helpers import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
CHAPTER_CODE = sorted((ROOT / "analysis" / "chapters").rglob("*.py"))

#: comparisons in chapter code with a literal that is also a claim's threshold, each kept on purpose: (file relative
#: to the repository, the comparison as ``ast.unparse`` prints it) -> why it is not the claim's rule
ALLOWED = {
    ("analysis/chapters/global_vs_pairwise/classification.py", "scores.mean(axis=1) > 0.5"):
        "a binary classifier's decision threshold on its probability (the paper's protocol)",
    ("analysis/chapters/global_vs_pairwise/classification.py", "scores > 0.5"):
        "a binary classifier's decision threshold on its probability (the paper's protocol)",
    ("analysis/chapters/global_vs_pairwise/llmfao.py", "0 < float(share) <= 0.5"):
        "the tie shares a parameter may take (a share of ties is at most one half here by construction)",
    ("analysis/chapters/why_pairing.py", "rng.random(n) < 0.05"):
        "the share of outlier instances the Prop. 1 setups draw (a generator setting)",
    ("analysis/chapters/why_pairing.py", "p_b > 0.5"):
        "P(B > A) above one half is what 'BT prefers B' means",
    ("analysis/chapters/why_pairing.py", "pairings['BT strength of S'] < 0.5"):
        "a BT strength of S below one half is what 'BT prefers B' means (two systems, strengths sum to 1)",
    ("analysis/chapters/wmt_stability/replication.py", "w['p_value'] < 0.05"):
        "WMT's significance level for its clusters (the official method being replicated)",
    ("analysis/chapters/synthesis/wmt_pairs.py", "p < 0.05"):
        "the one-sided Fisher test's level that the saved flag records (the claim reads the flag, not p)",
    ("analysis/chapters/wmt_stability/replication.py", "rows['max_abs_z_diff'] <= 1e-09"):
        "the replication table's 'exact' column and its exceptions view (floating-point equality of z), which the "
        "claim reads",
    ("analysis/chapters/global_vs_pairwise/views.py", "r.tie_high - r.tie_low > 1e-09"):
        "whether a tie range is a range or a point (floating-point equality), for the table's display",
    ("analysis/chapters/wmt_stability/experiments.py", "share[c] > 0.5"):
        "a pair that changes in most bootstrap resamples (a majority, the bootstrap table's column definition)",
    ("analysis/chapters/why_pairing.py", "r['P(B > A)'] > 0.5"):
        "P(B > A) above one half is what 'BT prefers B' means (Fig. 2's caption criteria, read per pairing)",
    ("analysis/chapters/global_vs_pairwise/classification.py", "first > 0.5"):
        "the majority rule inside one stated test (the SVM first in most item resamples AND above a model with a "
        "higher F1), which the record reads as one outcome",
    ("analysis/chapters/why_pairing.py", "t['P(B > A)'] > 0.5"):
        "P(B > A) above one half is what 'BT prefers B' means (Fig. 2's table)",
}


def _thresholds() -> dict[float, list[str]]:
    """Every numeric ``than`` of the registry other than 0 and 1 (signs and certainties, not thresholds)."""
    found: dict[float, list[str]] = {}
    for claim in claim_records.load():
        for value in claim.than if isinstance(claim.than, list) else [claim.than]:
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value not in (0, 1):
                found.setdefault(float(value), []).append(claim.key)
    return found


def _literal(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand)
        return None if inner is None else -inner
    return None


def threshold_comparisons(path, thresholds) -> list[tuple[str, str, list[str]]]:
    """(file, comparison, claims) for each comparison in ``path`` against a literal that is a claim's threshold."""
    found = []
    name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                value = _literal(side)
                if value is not None and value in thresholds:
                    found.append((name, ast.unparse(node), thresholds[value]))
                    break
    return found


def test_no_claim_threshold_is_repeated_in_chapter_code():
    thresholds = _thresholds()
    found = [f for path in CHAPTER_CODE + NOTEBOOKS for f in threshold_comparisons(path, thresholds)]
    unexplained = [f"{file}: `{expr}` (the threshold of {claims[:3]})" for file, expr, claims in found
                   if (file, expr) not in ALLOWED]
    assert not unexplained, ("chapter code compares with a claim's threshold; let the page glue the claim's verdict "
                             "instead (or, if the comparison means something else, say what in ALLOWED):\n"
                             + "\n".join(unexplained))
    stale = sorted(set(ALLOWED) - {(file, expr) for file, expr, _ in found})
    assert not stale, f"ALLOWED lists comparisons that are gone: {stale}"


def test_the_scan_finds_a_repeated_threshold(tmp_path):
    module = tmp_path / "probe.py"
    module.write_text("def fig4_text(min_share):\n    return 'below' if min_share < 0.9 else 'above'\n"
                      "ok = 0.9 + 1\nneg = x > -0.1\n")
    thresholds = {0.9: ["wmt.fig4-sr-minus"], -0.1: ["gvp.x"]}
    assert sorted(threshold_comparisons(module, thresholds)) == [("probe.py", "min_share < 0.9", ["wmt.fig4-sr-minus"]),
                                                         ("probe.py", "x > -0.1", ["gvp.x"])]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_chapter_pastes_its_numbers_into_its_markdown(notebook):
    markdown = "\n".join(line for line in notebook.read_text().splitlines() if line.startswith("#"))
    assert "{glue:" in markdown, f"{notebook.name}: no glued value in the text"


def test_no_chapter_module_builds_sentences_or_captions():
    """Page sentences and captions are the notebooks' markdown and the literal captions beside each figure; a chapter
    function named for a text or a caption would be a paragraph built in Python again."""
    builders = []
    for path in CHAPTER_CODE:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and re.search(r"(_text|_caption|_sentence|_story)$", node.name):
                builders.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert not builders, builders
