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


@pytest.mark.parametrize("factor", [0.3, 1 / 0.3])
def test_dimming_changes_opacity_from_where_it_is_never_through_zero(factor):
    """DimPlace (and the ghosts built on it) goes from each member's own opacity to `factor`
    times it: halfway through a dim to 0.3 a text is at 0.65, not 0.15 (it once started from
    0, so everything dimmed or lit again blinked out mid-motion)."""
    from manim import Square, VGroup
    from scenes.animations import DimPlace

    a, b = Square().set_fill(opacity=0.8).set_stroke(opacity=0.5), Square().set_stroke(opacity=0.2)
    anim = DimPlace(VGroup(a, b), factor, rate_func=lambda t: t)
    anim.begin()
    for alpha in (0.0, 0.5, 1.0):
        anim.interpolate_mobject(alpha)
        k = 1 + (factor - 1) * alpha
        assert a.get_fill_opacity() == pytest.approx(0.8 * k)
        assert a.get_stroke_opacity() == pytest.approx(0.5 * k)
        assert b.get_stroke_opacity() == pytest.approx(0.2 * k)
    anim.finish()
    assert a.get_fill_opacity() == pytest.approx(0.8 * factor)
