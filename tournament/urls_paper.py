"""URL patterns of the paper pages (included by tournament/urls.py)."""

from django.urls import URLPattern, path

from tournament.views import paper

urlpatterns: list[URLPattern] = [
    path("t/<slug:slug>/verwaltung/druck/", paper.paper, name="paper"),
    path(
        "t/<slug:slug>/verwaltung/druck/datei/",
        paper.paper_download,
        name="paper_download",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/",
        paper.paper_job_start,
        name="paper_job_start",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/",
        paper.paper_job,
        name="paper_job",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/status/",
        paper.paper_job_status,
        name="paper_job_status",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/datei/",
        paper.paper_job_file,
        name="paper_job_file",
    ),
    path(
        "t/<slug:slug>/verwaltung/spiele/import/",
        paper.games_import,
        name="games_import",
    ),
    path(
        "t/<slug:slug>/verwaltung/spiele/import/bestaetigen/",
        paper.games_import_confirm,
        name="games_import_confirm",
    ),
]
