"""The sweep (issue 25 section 5): a teacher's own sentences, every template, both shipped models.

Each case is `layerwise draft` -> `layerwise plan` -> `layerwise preview` (every beat's last
frame and its scene-state JSON), run in-process as a teacher would type them, then
`layerwise_pipeline.layoutcheck` on every beat's last frame: nothing drawn in the frame's outer
band of pixels (the camera may move) and no text lying on other text (boxes from the state).

The sentences are 3-20 tokens in both tokenizers and each case covers several features: the
medium set has digits, punctuation, an apostrophe and a non-ASCII letter ("At 9:30, José's
bank ..."), focus `bank`; the long set is 18-20 tokens with a focus word of several tokens that
is said twice (`kayaks`: `kay ##aks` in MiniLM, ` kay aks` in SmolLM2). A template that
compares sentences gets two or three of the set (bank_drift three, one of them 3 tokens).

A refusal must be one line, exit 2, naming a limit listed in docs/storyboards.md ("Limits");
any other refusal fails its case. `test_sweep_table` prints cases, passes, refusals (the rate)
and layout failures. Budget: about 26 previews at 480p, cached per session (each case runs
once, whichever test asks first); nothing in parallel.
"""

from __future__ import annotations

import re
import time
import traceback
from pathlib import Path

import pytest

from conftest import ROOT
from layerwise_pipeline.layoutcheck import folder_problems
from layerwise_pipeline.main import main
from layerwise_templates import TEMPLATES

pytestmark = [pytest.mark.render, pytest.mark.slow]

MODELS = {"minilm-l6": "encoder", "smollm2-135m": "decoder"}
MEDIUM = ["At 9:30, José's bank opened its doors.",                       # 14-15 tokens
          "We fished from the muddy bank all afternoon.",
          "The bank."]                                                      # 3 tokens (SmolLM2)
LONG = ["The kayaks drifted past the old bank, and we watched the kayaks vanish downstream.",
        "The kayaks sat on the bank by the café; the kayaks' owners waited.",
        "I'd rent kayaks at 7, but kayaks cost €12 there."]
SETS = {"medium": (MEDIUM, "bank"), "long": (LONG, "kayaks")}


def sentences_for(template: str, sentences: list[str]) -> list[str]:
    t = TEMPLATES[template]
    n = max(t.min_sentences, min(t.max_sentences or 1, 3))
    return sentences[:n]


CASES = [(name, model, label, sentences_for(name, s), focus)
         for name, t in TEMPLATES.items() for model, kind in MODELS.items() if kind in t.kinds
         for label, (s, focus) in SETS.items()]
IDS = [f"{n}-{m}-{l}" for n, m, l, _, _ in CASES]


def documented_limits() -> dict[str, list[str]]:
    """template -> the phrases of its refusals in docs/storyboards.md's "Limits" table."""
    text = (ROOT / "docs" / "storyboards.md").read_text()
    section = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    out: dict[str, list[str]] = {}
    for row in re.findall(r"^\| *([a-z_, ]+?) *\|.*\| *(`.*`) *\|$", section, re.M):
        phrases = re.findall(r"`([^`]+)`", row[1])
        for name in row[0].split(","):
            out.setdefault(name.strip(), []).extend(phrases)
    return out


def listed(template: str, line: str) -> bool:
    limits = documented_limits()
    return any(p in line for p in limits.get("any", []) + limits.get(template, []))


_RESULTS: dict[str, dict] = {}


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def sweep_case(case, capsys, cache_dir, root: Path) -> dict:
    """Draft, plan, preview and check one case (once per session)."""
    name, model, label, sentences, focus = case
    key = f"{name}-{model}-{label}"
    if key in _RESULTS:
        return _RESULTS[key]
    start = time.perf_counter()
    folder = root / key
    folder.mkdir(parents=True)
    media = folder / "media"
    args = ["--cache", cache_dir, "draft", "--model", model, "--template", name, "--focus", focus]
    for s in sentences:
        args += ["--sentence", s]
    result = {"case": key, "refusal": None, "error": None, "layout": [], "frames": 0}
    try:
        code, out, err = run_cli(capsys, *args)
        if code == 0:
            path = folder / f"{key.replace('-', '_')}.yaml"
            path.write_text(out, encoding="utf-8")
            code, _, err = run_cli(capsys, "--cache", cache_dir, "plan", "--media", media, path)
        if code == 0:
            code, _, err = run_cli(capsys, "--cache", cache_dir, "preview", "--media", media,
                                   path)
            frames = media / "frames" / path.stem
            result["frames"] = len(list(frames.glob("[0-9][0-9]_*.png")))
            result["layout"] = [p.replace(f"{frames}/", "") for p in folder_problems(frames)]
    except Exception as e:          # a traceback from inside a scene: a bug, not a refusal
        where = traceback.extract_tb(e.__traceback__)[-1]
        code, err = None, f"{type(e).__name__}: {e} at {where.filename}:{where.lineno}"
    if code == 2 and err.count("\n") == 1 and err.startswith("error: "):
        result["refusal"] = err.strip()
    elif code != 0:
        result["error"] = f"exit {code}: {err.strip()[-400:]}" if code is not None else err
    result["seconds"] = round(time.perf_counter() - start, 1)
    _RESULTS[key] = result
    return result


@pytest.fixture(scope="session")
def sweep_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sweep")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_teachers_sentence_lays_out(case, capsys, cache_dir, sweep_root):
    r = sweep_case(case, capsys, cache_dir, sweep_root)
    assert r["error"] is None, r["error"]
    if r["refusal"]:
        assert listed(case[0], r["refusal"]), f"refusal not in docs/storyboards.md Limits: " \
                                              f"{r['refusal']}"
        return
    assert r["frames"] > 0
    assert r["layout"] == [], "\n".join(r["layout"])


def test_sweep_table(capsys, cache_dir, sweep_root):
    """Every case (run here when not yet run), and the table: cases, passes, refusals, layout."""
    results = [sweep_case(c, capsys, cache_dir, sweep_root) for c in CASES]
    refused = [r for r in results if r["refusal"]]
    broken = [r for r in results if r["layout"] or r["error"]]
    lines = [f"sweep: {len(results)} cases, {len(results) - len(refused) - len(broken)} pass, "
             f"{len(refused)} refused ({len(refused) / len(results):.0%}), "
             f"{len(broken)} with layout problems or errors, "
             f"{sum(r['seconds'] for r in results):.0f} s"]
    lines += [f"  {r['case']}: {r['refusal'] or r['error'] or ''}"
              f"{len(r['layout'])} layout problem(s) in {r['frames']} frames ({r['seconds']} s)"
              + "".join(f"\n      {p}" for p in r["layout"][:3])
              + (f"\n      ... {len(r['layout']) - 3} more" if len(r["layout"]) > 3 else "")
              for r in results]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert {c[0] for c in CASES} == set(TEMPLATES) - {"toy_loop"}
    assert all(not r["refusal"] or listed(r["case"].split("-")[0], r["refusal"])
               for r in results)


def test_the_limits_table_is_read():
    limits = documented_limits()
    assert "at most 40 tokens" in limits["per_head"] and "needs a" in limits["any"]
    assert listed("per_head", "error: per_head: the sentence is 41 tokens; ... at most 40 tokens")
    assert not listed("per_head", "error: the per_head draft does not plan for this sentence")
