"""Scoring [11] and the replay result object of `../shared/spec/records.md`."""

from __future__ import annotations

from typing import Any

from engine.arcana.state import State


def owned(state: State, player: int) -> list[str]:
    """Every card the player owns wherever it lies: base, possession, under the base, and
    their agents on stakes (militia is nobody's), sorted."""
    catalog = state.catalog
    cards = {catalog.base_of(state.guilds[player])}
    cards.update(state.possession[player])
    cards.update(state.under_base[player])
    for stake in state.stakes:
        cards.update(c for c, _ in stake.agents[player] if catalog.cards[c].kind != "militia")
    return sorted(cards)


def card_vp(state: State, player: int) -> int:
    return sum(state.catalog.cards[card].vp for card in owned(state, player))


def fulfilled_tasks(state: State, player: int) -> tuple[str, ...]:
    """The player's tasks [10] met by the market cards they own now."""
    cards = state.catalog.cards
    fiefs = [cards[c].fief for c in owned(state, player) if cards[c].is_market]
    return tuple(
        t for t in state.tasks[player] if fiefs.count(cards[t].fief) >= (cards[t].count or 0)
    )


def task_vp(state: State, player: int) -> int:
    return sum(state.catalog.cards[t].vp for t in fulfilled_tasks(state, player))


def totals(state: State) -> tuple[int, ...]:
    """Final totals: card VP plus fulfilled tasks."""
    return tuple(card_vp(state, p) + task_vp(state, p) for p in range(state.players))


def winners(state: State) -> tuple[int, ...]:
    scores = totals(state)
    best = max(scores)
    return tuple(p for p, score in enumerate(scores) if score == best)


def result(state: State) -> dict[str, Any]:
    """The replay result: `vp` adds fulfilled tasks only once the game is finished."""
    finished = state.phase == "over"
    out: dict[str, Any] = {"game": "arcana", "round": state.round, "finished": finished}
    if finished:
        out["winners"] = [state.names[p] for p in winners(state)]
    out["stakes"] = [
        {"market": stake.market, "agents": [sorted(c for c, _ in side) for side in stake.agents]}
        for stake in state.stakes
    ]
    out["players"] = [
        {
            "name": state.names[p],
            "guild": state.guilds[p],
            "vp": card_vp(state, p) + (task_vp(state, p) if finished else 0),
            "owned": owned(state, p),
            "under_base": sorted(state.under_base[p]),
        }
        for p in range(state.players)
    ]
    return out
