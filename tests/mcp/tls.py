"""A private certificate authority made by the test, and a built site served over TLS with
a certificate it signed, for 127.0.0.1, localhost and NAME (decisions.invalid, a name only
the test's proxy knows): what a company's internal site is.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tests.mcp.httpsite import SiteServer

NAME = "decisions.invalid"


@dataclass(frozen=True)
class PrivateCa:
    """Files of a private CA and of a server certificate it signed."""

    ca: Path
    cert: Path
    key: Path


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def make_ca(folder: Path) -> PrivateCa:
    """A CA and a certificate for 127.0.0.1, localhost and NAME, written to `folder` as
    PEM."""
    now = dt.datetime.now(dt.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (x509.CertificateBuilder().subject_name(_name("site-builder test CA"))
               .issuer_name(_name("site-builder test CA")).public_key(ca_key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - dt.timedelta(hours=1))
               .not_valid_after(now + dt.timedelta(days=2))
               .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(False, False, False, False, False, True, True,
                                            False, False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                              critical=False)
               .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(_name("127.0.0.1"))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                x509.DNSName("localhost"), x509.DNSName(NAME)]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    files = PrivateCa(folder / "ca.pem", folder / "server.pem", folder / "server-key.pem")
    files.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    files.key.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                            serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return files


class TlsSite(SiteServer):
    """A SiteServer speaking TLS with the certificate of `ca`."""

    def __init__(self, folder: Path, ca: PrivateCa) -> None:
        super().__init__(folder)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(ca.cert, ca.key)
        # The handshake happens in the handler's thread, so a client that refuses the
        # certificate never holds up the accepting one.
        self._http.socket = context.wrap_socket(self._http.socket, server_side=True,
                                                do_handshake_on_connect=False)
        self._http.handle_error = lambda request, address: None  # refused handshakes

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self._http.server_address[1]}/"
