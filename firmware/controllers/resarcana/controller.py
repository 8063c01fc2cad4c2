"""A Res Arcana game at the table: what a tap on a seat's pad or a button press means.

    Tap a card on your pad:  from hand -> play it; in front of you -> use its power;
                             a place of power or a monument -> buy it.
    OK                    -> pass (the player to act).
    Select, tap a card    -> discard it; Select cycles the gain
                             (1 gold, 2 fire, 2 life, 2 calm, 2 death), OK confirms.

Seat i plays on the table's seat pad i (`games.seats[i]`, see seating.py). Whatever the
engine refuses (out of turn, cannot afford, already used) comes back with the engine's
sentence and changes nothing. Production and the 10-VP check happen inside the engine when
the last player passes; their screens stay up until the next tap or press.
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Rejection
from engine.resarcana import CARDS, RULES, Action, Position, State, events
from firmware.controllers.base import Ask, Controller, Play, Refuse, Reply
from firmware.controllers.resarcana.screens import (
    DISCARD,
    GAIN,
    GAINS,
    IDLE,
    Prompt,
    RoundEnd,
    table_screens,
)
from firmware.language import refusal
from firmware.language import text as tr
from firmware.screens import Screen


class ResArcanaController(Controller):
    """The controller of one Res Arcana game; `state` is the engine state (physical play)."""

    def __init__(self, games: Any, state: State) -> None:
        self.state = state
        self.players = Position(state).players
        self.pads: tuple[str, ...] = tuple(games.seats)[: self.players]  # in seat order
        if len(self.pads) < self.players:
            raise ValueError(
                f"this table has {len(games.seats)} seats; {self.players} players need one each"
            )
        self.status_role: str = games.status_role
        self.mode = IDLE
        self.card: str | None = None  # the card being discarded
        self.gain = 0  # index into GAINS
        self.round_end: RoundEnd | None = None  # shown until the next tap or press

    # -- taps and presses -------------------------------------------------------------------
    def tap(self, pad: str, card: str) -> Reply:
        """A card on a seat's pad: play, use, buy or (after Select) discard it."""
        self.round_end = None
        if pad not in self.pads:
            return Refuse(tr("res.nobody_here"), pad)
        seat = self.pads.index(pad)
        if self.mode != IDLE:
            return self._choose_discard(seat, pad, card)
        return Play(self.meaning(seat, card))

    def meaning(self, seat: int, card: str) -> Action:
        """The action a card tapped on a seat's pad stands for (the engine judges it)."""
        kind = CARDS[card].kind
        if kind in ("artifact", "place", "monument") and card in Position(self.state).tableau(seat):
            return Action(seat, "activate", card)
        if kind == "artifact":
            return Action(seat, "play", card)
        if kind == "mage":
            return Action(seat, "activate", card)  # the engine says a mage has no power
        return Action(seat, "buy", card)

    def _choose_discard(self, seat: int, pad: str, card: str) -> Reply:
        outcome = RULES.apply(self.state, Action(seat, "discard", card, GAINS[0]))
        if isinstance(outcome, Rejection):
            return Refuse(refusal(outcome.code, outcome.message), pad)
        self.mode, self.card, self.gain = GAIN, card, 0
        return Ask()

    def press(self, button: str, held: bool) -> Reply:
        """OK passes (or confirms a discard's gain); Select starts a discard or cycles gains."""
        self.round_end = None
        if RULES.is_terminal(self.state):
            return Refuse(tr("table.game_over"), self.status_role)
        seat = Position(self.state).current
        if button == "pass" or (button == "ok" and self.mode == IDLE):
            return Play(Action(seat, "pass"))
        if button == "select" and self.mode == IDLE:
            self.mode = DISCARD
        elif button == "select" and self.mode == DISCARD:
            self.reset_prompt()  # changed their mind
        elif button == "select":
            self.gain = (self.gain + 1) % len(GAINS)
        elif button == "ok" and self.mode == DISCARD:
            return Refuse(tr("res.discard_or_cancel"), self.pads[seat])
        elif button == "ok":
            assert self.card is not None
            return Play(Action(seat, "discard", self.card, GAINS[self.gain]))
        return Ask()

    # -- what the companion tells us ----------------------------------------------------------
    def accepted(self, happened: tuple[Any, ...]) -> None:
        """An action was applied: drop the prompt; keep a round's end to show it."""
        self.mode, self.card, self.gain = IDLE, None, 0
        ended = next((e.round for e in happened if isinstance(e, events.RoundEnded)), None)
        if ended is None or any(isinstance(e, events.GameEnded) for e in happened):
            return
        produced = {e.player: e.essences for e in happened if isinstance(e, events.Produced)}
        self.round_end = RoundEnd(ended, tuple(produced[q] for q in range(self.players)))

    def reset_prompt(self) -> None:
        """Back to plain play; the screens then follow from the engine state alone."""
        self.mode, self.card, self.gain = IDLE, None, 0
        self.round_end = None

    def is_over(self) -> bool:
        return RULES.is_terminal(self.state)

    def screens(self) -> dict[str, Screen]:
        """Status and seat screens of the state, the prompt and a round's end."""
        prompt = Prompt(self.mode, self.card, GAINS[self.gain] if self.mode == GAIN else None)
        models = table_screens(self.state, prompt, self.round_end)
        roles = (self.status_role, *self.pads)
        return dict(zip(roles, models, strict=True))
