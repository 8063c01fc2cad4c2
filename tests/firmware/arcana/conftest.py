"""Arcana at the emulated full table: an EmulatedTable at the chooser (`top`), and `table`, which
seats the players by taps and checks that refused taps change nothing.

The default two-player game: Blades (seat 0) controls stakes 0 and 1, Ferrymen (seat 1)
stakes 2 and 3, stake 4 is free trade; the first market cards are STAKES_TWO.
"""

from __future__ import annotations

import pytest

from firmware.games import GameShelf
from firmware.screens import RefusalScreen, render
from firmware.tabletop import EmulatedTable

TWO = ("blades", "ferrymen")
STAKES_TWO = ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03", "m_agent_06")
TASKS_TWO = (("task_01", "task_05"), ("task_02", "task_06"))


def same(a, b) -> bool:
    """Two screens with the same pixels."""
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


class ArcanaController:
    """An EmulatedTable with helpers for Arcana tests."""

    GUILDS = TWO
    STAKES = STAKES_TWO
    TASKS = TASKS_TWO

    def __init__(self, top: EmulatedTable) -> None:
        self.top = top

    def choose(self, variant: str = "basic") -> None:
        """From the chooser's first screen: Arcana, then the variant."""
        self.top.press("ok")
        if variant == "advanced":
            self.top.press("select")
        self.top.press("ok")

    def seat(self, guilds=TWO, stakes=STAKES_TWO, variant="basic", tasks=TASKS_TWO) -> None:
        """The whole setup by taps: bases in seat order, first market cards, kept tasks."""
        self.choose(variant)
        for guild in guilds:
            self.top.tap("stake-0", f"{guild}_base")
        if len(guilds) < 4:
            self.top.press("ok")
        for stake, card in enumerate(stakes):
            self.top.tap(f"stake-{stake}", card)
        if variant == "advanced":
            for kept in tasks[: len(guilds)]:
                for task in kept:
                    self.top.tap("stake-1", task)
        assert self.top.companion.game_id is not None

    @property
    def controller(self):
        return self.top.companion.controller

    @property
    def state(self):
        return self.controller.state

    def lines(self) -> list[dict]:
        companion = self.top.companion
        return companion.journal.lines(companion.game_id)

    def screen(self, role: str):
        return self.top.screens()[role]

    def shows(self, role: str, model) -> bool:
        return same(self.screen(role), render(model))

    def refused(
        self, pad: str, card: str, message: str, where: str | None = None, prompting=False
    ) -> None:
        """Tap and check: the sentence on the right screen, journal and state unchanged, and
        a half-entered choice kept only where the test says so (`prompting`)."""
        before = (self.lines(), self.state)
        self.top.tap(pad, card)
        assert self.shows(where or pad, RefusalScreen(message)), message
        assert (self.lines(), self.state) == before
        assert self.controller.prompting() == prompting
        self.top.wait(4)  # the refusal fades

    def tap_button(self, button: str) -> dict:
        """Press a button that must play an action; returns the journal line it added."""
        count = len(self.lines())
        self.top.press(button)
        lines = self.lines()
        assert len(lines) == count + 1, f"{button} was not accepted"
        return lines[-1]

    def tap(self, pad: str, card: str) -> dict:
        """Tap a card that must be accepted; returns the journal line it added."""
        count = len(self.lines())
        self.top.tap(pad, card)
        lines = self.lines()
        assert len(lines) == count + 1, f"{card} on {pad} was not accepted"
        return lines[-1]


@pytest.fixture
def top(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as table:
        yield table


@pytest.fixture
def table(top):
    return ArcanaController(top)


@pytest.fixture
def duel(table):
    """A basic two-player game just begun: Blades to play."""
    table.seat()
    return table
