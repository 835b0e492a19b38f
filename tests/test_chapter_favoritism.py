"""Chapter 04 (analysis.chapters.favoritism): the chapter's helpers on hand-made inputs."""

import numpy as np
import pandas as pd

from analysis import favi
from analysis.chapters import favoritism


def test_head_to_head_ratings_are_oriented_lexicographically():
    h2h = pd.DataFrame({
        "aspect": ["coherence"] * 4, "system_1": ["M9", "M9", "M10", "M10"], "system_2": ["M10", "M10", "M9", "M9"],
        "document": ["d1", "d1", "d2", "d2"], "order": ["original", "toggled"] * 2,
        "response": ["A", "A", "C", "B"], "preferred": ["M9", "M10", "tie", "M9"],
        "expert_1": [4.0, 4.0, 2.0, 2.0], "expert_2": [3.0, 3.0, 2.5, 2.5]})
    out = favoritism.h2h_ratings(h2h).set_index("document")
    # system_a = "M10" < "M9"; on d1 the experts prefer M9 (4 > 3) -> -1; on d2 M9 has 2.5 > 2 -> -1
    assert out.loc["d1", ["original", "toggled", "expert"]].tolist() == [-1, 1, -1]
    assert out.loc["d2", ["original", "toggled", "expert"]].tolist() == [0, -1, -1]
    assert (out["system_a"] == "M10").all()


def test_attenuation_reading_recognises_a_pure_noise_metric():
    rng = np.random.default_rng(0)
    quality = np.linspace(0, 2, 6)
    human = pd.DataFrame(quality + rng.normal(0, 1, (300, 6)), columns=list("abcdef")).round(0)
    noise = pd.DataFrame(rng.normal(0, 1, (300, 6)), columns=list("abcdef"))  # knows nothing about quality
    pairs = favi.favi_table(human, noise).assign(dataset="summeval", p_value=0.0)
    table = favoritism.attenuation_table(pairs)
    assert table["favours_weaker"].item() == 1.0 and table["rho_favi_attenuation"].item() > 0.9
