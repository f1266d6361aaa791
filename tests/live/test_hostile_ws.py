"""Hostile websocket messages (issue 9): random JSON, text that is not
JSON, binary frames, huge and deeply nested messages sent to the live
pages' socket ``/ws/t/<slug>/``. The consumer answers what it understands,
ignores the rest and stays up: after any of it, a proper subscribe still
gets its answer, and no row of the database was written."""

import gzip
import json

import pytest
from django.apps import apps
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.factories import make_series
from tests.support.hostile import examples, hostile
from tests.support.threads import run_async
from tests.support.websockets import ws_connect
from tournament.live import consumers as live_consumers

# This process's own layer and cache (as in test_live).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("memory_layer", "local_cache"),
]

HOSTILE = hostile(max_examples=25)


@pytest.fixture
def live(tournament):
    make_series(tournament, sizes=(4, 4))
    return tournament


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_app_config("tournament").get_models()
    }


# --- Messages ----------------------------------------------------------------

KEYS = st.one_of(
    st.sampled_from(
        [
            "standings",
            "standings?view=ladies",
            "standings?q=%C2%B2",
            "standings?q=" + "9" * 5000,
            "standings?sort=-points&q=%00",
            "seating?series=1",
            "seating?series=%C2%B2",
            "seating?series=" + "9" * 5000,
            "results?series=99",
            "where?q=<script>",
            "progress",
            "progress-public",
            "seating-names",
            "?",
            "x" * 10_000,
        ]
    ),
    st.text(max_size=40),
)
JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=20),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
    ),
    max_leaves=12,
)
REGION = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "key": st.one_of(KEYS, JSON),
            "etag": st.one_of(st.text(max_size=80), JSON),
        },
    ),
    JSON,
)
SUBSCRIBE = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(st.sampled_from(["subscribe", "SUBSCRIBE", "move"]), JSON),
        "regions": st.one_of(st.lists(REGION, max_size=12), JSON),
        "gzip": st.one_of(st.booleans(), JSON),
    },
)
TEXT = st.one_of(
    st.builds(json.dumps, SUBSCRIBE),
    st.builds(json.dumps, JSON),
    st.text(max_size=100),
    st.sampled_from(
        [
            "",
            " ",
            "null",
            "NaN",
            "[1,",
            '{"type": "subscribe"',
            '{"type": "subscribe", "regions": "standings"}',
            '{"type": "subscribe", "regions": [null, 1, "standings"]}',
            '{"type":"subscribe","regions":[{"key":"standings"}]}' * 2,
            "\x00",
            "\ud800",
            '"\\ud800"',
            '{"type": "subscribe", "regions": [{"key": "where?q=\\ud800"}]}',
        ]
    ),
)
MESSAGE = st.one_of(
    st.builds(lambda t: ("text", t), TEXT),
    st.builds(lambda b: ("bytes", b), st.binary(max_size=200)),
)


# --- Talking to the socket ------------------------------------------------------


def _decode(output) -> dict:
    """A message the page can read: JSON text, or gzipped JSON bytes."""
    if output.get("bytes") is not None:
        return json.loads(gzip.decompress(output["bytes"]))
    return json.loads(output["text"])


async def _answers_until_subscribed(communicator) -> list[dict]:
    """What the socket sends until it acknowledges a subscribe; raises
    whatever ended the consumer if it crashed."""
    answers = []
    while True:
        answer = _decode(await communicator.receive_output(timeout=5))
        assert answer.get("type") in ("fragment", "etag", "subscribed", "error"), answer
        answers.append(answer)
        if answer["type"] == "subscribed":
            return answers


def _is_subscribe(message) -> bool:
    """Does the page's protocol call this a subscribe (answered with
    "subscribed", whatever regions it names)?"""
    kind, payload = message
    try:
        content = json.loads(payload) if kind == "text" else None
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(content, dict)
        and content.get("type") == "subscribe"
        and isinstance(content.get("regions"), list)
    )


def hostile_session(slug, messages):
    """Open a socket, send the messages, then check that it still answers a
    proper subscribe; every answer on the way is a message a page reads."""

    async def scenario():
        communicator, connected, _ = await ws_connect(f"/ws/t/{slug}/?lang=de")
        assert connected
        try:
            for kind, payload in messages:  # empty ones too
                await communicator.send_input(
                    {"type": "websocket.receive", kind: payload}
                )
            # Answers to the hostile messages that were subscribes, then the
            # answer to ours.
            await communicator.send_json_to(
                {"type": "subscribe", "regions": [{"key": "standings", "etag": ""}]}
            )
            answers = []
            for _ in range(1 + sum(map(_is_subscribe, messages))):
                answers += await _answers_until_subscribed(communicator)
            assert await communicator.receive_nothing(timeout=0.05)
            return answers
        finally:
            await communicator.disconnect()

    return run_async(scenario)


# --- Tests ---------------------------------------------------------------------


@HOSTILE
@given(messages=st.lists(MESSAGE, min_size=1, max_size=4))
@example(messages=[("bytes", b"\x00\xff")])
@example(messages=[("bytes", b"")])
@example(messages=[("text", "")])
@example(messages=[("text", "not json")])
@example(messages=[("text", '{"type": "subscribe", "regions": [{"key": ["x"]}]}')])
@example(messages=[("text", '{"type": "subscribe", "regions": [{"etag": {"a": 1}}]}')])
@example(messages=[("text", '{"type": "subscribe", "regions": [{"key": 7}]}')])
def test_random_messages_are_answered_or_ignored(live, messages):
    before = row_counts()
    hostile_session(live.slug, messages)
    assert row_counts() == before


DEEP = {
    "array": "[" * 100_000 + "]" * 100_000,
    "object": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "unclosed": "[" * 100_000,
    "key": '{"type": "subscribe", "regions": [{"key": ' + "[" * 900 + "]" * 900 + "}]}",
    "etag": '{"type": "subscribe", "regions": [{"key": "standings", "etag": '
    + "[" * 900
    + "]" * 900
    + "}]}",
    "huge": json.dumps(
        {"type": "subscribe", "regions": [{"key": "standings", "etag": "x" * 2**20}]}
    ),
    "many regions": json.dumps(
        {"type": "subscribe", "regions": [{"key": "standings"}] * 100_000}
    ),
}


@pytest.mark.parametrize("name", DEEP)
def test_huge_and_deeply_nested_messages(live, name):
    before = row_counts()
    hostile_session(live.slug, [("text", DEEP[name])])
    assert row_counts() == before


def test_many_searches_do_not_pile_up_regions(live):
    """Each subscribe may name other searches; a socket keeps a page's
    handful of regions, not every search it was ever sent."""
    messages = [
        (
            "text",
            json.dumps(
                {
                    "type": "subscribe",
                    "regions": [{"key": f"where?q=n{i}-{j}"} for j in range(8)],
                }
            ),
        )
        for i in range(20)
    ]
    answers = hostile_session(live.slug, messages)
    keys = max((a["keys"] for a in answers if a["type"] == "subscribed"), key=len)
    assert len(keys) <= live_consumers.MAX_REGIONS


@settings(HOSTILE, max_examples=examples(15))
@given(
    slug=st.one_of(st.text(max_size=20), st.from_regex(r"\A[-a-zA-Z0-9_]{1,90}\Z")),
    query=st.text(max_size=40),
)
@example(slug="rm-test", query="lang=\x00")
@example(slug="rm-test", query="lang=" + "x" * 10_000)
@example(slug="ä", query="")
@example(slug="a/b", query="")
def test_random_socket_paths_are_refused_or_served(live, slug, query):
    from urllib.parse import quote

    async def scenario():
        path = f"/ws/t/{quote(slug)}/?{quote(query)}"
        communicator, connected, _ = await ws_connect(path)
        if connected:
            await communicator.send_json_to({"type": "subscribe", "regions": []})
            answer = await communicator.receive_json_from(timeout=5)
            assert answer == {"type": "subscribed", "keys": []}
        await communicator.disconnect()

    before = row_counts()
    run_async(scenario)
    assert row_counts() == before
