"""Shared test helpers (imported as ``from tests.helpers import ...``; fixtures stay in conftest.py)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import data

ROOT = Path(__file__).resolve().parent.parent
MIRROR = data.default_mirror()
needs_mirror = pytest.mark.skipif(MIRROR is None,
                                  reason="no local data mirror (../shared/data or $COMPENDIUM_DATA_MIRROR)")

#: a small score matrix with no ties, shared by the bad-input tests
SCORES = pd.DataFrame({"a": [1.0, 2.0, 3.0, 0.5], "b": [2.0, 1.0, 0.0, 0.7], "c": [1.5, 0.0, 2.0, 0.6]})


def random_scores(rng: np.random.Generator, n_instances: int, n_systems: int,
                  levels: int | None = None) -> pd.DataFrame:
    """Score matrix with per-system offsets; integer ``levels`` makes ties frequent."""
    values = rng.normal(0, 1, (n_instances, n_systems)) + rng.normal(0, 0.5, n_systems)
    if levels:
        values = np.round(values * levels / 4)
    return pd.DataFrame(values, columns=[f"sys{i}" for i in range(n_systems)])


def page_check(fig) -> tuple[list[str], int]:
    """(the problems :meth:`analysis.recorder.Outputs.figure` would refuse ``fig`` for, the width in px of the PNG
    the book would show); closes the figure."""
    import matplotlib.pyplot as plt

    from analysis.plotting import png_width, render_for_page

    png, problems = render_for_page(fig)
    plt.close(fig)
    return problems, png_width(png)


def legible(fig) -> int:
    """The width in px of the PNG the book would show for ``fig``, after checking it could be read there."""
    problems, width = page_check(fig)
    assert not problems, problems
    return width
