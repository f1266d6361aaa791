"""The standings table (django-tables2): render_* for HTML."""

from typing import Any

import django_tables2 as tables
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament.standings.selectors import Row


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Platz"), attrs={"td": {"class": "num"}})
    start_number = tables.Column(
        verbose_name=_("Nr."), attrs={"td": {"class": "num muted"}}
    )
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Verein"), attrs={"td": {"class": "club"}})
    games_won = tables.Column(
        verbose_name=_("Siege"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    points = tables.Column(
        verbose_name=_("Punkte"),
        attrs={"td": {"class": "num points"}, "th": {"class": "num"}},
    )

    class Meta:
        template_name = "tournament/standings/partials/standings_table.html"
        attrs = {"class": "striped standings"}
        order_by = ("rank",)
        empty_text = _("Noch keine Ergebnisse.")

    def __init__(self, data: list[Row], *, player_url: str, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.player_url = player_url

    @property
    def body_html(self) -> SafeString:
        """The rows in the current order; columns as declared above."""
        url = self.player_url
        empty = str(self.empty_text)
        parts = []
        for r in self.data:
            marks = ' <small class="badge">*</small>' if r.tiebreak else ""
            if r.three_table_games:
                marks += f' <small class="muted">△{r.three_table_games}</small>'
            parts.append(
                f'<tr id="p{r.start_number}"><td class="num">{r.rank}</td>'
                f'<td class="num muted">{r.start_number}</td>'
                f'<td><a href="{url}{r.start_number}/">{escape(r.name)}</a>{marks}</td>'
                f'<td class="club">{escape(r.club)}</td>'
                f'<td class="num">{r.games_won}</td>'
                f'<td class="num points">{r.points}</td></tr>'
            )
        if not parts:
            parts.append(f'<tr><td colspan="6">{escape(empty)}</td></tr>')
        return mark_safe("".join(parts))
