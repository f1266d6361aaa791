"""The socket of a digital table: ``/ws/d/<token>/`` for the player of one
seat, ``/ws/d/zuschauen/<id>/`` for referees and the organizer watching.

    → {"type": "act", "seq": 7, "version": 41, "act": "play", "card": "10H"}
    → {"type": "sync"}  (or "here": the same; the socket says so anyway)
    ← {"type": "state", "version": 42, "next_seq": 8, "game": {…}, …}
    ← {"type": "error", "code": "must_follow_suit", "message": "…"}

Every state message is built for its receiver from `view(seat)` alone
(`tournament.digital.selectors`). A seat's socket says its phone is there when
it opens, while it is open and when it closes (`tournament.digital.away`):
opening it gives back a seat a bot took over while the phone was gone.
A message that is not one of the above gets an error and changes nothing;
so does a stale or illegal move. After any change, every socket of the
table re-reads its own state (group ``digital-<id>``).
"""

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournament.core.errors import ConflictError, UserError
from tournament.core.middleware import supported_language
from tournament.core.ratelimit import link_missed, link_refusal
from tournament.digital import away, runner
from tournament.digital.moves import group_name
from tournament.digital.selectors import (
    fresh_state,
    may_watch,
    seat_by_token,
    table_for_watching,
)
from tournament.digital.services import (
    MAX_MESSAGE_CHARS,
    digital_act_message,
    parse_message,
)
from tournament.models import DigitalSeat


def _seat_guarded(address: str, token: str) -> DigitalSeat | int:
    """The seat of `token` as its page would answer it from `address`
    (views.digital_state), behind the same wrong-link guard: the close code
    for a wrong token (4404, counted as the address's miss) or an address
    the guard slows (4429; the page then asks over HTTP, where a phone that
    opened its seat is let through)."""
    request = HttpRequest()
    request.method = "GET"
    request.META["REMOTE_ADDR"] = address
    request.META["HTTP_ACCEPT"] = "application/json"  # no page to render
    request.user = AnonymousUser()
    if link_refusal(request, token, count=False) is not None:
        return 4429
    seat = seat_by_token(token)
    if seat is None:
        link_missed(request)
        return 4404
    return seat


class DigitalConsumer(AsyncWebsocketConsumer):
    token: str | None = None
    table_id: int | None = None
    sent: tuple[int, int | None] | None = None
    beating: "asyncio.Task[None] | None" = None

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.lang = supported_language((query.get("lang") or [""])[0])
        kwargs = self.scope["url_route"]["kwargs"]
        if "token" in kwargs:
            address = str((self.scope.get("client") or ("",))[0])
            seat = await database_sync_to_async(_seat_guarded)(address, kwargs["token"])
            if not isinstance(seat, DigitalSeat):
                await self.close(code=seat)
                return
            self.token, self.table_id = seat.token, seat.table_id
            # Before the first state: a seat taken over while the phone was
            # gone is the player's again.
            await database_sync_to_async(away.seat_seen)(seat, beat=True)
        else:
            table = await database_sync_to_async(table_for_watching)(kwargs["pk"])
            if table is None:
                await self.close(code=4404)
                return
            if not await database_sync_to_async(may_watch)(
                self.scope.get("user"), table
            ):
                await self.close(code=4403)
                return
            self.table_id = table.pk
        await self.channel_layer.group_add(group_name(self.table_id), self.channel_name)
        await self.accept()
        await self.send_state(force=True)
        if self.token is not None:
            self.beating = asyncio.create_task(self._beat())
        # After a restart nobody woke the bots: whoever opens the table does.
        await database_sync_to_async(runner.wake)(self.table_id)

    async def disconnect(self, code: int) -> None:
        if self.beating is not None:
            self.beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.beating
            self.beating = None
        if self.token is not None:
            # The phone was here until now: the limit counts from here.
            await database_sync_to_async(self._seen)()
        if self.table_id is not None:
            await self.channel_layer.group_discard(
                group_name(self.table_id), self.channel_name
            )

    async def _beat(self) -> None:
        """While the socket is open, its seat's phone is there."""
        while True:
            await asyncio.sleep(away.beat_seconds())
            await database_sync_to_async(self._seen)()

    def _seen(self) -> None:
        seat = DigitalSeat.objects.filter(token=self.token).first()
        if seat is not None:  # None: the link was replaced
            away.seat_seen(seat, beat=True)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None
    ) -> None:
        message = self._parse(text_data)
        if message is None:
            await self.send_error(
                "bad_message",
                _lazy(
                    "Diese Nachricht versteht der Tisch nicht; nichts wurde geändert."
                ),
            )
            return
        if message["type"] in ("sync", "here"):
            await self.send_state(force=True)
            return
        if self.token is None:
            await self.send_error(
                "watch_only", _lazy("Zuschauer können nicht mitspielen.")
            )
            return
        try:
            await database_sync_to_async(self._act)(message)
        except UserError as error:
            await self.send_error(error.code, error.message)
            if isinstance(error, ConflictError):
                await self.send_state(force=True)
            return
        await self.send_state(force=True)

    def _parse(self, text: str | None) -> dict[str, Any] | None:
        if text is None or len(text) > MAX_MESSAGE_CHARS:
            return None
        try:
            return parse_message(json.loads(text))
        except (ValueError, RecursionError):
            return None

    def _act(self, message: dict[str, Any]) -> None:
        assert self.token is not None
        with translation.override(self.lang):
            digital_act_message(token=self.token, message=message)

    def _state(self) -> dict[str, Any] | None:
        assert self.table_id is not None
        with translation.override(self.lang):
            return fresh_state(self.table_id, self.token)

    async def send_state(self, force: bool = False) -> None:
        data = await database_sync_to_async(self._state)()
        if data is None:
            with translation.override(self.lang):
                message = _("Dieser Link gilt nicht mehr.")
            await self.send(json.dumps({"type": "closed", "message": message}))
            await self.close(code=4410)
            return
        mark = (data["version"], data["next_seq"])
        if mark == self.sent and not force:
            return
        self.sent = mark
        await self.send(json.dumps(data, separators=(",", ":")))

    async def send_error(self, code: str, message: str | Promise) -> None:
        with translation.override(self.lang):
            text = str(message)
        await self.send(json.dumps({"type": "error", "code": code, "message": text}))

    async def digital_changed(self, event: dict[str, Any]) -> None:
        await self.send_state()
