"""Hypothesis settings for the property tests: how many examples each
tries, in proportion to the profile chosen (tests/conftest.py)."""

from hypothesis import HealthCheck, settings

# Examples per test in the thorough profile: hypothesis's own default. A
# test asking for `examples(n)` tries n there and proportionally fewer in
# a profile of fewer examples per test.
THOROUGH = 100


def examples(thorough: int) -> int:
    """`thorough` examples under the thorough profile; under the profile
    loaded, as many in proportion, at least one (a test's @example cases
    run in every profile besides)."""
    return max(1, round(thorough * settings.default.max_examples / THOROUGH))


def hostile(max_examples: int) -> settings:
    """`max_examples` hostile inputs per test (`examples`: fewer in the
    quick profile). No deadline: a request or a move goes through the
    database and takes what it takes. The examples of one test share its
    function-scoped fixtures (the world they attack), and building a
    workbook or a nested message may be slow."""
    return settings(
        max_examples=examples(max_examples),
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
        ],
    )
