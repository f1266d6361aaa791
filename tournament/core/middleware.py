"""German unless somebody chose otherwise; a page of one person kept by
nobody else."""

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_cache_control

# The language switch is a plain link to the page itself with this parameter
# (`{% querystring lang="en" %}`): no form, so no CSRF token in the page,
# which stays the same for every visitor (tournament/live/pages.py serves
# public pages once rendered).
SWITCH_PARAMETER = "lang"


def is_supported(code: str | None) -> bool:
    """Whether the site speaks `code` (one of settings.LANGUAGES, exactly)."""
    return any(code == supported for supported, _name in settings.LANGUAGES)


def supported_language(code: str | None) -> str:
    """`code` if the site speaks it, else the default language (German):
    the one rule for every language a visitor asks for (cookie, switch,
    socket parameter)."""
    return code if code is not None and is_supported(code) else settings.LANGUAGE_CODE


def language_of(request: HttpRequest) -> str:
    """The language a request is answered in: the one chosen (the cookie),
    else German."""
    return supported_language(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))


class LanguageMiddleware:
    """Like Django's LocaleMiddleware, but the browser's Accept-Language is
    ignored: the site speaks German (the players' language) until the visitor
    picks English with the language switch (stored in the language cookie).

    The switch: any page's address with ``?lang=en`` (or ``de``) keeps the
    choice in the cookie and sends the browser back to the same address
    without the parameter (another value is no switch)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and is_supported(
            request.GET.get(SWITCH_PARAMETER)
        ):
            return self.switch(request)
        language = language_of(request)
        request.LANGUAGE_CODE = language
        # override, not activate: the thread's language is restored after the
        # request (worker threads serve the next visitor).
        with translation.override(language):
            response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        patch = response.get("Vary", "")
        if "Cookie" not in patch:
            response["Vary"] = f"{patch}, Cookie" if patch else "Cookie"
        return response

    def switch(self, request: HttpRequest) -> HttpResponse:
        """Keep the chosen language and go back to the page without the
        parameter."""
        query = request.GET.copy()
        chosen = query.pop(SWITCH_PARAMETER)[-1]
        # One leading slash: "//host/" would send the browser to another site.
        # No page has an address this long; the query is kept if it fits.
        path = "/" + request.path.lstrip("/\\")
        if len(path) > 2000:
            path = "/"
        rest = query.urlencode()
        if rest and len(path) + len(rest) < 2000:
            path = f"{path}?{rest}"
        response = HttpResponseRedirect(path)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            chosen,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        patch_cache_control(response, no_store=True)
        return response


# A page's address holds a personal link here: the path's `token` (a
# player's "Mein Turnier" and his table, a digital table's seat) or the
# `link` parameter (the link typed in, the live part of "Mein Turnier").
LINK_KWARG = "token"
LINK_PARAMETER = "link"


def is_personal(request: HttpRequest) -> bool:
    """Whether the answer to `request` is its visitor's alone: he is
    signed in, or the address holds a personal link."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return True
    match = request.resolver_match
    return (match is not None and LINK_KWARG in match.kwargs) or (
        LINK_PARAMETER in request.GET
    )


class PrivatePagesMiddleware:
    """`Cache-Control: private, no-store` on every signed-in and personal
    page (`is_personal`): no cache between the phone and the laptop keeps
    it, and no browser keeps a copy for the next person at that phone (the
    back button after signing out). Public pages for anonymous visitors,
    the ones the edge keeps, are left as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_personal(request):
            patch_cache_control(response, private=True, no_store=True)
        return response


request_log = logging.getLogger("siebenschraem.requests")


class RequestLogMiddleware:
    """One log line per request that reaches Django, with its status and
    duration, when the operator asks for them (LOG_REQUESTS): the kept pages
    answered before Django are not in it, and a hall's thousand phones cost
    nothing while it is off."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request_log.isEnabledFor(logging.INFO):
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        request_log.info(
            "%s %s %s %.1f ms",
            request.method,
            request.path,
            response.status_code,
            (time.perf_counter() - started) * 1000,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
            },
        )
        return response
