from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Turniere")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournament.roles import ensure_role_groups

        post_migrate.connect(ensure_role_groups, sender=self)
