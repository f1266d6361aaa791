"""The score sheet photographed, in the browser: a table's photo page (the
phone's camera), the review (the result form pre-filled from the photo,
the photo beside it), the review's images; for the referees on the
table's entry page (here; a player at his table: `mine_views`, with the
steps both share), and the organizer's deletion of a tournament's photos.

Who may photograph a table's sheet is who may enter its result: a
referee of the tournament (the series released, else the organizer), or
a player of the table while `tableentry.services.table_player_refusal`
lets him enter. Reading a photo writes no result; the review's save goes
through `services.result_enter_from_photo`, the same checks and
confirmation as a typed entry.
"""

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament.core.errors import UserError
from tournament.core.idempotency import idempotent, outbox_answer
from tournament.core.lookup import with_tournament
from tournament.core.roles import (
    is_organizer,
    organizer_required,
    tournament_referee_required,
)
from tournament.models import (
    ResultVersion,
    SheetPhoto,
    Table,
    Tournament,
)
from tournament.results import selectors as results_selectors
from tournament.results.forms import (
    ResultForm,
    initial_from_games,
    save_entered,
    saved_message,
    table_result_form,
)
from tournament.results.services import GameInput
from tournament.sheetphoto import selectors, services
from tournament.sheetphoto.forms import PhotoForm
from tournament.sheetphoto.reader.read import MAX_BYTES

# --- Shared -----------------------------------------------------------------


def _photo_data(form: PhotoForm) -> bytes:
    # One byte more than the reader takes is enough to refuse the photo.
    data: bytes = form.cleaned_data["photo"].read(MAX_BYTES + 1)
    return data


def review_form(
    request: HttpRequest,
    table: Table,
    review: selectors.PhotoReview,
    save: Callable[[list[GameInput], dict[str, Any]], ResultVersion],
    *,
    correction: bool = False,
) -> tuple[ResultForm, ResultVersion | None]:
    """The review's result form, filled as the photo was read; on POST the
    person's games, saved (`save`: the version), or every mistake of every
    game shown beside it (None), keeping all that was chosen."""
    if request.method != "POST":
        form = table_result_form(
            table,
            initial=initial_from_games(table, review.games),
            correction=correction,
            notes=review.notes,
        )
        return form, None
    form = table_result_form(
        table, request.POST, correction=correction, notes=review.notes
    )
    try:
        return form, save_entered(form, table, save)
    except UserError as error:
        form.add_refusal(error)
        return form, None


def review_page(
    request: HttpRequest,
    context: dict[str, Any],
    *,
    form: ResultForm,
    review: selectors.PhotoReview,
    sheet_url: str,
    again_url: str,
    correction: bool = False,
) -> HttpResponse:
    """The review: the form beside the photo's sheet (`sheet_url`, "" once
    its image went) and a link to photograph it again (`again_url`)."""
    return render(
        request,
        "tournament/sheetphoto/review.html",
        {
            **context,
            "form": form,
            "review": review,
            "correction": correction,
            "sheet_url": sheet_url,
            "again_url": again_url,
        },
    )


def image_response(photo: SheetPhoto, part: str) -> HttpResponse:
    """A review image of the photo (`selectors.photo_file`), else 404."""
    image = selectors.photo_file(photo, part)
    if image is None:
        raise Http404
    # Whole, not streamed: a review image is small, and under ASGI a file
    # streamed from this thread would cost a hand-over per chunk.
    response = HttpResponse(image, content_type="image/jpeg")
    # A person's photo: kept by his browser only, never by a shared cache.
    response["Cache-Control"] = "private, max-age=3600"
    return response


def _upload_page(
    request: HttpRequest,
    context: dict[str, Any],
    form: PhotoForm,
    unreviewed: list[tuple[SheetPhoto, str]],
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournament/sheetphoto/upload.html",
        {
            **context,
            "form": form,
            "max_mb": MAX_BYTES // 2**20,
            "unreviewed": unreviewed,
        },
        status=status,
    )


def photo_upload_flow(
    request: HttpRequest,
    context: dict[str, Any],
    read: Callable[[bytes], SheetPhoto],
    review_url: Callable[[SheetPhoto], str],
    unreviewed: Callable[[], list[SheetPhoto]],
) -> HttpResponseBase:
    """The photo page (GET), or the photo sent read (`read`, no transaction
    open while it is) and on to its review; a photo that cannot be read
    gives the page again with the sentence why (a 429 for a sender who
    sent his share of photos, with when to try again; a 503 while the
    readers are busy). The same photo sent again leads to its review
    (`services.photo_read`). The phone's outbox, which keeps a photo taken
    without network until it is sent, gets the answer as for an entry
    (`idempotency.outbox_answer`). The page lists the sender's photos of
    the table not yet reviewed (`unreviewed`), each with its review."""
    return outbox_answer(
        request, _upload_answer(request, context, read, review_url, unreviewed)
    )


def _upload_answer(
    request: HttpRequest,
    context: dict[str, Any],
    read: Callable[[bytes], SheetPhoto],
    review_url: Callable[[SheetPhoto], str],
    unreviewed: Callable[[], list[SheetPhoto]],
) -> HttpResponse:
    def page(status: int = 200) -> HttpResponse:
        sent = [(photo, review_url(photo)) for photo in unreviewed()]
        return _upload_page(request, context, form, sent, status=status)

    posted = request.method == "POST"
    form = PhotoForm(request.POST, request.FILES) if posted else PhotoForm()
    if posted and form.is_valid():
        try:
            photo = read(_photo_data(form))
        except services.TooManyPhotos as error:
            form.add_error("photo", error.message)
            response = page(status=429)
            response["Retry-After"] = str(error.retry_after)
            return response
        except UserError as error:
            form.add_error("photo", error.message)
            if error.code == "busy":
                response = page(status=503)
                response["Retry-After"] = "5"
                return response
        else:
            return redirect(review_url(photo))
    return page()


# --- Referees ---------------------------------------------------------------


def _table(request: HttpRequest, slug: str, series: int, table: int) -> Table:
    """A table whose result the referee may enter: until its series is
    released the seating is the organizer's alone (as the entry page)."""
    table_obj = results_selectors.table_or_404(slug, series, table)
    if not table_obj.series.is_public and not is_organizer(request.user):
        raise Http404
    return table_obj


def _table_kwargs(table: Table) -> dict[str, Any]:
    return {
        "slug": table.series.tournament.slug,
        "series": table.series.number,
        "table": table.number,
    }


def _referee_context(table: Table) -> dict[str, Any]:
    return {
        "tournament": table.series.tournament,
        "series": table.series,
        "table": table,
        "seats": list(table.seats.all()),
        "back_url": reverse("tournament:table_result", kwargs=_table_kwargs(table)),
    }


@tournament_referee_required
@never_cache
@require_http_methods(["GET", "POST"])
def photo_upload(
    request: HttpRequest, slug: str, series: int, table: int
) -> HttpResponseBase:
    """The photo page of a table: the phone's camera opens, the photo is
    read, and the review follows."""
    table_obj = _table(request, slug, series, table)
    return photo_upload_flow(
        request,
        _referee_context(table_obj),
        lambda data: services.photo_read(
            table=table_obj, data=data, actor=request.user
        ),
        lambda photo: reverse(
            "tournament:photo_review",
            kwargs={**_table_kwargs(table_obj), "photo": photo.pk},
        ),
        lambda: selectors.unreviewed_photos(table_obj, user=request.user),
    )


def _referee_photo(table: Table, photo: UUID) -> SheetPhoto:
    found = selectors.table_photo(table, photo)
    if found is None:
        raise Http404
    return found


@tournament_referee_required
@never_cache
@require_http_methods(["GET", "POST"])
@idempotent
def photo_review(
    request: HttpRequest, slug: str, series: int, table: int, photo: UUID
) -> HttpResponseBase:
    """The result form as the photo fills it, the photo beside it; saved
    only when the referee presses save, as a typed entry is (a correction
    of a confirmed result asks for its reason)."""
    table_obj = _table(request, slug, series, table)
    photo_obj = _referee_photo(table_obj, photo)
    back_url = reverse("tournament:table_result", kwargs=_table_kwargs(table_obj))
    if photo_obj.version_id is not None:
        messages.info(request, _("Das Ergebnis aus diesem Foto ist schon gespeichert."))
        return redirect(back_url)
    correction = table_obj.result_versions.filter(
        status=ResultVersion.Status.CONFIRMED
    ).exists()

    def image_url(part: str) -> str:
        return reverse(
            "tournament:photo_image",
            kwargs={**_table_kwargs(table_obj), "photo": photo_obj.pk, "part": part},
        )

    review = selectors.photo_review(photo_obj, table_obj, image_url=image_url)
    form, version = review_form(
        request,
        table_obj,
        review,
        lambda games, data: services.result_enter_from_photo(
            photo=photo_obj,
            actor=request.user,
            games=games,
            mode=data["mode"],
            revision=data["revision"],
            reason=data["reason"],
        ),
        correction=correction,
    )
    if version is not None:
        messages.success(request, saved_message(version))
        return redirect("tournament:results", slug=slug)
    return review_page(
        request,
        _referee_context(table_obj),
        form=form,
        review=review,
        correction=correction,
        sheet_url=image_url("blatt") if photo_obj.has_image else "",
        again_url=reverse("tournament:photo_upload", kwargs=_table_kwargs(table_obj)),
    )


@tournament_referee_required
def photo_image(
    request: HttpRequest, slug: str, series: int, table: int, photo: UUID, part: str
) -> HttpResponse:
    table_obj = _table(request, slug, series, table)
    return image_response(_referee_photo(table_obj, photo), part)


# --- The organizer ----------------------------------------------------------


@organizer_required
@require_http_methods(["GET", "POST"])
@with_tournament
def photos_delete(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's photos of score sheets: how many are kept, how long,
    and (POST, this page being the question) delete them all now."""
    if request.method == "POST":
        count = services.photos_delete(actor=request.user, tournament=tournament)
        messages.success(
            request,
            ngettext(
                "%(n)d Foto gelöscht. Die Ergebnisse bleiben, wie sie sind.",
                "%(n)d Fotos gelöscht. Die Ergebnisse bleiben, wie sie sind.",
                count,
            )
            % {"n": count},
        )
        return redirect("tournament:sheetphotos", slug=tournament.slug)
    return render(
        request,
        "tournament/sheetphoto/photos.html",
        {
            "tournament": tournament,
            "photos": selectors.tournament_photos(tournament),
            "retention_days": settings.SHEET_PHOTO_RETENTION_DAYS,
        },
    )
