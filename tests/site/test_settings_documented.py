"""Every setting the site reads from the environment is in the table of
docs/OPERATING.md: an operator following it never has to read the code."""

import re

from tests.support.servers import ROOT


def test_every_environment_variable_is_in_the_operating_table():
    settings = (ROOT / "config" / "settings.py").read_text()
    read = set(
        re.findall(
            r'(?:os\.environ\.get|env_bool|env_list)\(\s*"([A-Z][A-Z0-9_]+)"', settings
        )
    )
    assert {
        "DATABASE_URL",
        "REDIS_URL",
        "SHEET_PHOTO_DIR",
    } <= read  # the pattern finds them
    table = "\n".join(
        line
        for line in (ROOT / "docs/OPERATING.md").read_text().splitlines()
        if line.startswith("| `")
    )
    missing = sorted(name for name in read if f"`{name}`" not in table)
    assert not missing, f"not in docs/OPERATING.md's table: {missing}"
