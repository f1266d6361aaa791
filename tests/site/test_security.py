"""Hardening: login throttling, security headers, CSRF."""

import pytest
from django.contrib.auth.hashers import check_password, make_password
from django.test import Client, override_settings
from django.urls import reverse

from tests.support.factories import make_user
from tests.support.threads import run_async
from tests.support.websockets import ws_connect

pytestmark = pytest.mark.django_db


def test_login_is_locked_after_five_failures(client):
    make_user("anna")
    url = reverse("login")
    for _ in range(5):
        response = client.post(url, {"username": "anna", "password": "falsch"})
    response = client.post(url, {"username": "anna", "password": "pw"})
    assert response.status_code == 429
    assert "vorübergehend gesperrt" in response.content.decode()
    # the right password from a fresh client is refused as well while locked
    assert "_auth_user_id" not in client.session


def test_good_login_works_and_resets_nothing_else(client):
    make_user("gerda")
    response = client.post(
        reverse("login"), {"username": "gerda", "password": "pw"}, follow=True
    )
    assert response.context["user"].is_authenticated


def test_the_hall_stores_passwords_with_scrypt_and_renews_older_ones(client):
    from config import settings as hall

    with override_settings(PASSWORD_HASHERS=hall.PASSWORD_HASHERS):
        user = make_user("hanna")
        user.password = make_password("geheim-1234", hasher="pbkdf2_sha256")
        user.save(update_fields=["password"])
        response = client.post(
            reverse("login"), {"username": "hanna", "password": "geheim-1234"}
        )
        assert response.status_code == 302
        user.refresh_from_db()
        assert user.password.startswith("scrypt$")
        assert check_password("geheim-1234", user.password)
        assert make_password("neu-5678").startswith("scrypt$")


def test_pages_carry_a_strict_content_security_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_no_inline_script_in_any_page(client, tournament):
    for url in ["/", f"/t/{tournament.slug}/", reverse("login")]:
        html = client.get(url).content.decode()
        for chunk in html.split("<script")[1:]:
            assert "src=" in chunk.split(">")[0], f"inline script on {url}"


def test_forms_need_a_csrf_token(tournament, organizer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    url = reverse("tournament:entry_create", kwargs={"slug": tournament.slug})
    response = client.post(url, {"first_name": "A", "last_name": "B"})
    assert response.status_code == 403


# --- Websockets: only from the site's own pages (issue 15.6) ---------------
# A browser sends the session cookie with a socket any page opens, and the
# same-origin policy does not cover websockets: only the handshake's Origin
# tells the site's own pages from another site's. It must be present and
# name the host the socket is opened on, whatever ALLOWED_HOSTS says.

EVIL = "http://evil.example"


@pytest.fixture
def socket_paths(memory_layer, tournament, four_people):
    """Both public websocket routes: a tournament's live pages and a digital
    table's private link."""
    token = four_people.seats.get(number=1).token
    return {"live": f"/ws/t/{tournament.slug}/", "digital": f"/ws/d/{token}/"}


def handshake(path, **headers):
    """Whether the site accepts the socket (ws_connect's keywords: origin,
    host, cookie)."""

    async def scenario():
        communicator, connected, _ = await ws_connect(path, **headers)
        if connected:
            await communicator.disconnect()
        return connected

    return run_async(scenario)


# (ALLOWED_HOSTS, the socket's host, the page's origin, accepted?)
ORIGIN_CASES = [
    pytest.param(None, "testserver", "http://testserver", True, id="same-origin"),
    pytest.param(None, "testserver", EVIL, False, id="evil-origin"),
    pytest.param(None, "testserver", None, False, id="no-origin"),
    pytest.param(None, "testserver", "null", False, id="null-origin"),
    pytest.param(None, "testserver", "http://testserver:8080", False, id="other-port"),
    pytest.param(None, "testserver", "https://testserver", False, id="other-scheme"),
    pytest.param(
        ["*"], "laptop.lan:8000", "http://laptop.lan:8000", True, id="all-same-origin"
    ),
    pytest.param(["*"], "192.168.1.20:8000", EVIL, False, id="all-evil-origin"),
    pytest.param(["*"], "192.168.1.20:8000", None, False, id="all-no-origin"),
    pytest.param(
        ["*"], "192.168.1.20:8000", "http://192.168.1.20", False, id="all-other-port"
    ),
    pytest.param(["192.168.1.20"], "evil.example", EVIL, False, id="host-not-allowed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("route", ["live", "digital"])
@pytest.mark.parametrize(("allowed", "host", "origin", "accepted"), ORIGIN_CASES)
def test_a_socket_is_accepted_only_from_the_sites_own_pages(
    settings, socket_paths, route, allowed, host, origin, accepted
):
    if allowed is not None:
        settings.ALLOWED_HOSTS = allowed
    assert handshake(socket_paths[route], host=host, origin=origin) is accepted


@pytest.mark.django_db(transaction=True)
def test_another_site_gets_no_referees_region_with_their_session(
    settings, socket_paths, referee, client
):
    """Cross-site websocket hijacking: a page of another site opens the
    live socket in a referee's browser, which sends the referee's cookie."""
    settings.ALLOWED_HOSTS = ["*"]  # what `make serve` used to set
    client.force_login(referee)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    path = socket_paths["live"]

    async def staff_region(origin):
        communicator, connected, _ = await ws_connect(
            path, cookie=cookie, origin=origin
        )
        if not connected:
            return "refused"
        try:
            await communicator.send_json_to(
                {"type": "subscribe", "regions": [{"key": "progress", "etag": ""}]}
            )
            while True:
                message = await communicator.receive_json_from(timeout=5)
                if message["type"] == "subscribed":
                    return "staff" if message["keys"] == ["progress"] else "public"
        finally:
            await communicator.disconnect()

    assert run_async(staff_region, EVIL) == "refused"
    assert run_async(staff_region, None) == "refused"
    assert run_async(staff_region, "http://testserver") == "staff"
