"""Who may use a render cluster: the certificates `make certs` writes, the --scheduler and
--tls-* checks, the tcp:// warning, the LocalCluster that lets this process in only, and the
listening-socket check the render tests use (shown able to fail)."""

from __future__ import annotations

import datetime
import os
import socket
import ssl
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import framecheck as fc
from sockets import exposed, listeners
from layerwise_core.errors import OutputError
from layerwise_pipeline import tls_certs
from layerwise_pipeline.cluster_security import (TLS_OPTIONS, TlsFiles, check_tls,
                                                 exposure_warning, split_address, tls_files)
from layerwise_pipeline.scene_render import RenderError

NOW = datetime.datetime.now(datetime.timezone.utc)


def make_certs(folder: Path, now=NOW, days: int = 30) -> Path:
    tls_certs.write_new(folder, tls_certs.cluster_files(now, days))
    return folder


def client_files(folder: Path, role: str = "client") -> TlsFiles:
    return TlsFiles(folder / "ca.pem", folder / f"{role}.pem", folder / f"{role}-key.pem")


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    return make_certs(tmp_path_factory.mktemp("ours") / "certs")


@pytest.fixture(scope="module")
def theirs(tmp_path_factory):
    return make_certs(tmp_path_factory.mktemp("theirs") / "certs")


# ---- make certs --------------------------------------------------------------------------

def test_certs_cli_writes_an_authority_and_three_pairs_keys_private(tmp_path):
    folder = tmp_path / "new" / "certs"
    old = os.umask(0)                       # the keys are private whatever the umask
    try:
        r = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "certs", str(folder)],
                           cwd=fc.ROOT, capture_output=True, text=True)
    finally:
        os.umask(old)
    assert r.returncode == 0, r.stderr
    names = {"ca.pem", *(f"{role}{end}" for role in tls_certs.ROLES
                         for end in (".pem", "-key.pem"))}
    assert {p.name for p in folder.iterdir()} == names
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for p in folder.iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == (0o600 if p.name.endswith("-key.pem")
                                                  else 0o644), p
    for role in tls_certs.ROLES:          # OpenSSL takes each pair, and the CA as a trust root
        ctx = ssl.create_default_context(cafile=folder / "ca.pem")
        ctx.load_cert_chain(folder / f"{role}.pem", folder / f"{role}-key.pem")
        # the CLI wrote them just now (the suite may have run for an hour since import)
        check_tls(client_files(folder, role), datetime.datetime.now(datetime.timezone.utc))
    again = subprocess.run([sys.executable, "-m", "layerwise_pipeline", "certs", str(folder)],
                           cwd=fc.ROOT, capture_output=True, text=True)
    assert again.returncode == 2
    assert again.stderr == f"error: {folder / 'ca.pem'}: already exists; give an empty folder " \
                           f"(a new authority would lock out the certificates handed out from " \
                           f"this one)\n"


def test_certs_are_never_written_over_a_file_there(tmp_path):
    (tmp_path / "client-key.pem").write_text("someone's key")
    with pytest.raises(OutputError, match="client-key.pem: already exists"):
        make_certs(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["client-key.pem"]
    assert (tmp_path / "client-key.pem").read_text() == "someone's key"


def _handshake(server: TlsFiles, client: TlsFiles, server_role: str = "scheduler"):
    """One TLS connection over a socket pair with the contexts Dask builds from these files:
    the server's error (None if it accepted) and what the client read."""
    from distributed.security import Security
    s_ctx = Security(tls_ca_file=str(server.ca), require_encryption=True,
                     **{f"tls_{server_role}_cert": str(server.cert),
                        f"tls_{server_role}_key": str(server.key)}
                     ).get_listen_args(server_role)["ssl_context"]
    c_ctx = Security(tls_ca_file=str(client.ca), tls_client_cert=str(client.cert),
                     tls_client_key=str(client.key), require_encryption=True
                     ).get_connection_args("client")["ssl_context"]
    a, b = socket.socketpair()
    a.settimeout(10)
    b.settimeout(10)
    result = {}

    def serve():
        try:
            with s_ctx.wrap_socket(a, server_side=True) as s:
                s.sendall(b"ok")
        except (ssl.SSLError, OSError) as e:
            result["server"] = e
        finally:
            a.close()

    t = threading.Thread(target=serve)
    t.start()
    try:
        with c_ctx.wrap_socket(b) as c:
            result["read"] = c.recv(2)
    except (ssl.SSLError, OSError) as e:
        result["read"] = e
    t.join(10)
    b.close()
    return result.get("server"), result["read"]


def test_mutual_tls_takes_the_authoritys_certificates_only(ours, theirs):
    scheduler = client_files(ours, "scheduler")
    assert _handshake(scheduler, client_files(ours)) == (None, b"ok")
    assert _handshake(client_files(ours, "worker"), client_files(ours), "worker") == (None, b"ok")
    # a client certificate from another authority: the scheduler refuses it
    server_error, _ = _handshake(scheduler, TlsFiles(ours / "ca.pem", theirs / "client.pem",
                                                     theirs / "client-key.pem"))
    assert isinstance(server_error, ssl.SSLError)
    # a scheduler certificate from another authority: the client refuses it
    _, read = _handshake(client_files(theirs, "scheduler"), client_files(ours))
    assert isinstance(read, ssl.SSLCertVerificationError)


# ---- --scheduler and --tls-* -------------------------------------------------------------

@pytest.mark.parametrize("scheduler,protocol,host,warns", [
    ("tcp://10.0.0.5:8786", "tcp", "10.0.0.5", True),
    ("tcp://render-box:8786", "tcp", "render-box", True),
    ("10.0.0.5:8786", "tcp", "10.0.0.5", True),                 # Dask reads it as tcp
    ("tcp://[2001:db8::1]:8786", "tcp", "2001:db8::1", True),
    ("ws://10.0.0.5:8786", "ws", "10.0.0.5", True),
    ("tcp://0.0.0.0:8786", "tcp", "0.0.0.0", True),
    ("tcp://127.0.0.1:8786", "tcp", "127.0.0.1", False),
    ("tcp://127.0.1.1:8786", "tcp", "127.0.1.1", False),
    ("tcp://localhost:8786", "tcp", "localhost", False),
    ("tcp://[::1]:8786", "tcp", "::1", False),
    ("tls://10.0.0.5:8786", "tls", "10.0.0.5", False),
])
def test_plain_tcp_beyond_the_loopback_warns(scheduler, protocol, host, warns):
    assert split_address(scheduler) == (protocol, host)
    warning = exposure_warning(scheduler)
    assert (warning is not None) == warns
    if warns:
        assert "\n" not in warning and warning.startswith(f"warning: --scheduler {scheduler}:")
        assert "anyone who can reach it can run code there" in warning
    assert all(exposure_warning(s) is None for s in (None, "none", "local"))


CONFIG = {key: f"/etc/dask/{field}.pem" for field, _, key in TLS_OPTIONS}


def test_tls_files_take_options_then_daskconfig():
    given = {"ca": Path("ca.pem"), "cert": None, "key": None}
    tls = tls_files("tls://h:8786", given, CONFIG)
    assert tls == TlsFiles(Path("ca.pem"), Path("/etc/dask/cert.pem"), Path("/etc/dask/key.pem"),
                           ("--tls-ca", "distributed.comm.tls.client.cert",
                            "distributed.comm.tls.client.key"))
    assert tls_files("tcp://h:8786", {}, CONFIG) is None        # config is for tls:// only
    assert tls_files("local", {}, CONFIG) is None


@pytest.mark.parametrize("scheduler,given,config,message", [
    ("tls://h:8786", {"ca": "ca.pem", "cert": "c.pem"}, {},
     "--scheduler tls://h:8786: needs --tls-key FILE (or distributed.comm.tls.client.key in "
     "Dask's config)"),
    ("tls://h:8786", {}, {}, "--scheduler tls://h:8786: needs --tls-ca FILE"),
    ("local", {"cert": "c.pem"}, {}, "--tls-cert: only for a tls:// scheduler (--scheduler is "
                                     "local)"),
    (None, {"ca": "ca.pem"}, {}, "--tls-ca: only for a tls:// scheduler (--scheduler is not "
                                 "given)"),
    ("tcp://h:8786", {"key": "k.pem"}, CONFIG, "--tls-key: only for a tls:// scheduler"),
])
def test_tls_files_name_the_missing_or_misplaced_option(scheduler, given, config, message):
    with pytest.raises(RenderError) as e:
        tls_files(scheduler, given, config)
    assert str(e.value).startswith(message)


def test_check_tls_names_the_file_at_fault(ours, theirs, tmp_path):
    good = client_files(ours)
    check_tls(good, NOW)
    bad_pem = tmp_path / "notes.txt"
    bad_pem.write_text("not a certificate\n")
    old = make_certs(tmp_path / "old", NOW - datetime.timedelta(days=400), days=30)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    locked = tmp_path / "locked-key.pem"
    locked.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")))
    cases = [
        (TlsFiles(tmp_path / "missing.pem", good.cert, good.key),
         f"--tls-ca {tmp_path / 'missing.pem'}: no such file or folder"),
        (TlsFiles(good.ca, bad_pem, good.key), f"--tls-cert {bad_pem}: not a PEM certificate"),
        (TlsFiles(bad_pem, good.cert, good.key), f"--tls-ca {bad_pem}: not a PEM certificate"),
        (TlsFiles(good.ca, good.cert, bad_pem), f"--tls-key {bad_pem}: not a PEM private key"),
        (TlsFiles(good.ca, good.cert, locked), f"--tls-key {locked}: encrypted with a password"),
        (TlsFiles(good.ca, good.cert, theirs / "client-key.pem"),
         f"--tls-key {theirs / 'client-key.pem'}: not the key of --tls-cert {good.cert}"),
        (TlsFiles(good.ca, old / "client.pem", old / "client-key.pem"),
         f"--tls-cert {old / 'client.pem'}: valid from "),
        (TlsFiles(good.ca, good.cert, tmp_path, ("--tls-ca", "--tls-cert",
                                                 "distributed.comm.tls.client.key")),
         f"distributed.comm.tls.client.key {tmp_path}: is a folder, not a file"),
    ]
    for files, message in cases:
        with pytest.raises(RenderError) as e:
            check_tls(files, NOW)
        assert str(e.value).startswith(message), (message, str(e.value))
        assert "\n" not in str(e.value)


def run_render(*args, env=None):
    return subprocess.run([sys.executable, "-m", "layerwise_pipeline", "render", "--planned", "--jobs", "1", *args],
                          cwd=fc.ROOT, capture_output=True, text=True,
                          env=None if env is None else {**os.environ, **env})


def test_render_cli_bad_tls_input_is_one_line_exit_2(ours, tmp_path):
    missing = tmp_path / "ca.pem"
    r = run_render("--scheduler", "tls://127.0.0.1:1", "--tls-ca", str(missing), "--tls-cert",
                   str(ours / "client.pem"), "--tls-key", str(ours / "client-key.pem"),
                   str(fc.ROOT / "tests" / "data" / "toy_a.yaml"))
    assert (r.returncode, r.stderr) == (2, f"error: --tls-ca {missing}: no such file or folder\n")
    r = run_render("--scheduler", "local", "--tls-ca", str(ours / "ca.pem"), "toy_a.yaml")
    assert (r.returncode, r.stderr) == (2, "error: --tls-ca: only for a tls:// scheduler "
                                           "(--scheduler is local)\n")
    # unset options come from Dask's config (here its environment variables), named as such
    r = run_render("--scheduler", "tls://127.0.0.1:1", "--tls-ca", str(ours / "ca.pem"),
                   "toy_a.yaml", env={"DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT":
                                      str(ours / "client.pem"),
                                      "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(missing)})
    assert (r.returncode, r.stderr) == (2, f"error: distributed.comm.tls.client.key {missing}: "
                                           f"no such file or folder\n")


def test_render_cli_warns_of_plain_tcp_beyond_the_loopback(tmp_path):
    """The warning comes before any work (here the missing plan stops the run)."""
    r = run_render("--media", str(tmp_path), "--scheduler", "tcp://192.0.2.1:8786",
                   str(tmp_path / "nothing.yaml"))
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and len(lines) == 2, r.stderr
    assert lines[0] == exposure_warning("tcp://192.0.2.1:8786")
    assert lines[1].startswith("error: ")


@pytest.fixture(scope="module")
def tls_scheduler(ours):
    """A scheduler (no workers) in this process, taking our authority's certificates only."""
    from distributed import LocalCluster
    from distributed.security import Security
    security = Security(tls_ca_file=str(ours / "ca.pem"), require_encryption=True,
                        tls_scheduler_cert=str(ours / "scheduler.pem"),
                        tls_scheduler_key=str(ours / "scheduler-key.pem"),
                        tls_client_cert=str(ours / "client.pem"),
                        tls_client_key=str(ours / "client-key.pem"))
    with LocalCluster(n_workers=0, processes=False, host="127.0.0.1", dashboard_address=None,
                      security=security) as cluster:
        yield cluster.scheduler_address


def connect(scheduler: str, tls: TlsFiles | None = None) -> str | None:
    from layerwise_pipeline.cluster import runner_for
    try:
        with runner_for(scheduler, 1, tls, timeout="5s"):
            return None
    except RenderError as e:
        return str(e)


def test_a_refused_connection_is_one_line_naming_the_file(tls_scheduler, ours, theirs):
    """Repeated: in TLS 1.3 the refusal reaches the client at its handshake or its first
    read, whichever the race gives; the message must not depend on it."""
    assert connect(tls_scheduler, client_files(ours)) is None
    plain = tls_scheduler.replace("tls://", "tcp://")
    foreign_cert = TlsFiles(ours / "ca.pem", theirs / "client.pem", theirs / "client-key.pem")
    for _ in range(10):
        assert connect(plain) == (f"--scheduler {plain}: the scheduler closed the connection "
                                  f"(one that takes TLS only needs tls:// and "
                                  f"--tls-ca/--tls-cert/--tls-key)")
        assert connect(tls_scheduler, foreign_cert) == (
            f"--tls-cert {theirs / 'client.pem'}: refused by the scheduler at {tls_scheduler} "
            f"(a certificate from another authority?)")
        assert connect(tls_scheduler, client_files(theirs)) == (
            f"--tls-ca {theirs / 'ca.pem'}: the scheduler at {tls_scheduler} shows a "
            f"certificate this authority did not sign (self-signed certificate in certificate "
            f"chain)")


# ---- the LocalCluster lets this process in only ----------------------------------------------

def test_local_cluster_is_tls_on_the_loopback():
    from distributed import Client

    from layerwise_pipeline.cluster import runner_for
    with runner_for("local", 1) as runner:
        address = runner.client.scheduler.address
        assert address.startswith("tls://127.0.0.1:")
        assert not exposed(listeners(os.getpid()))
        with pytest.raises(OSError):            # no certificate from the run's own authority
            Client(address.replace("tls://", "tcp://"), timeout="5s")


# ---- the listening-socket check can fail ---------------------------------------------------

LISTEN = """
import socket, subprocess, sys, time
if sys.argv[1] == "parent":          # the listener in a grandchild: the whole tree is checked
    subprocess.run([sys.executable, "-c", sys.argv[2], "child", sys.argv[2]])
else:
    socks = []
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET, "0.0.0.0")):
        s = socket.socket(family)
        s.bind((host, 0))
        s.listen()
        socks.append(s)
    print(" ".join(str(s.getsockname()[1]) for s in socks), flush=True)
    time.sleep(60)
"""


def test_socket_check_flags_a_listener_on_every_interface():
    import psutil
    p = subprocess.Popen([sys.executable, "-c", LISTEN, "parent", LISTEN],
                         stdout=subprocess.PIPE, text=True)
    try:
        loop_port, any_port = map(int, p.stdout.readline().split())
        found = listeners(p.pid)
        grandchild = psutil.Process(p.pid).children()[0].pid
        assert {(x.pid, x.ip, x.port) for x in found} == {(grandchild, "127.0.0.1", loop_port),
                                                          (grandchild, "0.0.0.0", any_port)}
        assert [(x.ip, x.port) for x in exposed(found)] == [("0.0.0.0", any_port)]
    finally:
        for child in psutil.Process(p.pid).children(recursive=True):
            child.kill()
        p.kill()
        p.communicate()
