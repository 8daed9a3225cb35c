"""A Dask cluster's own certificate authority: `layerwise certs DIR` (`make certs CERTS=DIR`).

Writes into DIR (created with mode 0700 if absent; existing files are never replaced):

    ca.pem                              the authority's certificate: every machine
    scheduler.pem  scheduler-key.pem    the scheduler's machine
    worker.pem     worker-key.pem       every worker machine
    client.pem     client-key.pem       where `make render` / `make chapter` runs

Keys are written with mode 0600. The authority's own key is not kept: nobody can issue another
certificate that this cluster accepts; for a new machine copy the worker's pair, and to revoke
everything make a new folder and hand it out again. Dask checks that each side's certificate
is signed by ca.pem (mutual TLS), not host names, so the certificates fit any address.
Like Dask's `Security.temporary`, with `cryptography`, but as files, one pair per role, and
an EC P-256 key each (fast to make; every TLS 1.2/1.3 peer takes it).
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from layerwise_core.atomic import describe_os_error
from layerwise_core.errors import InputError, OutputError


ROLES = ("scheduler", "worker", "client")
DAYS = 365


def _name(common_name: str):
    from cryptography import x509
    from cryptography.x509.oid import NameOID
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "layerwise render cluster"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _key():
    from cryptography.hazmat.primitives.asymmetric import ec
    return ec.generate_private_key(ec.SECP256R1())


def _usage(**granted):
    from cryptography import x509
    names = ("digital_signature", "content_commitment", "key_encipherment", "data_encipherment",
             "key_agreement", "key_cert_sign", "crl_sign", "encipher_only", "decipher_only")
    return x509.KeyUsage(**{n: granted.get(n, False) for n in names})


def authority(now: datetime.datetime, days: int = DAYS):
    """(key, certificate) of a new authority that may sign end certificates only."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    key = _key()
    name = _name("layerwise cluster CA")
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(_usage(key_cert_sign=True, crl_sign=True), critical=True)
            .add_extension(ski, critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


def issue(ca_key, ca_cert, role: str, now: datetime.datetime, days: int = DAYS):
    """(key, certificate) for one role, signed by the authority; good for either end of a
    connection (a scheduler also dials its workers)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID
    key = _key()
    ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (x509.CertificateBuilder().subject_name(_name(f"layerwise {role}"))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(min(now + datetime.timedelta(days=days), ca_cert.not_valid_after_utc))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(digital_signature=True), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                  ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(f"layerwise-{role}")]),
                           critical=False)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    return key, cert


def cluster_files(now: datetime.datetime, days: int = DAYS) -> dict[str, tuple[bytes, int]]:
    """{file name: (PEM bytes, mode)} for a new authority and one pair per role."""
    from cryptography.hazmat.primitives import serialization
    ca_key, ca_cert = authority(now, days)
    pem = serialization.Encoding.PEM
    files = {"ca.pem": (ca_cert.public_bytes(pem), 0o644)}
    for role in ROLES:
        key, cert = issue(ca_key, ca_cert, role, now, days)
        files[f"{role}.pem"] = (cert.public_bytes(pem), 0o644)
        files[f"{role}-key.pem"] = (key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                      serialization.NoEncryption()), 0o600)
    return files


def write_new(folder: Path, files: dict[str, tuple[bytes, int]]) -> list[Path]:
    """Each file created with its mode from the start (O_EXCL: never replaces one, a key is
    never readable by others even for a moment). Refuses before writing anything if one is
    there already; removes what it wrote if a write fails."""
    there = [folder / n for n in files if (folder / n).exists()]
    if there:
        raise OutputError(f"{there[0]}: already exists; give an empty folder (a new authority "
                          f"would lock out the certificates handed out from this one)")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(describe_os_error(e, folder)) from None
    written: list[Path] = []
    try:
        for name, (data, mode) in files.items():
            path = folder / name
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            written.append(path)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(path, mode)                    # the umask may have narrowed a cert's 0644
    except OSError as e:
        for path in written:
            path.unlink(missing_ok=True)
        raise OutputError(describe_os_error(e, e.filename or folder)) from None
    return written



def add_arguments(p) -> None:
    p.add_argument("folder", type=Path)
    p.add_argument("--days", type=int, default=DAYS, help="how long the certificates are valid")


def _main(args) -> int:
    if args.days < 1:
        raise InputError("--days: needs a whole number of days >= 1")
    now = datetime.datetime.now(datetime.timezone.utc)
    for path in write_new(args.folder, cluster_files(now, args.days)):
        print(path)
    return 0

