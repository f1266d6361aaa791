"""Django's admin shows the app's rows but changes none of them (issue 15.8):
an edit there would bypass the services' checks and the audit trail."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from tests.support.factories import EntryFactory, TeamFactory
from tournament.models import AuditEvent, Tournament

pytestmark = pytest.mark.django_db


def test_no_model_of_the_app_can_be_added_changed_or_deleted_in_the_admin(rf):
    request = rf.get("/admin/")
    request.user = type("Super", (), {"is_active": True, "is_staff": True})()
    for model in apps.get_app_config("tournament").get_models():
        model_admin = admin.site._registry.get(model)
        if model_admin is None:
            continue
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request), model
        assert not model_admin.has_delete_permission(request), model


def test_a_superusers_edit_of_a_tournament_is_refused_and_changes_nothing(
    client, tournament, admin_user
):
    client.force_login(admin_user)
    entry = EntryFactory(tournament=tournament)
    team = TeamFactory(tournament=tournament)
    before = AuditEvent.objects.count()
    change = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    page = client.get(change)
    assert page.status_code == 200  # shown, read only
    assert 'name="name"' not in page.content.decode()
    response = client.post(change, {"name": "Umbenannt", "slug": "anders"})
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.name != "Umbenannt"
    for name, obj in (("entry", entry), ("team", team), ("player", entry.player)):
        url = reverse(f"admin:tournament_{name}_delete", args=[obj.pk])
        assert client.post(url, {"post": "yes"}).status_code == 403
        assert type(obj).objects.filter(pk=obj.pk).exists()
    assert (
        client.post(reverse("admin:tournament_tournament_add"), {}).status_code == 403
    )
    assert Tournament.objects.count() == 1
    assert AuditEvent.objects.count() == before


def test_the_admin_names_every_model_and_field_in_german(client, admin_user):
    """Linked as "Admin" from the organizer's pages: its lists and read-only
    forms are in the site's language, not Django's English defaults
    ("Entry totals", "created at")."""
    for model in apps.get_app_config("tournament").get_models():
        meta = model._meta
        assert str(meta.verbose_name) != meta.model_name, model
        assert str(meta.verbose_name_plural) != f"{meta.verbose_name}s", model
        for field in meta.concrete_fields:
            assert str(field.verbose_name) != field.name.replace("_", " "), (
                f"{model.__name__}.{field.name}"
            )
    client.force_login(admin_user)
    page = client.get(reverse("admin:index")).content.decode()
    assert "Punktestände" in page
    assert "Entry totals" not in page
