"""QR codes on paper: inline SVG in the print template, drawn by WeasyPrint
(nothing is fetched), and the address a phone in the hall can open."""

import ipaddress
from collections.abc import Sequence

import segno
from django.utils.safestring import SafeString, mark_safe

LOOPBACK_NAMES = {"localhost", "localhost.localdomain"}


def qr_svg(url: str, *, size_mm: float) -> SafeString:
    """`url` as a QR code `size_mm` wide, quiet zone included."""
    code = segno.make(url, error="m")
    modules, _ = code.symbol_size(scale=1, border=2)
    # segno writes only path data: the URL appears nowhere as markup.
    return mark_safe(
        code.svg_inline(scale=size_mm / modules, unit="mm", border=2, dark="#111")
    )


def _split(host: str) -> tuple[str, str]:
    """("192.168.1.20", ":8000") from a Host header, IPv6 in brackets."""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest
    name, colon, port = host.partition(":")
    return name, f"{colon}{port}"


def _loopback(name: str) -> bool:
    if name.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def phone_base_url(*, scheme: str, host: str, allowed_hosts: Sequence[str]) -> str:
    """The address phones in the hall open, as the organizer's request
    shows it (`scheme`, Host header): that address, unless it is the
    laptop's own loopback (the organizer works on the laptop), then the
    first LAN (IPv4) address the site answers to (`make serve` allows the
    laptop's addresses, `manage.py hall hosts`), on the same port."""
    name, port = _split(host)
    if not _loopback(name):
        return f"{scheme}://{host}"
    for allowed in allowed_hosts:
        candidate = allowed.strip("[]")
        try:
            address = ipaddress.ip_address(candidate)
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local or address.version == 6):
            return f"{scheme}://{address}{port}"
    return f"{scheme}://{host}"


def read_qr_svg(payload: str, *, size_mm: float) -> SafeString:
    """The score sheet's own code, for the reader of a photo: error level
    Q (a quarter of it may be smudged or in shadow) and a quiet zone of two
    modules inside `size_mm`."""
    code = segno.make(payload, error="q", micro=False, boost_error=False)
    modules, _ = code.symbol_size(scale=1, border=2)
    return mark_safe(
        code.svg_inline(scale=size_mm / modules, unit="mm", border=2, dark="#000")
    )
