"""Beats on Dask distributed: a LocalCluster chapter equals the local pool's frame for
frame, with every socket it listens on on the loopback; a worker killed mid-run has its beats
rerun elsewhere with the same output; a beat that fails is one error naming the storyboard
and the beat, with nothing published."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import framecheck as fc
from sockets import exposed, run_watching
from test_beats import frame_digests, plan_into
from test_chapter import DATA, chapter_cmd, decoded_frames_digest, run_chapter

pytestmark = pytest.mark.render
TOYS = [DATA / "toy_a.yaml", DATA / "toy_b.yaml"]


@pytest.fixture(scope="module")
def pool_chapter(tmp_path_factory):
    media = tmp_path_factory.mktemp("pool-chapter")
    r = run_chapter(media, "--jobs", "2", "--scheduler", "none")
    assert r.returncode == 0, r.stderr
    return media


def test_localcluster_chapter_equals_local_pool(pool_chapter, tmp_path):
    """The same chapter on a LocalCluster; while it renders, every socket its process tree
    listens on (scheduler and its HTTP server, nannies, workers; no dashboard) is on the
    loopback."""
    r, found = run_watching(chapter_cmd(tmp_path, "--jobs", "2", "--scheduler", "local"),
                            cwd=fc.ROOT)
    assert r.returncode == 0, r.stderr
    assert not exposed(found), found
    assert len({x.pid for x in found}) == 3, found     # this process and its two workers
    a = pool_chapter / "videos" / "480p15" / "chapter_small.mp4"
    b = tmp_path / "videos" / "480p15" / "chapter_small.mp4"
    assert decoded_frames_digest(a) == decoded_frames_digest(b)
    assert (a.with_suffix(".srt")).read_text() == (b.with_suffix(".srt")).read_text()
    again = run_chapter(tmp_path, "--jobs", "2", "--scheduler", "local")   # renders nothing
    assert again.returncode == 0 and "rendered 0" in again.stdout


def test_worker_killed_mid_run(pool_chapter, cache_dir, tmp_path):
    """A LocalCluster of 2 single-thread workers; after the first beat comes back, the
    worker busiest at that moment is killed (SIGKILL): its beats run elsewhere and every
    storyboard equals the local pool's render frame for frame."""
    from distributed import Client, LocalCluster

    from layerwise_pipeline.cluster import DaskRunner
    from layerwise_pipeline.jobs import render_storyboards
    from layerwise_pipeline.scene_render import load_plan
    media = tmp_path / "media"
    for sb in TOYS:
        plan_into(media, sb, cache_dir)
    plans = [load_plan(sb, media) for sb in TOYS]
    killed = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        runner = DaskRunner(client, "test")
        pids = client.run(os.getpid)

        def kill_one(result):
            if killed:
                return
            busy = [a for a, keys in client.processing().items() if keys]
            victim = busy[0] if busy else next(iter(pids))
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(victim)

        class Killing:
            stats = runner.stats

            def map(self, jobs, done):
                runner.map(jobs, lambda r: (done(r), kill_one(r)))

        out = render_storyboards(plans, "l", media, Killing(), media_of=lambda n: media)
    assert killed
    assert sum(len(v["rendered"]) for v in out.values()) == sum(len(p["beats"]) for p in plans)
    for sb in TOYS:
        name = sb.stem
        ours = media / "videos" / "480p15" / f"{name}.mp4"
        pool = pool_chapter / "chapter" / "l" / name / "videos" / "480p15" / f"{name}.mp4"
        assert frame_digests(ours) == frame_digests(pool)


def test_failing_beat_is_one_error_naming_it(cache_dir, tmp_path):
    media = tmp_path / "media"
    sb = DATA / "toy_a.yaml"
    plan_into(media, sb, cache_dir)
    path = media / "plans" / "toy_a.json"
    plan = json.loads(path.read_text())
    bad = plan["beats"][1]
    bad["show"] = ["no_such_handler"]
    bad["steps"] = [{"show": "no_such_handler", "at": None}]
    path.write_text(json.dumps(plan))
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline.render", "--quality", "l",
                        "--media", str(media), "--jobs", "2", "--scheduler", "local", str(sb)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"error: toy_a: beat 1 '{bad['id']}': AttributeError")
    assert not (media / "videos").exists()
    assert not list(Path(media).glob(".work/*"))
