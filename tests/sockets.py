"""Listening sockets of a process and its descendants (psutil, a Dask dependency): which
addresses a render lets connections in on. `exposed` keeps those beyond the loopback."""

from __future__ import annotations

import ipaddress
import subprocess
import threading
import time
from dataclasses import dataclass

import psutil

SAMPLE_EVERY = 0.1      # s; Dask's servers live for seconds, so 0.1 s cannot miss one


@dataclass(frozen=True)
class Listener:
    pid: int
    ip: str
    port: int


def listeners(pid: int) -> set[Listener]:
    """Every TCP socket in LISTEN state held by `pid` or a descendant, now (processes that
    exit while being read are skipped)."""
    try:
        top = psutil.Process(pid)
        procs = [top, *top.children(recursive=True)]
    except psutil.NoSuchProcess:
        return set()
    found = set()
    for p in procs:
        try:
            conns = p.net_connections(kind="tcp")
        except (psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
        found |= {Listener(p.pid, c.laddr.ip, c.laddr.port) for c in conns
                  if c.status == psutil.CONN_LISTEN}
    return found


def is_loopback(ip: str) -> bool:
    address = ipaddress.ip_address(ip.split("%")[0])
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def exposed(found) -> list[Listener]:
    """The listeners another machine could reach: any address but 127.0.0.0/8 and ::1
    (0.0.0.0 and :: are every interface)."""
    return sorted((x for x in found if not is_loopback(x.ip)), key=lambda x: (x.pid, x.port))


def run_watching(cmd: list[str], **kwargs) -> tuple[subprocess.CompletedProcess, set[Listener]]:
    """Run `cmd` (as subprocess.run with captured text output) and collect every listener its
    process tree opened while it ran, sampled every SAMPLE_EVERY seconds."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **kwargs)
    seen: set[Listener] = set()

    def watch():
        while proc.poll() is None:
            seen.update(listeners(proc.pid))
            time.sleep(SAMPLE_EVERY)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    watcher.join()
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), seen
