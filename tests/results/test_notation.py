"""The sheet notation in German letters (issue 14.6): G Gewinner, P passt,
S Strafe; the old W and F still read, the old P (penalty) is passt now and
costs the same marks; the filled score sheets print what the form reads."""

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.support.factories import make_series
from tests.support.results import FIVE
from tournament.models import ResultVersion, Table
from tournament.paper.sheets import _hand_text
from tournament.results.adapter import GameInput
from tournament.results.notation import NotationError, hand_text, parse_hand
from tournament.results.services import result_check, result_enter


def sheet(value, winner, folded=None, penalty=None):
    line = {"value": value, "folded": folded or {}, "winner": winner}
    if penalty:
        line["penalty"] = penalty
    return {"sheet": line}


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("3 G1 P2:1 P4:2", sheet(3, 1, {"2": 1, "4": 2})),
        ("g2", sheet(1, 2)),
        ("2 G3 S1:1", sheet(2, 3, penalty={"1": 1})),
        ("2 G3 P4:1 S1:2", sheet(2, 3, {"4": 1}, {"1": 2})),
        # The old letters that mean nothing else.
        ("3 W1 F2:1 F4:2", sheet(3, 1, {"2": 1, "4": 2})),
        ("3 w1 f2:1 P4:2", sheet(3, 1, {"2": 1, "4": 2})),
    ],
)
def test_the_letters_are_german_and_the_old_ones_still_read(text, line):
    assert parse_hand(text) == line


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("3 P2:1", "der Gewinner fehlt (z. B. G1)"),
        ("G1 X2:1", "G = Gewinner, P = passt, S = Strafe"),
        ("G1 P2", "bei „P2“ fehlt, wie viele Schräm Sitz 2 bezahlt hat, z. B. P2:1"),
        ("G1 P2:1 S2:1", "Sitz 2 steht zweimal in der Zeile"),
        ("G1:2", "beim Gewinner steht kein Betrag"),
    ],
)
def test_what_the_notation_refuses_it_explains(text, says):
    with pytest.raises(NotationError) as refused:
        parse_hand(text)
    assert says in refused.value.message


@pytest.mark.django_db
def test_an_old_penalty_read_as_a_fold_costs_the_same_marks(tournament):
    """P3:2 meant a penalty of 2 and means a fold paying 2 now: the marks
    are the same, so no score changes by the new letters."""
    table = Table.objects.get(series=make_series(tournament, sizes=(4,)))
    as_penalty = result_check(
        games=[
            GameInput(hands=(sheet(3, 1, penalty={"3": 2}), sheet(5, 1))),
            *FIVE[1:],
        ],
        table=table,
        tournament=tournament,
    )
    as_fold = result_check(
        games=[GameInput(hands=(parse_hand("3 G1 P3:2"), sheet(5, 1))), *FIVE[1:]],
        table=table,
        tournament=tournament,
    )
    assert as_fold["games"][0]["hands"][0] == sheet(3, 1, {"3": 2})
    assert [(g["winner"], g["marks"]) for g in as_fold["games"]] == [
        (g["winner"], g["marks"]) for g in as_penalty["games"]
    ]


SEATS = st.sampled_from(["1", "2", "3", "4"])


@given(
    value=st.integers(1, 7),
    winner=st.integers(1, 4),
    paid=st.dictionaries(SEATS, st.integers(1, 7), max_size=3),
    penalised=st.booleans(),
)
def test_what_the_score_sheet_prints_the_form_reads_back(
    value, winner, paid, penalised
):
    folded = {} if penalised else paid
    line = sheet(value, winner, folded, paid if penalised else None)
    assert _hand_text(line) == hand_text(line)
    assert parse_hand(_hand_text(line)) == line


def test_the_score_sheet_prints_the_new_letters():
    assert _hand_text(sheet(3, 1, {"2": 1}, {"4": 2})) == "3 G1 P2:1 S4:2"


@pytest.mark.django_db
def test_a_correction_is_prefilled_in_the_new_letters(
    client, tournament, referee, organizer
):
    table = Table.objects.get(series=make_series(tournament, sizes=(4,)))
    hands = (parse_hand("3 W1 F2:1 F4:2"), sheet(7, 1))
    result_enter(
        actor=organizer,
        table=table,
        games=[GameInput(hands=hands), *FIVE[1:]],
        mode=ResultVersion.Mode.SHEET,
        revision=0,
        auto_confirm=True,
    )
    client.force_login(referee)
    url = reverse(
        "tournament:table_result",
        kwargs={"slug": tournament.slug, "series": 1, "table": 1},
    )
    page = client.get(url + "?korrigieren=1").content.decode()
    assert "3 G1 P2:1 P4:2\n7 G1</textarea>" in page
    # The help beside the field names the letters and the changed P.
    assert "P heißt jetzt „passt“ – eine Strafe ist S." in page
