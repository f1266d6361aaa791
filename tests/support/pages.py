"""Every page of a tournament, found from the site's URL patterns rather
than listed by hand (a new page is requested without anyone remembering
to add it), and every document the organizer can download."""

import itertools
import re
from collections.abc import Iterable
from urllib.parse import urlencode

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tournament.paper.pdf import KINDS

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")
# Routes a tournament's pages do not reach by a number: a digital table's
# secret link, a background job's id, a sheet photo's (their own tests
# request them).
SKIPPED = {"token", "job_id", "photo"}
SERIES_KINDS = {"sheets", "seating", "cards"}


def routes() -> list[str]:
    """Every route of the site, as its pattern ("t/<slug:slug>/…")."""
    found = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                walk(entry, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                found.append(prefix + str(entry.pattern))

    walk(get_resolver(), "")
    return sorted(set(found))


def live_regions() -> list[tuple[str, list[str]]]:
    """The live fragments by name, with the parameters each takes."""
    from tournament.live.fragments import FRAGMENTS

    return [(name, list(f.params)) for name, f in sorted(FRAGMENTS.items())]


def tournament_pages(
    slug: str,
    *,
    numbers: Iterable[int],
    tables: Iterable[int] = (1,),
    games: Iterable[int] = (1,),
    team_ids: Iterable[int] = (),
    table_series: Iterable[int] | None = None,
) -> list[str]:
    """GET paths of every page of the tournament `slug` (and the home
    page), each numbered route once per combination of the values given:
    `numbers` for series and start numbers alike, `table_series` (default
    `numbers`) for the series of a table's pages. Live fragments are asked
    for with each number as each of their parameters."""
    numbers = list(numbers)
    by_table = numbers if table_series is None else list(table_series)
    values = {
        "slug": [slug],
        "number": numbers,
        "series": numbers,
        "table": list(tables),
        "game": list(games),
        "team_id": list(team_ids),
        "start_number": [1],
        "name": [name for name, _ in live_regions()],
    }
    paths = ["/"]
    for route in routes():
        names = [m.group(2) for m in PARAMETER.finditer(route)]
        if "slug" not in names or SKIPPED & set(names):
            continue
        choices = [
            by_table if n in ("number", "series") and "table" in names else values[n]
            for n in names
        ]
        for combination in itertools.product(*choices):
            given = dict(zip(names, combination, strict=True))
            paths.append(
                "/" + PARAMETER.sub(lambda m, g=given: str(g[m.group(2)]), route)
            )
    for name, params in live_regions():
        for number in values["number"] if params else []:
            query = urlencode({p: number for p in params})
            paths.append(f"/t/{slug}/live/{name}/?{query}")
    return sorted(set(paths))


def documents(slug: str, *, series: Iterable[int]) -> list[str]:
    """Every document of the print page: each PDF kind for each series
    (blank and filled score sheets), the results workbook and the player
    export."""
    download = reverse("tournament:paper_download", kwargs={"slug": slug})
    paths = [
        f"{download}?document=xlsx",
        reverse("tournament:entry_export", kwargs={"slug": slug}),
    ]
    for kind in KINDS:
        per_series = kind in SERIES_KINDS
        for number in series if per_series else [None]:
            query = {"document": kind, "top": 3}
            if number is not None:
                query["series"] = number
            paths.append(f"{download}?{urlencode(query)}")
            if kind == "sheets":
                paths.append(f"{download}?{urlencode({**query, 'filled': 'on'})}")
    return paths
