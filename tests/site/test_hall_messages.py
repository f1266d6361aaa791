"""What referees and players read names no file, paragraph or internal key
(issue 14.5): every error the result entry can produce – each rule of the
sheet lines, the notation, the quick entry, the form – and every refusal at
a digital table is checked for ".md", "§" with a number and snake_case
codes such as "sheet_fold_range". The engine keeps its codes; the site
speaks in words."""

import re

import pytest
from django.urls import reverse

from scoring.cards import card_str
from scoring.errors import RULE_OF, IllegalAction
from tests.support.factories import make_series
from tests.support.results import FIVE, enter, quick_form
from tournament.core.errors import UserError
from tournament.digital import adapter as digital_adapter
from tournament.digital.services import digital_act, illegal_message
from tournament.models import DigitalTable, ResultVersion, Table
from tournament.results.adapter import GameErrors, GameInput
from tournament.results.notation import parse_hand
from tournament.results.services import result_check, result_enter

pytestmark = pytest.mark.django_db

SNAKE_CASE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
PARAGRAPH = re.compile(r"§\s*\d")


def assert_in_words(text: str) -> None:
    """A message for people: no file, no paragraph number, no code."""
    assert text.strip(), "an empty message"
    assert ".md" not in text, text
    assert not PARAGRAPH.search(text), text
    assert not SNAKE_CASE.search(text), text
    for code in RULE_OF:
        assert code not in text, text


def form_messages(response) -> list[str]:
    """Every error the result form shows (field and form errors)."""
    form = response.context["form"]
    return [str(m) for errors in form.errors.values() for m in errors]


@pytest.fixture
def table(tournament):
    return Table.objects.get(series=make_series(tournament, sizes=(4, 3)), number=1)


@pytest.fixture
def post(client, tournament, referee, table):
    client.force_login(referee)
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )

    def send(data):
        response = client.post(url, data)
        assert response.status_code == 200, "refused: the form again"
        return form_messages(response)

    return send


# Game 1 of a table of four with seat 4 dealing: lines that break each rule
# a sheet line can break (scoring.errors.RULE_OF, "sheet_*" and game_over).
SHEET_RULES = {
    "sheet_unknown_seat": "G5",
    "sheet_seat_out": "7 G1 P2:1 P3:1\nG4",
    "sheet_value_range": "9 G1",
    "sheet_winner_folded": "2 G1 P1:1",
    "sheet_winner_penalised": "2 G1 S1:1",
    "sheet_fold_range": "2 G1 P2:2",
    "sheet_penalty_range": "2 G1 S2:3",
    "sheet_hammer_value": "6 G1\nG1",
    "sheet_everyone_folded": "3 G1 P2:1 P3:1 P4:1",
    "game_over": "7 G1\nG1",
    "sheet_no_knock_order": "6 G1\n4 G1",
    # Not a rule of the engine: a line that does not finish the game.
    "game_unfinished": "G1",
    # A fold at value 1 (nobody knocked) has words of its own.
    "sheet_fold_range ": "G1 P2:1",
}
# Lines the notation itself refuses.
NOTATION = [
    "xyz",
    "3 4 G1",
    "G1 G2",
    "G1:2",
    "G1 P2",
    "G1 S3",
    "G1 P2:1 P2:1",
    "G1 X2:1",
    "3 P2:1",
    "W١",
    "9" * 5000,
    "%(name)s %s G1",
]
VALID_GAME = "7 G1"  # every other seat pays 7 at once: seat 1 wins


def sheet_games(first: str) -> list[GameInput]:
    hands = tuple(parse_hand(line) for line in first.splitlines())
    rest = [GameInput(hands=(parse_hand(VALID_GAME),))] * 4
    return [GameInput(hands=hands), *rest]


@pytest.mark.parametrize("code", sorted(SHEET_RULES))
def test_every_rule_of_a_sheet_line_is_told_in_words(table, tournament, post, code):
    lines = SHEET_RULES[code]
    with pytest.raises(GameErrors) as refused:
        result_check(games=sheet_games(lines), table=table, tournament=tournament)
    assert [e.code for e in refused.value.errors] == [code.strip()]
    assert_in_words(refused.value.message)
    data = {"mode": "sheet", "revision": "0", "g1_hands": lines}
    data |= {f"g{g}_hands": VALID_GAME for g in range(2, 6)}
    messages = post(data)
    assert len(messages) == 1
    for message in messages:
        assert_in_words(message)


def test_the_sheet_rules_walked_are_all_the_engine_has():
    walked = {code.strip() for code in SHEET_RULES}
    engine = {c for c in RULE_OF if c.startswith("sheet_")} | {"game_over"}
    # A fold and a penalty of one seat cannot be written in one line any more
    # (the notation refuses a seat twice): the service is asked directly.
    assert engine - walked == {"sheet_fold_and_penalty"}


def test_a_fold_and_a_penalty_of_one_seat_in_words(table, tournament):
    hand = {"sheet": {"value": 2, "winner": 1, "folded": {"2": 1}, "penalty": {"2": 1}}}
    games = [GameInput(hands=(hand,)), *FIVE[1:]]
    with pytest.raises(GameErrors) as refused:
        result_check(games=games, table=table, tournament=tournament)
    assert refused.value.errors[0].code == "sheet_fold_and_penalty"
    assert_in_words(refused.value.message)


@pytest.mark.parametrize("line", NOTATION, ids=range(len(NOTATION)))
def test_every_refusal_of_the_notation_is_in_words(post, line):
    messages = post({"mode": "sheet", "revision": "0", "g1_hands": line})
    assert any("Einzelspiel 1" in m for m in messages), messages
    for message in messages:
        assert_in_words(message)


def test_the_quick_entrys_and_the_forms_errors_are_in_words(post, table, referee):
    every = []
    # No winner, no marks, both; a seat and marks no radio offers; two
    # winners; an unknown mode; no revision.
    every += post({"mode": "quick", "revision": "0"})
    every += post({"mode": "quick", "revision": "0", "g1_winner": "9"})
    every += post({"mode": "quick", "revision": "0", "g1_marks": "0"})
    every += post({"mode": "quick", "revision": "0", "g1_marks": "8"})
    every += post({"mode": "quick", "revision": "0", "g1_winner": ["1", "2"]})
    every += post({"mode": "import", "revision": "0"})
    every += post({"mode": "quick", "revision": "x"})
    # A stale revision: somebody else saved first.
    enter(table, referee)
    every += post(quick_form(FIVE, revision=0))
    # A correction of a confirmed result without a reason.
    ResultVersion.objects.update(status="confirmed")
    table.refresh_from_db()
    every += post(quick_form(FIVE, revision=table.result_revision))
    assert len(every) > 25
    for message in every:
        assert_in_words(message)


@pytest.mark.parametrize(
    "games",
    [
        [GameInput(winner=5, marks=3), *FIVE[1:]],
        [GameInput(winner=1, marks=0), *FIVE[1:]],
        [GameInput(winner=1, marks=8), *FIVE[1:]],
        [GameInput(), *FIVE[1:]],
        FIVE[:4],
    ],
    ids=["unknown-seat", "no-marks-left", "too-many-marks", "nothing", "four-games"],
)
def test_the_quick_services_refusals_are_in_words(table, referee, games):
    with pytest.raises(UserError) as refused:
        result_enter(actor=referee, table=table, games=games, mode="quick", revision=0)
    assert_in_words(refused.value.message)


# --- Digital tables -----------------------------------------------------------


def test_every_rule_a_move_can_break_is_told_in_words():
    moves = sorted(c for c in RULE_OF if not c.startswith("sheet_"))
    for code in moves:
        assert_in_words(illegal_message(IllegalAction(code, "the engine's words")))
    # A code the site has no words for yet still says something in words.
    unknown = IllegalAction("game_over", "the engine's words")
    unknown.code = "a_new_rule"
    assert_in_words(illegal_message(unknown))


def test_every_refusal_at_a_digital_table_is_in_words(four_people):
    """Along one game, at several moments every seat tries every move (each
    card too): whatever is refused says so in words."""
    digital = four_people
    seats = {s.number: s for s in digital.seats.all()}
    cards = [
        f"{r}{s}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A") for s in "CSHD"
    ]
    refused: dict[str, str] = {}
    # A link nobody has; a move against a state the table has left.
    for token, version in [
        ("no-such-link", digital.version),
        (seats[1].token, digital.version + 7),
    ]:
        seats[1].refresh_from_db()
        try:
            digital_act(
                token=token, seq=seats[1].last_seq + 1, version=version, act="look"
            )
        except UserError as error:
            refused.setdefault(error.code, error.message)
    for moment in range(60):
        digital.refresh_from_db()
        if digital.status != DigitalTable.Status.PLAYING:
            break
        if moment % 6 == 0:
            for seat in seats.values():
                tries = [(act, None) for act in ("look", "knock", "hold", "fold")]
                tries += [("play", card) for card in cards] + [("dance", None)]
                for act, card in tries:
                    seat.refresh_from_db()
                    try:
                        digital_act(
                            token=seat.token,
                            seq=seat.last_seq + 1,
                            version=digital.version,
                            act=act,
                            card=card,
                        )
                    except UserError as error:
                        refused.setdefault(error.code, error.message)
                    else:
                        digital.refresh_from_db()
            if digital.status != DigitalTable.Status.PLAYING:
                break  # the seats' own tries can end the game
        move = digital_adapter.bot_action(digital, {n: "greedy" for n in range(1, 5)})
        assert move is not None, "the game waits for nobody while it is played"
        seat = seats[move.seat]
        seat.refresh_from_db()
        digital_act(
            token=seat.token,
            seq=seat.last_seq + 1,
            version=digital.version,
            act=move.act,
            card=None if move.card is None else card_str(move.card),
        )
    assert {"play_out_of_turn", "card_not_in_hand", "unknown_link", "conflict"} <= set(
        refused
    ), sorted(refused)
    assert len(refused) >= 8, sorted(refused)
    for message in refused.values():
        assert_in_words(message)
