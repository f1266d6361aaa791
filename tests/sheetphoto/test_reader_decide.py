"""The reader's decision on a sheet's cell scores (no photo): the rule
"von links nach rechts" settles a doubtful mark among clear strikes, and
a mark whose ink lies only along its printed stroke is never read
standing without a doubt (struck when its lines hold most of a strike)."""

import numpy as np

from tournament.sheetphoto.reader.layout import sheet_layout
from tournament.sheetphoto.reader.read import decide

LAYOUT = sheet_layout(seats=4, games=5, marks=7)
# Per game: winner seat, marks kept.
RESULT = [(1, 5), (2, 3), (1, 7), (4, 1), (3, 2)]
STANDING, STRUCK = 0.01, 0.05


def scores(result=RESULT, level=STRUCK):
    """Each cell's ink as a clean sheet kept with `result` shows it, a
    little noise on each."""
    rng = np.random.default_rng(3)
    out = []
    for winner, kept in result:
        for seat in range(1, LAYOUT.seats + 1):
            struck = LAYOUT.marks - kept if seat == winner else LAYOUT.marks
            for mark in range(1, LAYOUT.marks + 1):
                out.append(level if mark <= struck else STANDING)
    return np.asarray(out) + rng.normal(0, 0.0002, len(out))


def index(game, seat, mark):
    return ((game - 1) * LAYOUT.seats + seat - 1) * LAYOUT.marks + mark - 1


def read(values, lines=None):
    if lines is None:
        games, cells, _ = decide(values, LAYOUT)
    else:
        games, cells, _ = decide(values, LAYOUT, None, lines)
    return games, {(c.game, c.seat, c.mark): c for c in cells}


def test_a_weak_strike_among_clear_ones_is_struck_by_left_to_right():
    # Game 2, seat 1 (a loser): mark 3 struck weakly, marks 4-7 clearly,
    # so standing it would break the rule. Game 1, seat 1 (the winner,
    # marks 1-2 struck): mark 3 as weak with nothing struck after it may
    # be either, and a person must look.
    values = scores()
    weak = STANDING + 0.08 * (STRUCK - STANDING)
    values[index(2, 1, 3)] = weak
    values[index(1, 1, 3)] = weak
    games, cells = read(values)
    assert cells[(2, 1, 3)].state == "struck"
    assert (games[1].winner_seat, games[1].marks_left, games[1].flagged) == (
        2,
        3,
        False,
    )
    assert cells[(1, 1, 3)].state == "doubtful"
    assert games[0].flagged


def test_ink_along_the_printed_stroke_alone_puts_a_standing_mark_in_doubt():
    # Game 1, seat 1, mark 3: nothing outside its printed stroke (the
    # masked view reads it standing), but its lines hold 0.4 of a strike's
    # ink, far above their doubt: a strike along the stroke, or the print's
    # own ink in uneven light. With a whole strike's ink it is struck.
    masked = scores()
    lines = scores(level=0.06) + 0.02
    lines[index(1, 1, 3)] = 0.02 + STANDING + 0.4 * (0.06 - STANDING)
    games, cells = read(masked, lines)
    assert cells[(1, 1, 3)].state == "doubtful"
    assert games[0].flagged
    assert [g.flagged for g in games[1:]] == [False] * 4
    lines[index(1, 1, 3)] = lines[index(1, 1, 1)]
    games, cells = read(masked, lines)
    assert cells[(1, 1, 3)].state == "struck"
    assert (games[0].winner_seat, games[0].marks_left, games[0].flagged) == (
        1,
        4,
        False,
    )


def test_a_weak_mark_where_a_winner_s_strikes_end_stands_if_the_lines_see_the_pen():
    # Game 1, seat 1 (the winner, marks 1-2 struck): mark 3 holds a
    # twelfth of a strike's ink in both views. Where the lines see each
    # strike of the row plainly, that is no strike of this pen: mark 3
    # stands. Where they hardly see the pen (a faint one), a strike of it
    # may look so weak: a person looks.
    masked = scores()
    masked[index(1, 1, 3)] = STANDING + (STRUCK - STANDING) / 12
    plain = scores(level=0.06) + 0.02
    plain[index(1, 1, 3)] = 0.02 + STANDING + (0.06 - STANDING) / 12
    games, cells = read(masked, plain)
    assert cells[(1, 1, 3)].state == "standing"
    assert (games[0].winner_seat, games[0].marks_left, games[0].flagged) == (
        1,
        5,
        False,
    )
    faint = scores(level=0.0115) + 0.02
    faint[index(1, 1, 3)] = 0.02 + STANDING
    games, cells = read(masked, faint)
    assert cells[(1, 1, 3)].state == "doubtful"
    assert games[0].flagged


def test_a_loser_s_doubtful_marks_are_struck_where_one_row_plainly_stands():
    # Game 1: seat 1 (the winner) keeps 5 marks plainly; seat 2 (a loser)
    # has mark 7 between the levels in both views. One winner, the others
    # strike all: mark 7 is struck, no person is asked.
    masked = scores()
    lines = scores(level=0.06) + 0.02
    masked[index(1, 2, 7)] = STANDING + 0.08 * (STRUCK - STANDING)
    lines[index(1, 2, 7)] = 0.02 + STANDING + 0.08 * (0.06 - STANDING)
    games, cells = read(masked, lines)
    assert cells[(1, 2, 7)].state == "struck"
    assert (games[0].winner_seat, games[0].marks_left, games[0].flagged) == (
        1,
        5,
        False,
    )
    # Mark 6 too, read standing by the masked view but no stroke alone in
    # the lines: a strike that view hardly sees, so may the winner's row
    # hide one. A person looks.
    masked[index(1, 2, 6)] = STANDING
    lines[index(1, 2, 6)] = 0.02 + STANDING + 0.1 * (0.06 - STANDING)
    games, cells = read(masked, lines)
    assert games[0].flagged


def test_a_winner_s_last_strike_weak_in_its_lines_is_plain_if_struck_alike():
    # Game 1, seat 1 (the winner, marks 1-2 struck): mark 2's lines hold a
    # third of the row's strike (less than a plain last strike must), but
    # the masked view sees it struck as mark 1: where the strikes end is
    # plain. Seen three times as struck as mark 1 (an erased strike across
    # beside strikes along the stroke), a person looks.
    lines = scores(level=0.06) + 0.02
    lines[index(1, 1, 2)] = 0.02 + STANDING + (0.06 - STANDING) / 3
    games, _cells = read(scores(), lines)
    assert (games[0].winner_seat, games[0].marks_left, games[0].flagged) == (
        1,
        5,
        False,
    )
    masked = scores()
    masked[index(1, 1, 2)] = STANDING + 3 * (STRUCK - STANDING)
    games, _cells = read(masked, lines)
    assert games[0].flagged


def test_a_winner_s_last_strike_far_weaker_than_his_own_is_asked_about():
    # Game 1, seat 1 (the winner): mark 1 struck in a dark pen, eight times
    # the game's other strikes in both views; mark 2 holds a line as weak
    # as the game's others, an eighth of the row's own strike: another
    # pen's line or an erased strike's remains. Read struck it says 5
    # marks left, as plainly as the game's level allows: a person looks.
    masked = scores()
    lines = scores(level=0.06) + 0.02
    masked[index(1, 1, 1)] = 8 * STRUCK
    lines[index(1, 1, 1)] = 0.02 + 8 * 0.06
    games, _cells = read(masked, lines)
    assert games[0].flagged
    assert [g.flagged for g in games[1:]] == [False] * 4


def test_a_mark_only_the_lines_doubt_where_a_winner_s_strikes_end_may_stand():
    # Game 1, seat 1 (the winner, marks 1-2 struck): mark 3 holds an eighth
    # of a strike in its lines (a strike's end run over, the print a little
    # darker) and nearly nothing off its printed stroke. Under 0.15 of the
    # row's weakest strike in both views, with the row's pen plain in the
    # lines, it stands as a mark the masked view doubts would.
    masked = scores()
    masked[index(1, 1, 3)] = STANDING + (STRUCK - STANDING) / 50
    lines = scores(level=0.06) + 0.02
    lines[index(1, 1, 3)] = 0.02 + STANDING + (0.06 - STANDING) / 8
    games, cells = read(masked, lines)
    assert cells[(1, 1, 3)].state == "standing"
    assert (games[0].winner_seat, games[0].marks_left, games[0].flagged) == (
        1,
        5,
        False,
    )
