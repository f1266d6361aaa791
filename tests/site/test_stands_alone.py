"""The repository stands alone: nothing it tracks cites material outside
it (the source notes the project started from); what the code relies on is
in docs/."""

import subprocess

from tests.support.servers import ROOT


def test_no_tracked_file_cites_a_path_outside_the_repository():
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    this = "tests/site/test_stands_alone.py"
    citing = [
        name
        for name in tracked
        if name != this
        and name.endswith((".py", ".md", ".html", ".js", ".css", ".toml", ".txt"))
        and (
            "../shared" in (text := (ROOT / name).read_text(errors="replace"))
            or "/work/shared" in text
        )
    ]
    assert not citing, f"cite docs/ instead: {citing}"
