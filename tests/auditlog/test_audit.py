"""The audit trail: every service write leaves a row (who, what,
before/after), and the organizer's log finds them."""

import datetime
import secrets

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.support.factories import EntryFactory, TournamentFactory
from tests.support.results import FIVE, FIVE_PAIRS, games
from tournament.backup import services as backup_services
from tournament.core.audit import action_prefixes, audit_diff, audit_record
from tournament.models import AuditEvent, Entry, Series, Table, Team
from tournament.paper import jobs
from tournament.paper.games_import import games_import_apply
from tournament.registration import services as registration_services
from tournament.registration.services import PlayerData
from tournament.results import services as results_services
from tournament.seating import services as seating_services
from tournament.standings import tiebreaks as standings_tiebreaks
from tournament.tournaments import services as tournaments_services

pytestmark = pytest.mark.django_db


class Trail:
    """Asserts that each write left exactly its audit rows."""

    def __init__(self):
        self.last = AuditEvent.objects.order_by("-id").values_list("id", flat=True)
        self.last = self.last.first() or 0

    def expect(self, action, *, actor, before=True, after=True, more=False):
        """The row of `action` among those written since the last step;
        `more`: the step wrote further rows, asked for next."""
        new = list(AuditEvent.objects.filter(id__gt=self.last).order_by("id"))
        assert new, f"{action}: no audit row"
        event = next((e for e in new if e.action == action), None)
        assert event is not None, (action, [e.action for e in new])
        assert event.actor == actor, action
        assert event.object_type and event.object_id, action
        assert (event.before is not None) == before, (action, event.before)
        assert (event.after is not None) == after, (action, event.after)
        self.last = event.id if more else new[-1].id
        return event


def test_every_service_write_leaves_an_audit_row(
    tournament, organizer, referee, referee2, var_dir
):
    trail = Trail()

    tournament.venue = "Daun"
    tournaments_services.tournament_save(
        actor=organizer,
        tournament=tournament,
        created=False,
        referees=[referee, referee2],
    )
    event = trail.expect("tournament.update", actor=organizer)
    assert event.before["venue"] == "Ulmen" and event.after["venue"] == "Daun"
    assert event.before["referees"] == []
    assert event.after["referees"] == ["schiri", "schiri2"]

    # Registration desk
    entry = registration_services.entry_register(
        actor=organizer,
        tournament=tournament,
        data=PlayerData(first_name="Anna", last_name="Schmitz"),
    )
    trail.expect("entry.register", actor=organizer, before=False)
    imported = registration_services.entries_import(
        actor=organizer,
        tournament=tournament,
        rows=[PlayerData(first_name=f"P{n}", last_name="Import") for n in range(11)],
    )
    event = trail.expect("entry.import", actor=organizer, before=False)
    assert event.after["start_numbers"] == list(range(2, 13))
    registration_services.entry_update(
        actor=organizer,
        entry=entry,
        data=PlayerData(first_name="Anna", last_name="Schmitz-Weber"),
    )
    event = trail.expect("entry.update", actor=organizer)
    assert event.after["last_name"] == "Schmitz-Weber"
    for e in [entry, *imported]:
        registration_services.entry_set_checked_in(
            actor=organizer, entry=e, checked_in=True
        )
        trail.expect("entry.check_in", actor=organizer)
    registration_services.entry_withdraw(
        actor=organizer, entry=imported[-1], reason="krank"
    )
    trail.expect("entry.withdraw", actor=organizer)
    registration_services.entry_reinstate(actor=organizer, entry=imported[-1])
    trail.expect("entry.reinstate", actor=organizer)
    registration_services.entry_withdraw(
        actor=organizer, entry=imported[-1], reason="krank"
    )
    trail.expect("entry.withdraw", actor=organizer)

    # Teams
    team = registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=None,
        name="Daun I",
        members=imported[:3],
    )
    trail.expect("team.create", actor=organizer, before=False)
    registration_services.team_save(
        actor=organizer,
        tournament=tournament,
        team=team,
        name="Daun 1",
        members=imported[:4],
    )
    event = trail.expect("team.update", actor=organizer)
    assert event.before["name"] == "Daun I" and event.after["name"] == "Daun 1"
    registration_services.team_delete(
        actor=organizer, team=Team.objects.get(pk=team.pk)
    )
    trail.expect("team.delete", actor=organizer, after=False)

    # Seating: 11 present players, tables 4 + 4 + 3
    seating_services.series_ensure(tournament=tournament, actor=organizer)
    trail.expect("series.create", actor=organizer, before=False)
    series = Series.objects.get(tournament=tournament, number=1)
    series = seating_services.series_seat(actor=organizer, series=series)
    trail.expect("series.seat", actor=organizer)
    first, second = Table.objects.filter(series=series).order_by("number")[:2]
    a, b = first.seats.first().entry, second.seats.first().entry
    series = seating_services.series_swap(
        actor=organizer, series=series, entry_a=a, entry_b=b, version=series.version
    )
    event = trail.expect("series.swap", actor=organizer)
    # Start number, table number, seat: the two swapped places.
    assert event.before["a"][1:] == event.after["b"][1:] == [1, 1]
    assert event.before["b"][1:] == event.after["a"][1:] == [2, 1]
    seating_services.series_release(actor=organizer, series=series)
    event = trail.expect("series.release", actor=organizer)
    assert event.before["tournament_status"] == "planned"
    assert event.after["tournament_status"] == "running"

    # Results: enter, reject, enter, confirm, correct
    table = Table.objects.get(series=series, number=1)
    version = results_services.result_enter(
        actor=referee, table=table, games=FIVE, mode="quick", revision=None
    )
    trail.expect("result.enter", actor=referee, before=False)
    results_services.result_reject(
        actor=referee2, version=version, revision=None, reason="?"
    )
    event = trail.expect("result.reject", actor=referee2)
    assert event.after["status"] == "rejected"
    version = results_services.result_enter(
        actor=referee, table=table, games=FIVE, mode="quick", revision=None
    )
    trail.expect("result.enter", actor=referee, before=False)
    results_services.result_confirm(actor=referee2, version=version, revision=None)
    event = trail.expect("result.confirm", actor=referee2)
    assert event.before["status"] == "pending" and event.after["status"] == "confirmed"
    results_services.result_enter(
        actor=organizer,
        table=table,
        games=games([(2, 5), *FIVE_PAIRS[1:]]),
        mode="quick",
        revision=None,
        reason="Tippfehler",
    )
    event = trail.expect("result.correct", actor=organizer)
    assert event.note == "Tippfehler"
    changed = {c.key for c in audit_diff(event.before, event.after)}
    assert {"games.1.winner", "version", "status"} <= changed
    assert "games.2.winner" not in changed

    # Imports of games: every table through result_enter, and one row for all
    second.refresh_from_db()
    games_import_apply(
        actor=organizer,
        tournament=tournament,
        tables=[
            {
                "series": 1,
                "table": second.number,
                "games": FIVE_PAIRS,
                "revision": second.result_revision,
            }
        ],
        filename="spiele.xlsx",
    )
    trail.expect("result.enter", actor=organizer, before=False, more=True)
    trail.expect("results.import", actor=organizer, before=False)

    # Tie-breaks
    standings_tiebreaks.tiebreak_draw_lot(
        actor=organizer, tournament=tournament, start_numbers=[1, 2]
    )
    trail.expect("tiebreak.lot", actor=organizer, before=False)
    standings_tiebreaks.tiebreak_record_playoff(
        actor=organizer, tournament=tournament, order=[3, 4], note="Stechen"
    )
    trail.expect("tiebreak.playoff", actor=organizer, before=False)

    # Jobs
    jobs.job_start(
        actor=organizer,
        tournament=tournament,
        kind="xlsx",
        label="Ergebnisse",
        params={},
    )
    trail.expect("job.start", actor=organizer, before=False)

    # Restore over the same slug: the old tournament's deletion stays logged
    doc = backup_services.tournament_backup(tournament=tournament)
    restored = backup_services.tournament_restore(
        doc=doc, replace=True, actor=organizer
    )
    gone = AuditEvent.objects.get(action="tournament.delete")
    assert gone.tournament is None and gone.actor == organizer
    assert gone.before["slug"] == tournament.slug
    event = AuditEvent.objects.get(action="tournament.restore")
    assert event.tournament == restored
    assert event.after["referees"] == ["schiri", "schiri2"]
    assert Entry.objects.filter(tournament=restored).count() == 12


def test_the_diff_shows_changed_keys_only():
    before = {"name": "A", "members": [1, 2], "games": [{"w": 1}, {"w": 2}]}
    after = {"name": "A", "members": [1, 3], "games": [{"w": 1}, {"w": 4}], "n": 1}
    changes = audit_diff(before, after)
    assert [(c.key, c.old, c.new) for c in changes[:2]] == [
        ("members", [1, 2], [1, 3]),
        ("games.2.w", 2, 4),
    ]
    assert changes[2].key == "n" and not changes[2].has_old
    assert [c.key for c in audit_diff(None, {"a": 1})] == ["a"]
    assert [c.has_new for c in audit_diff({"a": 1}, None)] == [False]
    assert audit_diff({"a": 1}, {"a": 1}) == []


def test_action_filter_takes_groups_and_prefixes():
    assert action_prefixes("result.*") == ("result.", "results.")
    assert action_prefixes("seating") == ("series.",)
    assert action_prefixes("entry.check") == ("entry.check",)
    assert action_prefixes(" ") == ()


# --- The organizer's log -------------------------------------------------------


def _events(tournament, count, *, actor=None, action="entry.update"):
    entry = EntryFactory(tournament=tournament)
    for n in range(count):
        audit_record(
            actor=actor,
            action=action,
            obj=entry,
            tournament=tournament,
            before={"checked_in": False, "club": f"Club {n}"},
            after={"checked_in": True, "club": f"Club {n}"},
            note=secrets.token_hex(4),
        )
    return entry


def _queries(client, url):
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def test_the_log_reads_in_a_fixed_number_of_queries(
    organizer_client, organizer, tournament, django_assert_num_queries
):
    other = TournamentFactory()
    _events(tournament, 3, actor=organizer)
    url = reverse("tournament:audit_log_all")
    few = _queries(organizer_client, url)
    _events(other, 40, actor=organizer)
    _events(tournament, 40)
    assert _queries(organizer_client, url) == few
    assert _queries(organizer_client, url + "?page=2") == few
    # session, user, groups; count, page; what the events are about (one
    # query per kind of object: here players); filter choices: users,
    # tournaments
    with django_assert_num_queries(8):
        organizer_client.get(url)
    filtered = f"{url}?tournament={other.slug}&actor=orga&action=entry.*&q=Club"
    assert _queries(organizer_client, filtered) == few + 1  # the chosen tournament


def test_the_log_is_newest_first_and_pages(organizer_client, organizer, tournament):
    _events(tournament, 60, actor=organizer)
    newest = AuditEvent.objects.latest("id")
    oldest = AuditEvent.objects.earliest("id")
    url = reverse("tournament:audit_log_all")
    first = organizer_client.get(url).content.decode()
    assert newest.note in first and oldest.note not in first
    assert oldest.note in organizer_client.get(url + "?page=2").content.decode()


def test_the_log_filters(organizer_client, organizer, referee, tournament):
    other = TournamentFactory(name="Anderes Turnier")
    _events(tournament, 1, actor=organizer)
    mine = AuditEvent.objects.latest("id")
    _events(other, 1, actor=referee, action="result.enter")
    theirs = AuditEvent.objects.latest("id")
    _events(other, 1, action="series.seat")
    system = AuditEvent.objects.latest("id")
    AuditEvent.objects.filter(pk=system.pk).update(
        at=timezone.now() - datetime.timedelta(days=3), note="Müller gesetzt"
    )
    url = reverse("tournament:audit_log_all")

    def shown(query):
        response = organizer_client.get(url + query)
        assert response.status_code == 200
        text = response.content.decode()
        return {e.note for e in (mine, theirs) if e.note in text} | (
            {"system"} if "Müller gesetzt" in text else set()
        )

    assert shown("") == {mine.note, theirs.note, "system"}
    assert shown(f"?tournament={other.slug}") == {theirs.note, "system"}
    assert shown("?actor=schiri") == {theirs.note}
    assert shown("?actor=-") == {"system"}
    assert shown("?action=result.*") == {theirs.note}
    assert shown("?action=seating.*") == {"system"}
    assert shown("?object_type=entry") == {mine.note, theirs.note, "system"}
    assert shown("?object_type=resultversion") == set()
    today = timezone.localdate().isoformat()
    assert shown(f"?date_from={today}") == {mine.note, theirs.note}
    assert shown(f"?date_to={today}&date_from={today}") == {mine.note, theirs.note}
    assert shown(f"?q={mine.note}") == {mine.note}
    assert shown("?q=müller") == {"system"}
    # Bad input is a message, not an error page.
    response = organizer_client.get(url + "?date_from=gestern&tournament=nix")
    assert response.status_code == 200 and "Keine Einträge" in response.content.decode()


def test_the_log_shows_before_and_after_as_changed_keys(
    organizer_client, organizer, tournament
):
    _events(tournament, 1, actor=organizer)
    url = reverse("tournament:audit_log", kwargs={"slug": tournament.slug})
    text = organizer_client.get(url).content.decode()
    assert "<dt>anwesend</dt><dd><del>nein</del> → <ins>ja</ins></dd>" in text
    assert "<dt>Verein</dt>" not in text  # unchanged
    assert "checked_in" not in text  # the field's name, not its key
    assert 'data-label="Änderungen"' in text  # phones show rows as cards
    assert " style=" not in text and "<script>" not in text


def test_the_log_of_one_tournament_keeps_to_it(organizer_client, organizer, tournament):
    other = TournamentFactory()
    _events(tournament, 1, actor=organizer)
    mine = AuditEvent.objects.latest("id")
    _events(other, 1, actor=organizer)
    theirs = AuditEvent.objects.latest("id")
    url = reverse("tournament:audit_log", kwargs={"slug": tournament.slug})
    text = organizer_client.get(url + f"?tournament={other.slug}").content.decode()
    assert mine.note in text and theirs.note not in text
    assert reverse("tournament:audit_log_all") in text


def test_the_log_is_for_organizers_and_linked_from_their_pages(
    client, referee, organizer, tournament
):
    url = reverse("tournament:audit_log_all")
    assert client.get(url).status_code == 302
    client.force_login(referee)
    assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert url in client.get(reverse("tournament:home")).content.decode()
    manage = client.get(reverse("tournament:manage", kwargs={"slug": tournament.slug}))
    assert reverse("tournament:audit_log", kwargs={"slug": tournament.slug}) in (
        manage.content.decode()
    )


def test_json_values_are_shown_readably(organizer_client, organizer, tournament):
    entry = EntryFactory(tournament=tournament)
    audit_record(
        actor=organizer,
        action="series.seat",
        obj=entry,
        tournament=tournament,
        before=None,
        after={"seating": [[1, 2, 3], [4, 5, 6]], "order": [3, 1], "x": None},
    )
    url = reverse("tournament:audit_log", kwargs={"slug": tournament.slug})
    text = organizer_client.get(url).content.decode()
    assert "<ins>3, 1</ins>" in text
    # A seating, table by table.
    assert "<dt>Tisch 2</dt><dd><ins>Nr. 4, 5, 6</ins></dd>" in text
    assert "<ins>–</ins>" in text
    assert "[[" not in text


def test_the_action_filter_offers_the_names_the_log_shows(
    organizer_client, organizer, tournament
):
    """Never a recorded code like result.confirm: the groups' and actions'
    names, in the page's language, and a chosen name filters."""
    _events(tournament, 1, actor=organizer, action="result.confirm")
    confirmed = AuditEvent.objects.latest("id")
    _events(tournament, 1, actor=organizer, action="series.seat")
    seated = AuditEvent.objects.latest("id")
    url = reverse("tournament:audit_log_all")
    for language, names, group, action in (
        ("de", ("Ergebnisse", "Ergebnis bestätigt"), "Setzung", "Ergebnis bestätigt"),
        ("en", ("Results", "Result confirmed"), "Seating", "Result confirmed"),
    ):
        organizer_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        text = organizer_client.get(url).content.decode()
        datalist = text.split('<datalist id="audit-actions">')[1].split("</datalist>")[
            0
        ]
        for name in names:
            assert f'<option value="{name}">' in datalist
        assert "result." not in datalist and "series." not in datalist
        assert ".*" not in datalist

        def shown(query):
            page = organizer_client.get(url, {"action": query})
            body = page.content.decode()
            return {e.note for e in (confirmed, seated) if e.note in body}

        assert shown(group) == {seated.note}
        assert shown(action.lower()) == {confirmed.note}
