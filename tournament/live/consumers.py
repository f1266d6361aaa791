"""Websocket consumers: the live pages' side of `tournament.live.invalidation`.

A page opens ``/ws/t/<slug>/?lang=de`` and subscribes to its regions::

    → {"type": "subscribe", "regions": [{"key": "standings", "etag": "…"}],
       "gzip": true}
    ← {"type": "fragment", "key": "standings", "etag": "…", "html": "…"}
    ← {"type": "subscribed", "keys": ["standings"]}

With ``"gzip": true`` a large fragment message comes as a binary message:
the same JSON, gzipped (browsers unpack it with DecompressionStream).

A region behind a personal link (a player's own page) is subscribed only as
its poll is answered: the socket's address counted like the personal-link
pages (`core.ratelimit`), a wrong link counted as one. Once its link is
gone (a renewed card: `invalidation.link_changed`), the page gets
``{"type": "gone", "key": "…", "html": "…"}`` instead of the region, no
more pushes for it, and a socket left without regions is closed.

A region whose ETag is out of date (the page was rendered before a change,
or the socket was down) gets its fragment at once. After that, every
`live.update` that names one of a region's parts sends the region's new
fragment; if its HTML did not change, only its new ETag::

    ← {"type": "etag", "key": "standings", "etag": "…"}

so the page asks with the ETag the server has (a reconnect or a poll is
answered with nothing new), not with one from before.

Fan-out happens in the process, not in the channel layer: per tournament,
each worker process has one *room* that is the only member of the
tournament's group. An update is one channel-layer message per process
(not one per socket); the room renders each needed fragment once, in a
thread, and hands the same text to every socket. Each socket sends from
its own outbox, newest fragment per region first, so a phone on bad Wi-Fi
gets the latest standings, never a backlog, and never holds up the others.

The room takes each update off its channel as it comes and only notes which
regions are due (a changed personal link makes its regions due alike); it
renders them one after the other, the region most sockets show first, each
sent as soon as it is rendered. Updates that come meanwhile join what is
due (a region due twice is rendered once, from the state after both), so
a burst of results never queues up in the channel:
the in-memory layer forgets a message left there a minute and drops the
room from the tournament's group with it, and Redis drops what exceeds a
channel's capacity. A region is rendered from the state at its render, so
the last render after the last change shows it.

A region that follows some parts only at a pace (`Fragment.paced`: a
player's own page and his place, which every result anywhere moves) is held
when an update names only those, and is due when the pace's window turns
(`invalidation.paced_generation`): a series' results render each player's
page once per window, not once per result. His own table reaches it at once
(`invalidation.table_changed` names his link).
"""

import asyncio
import contextlib
import functools
import gzip
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple, ParamSpec, TypeVar
from urllib.parse import parse_qs

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import (
    AsyncJsonWebsocketConsumer,
    AsyncWebsocketConsumer,
)
from channels.layers import BaseChannelLayer, get_channel_layer
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

from tournament.core import background
from tournament.core.middleware import supported_language
from tournament.core.ratelimit import link_missed, personal_link_limited
from tournament.core.roles import may_referee, signed_in_user
from tournament.live import invalidation
from tournament.live.fragments import (
    FRAGMENTS,
    LINK_GONE_TEMPLATE,
    Fragment,
    link_of,
    link_valid,
    parse_key,
    region,
)
from tournament.live.invalidation import Part
from tournament.models import Tournament

logger = logging.getLogger(__name__)

# A page shows a handful of regions; more is not a page.
MAX_REGIONS = 8
# Smaller messages go as text: gzip would not save a packet.
PACK_FROM_CHARS = 2048
# Channel layers forget group members after a day; a room says hello hourly.
GROUP_REFRESH_SECONDS = 3600


class Frame(NamedTuple):
    etag: str
    digest: str  # of the HTML: an unchanged fragment is not sent again
    text: str  # the JSON message; empty if the page has this ETag already
    # The same message gzipped once, for pages that can unpack it: the hall's
    # Wi-Fi carries an eighth of the bytes, and the server compresses once per
    # update instead of once per socket (permessage-deflate).
    packed: bytes = b""
    # The region's personal link is gone: the message says so, and the
    # region is dropped once it is sent.
    gone: bool = False
    # The message giving only the ETag, for a page that has the HTML.
    moved: str = ""


# A socket whose regions are all gone is closed with this code.
CLOSE_GONE = 4410


def _gone_frame(key_text: str, language: str) -> Frame:
    """The message for a region behind a personal link that is gone."""
    with translation.override(language):
        html = render_to_string(LINK_GONE_TEMPLATE)
    message = {"type": "gone", "key": key_text, "html": html}
    return Frame("", "gone", json.dumps(message, ensure_ascii=False), gone=True)


def _frame_sync(
    tournament_id: int, key_text: str, language: str, known: str = ""
) -> Frame:
    """The fragment message for one region, rendered (or read from the
    cache) once; no text if the page shows the `known` ETag already."""
    key = parse_key(key_text)
    if key is None:
        raise Http404
    tournament = Tournament.objects.get(pk=tournament_id)
    if not link_valid(tournament, key):
        return _gone_frame(key_text, language)
    current = region(tournament, key, language)
    if current.etag == known:
        return Frame(current.etag, "", "")
    html = str(current.html)
    message = {"type": "fragment", "key": key.text, "etag": current.etag, "html": html}
    text = json.dumps(message, ensure_ascii=False)
    packed = b""
    if len(text) >= PACK_FROM_CHARS:
        packed = gzip.compress(text.encode(), compresslevel=6, mtime=0)
    moved = {"type": "etag", "key": key.text, "etag": current.etag}
    return Frame(
        current.etag, invalidation.etag(html), text, packed, moved=json.dumps(moved)
    )


# The consumers' database work runs in one thread of its own (the pool
# "live", core.background), not in the one thread where Django serves sync
# views: a refresh storm of page loads never delays a push, and the thread
# keeps one database connection. Each socket waits for one render at a time
# and each room for one per region and language; beyond this many waiting,
# a render is refused (`background.Full`): the socket ends, and its page
# polls and connects again later (static/js/live.js).
LIVE = background.Bound(workers=1, queued=4096)


def live_pool() -> background.Pool:
    return background.pool("live", LIVE)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _in_live_thread(func: Callable[_P, _R]) -> Callable[_P, Awaitable[_R]]:
    @functools.wraps(func)
    async def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        call = DatabaseSyncToAsync(func, thread_sensitive=False, executor=live_pool())
        return await call(*args, **kwargs)

    return run


def _layer() -> BaseChannelLayer:
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("Live pages need a channel layer (CHANNEL_LAYERS).")
    return layer


_render = _in_live_thread(_frame_sync)


def _fragment_of(key_text: str) -> Fragment | None:
    """The fragment a region's key names, without parsing its parameters
    (a socket's regions were validated when the page subscribed them)."""
    return FRAGMENTS.get(key_text.partition("?")[0])


@functools.lru_cache(maxsize=8192)
def _link_digest(key_text: str) -> str | None:
    """The digest of the personal link a region's key names (None for a
    region behind none): worked out once per key, not again for every
    socket at every change of a table's result."""
    key = parse_key(key_text)
    link = None if key is None else link_of(key)
    return None if link is None else invalidation.link_digest(link)


def _parts(names: object) -> frozenset[Part]:
    """The parts a ``live.update`` names; a name not known here (sent by a
    newer process during a deploy) is left out."""
    known = {part.value for part in Part}
    words = names if isinstance(names, list | tuple) else ()
    return frozenset(Part(name) for name in words if name in known)


class _Room:
    """This process's listener for one tournament's group."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        self.members: set[LiveConsumer] = set()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tasks: list[asyncio.Task[None]] = []
        self._channel = ""
        # What is due: each region (key, language) with the sockets that
        # showed it when an update named its parts or its personal link
        # changed, the most watched first.
        self._due: dict[tuple[str, str], set[LiveConsumer]] = {}
        self._wake = asyncio.Event()
        # Regions an update named only by their paced parts
        # (`Fragment.paced`): due at the next window of the pace.
        self._held: dict[tuple[str, str], set[LiveConsumer]] = {}
        self._release: asyncio.TimerHandle | None = None

    async def open(self) -> None:
        layer = _layer()
        try:
            # The default prefix: channels_redis reads all of a process's
            # channels from one list, named after it.
            self._channel = await layer.new_channel()
            await layer.group_add(
                invalidation.group_name(self.tournament_id), self._channel
            )
        except Exception as error:
            self.ready.set_exception(error)
            self.ready.exception()  # the joiner re-raises it; no "never retrieved"
            raise
        self._tasks = [
            asyncio.ensure_future(self._listen()),
            asyncio.ensure_future(self._work()),
            asyncio.ensure_future(self._refresh()),
        ]
        self.ready.set_result(None)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._release is not None:
            self._release.cancel()
        if self._channel:
            with contextlib.suppress(Exception):
                await _layer().group_discard(
                    invalidation.group_name(self.tournament_id), self._channel
                )

    async def _refresh(self) -> None:
        group = invalidation.group_name(self.tournament_id)
        while True:
            await asyncio.sleep(GROUP_REFRESH_SECONDS)
            with contextlib.suppress(Exception):
                await _layer().group_add(group, self._channel)

    async def _listen(self) -> None:
        """Take every message off the channel as it comes: nothing here
        waits for a render."""
        layer = _layer()
        group = invalidation.group_name(self.tournament_id)
        while True:
            try:
                message = await layer.receive(self._channel)
            except Exception:  # Redis went away: wait, rejoin, listen again
                logger.exception("live room of %s lost its layer", self.tournament_id)
                await asyncio.sleep(1)
                with contextlib.suppress(Exception):
                    await layer.group_add(group, self._channel)
                continue
            try:
                if message.get("type") == "live.update":
                    self._update(_parts(message.get("parts", ())))
                elif message.get("type") == "live.link":
                    # One link, as a process before "links" sent it.
                    links = message.get("links", [message.get("link", "")])
                    if isinstance(links, list | tuple):
                        self._link(frozenset(map(str, links)))
            except Exception:  # one bad update must not end the room
                logger.exception("live update of %s failed", self.tournament_id)

    def _update(self, parts: frozenset[Part]) -> None:
        """Note the regions that show one of `parts` as due, or as held
        for the next window of the pace if `parts` names only parts they
        follow at a pace."""
        due, held = self._due, self._held
        for member in self.members:
            for key_text in member.regions:
                fragment = _fragment_of(key_text)
                if fragment is None:
                    continue
                named = fragment.parts & parts
                if not named:
                    continue
                slots = held if named <= fragment.paced else due
                slots.setdefault((key_text, member.language), set()).add(member)
        if held and self._release is None:
            loop = asyncio.get_running_loop()
            # Just after the window turns, so that the render reads the new
            # window's state.
            delay = invalidation.next_pace(time.time())
            self._release = loop.call_later(delay + 0.05, self._release_held)
        self._sort_due()

    def _release_held(self) -> None:
        self._release = None
        for slot, members in self._held.items():
            self._due.setdefault(slot, set()).update(members)
        self._held = {}
        self._sort_due()

    def _sort_due(self) -> None:
        # The region most sockets show goes out first (the standings on
        # hundreds of phones before each player's own page).
        self._due = dict(sorted(self._due.items(), key=lambda item: -len(item[1])))
        self._wake.set()

    async def _work(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._due:
                try:
                    await self._render_due()
                except Exception:  # one bad region must not end the room
                    logger.exception("live update of %s failed", self.tournament_id)

    async def _render_due(self) -> None:
        """Render the first region due and offer it to its sockets. An
        update that names it while it renders makes it due again."""
        slot = next(iter(self._due))
        members = self._due.pop(slot)
        key_text, language = slot
        try:
            frame = await _render(self.tournament_id, key_text, language)
        except (Http404, Tournament.DoesNotExist):
            return  # e.g. a series that is no longer public
        for member in members:
            if member in self.members and key_text in member.regions:
                member.offer(key_text, frame)

    def _link(self, digests: frozenset[str]) -> None:
        """Personal links changed (`invalidation.link_changed`, by their
        digests): each region behind one is due, to get its fragment anew
        or the note that it is gone, rendered once for all the sockets
        showing it (a player's phones). It waits its turn like any region:
        the standings on hundreds of phones go out before a table's players'
        own pages, however many tables' results come in at once."""
        due = self._due
        for member in self.members:
            for key_text in member.regions:
                if _link_digest(key_text) in digests:
                    due.setdefault((key_text, member.language), set()).add(member)
        self._sort_due()


class _Rooms:
    """The rooms of this process (of its event loop: tests run several)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._rooms: dict[int, _Room] = {}

    def _current(self) -> dict[int, _Room]:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._rooms = loop, {}
        return self._rooms

    async def join(self, tournament_id: int, member: "LiveConsumer") -> None:
        rooms = self._current()
        room = rooms.get(tournament_id)
        if room is None:
            room = rooms[tournament_id] = _Room(tournament_id)
            try:
                await room.open()
            except Exception:
                rooms.pop(tournament_id, None)
                raise
        await asyncio.shield(room.ready)
        room.members.add(member)

    async def leave(self, tournament_id: int, member: "LiveConsumer") -> None:
        rooms = self._current()
        room = rooms.get(tournament_id)
        if room is None:
            return
        room.members.discard(member)
        if not room.members and room.ready.done():
            del rooms[tournament_id]
            await room.close()


_rooms = _Rooms()


@_in_live_thread
def _tournament_id(slug: str) -> int | None:
    return Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()


@_in_live_thread
def _is_staff(user: object, tournament_id: int) -> bool:
    """May this page see the referees' regions (waiting entries)?"""
    member = signed_in_user(user)
    if member is None:
        return False
    tournament = Tournament.objects.only("pk").filter(pk=tournament_id).first()
    return tournament is not None and may_referee(member, tournament)


@_in_live_thread
def _personal_status(address: str, tournament_id: int, key_text: str) -> int:
    """What a poll of the region `key_text` behind a personal link would be
    answered from `address` (`views.live_fragment`): 200, 404 for a wrong or
    replaced link (counted as one), 429 for an address that asked too
    often."""
    request = HttpRequest()
    request.method = "GET"
    request.META["REMOTE_ADDR"] = address
    request.user = AnonymousUser()

    @personal_link_limited
    def check(request: HttpRequest) -> HttpResponse:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        key = parse_key(key_text)
        if tournament is None or key is None or not link_valid(tournament, key):
            link_missed(request)
            return HttpResponse(status=404)
        return HttpResponse()

    return check(request).status_code


def _personal(key_text: str) -> bool:
    """Whether `key_text` names a fragment behind a personal link (valid or
    not)."""
    fragment = _fragment_of(key_text[:300])
    return fragment is not None and fragment.personal is not None


def _language(scope: Mapping[str, Any]) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin1"))
    return supported_language((query.get("lang") or [""])[0])


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """Keeps the live regions of one open page current."""

    tournament_id: int | None = None

    async def connect(self) -> None:
        self.regions: dict[str, str] = {}  # key → ETag the page shows
        self.sent: dict[str, str] = {}  # key → digest of the HTML sent last
        self.outbox: dict[str, Frame] = {}
        self.sender: asyncio.Task[None] | None = None
        self.gzip = False  # the page unpacks gzipped binary messages
        self.ended = False  # closed: its regions were all gone
        client = self.scope.get("client") or ("",)
        self.address = str(client[0])
        slug = self.scope["url_route"]["kwargs"]["slug"]
        tournament_id = await _tournament_id(slug)
        if tournament_id is None:
            await self.close(code=4404)
            return
        self.language = _language(self.scope)
        user = self.scope.get("user")
        self.staff = bool(user is not None and user.is_authenticated) and (
            await _is_staff(user, tournament_id)
        )
        await _rooms.join(tournament_id, self)
        self.tournament_id = tournament_id
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.tournament_id is not None:
            await _rooms.leave(self.tournament_id, self)
        if self.sender is not None:
            self.sender.cancel()

    async def receive(
        self,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        """A page sends JSON text. Anything else – binary frames, text that
        is not JSON or nests deeper than Python recurses – is ignored; it
        must not end the socket (the base class raises)."""
        if not text_data:
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "subscribe":
            return
        wanted = content.get("regions")
        if not isinstance(wanted, list) or self.tournament_id is None:
            return
        self.gzip = content.get("gzip") is True
        gone: list[str] = []
        for item in wanted[:MAX_REGIONS]:
            if not isinstance(item, dict):
                continue
            # A page sends back the keys and ETags it was given: ASCII text
            # (keys are URL-encoded). Anything else names no region.
            key_text, etag = item.get("key", ""), item.get("etag", "")
            if not (isinstance(key_text, str) and key_text.isascii()):
                continue
            if not (isinstance(etag, str) and etag.isascii()):
                continue
            if _personal(key_text):
                status = await _personal_status(
                    self.address, self.tournament_id, key_text
                )
                if status == 404:
                    gone.append(key_text)
                if status != 200:
                    continue
            key = parse_key(key_text)
            if key is None or (key.fragment.staff and not self.staff):
                continue
            if key.text not in self.regions and len(self.regions) >= MAX_REGIONS:
                continue  # a page has a handful; more is not a page
            self.regions[key.text] = etag[:64]
        for key_text in gone:
            self.offer(key_text, _gone_frame(key_text, self.language))
        # Catch up: whatever changed since the page was rendered.
        for key_text, known in list(self.regions.items()):
            try:
                frame = await _render(
                    self.tournament_id, key_text, self.language, known
                )
            except (Http404, Tournament.DoesNotExist):
                continue
            self.offer(key_text, frame)
        if self.sender is not None:
            await asyncio.shield(self.sender)
        if not self.ended:
            await self.send_json({"type": "subscribed", "keys": sorted(self.regions)})

    def offer(self, key_text: str, frame: Frame) -> None:
        """Queue a region's fragment (replacing an unsent older one); only
        its ETag if the page has its HTML."""
        if not frame.text:
            return
        if frame.digest == self.sent.get(key_text):
            # The page shows this HTML: anything older waiting goes, and the
            # page hears only the new ETag, if it moved.
            self.outbox.pop(key_text, None)
            if not frame.moved or frame.etag == self.regions.get(key_text):
                return
            frame = frame._replace(text=frame.moved, packed=b"")
        self.outbox.pop(key_text, None)
        self.outbox[key_text] = frame
        if self.sender is None or self.sender.done():
            self.sender = asyncio.ensure_future(self._drain())

    async def _drain(self) -> None:
        while self.outbox:
            key_text = next(iter(self.outbox))
            frame = self.outbox.pop(key_text)
            if frame.gone:
                self.regions.pop(key_text, None)
            else:
                self.regions[key_text] = frame.etag
            self.sent[key_text] = frame.digest
            try:
                if self.gzip and frame.packed:
                    await self.send(bytes_data=frame.packed)
                else:
                    await self.send(text_data=frame.text)
                if frame.gone and not self.regions and not self.ended:
                    # Nothing left to keep current: no more pushes.
                    self.ended = True
                    await self.close(code=CLOSE_GONE)
            except Exception:  # the socket went away meanwhile; the page
                self.outbox.clear()  # catches up when it reconnects
                return


class UnknownSocket(AsyncWebsocketConsumer):
    """A socket path no page opens: refused at the handshake."""

    async def connect(self) -> None:
        await self.close(code=4404)
