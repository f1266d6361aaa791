"""The setup contract: settings from the environment, demo data, roles."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from tournament.core.roles import is_organizer, is_referee
from tournament.models import Entry, Tournament

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, env):
    # The browser tests allow async-unsafe ORM calls in this process; the
    # deployed site never does (check --deploy says so).
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    base = {k: v for k, v in os.environ.items() if k not in unset}
    base.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_refuses_to_start_without_secret_key_when_debug_is_off():
    result = run_manage("check", env={"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_check_deploy_is_clean_with_production_values():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DEBUG": "0",
            "SECRET_KEY": "x7Gq2-very-long-and-random-production-secret-key-9fK3mZ0pLw",
            "ALLOWED_HOSTS": "schraem.example.org",
        },
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_demo_creates_forty_players_and_the_three_logins_idempotently():
    out = StringIO()
    call_command("demo", stdout=out)
    call_command("demo", stdout=out)
    assert "Demo tournament exists already" in out.getvalue()
    tournament = Tournament.objects.get(slug="rm-2026")
    assert Entry.objects.filter(tournament=tournament).count() == 40
    clubs = set(tournament.entries.values_list("player__club", flat=True))
    assert "7-Schräm-Freunde Ulmen" in clubs
    request = RequestFactory().post("/konto/anmelden/")
    organizer = authenticate(request, username="organizer", password="organizer-demo")
    referee = authenticate(request, username="referee", password="referee-demo")
    referee2 = authenticate(request, username="referee2", password="referee2-demo")
    assert is_organizer(organizer) and organizer.is_staff
    assert is_referee(referee) and not is_organizer(referee)
    assert is_referee(referee2)
    assert tournament.teams.count() == 3
