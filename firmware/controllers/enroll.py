"""Enrollment at the table, without a keyboard: the status screen names the next card, a
tap binds the tag to it. Select skips a card; a tag bound to another card asks first
(OK: re-bind, Select: keep)."""

from __future__ import annotations

from typing import Any

from firmware.controllers.base import Ask, Bind, Reply
from firmware.screens import ChoiceScreen, PromptScreen, Screen


class EnrollController:
    """Bind tags to one catalog's cards, in catalog order, skipping cards already bound."""

    def __init__(
        self,
        catalog: str,
        cards: dict[str, str],
        bindings: dict[str, str],
        status_role: str = "status",
    ) -> None:
        self.state = None
        self.catalog = catalog
        self.cards = cards  # id -> name, in catalog order
        self.bindings = bindings  # the table's uid -> card (shared, kept up to date)
        self.status_role = status_role
        bound = set(bindings.values())
        self.queue = [card for card in cards if card not in bound]
        self.asking: tuple[str, str] | None = None  # (uid, card it is bound to)
        self.done = 0

    def raw_tap(self, pad: str, uid: str, written_id: str | None) -> Reply:
        if not self.queue:
            return Ask()
        current = self.bindings.get(uid)
        if current is not None and current != self.queue[0]:
            self.asking = (uid, current)
            return Ask()
        return self._bind(uid)

    def _bind(self, uid: str) -> Reply:
        card = self.queue.pop(0)
        self.bindings[uid] = card
        self.asking = None
        self.done += 1
        return Bind(uid, card, self.catalog)

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
        pass

    def reset_prompt(self) -> None:
        self.asking = None

    def is_over(self) -> bool:
        return False

    def screens(self) -> dict[str, Screen]:
        if self.asking is not None:
            _, current = self.asking
            screen: Any = ChoiceScreen(
                f"Tag is {self.cards.get(current, current)}",
                (f"Re-bind: {self.cards[self.queue[0]]}", "Keep it"),
                0,
                "OK: re-bind  Select: keep",
            )
        elif not self.queue:
            screen = PromptScreen("Every card has a tag", title="Enrolled")
        else:
            left = len(self.queue)
            screen = PromptScreen(
                f"Tap: {self.cards[self.queue[0]]}", title=f"Enroll ({left} left)"
            )
        return {self.status_role: screen}
