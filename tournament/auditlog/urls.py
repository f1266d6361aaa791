"""URL patterns of auditlog (included by tournament/urls.py)."""

from django.urls import path

from tournament.auditlog import views

urlpatterns = [
    path("t/<slug:slug>/verwaltung/protokoll/", views.audit_log, name="audit_log"),
    path("verwaltung/protokoll/", views.audit_log, name="audit_log_all"),
]
