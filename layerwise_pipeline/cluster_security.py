"""Who may use a render cluster: the --scheduler and --tls-* options, checked before any work.

A Dask scheduler runs whatever its clients submit, and its workers run it as the user who
started them: an open scheduler port is a shell for anyone who reaches it. So a remote
cluster is `tls://host:port` with mutual TLS (each side shows a certificate signed by the
cluster's own authority, `tls_certs`), given as files by `--tls-ca/--tls-cert/--tls-key` or
by Dask's own config (`distributed.comm.tls.ca-file`, `.client.cert`, `.client.key`);
plain `tcp://` to an address other than the loopback gets a one-line warning.

Nothing here imports `distributed`: `dask.config` only for a tls:// scheduler's files,
`cryptography` only to read them.
"""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

from layerwise_core.atomic import describe_os_error

from .scene_render import RenderError

# (field, option, the Dask config key read when the option is not given)
TLS_OPTIONS = (("ca", "--tls-ca", "distributed.comm.tls.ca-file"),
               ("cert", "--tls-cert", "distributed.comm.tls.client.cert"),
               ("key", "--tls-key", "distributed.comm.tls.client.key"))
WARN_DOCS = "docs/distributed.md"


@dataclass(frozen=True)
class TlsFiles:
    """The cluster's authority and this client's certificate and key (PEM files); `named`:
    where each came from (an option, or a Dask config key), for messages."""
    ca: Path
    cert: Path
    key: Path
    named: tuple[str, str, str] = ("--tls-ca", "--tls-cert", "--tls-key")


def add_options(parser, scheduler_help: str) -> None:
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS", help=scheduler_help)
    g = parser.add_argument_group(
        "TLS, for a tls:// scheduler (unset options are read from Dask's config: "
        + ", ".join(key for _, _, key in TLS_OPTIONS) + "; `make certs` makes the files)")
    g.add_argument("--tls-ca", type=Path, metavar="FILE",
                   help="the cluster's authority certificate (ca.pem)")
    g.add_argument("--tls-cert", type=Path, metavar="FILE",
                   help="this client's certificate (client.pem)")
    g.add_argument("--tls-key", type=Path, metavar="FILE",
                   help="this client's private key (client-key.pem)")


def split_address(scheduler: str) -> tuple[str, str]:
    """(protocol, host) of a Dask address: tls://h:8786, tcp://[::1]:8786, or a bare h:8786
    (which Dask reads as tcp)."""
    protocol, sep, rest = scheduler.partition("://")
    if not sep:
        protocol, rest = "tcp", scheduler
    if rest.startswith("["):                                    # [IPv6]:port
        return protocol, rest[1:rest.find("]")]
    return protocol, rest.rsplit(":", 1)[0] if rest.count(":") == 1 else rest


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False                                            # a name: not resolved here
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def is_cluster(scheduler: str | None) -> bool:
    return scheduler not in (None, "", "none", "local")


def exposure_warning(scheduler: str | None) -> str | None:
    """One line if `scheduler` is reached unencrypted and unauthenticated from beyond this
    machine: anyone who reaches that port runs code on the workers."""
    if not is_cluster(scheduler):
        return None
    protocol, host = split_address(scheduler)
    if protocol in ("tls", "wss", "inproc") or is_loopback(host):
        return None
    return (f"warning: --scheduler {scheduler}: plain {protocol}, neither encrypted nor "
            f"authenticated: anyone who can reach it can run code there as the workers' user; "
            f"use tls:// ({WARN_DOCS})")


def tls_files(scheduler: str | None, given: dict, config: dict) -> TlsFiles | None:
    """The certificate files for `scheduler`: each option as given, else the Dask config key
    (`config`: key -> value); None for a scheduler that is not tls://. One line naming the
    option for a missing file name or a TLS option without a tls:// scheduler."""
    named = [option for field, option, _ in TLS_OPTIONS if given.get(field)]
    if not (is_cluster(scheduler) and split_address(scheduler)[0] == "tls"):
        if named:
            raise RenderError(f"{named[0]}: only for a tls:// scheduler (--scheduler is "
                              f"{scheduler or 'not given'})")
        return None
    paths, sources = {}, []
    for field, option, key in TLS_OPTIONS:
        if given.get(field):
            paths[field], source = Path(given[field]), option
        elif config.get(key):
            paths[field], source = Path(config[key]), key
        else:
            raise RenderError(f"--scheduler {scheduler}: needs {option} FILE (or {key} in "
                              f"Dask's config)")
        sources.append(source)
    return TlsFiles(**paths, named=tuple(sources))


def _read(named: str, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise RenderError(f"{named} {describe_os_error(e, path)}") from None


def check_tls(tls: TlsFiles, now: datetime.datetime) -> None:
    """Every file reads as what it should be, the key is the certificate's, and both
    certificates are valid at `now`; else one line naming the option and the file."""
    from cryptography import x509
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    ca_named, cert_named, key_named = tls.named
    try:
        authorities = x509.load_pem_x509_certificates(_read(ca_named, tls.ca))
    except ValueError:
        raise RenderError(f"{ca_named} {tls.ca}: not a PEM certificate") from None
    try:
        cert = x509.load_pem_x509_certificate(_read(cert_named, tls.cert))
    except ValueError:
        raise RenderError(f"{cert_named} {tls.cert}: not a PEM certificate") from None
    try:
        key = serialization.load_pem_private_key(_read(key_named, tls.key), password=None)
    except TypeError:
        raise RenderError(f"{key_named} {tls.key}: encrypted with a password; Dask reads "
                          f"unencrypted keys only (keep the file mode 0600)") from None
    except (ValueError, UnsupportedAlgorithm):
        raise RenderError(f"{key_named} {tls.key}: not a PEM private key") from None
    der = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    if key.public_key().public_bytes(*der) != cert.public_key().public_bytes(*der):
        raise RenderError(f"{key_named} {tls.key}: not the key of {cert_named} {tls.cert}")
    for named, path, c in [*((ca_named, tls.ca, a) for a in authorities),
                           (cert_named, tls.cert, cert)]:
        if not c.not_valid_before_utc <= now <= c.not_valid_after_utc:
            raise RenderError(f"{named} {path}: valid from {c.not_valid_before_utc:%Y-%m-%d} "
                              f"to {c.not_valid_after_utc:%Y-%m-%d}, not now")


def tls_from_args(args) -> TlsFiles | None:
    """`tls_files` + `check_tls` for a command's parsed options, with Dask's config."""
    given = {"ca": args.tls_ca, "cert": args.tls_cert, "key": args.tls_key}
    config = {}
    if is_cluster(args.scheduler) and split_address(args.scheduler)[0] == "tls":
        import dask.config                      # the user's ~/.config/dask and DASK_* variables
        config = {key: dask.config.get(key, None) for _, _, key in TLS_OPTIONS}
    tls = tls_files(args.scheduler, given, config)
    if tls is not None:
        check_tls(tls, datetime.datetime.now(datetime.timezone.utc))
    return tls


def cluster_tls(args, say) -> TlsFiles | None:
    """What a rendering command does first: its TLS files (`tls_from_args`), then the warning
    a scheduler exposed beyond this machine deserves, said with `say`."""
    tls = tls_from_args(args)
    if warning := exposure_warning(args.scheduler):
        say(warning)
    return tls


def _chain(error: BaseException | None) -> list[BaseException]:
    """The error and what it was raised from or while handling, outermost first (and
    Tornado's `real_error`: Dask re-raises a TLS failure as a CommClosedError while handling
    a StreamClosedError that holds the SSLError there)."""
    chain: list[BaseException] = []
    while error is not None and error not in chain:
        chain.append(error)
        error = (error.__cause__ or getattr(error, "real_error", None) or error.__context__)
    return chain


def connect_problem(scheduler: str, error: OSError, tls: TlsFiles | None) -> str:
    """One line for a failed connection to `scheduler`, naming the file at fault when the
    TLS handshake says which (Dask re-raises its errors as CommClosedError)."""
    chain = _chain(error)
    verify = next((e for e in chain if isinstance(e, ssl.SSLCertVerificationError)), None)
    if verify is not None and tls is not None:
        return (f"{tls.named[0]} {tls.ca}: the scheduler at {scheduler} shows a certificate "
                f"this authority did not sign ({verify.verify_message})")
    closed = any(isinstance(e, (ssl.SSLError, ConnectionResetError, EOFError)) for e in chain)
    if closed and tls is not None:
        return (f"{tls.named[1]} {tls.cert}: refused by the scheduler at {scheduler} (a "
                f"certificate from another authority?)")
    if closed:
        return (f"--scheduler {scheduler}: the scheduler closed the connection (one that "
                f"takes TLS only needs tls:// and --tls-ca/--tls-cert/--tls-key)")
    return f"--scheduler {scheduler}: cannot connect: {error}"
