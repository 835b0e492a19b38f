"""Safe unpickling: a registered pickle is opened only after its checksum matched, and only the globals on its
source's allow-list can be resolved (see ../shared/data/README.md for what each pickle holds)."""

from __future__ import annotations

import importlib
import io
import pickle

from .raw import read_verified
from .registry import DataError, DataFile

# Exactly the globals each pickle needs (see ../shared/data/README.md). numpy.core was renamed numpy._core in 2.0.
PICKLE_ALLOW = {
    "bt-eval": {
        ("builtins", "slice"),
        ("numpy", "dtype"),
        ("numpy", "ndarray"),
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy.core.multiarray", "scalar"),
        ("pandas.core.frame", "DataFrame"),
        ("pandas.core.indexes.base", "Index"),
        ("pandas.core.indexes.base", "_new_Index"),
        ("pandas.core.indexes.range", "RangeIndex"),
        ("pandas.core.internals.managers", "BlockManager"),
    },
    "realsumm": {("numpy", "dtype"), ("numpy.core.multiarray", "scalar")},
    "summeval": set(),  # plain dicts, lists, strings and floats: no global at all
}


class AllowListUnpickler(pickle.Unpickler):
    """Unpickler that resolves only the (module, name) pairs it is given; anything else is refused."""

    def __init__(self, file, allowed: set[tuple[str, str]]):
        super().__init__(file)
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"refused to unpickle {module}.{name}: not in the allow-list")
        if module.startswith("numpy.core."):
            module = "numpy._core." + module[len("numpy.core.") :]
        return getattr(importlib.import_module(module), name)


def load_pickle(f: DataFile, root=None, allowed: set[tuple[str, str]] | None = None):
    """Unpickle a registered file: checksum first, then the source's allow-list (or ``allowed``)."""
    allow = allowed if allowed is not None else PICKLE_ALLOW.get(f.source)
    if allow is None:
        raise DataError(f"source {f.source!r} has no pickle allow-list; refusing to unpickle {f.path}")
    payload = read_verified(f, root)
    try:
        return AllowListUnpickler(io.BytesIO(payload), allow).load()
    except pickle.UnpicklingError as exc:
        raise DataError(f"{f.path} ({f.url}): {exc}") from None
