"""Public pages by Django's own means: the baseline the serving layer is
measured against (`SERVING_LAYERS_OFF=pages`, bench/layers.py).

A page everybody gets is answered by Django's conditional GET (the
`condition` decorator: 304 for the ETag the browser has) and otherwise
from Django's cache framework (`cache_page`: the response kept whole under
its URL and the headers it varies on), gzipped by Django's `gzip_page`
before it is kept (so `Vary: Accept-Encoding` keeps the two encodings
apart). The ETag, and the key prefix of the cache, is the page's state
(`pages.Sharing.tag`: the source's token, the language, the address), so a
confirmed result gives a new ETag and a new entry at once; nothing has to
be deleted. Only what `pages.serve_public` lets through comes here: an
anonymous GET with no message waiting, whose state is known.

Django's cache decorator keeps a response before the middleware that adds
a visitor's cookies sees it (the CSRF and session middleware come after a
view's decorators), so a page that turned out personal is marked private,
which Django's cache never keeps; what is kept says only on its way out
that every browser is to ask again each time.
"""

from collections.abc import Callable
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import cache_page
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition


def serve(
    request: HttpRequest,
    *,
    etag: str,
    modified: float,
    timeout: int,
    build: Callable[[], HttpResponse],
    shared: Callable[[HttpRequest, HttpResponse], bool],
) -> HttpResponse:
    """The page of `etag` (quoted) and its state's time `modified`: 304 if
    the browser has it, else Django's cached response under that ETag, else
    what `build` renders, kept `timeout` seconds if `shared` says it is the
    same for everybody."""
    last_modified = datetime.fromtimestamp(int(modified), tz=UTC)

    def view(request: HttpRequest) -> HttpResponse:
        response = build()
        # Django's cache keeps no response that is private or no-cache; the
        # page says both again on its way out (below).
        if shared(request, response):
            del response["Cache-Control"]
        else:
            patch_cache_control(response, private=True)
        return response

    kept = cache_page(timeout, key_prefix=etag)(gzip_page(view))
    conditional = condition(
        etag_func=lambda request: etag,
        last_modified_func=lambda request: last_modified,
    )(kept)
    response: HttpResponse = conditional(request)
    # As every public page says: no cache between the phone and us keeps it,
    # and the browser asks each time (a 304 while the state holds).
    del response["Expires"]
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    return response
