"""The laptop in the hall: its names and addresses, a certificate for
them (`make serve` uses both), and the address phones open, for the wall.

    python manage.py hall hosts             # ALLOWED_HOSTS, comma-separated
    python manage.py hall certificate DIR   # DIR/cert.pem and DIR/key.pem
    python manage.py hall address           # http://192.168.1.20:8000/
    python manage.py hall poster [--slug S] -o FILE.pdf   # address + QR code

Phones reach the laptop by one of its addresses on the hall's network (or
its name, where the router or mDNS knows it): only those are allowed hosts,
not ``*``. The certificate is self-signed (no certificate authority knows a
laptop in a hall) for exactly those names and addresses; it is made once
and kept while it still names all of them and has a month left, so phones
that accepted it once are not asked again.
"""

import contextlib
import datetime
import ipaddress
import os
import re
import socket
import subprocess
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from django.core.management.base import BaseCommand, CommandError, CommandParser

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOCAL_NAMES = ("localhost",)
LOOPBACK = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))
# No packet is sent to these: connecting a UDP socket only asks the system
# which of its addresses it would send from (documentation ranges).
PROBES = (("192.0.2.1", socket.AF_INET), ("2001:db8::1", socket.AF_INET6))
# An interface's address in `ip -o addr` (Linux) and `ifconfig` (macOS, BSD).
INET = re.compile(r"\binet6?\s+(?:addr:\s*)?([0-9A-Fa-f:.]+)")
SECONDS = 3.0  # for anything that may ask a slow network

VALID = datetime.timedelta(days=365)
RENEW_BEFORE = datetime.timedelta(days=30)
# A phone whose clock is a little behind still accepts a certificate made now.
BACKDATE = datetime.timedelta(days=1)
CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"


# --- names and addresses ---------------------------------------------------


def laptop_names() -> list[str]:
    """localhost, the laptop's host name, its first label and that with
    ``.local`` (mDNS: macOS and Linux with Avahi answer to it)."""
    names = list(LOCAL_NAMES)
    hostname = socket.gethostname().strip().lower().rstrip(".")
    if hostname and hostname != "localhost":
        short = hostname.split(".")[0]
        names += [hostname, short, f"{short}.local"]
    return list(dict.fromkeys(names))


def _with_timeout(function: Any, *args: Any) -> Any:
    """`function(*args)`, or None if it fails or takes longer than SECONDS
    (a name lookup on a hall network without its DNS server)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        with contextlib.suppress(OSError, ValueError, subprocess.SubprocessError):
            outcome["value"] = function(*args)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(SECONDS)
    return outcome.get("value")


def _resolved(hostname: str) -> list[str]:
    return [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]


def _probed() -> list[str]:
    found = []
    for target, family in PROBES:
        with (
            contextlib.suppress(OSError),
            socket.socket(family, socket.SOCK_DGRAM) as s,
        ):
            s.connect((target, 9))
            found.append(str(s.getsockname()[0]))
    return found


def _interfaces() -> list[str]:
    for command in (["ip", "-o", "addr"], ["ifconfig"]):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=SECONDS, check=True
            )
            return INET.findall(done.stdout)
    return []


def usable(raw: str) -> Address | None:
    """An address phones can name in a URL: not link-local IPv6 (those need
    an interface name), not unspecified or multicast."""
    with contextlib.suppress(ValueError):
        address = ipaddress.ip_address(raw.split("%")[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
            address = address.ipv4_mapped
        if not (
            address.is_unspecified
            or address.is_multicast
            or (address.version == 6 and address.is_link_local)
        ):
            return address
    return None


def laptop_addresses() -> list[Address]:
    """Loopback and every address of the laptop's interfaces, as far as the
    system tells: its interfaces, its host name, the address it would send
    from. IPv4 first."""
    raw: list[str] = []
    for found in (
        _with_timeout(_interfaces),
        _with_timeout(_resolved, socket.gethostname()),
        _with_timeout(_probed),
    ):
        raw += found or []
    addresses = [*LOOPBACK, *(a for a in map(usable, raw) if a is not None)]
    unique = list(dict.fromkeys(addresses))
    return sorted(unique, key=lambda a: (a.version, int(a)))


def host_name(address: Address) -> str:
    """As a Host header names it: IPv6 in brackets."""
    return f"[{address}]" if address.version == 6 else str(address)


def lan_address(addresses: Iterable[Address] | None = None) -> Address | None:
    """The address phones on the hall's network reach the laptop by: its
    first IPv4 address that is not loopback (IPv4: every phone and router
    knows it)."""
    addresses = laptop_addresses() if addresses is None else addresses
    return next((a for a in addresses if a.version == 4 and not a.is_loopback), None)


def hall_address(port: int = 8000, *, tls: bool = False) -> str:
    """The site's address for the phones, as `make serve` serves it
    (http://192.168.1.20:8000/), or "" when the laptop has no network."""
    address = lan_address()
    if address is None:
        return ""
    return f"{'https' if tls else 'http'}://{address}:{port}/"


def allowed_hosts(
    names: Iterable[str] | None = None, addresses: Iterable[Address] | None = None
) -> list[str]:
    """ALLOWED_HOSTS for `make serve`: the laptop's names and addresses."""
    names = laptop_names() if names is None else list(names)
    addresses = laptop_addresses() if addresses is None else list(addresses)
    return list(dict.fromkeys([*names, *map(host_name, addresses)]))


# --- the certificate ---------------------------------------------------------


def _alternative_names(cert: x509.Certificate) -> tuple[set[str], set[Address]]:
    try:
        extension = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return set(), set()
    names = set(extension.value.get_values_for_type(x509.DNSName))
    addresses = set(extension.value.get_values_for_type(x509.IPAddress))
    return names, addresses  # type: ignore[return-value]


def _still_good(
    cert_path: Path,
    key_path: Path,
    names: list[str],
    addresses: list[Address],
    now: datetime.datetime,
) -> bool:
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError):
        return False
    has_names, has_addresses = _alternative_names(cert)
    return (
        cert.public_key() == key.public_key()
        and cert.not_valid_before_utc <= now
        and now + RENEW_BEFORE < cert.not_valid_after_utc
        and set(names) <= has_names
        and set(addresses) <= has_addresses
    )


def _write(path: Path, data: bytes, mode: int) -> None:
    """Replace `path` at once (never half-written) with `data`, readable
    as `mode` says."""
    temporary = path.with_name(f".{path.name}.new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as file:
        file.write(data)
    os.chmod(temporary, mode)
    os.replace(temporary, path)


def _common_name(names: list[str]) -> str:
    """The laptop's host name (what a phone's warning shows first)."""
    return next((n for n in names if n not in LOCAL_NAMES), "localhost")


def certificate_make(
    names: list[str], addresses: list[Address], now: datetime.datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """A self-signed server certificate for `names` and `addresses`, valid
    for a year from now, and its new key (ECDSA P-256: every phone knows
    it, and it is made at once)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Siebenschräm"),
            x509.NameAttribute(NameOID.COMMON_NAME, _common_name(names)),
        ]
    )
    alternative = [x509.DNSName(n) for n in names] + [
        x509.IPAddress(a) for a in addresses
    ]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + VALID)
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False
        )
        .sign(key, hashes.SHA256())
    )
    return cert, key


def certificate_ensure(
    directory: Path,
    names: list[str] | None = None,
    addresses: list[Address] | None = None,
    *,
    now: datetime.datetime | None = None,
) -> tuple[Path, Path, bool]:
    """DIR/cert.pem and DIR/key.pem for the laptop's names and addresses
    (or those given): kept if they still name all of them and have more
    than RENEW_BEFORE left, else made anew. Returns both paths and whether
    they are new."""
    names = laptop_names() if names is None else names
    addresses = laptop_addresses() if addresses is None else addresses
    now = now or datetime.datetime.now(datetime.UTC)
    directory.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = directory / CERT_FILE, directory / KEY_FILE
    if _still_good(cert_path, key_path, names, addresses, now):
        return cert_path, key_path, False
    cert, key = certificate_make(names, addresses, now)
    _write(
        key_path,
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        0o600,
    )
    _write(cert_path, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    return cert_path, key_path, True


def fingerprint(cert_path: Path) -> str:
    """The certificate's SHA-256 fingerprint, as phones show it."""
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


def _address_arguments(parser: CommandParser) -> None:
    parser.add_argument(
        "--port", type=int, default=8000, help="the port make serve uses (8000)"
    )
    parser.add_argument(
        "--tls", action="store_true", help="HTTPS, as make serve-tls serves it"
    )
    parser.add_argument(
        "--address",
        help="the address to print instead of the laptop's own "
        "(e.g. http://192.168.1.20:8000/)",
    )


class Command(BaseCommand):
    help = (
        "The laptop in the hall: `hosts` prints its names and addresses "
        "(ALLOWED_HOSTS for make serve); `certificate DIR` makes a "
        "self-signed certificate for them in DIR, once (make serve-tls); "
        "`address` prints the address phones open; `poster -o FILE.pdf` "
        "writes a poster with that address and its QR code for the wall."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        actions.add_parser("hosts", help="print ALLOWED_HOSTS, comma-separated")
        certificate = actions.add_parser(
            "certificate", help="DIR/cert.pem and DIR/key.pem for those hosts"
        )
        certificate.add_argument("directory", type=Path)
        address = actions.add_parser("address", help="print the address phones open")
        _address_arguments(address)
        poster = actions.add_parser(
            "poster", help="an A4 poster: the address phones open and its QR code"
        )
        _address_arguments(poster)
        poster.add_argument("--slug", help="a tournament: its page instead of home")
        poster.add_argument("-o", "--output", required=True, help="FILE.pdf")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] in ("address", "poster"):
            self._address(options)
            return
        names, addresses = laptop_names(), laptop_addresses()
        hosts = allowed_hosts(names, addresses)
        if options["action"] == "hosts":
            self.stdout.write(",".join(hosts))
            return
        cert_path, _, made = certificate_ensure(options["directory"], names, addresses)
        self.stdout.write(
            f"Certificate {'made' if made else 'kept'}: {cert_path}\n"
            f"  for {', '.join(hosts)}\n"
            f"  SHA-256 {fingerprint(cert_path)}"
        )

    def _address(self, options: dict[str, Any]) -> None:
        url = options["address"] or hall_address(options["port"], tls=options["tls"])
        if not url:
            raise CommandError(
                "The laptop has no network address: connect it to the hall's "
                "network (or name one with --address)."
            )
        if options["action"] == "address":
            self.stdout.write(url)
            return
        # Here, not at the top: `hall hosts` runs before every make serve
        # and needs neither the database nor WeasyPrint.
        from django.conf import settings
        from django.utils import translation

        from tournament.models import Tournament
        from tournament.paper.pdf import poster_pdf

        tournament = None
        if options["slug"]:
            tournament = Tournament.objects.filter(slug=options["slug"]).first()
            if tournament is None:
                raise CommandError(f"No tournament {options['slug']!r}.")
        with translation.override(settings.LANGUAGE_CODE):
            poster = poster_pdf(
                base_url=url, tournament=tournament, tls=url.startswith("https:")
            )
        output = Path(options["output"])
        output.write_bytes(poster.content)
        self.stdout.write(f"{output}: poster for {url}")
