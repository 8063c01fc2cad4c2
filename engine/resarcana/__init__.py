"""Res Arcana, the simplified game of `../shared/rules/res-arcana-simplified.md`, in the
numbered sections of `docs/res-arcana-rules.md` ([1]-[12]) that the modules cite.

    from engine.resarcana import RULES
    state = RULES.setup(record_setup)
    outcome = RULES.apply(state, RULES.legal_actions(state)[0])

`RULES` implements `engine.protocol.Rules`; the module also offers random setups and
playouts, views that hide what a player may not see, and states as JSON. Card data (names,
costs, production, powers, VP) is in `engine.resarcana.cards`.
"""

from __future__ import annotations

from engine.resarcana import events
from engine.resarcana.actions import Action
from engine.resarcana.cards import CARDS, Card, catalog, name
from engine.resarcana.game import RULES, ResArcanaRules
from engine.resarcana.playout import random_playout
from engine.resarcana.setup import physical_setup, random_setup
from engine.resarcana.snapshot import state_from_json, state_to_json
from engine.resarcana.state import CURRENT, FINISHED, Position, State, is_terminal
from engine.resarcana.view import ranks, view, winners

__all__ = [
    "CARDS",
    "RULES",
    "Action",
    "Card",
    "Position",
    "ResArcanaRules",
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


def current_player(state: State) -> int | None:
    """The seat to act, or None once the game is over."""
    return None if state[FINISHED] else state[CURRENT]
