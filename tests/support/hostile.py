"""Hypothesis settings for the hostile-input tests (issue 9)."""

from hypothesis import HealthCheck, settings


def hostile(max_examples: int) -> settings:
    """`max_examples` hostile inputs per test. No deadline: a request or a
    move goes through the database and takes what it takes. The examples
    of one test share its function-scoped fixtures (the world they attack),
    and building a workbook or a nested message may be slow."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
        ],
    )
