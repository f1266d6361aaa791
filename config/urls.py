from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.tournaments.views import SignIn

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path(
        "konto/anmelden/",
        SignIn.as_view(),
        name="login",
    ),
    path("konto/abmelden/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("tournament.urls")),
]

handler403 = "tournament.core.errors.permission_denied"
