"""The columns of a pairwise judgment file (for :func:`analysis.data.scorefiles.read_judgments`): the layout its
column names say (:data:`JUDGMENT_LAYOUTS`: arena/FastChat, arena-rank, evalica), each winner cell read as "left",
"right" or "tie" (a word of :data:`WINNER_WORDS` or of the layout, a number, or one of the row's two system names;
an ambiguous cell refused), and the one column that names the items."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .scorefile_cells import is_id_name
from .scorefile_tables import ScoreFileError

#: winner cells of a judgment file, by what they mean
WINNER_WORDS = {"left": ("model_a", "a", "left", "x", "1"), "right": ("model_b", "b", "right", "y", "2"),
                "tie": ("tie", "draw", "tie (bothbad)", "tie_bothbad", "both_bad", "bothbad", "both bad", "0",
                        "equal")}

JUDGMENT_COLUMNS = ("model_a", "model_b", "winner", "weight")
#: the judgment layouts recognised by their columns (any case): the two systems' columns, what a winner cell naming
#: each of them says, and the layout's name on the first line
JUDGMENT_LAYOUTS = (
    (("model_a", "model_b"), ("model_a", "model_b"), "arena/FastChat (model_a, model_b, winner)"),
    (("team_1", "team_2"), ("team_1", "team_2"), "arena-rank (team_1, team_2, winner)"),
    (("left", "right"), ("left", "right"), "evalica (left, right, winner)"),
)
#: arena-rank's numeric outcomes: 1 (or 1.0) the first system wins, 0.5 a tie, 0 the second wins
ARENA_OUTCOMES = {1.0: "left", 0.5: "tie", 0.0: "right"}
#: the codes 1 (model_a), 2 (model_b), 0 (a tie) of :data:`WINNER_WORDS`
CODE_OUTCOMES = {1.0: "left", 2.0: "right", 0.0: "tie"}


def judgment_layout(columns) -> tuple | None:
    """The judgment layout (:data:`JUDGMENT_LAYOUTS`) whose system columns and a ``winner`` (or ``outcome``) column
    ``columns`` hold (any case), or None."""
    names = {str(c).strip().lower() for c in columns}
    if not names & {"winner", "outcome"}:
        return None
    for layout in JUDGMENT_LAYOUTS:
        if set(layout[0]) <= names:
            return layout
    return None


def _to_arena_layout(frame: pd.DataFrame, path: Path) -> tuple[pd.DataFrame, str, dict]:
    """The frame with its layout's system columns renamed ``model_a``/``model_b`` and its outcome column
    ``winner``; the layout's name and its winner words."""
    layout = judgment_layout(frame.columns)
    if layout is None:
        return frame, JUDGMENT_LAYOUTS[0][2], {}
    (a, b), (word_a, word_b), name = layout
    lower = {str(c).strip().lower(): c for c in frame.columns}
    rename = {}
    if a != "model_a":
        taken = [x for x in ("model_a", "model_b") if x in lower]
        if taken:
            raise ScoreFileError(f"{path}: both the {name} layout's columns and {taken} are present; keep one pair "
                                 "of system columns")
        rename = {lower[a]: "model_a", lower[b]: "model_b"}
    if "winner" not in lower and "outcome" in lower:
        rename[lower["outcome"]] = "winner"
    words = {} if a == "model_a" else {word_a: "left", word_b: "right"}
    return frame.rename(columns=rename), name, words


def _item_column(frame: pd.DataFrame, path: Path, where: dict | None, line: pd.Series) -> str:
    """The one column of a judgment file that names its items (``question_id``, ``item``, ``id``, ...: an id name
    of :func:`~analysis.data.scorefile_cells.is_id_name`), which matches a judge's verdicts to the humans' on the same
    item."""
    found = [c for c in frame.columns if c not in JUDGMENT_COLUMNS and c not in (where or {}) and is_id_name(c)
             or str(c).strip().lower() in ("question", "prompt", "conversation_id", "question_id")]
    found = list(dict.fromkeys(found))
    if len(found) != 1:
        what = f"several: {found}" if found else f"none among {list(map(str, frame.columns))}"
        raise ScoreFileError(f"{path}: matching judgments to human ones needs one column naming the items (e.g. "
                             f"question_id, item or id); found {what}")
    empty = (frame[found[0]].isna() | (frame[found[0]].astype(str).str.strip() == "")).to_numpy()
    if empty.any():
        raise ScoreFileError(f"{path}: column {found[0]!r} has empty item ids (first on line "
                             f"{line.iloc[np.flatnonzero(empty)[0]]})")
    return found[0]


def _numeric_outcomes(cell: pd.Series, path: Path, line_of) -> tuple[pd.Series | None, str]:
    """A winner column of numbers only, read one way or refused: arena-rank's outcomes (1 the first system wins,
    0.5 a tie, 0 the second) when it holds 0.5, or both 0 and 1; the codes 1, 2, 0 (model_a, model_b, a tie) when it
    holds a 2; only 1 (the first system wins either way) is read as both agree; only 0, which the two readings read
    differently, is refused naming both. (None, "") for a column with any non-number."""
    values = pd.to_numeric(cell, errors="coerce")
    if values.isna().any() or not len(values):
        return None, ""
    seen = set(values.unique().tolist())
    if seen <= set(ARENA_OUTCOMES) and (0.5 in seen or {0.0, 1.0} <= seen or seen == {1.0}):
        table, how = ARENA_OUTCOMES, "arena-rank's outcomes (1 model_a wins, 0.5 a tie, 0 model_b wins)"
    elif seen <= set(CODE_OUTCOMES) and 2.0 in seen:
        table, how = CODE_OUTCOMES, "codes (1 model_a wins, 2 model_b wins, 0 a tie)"
    elif seen == {0.0}:
        raise ScoreFileError(f"{path}: winner column holds only 0, which reads two ways: as arena-rank's outcome "
                             "(model_b wins every judgment) or as the code for a tie; write model_b or tie")
    else:
        allowed = sorted(set(ARENA_OUTCOMES) | set(CODE_OUTCOMES))
        bad = ~values.isin(allowed)
        if bad.any():
            i = np.flatnonzero(bad.to_numpy())[0]
            raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is a number other than arena-rank's "
                                 "outcomes 1, 0.5, 0 and the codes 1, 2, 0 (model_a, model_b, tie)")
        raise ScoreFileError(f"{path}: winner column mixes 0.5 and 2 ({sorted(seen)}), which no one reading covers: "
                             "arena-rank's outcomes are 1, 0.5, 0 (model_a, tie, model_b), the codes 1, 2, 0 "
                             "(model_a, model_b, tie)")
    return values.map(table).astype(object), how


def _winners(cell: pd.Series, a: pd.Series, b: pd.Series, path: Path, line_of,
             layout_words: dict | None = None) -> tuple[pd.Series, str]:
    """Each winner cell as "left", "right" or "tie": a code of :data:`WINNER_WORDS` (any case), a word of the file's
    layout (``team_1``/``team_2``), a number (:func:`_numeric_outcomes`) or one of the row's two system names. A
    cell that is both a code and, in any case, one of its row's names with another meaning (systems called
    ``A``/``B``, ``1``/``2`` or ``tie``) is refused as ambiguous rather than guessed. Also returns how a numeric
    column was read ("" otherwise)."""
    low = cell.str.lower()
    numbers, how = _numeric_outcomes(cell, path, line_of)
    code = pd.Series(np.nan, index=cell.index, dtype=object)
    if numbers is not None:
        code = numbers
    else:
        for meaning, words in WINNER_WORDS.items():
            code[low.isin(words)] = meaning
        for word, meaning in (layout_words or {}).items():
            code[low == word] = meaning
    name = pd.Series(np.nan, index=cell.index, dtype=object)
    name[low == b.str.lower()] = "right"
    name[low == a.str.lower()] = "left"
    clash = (code.notna() & name.notna() & (code != name)).to_numpy()
    if clash.any():
        i = np.flatnonzero(clash)[0]
        raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is ambiguous: it is the code for "
                             f"{'a tie' if code.iloc[i] == 'tie' else 'model_' + 'ab'[code.iloc[i] == 'right']} and "
                             f"the name of the system in model_{'ab'[name.iloc[i] == 'right']}; write the winner as "
                             "model_a, model_b or tie")
    exact = pd.Series(np.nan, index=cell.index, dtype=object)
    exact[cell == b] = "right"
    exact[cell == a] = "left"
    winner = code.fillna(exact)
    if winner.isna().any():
        i = np.flatnonzero(winner.isna().to_numpy())[0]
        raise ScoreFileError(f"{path}: winner {cell.iloc[i]!r} on {line_of(i)} is neither model_a, model_b, a tie "
                             f"({', '.join(WINNER_WORDS['tie'][:6])}, ...), nor one of the two systems' names")
    return winner, how
