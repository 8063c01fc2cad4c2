"""Arcana: power struggles over market cards in Cadwallon (`../shared/rules/`).

    from engine.arcana import RULES
    state = RULES.setup(random_setup(random.Random(1), 2))
    outcome = RULES.apply(state, RULES.legal_actions(state)[0])

`RULES` implements `engine.protocol.Rules`; `pending(state)` says what the table waits for
(whose turn, which reveal, which militia placement, which optional stash) and `view(state, p)`
is what player p (or the public table, p None) may see; `engine.arcana.secrets` says what
they may not (`public_result`, `public_record`).
"""

from __future__ import annotations

from typing import Any

from engine.arcana import rules as _rules
from engine.arcana.actions import decode_action, encode_action
from engine.arcana.catalog import ARCANA, KINDS, Card, Catalog, CatalogError, Guild, load_catalog
from engine.arcana.playout import random_playout, sensible_action
from engine.arcana.scoring import result
from engine.arcana.secrets import (
    PublicReplay,
    hidden_cards,
    laid_face_down,
    public_record,
    public_records,
    public_result,
)
from engine.arcana.serial import state_from_json, state_to_json
from engine.arcana.setup import deal_piles, initial_state, random_setup
from engine.arcana.state import Action, State
from engine.arcana.view import Pending, pending, view
from engine.protocol import Applied, Rejection


class ArcanaRules:
    """The Arcana engine behind `engine.protocol.Rules` (record game name "arcana")."""

    name = "arcana"

    def setup(self, setup: dict[str, Any]) -> State:
        """The first state of a record's setup (RecordError names what is wrong)."""
        return initial_state(setup)

    def decode_action(self, line: dict[str, Any]) -> Action:
        return decode_action(line)

    def encode_action(self, action: Action) -> dict[str, Any]:
        return encode_action(action)

    def apply(self, state: State, action: Action) -> Applied[State] | Rejection:
        return _rules.apply(state, action)

    def legal_actions(self, state: State) -> list[Action]:
        return _rules.legal_actions(state)

    def is_terminal(self, state: State) -> bool:
        return is_terminal(state)

    def result(self, state: State) -> dict[str, Any]:
        return result(state)


def is_terminal(state: State) -> bool:
    """True once the game is over (scored)."""
    return state.phase == "over"


RULES = ArcanaRules()


def current_player(state: State) -> int | None:
    """The seat whose decision is awaited (turn or militia), None for a reveal or the end."""
    waiting = pending(state)
    return waiting.player


__all__ = [
    "ARCANA",
    "KINDS",
    "RULES",
    "Action",
    "ArcanaRules",
    "Card",
    "Catalog",
    "CatalogError",
    "Guild",
    "Pending",
    "PublicReplay",
    "State",
    "current_player",
    "deal_piles",
    "decode_action",
    "encode_action",
    "hidden_cards",
    "is_terminal",
    "laid_face_down",
    "load_catalog",
    "pending",
    "public_record",
    "public_records",
    "public_result",
    "random_playout",
    "random_setup",
    "result",
    "sensible_action",
    "state_from_json",
    "state_to_json",
    "view",
]
