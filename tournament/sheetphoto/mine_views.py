"""The score sheet photographed by a player at his table (entry at the
table on, his personal link; as `entry_views` of tableentry): the photo
page beside his entry, the review of a photo he took, its images. What he
may do `tableentry.services.table_player_refusal` decides; the review's
save is his entry at the table (`services.result_enter_from_photo`), which
another player of the table confirms.

These pages need no sign-in and no CSRF token: the secret in the path is
the credential.
"""

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tournament.core.idempotency import idempotent
from tournament.core.ratelimit import (
    link_missed,
    link_not_found,
    personal_link_limited,
)
from tournament.models import Entry, SheetPhoto, Table
from tournament.registration.selectors import entry_by_link, mine_url
from tournament.sheetphoto import selectors, services
from tournament.sheetphoto.views import (
    image_response,
    photo_upload_flow,
    review_form,
    review_page,
)
from tournament.tableentry import selectors as tableentry_selectors
from tournament.tableentry import services as tableentry_services


class _NotFound(Exception):
    """A link, series, table or photo that does not exist: one answer."""


def _player_table(
    request: HttpRequest, slug: str, token: str, series: int, table: int
) -> tuple[Entry, Table]:
    """The player of the link and a released table of his tournament (the
    rules of entry at the table decide the rest)."""
    entry = entry_by_link(slug, token)
    if entry is None:
        link_missed(request)
        raise _NotFound
    found = tableentry_selectors.released_table(entry, series, table)
    if found is None:
        raise _NotFound
    return entry, found


def _player_photo(entry: Entry, table: Table, photo: UUID) -> SheetPhoto:
    """A photo this player took of this table (a player sees no other)."""
    found = selectors.table_photo(table, photo)
    if found is None or found.uploaded_by_player_id != entry.pk:
        raise _NotFound
    return found


def _player_refused(
    request: HttpRequest, entry: Entry, table: Table
) -> HttpResponse | None:
    refusal = tableentry_services.table_player_refusal(
        player=entry, table=table, action="enter"
    )
    if refusal is None:
        return None
    return render(
        request,
        "tournament/tableentry/refused.html",
        {
            "tournament": entry.tournament,
            "entry": entry,
            "table": table,
            "message": refusal.message,
            "conflict": False,
            "mine_url": mine_url(entry),
        },
        status=403,
    )


def _player_kwargs(entry: Entry, table: Table) -> dict[str, Any]:
    return {
        "slug": entry.tournament.slug,
        "token": entry.link_token,
        "series": table.series.number,
        "table": table.number,
    }


def _image_address(
    entry: Entry, table: Table, photo: SheetPhoto
) -> Callable[[str], str]:
    """The address of a part of `photo`'s review images on the player's
    link (`mine_photo_image`)."""

    def image_url(part: str) -> str:
        return reverse(
            "tournament:mine_photo_image",
            kwargs={**_player_kwargs(entry, table), "photo": photo.pk, "part": part},
        )

    return image_url


def _player_context(entry: Entry, table: Table) -> dict[str, Any]:
    return {
        "tournament": table.series.tournament,
        "series": table.series,
        "table": table,
        "entry": entry,
        "seats": list(table.seats.all()),
        "back_url": reverse(
            "tournament:mine_enter", kwargs=_player_kwargs(entry, table)
        ),
        "mine_url": mine_url(entry),
    }


@csrf_exempt
@personal_link_limited
@never_cache
@require_http_methods(["GET", "POST"])
def mine_photo_upload(
    request: HttpRequest, slug: str, token: str, series: int, table: int
) -> HttpResponseBase:
    """A player photographs his table's sheet (entry at the table on)."""
    try:
        entry, table_obj = _player_table(request, slug, token, series, table)
    except _NotFound:
        return link_not_found(request)
    refused = _player_refused(request, entry, table_obj)
    if refused is not None:
        return refused
    return photo_upload_flow(
        request,
        _player_context(entry, table_obj),
        lambda data: services.photo_read(table=table_obj, data=data, player=entry),
        lambda photo: reverse(
            "tournament:mine_photo_review",
            kwargs={**_player_kwargs(entry, table_obj), "photo": photo.pk},
        ),
        lambda: selectors.unreviewed_photos(table_obj, player=entry),
    )


@csrf_exempt
@personal_link_limited
@never_cache
@require_http_methods(["GET", "POST"])
@idempotent
def mine_photo_review(
    request: HttpRequest, slug: str, token: str, series: int, table: int, photo: UUID
) -> HttpResponseBase:
    """The player's review of his photo: saved as his entry at the table,
    which another player of the table then confirms."""
    try:
        entry, table_obj = _player_table(request, slug, token, series, table)
        photo_obj = _player_photo(entry, table_obj, photo)
    except _NotFound:
        return link_not_found(request)
    if photo_obj.version_id is not None:
        messages.info(request, _("Das Ergebnis aus diesem Foto ist schon gespeichert."))
        return redirect(mine_url(entry))
    refused = _player_refused(request, entry, table_obj)
    if refused is not None:
        return refused
    image_url = _image_address(entry, table_obj, photo_obj)
    review = selectors.photo_review(photo_obj, table_obj, image_url=image_url)
    form, version = review_form(
        request,
        table_obj,
        review,
        lambda games, data: services.result_enter_from_photo(
            photo=photo_obj,
            player=entry,
            games=games,
            mode=data["mode"],
            revision=data["revision"],
        ),
    )
    if version is not None:
        messages.success(request, tableentry_services.entered_message(entry.tournament))
        return redirect(mine_url(entry))
    return review_page(
        request,
        _player_context(entry, table_obj),
        form=form,
        review=review,
        sheet_url=image_url("blatt") if photo_obj.has_image else "",
        again_url=reverse(
            "tournament:mine_photo_upload", kwargs=_player_kwargs(entry, table_obj)
        ),
    )


@personal_link_limited
def mine_photo_image(
    request: HttpRequest,
    slug: str,
    token: str,
    series: int,
    table: int,
    photo: UUID,
    part: str,
) -> HttpResponseBase:
    try:
        entry, table_obj = _player_table(request, slug, token, series, table)
        photo_obj = _player_photo(entry, table_obj, photo)
    except _NotFound:
        return link_not_found(request)
    return image_response(photo_obj, part)
