from django.shortcuts import render
from django.urls import include, path


def trivial(request):  # type: ignore[no-untyped-def]
    """The baseline: the site's layout with nothing in it."""
    return render(request, "base.html")


urlpatterns = [path("bench/trivial/", trivial), path("", include("config.urls"))]
