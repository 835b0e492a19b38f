"""Random streams by name: every stochastic paper item draws from its own generator, seeded by the chapter's seed
and the item's name, so adding a cell or an item changes no other item's numbers (and reordering cells changes
nothing)."""

from __future__ import annotations

import hashlib

import numpy as np

from .validation import check_count


def stream(seed: int, item: str) -> np.random.Generator:
    """The generator of paper item ``item`` (e.g. ``"fig2"``) under ``seed``: numpy's PCG64 seeded with the
    SeedSequence of (seed, the first 8 bytes of sha256(item)), the same on every machine and in every process."""
    seed = check_count(seed, "seed", minimum=0)
    if not isinstance(item, str) or not item:
        raise ValueError(f"a stream needs a non-empty name, got {item!r}")
    key = int.from_bytes(hashlib.sha256(item.encode()).digest()[:8], "little")
    return np.random.default_rng(np.random.SeedSequence([seed, key]))
