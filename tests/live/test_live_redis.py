"""Two server processes sharing live updates through the Redis channel layer
and kept pages through the Redis cache: a result confirmed on one reaches
the pages connected to the other, and the page one kept is the other's.

Needs Redis (REDIS_URL, else 127.0.0.1:6379); skipped with a message when
none answers. The servers are real uvicorn processes on free loopback ports
with their own SQLite file, whatever database the suite itself uses.
"""

import asyncio
import gzip
import json

import pytest

from tests.support import servers as support
from tests.support.threads import in_own_thread

REDIS_URL = support.redis_url(support.SERVERS_DB)


pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        not support.redis_answers(REDIS_URL),
        reason=f"Redis does not answer at {REDIS_URL}: the two-process test needs "
        "it (CI runs redis-server on 127.0.0.1:6379)",
    ),
]


@pytest.fixture
def servers(tmp_path):
    env = support.server_env(tmp_path, REDIS_URL=REDIS_URL)
    pending = support.seed_database(env)
    ports = [support.free_port(), support.free_port()]
    processes = [support.start_server(env, port) for port in ports]
    try:
        for port, process in zip(ports, processes, strict=True):
            support.wait_until_up(port, process)
        yield ports, pending, env
    finally:
        for process in processes:
            support.stop(process)


async def _phone(port, etag):
    from websockets.asyncio.client import connect

    websocket = await connect(
        f"ws://127.0.0.1:{port}/ws/t/{support.SLUG}/?lang=de",
        origin=f"http://127.0.0.1:{port}",
        open_timeout=10,
    )
    await websocket.send(
        json.dumps(
            {"type": "subscribe", "regions": [{"key": "standings", "etag": etag}]}
        )
    )
    while json.loads(await asyncio.wait_for(websocket.recv(), 10))["type"] != (
        "subscribed"
    ):
        pass
    return websocket


def test_a_confirmation_on_one_process_reaches_pages_on_the_other(servers):
    (a, b), pending, _env = servers
    _, headers, _ = support.request(b, "GET", f"/t/{support.SLUG}/live/standings/")
    shown = headers["ETag"].strip('"')

    async def scenario():
        on_b, on_a = await _phone(b, shown), await _phone(a, shown)
        await asyncio.to_thread(support.confirm, a, 1, *pending[1])
        got = [json.loads(await asyncio.wait_for(p.recv(), 10)) for p in (on_b, on_a)]
        for phone in (on_b, on_a):
            await phone.close()
        return got

    from_b, from_a = in_own_thread(asyncio.run, scenario())
    assert from_b["type"] == "fragment" and from_b["etag"] != shown
    # Seat 1 of table 1 won all five games with 7 marks: 5 × (7 + 7) = 70.
    assert '<td class="num points">70</td>' in from_b["html"]
    assert from_a["html"] == from_b["html"]


def test_a_page_kept_by_one_process_is_the_others_until_a_result_counts(servers):
    import redis

    (a, b), pending, env = servers
    url = f"/t/{support.SLUG}/tabelle/"
    _, first, page = support.request(a, "GET", url)
    # Kept in Redis, under the servers' key prefix (config/test_settings.py).
    client = redis.Redis.from_url(support.redis_url(3))
    prefix = f"test-{env['PYTEST_XDIST_WORKER']}"
    kept = list(client.scan_iter(match=f"{prefix}:*live-page:*"))
    client.close()
    assert kept, "no page kept in Redis"
    # Workers share a port; these two processes do not: the page's address
    # (its key) names the host and port the phone asked.
    host = {"Host": f"127.0.0.1:{a}"}
    seen = {**host, "If-None-Match": first["ETag"]}
    status, _, _ = support.request(b, "GET", url, headers=seen)
    assert status == 304
    packed = {**host, "Accept-Encoding": "gzip"}
    status, _, again = support.request(b, "GET", url, headers=packed)
    assert status == 200 and gzip.decompress(again) == page
    support.confirm(a, 1, *pending[1])
    status, headers, changed = support.request(b, "GET", url, headers=seen)
    assert status == 200 and headers["ETag"] != first["ETag"]
    assert b'<td class="num points">70</td>' in changed
