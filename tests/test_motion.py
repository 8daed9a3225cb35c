"""The motion kit's camera arithmetic: one steady zoom, and a pan that arrives."""

import numpy as np
import pytest

from scenes.motion.plane import geometric_view


def test_zoom_is_geometric_and_its_fixed_point_stays():
    w, c = geometric_view(1.0, 100.0, (0.0, 0.0), (5.0, 5.0), 0.5)
    assert w == pytest.approx(10.0)                     # halfway in log width, not 50.5
    np.testing.assert_allclose(c, [5.0 * 9 / 99] * 2)   # centre moves with the width


def test_a_pan_between_equal_widths_arrives():
    """Widths equal up to float rounding (100.00000000000004 after a log-interpolated zoom)
    are a pan: the centre must still travel all the way (it once stayed put)."""
    for w0 in (100.0, 100.00000000000004):
        w, c = geometric_view(w0, 100.0, (7.9, 15.3), (12.3, 24.1), 1.0)
        np.testing.assert_allclose(c, [12.3, 24.1])
        w, c = geometric_view(w0, 100.0, (7.9, 15.3), (12.3, 24.1), 0.5)
        np.testing.assert_allclose(c, [10.1, 19.7])
