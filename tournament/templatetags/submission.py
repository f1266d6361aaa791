"""`{% submission_key %}`: a form's hidden key (tournament/core/idempotency),
so that a double tap or the browser's "send again" is applied once, also
without script. The outbox (static/js/outbox.js) sends the same key."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournament.core.idempotency import FIELD, new_key

register = template.Library()


@register.simple_tag
def submission_key() -> SafeString:
    """A fresh key each time the form is rendered: a form shown again (with
    its mistakes) is a new submission."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
