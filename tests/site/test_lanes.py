"""At most so many requests in Django at once, per lane (issue 18.2):
phones without a session in one, signed-in referees and the organizer in
their own, so 1,000 phones never make a referee's page wait behind theirs.
The rest wait in the event loop, and every one is answered."""

import asyncio

import pytest
from django.test import override_settings

from tests.support.threads import run_async
from tournament.core.limits import Lanes


def scope(cookie=b""):
    headers = [(b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    return {"type": "http", "method": "GET", "path": "/", "headers": headers}


class Inner:
    """An application that counts who is inside at once, by lane, and keeps
    each request until the test lets it go."""

    def __init__(self):
        self.inside = {"public": 0, "signed_in": 0}
        self.most = {"public": 0, "signed_in": 0}
        self.answered = 0
        self.go = asyncio.Event()

    async def __call__(self, scope, receive, send):
        cookies = dict(scope["headers"]).get(b"cookie", b"")
        lane = "signed_in" if cookies.startswith(b"sessionid=") else "public"
        self.inside[lane] += 1
        self.most[lane] = max(self.most[lane], self.inside[lane])
        await self.go.wait()
        self.inside[lane] -= 1
        self.answered += 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def ignore(message):
    pass


async def nothing():
    return {"type": "http.request", "body": b""}


@override_settings(REQUEST_LANES={"public": 2, "signed_in": 3})
def test_each_lane_lets_so_many_in_and_the_referees_pass_the_phones():
    async def scenario():
        inner = Inner()
        lanes = Lanes(inner)
        phones = [
            asyncio.create_task(lanes(scope(b"lang=de"), nothing, ignore))
            for _ in range(8)
        ]
        await asyncio.sleep(0.01)
        # The phones' lane is full; a referee still gets in at once.
        referees = [
            asyncio.create_task(lanes(scope(b"sessionid=x; a=b"), nothing, ignore))
            for _ in range(5)
        ]
        await asyncio.sleep(0.01)
        inside = dict(inner.inside)
        inner.go.set()
        await asyncio.gather(*phones, *referees)
        return inside, inner

    inside, inner = run_async(scenario)
    assert inside == {"public": 2, "signed_in": 3}
    assert inner.most == {"public": 2, "signed_in": 3}
    assert inner.answered == 13


def test_a_websocket_does_not_take_a_place():
    async def scenario():
        inner = Inner()
        inner.go.set()
        lanes = Lanes(inner)
        socket = {**scope(), "type": "websocket"}
        await lanes(socket, nothing, ignore)
        return inner

    assert run_async(scenario).answered == 1


@pytest.mark.parametrize("cookie", [b"xsessionid=1", b"sessionid_old=1"])
def test_only_the_session_cookie_itself_counts_as_signed_in(cookie):
    async def scenario():
        inner = Inner()
        inner.go.set()
        await Lanes(inner)(scope(cookie), nothing, ignore)
        return inner

    assert run_async(scenario).most == {"public": 1, "signed_in": 0}
