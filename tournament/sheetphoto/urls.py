"""URL patterns of the photographed score sheet (included by
tournament/urls.py): a table's photo, its review and images, for the
referees beside the table's entry page and for a player at his table
beside his entry; the organizer's page of a tournament's photos."""

from django.urls import path

from tournament.sheetphoto import mine_views, views

TABLE = "t/<slug:slug>/eingabe/serie/<int:series>/tisch/<int:table>/foto/"
PLAYER_TABLE = (
    "t/<slug:slug>/mein/<str:token>/serie/<int:series>/tisch/<int:table>/foto/"
)

urlpatterns = [
    path(TABLE, views.photo_upload, name="photo_upload"),
    path(f"{TABLE}<uuid:photo>/", views.photo_review, name="photo_review"),
    path(
        f"{TABLE}<uuid:photo>/bild/<str:part>/",
        views.photo_image,
        name="photo_image",
    ),
    path(PLAYER_TABLE, mine_views.mine_photo_upload, name="mine_photo_upload"),
    path(
        f"{PLAYER_TABLE}<uuid:photo>/",
        mine_views.mine_photo_review,
        name="mine_photo_review",
    ),
    path(
        f"{PLAYER_TABLE}<uuid:photo>/bild/<str:part>/",
        mine_views.mine_photo_image,
        name="mine_photo_image",
    ),
    path("t/<slug:slug>/verwaltung/fotos/", views.photos_delete, name="sheetphotos"),
]
