"""Hypothesis strategies shared by the property tests."""

import numpy as np
import pandas as pd
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

#: small integer-valued scores, so that ties are frequent
score_values = st.integers(min_value=0, max_value=6).map(float)


@st.composite
def score_matrices(draw, min_systems=2, max_systems=6, max_instances=25):
    """A score matrix (rows = instances, columns = systems ``s0``, ``s1``, ...) with frequent ties."""
    n_sys = draw(st.integers(min_systems, max_systems))
    n_inst = draw(st.integers(1, max_instances))
    values = draw(arrays(np.float64, (n_inst, n_sys), elements=score_values))
    return pd.DataFrame(values, columns=[f"s{i}" for i in range(n_sys)])
