"""The standings table (django-tables2): render_* for HTML."""

from typing import Any

import django_tables2 as tables
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.standings.selectors import Row

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=gettext_lazy("Platz"), attrs=NUM)
    # The ladies' table: the overall place beside her own.
    overall_rank = tables.Column(
        verbose_name=gettext_lazy("Gesamt"),
        orderable=False,  # the same order as the ladies' own place
        attrs={"td": {"class": "num muted"}, "th": {"class": "num"}},
    )
    start_number = tables.Column(
        verbose_name=gettext_lazy("Nr."),
        attrs={"td": {"class": "num muted nr"}, "th": {"class": "nr"}},
    )
    name = tables.Column(verbose_name=gettext_lazy("Name"))
    club = tables.Column(
        verbose_name=gettext_lazy("Verein"),
        attrs={"td": {"class": "club"}, "th": {"class": "club"}},
    )
    games_won = tables.Column(
        verbose_name=gettext_lazy("Siege"),
        attrs={"td": {"class": "num won"}, "th": {"class": "num won"}},
    )
    points = tables.Column(
        verbose_name=gettext_lazy("Punkte"),
        attrs={"td": {"class": "num points"}, "th": {"class": "num"}},
    )

    class Meta:
        template_name = "tournament/standings/partials/standings_table.html"
        attrs = {"class": "striped standings"}
        order_by = ("rank",)
        empty_text = gettext_lazy("Noch keine Ergebnisse.")

    def __init__(
        self,
        data: list[Row],
        *,
        player_url: str,
        waiting: list[Row] | None = None,
        overall: bool = False,
        **kwargs: Any,
    ) -> None:
        """`data` are the ranked rows; `waiting` the players present
        without a confirmed result, shown apart below them without a place;
        `overall`: show the overall place beside the rank (ladies)."""
        if overall:
            kwargs.setdefault("attrs", {"class": "striped standings standings-ladies"})
        else:
            kwargs.setdefault("exclude", ("overall_rank",))
        super().__init__(data, **kwargs)
        self.player_url = player_url
        self.waiting = waiting or []
        self.overall = overall

    def _row(self, r: Row, *, ranked: bool) -> str:
        url = self.player_url
        marks = ""
        if ranked and r.tiebreak:
            marks = ' <small class="badge">*</small>'
        if r.three_table_games:
            marks += f' <small class="muted">△{r.three_table_games}</small>'
        if r.withdrawn is not None:
            marks += (
                f' <small class="withdrawn-mark">{escape(r.withdrawal_text)}</small>'
            )
        dash = "–"
        row_class = "" if ranked else ' class="waiting"'
        overall = ""
        if self.overall:
            overall = f'<td class="num muted">{r.overall_rank if ranked else dash}</td>'
        return (
            f'<tr id="p{r.start_number}"{row_class}>'
            f'<td class="num">{r.rank if ranked else dash}</td>{overall}'
            f'<td class="num muted nr">{r.start_number}</td>'
            f'<td><a href="{url}{r.start_number}/">{escape(r.name)}</a>{marks}</td>'
            f'<td class="club">{escape(r.club)}</td>'
            f'<td class="num won">{r.games_won if ranked else dash}</td>'
            f'<td class="num points">{r.points if ranked else dash}</td></tr>'
        )

    @property
    def body_html(self) -> SafeString:
        """The rows in the current order, then the players waiting for a
        result; columns as declared above."""
        columns = 7 if self.overall else 6
        parts = [self._row(r, ranked=True) for r in self.data]
        if self.waiting:
            title = _("Noch ohne Ergebnis (%(n)d)") % {"n": len(self.waiting)}
            hint = _(
                "Sie bekommen einen Platz, sobald ein Ergebnis ihres Tisches "
                "bestätigt ist."
            )
            parts.append(
                f'<tr class="waiting-head"><th colspan="{columns}" scope="rowgroup">'
                f"{escape(title)} <small>{escape(hint)}</small></th></tr>"
            )
            parts += [self._row(r, ranked=False) for r in self.waiting]
        if not parts:
            empty = escape(str(self.empty_text))
            parts.append(f'<tr><td colspan="{columns}">{empty}</td></tr>')
        return mark_safe("".join(parts))
