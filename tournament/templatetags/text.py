"""Template filters for text people typed (`tournament.core.text`)."""

from django import template

from tournament.core.text import code_groups as _code_groups
from tournament.core.text import unbroken_numbers as _unbroken_numbers

register = template.Library()


@register.filter
def unbroken_numbers(value: object) -> str:
    """A name that a phone's narrow screen wraps, without a line that ends
    in "7-" ("… im 7-" over "Schräm 2026")."""
    return _unbroken_numbers(str(value))


@register.filter
def code_groups(value: object) -> str:
    """A lot's seed in groups of four, as the Protokoll shows it."""
    return _code_groups(str(value))
