"""The repository stands alone: nothing it tracks cites material outside
it (the source notes the project started from); what the code relies on is
in docs/, cited by its path from the repository's root."""

import re
import subprocess
from pathlib import Path

from tests.support.servers import ROOT

THIS = "tests/site/test_stands_alone.py"
# Text the project writes itself; vendored files cite what they like.
TEXT = (".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".json", ".conf")
OWN = ("Makefile", ".importlinter", ".ci/run")
# The folder of source notes beside the repository, by either path (put
# together here, so this file does not cite it either).
OUTSIDE = ("/".join(("..", "shared")), "/".join(("", "work", "shared")))
# A cited Markdown file: a name ending in .md, with the folders before it.
CITED = re.compile(r"(?<![\w./-])((?:\.\.?/|[\w-]+/)*[\w-]+\.md)\b")
# A citation's section: "docs/RULES.md §4.2" (numbered) or
# "docs/FORMATS.md § Sheet line" (by its heading's words).
NUMBERED = re.compile(r"\s*§\s*(\d+)")
NAMED = re.compile(r"\s*§ ([A-Za-z][\w'-]*(?: [\w'-]+)*)")


def own_text_files() -> list[str]:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        name
        for name in tracked
        if name != THIS
        and not name.startswith("static/vendor/")
        and (name.endswith(TEXT) or name in OWN)
    ]


def test_no_tracked_file_cites_a_path_outside_the_repository():
    citing = [
        name
        for name in own_text_files()
        if any(path in (ROOT / name).read_text(errors="replace") for path in OUTSIDE)
    ]
    assert not citing, f"cite docs/ instead: {citing}"


def cited_file(name: str, cited: str) -> Path | None:
    """The file a citation in `name` names: from the repository's root, or
    for a link in a Markdown file, from that file's folder."""
    candidates = [ROOT / cited]
    if name.endswith(".md"):
        candidates.append((ROOT / name).parent / cited)
    return next((path for path in candidates if path.is_file()), None)


def headings(path: Path) -> list[str]:
    return [
        line.lstrip("#").strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


def broken_citations() -> list[str]:
    broken = []
    for name in own_text_files():
        text = (ROOT / name).read_text(errors="replace")
        for match in CITED.finditer(text):
            cited = match.group(1)
            where = f"{name}: {cited}"
            path = cited_file(name, cited)
            if path is None:
                broken.append(f"{where} (no such file)")
                continue
            # What follows, on one line: a citation may wrap, in a comment too.
            after = " ".join(
                re.sub(r"\n\s*#", "\n", text[match.end() : match.end() + 80]).split()
            )
            titles = headings(path) if path.suffix == ".md" else []
            if number := NUMBERED.match(after):
                section = number.group(1)
                if not any(t.startswith(f"{section}. ") for t in titles):
                    broken.append(f"{where} §{section} (no such section)")
            elif named := NAMED.match(after):
                words = named.group(1).lower()
                if not any(words.startswith(t.lower()) for t in titles):
                    broken.append(f"{where} § {named.group(1)} (no such section)")
    return broken


def test_every_cited_markdown_file_and_section_is_in_the_repository():
    """A citation names a file the repository has, by its path from the
    root (a Markdown file's link: from its own folder), and a section its
    headings have: someone who clones the project can read what the code
    relies on."""
    broken = broken_citations()
    assert not broken, "cite files and sections in docs/:\n" + "\n".join(broken)
