"""URL patterns of the paper pages (included by tournament/urls.py)."""

from django.urls import URLPattern, path

from tournament.paper import views

urlpatterns: list[URLPattern] = [
    path("t/<slug:slug>/verwaltung/druck/", views.paper, name="paper"),
    path(
        "t/<slug:slug>/verwaltung/druck/datei/",
        views.paper_download,
        name="paper_download",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/",
        views.paper_job_start,
        name="paper_job_start",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/",
        views.paper_job,
        name="paper_job",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/status/",
        views.paper_job_status,
        name="paper_job_status",
    ),
    path(
        "t/<slug:slug>/verwaltung/druck/auftrag/<uuid:job_id>/datei/",
        views.paper_job_file,
        name="paper_job_file",
    ),
    path(
        "t/<slug:slug>/verwaltung/spiele/import/",
        views.games_import,
        name="games_import",
    ),
    path(
        "t/<slug:slug>/verwaltung/spiele/import/bestaetigen/",
        views.games_import_confirm,
        name="games_import_confirm",
    ),
    path("wertung/<slug:slug>/pdf/", views.ranking_pdf, name="ranking_pdf"),
    path("wertung/<slug:slug>/excel/", views.ranking_xlsx, name="ranking_xlsx"),
]
