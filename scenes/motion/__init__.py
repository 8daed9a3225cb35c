"""The motion kit: data-bound animations every scene builds from (each drawn number a `Num`
bound to its plan path). One small file per idea:

- `vector`   VectorColumn (a vector as a column of numbers), strip_scale / SignedStrip
- `matvec`   MatVec / matvec(): X flies into W, the product's entries appear, become Q
- `plane`    VectorPlane: tip-to-tail arrows on a 2-d plane, ghost trail, zoom_to/zoom_out
             (smooth camera moves with a scale bar), broken_axis
- `ghosts`   ghost(): the previous layer's pieces stay dimmed beside the new ones
- `pointer`  point_at(), emphasize(): short pointer / circumscribe
- `legend`   quantity_legend(): colour per quantity
- `race`     race_step(): one ranked bar chart morphing between states (tokens re-sort);
             LayerRace: the logit lens's top-k as that chart, layer by layer
- `steps`    run_through(): a pipeline's steps appear, a dot passes through each in turn
"""

from .vector import VectorColumn, SignedStrip, strip_scale  # noqa: F401
from .matvec import MatVec, matvec, WeightBlock  # noqa: F401
from .plane import VectorPlane, ScaleBarAt, zoom_to, zoom_out, broken_axis  # noqa: F401
from .ghosts import ghost  # noqa: F401
from .pointer import point_at, emphasize  # noqa: F401
from .legend import quantity_legend  # noqa: F401
from .race import race_step, LayerRace  # noqa: F401
from .steps import run_through  # noqa: F401

__all__ = ["VectorColumn", "SignedStrip", "strip_scale", "MatVec", "matvec", "WeightBlock",
           "VectorPlane", "ScaleBarAt", "zoom_to", "zoom_out", "broken_axis", "ghost",
           "point_at", "emphasize", "quantity_legend", "race_step", "LayerRace",
           "run_through"]
