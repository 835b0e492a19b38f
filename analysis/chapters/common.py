"""What every chapter shares: its :class:`~analysis.plotting.Outputs` built from the notebook's own parameters,
a stopwatch for the run-time table, and readable labels for mechanisms and pairs of them."""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import contextmanager

import pandas as pd

from ..plotting import MECHANISM_LABELS, Outputs
from ..reproduce import chapter_parameters


def outputs(chapter: str, namespace: Mapping, data: dict | None = None) -> Outputs:
    """The chapter's :class:`Outputs`, recording exactly the parameters its notebook declares, with the values they
    have in ``namespace`` (the notebook's ``globals()``); ``output_root`` says where the artefacts go."""
    names = chapter_parameters(chapter)
    missing = [n for n in names if n not in namespace]
    if missing:
        raise ValueError(f"{chapter}: parameters {missing} are declared but not defined in the namespace")
    parameters = {n: namespace[n] for n in names if n != "output_root"}
    return Outputs(chapter, parameters, root=namespace.get("output_root"), data=data)


class Timings(dict):
    """Wall times by label: ``with timings.measure("Fig. 4"): ...``; ``table()`` for the run-time section."""

    @contextmanager
    def measure(self, label: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self[label] = time.perf_counter() - start

    def table(self) -> pd.DataFrame:
        return pd.Series(dict(self), name="seconds", dtype=float).to_frame()


def mechanism_label(name: str) -> str:
    return MECHANISM_LABELS.get(name, name)


def pair_label(pair: tuple[str, str]) -> str:
    """``("mean", "bt")`` -> ``"MEAN vs. BT"``."""
    a, b = pair
    return f"{mechanism_label(a)} vs. {mechanism_label(b)}"
