"""Beats on Dask distributed: a LocalCluster chapter equals the local pool's frame for
frame, with every socket it listens on on the loopback; a worker killed mid-run has its beats
rerun elsewhere with the same output, on a LocalCluster and on a mutual-TLS cluster of
separate `dask scheduler` / `dask worker` processes, which refuses plain tcp and certificates
from another authority; a beat that fails is one error naming the storyboard and the beat,
with nothing published."""

from __future__ import annotations

import datetime
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import framecheck as fc
from sockets import exposed, listeners, run_watching
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
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", "--quality", "l",
                        "--media", str(media), "--jobs", "2", "--scheduler", "local", str(sb)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"error: toy_a: beat 1 '{bad['id']}': AttributeError")
    assert not (media / "videos").exists()
    assert not list(Path(media).glob(".work/*"))


# ---- a mutual-TLS cluster of separate processes ----------------------------------------------

DASK = Path(sys.executable).parent / "dask"


def tls_args(certs: Path, role: str) -> list[str]:
    return ["--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / f"{role}.pem"),
            "--tls-key", str(certs / f"{role}-key.pem")]


def worker_cmd(address: str, certs: Path, role_certs: Path | None = None) -> list[str]:
    """One single-thread worker without a nanny (a SIGKILL ends it for good), every server of
    it on the loopback; `role_certs`: where its own certificate comes from."""
    return [str(DASK), "worker", address, "--nthreads", "1", "--no-nanny", "--host",
            "127.0.0.1", "--dashboard-address", "127.0.0.1:0", "--local-directory", ".",
            "--tls-ca-file", str(certs / "ca.pem"),
            *tls_args(role_certs or certs, "worker")[2:]]


def start(cmd: list[str], folder: Path) -> subprocess.Popen:
    """`cmd` in its own folder, its log in folder/log; the project importable from there (a
    worker unpickles beat jobs)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(fc.ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    with open(folder / "log", "w") as log:
        return subprocess.Popen(cmd, cwd=folder, env=env, stdout=log, stderr=log)


def until(check, what: str, timeout: float = 90.0):
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.1)
    return found


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    """`make certs`, then a TLS scheduler and two TLS workers, each its own process in its own
    folder, on 127.0.0.1; a client of ours connected to watch it."""
    from distributed import Client
    from distributed.security import Security

    from layerwise_pipeline.jobs import stop_processes
    root = tmp_path_factory.mktemp("tls-cluster")
    certs = root / "certs"
    r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "certs", str(certs)],
                       cwd=fc.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    procs = [start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--protocol",
                    "tls", "--dashboard-address", "127.0.0.1:0", "--scheduler-file",
                    "scheduler.json", *tls_args(certs, "scheduler")], root / "scheduler")]
    client = None
    try:
        info = root / "scheduler" / "scheduler.json"
        until(lambda: info.exists() or procs[0].poll() is not None, "the scheduler")
        assert procs[0].poll() is None, (root / "scheduler" / "log").read_text()
        address = json.loads(info.read_text())["address"]
        procs += [start(worker_cmd(address, certs), root / f"worker{i}") for i in (1, 2)]
        client = Client(address, timeout="30s", security=Security(
            tls_ca_file=str(certs / "ca.pem"), tls_client_cert=str(certs / "client.pem"),
            tls_client_key=str(certs / "client-key.pem"), require_encryption=True))
        client.wait_for_workers(2, timeout=90)
        pids = client.run(os.getpid)                          # worker address -> its pid
        assert sorted(pids.values()) == sorted(p.pid for p in procs[1:])
        yield SimpleNamespace(address=address, certs=certs, root=root, client=client,
                              scheduler=procs[0], workers=procs[1:], pids=pids)
    finally:
        if client is not None:
            client.close()
        stop_processes(procs[1:])       # workers first: one whose scheduler is gone waits for it
        stop_processes(procs[:1])


def test_tls_cluster_chapter_with_a_worker_killed(pool_chapter, tls_cluster, tmp_path):
    """The chapter rendered on the TLS cluster, one worker SIGKILLed as soon as it holds a
    beat, equals the local pool's (decoded frames, subtitles). Then: plain tcp, a client
    and a worker with certificates from another authority are all refused."""
    from layerwise_pipeline import tls_certs
    from layerwise_pipeline.cluster import runner_for
    from layerwise_pipeline.cluster_security import TlsFiles
    from layerwise_pipeline.scene_render import RenderError
    c = tls_cluster
    servers = set().union(*(listeners(p.pid) for p in [c.scheduler, *c.workers]))
    assert not exposed(servers) and len({x.pid for x in servers}) == 3, servers
    media = tmp_path / "media"
    chapter = subprocess.Popen(
        chapter_cmd(media, "--jobs", "2", "--scheduler", c.address, "--tls-ca",
                    str(c.certs / "ca.pem"), "--tls-cert", str(c.certs / "client.pem"),
                    "--tls-key", str(c.certs / "client-key.pem")),
        cwd=fc.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        busy = until(lambda: chapter.poll() is not None or
                     [w for w, keys in c.client.processing().items() if keys], "a busy worker",
                     timeout=300)
        assert chapter.poll() is None, chapter.communicate()
        victim = busy[0]
        os.kill(c.pids[victim], signal.SIGKILL)
        out, err = chapter.communicate(timeout=600)
    finally:
        if chapter.poll() is None:
            chapter.kill()
            chapter.wait()
    assert chapter.returncode == 0, err
    assert err == ""                                # loopback: no tcp warning, nothing else
    assert list(c.client.nthreads()) == [w for w in c.pids if w != victim]
    a = pool_chapter / "videos" / "480p15" / "chapter_small.mp4"
    b = media / "videos" / "480p15" / "chapter_small.mp4"
    assert decoded_frames_digest(a) == decoded_frames_digest(b)
    assert a.with_suffix(".srt").read_text() == b.with_suffix(".srt").read_text()
    record = json.loads(b.with_suffix(".manifest.json").read_text())
    assert record["beat_jobs"]["runner"] == f"Dask cluster at {c.address}"

    theirs = c.root / "theirs"
    tls_certs.write_new(theirs, tls_certs.cluster_files(
        datetime.datetime.now(datetime.timezone.utc)))
    stranger = start(worker_cmd(c.address, c.certs, theirs) + ["--death-timeout", "5"],
                     c.root / "stranger")
    try:
        plain = c.address.replace("tls://", "tcp://")
        with pytest.raises(RenderError) as e:
            with runner_for(plain, 1):
                pass
        assert str(e.value).startswith(f"--scheduler {plain}: the scheduler closed the "
                                       f"connection")
        with pytest.raises(RenderError) as e:
            with runner_for(c.address, 1, TlsFiles(c.certs / "ca.pem", theirs / "client.pem",
                                                   theirs / "client-key.pem")):
                pass
        assert str(e.value) == (f"--tls-cert {theirs / 'client.pem'}: refused by the scheduler "
                                f"at {c.address} (a certificate from another authority?)")
        assert stranger.wait(60) != 0                 # gave up: the scheduler never took it
    finally:
        if stranger.poll() is None:
            stranger.kill()
            stranger.wait()
    assert list(c.client.nthreads()) == [w for w in c.pids if w != victim]
