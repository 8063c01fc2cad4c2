"""Enrollment at the table, without a keyboard: the status screen names the next card, a
tap binds the tag to it. Select skips a card; a tag bound to another card asks first
(OK: re-bind, Select: keep)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from firmware.controllers.base import Ask, Bind, Controller, Reply
from firmware.language import text as tr
from firmware.screens import ChoiceScreen, PromptScreen, Screen


class EnrollController(Controller):
    """Bind tags to one catalog's cards, in catalog order, skipping cards already bound."""

    def __init__(
        self,
        catalog: str,
        cards: Sequence[str],
        name: Callable[[str], str],
        bindings: dict[str, str],
        status_role: str = "status",
    ) -> None:
        self.state = None
        self.catalog = catalog
        self.cards = tuple(cards)  # in catalog order
        self.name = name  # a card's name in the language of the screens
        self.bindings = bindings  # the table's uid -> card (shared, kept up to date)
        self.status_role = status_role
        bound = set(bindings.values())
        self.queue = [card for card in cards if card not in bound]
        self.asking: tuple[str, str] | None = None  # (uid, card it is bound to)
        self.binding: tuple[str, str] | None = None  # (uid, card) until the journal has it

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply:
        if not self.queue:
            return Ask()
        current = self.bindings.get(uid)
        if current is not None and current != self.queue[0]:
            self.asking = (uid, current)
            return Ask()
        return self._bind(uid)

    def _bind(self, uid: str) -> Reply:
        self.binding = (uid, self.queue[0])  # taken only once the journal has kept it
        self.asking = None
        return Bind(uid, self.queue[0], self.catalog)

    def tap(self, pad: str, card: str) -> Reply:  # taps arrive raw in this mode
        return Ask()

    def press(self, button: str, held: bool) -> Reply:
        if self.asking is not None:
            uid, _ = self.asking
            self.asking = None
            return self._bind(uid) if button == "ok" else Ask()
        if button == "select" and self.queue:
            self.queue.append(self.queue.pop(0))  # skip: it comes round again at the end
        return Ask()

    def accepted(self, events: tuple[Any, ...]) -> None:
        """The binding asked for last is saved: the next card's turn."""
        if self.binding is not None:
            uid, card = self.binding
            self.queue.remove(card)
            self.bindings[uid] = card
            self.binding = None

    def reset_prompt(self) -> None:
        self.asking = None
        self.binding = None

    def is_over(self) -> bool:
        return False

    def screens(self) -> dict[str, Screen]:
        if self.asking is not None:
            _, current = self.asking
            screen: Any = ChoiceScreen(
                tr("enroll.tag_is", card=self.name(current)),
                (tr("enroll.rebind", card=self.name(self.queue[0])), tr("enroll.keep")),
                0,
                tr("enroll.hint"),
            )
        elif not self.queue:
            screen = PromptScreen(tr("enroll.all_done"), title=tr("enroll.done_title"))
        else:
            left = len(self.queue)
            screen = PromptScreen(
                tr("enroll.tap", card=self.name(self.queue[0])),
                title=tr("enroll.title", left=left),
            )
        return {self.status_role: screen}
