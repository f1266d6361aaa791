"""Tournaments: the list, one tournament's public page, and the
organizer's pages to create, edit and manage one."""

from django.contrib import messages
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.core.errors import UserError
from tournament.core.lookup import with_tournament
from tournament.core.roles import is_organizer, organizer_required
from tournament.core.rules import preset_note
from tournament.live import invalidation
from tournament.live.pages import public_page
from tournament.models import Tournament
from tournament.registration import selectors as registration_selectors
from tournament.seating import selectors as seating_selectors
from tournament.tournaments import selectors, services
from tournament.tournaments.forms import SignInForm, TournamentForm


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournament/tournaments/home.html",
        {"tournaments": selectors.tournaments_public()},
    )


class SignIn(LoginView):
    """The login page. Without a `next` address a referee lands where he
    works: the entry page of the one running tournament he may referee,
    the organizer on its desk; with none or several, on the home page."""

    redirect_authenticated_user = True
    authentication_form = SignInForm

    def get_default_redirect_url(self) -> str:
        user = self.request.user
        tournament = selectors.running_tournament_refereed_by(user)
        if tournament is None:
            return super().get_default_redirect_url()
        name = "tournament:manage" if is_organizer(user) else "tournament:results"
        return reverse(name, kwargs={"slug": tournament.slug})


@public_page(invalidation.CONFIRMED)
@with_tournament
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournament/tournaments/detail.html",
        {
            "tournament": tournament,
            "counts": registration_selectors.entry_counts(tournament),
            "series_list": seating_selectors.series_public(tournament),
            "rules_note": preset_note(tournament),
        },
    )


@organizer_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = services.tournament_save(
            actor=request.user,
            tournament=form.save(commit=False),
            created=True,
            referees=form.cleaned_data["referees"],
        )
        messages.success(request, _("Turnier angelegt."))
        return redirect("tournament:manage", slug=tournament.slug)
    return render(request, "tournament/tournaments/form.html", {"form": form})


@organizer_required
@with_tournament
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # The form writes what was posted onto its instance, even when it is
    # refused; the page shows the tournament as it is stored (its own copy).
    form = TournamentForm(
        request.POST or None, instance=Tournament.objects.get(pk=tournament.pk)
    )
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.tournament_save(
                actor=request.user,
                tournament=form.save(commit=False),
                created=False,
                referees=form.cleaned_data["referees"],
            )
        except services.SettingsRefused as refused:
            for field, message in refused.errors.items():
                form.add_error(field, message)
        else:
            messages.success(request, _("Turnier gespeichert."))
            return redirect("tournament:manage", slug=saved.slug)
    return render(
        request,
        "tournament/tournaments/form.html",
        {"form": form, "tournament": tournament},
    )


@organizer_required
@with_tournament
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # Once the last table is confirmed the page asks to close the
    # tournament (a closed one it offers to open again).
    running = tournament.status != Tournament.Status.FINISHED
    return render(
        request,
        "tournament/tournaments/manage.html",
        {
            "tournament": tournament,
            "counts": registration_selectors.entry_counts(tournament),
            "closable": running and not selectors.close_refusal(tournament),
        },
    )


@organizer_required
@require_POST
@with_tournament
def tournament_close(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Close the tournament (the manage page's question), or open a closed
    one again (`reopen`)."""
    reopen = request.POST.get("reopen") == "1"
    try:
        if reopen:
            services.tournament_reopen(actor=request.user, tournament=tournament)
        else:
            services.tournament_close(actor=request.user, tournament=tournament)
    except UserError as error:
        messages.error(request, error.message)
    else:
        done = (
            _("Das Turnier ist wieder offen.")
            if reopen
            else _("Das Turnier ist beendet: sein Endstand zählt in der Geschichte.")
        )
        messages.success(request, done)
    return redirect("tournament:manage", slug=tournament.slug)
