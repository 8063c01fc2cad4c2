"""A companion fed tap and press events directly (no emulated readers: fast) that notes every
screen model and notice it shows, for tests that read what a whole game put on the screens.

    table = QuickTable(tmp_path, GameShelf(language="de"))
    play_demo_game(table, Bot(seed=3, players=4))       # a bot drives tap/press/perform
    table.shown                                           # {(role, model): None}, in order
"""

from __future__ import annotations

from pathlib import Path

from firmware.companion import Companion
from firmware.drawing import notice_screen
from firmware.events import Press, Tap
from firmware.games import FULL_TABLE_PADS, GameShelf
from firmware.journal import Journal
from firmware.screens import Screen
from firmware.steps import Step
from firmware.tabletop import uid_for
from hardware.display.screen import DisplayHealth


class Display:
    """A display that keeps nothing: the models are checked, not the pixels."""

    size = (128, 64)
    health = DisplayHealth()

    def show(self, image) -> None:
        pass


class QuickTable:
    """The companion on displays that keep nothing, noting each model and notice shown."""

    def __init__(self, state_dir: Path, games: GameShelf) -> None:
        self.games = games
        roles = ("status", *FULL_TABLE_PADS)
        self.companion = Companion(
            {role: Display() for role in roles}, Journal.open(state_dir), games
        )
        self.companion.start()
        self.shown: dict[tuple[str, Screen], None] = {}
        self._note()

    def tap(self, pad: str, card: str) -> None:
        self.companion.handle(Tap(pad, uid_for(card), card))
        self._note()

    def press(self, button: str, held: bool = False) -> None:
        self.companion.handle(Press(button, held))
        self._note()

    def perform(self, step: Step) -> None:
        if step.kind == "tap":
            self.tap(step.target, step.card)
        else:
            self.press(step.target, step.held)

    def _note(self) -> None:
        for role, screen in self.companion.controller.screens().items():
            self.shown.setdefault((role, screen), None)
        for role, notice in self.companion.notices.items():
            self.shown.setdefault((role, notice_screen(notice)), None)
        self.companion.notices.clear()
