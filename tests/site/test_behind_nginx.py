"""The server recipe as docs/OPERATING.md gives it: Debian's nginx with
deploy/nginx-site.conf in front of two workers (`manage.py serve --workers
2`) on PostgreSQL and Redis. Through it: static files, a sign-in (the form's
origin checked against the name the phone asked), a websocket, a 20 MB
photo reaching the site (not nginx's own refusal), and a phone claiming
other addresses in X-Forwarded-For still counted as itself by the
wrong-link guard.

Skipped with a message where nginx, PostgreSQL or Redis is missing (.ci/run
installs nginx).
"""

import asyncio
import json
import re
import subprocess
import time
import urllib.parse

import pytest

from bench.frontdoor import multipart_photo
from tests.support import servers as support
from tests.support.threads import in_own_thread

NGINX = support.NGINX
# A Redis database of this module's own, emptied before the servers start:
# the hall's settings keep the guards' counts there without a prefix, and a
# count left by an earlier run would refuse this run's phone at once.
REDIS_URL = support.redis_url(12)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.server,
    pytest.mark.skipif(
        NGINX is None,
        reason="no nginx here (Debian's nginx-light; .ci/run installs it)",
    ),
    pytest.mark.skipif(
        not support.postgres_answers(),
        reason=f"no PostgreSQL answers at {support.POSTGRES_URL}",
    ),
    pytest.mark.skipif(
        not support.redis_answers(REDIS_URL),
        reason=f"Redis does not answer at {REDIS_URL}",
    ),
]

# The wrong links a phone may name before it waits (PLAYER_LINK_MISSES).
MISSES = 5


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nginx")
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    with support.private_postgres_database() as (_, url):
        env = support.hall_env(
            folder,
            DATABASE_URL=url,
            REDIS_URL=REDIS_URL,
            PLAYER_LINK_MISSES=str(MISSES),
        )
        support.seed_database(env)
        upstream, front = support.free_port(), support.free_port()
        workers = support.start_server(env, upstream, "--workers", "2")
        nginx = support.start_nginx(folder, front, upstream)
        try:
            support.wait_until_up(upstream, workers)
            support.wait_until_up(front, nginx)
            yield front, env
        finally:
            nginx.terminate()
            nginx.wait(10)
            support.stop(workers)


def _host(port: int) -> dict[str, str]:
    return {"Host": f"127.0.0.1:{port}", "Origin": f"http://127.0.0.1:{port}"}


def _sign_in(port: int) -> tuple[str, str]:
    _, headers, _ = support.request(port, "GET", "/konto/anmelden/")
    csrf = support._cookie(headers, "csrftoken")
    form = urllib.parse.urlencode(
        {
            "username": "schiri",
            "password": support.PASSWORD,
            "csrfmiddlewaretoken": csrf,
        }
    )
    status, headers, _ = support.request(
        port,
        "POST",
        "/konto/anmelden/",
        form,
        {
            **_host(port),
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
        },
    )
    assert status == 302, f"sign-in through nginx: {status}"
    return csrf, f"csrftoken={csrf}; sessionid={support._cookie(headers, 'sessionid')}"


def test_static_files_and_a_sign_in_pass(behind_nginx):
    port, _ = behind_nginx
    status, _, page = support.request(port, "GET", "/")
    assert status == 200
    script = re.search(rb'src="(/static/[^"]+\.js)"', page)
    assert script, "no script on the start page"
    assert support.request(port, "GET", script.group(1).decode())[0] == 200
    _sign_in(port)


def test_a_websocket_is_upgraded_through_it(behind_nginx):
    port, _ = behind_nginx

    async def subscribe():
        from websockets.asyncio.client import connect

        async with connect(
            f"ws://127.0.0.1:{port}/ws/t/{support.SLUG}/?lang=de",
            origin=f"http://127.0.0.1:{port}",
            open_timeout=10,
        ) as socket:
            await socket.send(
                json.dumps(
                    {
                        "type": "subscribe",
                        "regions": [{"key": "standings", "etag": "x"}],
                    }
                )
            )
            while True:
                kind = json.loads(await asyncio.wait_for(socket.recv(), 10))["type"]
                if kind == "subscribed":
                    return kind

    assert in_own_thread(asyncio.run, subscribe()) == "subscribed"


def test_a_20_mb_photo_reaches_the_site(behind_nginx):
    port, _ = behind_nginx
    csrf, cookies = _sign_in(port)
    photo = b"\xff\xd8\xff\xe0" + b"\0" * (20 * 1024 * 1024)
    content_type, body = multipart_photo(
        photo, "bogen.jpg", {"csrfmiddlewaretoken": csrf}
    )
    status, headers, page = support.request(
        port,
        "POST",
        f"/t/{support.SLUG}/eingabe/serie/1/tisch/1/foto/",
        body,
        {
            **_host(port),
            "Cookie": cookies,
            "Content-Type": content_type,
        },
        timeout=60,
    )
    # The site's own answer (its security headers), in German: not nginx's
    # "413 Request Entity Too Large".
    assert status != 413, page[:200]
    assert "Content-Security-Policy" in headers, (status, page[:200])


def test_a_phone_claiming_other_addresses_is_still_counted_as_itself(behind_nginx):
    port, _ = behind_nginx
    statuses = [
        support.request(
            port,
            "GET",
            f"/t/{support.SLUG}/mein/{n:032d}/",
            headers={"X-Forwarded-For": f"10.0.{n}.{n}"},
        )[0]
        for n in range(MISSES + 3)
    ]
    assert statuses[:MISSES] == [404] * MISSES
    assert 429 in statuses[MISSES:], statuses


def test_the_https_site_file_is_one_nginx_takes(tmp_path):
    """deploy/nginx-site-tls.conf, with a certificate of the test's own in
    place of Let's Encrypt's, passes `nginx -t`."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "turnier.example.org")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    (tmp_path / "cert.pem").write_bytes(
        certificate.public_bytes(serialization.Encoding.PEM)
    )
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    site = (support.ROOT / "deploy" / "nginx-site-tls.conf").read_text()
    live = "/etc/letsencrypt/live/turnier.example.org/"
    site = site.replace(f"{live}fullchain.pem", str(tmp_path / "cert.pem"))
    site = site.replace(f"{live}privkey.pem", str(tmp_path / "key.pem"))
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path / 'nginx.pid'}; error_log stderr;\nevents {{}}\n"
        f"http {{ include {tmp_path / 'site.conf'}; }}\n"
    )
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_while_the_workers_are_down_nginx_says_so_in_german(tmp_path):
    """A restart or an upgrade: nginx answers 503 with a page in the site's
    words (not its own "502 Bad Gateway") and asks to come back soon."""
    nobody = support.free_port()  # no worker listens here
    front = support.free_port()
    nginx = support.start_nginx(tmp_path, front, nobody)
    try:
        for _ in range(100):  # nginx listens within a moment
            try:
                status, headers, page = support.request(front, "GET", "/tabelle/")
                break
            except ConnectionRefusedError:
                time.sleep(0.05)
        assert status == 503
        assert headers["Retry-After"] == "10"
        assert "Die Turnierseite startet gerade neu" in page.decode()
    finally:
        nginx.terminate()
        nginx.wait(10)
