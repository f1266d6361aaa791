"""One word, one meaning: "abmelden" is what the desk does to a player who
leaves (the player list, his withdrawal page, the mark "abgemeldet");
signing out of the site is "Ausloggen". Both stood as "Abmelden" on the
same page."""

import html
import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def buttons_and_links(page: str) -> list[str]:
    found = re.findall(r"<(?:a|button)\b[^>]*>(.*?)</(?:a|button)>", page, flags=re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).split()) for f in found]


def test_the_player_list_and_the_withdrawal_keep_abmelden_for_the_player(
    organizer_client, organizer, tournament, entries
):
    for name in ("entry_list", "entry_withdraw"):
        kwargs = {"slug": tournament.slug}
        if name == "entry_withdraw":
            kwargs["number"] = 1
        labels = buttons_and_links(
            organizer_client.get(
                reverse(f"tournament:{name}", kwargs=kwargs)
            ).content.decode()
        )
        logout = [label for label in labels if organizer.username in label]
        assert logout == [f"Ausloggen ({organizer.username})"], (name, logout)
        withdraw = [label for label in labels if "abmelden" in label.lower()]
        assert withdraw, name
        assert all(organizer.username not in label for label in withdraw), name
