"""`make serve` in the hall (issue 15.6, 15.9): the allowed hosts are the
laptop's own names and addresses (`manage.py hall hosts`), not ``*``; a
websocket opened by another site's page is refused, also with ALLOWED_HOSTS
``*``; `make serve-tls` serves HTTPS with a self-signed certificate made
once for those names and addresses (`manage.py hall certificate`), and a
referee signs in over it.

The servers are real uvicorn processes (tests/support/servers.py) with the
environment `make serve` gives them.
"""

import asyncio
import datetime
import http.client
import ipaddress
import json
import socket
import ssl
import subprocess
import sys
import urllib.parse

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from tests.support import servers as support
from tests.support.threads import in_own_thread
from tournament.management.commands import hall

EVIL = "http://evil.example"
ip = ipaddress.ip_address


# --- the laptop's names and addresses ---------------------------------------


def test_the_allowed_hosts_are_the_laptops_names_and_addresses(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "hall", "hosts"],
        cwd=support.ROOT,
        env=support.server_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    hosts = done.stdout.strip().split(",")
    assert "*" not in hosts
    assert {"localhost", "127.0.0.1", "[::1]"} <= set(hosts)
    assert socket.gethostname().lower() in hosts
    for host in hosts:
        assert host == host.strip().lower() and host


def test_only_addresses_a_phone_can_name_are_kept():
    assert hall.usable("192.168.1.20") == ip("192.168.1.20")
    assert hall.usable("::ffff:192.168.1.20") == ip("192.168.1.20")
    assert hall.usable("fd00::2") == ip("fd00::2")
    for unusable in ("fe80::1%wlan0", "fe80::1", "0.0.0.0", "224.0.0.1", "x", ""):
        assert hall.usable(unusable) is None
    assert hall.allowed_hosts(["localhost", "laptop"], [ip("10.0.0.5"), ip("::1")]) == [
        "localhost",
        "laptop",
        "10.0.0.5",
        "[::1]",
    ]


# --- the certificate ---------------------------------------------------------

NAMES = ["localhost", "laptop", "laptop.local"]
ADDRESSES = [ip("127.0.0.1"), ip("192.168.1.20"), ip("::1")]
NOW = datetime.datetime(2026, 12, 5, 8, 0, tzinfo=datetime.UTC)


def _certificate(path):
    return x509.load_pem_x509_certificate(path.read_bytes())


def test_the_certificate_names_the_laptop_and_holds_for_a_year(tmp_path):
    cert_path, key_path, made = hall.certificate_ensure(
        tmp_path / "tls", NAMES, ADDRESSES, now=NOW
    )
    assert made
    cert = _certificate(cert_path)
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == NAMES
    assert names.get_values_for_type(x509.IPAddress) == ADDRESSES
    # Valid now (and for a phone whose clock is a little behind), a year on.
    assert cert.not_valid_before_utc < NOW - datetime.timedelta(hours=12)
    assert cert.not_valid_after_utc - NOW == datetime.timedelta(days=365)
    assert cert.issuer == cert.subject  # self-signed
    assert not cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    cert.verify_directly_issued_by(cert)
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    assert key.public_key() == cert.public_key()
    assert key_path.stat().st_mode & 0o777 == 0o600  # the key is the laptop's


def test_the_certificate_is_made_once_and_anew_only_when_it_must(tmp_path):
    directory = tmp_path / "tls"
    cert_path, _, _ = hall.certificate_ensure(directory, NAMES, ADDRESSES, now=NOW)
    first = cert_path.read_bytes()
    # The next start: the same certificate (phones are not asked again),
    # also for fewer names.
    later = NOW + datetime.timedelta(days=200)
    _, _, made = hall.certificate_ensure(directory, NAMES[:2], ADDRESSES, now=later)
    assert not made and cert_path.read_bytes() == first
    # In another hall the laptop has another address: a new certificate.
    elsewhere = [*ADDRESSES, ip("10.1.2.3")]
    _, _, made = hall.certificate_ensure(directory, NAMES, elsewhere, now=later)
    assert made and cert_path.read_bytes() != first
    second = cert_path.read_bytes()
    # A month before it ends, a new one; a broken file, a new one.
    ending = later + datetime.timedelta(days=340)
    assert hall.certificate_ensure(directory, NAMES, elsewhere, now=ending)[2]
    assert cert_path.read_bytes() != second
    cert_path.write_text("kaputt")
    assert hall.certificate_ensure(directory, NAMES, elsewhere, now=ending)[2]
    assert _certificate(cert_path)


# --- real servers as `make serve` starts them --------------------------------


def _serve(tmp_path, *options, **extra):
    env = support.server_env(tmp_path, **extra)
    support.seed_database(env)
    port = support.free_port()
    return port, support.start_server(env, port, *options)


async def _open(url, origin, **options):
    """The socket's answer to a subscription of the referees' region, or
    "refused" (the handshake was refused)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    try:
        websocket = await connect(url, origin=origin, open_timeout=30, **options)
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return "refused"
    try:
        await websocket.send(
            json.dumps(
                {"type": "subscribe", "regions": [{"key": "progress", "etag": ""}]}
            )
        )
        while True:
            message = json.loads(await asyncio.wait_for(websocket.recv(), 10))
            if message["type"] == "subscribed":
                return "staff" if message["keys"] == ["progress"] else "public"
    finally:
        await websocket.close()


@pytest.mark.server
@pytest.mark.parametrize("allowed", ["hall hosts", "*"])
def test_a_socket_from_another_sites_page_is_refused(tmp_path, allowed):
    """A referee's browser on another site's page (the referee's cookie
    goes along): no socket; on the site's own page: the referees' region."""
    hosts = ",".join(hall.allowed_hosts()) if allowed == "hall hosts" else "*"
    port, process = _serve(tmp_path, ALLOWED_HOSTS=hosts)
    try:
        support.wait_until_up(port, process)
        _, cookies = support.http_sign_in(port, "schiri", support.PASSWORD)
        url = f"ws://127.0.0.1:{port}/ws/t/{support.SLUG}/"

        def attempt(origin):
            return in_own_thread(
                asyncio.run, _open(url, origin, additional_headers={"Cookie": cookies})
            )

        assert attempt(EVIL) == "refused"
        assert attempt(None) == "refused"
        assert attempt(f"http://localhost:{port}") == "refused"  # another host
        assert attempt(f"http://127.0.0.1:{port}") == "staff"
    finally:
        support.stop(process)


def _https(port, context, method, path, body="", headers=None, timeout=10):
    connection = http.client.HTTPSConnection(
        "127.0.0.1", port, context=context, timeout=timeout
    )
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.msg, response.read()
    finally:
        connection.close()


def _cookies(headers):
    """name: (value, attributes) of every cookie set."""
    found = {}
    for header in headers.get_all("Set-Cookie") or []:
        pair, *attributes = (part.strip() for part in header.split(";"))
        name, value = pair.split("=", 1)
        found[name] = (value, {a.split("=")[0].lower() for a in attributes})
    return found


@pytest.mark.server
def test_https_with_the_laptops_certificate_signs_a_referee_in(tmp_path):
    hosts = hall.allowed_hosts()
    cert_path, key_path, _ = hall.certificate_ensure(tmp_path / "tls")
    port, process = _serve(
        tmp_path,
        "--ssl-keyfile",
        str(key_path),
        "--ssl-certfile",
        str(cert_path),
        ALLOWED_HOSTS=",".join(hosts),
        SECURE_COOKIES="1",  # as `make serve-tls` sets them
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="0",
    )
    # A phone that accepted the certificate: it trusts exactly this one,
    # for the address it was made for.
    context = ssl.create_default_context(cafile=str(cert_path))
    try:
        status, headers, body = _https(
            port, context, "GET", "/konto/anmelden/", timeout=60
        )
        assert status == 200 and b'name="csrfmiddlewaretoken"' in body
        assert "Strict-Transport-Security" not in headers  # never HSTS here
        csrf, attributes = _cookies(headers)["csrftoken"]
        assert "secure" in attributes
        origin = f"https://127.0.0.1:{port}"
        form = urllib.parse.urlencode(
            {
                "username": "schiri",
                "password": support.PASSWORD,
                "csrfmiddlewaretoken": csrf,
            }
        )
        status, headers, _ = _https(
            port,
            context,
            "POST",
            "/konto/anmelden/",
            form,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={csrf}",
                "Origin": origin,
                "Referer": f"{origin}/konto/anmelden/",
            },
        )
        assert status == 302, "the referee could not sign in over HTTPS"
        session, attributes = _cookies(headers)["sessionid"]
        assert "secure" in attributes
        cookie = {"Cookie": f"sessionid={session}"}
        url = f"wss://127.0.0.1:{port}/ws/t/{support.SLUG}/"

        def attempt(origin):
            return in_own_thread(
                asyncio.run,
                _open(url, origin, ssl=context, additional_headers=cookie),
            )

        assert attempt(origin) == "staff"
        assert attempt(f"http://127.0.0.1:{port}") == "refused"
        assert attempt(EVIL) == "refused"
        # Plain HTTP on the same port gets no page.
        with pytest.raises((OSError, http.client.HTTPException)):
            support.request(port, "GET", "/")
    finally:
        support.stop(process)
