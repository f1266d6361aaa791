"""The app's URLs: one module per feature, all under the `tournament`
namespace (`tournament:standings`, `tournament:table_result`, …)."""

from django.urls import include, path

app_name = "tournament"

FEATURES = (
    "tournaments",
    "seating",
    "standings",
    "results",
    "auditlog",
    "registration",
    "paper",
    "live",
    "digital",
    "history",
    "tableentry",
    "sheetphoto",
    "webapp",
)

urlpatterns = [path("", include(f"tournament.{name}.urls")) for name in FEATURES]
