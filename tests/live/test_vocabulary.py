"""The live vocabulary: a fragment waits for parts that `invalidation`
publishes and follows a source the ETags know, or the site does not start;
the words on the wire stay plain strings."""

import sys
import textwrap

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.apps import apps

import tournament
import tournament.apps
from tournament.live import fragments, invalidation
from tournament.live.fragments import FRAGMENTS, Fragment, register
from tournament.live.invalidation import Part, Source


def _fragment(name: str, parts: frozenset[str], source: str = "all") -> Fragment:
    return Fragment(
        name,
        "tournament/live/partials/link_gone.html",
        lambda request, tournament, params: {},
        parts,  # as a typo would come: a plain string
        source=source,
    )


def test_a_fragment_waiting_for_an_unknown_part_is_refused():
    with pytest.raises(ValueError, match="'standing' is not a valid Part"):
        register(_fragment("typo-part", frozenset({"standing"})))
    assert "typo-part" not in FRAGMENTS


def test_a_fragment_following_an_unknown_source_is_refused():
    with pytest.raises(ValueError, match="'confirm' is not a valid Source"):
        register(_fragment("typo-source", frozenset({"results"}), "confirm"))
    with pytest.raises(ValueError, match="waits for no part"):
        register(_fragment("no-part", frozenset()))
    assert not {"typo-source", "no-part"} & set(FRAGMENTS)


def test_a_fragment_pacing_a_part_it_does_not_follow_is_refused():
    from dataclasses import replace

    paced = replace(
        _fragment("paced-other", frozenset({"seating"})), paced={"standings"}
    )
    with pytest.raises(ValueError, match="paces a part it does not follow"):
        register(paced)
    assert "paced-other" not in FRAGMENTS
    paced_results = replace(
        _fragment("paced-results", frozenset({"results"})), paced={"results"}
    )
    with pytest.raises(ValueError, match="only the standings are paced"):
        register(paced_results)
    assert "paced-results" not in FRAGMENTS


def test_the_start_fails_on_a_feature_with_an_unknown_part(tmp_path, monkeypatch):
    """A feature's `fragments` module registers when the app is ready: one
    naming a part nobody publishes stops the start."""
    feature = tmp_path / "typo_feature"
    feature.mkdir()
    (feature / "__init__.py").write_text("")
    (feature / "fragments.py").write_text(
        textwrap.dedent(
            """
            from tournament.live.fragments import Fragment, register

            register(
                Fragment(
                    "typo-feature",
                    "tournament/live/partials/link_gone.html",
                    lambda request, tournament, params: {},
                    frozenset({"seatings"}),
                )
            )
            """
        )
    )
    monkeypatch.setattr(tournament, "__path__", [*tournament.__path__, str(tmp_path)])
    monkeypatch.setattr(
        tournament.apps,
        "FRAGMENT_FEATURES",
        (*tournament.apps.FRAGMENT_FEATURES, "typo_feature"),
    )
    try:
        with pytest.raises(ValueError, match="'seatings' is not a valid Part"):
            apps.get_app_config("tournament").ready()
    finally:
        for name in ("tournament.typo_feature.fragments", "tournament.typo_feature"):
            sys.modules.pop(name, None)
    assert "typo-feature" not in FRAGMENTS


def test_the_registered_fragments_use_the_vocabulary():
    assert FRAGMENTS
    for fragment in FRAGMENTS.values():
        assert fragment.parts and all(type(p) is Part for p in fragment.parts)
        assert type(fragment.source) is Source
        assert all(type(p) is Part for p in fragment.paced)


def test_a_plain_string_of_a_known_name_is_taken_as_the_member():
    fragment = register(_fragment("plain-words", frozenset({"results"}), "standings"))
    try:
        assert fragment.parts == {Part.RESULTS}
        assert type(next(iter(fragment.parts))) is Part
        assert fragment.source is Source.STANDINGS
    finally:
        FRAGMENTS.pop("plain-words")


def test_the_wire_carries_plain_strings():
    """``live.update`` names its parts as before: sorted plain strings."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(invalidation.group_name(4711), channel)
    try:
        invalidation.publish(4711, [Part.SEATING, Part.PROGRESS, Part.SEATING])
        message = async_to_sync(layer.receive)(channel)
    finally:
        async_to_sync(layer.group_discard)(invalidation.group_name(4711), channel)
    assert message["type"] == "live.update"
    assert message["parts"] == ["progress", "seating"]
    assert all(type(part) is str for part in message["parts"])
    with pytest.raises(ValueError):
        invalidation.publish(4711, ["standing"])


def test_the_words_are_those_pages_and_scripts_know():
    """The values are what the wire, the cache keys and the ETags carry:
    renaming one is a change of protocol, not of code."""
    assert [p.value for p in Part] == ["standings", "results", "progress", "seating"]
    assert set(Source) == {"seating", "confirmed", "all", "standings", "results"}
    assert invalidation.SCOPES == ("seating", "confirmed", "all")
    assert fragments.FRAGMENTS["standings"].source == "standings"
