"""What a screen or a player may see of a state (others' hands and all decks are secret [2]),
and the replay result of the record spec with its ranking [11]."""

from __future__ import annotations

from typing import Any

from engine.resarcana.cards import MAGES, MONUMENTS
from engine.resarcana.rules import ranking
from engine.resarcana.state import INDEX, USED, Position, State


def result(state: State) -> dict[str, Any]:
    """The replay result object of `../shared/spec/records.md`, field for field."""
    state = Position(state)
    out: dict[str, Any] = {"game": "res-arcana", "round": state.round, "finished": state.finished}
    if state.finished:
        out["winners"] = [state.deal.names[q] for q in winners(state.state)]
    out["players"] = [
        {
            "name": state.deal.names[q],
            "vp": state.vp(q),
            "essences": state.essences(q).as_dict(),
            "hand": state.hand(q),
            "hand_size": state.hand_size(q),
            "deck": state.deck_size(q),
            "tableau": state.tableau(q),
        }
        for q in range(state.players)
    ]
    return out


def ranks(state: State) -> tuple[int, ...]:
    """Rank per seat by VP, 1 = first; equal VP share the rank (shared victory)."""
    look = Position(state)
    return ranking(tuple(look.vp(q) for q in range(look.players)))


def winners(state: State) -> list[int]:
    """Seats with the most VP (all of them share the victory)."""
    return [q for q, rank in enumerate(ranks(state)) if rank == 1]


def view(state: State, player: int | None) -> dict[str, Any]:
    """The state as `player` sees it (None: the table, everyone's public information).

    Hands of other players and every deck are hidden: only their sizes show. A player sees
    their own hand.
    """
    state = Position(state)
    deal = state.deal
    face_up = state.monuments_face_up()
    hidden_monuments = len(MONUMENTS) - state.monuments_bought()
    hidden_monuments -= face_up if isinstance(face_up, int) else len(face_up)
    out: dict[str, Any] = {
        "game": "res-arcana",
        "viewer": player,
        "round": state.round,
        "finished": state.finished,
        "current": None if state.finished else state.current,
        "start_player": state.start_player,
        "first_passer": state.first_passer,
        "hands_known": deal.hands_known,
        "places": state.places_available(),
        "monuments": face_up,
        "monuments_hidden": hidden_monuments,
        "discarded": state.discarded(),
    }
    if state.finished:
        out["winners"] = winners(state.state)
        out["ranks"] = list(ranks(state.state))
    used = state[USED]
    out["players"] = []
    for q in range(state.players):
        seat = {
            "seat": q,
            "name": deal.names[q],
            "mage": MAGES[deal.mages[q]].id,
            "vp": state.vp(q),
            "tokens": state.tokens(q),
            "essences": state.essences(q).as_dict(),
            "tableau": state.tableau(q),
            "used": [c for c in state.tableau(q) if used >> INDEX[c] & 1],
            "passed": state.has_passed(q),
            "hand_size": state.hand_size(q),
            "deck": state.deck_size(q),
        }
        if q == player:
            seat["hand"] = state.hand(q)
        out["players"].append(seat)
    return out
