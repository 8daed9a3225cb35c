"""Faults in the core CLI, hit as a user hits them: `python -m layerwise_core ...` on real files.

Every fault must give exactly one stderr line (`error: ...`, exit 2; Ctrl-C: 130), leave no
partial or temporary file, and leave earlier outputs byte-for-byte intact.

Read-only places and full disks are real: a read-only tmpfs or bind mount, and a tmpfs of a
few kB, each mounted in a private mount namespace (`unshare -m`; `unshare -rm` when not root),
because chmod does not stop root. Nothing is mounted outside the test's own process.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 1_000_000_000        # bytes of address space for the YAML bomb runs
BOMB_LEVELS = 9                     # 9**9 = 387 M "lol"s once expanded


def env_for(cache: Path | None) -> dict:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": str(ROOT)}
    if cache is not None:
        env["LAYERWISE_CACHE"] = str(cache)
    return env


def layerwise(*args, cache: Path | None = None, timeout: float = 120, preexec=None,
              wrap: list[str] | None = None, cwd: Path | None = None):
    cmd = [sys.executable, "-m", "layerwise_core", *map(str, args)]
    return subprocess.run((wrap or []) + cmd, capture_output=True, text=True, timeout=timeout,
                          env=env_for(cache), preexec_fn=preexec, cwd=cwd or ROOT)


def one_error(r, *needles, code: int = 2) -> str:
    """Exit `code`, exactly one stderr line, `error: ...`, no traceback; returns the line."""
    lines = r.stderr.splitlines()
    assert r.returncode == code, (r.returncode, r.stderr[-2000:])
    assert len(lines) == 1, r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    if code == 2:
        assert lines[0].startswith("error: "), lines[0]
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def snapshot(folder: Path) -> dict:
    """Every entry under `folder` (dot-files too): path -> sha256 of the content or 'dir'."""
    out = {}
    for p in sorted(Path(folder).rglob("*")):
        rel = p.relative_to(folder).as_posix()
        out[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


# --- private mount namespaces: a real read-only place and a real full disk ------------------

def _unshare() -> list[str]:
    return ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]


def in_namespace(mounts: list[str]) -> list[str]:
    """A command prefix that runs the rest after `mounts` in a private mount namespace."""
    script = " && ".join(mounts) + ' && exec "$@"'
    return [*_unshare(), "sh", "-c", script, "sh"]


def tmpfs(path: Path, size: str, *options: str) -> str:
    opts = ",".join((f"size={size}",) + options)
    return f"mount -t tmpfs -o {opts} tmpfs {shlex.quote(str(path))}"


def read_only_bind(path: Path) -> str:
    q = shlex.quote(str(path))
    return f"mount --bind {q} {q} && mount -o remount,ro,bind {q}"


_LIST = ("import hashlib, json, pathlib, sys; d = pathlib.Path(sys.argv[1]); "
         "print('@@' + json.dumps({p.relative_to(d).as_posix(): 'dir' if p.is_dir() else "
         "hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob('*'))}))")


def layerwise_ns(mounts: list[str], *args, inspect: Path, cache: Path | None = None,
                 timeout: float = 120):
    """Run `layerwise args` after `mounts` in a private mount namespace; afterwards, still
    inside it, take `snapshot(inspect)`. Returns (result, snapshot)."""
    import json
    cmd = [sys.executable, "-m", "layerwise_core", *map(str, args)]
    inner = (shlex.join(cmd) + "; rc=$?; " + shlex.join([sys.executable, "-c", _LIST,
                                                          str(inspect)]) + "; exit $rc")
    r = subprocess.run(in_namespace(mounts) + ["sh", "-c", inner], capture_output=True,
                       text=True, timeout=timeout, env=env_for(cache), cwd=ROOT)
    head, _, listing = r.stdout.rpartition("@@")
    r.stdout = head
    return r, json.loads(listing)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture(scope="module")
def namespaces_work(tmp_path_factory):
    d = tmp_path_factory.mktemp("ns")
    r = subprocess.run(in_namespace([tmpfs(d, "8k"), f"touch {d}/x"]) + ["true"],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"unshare/mount are needed for these tests: {r.stderr}"
    assert not (d / "x").exists()          # the mount was private
    return True


# --- a small warm cache of our own -----------------------------------------------------------

TOY = "toy-2d"


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> Path:
    """A private cache holding the toy trace of 'bank' and a MiniLM trace."""
    cache = tmp_path_factory.mktemp("cache")
    for model, sentence in ((TOY, "bank"), ("minilm-l6", "The bank was closed.")):
        r = layerwise("trace", "--model", model, "--sentence", sentence, cache=cache)
        assert r.returncode == 0, r.stderr
    return cache


def copy_cache(warm: Path, dest: Path) -> Path:
    shutil.copytree(warm, dest)
    return dest


TOY_BOARD = """\
# a toy storyboard
template: toy_loop
title: "A toy"
model: toy-2d
sentences:
  - {sentence}
focus: bank
layers: all
beats:
  - id: code
    show: [code, x]
    layer: 0
    caption: "One token."
    narration: "Here is the toy."
"""


def toy_board(folder: Path, sentence: str = "bank", name: str = "toy_a") -> Path:
    p = folder / f"{name}.yaml"
    p.write_text(TOY_BOARD.format(sentence=sentence), encoding="utf-8")
    return p


# ============================================================================================
# YAML: alias bombs, endless inputs, deep nesting, recursion, duplicate keys
# ============================================================================================

def billion_laughs(path: Path) -> Path:
    names = "abcdefghijklmnop"
    lines = [f'{names[0]}: &{names[0]} ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, BOMB_LEVELS):
        prev = names[i - 1]
        lines.append(f"{names[i]}: &{names[i]} [" + ",".join([f"*{prev}"] * 9) + "]")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_billion_laughs_fails_fast_with_bounded_memory(tmp_path):
    bomb = billion_laughs(tmp_path / "bomb.yaml")
    t0 = time.monotonic()
    r = layerwise("validate", bomb, preexec=limit_memory, timeout=60)
    one_error(r, f"{bomb}:", "(yaml)", "alias")
    assert time.monotonic() - t0 < 30


def test_long_text_aliased_many_times_is_a_bomb_too(tmp_path):
    p = tmp_path / "bomb2.yaml"
    p.write_text('big: &a "' + "x" * 500_000 + '"\nfooter: [' + ",".join(["*a"] * 2000) + "]\n")
    r = layerwise("validate", p, preexec=limit_memory, timeout=60)
    one_error(r, f"{p}:2:", "aliases are expanded")


def test_billion_laughs_in_plan_fails_before_any_work(tmp_path):
    bomb = billion_laughs(tmp_path / "bomb.yaml")
    media = tmp_path / "media"
    r = layerwise("plan", bomb, "--media", media, cache=tmp_path / "c", preexec=limit_memory,
                  timeout=60)
    one_error(r, "alias")
    assert not media.exists() and not (tmp_path / "c").exists()


def test_dev_zero_as_storyboard_stops_at_the_size_limit():
    r = layerwise("validate", "/dev/zero", preexec=limit_memory, timeout=60)
    one_error(r, "/dev/zero:1:", "larger than")


def test_huge_sparse_file_is_not_read_whole(tmp_path):
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as f:
        f.write(b"title: x\n")
        f.truncate(8 * 1024 ** 3)           # 8 GB of (sparse) zeros
    t0 = time.monotonic()
    r = layerwise("validate", huge, preexec=limit_memory, timeout=60)
    one_error(r, f"{huge}:1:", "larger than")
    assert time.monotonic() - t0 < 30


@pytest.mark.parametrize("kind", ["flow", "block"])
def test_deep_nesting_is_a_line_error_not_recursion(tmp_path, kind):
    p = tmp_path / "deep.yaml"
    n = 20_000
    if kind == "flow":
        p.write_text("template: toy_loop\nbeats: " + "[" * n + "]" * n + "\n")
    else:
        p.write_text("template: toy_loop\nbeats:\n" + "".join(f"{' ' * i}- \n" for i in range(200)))
    r = layerwise("validate", p, timeout=60)
    line = one_error(r, f"{p}:", "nested deeper than")
    assert "RecursionError" not in line and f"{p}:1:" not in line


def test_recursive_alias_is_a_line_error(tmp_path):
    p = tmp_path / "rec.yaml"
    p.write_text("template: toy_loop\nbeats: &b\n  - id: a\n    more: *b\n")
    r = layerwise("validate", p, timeout=60)
    one_error(r, f"{p}:4:", "recursive")


def test_undefined_alias_is_a_line_error(tmp_path):
    p = tmp_path / "undef.yaml"
    p.write_text("template: toy_loop\n\ntitle: *nothing\n")
    one_error(layerwise("validate", p), f"{p}:3:", "undefined alias")


def test_duplicate_key_in_a_beat_names_both_lines(tmp_path):
    p = tmp_path / "dup.yaml"
    text = TOY_BOARD.format(sentence="bank").replace("    layer: 0\n",
                                                     "    layer: 1\n    caption: c\n"
                                                     "    layer: 2\n").replace(
        '    caption: "One token."\n', "")
    p.write_text(text)
    lines = text.splitlines()
    first = lines.index("    layer: 1") + 1
    second = lines.index("    layer: 2") + 1
    one_error(layerwise("validate", p),
              f"error: {p}:{second}: beats[0].layer: duplicate key (first at line {first})")


def test_duplicate_top_level_key(tmp_path):
    p = toy_board(tmp_path)
    p.write_text(p.read_text() + "title: again\n")
    n = len(p.read_text().splitlines())
    one_error(layerwise("validate", p), f"{p}:{n}: title: duplicate key (first at line 3)")


def test_merge_keys_are_not_duplicates(tmp_path):
    p = tmp_path / "merge.yaml"
    p.write_text(TOY_BOARD.format(sentence="bank").replace(
        "beats:\n  - id: code\n", "beats:\n  - &b0\n    id: code\n") +
        "  - <<: *b0\n    id: again\n")
    r = layerwise("validate", p)
    assert r.returncode == 0, r.stderr


def test_storyboard_that_is_a_folder_or_not_utf8(tmp_path):
    one_error(layerwise("validate", tmp_path), f"{tmp_path}:1: (file):")
    p = tmp_path / "latin1.yaml"
    p.write_bytes("title: caf\xe9\n".encode("latin-1"))
    one_error(layerwise("validate", p), f"{p}:1: (file): not UTF-8")


def test_huge_value_is_not_echoed(tmp_path):
    p = toy_board(tmp_path)
    p.write_text(p.read_text().replace('title: "A toy"', "title: [" + "12345," * 3000 + "1]"))
    line = one_error(layerwise("validate", p), f"{p}:3: title: must be non-empty text")
    assert len(line) < 600


# ============================================================================================
# Plan-time errors: the real line, a short message, never blaming focus for the cache
# ============================================================================================

def test_plan_sentence_error_names_the_real_line(tmp_path, warm):
    p = toy_board(tmp_path, sentence='"river bank"')
    line_no = p.read_text().splitlines().index('  - "river bank"') + 1
    r = layerwise("plan", p, "--media", tmp_path / "media", cache=warm)
    one_error(r, f"{p}:{line_no}: sentences[0]:", "toy-2d holds one token")
    assert not (tmp_path / "media").exists()


def test_toy_sentence_error_does_not_echo_15kb(tmp_path, warm):
    long = "word " * 3000
    r = layerwise("trace", "--model", TOY, "--sentence", long, cache=warm)
    line = one_error(r, "toy-2d holds one token", "3000 words")
    assert len(line) < 300


# ============================================================================================
# Filesystem faults: --out, --media, the cache
# ============================================================================================

def test_out_is_an_existing_folder_leaves_nothing(tmp_path, warm):
    place = tmp_path / "place"
    (place / "existing").mkdir(parents=True)
    (place / "earlier.npz").write_bytes(b"earlier output")
    before = snapshot(place)
    r = layerwise("trace", "--model", "minilm-l6", "--sentence", "The bank was closed.",
                  "--out", place / "existing", cache=warm)
    one_error(r, f"{place / 'existing'}", "folder")
    assert snapshot(place) == before            # in particular no attn-weights/ folder


def test_out_under_a_regular_file(tmp_path, warm):
    f = tmp_path / "afile"
    f.write_text("keep me")
    before = snapshot(tmp_path)
    r = layerwise("trace", "--model", TOY, "--sentence", "bank", "--out", f / "sub" / "t.npz",
                  cache=warm)
    one_error(r, f"{f} is a file")
    assert snapshot(tmp_path) == before


def test_out_new_folders_are_removed_on_failure(tmp_path, warm, namespaces_work):
    """A full disk after `--out a/b/t.npz` created a/b: the folders go too."""
    disk = tmp_path / "disk"
    disk.mkdir()
    r, left = layerwise_ns([tmpfs(disk, "64k")], "trace", "--model", "minilm-l6",
                           "--sentence", "The bank was closed.", "--out", disk / "a" / "b" /
                           "t.npz", inspect=disk, cache=warm)
    one_error(r, "no space left on device")
    assert left == {}


def test_out_is_a_device_is_refused():
    before = os.stat("/dev/null")
    r = layerwise("trace", "--model", TOY, "--sentence", "bank", "--out", "/dev/null")
    one_error(r, "/dev/null", "not a regular file")
    after = os.stat("/dev/null")
    assert (after.st_mode, after.st_rdev) == (before.st_mode, before.st_rdev)


def test_out_where_no_folder_can_be_made():
    one_error(layerwise("trace", "--model", TOY, "--sentence", "bank", "--out",
                        "/proc/layerwise-test/t.npz"), "/proc/layerwise-test")


def test_out_read_only_keeps_earlier_output(tmp_path, warm, namespaces_work):
    place = tmp_path / "ro"
    place.mkdir()
    (place / "t.npz").write_bytes(b"earlier output")
    before = snapshot(place)
    r, inside = layerwise_ns([read_only_bind(place)], "trace", "--model", TOY, "--sentence",
                             "bank", "--out", place / "t.npz", inspect=place, cache=warm)
    one_error(r, "read-only file system")
    assert inside == before and snapshot(place) == before


@pytest.mark.parametrize("room", ["none", "sidecar-only"])
def test_out_disk_full_keeps_earlier_output(tmp_path, warm, namespaces_work, room):
    """ENOSPC on a real (tiny) filesystem, either at the weights sidecar or at the trace
    after the sidecar fitted: no partial file, no sidecar, the earlier trace intact."""
    disk = tmp_path / "disk"
    disk.mkdir()
    side = next((warm / "traces" / "attn-weights").glob("minilm-l6-*.npz"))
    size = "8k" if room == "none" else f"{side.stat().st_size // 4096 * 4 + 16}k"
    seed = tmp_path / "earlier.npz"
    seed.write_bytes(b"earlier output")
    r, left = layerwise_ns([tmpfs(disk, size), f"cp {seed} {disk}/t.npz"], "trace", "--model",
                           "minilm-l6", "--sentence", "The bank was closed.", "--out",
                           disk / "t.npz", inspect=disk, cache=warm)
    one_error(r, "no space left on device")
    assert left == {"t.npz": sha(b"earlier output")}


def test_cache_is_a_file(tmp_path):
    f = tmp_path / "cachefile"
    f.write_text("not a folder")
    r = layerwise("--cache", f, "trace", "--model", TOY, "--sentence", "bank")
    one_error(r, f"{f} is a file")
    assert f.read_text() == "not a folder"


def test_cache_read_only_and_empty(tmp_path, namespaces_work):
    cache = tmp_path / "cache"
    cache.mkdir()
    r, left = layerwise_ns([tmpfs(cache, "64k", "ro")], "--cache", cache, "trace", "--model",
                           TOY, "--sentence", "bank", inspect=cache)
    one_error(r, "read-only file system")
    assert left == {}


def test_cache_read_only_but_warm_still_serves(tmp_path, warm, namespaces_work):
    cache = copy_cache(warm, tmp_path / "cache")
    before = snapshot(cache)
    r, inside = layerwise_ns([read_only_bind(cache)], "--cache", cache, "trace", "--model",
                             TOY, "--sentence", "bank", inspect=cache)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert inside == before == snapshot(cache)


@pytest.mark.parametrize("model", [TOY, "minilm-l6"])
def test_cache_disk_full(tmp_path, namespaces_work, model):
    """toy: the sidecar fits in 8 kB, the trace does not; MiniLM: nothing fits."""
    cache = tmp_path / "cache"
    cache.mkdir()
    r, left = layerwise_ns([tmpfs(cache, "8k")], "--cache", cache, "trace", "--model", model,
                           "--sentence", "bank", inspect=cache)
    one_error(r, "no space left on device")
    assert not [k for k in left if k.rsplit("/", 1)[-1].startswith(".")], left
    assert not [k for k in left if k.startswith("traces/") and k.count("/") == 1
                and left[k] != "dir"], left         # no trace file


def test_media_is_a_file(tmp_path, warm):
    media = tmp_path / "media"
    media.write_text("a file")
    r = layerwise("plan", toy_board(tmp_path), "--media", media, cache=warm)
    one_error(r, f"{media} is a file")
    assert media.read_text() == "a file"


def test_media_read_only_keeps_earlier_plan(tmp_path, warm, namespaces_work):
    media = tmp_path / "media"
    board = toy_board(tmp_path)
    assert layerwise("plan", board, "--media", media, cache=warm).returncode == 0
    before = snapshot(media)
    r, inside = layerwise_ns([read_only_bind(media)], "plan", board, "--media", media,
                             inspect=media, cache=warm)
    one_error(r, "read-only file system")
    assert inside == before == snapshot(media)


def test_media_disk_full_keeps_earlier_plan(tmp_path, warm, namespaces_work):
    media = tmp_path / "media"
    media.mkdir()
    board = toy_board(tmp_path)
    r, inside = layerwise_ns([tmpfs(media, "4k"), f"mkdir {media}/plans",
                              f"printf earlier > {media}/plans/toy_a.json"],
                             "plan", board, "--media", media, inspect=media, cache=warm)
    one_error(r, "no space left on device")
    assert inside == {"plans": "dir", "plans/toy_a.json": sha(b"earlier")}


def test_output_files_follow_the_umask(tmp_path, warm):
    for mask, mode in ((0o022, 0o644), (0o002, 0o664)):
        out = tmp_path / f"u{mask:o}"
        r = layerwise("trace", "--model", TOY, "--sentence", "bank", "--out", out / "t.npz",
                      cache=warm, preexec=lambda m=mask: os.umask(m))
        assert r.returncode == 0, r.stderr
        r = layerwise("plan", toy_board(tmp_path), "--media", out, cache=warm,
                      preexec=lambda m=mask: os.umask(m))
        assert r.returncode == 0, r.stderr
        for f in (out / "t.npz", out / "plans" / "toy_a.json",
                  next((out / "attn-weights").iterdir())):
            assert f.stat().st_mode & 0o777 == mode, (f, oct(f.stat().st_mode))


# ============================================================================================
# The cache checks what it serves
# ============================================================================================

def _trace_file(cache: Path, model: str) -> Path:
    return next((cache / "traces").glob(f"{model}-*.npz"))


def _flip_member_byte(path: Path, member_prefix: str) -> None:
    """Flip one byte inside the stored data of a member (not its header)."""
    with zipfile.ZipFile(path) as z:
        info = next(i for i in z.infolist() if i.filename.startswith(member_prefix))
    data = bytearray(path.read_bytes())
    # local header: 30 bytes + name + extra; the member's data follows
    name_len = int.from_bytes(data[info.header_offset + 26:info.header_offset + 28], "little")
    extra_len = int.from_bytes(data[info.header_offset + 28:info.header_offset + 30], "little")
    start = info.header_offset + 30 + name_len + extra_len
    data[start + info.compress_size // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _edit_tokens(path: Path, dest: Path | None = None) -> Path:
    """Re-save a trace (a valid npz, valid CRCs) with one token of its metadata changed."""
    import json
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(arrays["__meta__"].tobytes())
    meta["tokens"][1] = "EVIL"
    arrays["__meta__"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), np.uint8)
    dest = dest or path
    with open(dest, "wb") as f:
        np.savez(f, **arrays)
    return dest


def test_flipped_byte_in_weights_sidecar_is_rebuilt(tmp_path, warm):
    cache = copy_cache(warm, tmp_path / "cache")
    side = next((cache / "traces" / "attn-weights").glob("minilm-l6-*.npz"))
    good = side.read_bytes()
    _flip_member_byte(side, "blocks.2.attn.W_K")
    r = layerwise("trace", "--model", "minilm-l6", "--sentence", "The bank was closed.",
                  cache=cache)
    assert r.returncode == 0, r.stderr
    assert "rebuilding corrupt" in r.stderr and "Traceback" not in r.stderr
    assert side.read_bytes() == good            # the same weights, rebuilt


def test_flipped_byte_in_weights_is_never_blamed_on_focus(tmp_path, warm):
    """The case from the issue: a plan used to fail with `focus: ... CRC` after the cache
    served a trace whose sidecar was corrupt. Now the sidecar is rebuilt and the plan works."""
    cache = copy_cache(warm, tmp_path / "cache")
    side = next((cache / "traces" / "attn-weights").glob("toy-2d-*.npz"))
    _flip_member_byte(side, "blocks.1.attn.W_V")
    r = layerwise("plan", toy_board(tmp_path), "--media", tmp_path / "media", cache=cache)
    assert r.returncode == 0, r.stderr
    assert "focus" not in r.stderr


def test_flipped_byte_in_trace_arrays_is_rebuilt(tmp_path, warm):
    cache = copy_cache(warm, tmp_path / "cache")
    t = _trace_file(cache, "minilm-l6")
    good = hashlib.sha256(np.load(t)["blocks.3.hook_resid_post"].tobytes()).hexdigest()
    _flip_member_byte(t, "blocks.3.hook_resid_post")
    r = layerwise("trace", "--model", "minilm-l6", "--sentence", "The bank was closed.",
                  cache=cache)
    assert r.returncode == 0 and "rebuilding corrupt" in r.stderr, r.stderr
    assert hashlib.sha256(np.load(t)["blocks.3.hook_resid_post"].tobytes()).hexdigest() == good


def test_edited_metadata_in_cache_is_rebuilt_not_served(tmp_path, warm):
    cache = copy_cache(warm, tmp_path / "cache")
    t = _edit_tokens(_trace_file(cache, "minilm-l6"))
    r = layerwise("trace", "--model", "minilm-l6", "--sentence", "The bank was closed.",
                  cache=cache)
    assert r.returncode == 0 and "metadata checksum" in r.stderr, r.stderr
    r = layerwise("info", t, cache=cache)
    assert r.returncode == 0 and "EVIL" not in r.stdout and "1:'the'" in r.stdout, r.stdout


def test_info_on_edited_file_is_one_line(tmp_path, warm):
    bad = _edit_tokens(_trace_file(warm, "minilm-l6"), tmp_path / "edited.npz")
    line = one_error(layerwise("info", bad), f"{bad}", "metadata checksum mismatch")
    assert "EVIL" not in line


def test_info_on_a_truncated_trace(tmp_path, warm):
    t = tmp_path / "cut.npz"
    data = _trace_file(warm, "minilm-l6").read_bytes()
    t.write_bytes(data[:len(data) // 2])
    one_error(layerwise("info", t), f"{t}")


@pytest.mark.parametrize("content,needle", [(b"just some text\n", "not an .npz (zip) file"),
                                            (b"", "empty")])
def test_info_on_a_text_or_empty_file(tmp_path, content, needle):
    f = tmp_path / "notes.npz"
    f.write_bytes(content)
    line = one_error(layerwise("info", f), f"{f}", needle)
    assert "pickle" not in line


def test_info_on_a_folder_or_a_device(tmp_path):
    one_error(layerwise("info", tmp_path), "a folder")
    one_error(layerwise("info", "/dev/zero"), "not a regular file")


def test_old_format_cache_entry_is_rebuilt(tmp_path, warm):
    """A trace written before the metadata checksum (format 1) is rebuilt, not trusted."""
    import json
    cache = copy_cache(warm, tmp_path / "cache")
    t = _trace_file(cache, TOY)
    with np.load(t, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(arrays["__meta__"].tobytes())
    meta["format_version"] = 1
    del meta["meta_sha256"]
    arrays["__meta__"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    with open(t, "wb") as f:
        np.savez(f, **arrays)
    r = layerwise("trace", "--model", TOY, "--sentence", "bank", cache=cache)
    assert r.returncode == 0 and "format_version 1" in r.stderr, r.stderr


# ============================================================================================
# Ctrl-C and SIGTERM
# ============================================================================================

def _torch_loaded(pid: int) -> bool:
    try:
        return "libtorch" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.parametrize("sig,code,word", [(signal.SIGINT, 130, "interrupted"),
                                           (signal.SIGTERM, 143, "terminated")])
def test_interrupt_while_tracing(tmp_path, sig, code, word):
    """A fresh cache: the model is loading/running when the signal comes (torch is mapped)."""
    cache = tmp_path / "cache"
    place = tmp_path / "out"
    place.mkdir()
    (place / "t.npz").write_bytes(b"earlier output")
    before = snapshot(place)
    p = subprocess.Popen([sys.executable, "-m", "layerwise_core", "--cache", str(cache),
                          "trace", "--model", "minilm-l6", "--sentence",
                          "Interrupted while the bank was tracing.", "--out",
                          str(place / "t.npz")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env_for(None), cwd=ROOT)
    deadline = time.monotonic() + 60
    while not _torch_loaded(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    p.send_signal(sig)
    out, err = p.communicate(timeout=60)
    assert p.returncode == code, (p.returncode, err)
    assert err.splitlines() == [err.splitlines()[0]] and err.startswith(f"error: {word}"), err
    assert snapshot(place) == before
    leftovers = [q for q in cache.rglob(".*")] if cache.exists() else []
    assert leftovers == []


def test_interrupt_inside_an_atomic_write_leaves_no_temp_file(tmp_path):
    """Ctrl-C at the moment the bytes are being written (the block of `replacing`)."""
    from layerwise_core.atomic import replacing
    target = tmp_path / "plan.json"
    target.write_text("earlier")
    with pytest.raises(KeyboardInterrupt):
        with replacing(target) as tmp:
            tmp.write_text("half a pl")
            raise KeyboardInterrupt
    assert [p.name for p in tmp_path.iterdir()] == ["plan.json"]
    assert target.read_text() == "earlier"


def test_replacing_dir_keeps_the_old_folder_on_failure(tmp_path):
    from layerwise_core.atomic import replacing_dir
    d = tmp_path / "sections"
    with replacing_dir(d) as tmp:
        (tmp / "a.mp4").write_text("one")
    with pytest.raises(KeyboardInterrupt):
        with replacing_dir(d) as tmp:
            (tmp / "b.mp4").write_text("half")
            raise KeyboardInterrupt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sections"]
    assert [p.name for p in d.iterdir()] == ["a.mp4"]
    with replacing_dir(d) as tmp:
        (tmp / "c.mp4").write_text("three")
    assert [p.name for p in d.iterdir()] == ["c.mp4"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sections"]


def test_broken_pipe_is_quiet(warm):
    t = _trace_file(warm, "minilm-l6")
    r = subprocess.run(f"{shlex.quote(sys.executable)} -m layerwise_core info {t} | head -c 10",
                       shell=True, capture_output=True, text=True, env=env_for(warm), cwd=ROOT)
    assert "Traceback" not in r.stderr and "Broken pipe" not in r.stderr, r.stderr
