"""A restart in the hall with nothing to install or migrate: `make run` and
`make serve` start Python with the whole site once before the server
(`manage.py prepare`), not once per step, and the static files are
collected again only when their sources changed."""

import os
import subprocess
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from tournament.management.commands import prepare

ROOT = Path(__file__).resolve().parents[2]


def commands_before_the_server(target: str) -> list[str]:
    """The recipe's Python start-ups of the site before `manage.py serve`
    (`make -n`: printed, not run), the allowed hosts' look-up left out (a
    local run asks nothing)."""
    done = subprocess.run(
        ["make", "-n", "-o", ".venv/.run-stamp", "-o", "secret-key", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "ALLOWED_HOSTS": "localhost"},
    )
    commands = done.stdout.split("manage.py serve ")[0]
    return [
        line
        for line in commands.splitlines()
        if "manage.py" in line and "hall " not in line
    ]


@pytest.mark.parametrize("target", ["run", "serve"])
def test_one_start_of_the_site_before_the_server(target):
    started = commands_before_the_server(target)
    assert len(started) == 1 and "manage.py prepare --static" in started[0], started


def test_make_run_prepares_every_step_in_its_order():
    done = subprocess.run(
        ["make", "-n", "-o", ".venv/.run-stamp", "-o", "secret-key", "run"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    steps = [
        '"migrate --noinput -v0"',
        '"housekeeping -v0"',
        '"demo --slug rm-2025 --date 2025-12-06 --complete 5"',
        '"demo --complete 3"',
        "manage.py serve --check",
    ]
    places = [done.index(step) for step in steps]
    assert places == sorted(places), done


@pytest.mark.django_db
def test_prepare_runs_the_steps_given(capsys):
    call_command("prepare", "sheetphotos -v1 expire", "sheetphotos -v1 expire")
    assert capsys.readouterr().out.count("photo(s) deleted.") == 2


STORAGE = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}


def test_static_files_are_collected_again_only_when_a_source_changed(tmp_path):
    sources = tmp_path / "sources"
    (sources / "css").mkdir(parents=True)
    sheet = sources / "css" / "a.css"
    sheet.write_text("body { color: black }")
    root = tmp_path / "collected"
    with override_settings(
        STATIC_ROOT=root,
        STATICFILES_DIRS=[sources],
        STATICFILES_FINDERS=[
            "django.contrib.staticfiles.finders.FileSystemFinder",
        ],
        STORAGES=STORAGE,
    ):
        assert prepare.static_collect(verbosity=0)
        assert (root / "staticfiles.json").exists()
        assert not prepare.static_collect(verbosity=0)
        # A changed file (a later modification time) is collected again.
        sheet.write_text("body { color: red }")
        later = time.time() + 5
        os.utime(sheet, (later, later))
        assert prepare.static_collect(verbosity=0)
        assert "color: red" in (root / "css" / "a.css").read_text()
        assert not prepare.static_collect(verbosity=0)
        # A new file too, and a manifest gone.
        (sources / "css" / "b.css").write_text("p { margin: 0 }")
        assert prepare.static_collect(verbosity=0)
        (root / "staticfiles.json").unlink()
        assert prepare.static_collect(verbosity=0)
        assert (root / "staticfiles.json").exists()
