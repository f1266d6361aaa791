"""One sheet notation in every text: the handbook, the README, the pages and
the code's help teach `3 G1 P2:1 P4:2` (G Gewinner, P passt, S Strafe) as
the site and the printed sheets write it, never the old English letters
(`3 W1 F2:1 F4:2`), which the form still reads but nobody is taught."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A hand in the old letters: a winner "W1" or a fold "F2:1".
OLD = re.compile(r"\bW[1-4]\b|\bF[1-4]:\d")
TEXTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "templates").rglob("*.html")),
    *sorted((ROOT / "tournament").rglob("*.py")),
    ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po",
]


def test_no_text_teaches_the_old_notation():
    old = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in TEXTS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        # The catalog's obsolete entries are no text anybody reads.
        if OLD.search(line) and not line.startswith("#~")
    ]
    assert not old, old


def test_the_handbook_teaches_the_sites_notation():
    handbook = (ROOT / "docs/HANDBUCH.md").read_text(encoding="utf-8")
    assert "`3 G1 P2:1 P4:2`" in handbook
