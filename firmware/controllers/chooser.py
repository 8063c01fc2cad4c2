"""The first screens of a table: which game, which variant; then the game's own setup.

Select moves to the next option, OK picks it; holding Select on the game choice pairs the
owner's phone instead (`PairPhone`: the web app's QR code on the status screen). The game
choice ends with a language line ("Language: English"): OK there switches to the next
language and the choice screens follow at once. After the choice, every tap and press goes
to the chosen game's setup controller, which answers `Begin` when the players are seated;
the chooser adds the language to that setup, so the journal keeps it and a resumed game
shows the same language.
"""

from __future__ import annotations

from typing import Any

from firmware import language
from firmware.controllers.base import Ask, Begin, Controller, PairPhone, Refuse, Reply
from firmware.screens import ChoiceScreen, Screen

# (choice, catalog key of its label)
GAMES = (
    ("arcana", "choice.arcana"),
    ("res-arcana", "choice.res_arcana"),
    ("enroll", "choice.enroll_cards"),
)
VARIANTS = (("basic", "choice.basic"), ("advanced", "choice.advanced"))
ENROLL = (("arcana", "choice.arcana_cards"), ("res-arcana", "choice.res_arcana_cards"))
TITLES = {None: "choice.which_game", "arcana": "choice.variant", "enroll": "choice.enroll"}
LANGUAGE = "language"  # the game choice's last line


class GameChooser(Controller):
    """Choose the game (and Arcana's variant) with Select and OK on the status screen."""

    def __init__(
        self, setup_for: Any, status_role: str = "status", lang: str = language.DEFAULT
    ) -> None:
        self._setup_for = setup_for  # (game, variant) -> the game's setup Controller
        self.status_role = status_role
        self.language = language.load(lang).code  # the table profile's, then chosen
        self.state = None
        self.game: str | None = None
        self.selected = 0
        self.inner: Controller | None = None

    @property
    def options(self) -> tuple[tuple[str, str], ...]:
        if self.game is None:
            return (*GAMES, (LANGUAGE, "choice.language"))
        return {"arcana": VARIANTS, "enroll": ENROLL}[self.game]

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply | None:
        """Enrollment takes tags as they are; everything else goes through the registry."""
        return None if self.inner is None else self.inner.raw_tap(pad, uid, written_id)

    def tap(self, pad: str, card: str) -> Reply:
        if self.inner is not None:
            return self._with_language(self.inner.tap(pad, card))
        return Refuse(language.text("choice.choose_first"), self.status_role)

    def press(self, button: str, held: bool) -> Reply:
        if self.inner is not None:
            return self._with_language(self.inner.press(button, held))
        if button == "select" and held and self.game is None:
            return PairPhone()
        if button == "select":
            self.selected = (self.selected + 1) % len(self.options)
        elif button == "ok":
            choice = self.options[self.selected][0]
            if choice == LANGUAGE:
                codes = language.codes()
                self.language = codes[(codes.index(self.language) + 1) % len(codes)]
            elif self.game is None and choice in ("arcana", "enroll"):
                self.game, self.selected = choice, 0
            elif self.game is None:
                self.inner = self._setup_for(choice, None)
            else:
                self.inner = self._setup_for(self.game, choice)
        return Ask()

    def _with_language(self, reply: Reply) -> Reply:
        """A game that begins carries the language chosen (kept in its journalled setup)."""
        if isinstance(reply, Begin):
            return Begin(reply.game, {**reply.setup, "language": self.language})
        return reply

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
        with language.using(self.language) as chosen:
            title = language.text(TITLES[self.game])
            labels = tuple(language.text(key, name=chosen.name) for _, key in self.options)
        return {self.status_role: ChoiceScreen(title, labels, self.selected)}
