"""QR codes on paper: inline SVG in the print template, drawn by WeasyPrint
(nothing is fetched), or for the score sheets a small image in the page
itself; and the address a phone in the hall can open."""

import base64
import io
import ipaddress
from collections.abc import Sequence

import numpy as np
import segno
import zxingcpp
from django.utils.safestring import SafeString, mark_safe
from PIL import Image

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


# Pixels per module of a QR code printed as an image (printed unsmoothed,
# `image-rendering: pixelated`): a viewer or printer that smooths it anyway
# blurs only the edge of each module, never a module into its neighbour.
QR_IMAGE_SCALE = 4


def qr_image(payload: str, *, error: str) -> str:
    """`payload` as a QR code at error level `error` ("L", "M", "Q", "H")
    with a quiet zone of two modules: a greyscale PNG as a data: URI, for
    a document that prints a code of its own on each of many pages (the
    score sheets). WeasyPrint lays out an image as one box and writes it as
    it is, where a drawing of the code is parsed and drawn path by path;
    the template prints it with `image-rendering: pixelated`, so it stays
    sharp at any size. Encoded by zxing-cpp (the reader's library, which
    picks the mask by the standard's penalties as segno does, in a
    fraction of its time)."""
    code = zxingcpp.create_barcode(
        payload, zxingcpp.BarcodeFormat.QRCode, ec_level=error
    )
    modules = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    modules = np.pad(modules, 2, constant_values=255)
    pixels = modules.repeat(QR_IMAGE_SCALE, axis=0).repeat(QR_IMAGE_SCALE, axis=1)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def read_qr_image(payload: str) -> str:
    """The score sheet's own code, for the reader of a photo: error level
    Q (a quarter of it may be smudged or in shadow)."""
    return qr_image(payload, error="Q")
