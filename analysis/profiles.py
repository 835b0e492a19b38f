"""Run profiles: the papermill parameters each chapter gets under each profile.

``full`` is the paper's setting, which is each notebook's own default in its ``parameters`` cell, so it injects
nothing. ``quick`` shrinks the expensive knobs so that every chapter runs in seconds (tests and CI); each chapter
declares its quick values next to the rules of its parameters (``PARAMETERS`` of its module in
:mod:`analysis.chapters`, :attr:`~analysis.chapters.common.Param.quick`). Chapters are named by their notebook
file stem (``notebooks/<chapter>.py``).
"""

from __future__ import annotations


def chapter_modules() -> tuple:
    """Every chapter module (or package), in notebook order: where each declares ``CHAPTER`` and ``PARAMETERS``."""
    from .chapters import (
        favoritism,
        global_vs_pairwise,
        real_setups,
        simulation,
        synthesis,
        why_pairing,
        wmt_stability,
        your_own_scores,
    )

    return (why_pairing, simulation, real_setups, wmt_stability, favoritism, global_vs_pairwise, synthesis,
            your_own_scores)


def _quick() -> dict[str, dict]:
    from .chapters.common import KEEP

    overrides = {m.CHAPTER: {name: rule.quick for name, rule in m.PARAMETERS.items() if rule.quick is not KEEP}
                 for m in chapter_modules()}
    return {chapter: values for chapter, values in overrides.items() if values}


PROFILES: dict[str, dict[str, dict]] = {"full": {}, "quick": _quick()}


def parameters_for(profile: str, chapter: str) -> dict:
    """Parameters injected into ``chapter`` under ``profile`` (unknown profile: ValueError)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {sorted(PROFILES)}")
    return dict(PROFILES[profile].get(chapter, {}))
