"""The race's re-sorts (`scene_race.lanes`, `slot_in`): no card is ever drawn over another
mid-move, a long bar that keeps its order included (r36, review: labels touched at 0:52,
where a short row climbing past a 0.82 bar was clamped at the frame's edge)."""

from __future__ import annotations

import itertools

from manim import Rectangle

from layerwise_templates.logit_lens.scene_race import FRAME_RIGHT, lanes, slot_in, swaps

PITCH, HEIGHT = 0.38, 0.3          # the race's rows, a card's height within one


def card(width: float, row: int) -> Rectangle:
    """A row's card (name, bar, number) as a box, its left at the names' column."""
    return Rectangle(width=width, height=HEIGHT).move_to([-3.0 + width / 2, -row * PITCH, 0])


def overlaps(a, b) -> bool:
    return (a.get_left()[0] < b.get_right()[0] and b.get_left()[0] < a.get_right()[0]
            and a.get_bottom()[1] < b.get_top()[1] and b.get_bottom()[1] < a.get_top()[1])


def run(moves: list) -> list:
    """[(card, old row, new row)] through `lanes` and `slot_in`: each card's box at 41
    moments of the move."""
    going = [(c, -r0 * PITCH, -r1 * PITCH) for c, r0, r1 in moves]
    anims = [slot_in(parts, dx, y1 - y0) for parts, dx, y0, y1 in lanes(going, [], FRAME_RIGHT)]
    frames = []
    for anim in anims:
        anim.begin()
    for k in range(41):
        for anim in anims:
            anim.interpolate(k / 40)
        frames.append([c.copy() for c, _, _ in moves])
    return frames


def test_swaps():
    assert swaps(0, 1, 1, 0)            # they pass each other
    assert not swaps(0, -2, 1, -1)      # the upper stays upper
    assert swaps(0, 0, 1, 0)            # one lands where the other stands


def test_a_row_climbing_past_a_long_bar_that_keeps_its_order_touches_nothing():
    # X^(1) -> X^(2): "full stop" (0.82, a long bar) goes from row 2 to row 0 straight; comma
    # from row 6 to row 1, past three short rows; the short rows step down
    long_bar = card(8.5, 2)             # (its lane, clear of it, would end past the frame)
    comma, a, b, c = card(2.4, 6), card(1.0, 0), card(1.0, 1), card(1.2, 3)
    moves = [(long_bar, 2, 0), (comma, 6, 1), (a, 0, 2), (b, 1, 3), (c, 3, 4)]
    for boxes in run(moves):
        for x, y in itertools.combinations(boxes, 2):
            assert not overlaps(x, y)
        assert all(m.get_right()[0] <= FRAME_RIGHT + 1e-6 for m in boxes)


def test_cards_in_lanes_swapping_with_each_other_touch_nothing():
    # a re-sort that reverses five rows: every card passes every other
    cards = [card(1.0 + 0.3 * i, i) for i in range(5)]
    moves = [(m, i, 4 - i) for i, m in enumerate(cards)]
    for boxes in run(moves):
        for x, y in itertools.combinations(boxes, 2):
            assert not overlaps(x, y)

