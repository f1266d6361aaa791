"""The permission matrix's world behind a real server, for the browser tests
that visit its pages: `seed()` runs in a subprocess on a fresh database
(tests/support/servers.py's environment), builds the world of
tests/site/test_permissions.py and prints, as JSON, every GET row of its
table with the path and the session cookie per actor."""

import json

# The actors a phone in the hall is: a player or spectator, a player holding
# the private link of a digital table, a referee.
PHONE_ACTORS = ("anon", "link", "ref")
ORGANIZER = "org"


def seed() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.urls import reverse

    call_command("migrate", verbosity=0)
    import factory.random

    from tests.site.test_permissions import (
        ROUTES,
        build_world,
        photo_files,
        resolve_kwargs,
    )

    # The same names every run: whether a page fits a phone may depend on
    # the length of a name.
    factory.random.reseed_random("siebenschraem")
    world = build_world()
    # As the matrix's referee column: the tournament names no referees, so
    # every referee may enter its results.
    world.tournament.referees.set([])
    jobs = settings.VAR_DIR / "jobs"
    jobs.mkdir(parents=True, exist_ok=True)
    (jobs / "rechte.xlsx").write_bytes(b"PK\x03\x04 not really")
    photo_files(settings.VAR_DIR, world)

    rows = []
    for row in ROUTES:
        if row.method != "GET":
            continue
        paths = {}
        for actor in (*PHONE_ACTORS, ORGANIZER):
            kwargs = resolve_kwargs(world, actor, row.kwargs) or None
            path = reverse(row.name, kwargs=kwargs)
            paths[actor] = f"{path}?{row.query}" if row.query else path
        rows.append(
            {
                "id": row.id,
                "name": row.name,
                "codes": row.codes(),
                "paths": paths,
            }
        )
    print(
        json.dumps(
            {
                "rows": rows,
                "sessions": world.sessions,
                "cookie": settings.SESSION_COOKIE_NAME,
            }
        )
    )
