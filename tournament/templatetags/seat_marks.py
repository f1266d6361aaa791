"""`{% withdrawal_mark entry series tournament %}`: beside a seat of a
seating, the mark of a player who no longer plays that series to its end
("abgemeldet (nach Serie 2, Spiel 2)"); nothing for one who plays it. The
rule is the entry's (`Entry.withdrawal_text_in`), the one the results
follow; the tag reads nothing from the database."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournament.models import Entry, Tournament

register = template.Library()


@register.simple_tag
def withdrawal_mark(entry: Entry, series: int, tournament: Tournament) -> SafeString:
    text = entry.withdrawal_text_in(series, tournament.games_per_series)
    if not text:
        return SafeString("")
    return format_html('<small class="withdrawn-mark">{}</small>', text)
