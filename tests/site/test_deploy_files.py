"""The systemd units in deploy/systemd are ones systemd takes: checked
with `systemd-analyze verify` (where it exists) with the repository and its
interpreter in place of /srv/siebenschraem."""

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
