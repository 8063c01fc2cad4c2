"""What the table promises when a tap cannot be kept: nothing is acknowledged that is not
saved, the screens stay as they were, and a half-entered choice is dropped, whether the
rules refuse the action or the journal cannot save it.

The failing journal is the table's own journal file opened read-only (as on an SD card the
kernel remounted read-only): a real SQLite connection whose every write fails."""

from __future__ import annotations

import sqlite3

from firmware.journal import Journal
from firmware.screens import RefusalScreen

READ_ONLY = "is read-only: the last action was not saved."


def read_only(journal: Journal) -> Journal:
    """The same journal file opened read-only: it reads as before, every write fails."""
    db = sqlite3.connect(f"file:{journal.path}?mode=ro", uri=True, check_same_thread=False)
    return Journal(journal.path, db)


def pads(screens: dict) -> dict:
    return {role: image.tobytes() for role, image in screens.items() if role != "status"}


def refusal(journal: Journal) -> RefusalScreen:
    return RefusalScreen(f"{journal.path.parent} {READ_ONLY}")


def test_a_tap_the_journal_cannot_save_is_refused_and_changes_nothing(duel):
    top = duel.top
    played = top.table.buzzer.played
    lines, state, screens = duel.lines(), duel.state, top.screens()
    top.companion.journal = failing = read_only(top.journal)
    try:
        top.tap("stake-0", "blades_agent_5")  # a legal agent: the rules accept it
        assert duel.lines() == lines  # nothing saved ...
        assert duel.state == state  # ... and nothing taken as played
        assert played[-1] == "refused"  # no "ok" beep for it
        assert duel.shows("status", refusal(failing))
        assert pads(top.screens()) == pads(screens)  # stake 0 shows no agent
        top.wait(4)
        assert top.screens()["status"].tobytes() == screens["status"].tobytes()
    finally:
        failing.close()
    top.companion.journal = top.journal  # the card is writable again: the same tap plays
    assert duel.tap("stake-0", "blades_agent_5")["card"] == "blades_agent_5"


def test_a_journal_error_drops_the_half_entered_discard(duel):
    top = duel.top
    screens = top.screens()
    top.press("select")  # discard mode: the next tap would discard
    assert duel.controller.prompting()
    top.companion.journal = failing = read_only(top.journal)
    try:
        top.tap("stake-3", "blades_agent_5")
        assert duel.shows("status", refusal(failing))
    finally:
        failing.close()
    top.companion.journal = top.journal
    assert not duel.controller.prompting()
    top.wait(4)
    assert top.screens()["status"].tobytes() == screens["status"].tobytes()  # no discard prompt
    line = duel.tap("stake-0", "blades_agent_5")  # a plain agent again, not a discard
    assert line == {"player": 0, "action": "agent", "card": "blades_agent_5", "stake": 0}


def test_a_rule_refusal_drops_the_half_entered_discard(duel):
    duel.tap("stake-0", "blades_agent_5")
    duel.tap("stake-2", "ferrymen_agent_6")
    duel.top.press("select")  # discard mode
    assert duel.controller.prompting()
    duel.refused("stake-3", "blades_agent_5", "That agent is already on stake 1")
    assert not duel.controller.prompting()
    line = duel.tap("stake-1", "blades_agent_4")  # an agent placed, not discarded
    assert line == {"player": 0, "action": "agent", "card": "blades_agent_4", "stake": 1}
