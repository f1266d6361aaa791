from importlib import import_module

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

# The features whose live fragments (`<feature>/fragments.py`) register
# themselves with `tournament.live.fragments`.
FRAGMENT_FEATURES = ("standings", "results", "seating", "history", "tableentry")


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Turniere")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournament.core.roles import ensure_role_groups

        post_migrate.connect(ensure_role_groups, sender=self)
        for feature in FRAGMENT_FEATURES:
            import_module(f"tournament.{feature}.fragments")
