"""The upgrade of docs/OPERATING.md › Upgrading, tried on a real database
of an earlier version: the code as it was before the newest migration
(taken from the repository's own history) makes its demo championship
and a backup; then this version migrates the same database, starts, and
shows the same standings; and the old backup restores into a new, empty
database of this version with the same standings again.

Skipped with a message where the checkout has no history to take the
earlier version from (a shallow clone or an exported tree).
"""

import html
import json
import shutil
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from tests.support import servers as support

pytestmark = [pytest.mark.slow(minutes=2.5), pytest.mark.server]

SLUG = "upgrade"
MIGRATIONS = "tournament/migrations"


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=support.ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()


def _earlier_version() -> str | None:
    """The commit before the newest change to the migrations: the last
    version whose database an upgrade has to migrate."""
    if shutil.which("git") is None:
        return None
    try:
        newest = _git("rev-list", "-1", "HEAD", "--", MIGRATIONS)
        return _git("rev-parse", "--verify", "-q", f"{newest}^")
    except subprocess.CalledProcessError:
        return None


def _export(commit: str, folder: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit],
        cwd=support.ROOT,
        capture_output=True,
        check=True,
        timeout=120,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")


def _manage(code: Path, env: dict[str, str], *command: str) -> str:
    """manage.py COMMAND of the version in `code`, on the database of `env`."""
    done = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=code,
        env={**env, "PYTHONPATH": str(code)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"manage.py {' '.join(command)}:\n{done.stderr}"
    return done.stdout


def _standings(code: Path, env: dict[str, str]) -> list[dict]:
    """Rank, start number, name and points of every row, as the version in
    `code` computes them (later versions may add fields to a row)."""
    rows = json.loads(_manage(code, env, "standings", SLUG))["rows"]
    keys = ("rank", "start_number", "name", "points", "games_won")
    return [{key: row[key] for key in keys} for row in rows]


def test_an_earlier_versions_database_upgrades_as_the_procedure_says(tmp_path):
    earlier = _earlier_version()
    if earlier is None:
        pytest.skip("no earlier version in this checkout's history (shallow clone?)")
    old = tmp_path / "old"
    _export(earlier, old)
    env = support._env(tmp_path / "var", **support.HALL)
    (tmp_path / "var").mkdir()

    # The championship as the earlier version kept it, and its backup
    # (step 1, made before the new code arrives).
    _manage(old, env, "migrate", "-v0")
    _manage(old, env, "demo", "--slug", SLUG, "--complete", "3")
    before = _standings(old, env)
    assert before and any(row["points"] for row in before)
    backup = tmp_path / "before-upgrade.json"
    _manage(old, env, "backup", SLUG, "-o", str(backup))

    # Steps 4 and 5 with this version: migrate, collect, start, ready.
    new = support.ROOT
    pending = _manage(new, env, "showmigrations", "--plan", "tournament")
    assert "[ ]" in pending, "the earlier version should lack a migration"
    _manage(new, env, "migrate", "-v0")
    _manage(new, env, "collectstatic", "--noinput", "-v0")
    port = support.free_port()
    server = support.start_server(env, port)
    try:
        support.wait_until_up(port, server)
        assert support.request(port, "GET", "/readyz")[0] == 200
        status, _, page = support.request(port, "GET", f"/t/{SLUG}/tabelle/")
        assert status == 200
        assert html.escape(before[0]["name"]) in page.decode()
    finally:
        support.stop(server)
    assert _standings(new, env) == before

    # The earlier version's backup on a new server of this version.
    fresh = support._env(tmp_path / "fresh", **support.HALL)
    (tmp_path / "fresh").mkdir()
    _manage(new, fresh, "restore", str(backup))
    assert _standings(new, fresh) == before
