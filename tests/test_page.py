"""The offline page beside each video (`layerwise page`, docs/page.md), tested in headless
Chromium (Debian's `chromium` and `chromium-driver`, which `make test` installs).

Pages are built from plans made here by `layerwise plan` (voice none) for four shipped
storyboards and one drafted by `layerwise draft`. The video is a stand-in: black 64x36 frames
at 2 fps, as long as the plan (the page only needs a video element whose time it follows; a
real render would take minutes). Every browser check loads the page from file://.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import framecheck as fc
from layerwise_pipeline.page import BUDGET, CHAPTER_BUDGET, build_chapter
from layerwise_pipeline.page.rounding import ROUNDING, decimals_for, fmt, resolve, shown

pytestmark = pytest.mark.slow            # plans with MiniLM (a real model package)

NAMES = ("context_qkv", "per_head", "attention_depth", "bank_drift")
GOLDEN = fc.GOLDEN / "page"
SIZES = {"1280": (1280, 720), "390": (390, 844)}
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                   reason="needs Debian's chromium and chromium-driver "
                                          "(make test installs them)")


def lw(*args, cwd=fc.ROOT):
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", *map(str, args)],
                       cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def standin_video(path: Path, seconds: float, fps: int = 2) -> None:
    import av
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as out:
        s = out.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = 64, 36, "yuv420p"
        black = av.VideoFrame.from_ndarray(np.zeros((36, 64, 3), np.uint8), format="rgb24")
        for _ in range(int(seconds * fps) + 1):
            for p in s.encode(black):
                out.mux(p)
        for p in s.encode():
            out.mux(p)


@pytest.fixture(scope="module")
def built(tmp_path_factory, cache_dir):
    """{name: (plan, page)}: planned with `layerwise plan`, paged with `layerwise page`."""
    root = tmp_path_factory.mktemp("page")
    media = root / "media"
    boards = [fc.ROOT / "layerwise_templates" / n / f"{n}.yaml" for n in NAMES]
    draft = lw("--cache", cache_dir, "draft", "--model", "minilm-l6", "--template",
               "attention_depth", "--focus", "cat", "--sentence", "The cat sat on the mat.")
    (root / "my_cat.yaml").write_text(draft)
    boards.append(root / "my_cat.yaml")
    lw("--cache", cache_dir, "plan", "--voice", "none", "--media", media, *boards)
    out = lw("page", "--media", media, *boards).split()
    pages = {}
    for b, page in zip(boards, out):
        plan = json.loads((media / "plans" / f"{b.stem}.json").read_text())
        standin_video(Path(page).with_suffix(".mp4"), sum(x["duration"] for x in plan["beats"]))
        pages[b.stem] = (plan, Path(page))
    return pages


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and DRIVER):
        pytest.skip("needs Debian's chromium and chromium-driver (make test installs them)")
    import os
    os.environ.setdefault("SE_AVOID_STATS", "true")        # selenium sends no statistics
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()                           # given both: no Selenium Manager
    o.binary_location = CHROMIUM
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--force-device-scale-factor=1", "--autoplay-policy=no-user-gesture-required",
              "--mute-audio", "--font-render-hinting=none", "--window-size=1280,720"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    d = webdriver.Chrome(options=o, service=Service(DRIVER))
    yield d
    d.quit()


def open_page(d, page: Path, size=(1280, 720)):
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": size[0], "height": size[1], "deviceScaleFactor": 1,
                       "mobile": False})
    d.get_log("browser"), d.get_log("performance")          # empty the logs
    d.get(page.as_uri())
    wait(d, "return document.getElementById('video').readyState >= 1 || "
            "!document.getElementById('novideo').hidden")


def wait(d, script: str, *args, seconds: float = 10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if d.execute_script(script, *args):
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {script}")


def set_layer(d, steps: int) -> None:
    """With the keyboard, as a viewer would: focus the layer control, Home, then right."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    ctl = d.find_element(By.ID, "layer")
    ctl.send_keys(Keys.HOME)
    for _ in range(steps):
        ctl.send_keys(Keys.ARROW_RIGHT)


def dom_numbers(d) -> list[tuple[str, str]]:
    return d.execute_script(
        "return [...document.querySelectorAll('#panels .num')].map(e => [e.dataset.path, "
        "e.textContent])")


# --- without a browser ---

def test_fmt_is_the_scenes_fmt():
    theme = pytest.importorskip("scenes.theme")
    for v in (0.8401522, -0.0004, 0.9995, 12.5, -3.14159, 0.0):
        for d in (0, 1, 2, 3, 4):
            assert fmt(v, d) == theme.fmt(v, d)


def test_rounding_reads_the_plans_decimals(built):
    per_head, _ = built["per_head"]
    lay = per_head["data"]["layers"][0]
    assert decimals_for(per_head, "data.layers[0].patterns[2][6][5]") == \
        lay["heads"][0]["decimals"]["weights"] == 3
    assert decimals_for(per_head, "data.layers[0].prev_token[4]") == lay["prev_decimals"]
    ctx, _ = built["context_qkv"]
    assert decimals_for(ctx, "data.first.q[3][1][2]") == ctx["data"]["first"]["decimals"]["q"][3]
    assert decimals_for(ctx, "data.cos.x[3]") == 2
    assert ROUNDING[-1][:2] == ("*", r".*")


def test_budget(built, tmp_path):
    for name, (_, page) in built.items():
        assert page.stat().st_size <= BUDGET, f"{name}: {page.stat().st_size} bytes"
    chapter = build_chapter("A chapter", [(n, built[n][0]) for n in NAMES], "l",
                            tmp_path / "media")
    assert chapter.stat().st_size <= CHAPTER_BUDGET


def test_page_is_self_contained(built):
    for _, page in built.values():
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)\s*=\s*["'](https?:|//)""", text)
        assert "fetch(" not in text and "XMLHttpRequest" not in text
        assert "default-src 'none'" in text


def test_golden_numbers_are_not_float_noise(built):
    """The screenshots pin every digit they show: none may be within float noise of a rounding
    boundary (`plans.shown.near_boundary`), or another CPU could draw another digit."""
    from layerwise_core.plans.shown import near_boundary
    from layerwise_pipeline.page.model import part
    checked = 0
    for name in ("context_qkv", "per_head"):
        plan, _ = built[name]
        layer = min(3, len(plan["layers"]) - 1)
        for p in part(plan)["panels"]:
            cell = p["cells"][layer] or []
            items = cell["items"] if isinstance(cell, dict) and "items" in cell else \
                [cell] if isinstance(cell, dict) else [c for row in cell for c in
                                                       (row if isinstance(row, list) else [row])]
            for c in items:
                v = resolve(plan, c["p"])
                if isinstance(v, float):
                    assert not near_boundary(v, decimals_for(plan, c["p"])), c["p"]
                    checked += 1
    assert checked > 60


RAW = re.compile(r"[›_{}\[\]^]|\bnorm\b|\bprev\b|\bcos\b|\bw\b")   # plan keys, not words


def raw_key(text: str):
    return RAW.search(text.replace("[CLS]", "CLS").replace("[SEP]", "SEP"))


def test_shipped_labels_are_words_not_plan_keys(built):
    """Every card of a shipped page is named by the template's table (specs.SPECS), in words a
    student knows, with an explanation; none is the generic name of its plan path."""
    from layerwise_pipeline.page.model import generic_label, part
    for name in NAMES:
        plan, _ = built[name]
        panels = part(plan)["panels"]
        assert panels, name
        for p in panels:
            assert (p["label"], p["tip"]) != generic_label(p["path"]), (name, p["path"])
            assert not raw_key(p["label"]), (name, p["path"], p["label"])
            assert "{" not in p["tip"] and p["tip"].endswith("."), (name, p["path"], p["tip"])
            assert p["group"] and not raw_key(p["group"]), (name, p["group"])


def test_generic_labels_read_as_words():
    """A draft's own plan fields, with no table: the path in words."""
    from layerwise_pipeline.page.model import generic_label, pretty
    assert generic_label("data.layers[{l}].join.bias_norm")[0] == "Bias length (join)"
    assert generic_label("data.layers[{l}].top_word.weight")[0] == "Weight (top word)"
    assert generic_label("data.cos.q_heads[{l}]")[0] == "Query Q heads (cosine)"
    assert generic_label("data.layers[{l}].norm_attn.value")[0] == "Length attention"
    for path in ("data.layers[{l}].prev.next_best", "data.similarity.raw[{l}]",
                 "data.layers[{l}].w_cos_max"):
        assert not re.search(r"[›_{}\[\]]", generic_label(path)[0]), path
    assert pretty("X^(3), read by layer 3") == "X⁽³⁾, read by layer 3"


def test_no_card_always_equals_another(built):
    """context_qkv's `cos.in` is `cos.x` and attention_depth's `sink.share` is
    `layers[l].sink`: one card each."""
    from layerwise_pipeline.page.model import part
    for name in NAMES:
        plan, _ = built[name]
        paths = [p["path"] for p in part(plan)["panels"]]
        values = [[resolve(plan, path.replace("{l}", str(layer))) if "{l}" in path else None
                   for layer in range(len(part(plan)["axis"]))] for path in paths]
        for i, v in enumerate(values):
            floats = any(isinstance(x, (float, list)) for x in v)
            assert not (floats and v in values[:i]), (name, paths[i])
    ctx = [p["path"] for p in part(built["context_qkv"][0])["panels"]]
    assert "data.cos.x[{l}]" in ctx and "data.cos.in[{l}]" not in ctx
    dep = [p["path"] for p in part(built["attention_depth"][0])["panels"]]
    assert "data.layers[{l}].sink" in dep and "data.sink.share[{l}]" not in dep


def test_vtt_from_the_srt(tmp_path):
    from layerwise_pipeline.page import read_cues, vtt
    srt = tmp_path / "a.srt"
    srt.write_text("1\n00:00:01,500 --> 00:01:02,250\nOne token,\ntwo sentences.\n\n"
                   "2\n01:00:00,000 --> 01:00:03,000\nA --> B\n", encoding="utf-8")
    assert vtt(read_cues(srt)) == ("WEBVTT\n\n00:00:01.500 --> 00:01:02.250\nOne token, two "
                                   "sentences.\n\n01:00:00.000 --> 01:00:03.000\nA -> B\n")


# --- in the browser ---

@needs_browser
@pytest.mark.parametrize("name", [*NAMES, "my_cat"])
def test_loads_offline_without_errors(browser, built, name):
    plan, page = built[name]
    open_page(browser, page)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    sent = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in sent if m["method"] == "Network.requestWillBeSent"]
    urls += browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert urls and all(u.startswith(page.parent.as_uri() + "/") or u.startswith("data:")
                        for u in urls), urls
    body = browser.find_element("tag name", "body").text
    assert plan["model"]["display"] in body
    for s in plan["sentences"]:
        assert s in body
    # a drafted storyboard gets its panels with no code of its own
    assert browser.execute_script("return document.querySelectorAll('#panels .panel').length") > 0


@needs_browser
def test_layer_control_shows_the_plans_numbers(browser, built):
    plan, page = built["context_qkv"]
    open_page(browser, page)
    for layer in (3, 5):
        set_layer(browser, layer)
        got = dom_numbers(browser)
        assert len(got) > 20
        for path, text in got:
            assert text == shown(plan, path), path
            m = re.match(r"data\.(cos\.\w+|first\.\w)\[(\d+)\]", path)
            assert m and int(m.group(2)) == layer, path
        cos_x = dict(got)[f"data.cos.x[{layer}]"]       # independent of the rounding table
        assert cos_x == f"{plan['data']['cos']['x'][layer]:.2f}"
        label = browser.execute_script("return document.getElementById('layer-label').textContent")
        assert label == f"layer {layer}"


@needs_browser
def test_states_axis_names_its_layers(browser, built):
    """bank_drift's axis is its states: X^(3) is what layer 3 reads, as in context_qkv."""
    from selenium.webdriver.common.by import By
    plan, page = built["bank_drift"]
    open_page(browser, page)
    set_layer(browser, 3)
    assert browser.find_element(By.ID, "layer-label").text == "X⁽³⁾"
    assert browser.find_element(By.ID, "layer-note").text == "— the state entering layer 3"
    panel = browser.find_element(By.CSS_SELECTOR, '[data-panel="data.similarity.raw[0][{l}]"]')
    assert panel.find_element(By.TAG_NAME, "h3").text == "How alike 'bank' is in sentences 1 and 2"
    assert panel.find_element(By.CLASS_NAME, "num").text == \
        f"{plan['data']['similarity']['raw'][0][3]:.2f}"
    assert panel.find_element(By.CLASS_NAME, "src").text == "source: data.similarity.raw[0][3]"
    from selenium.webdriver.common.keys import Keys
    browser.find_element(By.ID, "layer").send_keys(Keys.END)   # named as the video's axis does
    assert browser.find_element(By.ID, "layer-label").text == "X⁽⁶⁾"
    assert browser.find_element(By.ID, "layer-note").text == \
        "— the output, after the last layer (5)"


@needs_browser
def test_head_control_and_token_hover(browser, built):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    plan, page = built["per_head"]
    open_page(browser, page)
    ctl = browser.find_element(By.ID, "head")
    ctl.send_keys(Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    row = plan["data"]["layers"][0]["patterns"][2][6]
    best = max(range(len(row)), key=row.__getitem__)
    most = browser.find_element(By.CSS_SELECTOR, ".attention .most").text
    word = plan["traces"][0]["tokens"][best]
    assert most == f"Most attended by 'bank' in head 2: '{word}' {fmt(row[best], 3)}"
    toks = browser.find_elements(By.CSS_SELECTOR, ".attention .tok")
    ActionChains(browser).move_to_element(toks[2]).perform()
    readout = browser.find_elements(By.CSS_SELECTOR, ".attention .readout")[-1].text
    assert readout.endswith(fmt(row[2], 3)) and "in head 2" in readout
    toks[7].send_keys("")                                   # keyboard focus shows it too
    browser.execute_script("arguments[0].focus()", toks[7])
    readout = browser.find_elements(By.CSS_SELECTOR, ".attention .readout")[-1].text
    assert readout.endswith(fmt(row[7], 3))
    widths = browser.execute_script(
        "return [...document.querySelectorAll('.attention svg path')].map(p => "
        "parseFloat(p.style.strokeWidth))")
    assert max(range(len(widths)), key=widths.__getitem__) == best   # thickness = weight


@needs_browser
@pytest.mark.parametrize("name,beat,layer_path", [
    ("per_head", "query", None), ("context_qkv", "compare", "data.summary.lowest.layer"),
    ("attention_depth", "sink", "data.sink.max.layer"),
    ("attention_depth", "why", "data.tie.layer")])   # r32: deep_heads cut from the storyboard
def test_playing_to_a_beat_moves_outline_and_panels(browser, built, name, beat, layer_path):
    """The outline marks the beat, the layer control goes to the layer it names (from the
    specs' plan path), only its own cards are highlighted, and its subtitle shows."""
    from layerwise_pipeline.page.model import part
    plan, page = built[name]
    open_page(browser, page)
    if len(plan["layers"]) > 1:
        set_layer(browser, 2)                           # somewhere else first
    ids = [b["id"] for b in plan["beats"]]
    start = sum(b["duration"] for b in plan["beats"][:ids.index(beat)])
    browser.execute_script("const v = document.getElementById('video'); v.muted = true; "
                           "v.play(); v.currentTime = arguments[0];", start + 0.6)
    wait(browser, "return document.querySelector('#outline [aria-current=true]')"
                  ".dataset.beat === arguments[0]", beat)
    browser.execute_script("document.getElementById('video').pause()")
    b = plan["beats"][ids.index(beat)]
    shown_ids = browser.execute_script(
        "return [...document.querySelectorAll('.panel.shown')].map(p => p.dataset.id)")
    want = next(x for x in part(plan)["beats"] if x["id"] == beat)
    assert shown_ids and shown_ids == want["panels"], "only the beat's own cards"
    assert len(shown_ids) < len(browser.find_elements("css selector", ".panel"))
    if b["head"] is not None:
        assert browser.execute_script("return document.getElementById('head').value") == \
            str(b["head"])
    if layer_path:                                      # the beat names a layer: the control
        layer = resolve(plan, layer_path)               # follows it
        assert browser.execute_script("return document.getElementById('layer').value") == \
            str(plan["layers"].index(layer))
        assert browser.find_element("id", "layer-label").text == f"layer {layer}"
    cue = browser.execute_script(                       # the video's own subtitles
        "const t = document.getElementById('video').textTracks[0];"
        "return t.mode + '|' + [...t.activeCues].map(c => c.text).join(' ')")
    mode, text = cue.split("|", 1)
    assert mode == "showing" and text and text in (b["narration"] or "")


@needs_browser
def test_outline_click_seeks_the_video(browser, built):
    from selenium.webdriver.common.by import By
    plan, page = built["bank_drift"]
    open_page(browser, page)
    browser.find_element(By.CSS_SELECTOR, "#outline button[data-beat=gap]").click()
    start = sum(b["duration"] for b in plan["beats"][:[b["id"] for b in plan["beats"]]
                                                     .index("gap")])
    wait(browser, "return Math.abs(document.getElementById('video').currentTime - "
                  "arguments[0]) < 0.6", start)


@needs_browser
def test_outline_by_keyboard(browser, built):
    """Tab to a beat, arrows between beats, Enter plays from the focused one."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    plan, page = built["per_head"]
    open_page(browser, page)
    first = browser.find_element(By.CSS_SELECTOR, "#outline button")
    browser.execute_script("arguments[0].focus()", first)
    first.send_keys(Keys.ARROW_DOWN)
    first.parent.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ENTER)
    wait(browser, "return document.querySelector('#outline [aria-current=true]')"
                  ".dataset.beat === arguments[0]", plan["beats"][2]["id"])
    assert browser.execute_script("return document.getElementById('head').value") == \
        str(plan["beats"][2]["head"])


def test_page_without_storyboards_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "page", "--media",
                        str(tmp_path)], cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "FILE" in r.stderr and not any(tmp_path.iterdir())


@needs_browser
def test_chapter_page_follows_the_part_playing(browser, built, tmp_path):
    from selenium.webdriver.common.by import By
    plans = [(n, built[n][0]) for n in NAMES]
    page = build_chapter("A chapter", plans, "l", tmp_path / "media")
    lengths = [sum(b["duration"] for b in p["beats"]) for _, p in plans]
    standin_video(page.with_suffix(".mp4"), sum(lengths))
    open_page(browser, page)
    for i in (1, 0, 3):
        name, plan = plans[i]
        t = sum(lengths[:i]) + plan["beats"][0]["duration"] + 0.6      # its second beat
        browser.execute_script("document.getElementById('video').currentTime = arguments[0]", t)
        wait(browser, "return document.querySelector('#outline [aria-current=true]')"
                      ".dataset.beat === arguments[0]", plan["beats"][1]["id"])
        sentences = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#sentences li")]
        assert sentences == plan["sentences"], name
        paths = browser.execute_script(
            "return [...document.querySelectorAll('#panels .num')].map(e => e.dataset.path)")
        assert paths and all(isinstance(resolve(plan, p), (int, float)) for p in paths)


@needs_browser
def test_missing_video_says_so(browser, built, tmp_path):
    _, page = built["attention_depth"]
    lone = tmp_path / page.name
    shutil.copy(page, lone)
    open_page(browser, lone)
    msg = browser.find_element("id", "novideo").text
    assert "is not next to this page" in msg and "layerwise render" in msg
    assert not browser.find_element("id", "video").is_displayed()


@needs_browser
def test_keyboard_and_touch(browser, built):
    """Tab order: the controls, the outline, the video, then the cards; every card is
    focusable and says what its number is in visible text (a phone has no hover)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    _, page = built["context_qkv"]
    open_page(browser, page)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    stops = []
    for _ in range(3):
        stops.append(browser.execute_script(
            "const a = document.activeElement; return a.id || a.dataset.beat || a.tagName"))
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert stops == ["layer", "sentences", "same"], stops       # the slider, then the beats
    order = browser.execute_script(
        "const all = [...document.querySelectorAll('input, button, video, [tabindex]')]"
        ".filter(e => e.offsetParent !== null || e.tagName === 'VIDEO');"
        "const i = (sel) => all.indexOf(document.querySelector(sel));"
        "return [i('#layer'), i('#outline button'), i('#outline li:last-child button'),"
        "        i('#video'), i('.panel')]")
    assert order == sorted(order) and -1 not in order, order
    cards = browser.find_elements(By.CSS_SELECTOR, ".panel")
    for card in cards:
        assert card.get_attribute("tabindex") == "0"
        tip = card.find_element(By.CLASS_NAME, "tip")
        assert tip.is_displayed() and tip.text
        assert card.get_attribute("data-panel").startswith("data.")


@needs_browser
def test_one_layer_has_no_slider(browser, built):
    """per_head covers layer 0 only: a sentence says so, no slider that cannot move."""
    _, page = built["per_head"]
    open_page(browser, page)
    assert not browser.find_element("id", "layer").is_displayed()
    assert browser.find_element("id", "layer-only").text.startswith("layer 0 only")
    assert browser.find_element("id", "head").is_displayed()


@needs_browser
def test_track_from_the_srt_and_poster(browser, built, tmp_path):
    """The render's .srt becomes the video's default subtitles track (inlined WebVTT), and a
    preview's first beat frame its poster, copied next to the page: no network, file://."""
    from PIL import Image
    from layerwise_pipeline.page import build
    plan, page = built["bank_drift"]
    media = tmp_path / "media"
    folder = media / "videos" / "480p15"
    folder.mkdir(parents=True)
    shutil.copy(page.with_suffix(".mp4"), folder / page.with_suffix(".mp4").name)
    (folder / "bank_drift.srt").write_text(
        "1\n00:00:00,000 --> 00:00:04,000\nTake the word bank.\n\n"
        "2\n00:00:04,000 --> 00:00:09,000\nIn three sentences.\n", encoding="utf-8")
    frames = media / "frames" / "bank_drift"
    frames.mkdir(parents=True)
    Image.new("RGB", (64, 36), (40, 90, 160)).save(frames / f"00_{plan['beats'][0]['id']}.png")
    out = build(plan, "l", media)
    assert (folder / "bank_drift.poster.png").read_bytes() == \
        (frames / f"00_{plan['beats'][0]['id']}.png").read_bytes()
    open_page(browser, out)
    wait(browser, "const t = document.getElementById('video').textTracks[0];"
                  "return t && t.cues && t.cues.length === 2")
    got = browser.execute_script(
        "const v = document.getElementById('video'), t = v.textTracks[0];"
        "return [t.kind, t.mode, [...t.cues].map(c => c.text), v.getAttribute('poster')]")
    assert got == ["subtitles", "showing", ["Take the word bank.", "In three sentences."],
                   "bank_drift.poster.png"]
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    urls = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(u.startswith(folder.as_uri() + "/") or u.startswith("data:") for u in urls)


@needs_browser
@pytest.mark.parametrize("name", ["context_qkv", "per_head"])
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_match_goldens(browser, built, name, size, request):
    """Tolerance: framecheck's, on 2x2 block means: no block off by more than 24/255 in any
    channel, mean difference at most 0.5 (docs/page.md)."""
    from PIL import Image
    plan, page = built[name]
    open_page(browser, page, SIZES[size])
    if len(plan["layers"]) > 1:
        set_layer(browser, 3)
    browser.execute_script("document.activeElement.blur()")
    time.sleep(0.2)
    png = browser.get_screenshot_as_png()
    import io
    actual = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    assert actual.shape[:2] == SIZES[size][::-1]
    golden = GOLDEN / f"{name}-{size}.png"
    if request.config.getoption("--update-snapshots"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        Image.fromarray(actual).save(golden)
        return
    assert golden.is_file(), f"no golden {golden}: run with --update-snapshots and look at it"
    diff = fc.frame_difference(actual, fc.load_png(golden))
    if not fc.frames_match(diff):
        a, dpath = fc.write_failure("page", f"{name}-{size}", actual, fc.load_png(golden))
        pytest.fail(f"{name} at {size}: {diff}; see {a} and {dpath}")
