"""German unless somebody chose otherwise."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class LanguageMiddleware:
    """Like Django's LocaleMiddleware, but the browser's Accept-Language is
    ignored: the site speaks German (the players' language) until the visitor
    picks English with the language switch (stored in the language cookie)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.supported = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
        language = chosen if chosen in self.supported else settings.LANGUAGE_CODE
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
