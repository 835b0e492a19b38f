"""Chapter 09 (analysis.chapters.your_own_scores): the chapter's tables equal the `compare` command's."""

import json
from pathlib import Path

import pandas as pd

from analysis import compare
from analysis.__main__ import main
from analysis.chapters import your_own_scores
from analysis.profiles import parameters_for

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / your_own_scores.EXAMPLE


def test_cli_on_the_example_equals_the_chapter_and_round_trips_json(tmp_path, capsys):
    """The CLI's tables equal the notebook's (same seed and resamples as the quick profile)."""
    params = parameters_for("quick", your_own_scores.CHAPTER)
    out_json = tmp_path / "report.json"
    args = ["compare", str(EXAMPLE), "--json", str(out_json), "--out", str(tmp_path / "figs"),
            "--n-resamples", str(params["n_resamples"]), "--n-resamples-sequential", str(params["n_resamples_sequential"])]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "Systems (score [95% interval])" in printed and "Stability" in printed
    loaded = compare.from_dict(json.loads(out_json.read_text()))
    direct = compare.compare(your_own_scores.load(your_own_scores.EXAMPLE), rng=2021, **params)
    for name in ("systems", "prob", "sign_p", "wilcoxon_p", "disagreement", "stability"):
        pd.testing.assert_frame_equal(getattr(loaded, name), getattr(direct, name), check_dtype=False, obj=name)
    assert {p.name for p in (tmp_path / "figs").iterdir()} >= {"systems.csv", "mechanisms.png", "pairwise.svg"}
