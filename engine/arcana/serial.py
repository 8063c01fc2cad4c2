"""A whole position as plain JSON data and back (for the journal and the simulator)."""

from __future__ import annotations

from typing import Any

from engine.arcana.catalog import load_catalog
from engine.arcana.state import Stake, State

_GROUPS = ("possession", "ready", "under_base", "tasks", "stashable")
_PLAIN = (
    "variant",
    "round",
    "start_player",
    "turn",
    "phase",
    "acted",
    "militia_due",
    "ending",
    "game_end_revealed",
)


def state_to_json(state: State) -> dict[str, Any]:
    """Plain data of a state; the catalog is kept as its shipped name or its object."""
    data: dict[str, Any] = {"catalog": state.catalog.source}
    data["names"] = list(state.names)
    data["guilds"] = list(state.guilds)
    data.update({key: getattr(state, key) for key in _PLAIN})
    data.update({key: [list(cards) for cards in getattr(state, key)] for key in _GROUPS})
    data["hand"] = list(state.hand)
    data["stakes"] = [
        {
            "market": stake.market,
            "pile": stake.pile,
            "agents": [[[card, down] for card, down in side] for side in stake.agents],
        }
        for stake in state.stakes
    ]
    data["militia_deck"] = list(state.militia_deck)
    data["reveals"] = list(state.reveals)
    data["seen"] = sorted(state.seen)
    return data


def state_from_json(data: dict[str, Any]) -> State:
    """The State of `state_to_json` data."""
    groups = {key: tuple(tuple(cards) for cards in data[key]) for key in _GROUPS}
    return State(
        catalog=load_catalog(data["catalog"]),
        names=tuple(data["names"]),
        guilds=tuple(data["guilds"]),
        hand=tuple(data["hand"]),
        stakes=tuple(
            Stake(
                s["market"],
                s["pile"],
                tuple(tuple((card, bool(down)) for card, down in side) for side in s["agents"]),
            )
            for s in data["stakes"]
        ),
        militia_deck=tuple(data["militia_deck"]),
        reveals=tuple(data["reveals"]),
        seen=frozenset(data["seen"]),
        **{key: data[key] for key in _PLAIN},
        **groups,
    )
