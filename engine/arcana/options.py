"""Every legal action of a position, in a stable order (what `apply` accepts, and only that)."""

from __future__ import annotations

from engine.arcana.catalog import Card
from engine.arcana.rounds import GAME_END_DEPTH
from engine.arcana.state import Action, State


def legal_actions(state: State) -> list[Action]:
    """Every legal action, in a stable order: the awaited reveal, militia or turn, then stashes."""
    if state.phase == "over":
        return []
    stashes = [
        Action("stash", p, card) for p in range(state.players) for card in state.stashable[p]
    ]
    with_market = [i for i, stake in enumerate(state.stakes) if stake.market is not None]
    if state.reveals:
        return _reveal_options(state) + stashes
    if state.militia_due is not None:
        p = state.militia_due
        return [Action("militia", p, m, s) for m in state.militia_deck for s in with_market]
    p = state.turn
    assert p is not None
    cards = state.catalog.cards
    actions: list[Action] = []
    for card_id in state.ready[p]:
        card = cards[card_id]
        if card.kind == "agent":
            actions.extend(Action("agent", p, card_id, s) for s in with_market)
        elif card.kind == "relic":
            actions.extend(Action("bribe", p, card_id, s) for s in _bribable(state, p))
        elif card.kind == "location":
            actions.extend(_location_options(state, p, card, with_market))
        actions.append(Action("discard", p, card_id))
    return actions + stashes


def _bribable(state: State, player: int) -> list[int]:
    cards = state.catalog.cards
    return [
        i
        for i, stake in enumerate(state.stakes)
        if stake.market is not None
        and cards[stake.market].kind == "agent"
        and any(cards[c].kind != "militia" for c, _ in stake.agents[player])
    ]


def _location_options(
    state: State, player: int, card: Card, with_market: list[int]
) -> list[Action]:
    if card.effect == "swap_stakes":
        return [
            Action("location", player, card.id, None, (("a", a), ("b", b)))
            for a in with_market
            for b in with_market
            if a != b
        ]
    if card.effect == "move_agent":
        cards = state.catalog.cards
        return [
            Action("location", player, card.id, None, (("card", agent), ("to", to)))
            for origin, stake in enumerate(state.stakes)
            for agent, _ in stake.agents[player]
            if cards[agent].kind != "militia"
            for to in with_market
            if to != origin
        ]
    return [Action("location", player, card.id)]


def _reveal_options(state: State) -> list[Action]:
    stake = state.reveals[0]
    left = state.stakes[stake].pile
    free = stake == state.free_stake and not state.game_end_revealed
    end = [Action("reveal", None, state.catalog.game_end, stake)]
    if free and left == 1:
        return end
    options = [
        Action("reveal", None, c, stake) for c in state.catalog.market if c not in state.seen
    ]
    return options + end if free and left <= GAME_END_DEPTH else options
