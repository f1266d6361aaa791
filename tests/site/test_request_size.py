"""A request body larger than anything the site takes is refused before it
is read (issue 15.8): a 60 MB anonymous POST used to be read in full (to
disk) before the CSRF check refused it."""

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from tournament.core.limits import BodySizeLimit

LIMIT = 1000
MB = 2**20


def scope(headers=()):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/i18n/setlang/",
        "raw_path": b"/i18n/setlang/",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


class Inner:
    """An application that reads the whole body, as Django's handler does."""

    def __init__(self):
        self.read = 0
        self.called = False

    async def __call__(self, scope, receive, send):
        self.called = True
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # Django: RequestAborted, no response
            self.read += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def _answer(app, request_scope, chunks=()):
    talk = ApplicationCommunicator(app, request_scope)
    for i, chunk in enumerate(chunks):
        await talk.send_input(
            {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        )
    start = await talk.receive_output(timeout=5)
    body = await talk.receive_output(timeout=5)
    await talk.wait(timeout=5)
    return start, body


def answer(app, request_scope, chunks=()):
    return async_to_sync(_answer)(app, request_scope, chunks)


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_a_declared_length_above_the_limit_is_refused_unread():
    inner = Inner()
    start, body = answer(
        BodySizeLimit(inner), scope([(b"content-length", str(60 * MB).encode())])
    )
    assert start["status"] == 413
    assert not inner.called  # nothing of the body was read
    assert "zu groß" in body["body"].decode()


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_the_refusal_speaks_english_to_who_chose_it():
    headers = [(b"content-length", b"999999"), (b"cookie", b"django_language=en")]
    start, body = answer(BodySizeLimit(Inner()), scope(headers))
    assert start["status"] == 413
    assert "too large" in body["body"].decode().lower()


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_a_body_without_length_is_cut_off_at_the_limit():
    inner = Inner()
    chunks = [b"x" * 600, b"x" * 600, b"x" * 600]
    start, _body = answer(BodySizeLimit(inner), scope(), chunks)
    assert start["status"] == 413
    assert inner.read <= 600 + 600 - 600  # stopped at the chunk that overflowed


@override_settings(REQUEST_MAX_BYTES=LIMIT)
def test_requests_within_the_limit_pass_untouched():
    inner = Inner()
    start, body = answer(
        BodySizeLimit(inner), scope([(b"content-length", b"10")]), [b"x" * 10]
    )
    assert start["status"] == 200 and body["body"] == b"ok"
    assert inner.read == 10
    inner = Inner()
    start, _ = answer(BodySizeLimit(inner), scope(), [b"x" * 500, b"x" * 500])
    assert start["status"] == 200 and inner.read == 1000


@pytest.mark.django_db
def test_the_site_refuses_a_60_mb_post_before_reading_it():
    from config.asgi import application

    start, body = answer(
        application, scope([(b"content-length", str(60 * MB).encode())])
    )
    assert start["status"] == 413
    assert "höchstens 10 MB" in body["body"].decode()
