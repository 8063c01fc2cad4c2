"""Refusals and the small checks every action shares (a refusal names what is wrong)."""

from __future__ import annotations

from engine.arcana.catalog import Card
from engine.arcana.state import Draft, State
from engine.protocol import UNKNOWN_CARD, UNKNOWN_PLAYER, EngineError


class Refused(EngineError):
    """Raised inside `apply` when an action is not allowed; becomes a Rejection."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def guild_name(draft: Draft | State, player: int) -> str:
    return draft.catalog.guilds[draft.guilds[player]].name


def check_player(draft: Draft, player: int | None) -> int:
    if player is None or not 0 <= player < draft.players:
        last = draft.players - 1
        sentence = f"There is no player {player} (players 0 to {last} in a record)"
        raise Refused(UNKNOWN_PLAYER, sentence)
    return player


def check_stake(draft: Draft, stake: int | None, needs_market: bool = True) -> int:
    count = len(draft.markets)
    if stake is None or not 0 <= stake < count:
        # people count stakes from 1; records and actions from 0
        asked = "no stake given" if stake is None else f"there is no stake {stake + 1}"
        raise Refused("unknown_stake", f"{asked.capitalize()} (stakes 1 to {count})")
    if needs_market and draft.markets[stake] is None:
        raise Refused("empty_stake", f"Stake {stake + 1} shows no market card")
    return stake


def card_of(draft: Draft, card: str) -> Card:
    found = draft.catalog.cards.get(card)
    if found is None:
        raise Refused(UNKNOWN_CARD, f'There is no card "{card}" in the catalog')
    return found


def next_with_cards(draft: Draft, first: int) -> int | None:
    for step in range(draft.players):
        seat = (first + step) % draft.players
        if draft.hand[seat] > 0:
            return seat
    return None
