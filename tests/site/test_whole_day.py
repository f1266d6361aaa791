"""The whole day replayed, short (bench/day.py --players 40 --speed 60):
a championship of five series through the site's pages and sockets as the
hall runs it, a server restart in series 3 included; every table
confirmed once with the script's games, nothing lost or doubled, the
standings (overall, categories, PDF) equal to the script's sheets. The
phones on the final standings and the latency figures are the
benchmark's, not this test's."""

import json
import subprocess
import sys

import pytest

from tests.support import servers as support

# A whole day, about seven minutes of its script's clock, its servers started by
# bench/day.py.
pytestmark = [pytest.mark.slow(minutes=8), pytest.mark.server]


def test_a_short_day_ends_with_the_scripts_truth() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/day.py",
            "--players",
            "40",
            "--speed",
            "60",
            "--port",
            str(support.free_port()),
        ],
        cwd=support.ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    figures = json.loads(lines[-1])
    said = done.stdout[-4000:] + done.stderr[-2000:]
    assert figures["errors"] == 0, said
    assert figures["tables"] > 0
    assert figures["confirmed_once"] == figures["tables"], said
    assert figures["lost"] == 0, said
    assert figures["duplicated"] == 0, said
    assert figures["standings_equal"] is True, said
    assert figures["restart_s"] is not None
