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


def check_profile_parameters(profile: str, chapter: str, nb) -> None:
    """Refuse (a ``ValueError`` naming them and listing the notebook's own) parameters that ``profile`` sets for
    ``chapter`` but its notebook ``nb`` does not declare: papermill would only warn and run the notebook's default.
    A notebook without a parameters cell is not checked here (the runner fails it with its own message)."""
    from .notebooks import _parameters_source, notebook_parameters

    if _parameters_source(nb) is None:
        return
    declared = notebook_parameters(nb)
    unknown = [name for name in parameters_for(profile, chapter) if name not in declared]
    if unknown:
        raise ValueError(f"profile {profile!r} sets {', '.join(unknown)} for {chapter}, which its notebook does not "
                         f"declare; notebooks/{chapter}.py's parameters: {', '.join(declared)}")
