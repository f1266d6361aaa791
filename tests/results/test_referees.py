"""Referees limited to tournaments: pages, services, live regions, the
organizer's form and backups."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from tests.support.factories import TournamentFactory, make_series, make_user
from tests.support.results import enter
from tournament.backup import services as backup_services
from tournament.core.errors import NotAllowed, UserError
from tournament.core.roles import may_referee
from tournament.live import consumers as live_consumers
from tournament.models import AuditEvent, ResultVersion, Table, Tournament
from tournament.results.services import (
    result_confirm,
    result_reject,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def other(db):
    """A tournament with one referee of its own."""
    tournament = TournamentFactory(slug="kreis-cup", name="Kreis-Cup")
    tournament.referees.set([make_user("kreis", "referee")])
    make_series(tournament, sizes=(4,))
    return tournament


@pytest.fixture
def open_one(tournament):
    """A tournament that names no referees: every referee may enter."""
    make_series(tournament, sizes=(4,))
    return tournament


def table_of(tournament):
    return Table.objects.get(series__tournament=tournament, number=1)


def urls(tournament):
    kwargs = {"slug": tournament.slug, "series": 1, "table": 1}
    return {
        "overview": reverse("tournament:results", kwargs={"slug": tournament.slug}),
        "table": reverse("tournament:table_result", kwargs=kwargs),
        "confirm": reverse("tournament:result_confirm", kwargs=kwargs),
        "reject": reverse("tournament:result_reject", kwargs=kwargs),
        "progress": reverse(
            "tournament:live_fragment",
            kwargs={"slug": tournament.slug, "name": "progress"},
        ),
    }


def test_a_limited_referee_gets_403_on_another_tournaments_pages(
    client, referee, other
):
    client.force_login(referee)
    pages = urls(other)
    response = client.get(pages["overview"])
    assert response.status_code == 403
    assert "Keine Berechtigung" in response.content.decode()  # the German page
    assert client.get(pages["table"]).status_code == 403
    data = {"version": 1, "revision": 0, "reason": "x"}
    assert client.post(pages["table"], {"mode": "quick"}).status_code == 403
    assert client.post(pages["confirm"], data).status_code == 403
    assert client.post(pages["reject"], data).status_code == 403
    assert client.get(pages["progress"]).status_code == 404  # waiting entries
    assert not ResultVersion.objects.exists()


def test_a_listed_referee_and_organizers_may_enter(client, organizer, other):
    listed = other.referees.get()
    for user in (listed, organizer):
        client.force_login(user)
        pages = urls(other)
        assert client.get(pages["overview"]).status_code == 200
        assert client.get(pages["table"]).status_code == 200
        assert client.get(pages["progress"]).status_code == 200


def test_an_unlimited_tournament_lets_every_referee_in(
    client, referee, open_one, other
):
    listed = other.referees.get()  # a referee of another tournament, too
    for user in (referee, listed):
        client.force_login(user)
        assert client.get(urls(open_one)["table"]).status_code == 200
        assert may_referee(user, open_one)
    version = enter(table_of(open_one), referee)
    result_confirm(actor=listed, version=version, revision=None)
    version.refresh_from_db()
    assert version.status == "confirmed"


def test_the_services_refuse_a_referee_of_another_tournament(referee, other):
    with pytest.raises(NotAllowed):
        enter(table_of(other), referee)
    assert isinstance(NotAllowed("x"), PermissionDenied)  # a 403 if uncaught
    version = enter(table_of(other), other.referees.get())
    for decide in (
        lambda: result_confirm(actor=referee, version=version, revision=None),
        lambda: result_reject(
            actor=referee, version=version, revision=None, reason="?"
        ),
    ):
        with pytest.raises(NotAllowed):
            decide()
    version.refresh_from_db()
    assert version.status == "pending"
    assert not AuditEvent.objects.filter(actor=referee).exists()


def test_people_without_a_role_are_refused_by_the_service(open_one):
    with pytest.raises(NotAllowed):
        enter(table_of(open_one), make_user("gast"))


def test_the_live_staff_regions_follow_the_list(referee, organizer, other, open_one):
    # The socket's check, in this thread.
    is_staff = live_consumers._is_staff.__wrapped__
    assert not is_staff(referee, other.pk)
    assert is_staff(other.referees.get(), other.pk)
    assert is_staff(organizer, other.pk)
    assert is_staff(referee, open_one.pk)


def test_the_organizer_picks_referees_from_the_referee_group(
    organizer_client, referee, tournament
):
    make_user("zuschauer")  # no role: not offered
    url = reverse("tournament:tournament_edit", kwargs={"slug": tournament.slug})
    page = organizer_client.get(url).content.decode()
    assert 'type="checkbox" name="referees"' in page
    assert "schiri" in page and "zuschauer" not in page
    data = {
        "name": tournament.name,
        "slug": tournament.slug,
        "date": "2026-12-05",
        "venue": tournament.venue,
        "rule_preset": "championship",
        "series_count": 5,
        "games_per_series": 5,
        "start_marks": 7,
        "win_bonus": 7,
        "status": "planned",
        "double_entry": "on",
        "referees": [referee.pk],
    }
    response = organizer_client.post(url, data)
    assert response.status_code == 302
    assert list(tournament.referees.all()) == [referee]
    event = AuditEvent.objects.get(action="tournament.update")
    assert event.before["referees"] == [] and event.after["referees"] == ["schiri"]
    data.pop("referees")
    organizer_client.post(url, data)
    assert not tournament.referees.exists()


def test_a_backup_keeps_the_referees_by_user_name(referee, other):
    doc = backup_services.tournament_backup(tournament=other)
    assert doc["tournament"]["referees"] == ["kreis"]
    copy = backup_services.tournament_restore(doc=doc, slug="kreis-copy")
    assert [u.username for u in copy.referees.all()] == ["kreis"]
    doc["tournament"]["referees"] = ["kreis", "unbekannt"]
    with pytest.raises(UserError, match="unbekannt"):
        backup_services.tournament_restore(doc=doc, slug="kreis-copy-2")
    assert not Tournament.objects.filter(slug="kreis-copy-2").exists()
    del doc["tournament"]["referees"]  # a backup from before the list
    old = backup_services.tournament_restore(doc=doc, slug="kreis-old")
    assert not old.referees.exists()
