"""A table's result from a photo of its score sheet: the referee (or a
player at his table) photographs the sheet, sees the result form
pre-filled with every unsure game marked and empty, corrects and saves;
the saved version is linked to the photo, the usual second person
confirms, and the standings count it."""

import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.sheetphoto.conftest import GAMES, UNSURE
from tests.support.factories import make_user
from tests.support.sheetphotos import needs_pdftoppm
from tournament.models import AuditEvent, EntryTotal, ResultVersion, SheetPhoto
from tournament.sheetphoto import services

pytestmark = [pytest.mark.django_db, needs_pdftoppm]


def table_kwargs(table):
    return {"slug": table.series.tournament.slug, "series": 1, "table": table.number}


def upload_url(table):
    return reverse("tournament:photo_upload", kwargs=table_kwargs(table))


def send(client, url, data, name="spielliste.jpg", content_type="image/jpeg"):
    upload = SimpleUploadedFile(name, data, content_type=content_type)
    return client.post(url, {"photo": upload})


def review_form(page_photo_games, *, revision, fill=None):
    """The quick form as the review pre-fills it, plus `fill`."""
    data = {"mode": "quick", "revision": revision}
    for number, (winner, marks) in page_photo_games.items():
        data[f"g{number}_winner"] = winner
        data[f"g{number}_marks"] = marks
    for number, (winner, marks) in (fill or {}).items():
        data[f"g{number}_winner"] = winner
        data[f"g{number}_marks"] = marks
    return data


def checked(page: str, name: str) -> str | None:
    """The value of the checked radio `name` on the page, if any."""
    import re

    for tag in re.findall(r"<input[^>]*>", page):
        if f'name="{name}"' in tag and " checked" in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    return None


def retake(photo: bytes, n: int) -> bytes:
    """Another photo of the same sheet: the same picture, other bytes (a
    comment after the JPEG's start; the same bytes are the same photo)."""
    note = f"Aufnahme {n}".encode()
    return (
        photo[:2] + b"\xff\xfe" + (len(note) + 2).to_bytes(2, "big") + note + photo[2:]
    )


@pytest.fixture
def referee_client(client, referee):
    client.force_login(referee)
    return client


def test_the_entry_page_offers_the_camera(referee_client, photo_table):
    page = referee_client.get(
        reverse("tournament:table_result", kwargs=table_kwargs(photo_table))
    ).content.decode()
    assert "Spielliste fotografieren" in page
    assert upload_url(photo_table) in page
    upload = referee_client.get(upload_url(photo_table)).content.decode()
    assert 'accept="image/jpeg,image/png"' in upload
    assert 'capture="environment"' in upload
    assert 'enctype="multipart/form-data"' in upload
    assert "js/sheetphoto.js" in upload


def test_a_photo_prefills_the_form_and_leaves_the_unsure_game_to_the_person(
    referee_client, photo_table, photo, var_dir
):
    response = send(referee_client, upload_url(photo_table), photo)
    assert response.status_code == 302
    stored = SheetPhoto.objects.get()
    assert response["Location"] == reverse(
        "tournament:photo_review",
        kwargs={**table_kwargs(photo_table), "photo": stored.pk},
    )
    # Read and kept, but no result: nothing is saved without a person.
    assert not ResultVersion.objects.exists()
    assert stored.sha256 == hashlib.sha256(photo).hexdigest()
    assert stored.version is None
    assert (var_dir / "sheetphotos" / str(stored.pk) / "photo.jpg").read_bytes() == (
        photo
    )

    page = referee_client.get(response["Location"]).content.decode()
    for number, (winner, marks) in enumerate(GAMES, 1):
        if number == UNSURE:
            assert checked(page, f"g{number}_winner") is None
            assert checked(page, f"g{number}_marks") is None
        else:
            assert checked(page, f"g{number}_winner") == str(winner)
            assert checked(page, f"g{number}_marks") == str(marks)
    # The unsure game says so in words, in its own box and above the form.
    game = page.split('id="spiel-3"')[1].split("</fieldset>")[0]
    assert "Bitte prüfen" in game
    assert "Kein eindeutiger Gewinner gelesen" in game
    assert "Spiel 3 ist unsicher gelesen" in page
    for other in (1, 2, 4, 5):
        box = page.split(f'id="spiel-{other}"')[1].split("</fieldset>")[0]
        assert "Bitte prüfen" not in box
    # The outlined sheet and each game's rows, for this referee only.
    for part in ("blatt", "1", "3"):
        url = reverse(
            "tournament:photo_image",
            kwargs={**table_kwargs(photo_table), "photo": stored.pk, "part": part},
        )
        assert url in page
        image = referee_client.get(url)
        assert image.status_code == 200
        assert image["Content-Type"] == "image/jpeg"
        assert image.content[:2] == b"\xff\xd8"
        assert "private" in image["Cache-Control"]


def test_only_the_image_is_kept_not_what_was_sent_after_it(
    referee_client, photo_table, photo, var_dir
):
    sent = photo + b"\xff\xd9" + bytes(2 * 2**20)
    assert send(referee_client, upload_url(photo_table), sent).status_code == 302
    stored = SheetPhoto.objects.get()
    kept = (var_dir / "sheetphotos" / str(stored.pk) / "photo.jpg").read_bytes()
    assert kept == photo
    assert stored.size == len(photo)
    assert stored.sha256 == hashlib.sha256(photo).hexdigest()


def test_a_table_keeps_its_newest_unsaved_photos_and_every_saved_one(
    referee_client,
    photo_table,
    other_table,
    photo,
    var_dir,
    django_capture_on_commit_callbacks,
):
    elsewhere = SheetPhoto.objects.create(
        table=other_table, sha256="0" * 64, size=1, file_name="photo.jpg", reading={}
    )
    review = send(referee_client, upload_url(photo_table), photo)["Location"]
    referee_client.post(review, review_form(dict(enumerate(GAMES, 1)), revision=0))
    saved = SheetPhoto.objects.get(version__isnull=False)
    retakes = []
    for n in range(services.UNSAVED_PER_TABLE + 2):
        with django_capture_on_commit_callbacks(execute=True):
            response = send(referee_client, upload_url(photo_table), retake(photo, n))
        retakes.append(response["Location"].rstrip("/").rsplit("/", 1)[1])
    # The newest unsaved ones stay; the older ones went, files and row.
    newest = retakes[-services.UNSAVED_PER_TABLE :]
    unsaved = SheetPhoto.objects.filter(table=photo_table, version__isnull=True)
    assert {str(pk) for pk in unsaved.values_list("pk", flat=True)} == set(newest)
    folders = {path.name for path in (var_dir / "sheetphotos").iterdir()}
    assert folders == {str(saved.pk), *newest}
    # The one a person saved, and another table's, are not touched.
    saved.refresh_from_db()
    assert saved.has_image and saved.version is not None
    assert SheetPhoto.objects.filter(pk=elsewhere.pk).exists()
    # The review of one replaced is gone.
    gone = review.replace(str(saved.pk), retakes[0])
    assert referee_client.get(gone).status_code == 404


def test_saving_a_photo_replaced_meanwhile_says_so(referee, photo_table):
    from tournament.core.errors import UserError

    photo = SheetPhoto.objects.create(
        table=photo_table, sha256="0" * 64, size=1, file_name="photo.jpg", reading={}
    )
    SheetPhoto.objects.filter(pk=photo.pk).delete()  # a retake replaced it
    with pytest.raises(UserError) as refused:
        services.result_enter_from_photo(
            photo=photo, games=[], mode="quick", revision=0, actor=referee
        )
    assert refused.value.code == "photo_deleted"


def test_the_saved_review_is_an_entry_from_the_photo_a_second_person_confirms(
    client, referee, referee2, organizer, photo_table, photo
):
    client.force_login(referee)
    review = send(client, upload_url(photo_table), photo)["Location"]
    stored = SheetPhoto.objects.get()
    read = {n: g for n, g in enumerate(GAMES, 1) if n != UNSURE}
    # Saving with the unsure game left empty is refused beside that game.
    refused = client.post(review, review_form(read, revision=0))
    assert refused.status_code == 200
    assert "Fehler bei:" in refused.content.decode()
    assert not ResultVersion.objects.exists()
    # The person looks at the sheet and taps game 3 in: seat 1 kept 7.
    saved = client.post(
        review, review_form(read, revision=0, fill={UNSURE: GAMES[UNSURE - 1]})
    )
    assert saved.status_code == 302
    version = ResultVersion.objects.get()
    assert version.status == "pending" and version.mode == "quick"
    assert [(g["winner"], g["marks"]) for g in version.data["games"]] == GAMES
    stored.refresh_from_db()
    assert stored.version == version
    assert version.from_photo and "aus Foto" in version.source_label
    event = AuditEvent.objects.get(action="result.photo")
    assert event.after["photo"] == stored.sha256
    assert event.after["flagged"] == [UNSURE]
    assert stored.sha256 in event.note
    assert not EntryTotal.objects.filter(points__gt=0).exists()

    # The same review again: saved already, nothing new.
    again = client.post(
        review, review_form(read, revision=1, fill={UNSURE: GAMES[UNSURE - 1]})
    )
    assert again.status_code == 302
    assert ResultVersion.objects.count() == 1

    # The usual confirmation by a second person, unchanged.
    client.force_login(referee2)
    table_url = reverse("tournament:table_result", kwargs=table_kwargs(photo_table))
    assert "aus Foto" in client.get(table_url).content.decode()
    photo_table.refresh_from_db()
    client.post(
        reverse("tournament:result_confirm", kwargs=table_kwargs(photo_table)),
        {"version": version.number, "revision": photo_table.result_revision},
    )
    version.refresh_from_db()
    assert version.status == "confirmed"
    seat1 = photo_table.seats.get(number=1).entry
    assert EntryTotal.objects.get(entry=seat1).points == 12 + 14
    client.force_login(organizer)
    history = client.get(table_url).content.decode()
    assert "Schnelleingabe, aus Foto" in history
    # The Protokoll: which photo (its hash), which games were read unsure.
    log = client.get(
        reverse("tournament:audit_log", kwargs={"slug": "rm-test"})
    ).content.decode()
    assert "Ergebnis aus Foto der Spielliste übernommen" in log
    assert "Foto der Spielliste (SHA-256)" in log and stored.sha256 in log
    assert "unsicher gelesen (Spiele)" in log


def test_a_correction_from_a_photo_asks_for_its_reason(
    client, referee, organizer, photo_table, photo
):
    from tests.support.results import confirm, enter, games

    confirm(enter(photo_table, referee, games([(2, 1)] * 5)), organizer)
    client.force_login(organizer)
    review = send(client, upload_url(photo_table), photo)["Location"]
    read = {n: g for n, g in enumerate(GAMES, 1)}
    photo_table.refresh_from_db()
    data = review_form(read, revision=photo_table.result_revision)
    page = client.post(review, data).content.decode()
    assert "bitte einen Grund angeben" in page
    data["reason"] = "Spielliste fotografiert"
    assert client.post(review, data).status_code == 302
    confirmed = ResultVersion.objects.get(status="confirmed")
    assert confirmed.from_photo and confirmed.reason == "Spielliste fotografiert"


def test_a_form_saved_against_an_older_state_is_a_conflict(
    client, referee, referee2, photo_table, photo
):
    from tests.support.results import enter

    client.force_login(referee)
    review = send(client, upload_url(photo_table), photo)["Location"]
    enter(photo_table, referee2)  # meanwhile, typed by another referee
    read = {n: g for n, g in enumerate(GAMES, 1)}
    page = client.post(review, review_form(read, revision=0)).content.decode()
    assert "inzwischen von jemand anderem gespeichert" in page
    assert ResultVersion.objects.count() == 1
    assert SheetPhoto.objects.get().version is None


def test_a_player_photographs_his_tables_sheet_and_another_player_confirms(
    client, tournament, photo_table, photo
):
    players = {s.number: s.entry for s in photo_table.seats.all()}
    me = players[4]
    kwargs = {**table_kwargs(photo_table), "token": me.link_token}
    enter_page = client.get(reverse("tournament:mine_enter", kwargs=kwargs))
    upload = reverse("tournament:mine_photo_upload", kwargs=kwargs)
    assert upload in enter_page.content.decode()
    review = send(client, upload, photo)["Location"]
    stored = SheetPhoto.objects.get()
    assert stored.uploaded_by_player == me and stored.uploaded_by is None
    page = client.get(review).content.decode()
    assert checked(page, "g1_winner") == "1"
    read = {n: g for n, g in enumerate(GAMES, 1) if n != UNSURE}
    saved = client.post(
        review, review_form(read, revision=0, fill={UNSURE: GAMES[UNSURE - 1]})
    )
    assert saved.status_code == 302
    version = ResultVersion.objects.get()
    assert version.entered_by_player == me and version.status == "pending"
    assert SheetPhoto.objects.get().version == version
    # Another player of the table says Stimmt: it counts.
    other = {**kwargs, "token": players[2].link_token}
    client.post(
        reverse("tournament:mine_confirm", kwargs=other), {"version": version.number}
    )
    version.refresh_from_db()
    assert version.status == "confirmed"


def test_who_may_photograph_a_table(client, tournament, photo_table, other_table):
    url = upload_url(photo_table)
    assert client.get(url)["Location"].startswith(reverse("login"))
    stranger = make_user("fremd", "referee")
    elsewhere = make_user("anderswo", "referee")
    tournament.referees.set([stranger])
    client.force_login(elsewhere)
    assert client.get(url).status_code == 403
    # A player of another table is refused in words; a made-up link is 404.
    player = other_table.seats.get(number=1).entry
    mine = {**table_kwargs(photo_table), "token": player.link_token}
    refused = client.get(reverse("tournament:mine_photo_upload", kwargs=mine))
    assert refused.status_code == 403
    assert "nicht an Tisch 1" in refused.content.decode()
    made_up = {**mine, "token": "erfundenErfundenErfunden00000000"}
    assert (
        client.get(reverse("tournament:mine_photo_upload", kwargs=made_up)).status_code
        == 404
    )
    # Entry at the table off: no photo for players either.
    tournament.table_entry = "off"
    tournament.save()
    mine_own = {
        **table_kwargs(photo_table),
        "token": photo_table.seats.get(number=1).entry.link_token,
    }
    page = client.get(reverse("tournament:mine_photo_upload", kwargs=mine_own))
    assert page.status_code == 403


def test_a_player_sees_only_his_own_photos(client, referee, photo_table, photo):
    client.force_login(referee)
    send(client, upload_url(photo_table), photo)
    stored = SheetPhoto.objects.get()
    client.logout()
    player = photo_table.seats.get(number=1).entry
    kwargs = {**table_kwargs(photo_table), "token": player.link_token}
    review = reverse(
        "tournament:mine_photo_review", kwargs={**kwargs, "photo": stored.pk}
    )
    image = reverse(
        "tournament:mine_photo_image",
        kwargs={**kwargs, "photo": stored.pk, "part": "blatt"},
    )
    assert client.get(review).status_code == 404
    assert client.get(image).status_code == 404


def test_the_organizer_deletes_a_tournaments_photos(
    client,
    referee,
    organizer,
    photo_table,
    photo,
    var_dir,
    django_capture_on_commit_callbacks,
):
    client.force_login(referee)
    review = send(client, upload_url(photo_table), photo)["Location"]
    read = {n: g for n, g in enumerate(GAMES, 1)}
    client.post(review, review_form(read, revision=0))
    send(client, upload_url(photo_table), retake(photo, 1))  # a second, never saved
    assert SheetPhoto.objects.count() == 2
    folder = var_dir / "sheetphotos"
    assert len(list(folder.iterdir())) == 2

    client.force_login(organizer)
    manage = client.get(reverse("tournament:manage", kwargs={"slug": "rm-test"}))
    url = reverse("tournament:sheetphotos", kwargs={"slug": "rm-test"})
    assert url in manage.content.decode()
    page = client.get(url).content.decode()
    assert "Gespeichert sind 2 Fotos" in page and "90 Tagen" in page
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
    assert list(folder.iterdir()) == []
    # The saved one's row and hash stay: its version still says "aus Foto".
    kept = SheetPhoto.objects.get()
    assert kept.deleted_at is not None and kept.version is not None
    assert kept.version.from_photo
    event = AuditEvent.objects.get(action="sheetphoto.delete")
    assert event.before == {"photos": 2} and event.actor == organizer
    assert client.get(review).status_code == 302  # saved already
    assert "Gespeichert sind 0 Fotos" in client.get(url).content.decode()


def test_an_upload_leaves_other_tournaments_photos_to_the_housekeeping(
    client, referee, photo_table, photo, django_capture_on_commit_callbacks
):
    """Photos expire by `manage.py housekeeping` (tests/site/test_housekeeping.py),
    never as a side effect of another tournament's upload."""
    import datetime

    from django.utils import timezone

    from tests.support.factories import TournamentFactory, make_series
    from tournament.models import Table

    other = TournamentFactory(slug="anderes")
    table = Table.objects.get(series=make_series(other, sizes=(4,)), number=1)
    expired = SheetPhoto.objects.create(
        table=table, sha256="0" * 64, size=1, file_name="photo.jpg", reading={}
    )
    SheetPhoto.objects.filter(pk=expired.pk).update(
        uploaded_at=timezone.now() - datetime.timedelta(days=400)
    )
    client.force_login(referee)
    with django_capture_on_commit_callbacks(execute=True):
        assert send(client, upload_url(photo_table), photo).status_code == 302
    expired.refresh_from_db()
    assert expired.deleted_at is None
    assert not AuditEvent.objects.filter(action="sheetphoto.expire").exists()


def test_photos_expire_after_the_retention_and_unsaved_ones_after_a_day(
    client,
    referee,
    photo_table,
    photo,
    var_dir,
    settings,
    django_capture_on_commit_callbacks,
):
    import datetime
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    client.force_login(referee)
    review = send(client, upload_url(photo_table), photo)["Location"]
    client.post(review, review_form(dict(enumerate(GAMES, 1)), revision=0))
    send(client, upload_url(photo_table), retake(photo, 1))
    now = timezone.now()
    assert services.photos_expire(now=now) == 0
    assert services.photos_expire(now=now + datetime.timedelta(days=2)) == 1
    assert SheetPhoto.objects.count() == 1  # the unsaved one went whole
    settings.SHEET_PHOTO_RETENTION_DAYS = 0
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("sheetphotos", "expire", stdout=out)
    assert "1 photo(s) deleted" in out.getvalue()
    assert SheetPhoto.objects.get().deleted_at is not None
    assert list((var_dir / "sheetphotos").iterdir()) == []
    assert AuditEvent.objects.filter(action="sheetphoto.expire").count() == 2
    # As `make run` and `make serve` call it at every start: quiet.
    out = StringIO()
    call_command("sheetphotos", "-v0", "expire", stdout=out)
    assert out.getvalue() == ""
