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
    # the beat state: ((show name, (state names its handler reads)), ...) and
    # ((show name, (state names its handler leaves on stage)), ...) (see `arrangement`)
    needs: tuple = ()
    builds: tuple = ()
    view: type | None = None  # the View class of the plan's `data` (layerwise_core.planview)

    def moments_of(self, shows) -> tuple[str, ...]:
        """The moments a beat showing `shows` must name, in order, each once."""
        wanted = dict(self.moments)
        return tuple(dict.fromkeys(m for s in shows for m in wanted.get(s, ())))

    def arrangement(self, beats) -> list[tuple[int, str, str]]:
        """Where a storyboard's beats (each a list of show names, in order) ask a handler
        for state no earlier show built: [(beat index, show name, what it lacks + who
        builds it)]. A scene can render every arrangement this returns nothing for."""
        needs, builds = dict(self.needs), dict(self.builds)
        makers = {}
        for show, made in self.builds:
            for state in made:
                makers.setdefault(state, []).append(show)
        built: set[str] = set()
        out = []
        for i, shows in enumerate(beats):
            for show in shows:
                missing = [s for s in needs.get(show, ()) if s not in built]
                if missing:
                    who = sorted({m for s in missing for m in makers.get(s, ())})
                    out.append((i, show, f"needs {', '.join(missing)}, which "
                                         f"{' or '.join(repr(w) for w in who) or 'nothing'} "
                                         f"builds: show it in an earlier beat"))
                built.update(builds.get(show, ()))
        return out

    def check_data(self, data: dict) -> list[str]:
        """The plan builder's `data` against the template's view (`path: message` lines)."""
        return self.view.check(data, "data") if self.view is not None else []

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


def _pairs(names_by_show) -> tuple:
    return tuple((show, tuple(names.split())) for show, names in (names_by_show or {}).items())


def template(package: str, shows, kinds, min_sentences, scene_class_name, max_sentences=None,
             moments=None, needs=None, builds=None, view=None) -> Template:
    """A registry entry for the template in folder `package` (its last part is its name);
    `moments`, `needs` and `builds` map a show name to names, space-separated."""
    t = Template(package.rpartition(".")[2], frozenset(shows), frozenset(kinds), min_sentences,
                 package, scene_class_name, max_sentences, _pairs(moments), _pairs(needs),
                 _pairs(builds), view)
    unknown = {s for s, _ in t.moments + t.needs + t.builds} - t.shows
    built = {n for _, names in t.builds for n in names}
    unmade = {n for _, names in t.needs for n in names} - built
    if unknown or unmade:
        raise ValueError(f"template {t.name}: " + "; ".join(
            [f"no show name {s!r}" for s in sorted(unknown)]
            + [f"no show builds {n!r}" for n in sorted(unmade)]))
    return t


__all__ = ["ANY_MODEL", "Template", "template"]
