"""Record lines <-> actions (`../shared/spec/records.md`, Arcana actions).

    decode_action({"player": 0, "action": "agent", "card": "blades_agent_3", "stake": 2})
    -> Action(kind="agent", player=0, card="blades_agent_3", stake=2)

Decoding checks only the shape of a line; whether it is legal is `apply`'s answer.
"""

from __future__ import annotations

from typing import Any

from engine.arcana.state import Action
from engine.records import RecordError, shown

# action -> does it name a stake
SHAPES = {
    "agent": True,
    "bribe": True,
    "location": False,
    "discard": False,
    "militia": True,
    "stash": False,
    "reveal": True,
}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def decode_action(line: dict[str, Any]) -> Action:
    """The Action of a record line; RecordError when the line does not fit the format."""
    kind = line.get("action")
    if not isinstance(kind, str) or kind not in SHAPES:
        known = ", ".join(SHAPES)
        raise RecordError(f"unknown action {shown(kind)} (Arcana actions: {known})")
    a_line = f'{"an" if kind[:1] in "aeiou" else "a"} "{kind}" line'
    card = line.get("card")
    if not isinstance(card, str) or not card:
        raise RecordError(f'{a_line} needs "card": a card id')
    player = None
    if kind != "reveal":
        player = line.get("player")
        if not _whole(player):
            raise RecordError(f'{a_line} needs "player": a seat number')
    stake = None
    if SHAPES[kind]:
        stake = line.get("stake")
        if not _whole(stake):
            raise RecordError(f'{a_line} needs "stake": a stake number')
    params: tuple[tuple[str, int | str], ...] = ()
    if kind == "location":
        raw = line.get("params", {})
        if not isinstance(raw, dict) or not all(
            _whole(v) or isinstance(v, str) for v in raw.values()
        ):
            raise RecordError('"params" must be an object of stake numbers and card ids')
        params = tuple(sorted(raw.items()))
    return Action(kind, player, card, stake, params)


def encode_action(action: Action) -> dict[str, Any]:
    """The record line of an action, keys in the spec's order."""
    line: dict[str, Any] = {}
    if action.player is not None:
        line["player"] = action.player
    line["action"] = action.kind
    if action.kind == "reveal":
        line["stake"] = action.stake
        line["card"] = action.card
        return line
    line["card"] = action.card
    if action.stake is not None:
        line["stake"] = action.stake
    if action.params:
        line["params"] = dict(action.params)
    return line
