"""Hardening: login throttling, security headers, CSRF."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.factories import make_user

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
