"""Where a page goes back to once its action is done."""

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def back_url(request: HttpRequest, default: str) -> str:
    """The page the action came from (its `next`, which keeps a search
    term), if it is on this site; else `default`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default
