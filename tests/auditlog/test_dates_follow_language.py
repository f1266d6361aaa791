"""The Protokoll writes its dates as the page's language does: German
05.12.2026, English 12/05/2026; the time on the 24-hour clock in both."""

import datetime

from django.utils import translation

from tournament.core.l10n import short_datetime

MOMENT = datetime.datetime(2026, 12, 5, 14, 30, 5)


def test_the_date_follows_the_language_and_the_clock_stays():
    with translation.override("de"):
        assert short_datetime(MOMENT) == "05.12.2026 14:30"
        assert short_datetime(MOMENT, seconds=True) == "05.12.2026 14:30:05"
    with translation.override("en"):
        assert short_datetime(MOMENT) == "12/05/2026 14:30"
