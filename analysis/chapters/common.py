"""What every chapter shares: its parameters checked where they enter, its :class:`~analysis.recorder.Outputs`
built from the notebook's own parameters, a stopwatch for the run-time table, its claims' verdicts for the page."""

from __future__ import annotations

import time
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import pandas as pd

from ..notebooks import chapter_parameters
from ..recorder import Outputs, glue_values
from ..validation import check_count, check_number

#: :attr:`Param.quick` when the quick profile keeps the notebook's default
KEEP = object()


@dataclass(frozen=True)
class Param:
    """What a notebook parameter accepts, and its value under the ``quick`` profile. ``kind``: "int" (an integer
    >= ``low``), "number" (a finite real in [``low``, ``high``], ends open as flagged), "str", "bool" or "dict";
    ``choices`` limits the values; ``many``: a non-empty list of such values (of ``length`` items if given);
    ``optional``: None is allowed too. ``quick``: the value the quick profile (tests, CI) injects, or
    :data:`KEEP` for the default. The default itself (the paper's setting, the ``full`` profile) is the value in
    the notebook's ``parameters`` cell, where papermill and the reader find it: a chapter's parameters are
    declared there and in its ``PARAMETERS``, nowhere else."""

    kind: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple = ()
    many: bool = False
    length: int | None = None
    optional: bool = False
    quick: object = KEEP

    def check(self, name: str, value) -> None:
        if value is None and self.optional:
            return
        if self.many:
            if not isinstance(value, (list, tuple)) or not value or (self.length and len(value) != self.length):
                size = f"{self.length} values" if self.length else "a non-empty list"
                raise ValueError(f"parameter {name} must be {size}, got {value!r}")
            for k, item in enumerate(value):
                self._check_one(f"{name}[{k}]", item)
        else:
            self._check_one(name, value)

    def _check_one(self, name: str, value) -> None:
        label = f"parameter {name}"
        if self.kind == "int":
            check_count(value, label, minimum=int(self.low if self.low is not None else 0))
        elif self.kind == "number":
            check_number(value, label, low=self.low, high=self.high, low_open=self.low_open,
                         high_open=self.high_open)
        elif not isinstance(value, {"str": str, "bool": bool, "dict": dict}[self.kind]):
            raise ValueError(f"{label} must be a {self.kind}, got {value!r}")
        if self.choices and value not in self.choices:
            raise ValueError(f"{label} must be one of {list(self.choices)}, got {value!r}")


SEED = Param("int", low=0)  # numpy.random.default_rng takes a non-negative integer


def check_parameters(spec: Mapping[str, Param], namespace: Mapping) -> None:
    """Check every parameter of ``spec`` in ``namespace`` (a notebook's ``globals()``); the error names it."""
    for name, rule in spec.items():
        rule.check(name, namespace[name])


#: names IPython itself binds in a notebook's namespace
_IPYTHON_NAMES = frozenset({"In", "Out", "exit", "quit", "get_ipython"})
_PLAIN = (int, float, str, bool, list, tuple, dict, type(None))


def unknown_parameters(names, namespace: Mapping) -> list[str]:
    """Plain values (numbers, text, lists, ...) in a notebook's namespace, before its first computation, that are
    not among its declared parameters: a parameter papermill injected under a mistyped name
    (``-p n_resample 50``), which would otherwise leave the real one at its default without a word. Constants
    (ALL_CAPS), private names and IPython's own are not parameters."""
    return sorted(k for k, v in namespace.items()
                  if isinstance(v, _PLAIN) and k not in names and not k.startswith("_") and k not in _IPYTHON_NAMES
                  and not k.isupper())


def outputs(chapter: str | ModuleType, namespace: Mapping, data: dict | None = None) -> Outputs:
    """Check the chapter's parameters and return its :class:`Outputs`, recording exactly the parameters its
    notebook declares, with the values they have in ``namespace`` (the notebook's ``globals()``). ``chapter`` is
    the chapter module (its ``CHAPTER`` name and ``PARAMETERS`` rules) or just the notebook's name.
    ``output_root`` says where the artefacts go (see :func:`analysis.paths.output_root`). NumPy's scalars print as
    plain numbers from then on (a value glued into the page's text is formatted from its printed form)."""
    spec = getattr(chapter, "PARAMETERS", {})
    chapter = getattr(chapter, "CHAPTER", chapter)
    names = chapter_parameters(chapter)
    missing = [n for n in names if n not in namespace]
    if missing:
        raise ValueError(f"{chapter}: parameters {missing} are declared but not defined in the namespace")
    unknown = unknown_parameters(names, namespace)
    if unknown:
        import difflib

        near = difflib.get_close_matches(unknown[0], names, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise ValueError(f"{chapter}: unknown parameter {unknown[0]!r}{hint}; this notebook's parameters are "
                         f"{list(names)}")
    check_parameters(spec, namespace)
    # numbers glued into the page's text (MyST-NB formats their text/plain) then read 0.3, not np.float64(0.3)
    np.set_printoptions(legacy="1.25")
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


def metric_label(metric: str) -> str:
    """The paper's spelling of a paired-setup metric: ``BLEU_1`` -> ``BLEU-1``, ``ROUGE_WE_2`` -> ``ROUGE-WE-2``,
    ``Chrfpp`` -> ``chrF++``."""
    return {"Chrfpp": "chrF++"}.get(metric, metric.replace("_", "-"))


def glue_verdicts(out: Outputs) -> pd.DataFrame:
    """Evaluate this chapter's registered claims on what it has saved so far (the code of ``python -m analysis
    claims``) and glue each as ``verdict-<id>`` (the claims pages' words) and ``ours-<id>`` (our value as shown), so a
    sentence whose truth depends on a result glues a verdict and no threshold lives outside the registry. A claim
    tested as a list of checks also glues ``passed-<id>``, the count a sentence can carry ("14 of 21"), and, when
    the checks read numbers, ``values-<id>``, those numbers without the count ("−18, +14"), where ``ours-<id>`` is
    the table's cell ("−18, +14; 1 of 2 checks pass"). A claim whose source is another chapter's is not glued (a
    page that cites it fails the build). Returns the rows."""
    from .. import claim_records, claims, claims_pages
    from ..typography import true_minus

    mine = [c for c in claim_records.load() if c.chapter == out.chapter]
    table = claims.evaluate(mine, out.dir.parent)
    for paper, cid, verdict, ours, category in zip(table["paper"], table["id"], table["verdict"], table["our value"],
                                                   table["category"]):
        if verdict != "not run":
            glue_values({f"verdict-{cid}": claims_pages.verdict_term(
                                 claims_pages.verdict_words(verdict, paper, category)),
                             f"ours-{cid}": true_minus(ours)})
    for claim, verdict in zip(mine, table["verdict"]):
        if verdict not in ("not run", "not testable here"):
            values = claims.our_value(claim, out.dir.parent)
            if isinstance(values, list) and values and all(isinstance(v, bool) for v in values):
                glue_values({f"passed-{claim.id}": f"{sum(values)} of {len(values)}"})
                several = len(values) > 1 and claim.rule != "consistent"  # a cell that reads "numbers; count"
                numbers = claims.tested_numbers(claim, out.dir.parent) if several else ""
                if numbers:
                    glue_values({f"values-{claim.id}": true_minus(numbers)})
    return table
