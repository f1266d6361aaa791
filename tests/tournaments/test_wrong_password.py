"""A wrong password says so: "Benutzername oder Passwort ist falsch", next
to the form, not "bitte korrigieren … Bitte Benutzername und Passwort
eingeben" (which the person had done)."""

import re

import pytest

pytestmark = pytest.mark.django_db


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_a_wrong_password_says_name_or_password_was_wrong(client, organizer):
    response = client.post(
        "/konto/anmelden/", {"username": organizer.username, "password": "falsch"}
    )
    page = words(response)
    assert response.status_code == 200
    assert (
        "Nicht angemeldet. Benutzername oder Passwort ist falsch. Groß- und "
        "Kleinschreibung zählen bei beiden." in page
    )
    assert "bitte korrigieren" not in page
    assert "Bitte Benutzername und Passwort eingeben" not in page


def test_in_english_too(client, organizer):
    client.cookies["django_language"] = "en"
    response = client.post(
        "/konto/anmelden/",
        {"username": "nobody", "password": "falsch"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "The user name or the password is wrong." in words(response)
