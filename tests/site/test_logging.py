"""The operator's log: each line says when, how grave and which worker;
with LOG_FORMAT=json one JSON object per line; with LOG_REQUESTS=1 a line
per request that reached Django, with its status and duration."""

import json
import re

import pytest

from tests.support import servers as support

pytestmark = [pytest.mark.slow, pytest.mark.server]


def _served_log(tmp_path, **env_extra: str) -> list[str]:
    env = support.server_env(tmp_path, **env_extra)
    port = support.free_port()
    log = tmp_path / "stderr.log"
    with log.open("w") as stderr:
        process = support.start_server(env, port, stderr=stderr)
        try:
            support.wait_until_up(port, process)
            support.request(port, "GET", "/konto/anmelden/")
            support.request(port, "GET", "/gibt-es-nicht/")  # Django warns: 404
        finally:
            support.stop(process)
    return log.read_text().splitlines()


def test_json_lines_name_time_level_worker_and_each_requests_duration(tmp_path):
    lines = _served_log(tmp_path, LOG_FORMAT="json", LOG_REQUESTS="1")
    records = [json.loads(line) for line in lines if line.startswith("{")]
    requests = [r for r in records if r.get("name") == "siebenschraem.requests"]
    login = [r for r in requests if r["path"] == "/konto/anmelden/"]
    assert login, lines
    record = login[0]
    assert record["levelname"] == "INFO" and record["status"] == 200
    assert isinstance(record["process"], int) and record["duration_ms"] >= 0
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", record["asctime"])


def test_without_asking_no_request_is_logged_and_lines_are_text(tmp_path):
    lines = _served_log(tmp_path, LOG_LEVEL="WARNING")
    assert not [line for line in lines if "siebenschraem.requests" in line]
    stamped = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ WARNING \[\d+\] django.request: "
    assert [
        line for line in lines if re.match(stamped + "Not Found: /gibt-es-nicht/", line)
    ], lines
