"""Reusable visual pieces. Every scene builds from these, so a colour or size changes in one
place (theme.py). Numbers are `Num` mobjects that remember the plan value and plan path they
show, so a test can check that what is on screen is what the trace says."""

from .text import txt, math, wrapped, code_block, highlighted, glyph_span, baseline, inline, text_table, legend_item, labelled, rule, swatch  # noqa: F401
from .numbers import Num, bracket, NumberGrid  # noqa: F401
from .strips import RampKey, PatternRow, TokenCells  # noqa: F401
from .charts import TickAxes, PlacedTickAxes, ProbBars, LayerBus, ScaleBar  # noqa: F401
from .race import RaceRow, RaceChart, DepthRuler  # noqa: F401
from .steps import StepBoxes  # noqa: F401
from .lens import prompt_line, lens_column, column_places, column_guide, layer_ruler, lens_steps  # noqa: F401
from .lens_grid import lens_grid, final_outlines, grid_guide  # noqa: F401
from .rank_plot import RankPlots  # noqa: F401
from .credit import credit_table, credit_rows  # noqa: F401

__all__ = ['txt', 'math', 'wrapped', 'code_block', 'highlighted', 'baseline', 'inline', 'text_table', 'legend_item', 'labelled', 'rule', 'swatch', 'Num', 'bracket', 'NumberGrid', 'RampKey', 'PatternRow', 'TokenCells', 'TickAxes', 'PlacedTickAxes', 'ProbBars', 'LayerBus', 'ScaleBar', 'RaceRow', 'RaceChart', 'DepthRuler', 'StepBoxes', 'prompt_line', 'lens_column', 'column_places', 'column_guide', 'layer_ruler', 'lens_steps', 'lens_grid', 'final_outlines', 'grid_guide', 'RankPlots', 'credit_table', 'credit_rows']
