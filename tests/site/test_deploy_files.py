"""The systemd units in deploy/systemd are ones systemd takes: checked
with `systemd-analyze verify` (where it exists) with the repository and its
interpreter in place of /srv/siebenschraem. deploy/manage gives manage.py
the server's settings file."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.servers import ROOT

ANALYZE = shutil.which("systemd-analyze")
UNITS = sorted((ROOT / "deploy" / "systemd").glob("siebenschraem*"))


@pytest.mark.skipif(
    ANALYZE is None, reason="no systemd-analyze here (Debian's systemd)"
)
def test_the_units_verify(tmp_path):
    assert {unit.suffix for unit in UNITS} == {".service", ".timer"}
    venv = Path(sys.executable).parent.parent
    for unit in UNITS:
        text = unit.read_text()
        text = text.replace("/srv/siebenschraem/.venv", str(venv))
        text = text.replace("/srv/siebenschraem", str(ROOT))
        text = text.replace("EnvironmentFile=/etc/", "EnvironmentFile=-/etc/")
        (tmp_path / unit.name).write_text(text)
    checked = subprocess.run(
        [ANALYZE, "verify", *sorted(str(path) for path in tmp_path.iterdir())],
        capture_output=True,
        text=True,
    )
    complaints = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        # Users of the machine it will run on, not of this one.
        if "siebenschraem" in line and "user" not in line.lower()
    ]
    assert checked.returncode == 0 or not complaints, checked.stderr
    assert not complaints, complaints


@pytest.mark.skipif(
    not (ROOT / ".venv" / "bin" / "python").exists(),
    reason="deploy/manage runs the checkout's .venv, and there is none",
)
def test_deploy_manage_runs_manage_py_with_the_servers_settings(tmp_path):
    env_file = tmp_path / "siebenschraem.env"
    env_file.write_text(
        "# as /etc/siebenschraem.env\n"
        "SECRET_KEY=not-a-secret-only-for-this-test-0123456789abcdefghij\n"
        f"DATABASE_URL=sqlite:///{tmp_path}/server.sqlite3\n"
        f"VAR_DIR={tmp_path}/var\n"
    )
    ran = subprocess.run(
        [str(ROOT / "deploy" / "manage"), "diffsettings"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "SIEBENSCHRAEM_ENV": str(env_file)},
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert f"{tmp_path}/server.sqlite3" in ran.stdout
    assert f"{tmp_path}/var/static" in ran.stdout
