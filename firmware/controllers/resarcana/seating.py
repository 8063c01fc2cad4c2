"""Res Arcana's setup at the table: each player taps their mage on their own pad.

Seat i is the table's seat pad i (`games.seats[i]`: the pads the table profile names as
seats 1..4, else the first pads in table order). Seats fill without a gap: a mage on a pad
past the first empty seat is refused. OK starts the game once 2 to 4
seats are taken; a fourth mage starts it at once. The start player is drawn at random (the
rules' way), from `games.rng`, and recorded in the setup. Hands, decks and the monument
stack stay secret: the record setup names only the players (by their mages' printed
names), the mages and the start player.
"""

from __future__ import annotations

from typing import Any

from engine.resarcana import CARDS
from engine.resarcana.state import MAX_PLAYERS
from firmware.controllers.base import Ask, Begin, Controller, Refuse, Reply, Shelf
from firmware.language import res_arcana_name
from firmware.language import text as tr
from firmware.screens import PromptIcon, PromptScreen, Screen

MAX_SEATS = MAX_PLAYERS  # engine.resarcana.state's, the one definition
MIN_SEATS = 2


class ResArcanaSeating(Controller):
    """The setup controller: mages tapped on pads become seats; OK (or a 4th mage) begins."""

    def __init__(self, games: Shelf) -> None:
        self.state = None
        self.rng = games.rng
        self.pads: tuple[str, ...] = tuple(games.seats)[:MAX_SEATS]  # in seat order
        self.status_role: str = games.status_role
        self.mages: dict[int, str] = {}  # seat -> mage id

    def tap(self, pad: str, card: str) -> Reply:
        """A mage on a pad takes (or changes) that pad's seat."""
        if pad not in self.pads:
            return Refuse(tr("res.no_seat", n=len(self.pads)), pad)
        found = CARDS.get(card)
        if found is None or found.kind != "mage":
            return Refuse(tr("res.tap_mage"), pad)
        seat = self.pads.index(pad)
        for other, mage in self.mages.items():
            if mage == card and other != seat:
                return Refuse(tr("res.sits_at", name=res_arcana_name(card), n=other + 1), pad)
        empty = next(s for s in range(len(self.pads) + 1) if s not in self.mages)
        if seat > empty:  # seats fill in pad order: no gaps
            return Refuse(tr("res.seat_empty_first", n=empty + 1), pad)
        self.mages[seat] = card
        if len(self.mages) == MAX_SEATS == len(self.pads):
            return self._begin()
        return Ask()

    def press(self, button: str, held: bool) -> Reply:
        """OK starts the game with the seats taken so far."""
        if button != "ok":
            return Ask()
        if len(self.mages) < MIN_SEATS:
            return Refuse(tr("res.at_least", n=MIN_SEATS), self.status_role)
        return self._begin()  # the seats taken are 1..n: `tap` refuses a gap

    def _begin(self) -> Begin:
        mages = [self.mages[seat] for seat in range(len(self.mages))]
        return Begin("res-arcana", seating_record(mages, self.rng.randrange(len(mages))))

    def accepted(self, events: tuple[Any, ...]) -> None:
        """Nothing is played during setup."""

    def reset_prompt(self) -> None:
        """Undo during setup is handled by the game chooser (it leaves this setup)."""

    def is_over(self) -> bool:
        return False

    def screens(self) -> dict[str, Screen]:
        """The status screen says what to do; each seat's pad shows its mage or asks for one."""
        seated = len(self.mages)
        text = tr("res.each_player") if seated < MIN_SEATS else tr("res.seated_ok", n=seated)
        out: dict[str, Screen] = {self.status_role: PromptScreen(text, title="Res Arcana")}
        for seat, pad in enumerate(self.pads):
            title = tr("seating.seat", n=seat + 1)
            mage = self.mages.get(seat)
            if mage is None:
                out[pad] = PromptScreen(tr("res.tap_your_mage"), title=title)
            else:
                out[pad] = PromptScreen(res_arcana_name(mage), title, PromptIcon.NONE)
        return out


def seating_record(mages: list[str], start_player: int = 0) -> dict[str, Any]:
    """The record setup of a physical game: players named after their mages.

    >>> seating_record(["fire_mage", "shadow_priest"], 1)["players"]
    ['Fire Mage', 'Shadow Priest']
    """
    return {
        "players": [CARDS[mage].name for mage in mages],
        "start_player": start_player,
        "mages": list(mages),
    }
