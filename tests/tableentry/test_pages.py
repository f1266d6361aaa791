"""The player's pages (issue 16.1, 16.2, 16.5): "Mein Turnier" behind the
personal link, the entry and the answers as plain forms (no script, no
CSRF token: the link is the credential) and as JSON for the phone's outbox."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.results import FIVE, enter, quick_form
from tournament.models import AuditEvent, ResultAnswer, ResultVersion
from tournament.registration.services import entry_link_renew
from tournament.tournaments.services import tournament_save

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
# The player, the tournament's state and the rate guard; not his results.
QUERIES_RELOADED = 4


def mine(entry):
    return reverse(
        "tournament:mine",
        kwargs={"slug": entry.tournament.slug, "token": entry.link_token},
    )


def at(name, entry, series=1, table=1):
    return reverse(
        f"tournament:{name}",
        kwargs={
            "slug": entry.tournament.slug,
            "token": entry.link_token,
            "series": series,
            "table": table,
        },
    )


@pytest.fixture
def phone():
    return Client(enforce_csrf_checks=True)


def test_mein_turnier_shows_table_seat_and_what_to_do(at_table, phone):
    response = phone.get(mine(at_table.p[2]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Mein Turnier" in text
    assert "Tisch 1" in text and "Sitz 2" in text
    assert at_table.p[1].player.full_name in text  # at the table with him
    assert "Ergebnis eingeben" in text
    assert (
        response["Cache-Control"].startswith("private")
        or "private" in response["Cache-Control"]
    )


def test_a_referees_entry_tells_the_player_he_need_not_do_anything(
    at_table, phone, referee
):
    enter(at_table.t1, referee)
    text = phone.get(mine(at_table.p[2])).content.decode()
    assert "Die Schiedsrichter haben das Ergebnis eingegeben" in text
    assert "Sie müssen nichts tun." in text
    assert "Stimmt das Ergebnis?" not in text and "Ergebnis eingeben" not in text


def test_a_plain_form_enters_and_another_phone_confirms(at_table, phone):
    url = at("mine_enter", at_table.p[1])
    assert phone.get(url).status_code == 200
    response = phone.post(url, quick_form(FIVE, revision=0))
    assert response.status_code == 302
    assert response["Location"] == mine(at_table.p[1])
    version = ResultVersion.objects.get()
    assert version.entered_by_player == at_table.p[1]
    other = Client(enforce_csrf_checks=True)
    page = other.get(mine(at_table.p[4])).content.decode()
    assert "Stimmt das Ergebnis?" in page
    response = other.post(at("mine_confirm", at_table.p[4]), {"version": 1})
    assert response.status_code == 302
    version.refresh_from_db()
    assert version.status == "confirmed"
    page = other.get(mine(at_table.p[4])).content.decode()
    assert "bestätigt" in page


def test_json_answers_in_the_agreed_shape(at_table, phone):
    response = phone.post(
        at("mine_enter", at_table.p[1]), quick_form(FIVE, revision=0), **JSON
    )
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "ok": True,
        "state": "entered",
        "message": body["message"],
        "series": 1,
        "table": 1,
        "version": 1,
        "revision": 1,
        "location": mine(at_table.p[1]),
    }
    state = phone.get(mine(at_table.p[2]), **JSON).json()
    assert state["state"] == "entered"
    assert state["may_confirm"] and state["version"] == 1
    refused = phone.post(at("mine_confirm", at_table.p[1]), {"version": 1}, **JSON)
    assert refused.status_code == 403
    assert refused.json()["state"] == "refused"
    assert refused.json()["code"] == "own_entry"
    done = phone.post(at("mine_confirm", at_table.p[2]), {"version": 1}, **JSON)
    assert done.json()["state"] == "confirmed"
    again = phone.post(at("mine_confirm", at_table.p[3]), {"version": 1}, **JSON)
    assert again.status_code == 409
    assert again.json()["state"] == "conflict"


def test_mistakes_come_back_per_field_all_at_once(at_table, phone):
    data = quick_form(FIVE, revision=0)
    data["g2_marks"] = "9"
    data["g4_winner"] = "7"
    response = phone.post(at("mine_enter", at_table.p[1]), data, **JSON)
    assert response.status_code == 400
    body = response.json()
    assert body["state"] == "invalid"
    assert set(body["errors"]) >= {"g2_marks", "g4_winner"}
    html = phone.post(at("mine_enter", at_table.p[1]), data)
    assert html.status_code == 400
    assert "Fehler" in html.content.decode()
    assert not ResultVersion.objects.exists()


def test_stimmt_nicht_without_reason_is_shown_beside_the_field(at_table, phone):
    phone.post(at("mine_enter", at_table.p[1]), quick_form(FIVE, revision=0))
    response = phone.post(at("mine_reject", at_table.p[2]), {"version": 1})
    assert response.status_code == 400
    assert "was nicht stimmt" in response.content.decode()
    assert not ResultAnswer.objects.exists()
    response = phone.post(
        at("mine_reject", at_table.p[2]),
        {"version": 1, "reason": "Spiel 1 hat Sitz 2 gewonnen"},
        **JSON,
    )
    assert response.json()["state"] == "disputed"


def test_a_player_of_another_table_is_refused_with_a_message(at_table, phone):
    phone.post(at("mine_enter", at_table.p[1]), quick_form(FIVE, revision=0))
    events = AuditEvent.objects.count()
    response = phone.post(at("mine_confirm", at_table.p[5]), {"version": 1})
    assert response.status_code == 403
    assert "nicht an Tisch 1" in response.content.decode()
    assert AuditEvent.objects.count() == events
    assert ResultVersion.objects.get().status == "pending"


@pytest.mark.parametrize("how", ["slug", "token", "renewed", "other_tournament"])
def test_wrong_links_are_one_404(at_table, phone, organizer, how):
    entry = at_table.p[1]
    url = mine(entry)
    if how == "slug":
        url = url.replace(f"/t/{entry.tournament.slug}/", "/t/gibts-nicht/")
    elif how == "token":
        url = url.replace(entry.link_token, "x" * 32)
    elif how == "renewed":
        entry_link_renew(actor=organizer, entry=entry)
    elif how == "other_tournament":
        from tests.support.factories import EntryFactory

        stranger = EntryFactory()
        url = url.replace(entry.link_token, stranger.link_token)
    response = phone.get(url)
    assert response.status_code == 404
    wrong = phone.get(url, **JSON)
    assert wrong.status_code == 404
    assert wrong.json()["state"] == "not_found"


def test_the_same_404_for_every_wrong_part(at_table, phone):
    entry = at_table.p[1]
    a = phone.get(mine(entry).replace(entry.link_token, "y" * 32), **JSON)
    b = phone.get(mine(entry).replace(entry.tournament.slug, "nix"), **JSON)
    assert a.content == b.content


def test_a_renewed_link_works_and_is_audited(at_table, phone, organizer):
    old = mine(at_table.p[3])
    entry = entry_link_renew(actor=organizer, entry=at_table.p[3])
    assert phone.get(old).status_code == 404
    assert phone.get(mine(entry)).status_code == 200
    event = AuditEvent.objects.get(action="entry.link_renew")
    assert entry.link_token not in json.dumps([event.before, event.after, event.note])


def test_too_many_wrong_links_get_429(at_table, phone, settings):
    settings.PLAYER_LINK_MISSES = 3
    entry = at_table.p[1]
    for n in range(3):
        assert (
            phone.get(mine(entry).replace(entry.link_token, f"{n}" * 32)).status_code
            == 404
        )
    response = phone.get(mine(entry))
    assert response.status_code == 429
    assert "Retry-After" in response
    assert phone.get(mine(entry), **JSON).json()["state"] == "rate_limited"


def test_too_many_requests_get_429(at_table, phone, settings):
    settings.PLAYER_LINK_REQUESTS = 2
    url = mine(at_table.p[1])
    assert phone.get(url).status_code == 200
    assert phone.get(url).status_code == 200
    assert phone.get(url).status_code == 429


def test_the_phone_remembers_its_player_for_the_table_page(at_table, phone):
    card = reverse("tournament:table_card", kwargs={"slug": "rm-test", "table": 1})
    page = phone.get(card).content.decode()
    assert "Spielerkarte scannen" in page
    phone.get(mine(at_table.p[2]))
    page = phone.get(card).content.decode()
    assert "Weiter zu „Mein Turnier“" in page
    other = reverse("tournament:table_card", kwargs={"slug": "rm-test", "table": 2})
    assert "nicht an diesem Tisch" in phone.get(other).content.decode()
    start = reverse("tournament:mine_start", kwargs={"slug": "rm-test"})
    assert phone.get(start)["Location"] == mine(at_table.p[2])


def test_the_link_can_be_typed_in(at_table, phone):
    start = reverse("tournament:mine_start", kwargs={"slug": "rm-test"})
    url = "http://192.168.1.20:8000" + mine(at_table.p[2])
    assert phone.get(start, {"link": url})["Location"] == mine(at_table.p[2])
    wrong = phone.get(start, {"link": "quatsch"})
    assert wrong.status_code == 404
    assert "gibt es nicht" in wrong.content.decode()


def test_with_table_entry_off_the_table_card_still_goes_to_the_results(at_table, phone):
    at_table.tournament.table_entry = "off"
    at_table.tournament.save()
    card = reverse("tournament:table_card", kwargs={"slug": "rm-test", "table": 1})
    assert phone.get(card)["Location"].endswith("/serie/1/ergebnisse/#tisch-1")


def test_the_mein_turnier_tab_follows_the_tournament_not_the_phone(
    at_table, phone, client, organizer, django_capture_on_commit_callbacks
):
    """Public pages are kept and served to every visitor (tournament/live/
    pages.py): the tab is there for everybody while entry at the table is
    on, whether or not this phone opened a personal link, and gone when it
    is off."""
    standings = reverse("tournament:standings", kwargs={"slug": "rm-test"})
    start = reverse("tournament:mine_start", kwargs={"slug": "rm-test"})
    phone.get(mine(at_table.p[2]))
    for visitor in (client, phone):
        assert f'href="{start}"' in visitor.get(standings).content.decode()
    at_table.tournament.table_entry = "off"
    with django_capture_on_commit_callbacks(execute=True):
        tournament_save(actor=organizer, tournament=at_table.tournament, created=False)
    assert f'href="{start}"' not in client.get(standings).content.decode()


def test_mein_turnier_reloaded_reads_only_who_and_the_state(
    at_table, phone, django_assert_max_num_queries
):
    # Phones reload the page often: its region is kept per state, and the
    # page around it reads the player and the state, not his whole day.
    assert phone.get(mine(at_table.p[2])).status_code == 200
    with django_assert_max_num_queries(QUERIES_RELOADED):
        response = phone.get(mine(at_table.p[2]))
    assert response.status_code == 200
    assert "Tisch 1" in response.content.decode()
