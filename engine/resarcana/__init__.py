"""Res Arcana, the simplified game of `../shared/rules/res-arcana-simplified.md`.

    from engine.resarcana import RULES
    state = RULES.setup(record_setup)
    outcome = RULES.apply(state, RULES.legal_actions(state)[0])

`RULES` implements `engine.protocol.Rules`; the module also offers random setups and
playouts, views that hide what a player may not see, and states as JSON. Card data (names,
costs, production, powers, VP) is in `engine.resarcana.cards`.
"""

from __future__ import annotations

from typing import Any

from engine.protocol import Applied, Rejection
from engine.resarcana import events
from engine.resarcana.actions import Action, decode, encode
from engine.resarcana.cards import CARDS, Card, catalog, name
from engine.resarcana.playout import random_playout
from engine.resarcana.rules import apply, legal_actions
from engine.resarcana.setup import from_record, physical_setup, random_setup
from engine.resarcana.snapshot import state_from_json, state_to_json
from engine.resarcana.state import CURRENT, FINISHED, Position, State
from engine.resarcana.view import ranks, result, view, winners

__all__ = [
    "CARDS",
    "RULES",
    "Action",
    "Card",
    "Position",
    "State",
    "catalog",
    "current_player",
    "events",
    "is_terminal",
    "name",
    "physical_setup",
    "random_playout",
    "random_setup",
    "ranks",
    "state_from_json",
    "state_to_json",
    "view",
    "winners",
]


class ResArcanaRules:
    """The rules object of `engine.protocol.Rules` for "res-arcana"."""

    name = "res-arcana"

    def setup(self, setup: dict[str, Any]) -> State:
        """The first state of a record's setup object (RecordError when it does not fit)."""
        return from_record(setup)

    def decode_action(self, line: dict[str, Any]) -> Action:
        return decode(line)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return encode(action)

    def apply(self, state: State, action: Action) -> Applied[State] | Rejection:
        return apply(state, action)

    def legal_actions(self, state: State) -> list[Action]:
        return legal_actions(state)

    def result(self, state: State) -> dict[str, Any]:
        return result(state)


RULES = ResArcanaRules()


def is_terminal(state: State) -> bool:
    """True once the round in which someone reached 10 VP has ended."""
    return state[FINISHED]


def current_player(state: State) -> int | None:
    """The seat to act, or None once the game is over."""
    return None if state[FINISHED] else state[CURRENT]
