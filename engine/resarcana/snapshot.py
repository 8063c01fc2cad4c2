"""A state as plain JSON-able data and back (for the journal, the companion and tests)."""

from __future__ import annotations

from typing import Any

from engine.resarcana.cards import MAGES
from engine.resarcana.essences import KINDS, pack
from engine.resarcana.state import (
    ARTIFACT_BITS,
    BEST,
    BUYABLE,
    CAPPED,
    CURRENT,
    DECK,
    DECK_SIZE,
    FINISHED,
    FIRST,
    HAND,
    HAND_SIZE,
    INDEX,
    MAGE_INDEX,
    ORDER,
    OUT,
    PASSED,
    PRODUCED,
    PRODUCES,
    ROUND,
    SCORE,
    SHIFTS,
    START,
    STOCKS,
    TABLEAU,
    TOKENS,
    USED,
    Deal,
    G,
    Position,
    State,
    W,
    buyable,
    capped_all,
    initial,
    produced_events,
    production,
    vp_of,
)


def state_to_json(state: State) -> dict[str, Any]:
    """Everything in a state, as plain data; `state_from_json` turns it back."""
    state = Position(state)
    deal = state.deal
    monuments = deal.monuments
    return {
        "players": list(deal.names),
        "mages": [MAGES[m].id for m in deal.mages],
        "hands_known": deal.hands_known,
        "monument_order": None if monuments is None else [ORDER[m].id for m in monuments],
        "round": state.round,
        "current": state.current,
        "start_player": state.start_player,
        "first_passer": state.first_passer,
        "passed": [q for q in range(state.players) if state.has_passed(q)],
        "finished": state.finished,
        "used": state.used(),
        "discarded": state.discarded(),
        "seats": [
            {
                "essences": state.essences(q).as_dict(),
                "tokens": state.tokens(q),
                "hand": state.hand(q),
                "hand_size": state.hand_size(q),
                "deck": state.deck(q),
                "deck_size": state.deck_size(q),
                "tableau": state.tableau(q),
            }
            for q in range(state.players)
        ],
    }


def state_from_json(data: dict[str, Any]) -> State:
    """The state `state_to_json` wrote; ValueError (or KeyError) if the data is not one."""
    order = data["monument_order"]
    deal = Deal(
        tuple(data["players"]),
        tuple(MAGE_INDEX[m] for m in data["mages"]),
        bool(data["hands_known"]),
        None if order is None else tuple(INDEX[m] for m in order),
    )
    if len(data["seats"]) != deal.players:
        raise ValueError("one seat per player is needed")
    s = list(initial(deal, data["start_player"], None, None))
    s[ROUND] = _count(data["round"])
    s[CURRENT] = data["current"]
    s[START] = data["start_player"]
    s[FIRST] = -1 if data["first_passer"] is None else data["first_passer"]
    s[PASSED] = sum(1 << q for q in data["passed"])
    s[FINISHED] = bool(data["finished"])
    s[USED] = _mask(data["used"])
    out = _mask(data["discarded"])
    if out & ~ARTIFACT_BITS:
        raise ValueError("only artifacts are discarded")
    stocks = produces = 0
    for q, seat in enumerate(data["seats"]):
        base = G + q * W
        stocks |= pack([_count(seat["essences"][kind]) for kind in KINDS]) << SHIFTS[q]
        s[base + TOKENS] = _count(seat["tokens"])
        s[base + HAND] = _mask(seat["hand"])
        s[base + HAND_SIZE] = _count(seat["hand_size"])
        s[base + DECK] = tuple(INDEX[c] for c in seat["deck"])
        s[base + DECK_SIZE] = _count(seat["deck_size"])
        s[base + TABLEAU] = _mask(seat["tableau"])
        produces |= production(deal.mages[q], s[base + TABLEAU]) << SHIFTS[q]
        out |= s[base + TABLEAU]
    s[OUT] = out
    s[STOCKS], s[CAPPED], s[PRODUCES] = stocks, capped_all(stocks), produces
    s[PRODUCED] = produced_events(produces, deal.players)
    for base in range(G, len(s), W):
        s[base + SCORE] = vp_of(s[base + TABLEAU], s[base + TOKENS])
    s[BEST] = max(s[base + SCORE] for base in range(G, len(s), W))
    s[BUYABLE] = buyable(deal, out)
    for seat in (s[CURRENT], s[START]):
        if not 0 <= seat < deal.players:
            raise ValueError(f"no seat {seat}")
    return tuple(s)


def _mask(card_ids: list[str]) -> int:
    return sum(1 << INDEX[c] for c in set(card_ids))


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"expected a count, not {value!r}")
    return value
