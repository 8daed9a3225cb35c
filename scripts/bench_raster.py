"""Would rasterising the strips help? Frame time of a camera move over a block of strip
cells and numbers drawn as vectors, vs the same block drawn once into an ImageMobject
(through the kit's camera, which works around Manim 0.22's ImageMobject canvas under Pillow
13). Prints the per-frame ratio and how far the frames differ; passes or fails nothing.
Usage: scripts/bench_raster.py [--quality l] [--cells 400] [--numbers 60]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def block(cells: int, numbers: int):
    from manim import Rectangle, Text, VGroup
    from scenes import theme as T
    side = int(np.ceil(np.sqrt(cells)))
    rng = np.random.default_rng(0)
    g = VGroup(*[Rectangle(width=0.25, height=0.25, stroke_width=0.5, fill_opacity=1,
                           fill_color=T.BACKGROUND).set_fill(
        ["#335577", "#aa5533", "#777777"][int(rng.integers(3))])
        for _ in range(cells)]).arrange_in_grid(side, side, buff=0.02)
    nums = VGroup(*[Text(f"{rng.normal():+.2f}", font_size=14) for _ in range(numbers)])
    nums.arrange_in_grid(int(np.ceil(numbers / 6)), 6, buff=0.1).next_to(g, 1.0 * np.array([1, 0, 0]))
    return VGroup(g, nums).move_to(np.zeros(3))


def run(quality: str, cells: int, numbers: int, raster: bool) -> tuple[float, int, np.ndarray]:
    from manim import ImageMobject, tempconfig
    from layerwise_render.camera import KitCamera
    from manim import MovingCameraScene

    frames = []

    class Bench(MovingCameraScene):
        def __init__(self):
            super().__init__(camera_class=KitCamera)

        def construct(self):
            b = block(cells, numbers)
            if raster:
                self.add(b)
                self.renderer.update_frame(self)
                pixels = self.renderer.get_frame()
                self.remove(b)
                img = ImageMobject(pixels)
                img.height = self.camera.frame.height
                self.add(img)
            else:
                self.add(b)
            t = time.perf_counter()
            self.play(self.camera.frame.animate.scale(0.8).shift(0.3 * np.array([1, 0, 0])),
                      run_time=2)
            self.elapsed = time.perf_counter() - t
            frames.append(self.renderer.get_frame())

    with tempfile.TemporaryDirectory() as tmp, tempconfig(
            {"quality": {"l": "low_quality", "h": "high_quality"}[quality], "media_dir": tmp,
             "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none",
             "write_to_movie": True}):
        from manim import config
        s = Bench()
        s.render()
        return s.elapsed, int(2 * config.frame_rate), frames[-1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quality", default="l")
    p.add_argument("--cells", type=int, default=400)
    p.add_argument("--numbers", type=int, default=60)
    a = p.parse_args()
    vec, n, fv = run(a.quality, a.cells, a.numbers, False)
    ras, _, fr = run(a.quality, a.cells, a.numbers, True)
    sys.path.insert(0, str(ROOT / "tests"))
    import framecheck as fc
    d = fc.frame_difference(fr[:, :, :3], fv[:, :, :3])
    print(f"load {os.getloadavg()[0]:.1f}; {a.cells} cells + {a.numbers} numbers, {n} frames "
          f"of a camera move at {a.quality}: vectors {vec / n * 1000:.1f} ms/frame, "
          f"rasterised {ras / n * 1000:.1f} ms/frame, vectors / rasterised {vec / ras:.2f}; "
          f"last frame vs vectors (snapshot rule, {fc.FACTOR}x{fc.FACTOR} blocks): max "
          f"{d['max']:.1f} (limit {fc.BLOCK_LIMIT}), mean {d['mean']:.2f} (limit "
          f"{fc.MEAN_LIMIT}): {'within' if fc.frames_match(d) else 'OUTSIDE'} the tolerances")
    return 0


if __name__ == "__main__":
    sys.exit(main())
