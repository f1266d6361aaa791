"""Sheet photo benchmark: synthetic phone photos of the project's own score
sheets, read back by the sheet reader (tournament/sheetphoto/reader).

The blank sheets of a series (tables of 4 and of 3) are printed by the site
and rasterized at 200 dpi once. Each photo then gets a random result,
struck by a simulated writer (black, blue or light ballpoint, or pencil;
slashes, crosses, dashes or one line through a lost row; each stroke
jittered in place, length and angle), and is photographed: laid on a
background, turned (a quarter turn sometimes, a few degrees always),
seen in perspective, lit unevenly with a shadow across, blurred, noisy,
saved as JPEG at quality 55–92, 1400–2400 px on its long side.

A cell is right when read struck or standing as written (a doubtful cell
counts by its side of the threshold: the game it is in is flagged); a game
is right when its winner and marks left are. Photos the reader refuses
count in `not_found` and nowhere else.

    python bench/sheetphoto.py [PHOTOS] [--seed N]

Last line: one JSON object with photos, not_found, cells, cell_accuracy,
games, game_accuracy, flagged_games, wrong_unflagged_games, p50_ms, p95_ms.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.sheetphoto.reader.layout import SheetId, SheetLayout
from tournament.sheetphoto.reader.read import SheetRefused, read_sheet

DPI = 200
MM = DPI / 25.4  # pixels per millimetre of the rasterized page
Image = npt.NDArray[np.uint8]

# Simulated pens, BGR: the ink's colour, its width (mm) and how evenly it
# lays down (pencil is grainy).
WRITERS = {
    "black": ((35, 30, 30), (0.35, 0.55), 0.0),
    "blue": ((150, 70, 30), (0.35, 0.5), 0.0),
    "light": ((205, 170, 140), (0.3, 0.45), 0.0),
    "pencil": ((115, 115, 115), (0.4, 0.6), 0.45),
}
STYLES = ("slash", "cross", "dash", "row_line")
BACKGROUNDS = (
    (60, 90, 140),
    (40, 40, 45),
    (150, 150, 150),
    (90, 120, 170),
    (30, 60, 30),
)


@dataclass(frozen=True)
class Page:
    image: Image  # the blank sheet, BGR at DPI
    sheet: SheetId


Result = list[tuple[int, int]]  # per game: winner seat, marks kept


def random_result(rng: np.random.Generator, layout: SheetLayout) -> Result:
    return [
        (int(rng.integers(1, layout.seats + 1)), int(rng.integers(1, layout.marks + 1)))
        for _ in range(layout.games)
    ]


def struck_counts(layout: SheetLayout, result: Result) -> list[int]:
    """Struck marks per row (game-major, seat-minor)."""
    return [
        layout.marks - kept if seat == winner else layout.marks
        for winner, kept in result
        for seat in range(1, layout.seats + 1)
    ]


def _px(x: float, y: float) -> tuple[int, int]:
    # cv2 draws at 1/16 px (shift=4).
    return round(x * MM * 16), round(y * MM * 16)


def _line(
    ink: Image,
    a: tuple[float, float],
    b: tuple[float, float],
    width: float,
) -> None:
    cv2.line(ink, _px(*a), _px(*b), 255, max(1, round(width * MM)), cv2.LINE_AA, 4)


def write(
    page: Page,
    result: Result,
    rng: np.random.Generator,
    counts: list[int] | None = None,
) -> Image:
    """The sheet struck by one writer with one pen and one habit; `counts`
    (struck marks per row, as `struck_counts`) instead of the result's for
    a sheet kept wrong (a loser's last mark left standing)."""
    layout = page.sheet.layout()
    colour, (thin, thick), grain = WRITERS[str(rng.choice(list(WRITERS)))]
    style = str(rng.choice(STYLES))
    width = float(rng.uniform(thin, thick))
    ink = np.zeros(page.image.shape[:2], np.uint8)
    if counts is None:
        counts = struck_counts(layout, result)
    for row, count in enumerate(counts):
        game, seat = divmod(row, layout.seats)
        if count == 0:
            continue
        first = layout.cell(game + 1, seat + 1, 1).box
        if style == "row_line":
            last = layout.cell(game + 1, seat + 1, count).box
            y = first.y + first.h / 2 + rng.normal(0, 0.5)
            end = last.x + last.w - rng.uniform(0.6, 1.6)
            if count == layout.marks:
                end = last.x + last.w + rng.uniform(-0.5, 2.0)
            _line(
                ink,
                (first.x + rng.uniform(-1.5, 1.0), y),
                (end, y + rng.normal(0, 0.6)),
                width,
            )
            continue
        for mark in range(1, count + 1):
            box = layout.cell(game + 1, seat + 1, mark).box
            cx = box.x + box.w / 2 + rng.normal(0, 0.35)
            cy = box.y + box.h / 2 + rng.normal(0, 0.35)
            size = rng.uniform(0.75, 1.15)
            tilt = rng.normal(0, 0.12)
            run = min(2.0, box.w * 0.3) * size
            half = box.h * 0.33 * size
            if style == "dash":
                dy = tilt * run
                _line(
                    ink,
                    (cx - run * 1.1, cy - dy),
                    (cx + run * 1.1, cy + dy),
                    width,
                )
                continue
            _line(
                ink,
                (cx - run, cy - half + tilt),
                (cx + run, cy + half - tilt),
                width,
            )
            if style == "cross":
                _line(ink, (cx - run, cy + half), (cx + run, cy - half), width)
    alpha = ink.astype(np.float32) / 255.0
    if grain:
        alpha *= 1.0 - grain * rng.random(alpha.shape, dtype=np.float32)
    alpha *= rng.uniform(0.8, 1.0)
    out = page.image.astype(np.float32)
    pen = np.asarray(colour, np.float32)
    out = out * (1 - alpha[..., None]) + pen * alpha[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def photograph(sheet: Image, rng: np.random.Generator) -> bytes:
    """The struck sheet as a phone would see it."""
    long_side = int(rng.integers(1400, 2401))
    turns = int(rng.choice([0, 0, 0, 0, 1, 2, 3]))
    portrait = turns % 2 == 0
    w, h = (
        (round(long_side * 0.75), long_side)
        if portrait
        else (long_side, round(long_side * 0.75))
    )
    base = np.asarray(BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))], np.float32)
    texture = base + rng.normal(0, 12, (h // 4, w // 4, 1)).astype(np.float32)
    canvas = cv2.resize(np.clip(texture, 0, 255).astype(np.uint8), (w, h))
    # The page's corners: a rectangle filling most of the frame, turned,
    # then each corner pulled a little (perspective).
    page_h, page_w = sheet.shape[:2]
    fill = rng.uniform(0.78, 0.93)
    frame_long = h if portrait else w
    scale = fill * frame_long / page_h
    small = cv2.resize(
        sheet,
        (round(page_w * scale), round(page_h * scale)),
        interpolation=cv2.INTER_AREA,
    )
    sh, sw = small.shape[:2]
    corners = np.asarray([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    angle = np.deg2rad(90 * turns + rng.normal(0, 4))
    rotation = np.asarray(
        [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32
    )
    centred = (corners - [sw / 2, sh / 2]) @ rotation.T
    centred += rng.normal(0, 0.025 * sw, centred.shape).astype(np.float32)
    fit = min(w * 0.98 / np.ptp(centred[:, 0]), h * 0.98 / np.ptp(centred[:, 1]), 1.0)
    target = centred * fit + [w / 2, h / 2] + rng.normal(0, 0.01 * w, 2)
    matrix = cv2.getPerspectiveTransform(corners, target.astype(np.float32))
    photo = canvas
    cv2.warpPerspective(
        small,
        matrix,
        (w, h),
        dst=photo,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    # Uneven light: a gradient across, and a shadow's soft edge.
    # (At an eighth of the size: light changes slowly.)
    lh, lw = h // 8, w // 8
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    direction = rng.normal(0, 1, 2)
    ramp = (xx * direction[0] + yy * direction[1]) / (
        abs(direction[0]) * lw + abs(direction[1]) * lh
    )
    light = 1.0 - rng.uniform(0.1, 0.4) * (ramp - ramp.min())
    if rng.random() < 0.6:
        normal = rng.normal(0, 1, 2)
        offset = rng.uniform(0.2, 0.8) * (lw * abs(normal[0]) + lh * abs(normal[1]))
        side = (xx * abs(normal[0]) + yy * abs(normal[1]) - offset) / (0.02 * lw)
        light *= 1.0 - rng.uniform(0.2, 0.45) / (1 + np.exp(-side))
    light = cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    lit = photo.astype(np.float32) * light[..., None] * rng.uniform(0.75, 1.1)
    sigma = rng.uniform(0.3, 1.3)
    lit = cv2.GaussianBlur(lit, (0, 0), sigma)
    noise = rng.standard_normal((h, w, 1), dtype=np.float32)
    lit += noise * np.float32(rng.uniform(2, 6))
    quality = int(rng.integers(55, 93))
    ok, encoded = cv2.imencode(
        ".jpg",
        np.clip(lit, 0, 255).astype(np.uint8),
        [cv2.IMWRITE_JPEG_QUALITY, quality],
    )
    assert ok
    return encoded.tobytes()


def evaluate(pages: list[Page], photos: int, seed: int) -> dict[str, float | int]:
    """Make and read `photos` photos; the figures."""
    rng = np.random.default_rng(seed)
    not_found = cells = cells_right = games = games_right = flagged = (
        wrong_unflagged
    ) = 0
    times: list[float] = []
    for index in range(photos):
        page = pages[index % len(pages)]
        layout = page.sheet.layout()
        result = random_result(rng, layout)
        data = photograph(write(page, result, rng), rng)
        started = time.perf_counter()
        try:
            reading = read_sheet(data)
        except SheetRefused as refusal:
            not_found += 1
            print(f"photo {index}: refused ({refusal.code})", file=sys.stderr)
            continue
        finally:
            times.append((time.perf_counter() - started) * 1000)
        counts = struck_counts(layout, result)
        for cell in reading.cells:
            row = (cell.game - 1) * layout.seats + cell.seat - 1
            cells += 1
            cells_right += cell.struck == (cell.mark <= counts[row])
        for game, (winner, kept) in zip(reading.games, result, strict=True):
            games += 1
            right = (game.winner_seat, game.marks_left) == (winner, kept)
            games_right += right
            flagged += game.flagged
            if not right and not game.flagged:
                wrong_unflagged += 1
                print(
                    f"photo {index} game {game.number}: read "
                    f"{game.winner_seat}/{game.marks_left}, was {winner}/{kept}",
                    file=sys.stderr,
                )
    times.sort()
    return {
        "photos": photos,
        "not_found": not_found,
        "cells": cells,
        "cell_accuracy": round(cells_right / max(cells, 1), 5),
        "games": games,
        "game_accuracy": round(games_right / max(games, 1), 4),
        "flagged_games": flagged,
        "wrong_unflagged_games": wrong_unflagged,
        "p50_ms": round(statistics.median(times)) if times else 0,
        "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))])
        if times
        else 0,
    }


def rasterize(pdf: bytes, sheets: list[SheetId]) -> list[Page]:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "sheets.pdf"
        source.write_bytes(pdf)
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-png", str(source), f"{folder}/p"], check=True
        )
        files = sorted(Path(folder).glob("p-*.png"))
        return [
            Page(cv2.imread(str(f), cv2.IMREAD_COLOR), s)
            for f, s in zip(files, sheets, strict=True)
        ]


def build_pages() -> list[Page]:
    """The blank sheets of a series of three tables of 4 and one of 3."""
    from bench._django import setup

    setup()
    import datetime

    from django.utils import translation

    from tournament.models import Entry, Person, Player, Seat, Series, Table, Tournament
    from tournament.paper import pdf, sheets

    translation.activate("de")
    tournament = Tournament.objects.create(
        name="Sheet photo benchmark",
        slug="bench",
        date=datetime.date(2026, 12, 5),
        venue="Ulmen",
    )
    sizes = (4, 4, 3, 4)
    persons = Person.objects.bulk_create(
        Person(first_name=f"Vorname{i}", last_name=f"Nachname{i}", club="Club")
        for i in range(sum(sizes))
    )
    Player.objects.bulk_create(
        Player(first_name=p.first_name, last_name=p.last_name, club=p.club, person=p)
        for p in persons
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, start_number=i + 1)
        for i, p in enumerate(Player.objects.order_by("id"))
    )
    series = Series.objects.create(
        tournament=tournament, number=1, status=Series.Status.RELEASED
    )
    it = iter(entries)
    for number, size in enumerate(sizes, 1):
        table = Table.objects.create(series=series, number=number, size=size)
        Seat.objects.bulk_create(
            Seat(series=series, table=table, number=s, entry=next(it))
            for s in range(1, size + 1)
        )
    data = sheets.score_sheets(tournament=tournament, series=series, filled=False)
    document = pdf.sheets_pdf(
        tournament=tournament, series_number=1, base_url="http://192.168.1.20:8000"
    )
    return rasterize(document.content, [s.sheet_id for s in data.sheets])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("photos", nargs="?", type=int, default=200)
    parser.add_argument("--seed", type=int, default=27)
    options = parser.parse_args()
    pages = build_pages()
    figures = evaluate(pages, options.photos, options.seed)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
