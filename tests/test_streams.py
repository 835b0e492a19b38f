"""analysis.streams: a named random stream is fixed by its seed and name."""

import numpy as np
import pytest

from analysis.streams import stream


def test_a_stream_is_the_same_for_the_same_seed_and_name_and_differs_by_name():
    first = stream(7, "a").random(5)
    np.testing.assert_array_equal(first, stream(7, "a").random(5))
    assert not np.allclose(first, stream(7, "b").random(5))


def test_a_negative_seed_is_refused():
    with pytest.raises(ValueError):
        stream(-1, "a")
