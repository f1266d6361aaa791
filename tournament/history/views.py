"""The history pages: persons over the years, the champions, season
rankings (live like the standings), and the organizer's pages for them:
the review of uncertain person matches, merge and split, the champions'
import, a ranking's settings."""

import dataclasses
import secrets
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournament.core.errors import UserError
from tournament.core.roles import is_organizer, organizer_required
from tournament.history import selectors, services
from tournament.history.champions_workbook import parse_champions_workbook
from tournament.history.forms import (
    ChampionsUploadForm,
    MergeForm,
    RankingForm,
    ReviewForm,
)
from tournament.history.services import ChampionData
from tournament.live.pages import region_or_404, render_live_page
from tournament.models import Person, Player, Ranking
from tournament.persons import selectors as persons_selectors
from tournament.persons import services as persons_services

# The persons' list shows this many; more ask for a search.
PERSONS_SHOWN = 200


def persons(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    found = selectors.persons_found(query)
    return render(
        request,
        "tournament/history/persons.html",
        {
            "query": query,
            "persons": found[:PERSONS_SHOWN],
            "more": max(0, len(found) - PERSONS_SHOWN),
            "reviews": persons_selectors.review_count()
            if is_organizer(request.user)
            else 0,
        },
    )


def person_detail(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    history = selectors.person_history(person)
    return render(
        request,
        "tournament/history/person.html",
        {
            "person": person,
            "history": history,
            "series_numbers": range(
                1, max((len(r.series_points) for r in history.results), default=0) + 1
            ),
            "merge_form": MergeForm() if is_organizer(request.user) else None,
        },
    )


def champions(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/history/champions.html",
        {"page": selectors.champions_page()},
    )


def ranking_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/history/rankings.html",
        {"rankings": selectors.rankings()},
    )


def ranking_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A season ranking, live: its region hangs on the newest of its
    tournaments (whose results change on the day), and its ETag follows
    every one of them."""
    ranking = get_object_or_404(Ranking, slug=slug)
    host = ranking.tournaments.order_by("-date", "-pk").first()
    context: dict[str, Any] = {"ranking": ranking, "host": host}
    if host is None:
        return render(request, "tournament/history/ranking.html", context)
    page_region = region_or_404(host, "ranking", {"wertung": slug})
    return render_live_page(
        request, "tournament/history/ranking.html", context, page_region
    )


# --- The organizer's pages -----------------------------------------------------


@organizer_required
def person_review(request: HttpRequest) -> HttpResponse:
    """Registrations whose person is uncertain: the same person as one of
    similar name, or another one."""
    if request.method == "POST":
        form = ReviewForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Bitte eine Entscheidung wählen."))
            return redirect("tournament:person_review")
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        same_as = None
        if form.cleaned_data["same_as"]:
            same_as = get_object_or_404(Person, pk=form.cleaned_data["same_as"])
        try:
            person = persons_services.person_review_decide(
                actor=request.user, player=player, same_as=same_as
            )
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("%(name)s ist jetzt dieselbe Person wie bisher %(other)s.")
                % {"name": player.full_name, "other": person.full_name}
                if same_as is not None
                else _("%(name)s bleibt eine eigene Person.")
                % {"name": player.full_name},
            )
        return redirect("tournament:person_review")
    return render(
        request,
        "tournament/history/review.html",
        {"cases": persons_selectors.review_cases()},
    )


@organizer_required
def person_merge(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    form = MergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        other: Person = form.cleaned_data["other"]
        try:
            kept = persons_services.person_merge(
                actor=request.user, keep=person, other=other
            )
        except UserError as error:
            form.add_error("other", error.message)
        else:
            messages.success(
                request,
                _("%(a)s und %(b)s sind jetzt eine Person.")
                % {"a": kept.full_name, "b": other.full_name},
            )
            return redirect("tournament:person", pk=kept.pk)
    return render(
        request,
        "tournament/history/merge.html",
        {"person": person, "form": form},
    )


@organizer_required
@require_POST
def person_split(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("person"), pk=player_id)
    old = player.person
    try:
        new = persons_services.person_split(actor=request.user, player=player)
    except UserError as error:
        messages.error(request, error.message)
        return redirect("tournament:person", pk=old.pk)
    messages.success(
        request,
        _("Die Meldung ist abgetrennt: %(name)s ist jetzt eine eigene Person.")
        % {"name": new.full_name},
    )
    return redirect("tournament:person", pk=new.pk)


CHAMPIONS_SESSION_KEY = "champions_import"
STALE_PREVIEW = gettext_lazy(
    "Diese Vorschau ist nicht mehr gültig. Bitte die Datei erneut hochladen."
)


@organizer_required
def champions_import(request: HttpRequest) -> HttpResponse:
    form = ChampionsUploadForm(request.POST or None, request.FILES or None)
    preview = None
    token = ""
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        preview = parse_champions_workbook(
            upload, size=upload.size, filename=upload.name
        )
        if preview.ok:
            token = secrets.token_urlsafe(16)
            request.session[CHAMPIONS_SESSION_KEY] = {
                "token": token,
                "rows": [dataclasses.asdict(d) for d in preview.champion_data()],
            }
    return render(
        request,
        "tournament/history/champions_import.html",
        {"form": form, "preview": preview, "token": token},
    )


@organizer_required
@require_POST
def champions_import_confirm(request: HttpRequest) -> HttpResponse:
    pending = request.session.pop(CHAMPIONS_SESSION_KEY, None)
    if not pending or pending.get("token") != request.POST.get("token"):
        messages.error(request, STALE_PREVIEW)
        return redirect("tournament:champions_import")
    try:
        count = services.champions_import(
            actor=request.user,
            rows=[ChampionData(**row) for row in pending["rows"]],
        )
    except UserError as error:
        messages.error(request, error.message)
        return redirect("tournament:champions_import")
    messages.success(request, _("%(count)d Meister importiert.") % {"count": count})
    return redirect("tournament:champions")


@organizer_required
def ranking_edit(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    ranking = get_object_or_404(Ranking, slug=slug) if slug else None
    form = RankingForm(request.POST or None, instance=ranking)
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.ranking_save(
                actor=request.user,
                ranking=form.save(commit=False),
                tournaments=list(form.cleaned_data["tournaments"]),
                version=form.cleaned_data.get("version"),
            )
        except UserError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Wertung gespeichert."))
            return redirect("tournament:ranking", slug=saved.slug)
    return render(
        request,
        "tournament/history/ranking_form.html",
        {"form": form, "ranking": ranking},
    )


@organizer_required
def ranking_delete(request: HttpRequest, slug: str) -> HttpResponse:
    ranking = get_object_or_404(Ranking, slug=slug)
    if request.method == "POST":
        services.ranking_delete(actor=request.user, ranking=ranking)
        messages.success(
            request, _("Wertung „%(name)s“ gelöscht.") % {"name": ranking.name}
        )
        return redirect("tournament:rankings")
    return render(
        request,
        "tournament/history/ranking_delete.html",
        {
            "object_label": _("die Wertung „%(name)s“") % {"name": ranking.name},
            "cancel_url": reverse("tournament:ranking", kwargs={"slug": slug}),
        },
    )
