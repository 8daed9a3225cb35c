"""Faults in the render and chapter pipeline, hit as a user hits them.

Real processes on real files: `layerwise render --planned` / `layerwise chapter` killed with a
real SIGKILL at the moment the new video is being combined, a real SIGINT/SIGTERM, two real
concurrent builds, damaged part videos on disk, a real read-only place and a real full disk
(private mount namespaces, as in test_faults_core). Every fault must give one stderr line
(`error: ...` and exit 2; 130 for Ctrl-C, 143 for SIGTERM), leave the previous complete set
(video, sections, subtitles, manifest) under the final names, and leave no work folder.

Renders are tiny: the toy storyboard tests/data/toy_a.yaml at 480p15, the base set only up to
its first beat (`--until code`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
BOARD = DATA / "toy_a.yaml"
RES = "480p15"
pytestmark = pytest.mark.render


def env() -> dict:
    e = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
         "PYTHONPATH": str(ROOT)}
    return e


def cmd_render(media: Path, *args) -> list[str]:
    return [sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", "l", "--media",
            str(media), *map(str, args)]


def cmd_chapter(media: Path, chapter: Path = DATA / "chapter_small.yaml", *args) -> list[str]:
    return [sys.executable, "-m", "layerwise_pipeline", "chapter", "--chapter", str(chapter),
            "--media", str(media), *map(str, args)]


def run(cmd, timeout=300, wrap=None):
    return subprocess.run((wrap or []) + cmd, capture_output=True, text=True, cwd=ROOT,
                          env=env(), timeout=timeout)


def start(cmd, tmpdir: Path | None = None):
    e = env() if tmpdir is None else {**env(), "TMPDIR": str(tmpdir)}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=e, start_new_session=True)


def one_error(r, *needles, code: int = 2) -> str:
    stderr = r.stderr if isinstance(r.stderr, str) else r.stderr.read()
    lines = stderr.splitlines()
    assert r.returncode == code, (r.returncode, stderr[-3000:])
    assert len(lines) == 1, stderr[-3000:]
    assert "Traceback" not in stderr and lines[0].startswith("error: "), lines[0]
    assert "error: error:" not in stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def final_set(media: Path, name: str = "toy_a") -> dict:
    """Every final file of one storyboard's video set: relative path -> sha256."""
    d = media / "videos" / RES
    files = [d / f"{name}.mp4", d / f"{name}.srt", d / f"{name}.manifest.json",
             *sorted((d / "sections").glob(f"{name}*"))]
    return {str(f.relative_to(media)): sha(f) for f in files if f.is_file()}


def work_left(media: Path) -> list[str]:
    """Work folders and temporary files anywhere under media (there must be none)."""
    return [str(p) for p in Path(media).rglob("*")
            if p.name == ".work" or ".work/" in str(p) or ".tmp" in p.name
            or ".new-" in p.name or ".old-" in p.name]


def decoded_frames(path: Path) -> int:
    import av
    with av.open(str(path)) as c:
        return sum(1 for _ in c.decode(video=0))


def assert_complete_set(media: Path, name: str = "toy_a") -> dict:
    """The set under the final names belongs together: the manifest describes this very
    video (bytes, sha256, frames, all decodable), its sections exist and add up to it."""
    d = media / "videos" / RES
    record = json.loads((d / f"{name}.manifest.json").read_text())
    video = d / record["video"]
    facts = record["video_facts"]
    assert video.stat().st_size == facts["bytes"] and sha(video) == facts["sha256"]
    assert decoded_frames(video) == facts["frames"] > 0
    sections = json.loads((d / "sections" / f"{name}.json").read_text())
    assert [s["video"] for s in sections] == record["sections"]
    assert sum(decoded_frames(d / "sections" / s["video"]) for s in sections) == facts["frames"]
    listed = set(record["sections"])
    stray = [p.name for p in (d / "sections").glob(f"{name}_*.mp4") if p.name not in listed]
    assert not stray, stray
    return record


def copy_media(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    return dest


# --- fixtures: one planned and rendered toy media folder, one built chapter -----------------

@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> Path:
    media = tmp_path_factory.mktemp("planned")
    r = run([sys.executable, "-m", "layerwise_core", "plan", "--media", str(media), str(BOARD)])
    assert r.returncode == 0, r.stderr
    return media


@pytest.fixture(scope="module")
def rendered(planned, tmp_path_factory) -> Path:
    """toy_a rendered up to its first beat, plus its preview frames and review sheet."""
    media = copy_media(planned, tmp_path_factory.mktemp("rendered") / "media")
    r = run(cmd_render(media, "--until", "code", BOARD))
    assert r.returncode == 0, r.stderr
    r = run(cmd_render(media, "--preview", BOARD))
    assert r.returncode == 0, r.stderr
    assert_complete_set(media)
    assert not work_left(media)
    return media


@pytest.fixture(scope="module")
def chapter_built(tmp_path_factory) -> Path:
    media = tmp_path_factory.mktemp("chapter") / "media"
    r = run(cmd_chapter(media, DATA / "chapter_small.yaml", "--jobs", "2"))
    assert r.returncode == 0, r.stderr
    return media


def wait_for(predicate, proc, timeout=120.0, poll=0.02):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        got = predicate()
        if got:
            return got
        if proc.poll() is not None:
            out, err = proc.communicate()
            pytest.fail(f"process ended (rc {proc.returncode}) before the moment we waited "
                        f"for: {err[-2000:]}")
        time.sleep(poll)
    proc.kill()
    pytest.fail("timed out waiting")


def beat_scratch_of(tmpdir: Path, name: str):
    """A beat of `name` being drawn: its worker's scratch folder holds an encoded segment."""
    return lambda: list(tmpdir.glob(f"layerwise-{name}-*/**/partial_movie_files/*/*.mp4"))


def unrender_chapter_parts(media: Path) -> None:
    """Damage both parts and drop the beat cache, so the next build renders every beat."""
    for name in ("toy_a", "toy_b"):
        _truncate(part_video(media, name))
    shutil.rmtree(media / "beats")


def work_folder_of(media: Path, name: str = "toy_a"):
    return lambda: next(iter((media / ".work").glob(f"{name}.*")), None) \
        if (media / ".work").is_dir() else None


def processes_left(sid: int, grace: float = 10.0) -> list[str]:
    """Command lines of processes still in session `sid` after `grace` seconds (the
    multiprocessing resource tracker exits shortly after its parent, by itself)."""
    deadline = time.monotonic() + grace
    while processes_in_session(sid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = []
    for pid in processes_in_session(sid):
        try:
            left.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode())
        except OSError:
            pass
    return left


def processes_in_session(sid: int) -> list[int]:
    pids = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if os.getsid(int(p.name)) == sid:
                    pids.append(int(p.name))
            except OSError:
                pass
    return pids


# ============================================================================================
# render: the final names never hold a broken or mismatched set
# ============================================================================================

def test_kill_9_while_the_new_video_is_combined_keeps_the_old_set(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    before = final_set(media)
    proc = start(cmd_render(media, BOARD))                     # the whole storyboard: new set
    work = wait_for(work_folder_of(media), proc)
    combined = work / "videos" / RES / "toy_a.mp4"
    while proc.poll() is None and not combined.exists():       # the combine step begins
        pass
    assert proc.poll() is None, "the render ended before its combine step could be caught"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert final_set(media) == before                          # the old set, byte for byte
    assert_complete_set(media)
    # the next run finds the abandoned work folder (its owner's lock is gone) and removes it
    r = run(cmd_render(media, BOARD))
    assert r.returncode == 0, r.stderr
    record = assert_complete_set(media)
    assert [s.split("_", 3)[-1] for s in record["sections"]] == ["code.mp4", "step.mp4"]
    assert not work_left(media)


def test_kill_9_mid_render_keeps_the_old_set(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    before = final_set(media)
    proc = start(cmd_render(media, BOARD))
    work = wait_for(work_folder_of(media), proc)
    wait_for(lambda: list(work.rglob("partial_movie_files/*/*.mp4")), proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert final_set(media) == before
    assert_complete_set(media)


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.3])
@pytest.mark.parametrize("sig,code,word", [(signal.SIGINT, 130, "interrupted"),
                                           (signal.SIGTERM, 143, "terminated")])
def test_signal_mid_render_exits_cleanly(rendered, tmp_path, sig, code, word, delay):
    """At any moment of the encoding (a signal that landed inside the encoder queue's lock
    once left its worker waiting forever, or was swallowed and the render went on)."""
    media = copy_media(rendered, tmp_path / "media")
    before = final_set(media)
    proc = start(cmd_render(media, BOARD))
    work = wait_for(work_folder_of(media), proc)
    wait_for(lambda: list(work.rglob("partial_movie_files/*/*.mp4")), proc)
    time.sleep(delay)
    proc.send_signal(sig)
    proc.wait(timeout=120)
    one_error(proc, word, code=code)
    assert final_set(media) == before
    assert not work_left(media)


def test_two_concurrent_renders_of_one_storyboard(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    procs = [start(cmd_render(media, BOARD)) for _ in range(2)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    for rc, out, err in results:
        assert rc == 0 and "Traceback" not in err, err
    record = assert_complete_set(media)
    assert len(record["sections"]) == 2
    assert not work_left(media)


def test_kill_9_during_preview_keeps_frames_and_review_sheet(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    frames = {p.name: sha(p) for p in (media / "frames" / "toy_a").glob("*.png")}
    sheet = sha(media / "review" / "toy_a.png")
    assert len(frames) == 2
    proc = start(cmd_render(media, "--preview", BOARD))
    work = wait_for(work_folder_of(media), proc)
    wait_for(lambda: list((work / "frames").rglob("*.png")), proc, poll=0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert {p.name: sha(p) for p in (media / "frames" / "toy_a").glob("*.png")} == frames
    assert sha(media / "review" / "toy_a.png") == sheet
    r = run(cmd_render(media, "--preview", BOARD))            # and the next preview works
    assert r.returncode == 0, r.stderr
    assert not work_left(media)


def test_corrupt_plan_is_one_line(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    (media / "plans" / "toy_a.json").write_text('{"storyboard": ')
    one_error(run(cmd_render(media, BOARD)), "not a valid plan")


# --- filesystem faults: real read-only place, real full disk --------------------------------

def in_namespace(mounts: list[str], inner: list[str], inspect: Path):
    """Run `inner` after `mounts` in a private mount namespace; list `inspect` (path ->
    sha256 or 'dir') while still inside it. Returns (result, listing)."""
    lister = ("import hashlib, json, pathlib, sys; d = pathlib.Path(sys.argv[1]); "
              "print('@@' + json.dumps({p.relative_to(d).as_posix(): 'dir' if p.is_dir() else "
              "hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob('*'))}))")
    script = (" && ".join(mounts) + " && " + shlex.join(inner) + "; rc=$?; "
              + shlex.join([sys.executable, "-c", lister, str(inspect)]) + "; exit $rc")
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    r = subprocess.run([*unshare, "sh", "-c", script], capture_output=True, text=True,
                       cwd=ROOT, env=env(), timeout=300)
    head, _, listing = r.stdout.rpartition("@@")
    r.stdout = head
    assert listing, r.stderr
    return r, json.loads(listing)


def listing(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): "dir" if p.is_dir() else sha(p)
            for p in sorted(Path(folder).rglob("*"))}


def test_media_read_only_keeps_everything(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    before = listing(media)
    q = shlex.quote(str(media))
    r, inside = in_namespace([f"mount --bind {q} {q}", f"mount -o remount,ro,bind {q}"],
                             cmd_render(media, BOARD), media)
    one_error(r, "read-only file system")
    assert inside == before == listing(media)


def test_media_disk_full_keeps_the_old_set(rendered, tmp_path):
    src = copy_media(rendered, tmp_path / "src")
    media = tmp_path / "media"
    media.mkdir()
    used = sum(p.stat().st_size for p in src.rglob("*") if p.is_file())
    room = (used * 2 + 300_000) // 1024            # the old set and its copies fit, not more
    q = shlex.quote(str(media))
    r, inside = in_namespace([f"mount -t tmpfs -o size={room}k tmpfs {q}",
                              f"cp -a {shlex.quote(str(src))}/. {q}/"],
                             cmd_render(media, BOARD), media)
    one_error(r, "no space left on device")
    assert inside == listing(src)                   # old set intact, no work folder


def test_chapter_media_read_only_keeps_everything(chapter_built, tmp_path):
    media = copy_media(chapter_built, tmp_path / "media")
    _truncate(part_video(media, "toy_a"))               # work that cannot be done
    before = listing(media)
    q = shlex.quote(str(media))
    r, inside = in_namespace([f"mount --bind {q} {q}", f"mount -o remount,ro,bind {q}"],
                             cmd_chapter(media), media)
    one_error(r, "read-only file system")
    assert inside == before == listing(media)


def test_media_is_a_file_or_under_a_file(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    for media in (f, f / "media"):
        for cmd in (cmd_render(media, BOARD), cmd_chapter(media)):
            line = one_error(run(cmd))
            assert str(f) in line
    assert f.read_text() == "x" and sorted(tmp_path.iterdir()) == [f]


def test_frames_under_a_file_keeps_the_videos(rendered, tmp_path):
    media = copy_media(rendered, tmp_path / "media")
    before = listing(media)
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    one_error(run(cmd_render(media, "--preview", "--frames", blocker / "frames", BOARD)),
              "is a file")
    assert listing(media) == before and blocker.read_text() == "x"


# ============================================================================================
# chapter: damaged parts are rebuilt, builds exclude each other, Ctrl-C is clean
# ============================================================================================

def part_video(media: Path, name: str) -> Path:
    return media / "chapter" / "l" / name / "videos" / RES / f"{name}.mp4"


def chapter_ok(media: Path) -> dict:
    out = media / "videos" / RES
    record = json.loads((out / "chapter_small.manifest.json").read_text())
    frames = decoded_frames(out / "chapter_small.mp4")
    assert frames == sum(p["video_facts"]["frames"] for p in record["parts"]) > 0
    for p in record["parts"]:
        v = part_video(media, p["storyboard"]["name"])
        assert sha(v) == p["video_facts"]["sha256"]
    return record


def _truncate(p: Path):
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])


def _zero_tail(p: Path):
    data = bytearray(p.read_bytes())
    data[len(data) // 2:] = bytes(len(data) - len(data) // 2)
    p.write_bytes(bytes(data))


def _empty(p: Path):
    p.write_bytes(b"")


def _bad_manifest(p: Path):
    p.with_suffix(".manifest.json").write_text("{")


@pytest.mark.parametrize("damage", [_truncate, _zero_tail, _empty, _bad_manifest],
                         ids=["truncated", "zeroed-tail", "empty", "bad-manifest"])
def test_damaged_part_is_rebuilt(chapter_built, tmp_path, damage):
    media = copy_media(chapter_built, tmp_path / "media")
    damage(part_video(media, "toy_a"))
    r = run(cmd_chapter(media))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "rendered 1 (toy_a)" in r.stdout
    record = chapter_ok(media)
    assert record["rendered"] == {"toy_a": True, "toy_b": False}


def test_two_concurrent_chapter_builds(chapter_built, tmp_path):
    media = copy_media(chapter_built, tmp_path / "media")
    _truncate(part_video(media, "toy_b"))               # so the first build has work to do
    first = start(cmd_chapter(media, DATA / "chapter_small.yaml", "--jobs", "1"))
    wait_for(work_folder_of(media / "chapter" / "l" / "toy_b", "toy_b"), first)
    second = start(cmd_chapter(media, DATA / "chapter_small.yaml", "--jobs", "1"))
    out1, err1 = first.communicate(timeout=300)
    out2, err2 = second.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, (err1, err2)
    assert "Traceback" not in err1 + err2
    assert err2.strip() == f"another chapter build (pid {first.pid}) is running; waiting"
    assert "rendered 1 (toy_b)" in out1 and "rendered 0" in out2
    chapter_ok(media)
    assert not work_left(media)


def test_ctrl_c_in_a_parallel_chapter_build(chapter_built, tmp_path):
    media = copy_media(chapter_built, tmp_path / "media")
    before = sha(media / "videos" / RES / "chapter_small.mp4")
    unrender_chapter_parts(media)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = start(cmd_chapter(media, DATA / "chapter_small.yaml", "--jobs", "2"), scratch)
    wait_for(lambda: len({p.parts[len(scratch.parts)] for p in beat_scratch_of(scratch, "toy_*")()})
             >= 2, proc)                                # both workers are drawing a beat
    os.killpg(proc.pid, signal.SIGINT)                  # as a terminal's Ctrl-C does
    proc.wait(timeout=120)
    one_error(proc, "interrupted", code=130)
    assert not work_left(media)
    assert processes_left(proc.pid) == []               # no worker left running
    assert list(scratch.iterdir()) == []                # every worker removed its scratch
    assert sha(media / "videos" / RES / "chapter_small.mp4") == before


def test_sigint_to_the_chapter_parent_only(chapter_built, tmp_path):
    media = copy_media(chapter_built, tmp_path / "media")
    unrender_chapter_parts(media)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = start(cmd_chapter(media, DATA / "chapter_small.yaml", "--jobs", "2"), scratch)
    wait_for(beat_scratch_of(scratch, "toy_a"), proc)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    one_error(proc, "interrupted", code=130)
    assert not work_left(media)
    assert processes_left(proc.pid) == []
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("text,line,needle", [
    ('title: "T"\nstoryboards:\n  - file: toy_a.yaml\n    title: [unclosed\n', 5, "(yaml)"),
    ('title: "T"\nstoryboards:\n  - file: toy_a.yaml\n    title: "A"\n    title: "B"\n', 5,
     "duplicate key (first at line 4)"),
    ('title: "T"\n\nstoryboards: []\n', 3, "storyboards: needs a non-empty list"),
    ('title: "T"\nstoryboards:\n  - file: toy_a.yaml\n  - title: "no file"\n', 4,
     "storyboards[1]: needs 'file'"),
], ids=["syntax", "duplicate", "empty", "no-file"])
def test_chapter_yaml_errors_name_the_real_line(tmp_path, text, line, needle):
    boards = tmp_path / "boards"
    shutil.copytree(DATA, boards)
    chapter = boards / "chapter_small.yaml"
    chapter.write_text(text)
    media = tmp_path / "media"
    one_error(run(cmd_chapter(media, chapter)), f"{chapter}:", needle)
    msg = run(cmd_chapter(media, chapter)).stderr
    assert msg.startswith(f"error: {chapter}:") and f":{line}:" in msg.split(needle)[0], msg
    assert not media.exists()


def test_bad_storyboard_in_chapter_says_error_once(tmp_path):
    boards = tmp_path / "boards"
    shutil.copytree(DATA, boards)
    text = (boards / "toy_b.yaml").read_text().replace("model: toy-2d", "model: no-such-model")
    (boards / "toy_b.yaml").write_text(text)
    r = run(cmd_chapter(tmp_path / "media", boards / "chapter_small.yaml"))
    one_error(r, "toy_b.yaml", "no-such-model")


# --- a death in the middle of publishing: the next run finishes the set ---------------------

DIE_AFTER_RENAMES = """
import os, sys
import layerwise_pipeline.staging as staging
from layerwise_pipeline.main import main
k = int(sys.argv[1])
apply = staging._apply

def apply_and_die(work, media, plan):   # the real moves, with the process dying after k
    real, done = os.replace, [0]
    def replace(a, b):
        real(a, b)
        done[0] += 1
        if done[0] == k:
            os._exit(9)
    os.replace = replace
    apply(work, media, plan)

staging._apply = apply_and_die
sys.exit(main(["render", "--planned", "--jobs", "1", *sys.argv[2:]]))
"""


@pytest.mark.parametrize("renames", [1, 4])
def test_death_between_the_renames_is_finished_by_the_next_run(rendered, tmp_path, renames):
    media = copy_media(rendered, tmp_path / "media")
    r = run([sys.executable, "-c", DIE_AFTER_RENAMES, str(renames), "--quality", "l",
             "--media", str(media), str(BOARD)])
    assert r.returncode == 9, r.stderr
    journal = list((media / ".work").glob("toy_a.*/PUBLISH.json"))
    assert journal, "the process did not die while publishing"
    # the final names are mid-way: no manifest, so nothing trusts this state ...
    assert not (media / "videos" / RES / "toy_a.manifest.json").exists()
    # ... and the next run (here a quick preview) rolls the publish forward before its work
    r = run(cmd_render(media, "--preview", BOARD))
    assert r.returncode == 0, r.stderr
    record = assert_complete_set(media)
    assert len(record["sections"]) == 2                # the whole new set, not the old one
    assert not work_left(media)
