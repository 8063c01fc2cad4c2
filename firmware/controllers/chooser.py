"""The first screens of a table: which game, which variant; then the game's own setup.

Select moves to the next option, OK picks it. After the choice, every tap and press goes
to the chosen game's setup controller, which answers `Begin` when the players are seated.
"""

from __future__ import annotations

from typing import Any

from firmware.controllers.base import Ask, Controller, Refuse, Reply
from firmware.screens import ChoiceScreen, Screen

GAMES = (("arcana", "Arcana"), ("res-arcana", "Res Arcana"), ("enroll", "Enroll cards"))
VARIANTS = (("basic", "Basic game"), ("advanced", "Advanced game"))
ENROLL = (("arcana", "Arcana cards"), ("res-arcana", "Res Arcana cards"))
TITLES = {None: "Which game?", "arcana": "Arcana: variant?", "enroll": "Enroll which cards?"}


class GameChooser(Controller):
    """Choose the game (and Arcana's variant) with Select and OK on the status screen."""

    def __init__(self, setup_for: Any, status_role: str = "status") -> None:
        self._setup_for = setup_for  # (game, variant) -> the game's setup Controller
        self.status_role = status_role
        self.state = None
        self.game: str | None = None
        self.selected = 0
        self.inner: Controller | None = None

    @property
    def options(self) -> tuple[tuple[str, str], ...]:
        return {None: GAMES, "arcana": VARIANTS, "enroll": ENROLL}[self.game]

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply | None:
        """Enrollment takes tags as they are; everything else goes through the registry."""
        return None if self.inner is None else self.inner.raw_tap(pad, uid, written_id)

    def tap(self, pad: str, card: str) -> Reply:
        if self.inner is not None:
            return self.inner.tap(pad, card)
        return Refuse("Choose the game first: Select, then OK", self.status_role)

    def press(self, button: str, held: bool) -> Reply:
        if self.inner is not None:
            return self.inner.press(button, held)
        if button == "select":
            self.selected = (self.selected + 1) % len(self.options)
        elif button == "ok":
            choice = self.options[self.selected][0]
            if self.game is None and choice in ("arcana", "enroll"):
                self.game, self.selected = choice, 0
            elif self.game is None:
                self.inner = self._setup_for(choice, None)
            else:
                self.inner = self._setup_for(self.game, choice)
        return Ask()

    def accepted(self, events: tuple[Any, ...]) -> None:
        if self.inner is not None:
            self.inner.accepted(events)

    def reset_prompt(self) -> None:
        """Undo during setup steps back: out of the game's setup, then out of the variant."""
        if self.inner is not None:
            self.inner = None
        else:
            self.game = None
        self.selected = 0

    def is_over(self) -> bool:
        return False

    def screens(self) -> dict[str, Screen]:
        if self.inner is not None:
            return self.inner.screens()
        title = TITLES[self.game]
        labels = tuple(label for _, label in self.options)
        return {self.status_role: ChoiceScreen(title, labels, self.selected)}
