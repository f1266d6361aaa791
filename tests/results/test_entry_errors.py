"""All mistakes of one save at once, each beside its game (issue 14.7):
four mistakes need one save, not four; game 1's come before game 2's; a
missing winner in game 4 does not hide the missing marks of game 5; and
whatever was typed is still there."""

import re

import pytest
from django.urls import reverse

from tests.support.factories import make_series
from tests.support.results import FIVE, confirm, enter, quick_form, results_written
from tournament.models import Table
from tournament.results.adapter import GameErrors, GameInput
from tournament.results.notation import parse_hand
from tournament.results.services import result_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament):
    return Table.objects.get(series=make_series(tournament, sizes=(4, 3)), number=1)


@pytest.fixture
def url(tournament, table):
    return reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )


def game_box(page: str, game: int) -> str:
    """The HTML of game `game`'s box in the form."""
    found = re.search(
        rf'<fieldset class="game[^"]*" id="spiel-{game}">(.*?)</fieldset>', page, re.S
    )
    assert found, f"no box for game {game}"
    return found[1]


def box_errors(page: str, game: int) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", li).strip()
        for li in re.findall(r"<li>(.*?)</li>", game_box(page, game), re.S)
    ]


def test_four_quick_mistakes_are_shown_at_once_each_in_its_game(client, referee, url):
    client.force_login(referee)
    data = quick_form(FIVE, revision=0)
    del data["g2_marks"]  # game 2: the marks
    del data["g3_winner"]  # game 3: the winner
    del data["g4_winner"], data["g4_marks"]  # game 4: both
    del data["g5_marks"]  # game 5: the marks
    before = results_written()
    response = client.post(url, data)
    page = response.content.decode()
    assert results_written() == before
    assert box_errors(page, 1) == []
    assert box_errors(page, 2) == [
        "Bitte wählen, wie viele Schräm der Gewinner übrig hat."
    ]
    assert box_errors(page, 3) == ["Bitte den Gewinner wählen."]
    assert box_errors(page, 4) == [
        "Bitte den Gewinner wählen.",
        "Bitte wählen, wie viele Schräm der Gewinner übrig hat.",
    ]
    assert box_errors(page, 5) == [
        "Bitte wählen, wie viele Schräm der Gewinner übrig hat."
    ]
    # Above the form: how many, and a link to each game with a mistake,
    # to the first input of its first field with one.
    assert "5 Fehler" in page
    links = re.findall(r'<a href="#(id_g\d_\w+)">Spiel (\d)</a>', page)
    assert links == [
        ("id_g2_marks_0", "2"),
        ("id_g3_winner_0", "3"),
        ("id_g4_winner_0", "4"),
        ("id_g5_marks_0", "5"),
    ]
    # What was typed is still chosen.
    assert re.search(r'name="g1_winner" value="1"[^>]*checked', page)
    assert re.search(r'name="g3_marks" value="7"[^>]*checked', page)
    assert re.search(r'name="g5_winner" value="3"[^>]*checked', page)


def test_sheet_mistakes_of_every_game_at_once_in_game_and_hand_order(
    client, referee, url
):
    client.force_login(referee)
    typed = {
        # Hand 2 breaks a rule, hand 3 is no notation: both, hand 2 first.
        1: "3 G1 P2:1 P4:2\n2 G2 P2:1\nxyz G1",
        2: "G1\nG1\nG1",  # not decided after 3 hands
        3: "",  # nothing
        4: "7 G1",  # fine
        5: "2 G1 S3:3",  # a penalty above the value
    }
    data = {"mode": "sheet", "revision": "0"}
    data |= {f"g{g}_hands": text for g, text in typed.items()}
    before = results_written()
    page = client.post(url, data).content.decode()
    assert results_written() == before
    one = box_errors(page, 1)
    assert len(one) == 2
    assert one[0].startswith("Einzelspiel 2 („2 G2 P2:1“): der Gewinner kann nicht")
    assert one[1].startswith("Einzelspiel 3 („xyz G1“): „xyz“ ist unverständlich")
    assert box_errors(page, 2) == [
        "Nach 3 Einzelspielen ist das Spiel noch nicht entschieden: Sitze 1, 2, 3 "
        "und 4 haben noch Schräm."
    ]
    assert box_errors(page, 3) == ["Bitte die Einzelspiele eintragen."]
    assert box_errors(page, 4) == []
    assert box_errors(page, 5) == [
        "Einzelspiel 1 („2 G1 S3:3“): eine Strafe beträgt mindestens 1 Schräm und "
        "höchstens den Wert, hier also 1 bis 2."
    ]
    # Every line typed is in its box again.
    for g, text in typed.items():
        assert text in game_box(page, g)


def test_after_a_game_with_a_mistake_the_next_is_still_checked(table, tournament):
    """Game 2's dealer is game 1's winner; with game 1 wrong the rules try
    every dealer, so game 2's own mistake is still found."""
    games = [
        GameInput(hands=(parse_hand("9 G1"),)),
        GameInput(hands=(parse_hand("2 G1 P1:1"),)),
        *FIVE[2:],
    ]
    with pytest.raises(GameErrors) as refused:
        result_enter(actor=None, table=table, games=games, mode="sheet", revision=0)
    assert [(e.game, e.hand, e.code) for e in refused.value.errors] == [
        (1, 1, "sheet_value_range"),
        (2, 1, "sheet_winner_folded"),
    ]


def test_one_hand_is_one_hand_not_hands(table, tournament):
    games = [GameInput(hands=(parse_hand("G1"),)), *FIVE[1:]]
    with pytest.raises(GameErrors) as refused:
        result_enter(actor=None, table=table, games=games, mode="sheet", revision=0)
    assert "nach 1 Einzelspiel ist das Spiel" in refused.value.message
    assert "Einzelspielen" not in refused.value.message


def test_a_service_caller_gets_every_game_in_one_message(table, referee):
    """An import lists a table's mistakes as one message: all games, in
    order, each named."""
    games = [*FIVE[:1], GameInput(winner=None, marks=3), *FIVE[2:4], GameInput()]
    with pytest.raises(GameErrors) as refused:
        enter(table, referee, games)
    assert refused.value.message == (
        "Spiel 2: bitte den Gewinner wählen. Spiel 5: bitte den Gewinner wählen. "
        "Spiel 5: bitte wählen, wie viele Schräm der Gewinner übrig hat."
    )


def test_a_correction_without_reason_and_with_mistakes_says_both(
    client, table, referee, referee2, url
):
    confirm(enter(table, referee), referee2)
    table.refresh_from_db()
    client.force_login(referee)
    data = quick_form(FIVE, revision=table.result_revision)
    del data["g3_winner"]
    response = client.post(url, data)
    form = response.context["form"]
    assert form.errors["reason"] == [
        "Für eine Korrektur eines bestätigten Ergebnisses bitte einen Grund angeben."
    ]
    assert form.errors["g3_winner"] == ["Bitte den Gewinner wählen."]


def test_a_conflict_keeps_what_was_typed(client, table, referee, referee2, url):
    client.force_login(referee)
    enter(table, referee2)  # somebody saves first
    data = quick_form(FIVE, revision=0)
    response = client.post(url, data)
    page = response.content.decode()
    assert "inzwischen von jemand anderem gespeichert" in page
    assert re.search(r'name="g4_marks" value="1"[^>]*checked', page)


def attrs_of(page: str, selector: str) -> list[dict[str, str]]:
    """The attributes of each tag whose HTML matches `selector` (a regex on
    the opening tag)."""
    return [
        dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        for tag in re.findall(rf"<{selector}[^>]*>", page)
    ]


def test_each_invalid_field_is_described_by_its_own_error(client, referee, url):
    client.force_login(referee)
    data = quick_form(FIVE, revision=0)
    del data["g2_marks"]
    del data["g3_winner"]
    page = client.post(url, data).content.decode()
    # The summary takes the focus (static/js/app.js): it can be focused.
    summary = attrs_of(page, r"div [^>]*data-error-summary")
    assert summary and summary[0]["tabindex"] == "-1"
    # Each radio of a field with a mistake, and its group, is invalid and
    # described by the field's error list, whose id the list carries.
    marks = attrs_of(page, r'input type="radio" name="g2_marks"')
    assert len(marks) == 7
    for radio in marks:
        assert radio["aria-invalid"] == "true"
        assert radio["aria-describedby"] == "id_g2_marks_error"
    assert 'id="id_g2_marks_error"' in page
    groups = attrs_of(page, r'div class="(?:winner|marks)-choice"')
    invalid = [g["aria-describedby"] for g in groups if g.get("aria-invalid")]
    assert invalid == ["id_g2_marks_error", "id_g3_winner_error"]
    winners = attrs_of(page, r'input type="radio" name="g3_winner"')
    assert {w["aria-describedby"] for w in winners} == {"id_g3_winner_error"}
    # The fields without a mistake are neither.
    for radio in attrs_of(page, r'input type="radio" name="g1_(?:winner|marks)"'):
        assert "aria-invalid" not in radio and "aria-describedby" not in radio


def test_the_sheet_lines_keep_their_help_beside_their_error(client, referee, url):
    client.force_login(referee)
    data = {"mode": "sheet", "revision": "0", "g1_hands": "xyz G1"}
    page = client.post(url, data).content.decode()
    (hands,) = attrs_of(page, r'textarea name="g1_hands"')
    assert hands["aria-invalid"] == "true"
    assert hands["aria-describedby"] == "sheet-help id_g1_hands_error"
    (untouched,) = attrs_of(page, r'textarea name="g4_hands"')
    # Game 4 has its own mistake (no hands): described by both as well.
    assert untouched["aria-describedby"] == "sheet-help id_g4_hands_error"
    # The summary's link to game 1 leads to its lines, not to a hidden radio.
    assert '<a href="#id_g1_hands">Spiel 1</a>' in page
