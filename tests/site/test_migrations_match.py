"""The test suite's database is made from the models (config/test_settings.py):
the models and the migrations must describe the same tables, else a site
migrated in the hall would differ from the one the tests checked."""

from django.core.management import call_command


def test_the_migrations_describe_the_models(db):
    # Exits with SystemExit(1) if a migration is missing.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
