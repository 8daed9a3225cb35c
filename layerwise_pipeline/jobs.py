"""The render job graph: plans -> beat renders -> one join per storyboard (-> chapter join).

`run_beats(jobs, runner, ...)` sends the beat jobs (data only) to a runner and takes the
results back as data, each checked against its hash and put in the beat cache as it
arrives; `render_storyboards` does a whole set: cached beats are taken, the rest rendered
in parallel, then each storyboard is joined and published (`storyboard.assemble`).

Runners: `LocalPool` (one process per core, spawn) or `cluster.DaskRunner` (a Dask
LocalCluster, or an existing scheduler). Either way one failing beat stops the run with one
error naming the storyboard and the beat, and nothing is published for that storyboard.
"""

from __future__ import annotations

import signal
import subprocess
import time
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from multiprocessing import get_context
from pathlib import Path

from .beats import BeatCache, check, render_run
from .progress import Progress
from .storyboard import assemble, plan_jobs


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them with SIGTERM; SIGTERM exits
    through every `finally` (the beat's scratch folder is removed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_exit)


def _worker_exit(signum, frame):
    raise SystemExit(143)


class LocalPool:
    """Runs of beats in `jobs` spawned processes on this machine."""

    name = "local pool"

    def __init__(self, jobs: int):
        self.jobs = self.workers = max(1, jobs)
        self.stats = {"tasks": 0, "bytes": 0}

    def map(self, jobs: list[dict], done) -> None:
        """Run `jobs`; `done(result)` in this process for each beat as its run finishes."""
        if not jobs:
            return
        pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(jobs)),
                                   mp_context=get_context("spawn"), initializer=_worker_init)
        try:
            pending = {pool.submit(render_run, j) for j in _longest_first(jobs)}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for f in finished:
                    results = f.result()
                    self.stats["tasks"] += 1
                    for result in results:
                        self.stats["bytes"] += len(result["mp4"])
                        done(result)
        except BaseException:
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            stop_processes(workers)
            raise
        pool.shutdown()

    def close(self) -> None:
        pass


def stop_processes(procs) -> None:
    """SIGTERM each child (its `finally` blocks clean up), then SIGKILL the ones that hang."""
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError):
            pass
    for p in procs:
        try:
            if hasattr(p, "join"):
                p.join(30)
                if p.is_alive():
                    p.kill()
                    p.join()
            else:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        except (OSError, ValueError):
            pass


def _longest_first(jobs: list[dict]) -> list[dict]:
    """Long runs first, so the last one to start is a short one (less idle at the end)."""
    return sorted(jobs, key=lambda j: -sum(float(j["plan"]["beats"][i]["duration"])
                                           for i in j["indices"]))


def render_storyboards(plans: list[dict], quality: str, cache_root: Path, runner,
                       media_of=lambda name: None, progress: bool | None = None
                       ) -> dict[str, dict]:
    """Render every beat that the cache lacks, then join and publish each storyboard into
    `media_of(name)`. Returns {name: {"video", "rendered": [beat ids], "cached": n}}."""
    start = time.perf_counter()
    todo, have = plan_jobs(plans, quality, cache_root, getattr(runner, "workers", 1))
    total = sum(len(p["beats"]) for p in plans)
    rendered: dict[str, list[str]] = {p["storyboard"]["name"]: [] for p in plans}
    with Progress(total, "beats", progress) as bar:
        bar.advance(total - sum(len(j["indices"]) for j in todo))

        def done(result: dict) -> None:
            check(result)
            BeatCache(cache_root, quality, result["name"]).put(result)
            have[result["name"]][result["index"]] = result
            rendered[result["name"]].append(result["beat"])
            bar.advance()

        runner.map(todo, done)
    seconds = time.perf_counter() - start
    out = {}
    for plan in plans:
        name = plan["storyboard"]["name"]
        results = [have[name][i] for i in range(len(plan["beats"]))]
        video = assemble(plan, quality, media_of(name), results, seconds)
        cache = BeatCache(cache_root, quality, name)
        cache.prune({r["key"] for r in results})
        out[name] = {"video": video, "rendered": rendered[name],
                     "cached": len(plan["beats"]) - len(rendered[name])}
    return out
