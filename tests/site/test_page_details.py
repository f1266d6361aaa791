"""Small things a visitor notices (issue 14.22): the site's icon on every
page, the projector's clock filled on the server, demo referees with names
a person would have."""

import datetime
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_every_page_carries_the_favicon(client, tournament):
    for url in (
        reverse("tournament:detail", args=[tournament.slug]),
        reverse("tournament:projector", args=[tournament.slug]),
    ):
        page = client.get(url).content.decode()
        assert 'rel="icon"' in page and "favicon.svg" in page, url
        assert "favicon.ico" in page, url


def test_the_projectors_clock_shows_the_time_before_any_script(client, tournament):
    page = client.get(reverse("tournament:projector", args=[tournament.slug]))
    clock = re.search(
        r'<time class="clock" datetime="([^"]+)"[^>]*>([^<]*)</time>',
        page.content.decode(),
    )
    assert clock, "no clock"
    assert re.fullmatch(r"\d\d:\d\d", clock.group(2))
    at = datetime.datetime.fromisoformat(clock.group(1))
    assert at.tzinfo is not None and f"{at:%H:%M}" == clock.group(2)


def test_the_demo_logins_have_plausible_german_names():
    call_command("demo", stdout=StringIO())
    users = get_user_model().objects.filter(
        username__in=["organizer", "referee", "referee2"]
    )
    names = {u.username: (u.first_name, u.last_name) for u in users}
    assert len(names) == 3
    for first, last in names.values():
        assert first.isalpha() and first[0].isupper(), first
        assert last.isalpha() and last[0].isupper(), last
        assert "Schieds" not in first and "Richter" not in last
    assert len({last for _, last in names.values()}) == 3
