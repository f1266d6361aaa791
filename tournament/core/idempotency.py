"""At most once per key: a POST that carries a key is applied once, and a
repeat of it gets the first answer.

A phone in the hall sends an entry; the server saves it; the answer is lost
on the way back, so the phone (static/js/outbox.js) sends it again with the
same key. Without the key that repeat would be a second entry, or a
conflict with the phone's own first one.

The key comes in the `Idempotency-Key` header (the outbox) or in the form's
hidden field `idempotency_key` (a form without script: a double tap, the
browser's "send again"). It is scoped to the actor (the signed-in user, or
what the view names, e.g. a player's link) and the address, so nobody's key
answers somebody else's request. A POST without a key works as before.

Once, also when two repeats arrive at the same moment: the key's row is
inserted *before* the view runs, in the same transaction as everything the
view writes, under a unique constraint. On PostgreSQL the second insert
waits for the first transaction and then finds its row (and its answer); on
SQLite every transaction takes the write lock when it begins (IMMEDIATE, see
config/settings.py), so the second begins only after the first committed.
Only a submission that was applied keeps its key: its answer is a redirect
(the page after a saved form) or JSON, with no error status and no error
message. A refusal, a conflict, a form shown again with its mistakes or a
failure (an exception, a 5xx) applied nothing and writes nothing, with or
without a key: its row is rolled back with the rest, and a repeat runs anew.

For the outbox, which asks for JSON, an answer that is a redirect or a page
comes as an envelope: ``{"ok", "status", "location", "messages", "html",
"replayed"}`` (`ok`: redirected without an error message). A view that
answers JSON itself is passed through. Keys are forgotten after
IDEMPOTENCY_KEY_DAYS days (`submission_keys_expire`, by `manage.py
housekeeping`, never by a request).
"""

import hashlib
import json
import threading
import uuid
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar, cast, overload

from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.base import BaseStorage, Message
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core.ratelimit import wants_json
from tournament.models import SubmissionKey

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
# The answer to a repeat says so (the outbox counts them; tests look).
REPLAYED_HEADER = "Idempotency-Replayed"
# Not part of what was sent: a token the phone fetches anew, and the key.
_NOT_CONTENT = frozenset({"csrfmiddlewaretoken", FIELD})
_FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
_PATH_MAX = 255
# SQLite has one writer, and a keyed submission holds the write lock for its
# whole view. A burst of them (a hundred tables at once, bench/selfentry.py)
# waiting on SQLite's busy timeout fails some after 5 s ("database is
# locked", a 500); queued here, in the process, they wait their turn. The
# turn ends with the commit: what runs after it (telling the live pages)
# writes nothing, and the next submission need not wait for it.
_SQLITE_WRITER = threading.Lock()
_SQLITE_QUEUE_SECONDS = 30.0

View = TypeVar("View", bound=Callable[..., HttpResponseBase])
Scope = Callable[[HttpRequest], str]


def new_key() -> str:
    """A fresh key, for a form's hidden field."""
    return str(uuid.uuid4())


def request_actor(request: HttpRequest) -> str:
    """Who sends, by default: the signed-in user, else nobody in particular
    ("anon"), where the address itself carries the secret (a player's link).
    Not the session: a phone's first POST may create it, and its repeat
    (whose first answer, with the cookie, was lost) comes without."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "anon"


@overload
def idempotent(view: View) -> View: ...
@overload
def idempotent(*, scope: Scope) -> Callable[[View], View]: ...
def idempotent(
    view: View | None = None, *, scope: Scope | None = None
) -> View | Callable[[View], View]:
    """Decorate a view: a POST with a key is applied at most once per key.
    `scope` names the actor where the default (`request_actor`) does not,
    e.g. a player identified by a cookie. Put it below the permission
    decorators: a refused request keeps no key."""

    def decorate(func: View) -> View:
        @wraps(func)
        def wrapper(
            request: HttpRequest, *args: Any, **kwargs: Any
        ) -> HttpResponseBase:
            if request.method != "POST":
                return func(request, *args, **kwargs)
            raw = request.headers.get(HEADER) or _form_key(request)
            if not raw:
                return func(request, *args, **kwargs)
            try:
                key = uuid.UUID(raw.strip())
            except ValueError:
                return _refusal(
                    request,
                    400,
                    _("Diese Übermittlung ist beschädigt. Bitte die Seite neu laden."),
                )
            actor = (scope or request_actor)(request)
            return _once(request, key, actor, func, args, kwargs)

        return cast(View, wrapper)

    return decorate(view) if view is not None else decorate


def _form_key(request: HttpRequest) -> str:
    if request.content_type not in _FORMS:
        return ""
    return str(request.POST.get(FIELD, ""))


def _once(
    request: HttpRequest,
    key: uuid.UUID,
    actor: str,
    func: Callable[..., HttpResponseBase],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> HttpResponseBase:
    fingerprint = _fingerprint(request)
    if connection.vendor != "sqlite":
        return _applied(request, key, actor, fingerprint, func, args, kwargs)
    if not _SQLITE_WRITER.acquire(timeout=_SQLITE_QUEUE_SECONDS):
        response = _refusal(
            request, 503, _("Gerade ist viel los. Bitte gleich noch einmal.")
        )
        response["Retry-After"] = "5"
        return response
    held = True

    def release() -> None:
        nonlocal held
        if held:
            held = False
            _SQLITE_WRITER.release()

    try:
        return _applied(
            request, key, actor, fingerprint, func, args, kwargs, committed=release
        )
    finally:
        release()


def _applied(
    request: HttpRequest,
    key: uuid.UUID,
    actor: str,
    fingerprint: str,
    func: Callable[..., HttpResponseBase],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    committed: Callable[[], None] | None = None,
) -> HttpResponseBase:
    """The view once, in one transaction with the key's row; `committed`
    is called right after the commit, before what the view asked to run
    after it (`transaction.on_commit`, called in the order asked)."""
    with transaction.atomic():
        if committed is not None:
            transaction.on_commit(committed)
        record, created = _claim(key, actor, request.path, fingerprint)
        if not created:
            return _replay(request, record, fingerprint)
        storage = messages.get_messages(request)
        before = len(storage)
        response = func(request, *args, **kwargs)
        added = _added_messages(storage, before)
        if response.status_code >= 500 or response.streaming:
            # Not applied (or nothing to repeat): the next try runs anew.
            transaction.set_rollback(True)
            return response
        if not _applied_answer(response, added):
            transaction.set_rollback(True)
            return _for_client(request, response, added, replayed=False)
        _keep(record, response, added)
    return _for_client(request, response, added, replayed=False)


def _applied_answer(
    response: HttpResponseBase, added: list[tuple[int, str, str]]
) -> bool:
    """Whether the view's answer says the submission was applied: a
    redirect or JSON, no error status, no error message."""
    if response.status_code >= 400 or _refused(added):
        return False
    return bool(response.get("Location")) or _is_json(response)


def _refused(added: list[tuple[int, str, str]]) -> bool:
    return any(level >= messages.ERROR for level, _text, _tags in added)


def _claim(
    key: uuid.UUID, actor: str, path: str, fingerprint: str
) -> tuple[SubmissionKey, bool]:
    """The key's row, new (True: go on) or another request's, committed.
    A second insert of the same key waits on the unique index until the
    first transaction ends, then finds its row."""
    return SubmissionKey.objects.select_for_update().get_or_create(
        actor=actor[:80],
        path=path[:_PATH_MAX],
        key=key,
        defaults={"fingerprint": fingerprint},
    )


def _fingerprint(request: HttpRequest) -> str:
    """What was sent, so a key reused for other content is noticed."""
    if request.content_type in _FORMS:
        items = sorted(
            (name, value)
            for name, values in request.POST.lists()
            if name not in _NOT_CONTENT
            for value in values
        )
        data = json.dumps(items, ensure_ascii=False).encode()
    else:
        data = request.body
    return hashlib.sha256(data).hexdigest()


def _added_messages(
    storage: list[Any] | BaseStorage, before: int
) -> list[tuple[int, str, str]]:
    """The messages the view added (to show them again with a repeat).
    Reading a storage marks it used; it is left as it was."""
    if not isinstance(storage, BaseStorage):
        return []
    used = storage.used
    added: list[Message] = list(storage)[before:]
    storage.used = used
    return [(m.level, str(m.message), m.extra_tags or "") for m in added]


def _keep(
    record: SubmissionKey,
    response: HttpResponseBase,
    added: list[tuple[int, str, str]],
) -> None:
    record.status = response.status_code
    record.content_type = str(response.get("Content-Type", ""))[:100]
    record.location = str(response.get("Location", ""))[:500]
    record.body = b"" if record.location else bytes(getattr(response, "content", b""))
    record.messages = [list(m) for m in added]
    record.save(
        update_fields=["status", "content_type", "location", "body", "messages"]
    )


def _replay(
    request: HttpRequest, record: SubmissionKey, fingerprint: str
) -> HttpResponseBase:
    if record.fingerprint != fingerprint:
        return _refusal(
            request,
            422,
            _(
                "Diese Übermittlung wurde schon mit anderem Inhalt gesendet. "
                "Bitte die Seite neu laden und noch einmal eingeben."
            ),
        )
    kept = [(int(level), str(text), str(tags)) for level, text, tags in record.messages]
    for level, text, tags in kept:
        messages.add_message(request, level, text, extra_tags=tags, fail_silently=True)
    response = HttpResponse(
        bytes(record.body), status=record.status, content_type=record.content_type
    )
    if record.location:
        response["Location"] = record.location
    return _for_client(request, response, kept, replayed=True)


def _is_json(response: HttpResponseBase) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


def _for_client(
    request: HttpRequest,
    response: HttpResponseBase,
    added: list[tuple[int, str, str]],
    *,
    replayed: bool,
) -> HttpResponseBase:
    """The answer as the client asked for it: as it is, or (the outbox asks
    for JSON) a page or redirect as an envelope; `added`: the messages the
    view gave."""
    if wants_json(request) and not _is_json(response):
        location = str(response.get("Location", "")) or None
        shown = [
            {"level": messages.DEFAULT_TAGS.get(level, ""), "text": text}
            for level, text, _tags in added
        ]
        envelope: dict[str, Any] = {
            "ok": location is not None and not _refused(added),
            "status": response.status_code,
            "location": location,
            "messages": shown,
            "replayed": replayed,
        }
        if location is None and str(response.get("Content-Type", "")).startswith(
            "text/html"
        ):
            envelope["html"] = bytes(getattr(response, "content", b"")).decode(
                "utf-8", errors="replace"
            )
        response = JsonResponse(envelope)
    if replayed:
        response[REPLAYED_HEADER] = "true"
    return response


def outbox_answer(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """The answer of a view that applies a submission at most once by its
    own means, not by its key (a photo of a score sheet: by its bytes, so
    no transaction waits while it is read), as a keyed view's answer: for
    the outbox a redirect or a page as the envelope. A 503 stays one, so
    the outbox sends it again later."""
    answer = _for_client(request, response, [], replayed=False)
    if answer is not response and response.status_code == 503:
        answer.status_code = 503
        answer["Retry-After"] = response.get("Retry-After", "5")
    return answer


def _refusal(request: HttpRequest, status: int, text: str) -> HttpResponseBase:
    if wants_json(request):
        return JsonResponse(
            {
                "ok": False,
                "status": status,
                "messages": [{"level": "error", "text": text}],
            },
            status=status,
        )
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def submission_keys_expire(*, now: Any = None) -> int:
    """Forget keys older than IDEMPOTENCY_KEY_DAYS: a phone repeats within
    minutes or hours, not days. Returns how many went."""
    days = float(getattr(settings, "IDEMPOTENCY_KEY_DAYS", 3))
    cutoff = (now or timezone.now()) - timedelta(days=days)
    deleted, _by_model = SubmissionKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
