"""What a storyboard template is: the type of one entry of the registry (`layerwise_templates`).

A template names what a beat may show, the model kinds it accepts, how many sentences it needs,
and the folder (a Python package) that holds its plan builder (`plan.py`: `build(sb, traces)`),
its draft (`draft.py`: `build(context)`, where there is one) and its Manim scene (`scene.py`).
The plan and the draft are loaded when first asked for and the scene only by the renderer, so
planning never imports Manim and rendering never imports torch. A template whose handlers wait
for words of the narration names those **moments** here, per handler: a beat showing that
handler must say where each is (`moments:` in the storyboard, storyboard/reveals.py), and the
scene asks for them by name (`StoryboardScene.said(name)`).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

ANY_MODEL = frozenset({"encoder", "decoder"})


@dataclass(frozen=True)
class Template:
    name: str
    shows: frozenset          # the names a beat's `show` list may use
    kinds: frozenset          # model kinds (encoder, decoder, toy)
    min_sentences: int
    package: str              # the template's folder as a package: plan, draft, scene
    scene_class_name: str     # the Manim scene class in `<package>.scene`
    max_sentences: int | None = None    # None: any number
    moments: tuple = ()       # ((show name, (moment names its handler waits for)), ...)

    def moments_of(self, shows) -> tuple[str, ...]:
        """The moments a beat showing `shows` must name, in order, each once."""
        wanted = dict(self.moments)
        return tuple(dict.fromkeys(m for s in shows for m in wanted.get(s, ())))

    @property
    def plan_module(self) -> str:
        return f"{self.package}.plan"

    def build_plan(self, sb, traces) -> dict:
        return importlib.import_module(self.plan_module).build(sb, traces)

    @property
    def draft_module(self) -> str:
        return f"{self.package}.draft"

    @property
    def has_draft(self) -> bool:
        return importlib.util.find_spec(self.draft_module) is not None

    def build_draft(self, context):
        return importlib.import_module(self.draft_module).build(context)

    @property
    def scene(self) -> str:
        """"module:Class" of the scene that renders it."""
        return f"{self.package}.scene:{self.scene_class_name}"

    def scene_class(self):
        return getattr(importlib.import_module(f"{self.package}.scene"), self.scene_class_name)


def template(package: str, shows, kinds, min_sentences, scene_class_name, max_sentences=None,
             moments=None) -> Template:
    """A registry entry for the template in folder `package` (its last part is its name);
    `moments` maps a show name to its moment names, space-separated."""
    return Template(package.rpartition(".")[2], frozenset(shows), frozenset(kinds),
                    min_sentences, package, scene_class_name, max_sentences,
                    tuple((show, tuple(names.split())) for show, names in (moments or {}).items()))


__all__ = ["ANY_MODEL", "Template", "template"]
