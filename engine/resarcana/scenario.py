"""Set up particular situations: explicit deals, adjusted states, whole rounds of passing.

For tests, tutorials and demos that need "Ann has Seer's Orb and 3 calm" without playing
there first:

    state = RULES.setup(deal(hands=[["seer_orb", "brazier", "trade_ring"]]))
    state = adjust(state, 0, essences={"calm": 3}, tableau=["seer_orb"])
    state, events = take(state, 0, "activate", "seer_orb")
"""

from __future__ import annotations

import random
from typing import Any

from engine.protocol import event_to_json, play
from engine.resarcana import RULES
from engine.resarcana.actions import Action
from engine.resarcana.cards import ARTIFACTS, MONUMENTS
from engine.resarcana.playout import random_playout
from engine.resarcana.setup import from_record
from engine.resarcana.snapshot import state_from_json, state_to_json
from engine.resarcana.state import Position, State

MAGE_ORDER = ("fire_mage", "shadow_priest", "forest_healer", "master_of_calm")


def deal(
    hands: list[list[str]] | None = None,
    decks: list[list[str]] | None = None,
    *,
    players: tuple[str, ...] = ("Ann", "Ben"),
    mages: tuple[str, ...] = MAGE_ORDER,
    start: int = 0,
    monuments: list[str] | None = None,
) -> dict[str, Any]:
    """An explicit record setup. Hands and decks not given (from the last seat given on) are
    filled with artifacts nobody holds, in rules order; monuments default to 1..6."""
    n = len(players)
    given = {c for cards in (hands or []) + (decks or []) for c in cards}
    spare = iter(a.id for a in ARTIFACTS if a.id not in given)
    hands = [list(h) for h in hands or []]
    decks = [list(d) for d in decks or []]
    hands += [[next(spare) for _ in range(3)] for _ in range(n - len(hands))]
    decks += [[next(spare) for _ in range(3)] for _ in range(n - len(decks))]
    return {
        "players": list(players),
        "start_player": start,
        "mages": list(mages[:n]),
        "hands": hands,
        "decks": decks,
        "monuments": list(monuments or [m.id for m in MONUMENTS]),
    }


def setup_state(setup: dict[str, Any]) -> State:
    """The first state of a setup (RecordError when the setup does not fit)."""
    return from_record(setup)


def adjust(state: State, seat: int | None = None, **changes: Any) -> State:
    """The state with fields of `state_to_json` replaced: a seat's when `seat` is given
    (essences given are set, the other kinds become 0), otherwise global ones."""
    data = state_to_json(state)
    target = data if seat is None else data["seats"][seat]
    for key, value in changes.items():
        if key not in target:
            raise KeyError(f"no field {key!r} to adjust")
        if key == "essences":
            value = {**dict.fromkeys(target["essences"], 0), **value}
        target[key] = value
    return state_from_json(data)


def take(
    state: State, player: int, kind: str, card: str | None = None, gain: str | None = None
) -> tuple[State, list[dict[str, Any]]]:
    """Apply an action that must be legal (IllegalAction otherwise): new state, events as JSON."""
    done = play(RULES, state, Action(player, kind, card, gain))
    return done.state, [event_to_json(e) for e in done.events]


def everyone_passes(state: State) -> tuple[State, list[dict[str, Any]]]:
    """Every seat still in the round passes in turn: the state after the round, all events."""
    events: list[dict[str, Any]] = []
    look = Position(state)
    round_ = look.round
    while look.round == round_ and not look.finished:
        state, more = take(state, look.current, "pass")
        events += more
        look = Position(state)
    return state, events


def finished_game(seed: int, players: int) -> dict[str, Any]:
    """The random playout (`random_playout`) of the first seed from `seed` on whose game
    reached its end: a few random games stall, with nobody able to reach 10 VP."""
    while True:
        game = random_playout(random.Random(seed), players)
        if game["finished"]:
            return game
        seed += 1
