"""Organizer: the audit log of every write, across tournaments or of one."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from tournament.auditlog import selectors
from tournament.auditlog.forms import AuditFilterForm, action_names
from tournament.auditlog.tables import AuditTable
from tournament.core.lookup import tournament_or_404
from tournament.core.roles import organizer_required
from tournament.models import AuditEvent


@organizer_required
def audit_log(request: HttpRequest, slug: str | None = None) -> HttpResponse:
    """Newest first, filtered by the GET form, 50 to a page. Under a
    tournament's address the tournament is fixed."""
    tournament = tournament_or_404(slug) if slug else None
    form = AuditFilterForm(request.GET or None, fixed_tournament=tournament is not None)
    events = AuditEvent.objects.none()
    if not form.is_bound:
        events = selectors.audit_events(tournament=tournament)
    elif form.is_valid():
        events = selectors.audit_events(
            tournament=tournament or form.cleaned_data["tournament"],
            **form.filters(),
        )
    table = AuditTable(events, exclude=("tournament",) if tournament else ())
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    # The page's rows, read once (the table renders these same rows).
    table.object_labels = selectors.audit_object_labels(
        row.record for row in table.page.object_list
    )
    return render(
        request,
        "tournament/auditlog/audit_log.html",
        {
            "tournament": tournament,
            "base_template": (
                "tournament/tournament_base.html" if tournament else "base.html"
            ),
            "form": form,
            "table": table,
            "action_names": action_names(),
        },
    )
