"""Beat jobs on Dask distributed: a LocalCluster on this machine, or an existing cluster.

`runner_for(scheduler, jobs, tls)`: None or "none" -> the local process pool
(`jobs.LocalPool`); "local" -> a Dask LocalCluster of `jobs` single-thread worker processes;
"tls://host:8786" -> the cluster behind that scheduler, reached with mutual TLS (`tls`: the
cluster's authority and this client's certificate and key, `cluster_security.TlsFiles`);
"tcp://host:8786" -> the same, unencrypted and unauthenticated (loopback or a trusted
network only). Start a cluster with `dask scheduler` and, on each machine with the project
installed, `dask worker tls://host:8786 --nthreads 1 --nworkers N` (docs/distributed.md: Parallel and
distributed rendering): Manim's configuration is per process, so a worker renders one beat
at a time.

A Dask scheduler runs whatever a client submits, so the LocalCluster lets in this process
only: the scheduler, nannies and workers listen on 127.0.0.1, there is no dashboard, and they
speak TLS with a throwaway authority made for the run (`Security.temporary`), so another user
of this machine who finds the port cannot submit either.

No shared filesystem is assumed: a job carries its plan and audio as data, a result comes
back as data (mp4 bytes, subtitles) with the sha256 its worker computed, checked on
arrival. A worker that dies mid-run has its beats rerun elsewhere by the scheduler (a beat
is a pure function of its job, so the output is the same); a beat that fails raises one
BeatError naming the storyboard and the beat, and every other beat of the run is cancelled.
"""

from __future__ import annotations

import contextlib
import os
import pickle

from .beats import render_run
from .cluster_security import TlsFiles, connect_problem
from .jobs import LocalPool, _longest_first
from .scene_render import RenderError

LOOPBACK = "127.0.0.1"


class DaskRunner:
    def __init__(self, client, name: str):
        self.client, self.name = client, name
        self.stats = {"tasks": 0, "bytes": 0}

    @property
    def workers(self) -> int:
        """Beats render one at a time per worker thread: the cluster's threads."""
        return max(1, sum(self.client.nthreads().values()))

    def map(self, jobs: list[dict], done) -> None:
        from distributed import as_completed
        if not jobs:
            return
        futures = []
        for j in _longest_first(jobs):
            plan = j["plan"]
            first, last = j["indices"][0], j["indices"][-1]
            key = (f"beats-{plan['storyboard']['name']}-{first:02d}-{last:02d}-"
                   f"{j['keys'][0][:12]}")
            self.stats["bytes"] += len(pickle.dumps(j, protocol=5))
            futures.append(self.client.submit(render_run, j, key=key, retries=0))
        try:
            for future, results in as_completed(futures, with_results=True):
                self.stats["tasks"] += 1
                for result in results:
                    self.stats["bytes"] += len(result["mp4"])
                    done(result)
                future.release()
        except BaseException:
            self.client.cancel(futures)
            raise


@contextlib.contextmanager
def runner_for(scheduler: str | None, jobs: int, tls: TlsFiles | None = None,
               timeout: str = "20s"):
    if not scheduler or scheduler == "none":
        yield LocalPool(jobs)
        return
    # Dask logs a failed or rescheduled task on every worker; the run reports it once
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    from distributed import Client, LocalCluster
    from distributed.security import Security
    if scheduler == "local":
        # no dashboard; the scheduler's own HTTP server (health, metrics) is always started:
        # on a free loopback port, not 8787 (a second render would be told that one is taken)
        with LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                          host=LOOPBACK, dashboard_address=None,
                          scheduler_kwargs={"dashboard_address": f"{LOOPBACK}:0"},
                          security=Security.temporary()) as cluster, Client(cluster) as client:
            yield DaskRunner(client, f"Dask LocalCluster ({jobs} workers)")
        return
    security = None if tls is None else Security(
        tls_ca_file=str(tls.ca), tls_client_cert=str(tls.cert), tls_client_key=str(tls.key),
        require_encryption=True)
    try:
        client = Client(scheduler, timeout=timeout, security=security)
    except OSError as e:                    # refused, reset, timed out, a TLS handshake failed
        raise RenderError(connect_problem(scheduler, e, tls)) from None
    with client:
        yield DaskRunner(client, f"Dask cluster at {scheduler}")
