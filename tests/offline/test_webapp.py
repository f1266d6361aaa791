"""The installable web app (issue 16.3): manifest, service worker at the
root, its static files vendored, and the phone's part of every page."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from tournament.webapp.views import ASSETS

pytestmark = pytest.mark.django_db


def worker_config(body: str) -> dict:
    first, _, rest = body.partition("\n")
    assert first.startswith("const CONFIG = ") and first.endswith(";")
    assert 'self.addEventListener("fetch"' in rest
    return json.loads(first[len("const CONFIG = ") : -1])


def test_the_service_worker_is_served_from_the_root_and_asked_for_every_time(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    config = worker_config(response.content.decode())
    assert config["pages"][0] == "/" and "/t/" in config["pages"]
    assert "/verwaltung/" in config["notPages"]
    assert any(url.endswith("js/outbox.js") for url in config["assets"])
    assert config["offline"]["title"] == "Ohne Netz"


def test_the_service_worker_has_a_new_version_when_its_files_change(
    client, monkeypatch
):
    from tournament.webapp import views

    before = worker_config(client.get("/sw.js").content.decode())["version"]
    monkeypatch.setattr(views, "ASSETS", (*views.ASSETS, "js/slug.js"))
    after = worker_config(client.get("/sw.js").content.decode())["version"]
    assert before != after


def test_everything_the_worker_keeps_is_vendored():
    for name in (*ASSETS, "icons/icon-512.png", "js/sw.js"):
        assert finders.find(name), f"static/{name} is missing"


def test_the_manifest_names_the_app_in_german_with_its_icons(client):
    response = client.get(reverse("tournament:webapp_manifest"))
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["name"].startswith("Siebenschräm")
    assert manifest["lang"] == "de" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_manifest_follows_the_chosen_language(client):
    client.cookies["django_language"] = "en"
    manifest = json.loads(client.get(reverse("tournament:webapp_manifest")).content)
    assert manifest["lang"] == "en"


def test_every_page_links_the_app_and_its_scripts_without_inline_script(
    client, tournament
):
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert 'rel="manifest"' in page
    for script in ("js/offline.js", "js/outbox.js"):
        assert f'src="/static/{script}"' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    # The phone's words, for the scripts, in German.
    assert 'data-text-stand="Stand von {time}"' in page
    assert 'data-text-waiting="Wartet auf Netz' in page
    assert 'data-text-sent="Gesendet ✓"' in page
    assert re.search(r'data-page-time="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d', page)


def test_the_outbox_knows_who_sent(client, referee, tournament):
    assert 'data-owner=""' in client.get(f"/t/{tournament.slug}/").content.decode()
    client.force_login(referee)
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert f'data-owner="u{referee.pk}"' in page
