"""Websocket consumers: the live pages' side of `tournament.live`.

A page opens ``/ws/t/<slug>/?lang=de`` and subscribes to its regions::

    → {"type": "subscribe", "regions": [{"key": "standings", "etag": "…"}]}
    ← {"type": "fragment", "key": "standings", "etag": "…", "html": "…"}
    ← {"type": "subscribed", "keys": ["standings"]}

A region whose ETag is out of date (the page was rendered before a change,
or the socket was down) gets its fragment at once. After that, every
`live.update` of the tournament's group that names one of a region's parts
sends the region's new fragment, unless it did not change.

The fragment is rendered once per process and update, not once per socket:
`_frames` shares one rendering (one JSON text) among all sockets that show
the same key in the same language.
"""

import asyncio
import json
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http import Http404

from tournament import live
from tournament.models import Tournament
from tournament.roles import is_referee
from tournament.views.live import parse_key, region

# A page shows a handful of regions; more is not a page.
MAX_REGIONS = 8


class Frame(NamedTuple):
    etag: str
    digest: str  # of the HTML: an unchanged fragment is not sent again
    text: str  # the JSON message; empty if the page has this ETag already


def _frame_sync(
    tournament_id: int, key_text: str, language: str, known: str = ""
) -> Frame:
    """The fragment message for one region, rendered (or read from the
    cache) once; no text if the page shows the `known` ETag already."""
    key = parse_key(key_text)
    if key is None:
        raise Http404
    tournament = Tournament.objects.get(pk=tournament_id)
    current = region(tournament, key, language)
    if current.etag == known:
        return Frame(current.etag, "", "")
    html = str(current.html)
    message = {"type": "fragment", "key": key.text, "etag": current.etag, "html": html}
    return Frame(
        current.etag,
        live.etag(html),
        json.dumps(message, ensure_ascii=False),
    )


# Rendering runs in a worker thread of its own (not Django's one thread for
# sync views), so a busy page load never delays a push.
_render = database_sync_to_async(_frame_sync, thread_sensitive=False)


class _Frames:
    """One rendering per (tournament, key, language) and update id, shared
    by every socket of this process that asks for it."""

    def __init__(self) -> None:
        self._latest: dict[tuple[int, str, str], tuple[str, asyncio.Future[Frame]]] = {}

    async def get(
        self, tournament_id: int, key: str, language: str, update_id: str
    ) -> Frame:
        slot = (tournament_id, key, language)
        current = self._latest.get(slot)
        if current is None or current[0] != update_id:
            task = asyncio.ensure_future(_render(tournament_id, key, language))
            current = (update_id, task)
            self._latest[slot] = current
        return await asyncio.shield(current[1])


_frames = _Frames()


@database_sync_to_async
def _tournament_id(slug: str) -> int | None:
    return Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()


@database_sync_to_async
def _is_staff(user: Any) -> bool:
    return user is not None and is_referee(user)


def _language(scope: dict[str, Any]) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    wanted = (query.get("lang") or [""])[0]
    known = {code for code, _ in settings.LANGUAGES}
    return wanted if wanted in known else settings.LANGUAGE_CODE


class LiveConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Keeps the live regions of one open page current."""

    tournament_id: int | None = None

    async def connect(self) -> None:
        self.regions: dict[str, str] = {}  # key → ETag the page shows
        self.sent: dict[str, str] = {}  # key → digest of the HTML sent last
        slug = self.scope["url_route"]["kwargs"]["slug"]
        self.tournament_id = await _tournament_id(slug)
        if self.tournament_id is None:
            await self.close(code=4404)
            return
        self.language = _language(self.scope)
        user = self.scope.get("user")
        self.staff = bool(user is not None and user.is_authenticated) and (
            await _is_staff(user)
        )
        await self.channel_layer.group_add(
            live.group_name(self.tournament_id), self.channel_name
        )
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.tournament_id is not None:
            await self.channel_layer.group_discard(
                live.group_name(self.tournament_id), self.channel_name
            )

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "subscribe":
            return
        wanted = content.get("regions")
        if not isinstance(wanted, list):
            return
        for item in wanted[:MAX_REGIONS]:
            if not isinstance(item, dict):
                continue
            key = parse_key(item.get("key", ""))
            if key is None or (key.fragment.staff and not self.staff):
                continue
            self.regions[key.text] = str(item.get("etag", ""))[:64]
        # Catch up: whatever changed since the page was rendered.
        for key_text in list(self.regions):
            await self._send_region(key_text, update_id=None)
        await self.send_json({"type": "subscribed", "keys": sorted(self.regions)})

    async def live_update(self, event: dict[str, Any]) -> None:
        """A change committed somewhere (`tournament.live.publish`)."""
        parts = set(event.get("parts", ()))
        for key_text in list(self.regions):
            key = parse_key(key_text)
            if key is not None and key.fragment.parts & parts:
                await self._send_region(key_text, update_id=event.get("id", ""))

    async def _send_region(self, key_text: str, *, update_id: str | None) -> None:
        assert self.tournament_id is not None
        try:
            if update_id is None:
                frame = await _render(
                    self.tournament_id, key_text, self.language, self.regions[key_text]
                )
            else:
                frame = await _frames.get(
                    self.tournament_id, key_text, self.language, update_id
                )
        except (Http404, Tournament.DoesNotExist):
            return  # e.g. a series that is no longer public
        if not frame.text or frame.digest == self.sent.get(key_text):
            return
        self.regions[key_text] = frame.etag
        self.sent[key_text] = frame.digest
        await self.send(text_data=frame.text)
