"""Pairwise judgment files (arena, LLM-judge: ``model_a, model_b, winner``) compared with BT, Elo, TrueSkill,
win rates and the P matrix, each with an interval over judgments."""

from __future__ import annotations

from pathlib import Path

JUDGMENT_COLUMNS = ("model_a", "model_b", "winner")


def is_judgment_file(path) -> bool:
    """A table whose header has ``model_a``, ``model_b`` and ``winner`` (any case)."""
    from ..data.scorefiles import ScoreFileError, _read_table

    path = Path(path)
    if not path.is_file() or path.name.endswith(".score"):
        return False
    try:
        columns = {str(c).strip().lower() for c in _read_table(path).frame.columns}
    except (ScoreFileError, ValueError, OSError):
        return False
    return set(JUDGMENT_COLUMNS) <= columns
