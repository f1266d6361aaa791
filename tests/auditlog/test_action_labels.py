"""Every action a service records has a name in the log's words: a new
action without one would show as its code ("digital.away")."""

import re
from pathlib import Path

import tournament
from tournament.core.audit import ACTION_LABELS

ACTION = re.compile(r'"((?:[a-z_]+)\.(?:[a-z_]+))"')


def recorded_actions() -> set[str]:
    found: set[str] = set()
    for path in Path(tournament.__file__).parent.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        text = path.read_text("utf-8")
        for call in re.finditer(r"audit_record\((.*?)\n\s*\)", text, re.S):
            for match in re.finditer(r"action=([^\n]*)", call.group(1)):
                found.update(ACTION.findall(match.group(1)))
    return found


def test_every_recorded_action_has_a_label():
    actions = recorded_actions()
    assert len(actions) > 20  # the scan finds the services' actions
    assert sorted(actions - set(ACTION_LABELS)) == []
