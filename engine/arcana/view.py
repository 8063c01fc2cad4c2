"""What the table and each player may see, and what the game is waiting for.

view(state, None)   # the public table: face-down agents only as counts
view(state, 1)      # player 1's view: their own face-down agents and tasks too
pending(state)      # Pending(kind="reveal", stake=2, ...): the companion's next prompt
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.arcana.scoring import card_vp
from engine.arcana.state import State, controllers


@dataclass(frozen=True, slots=True)
class Pending:
    """What the game waits for.

    kind: "turn" (player's action), "reveal" (the next card of `stake`), "militia" (player
    places a militia) or "over". `stash` lists (player, card) that may still go under a base
    before the next player action (optional; the next player action closes the choice).
    """

    kind: str
    player: int | None
    stake: int | None
    stash: tuple[tuple[int, str], ...]
    prompt: str


def pending(state: State) -> Pending:
    """The decision the table is waiting for, with a one-line prompt for a screen."""
    stash = tuple((p, c) for p in range(state.players) for c in state.stashable[p])
    if state.phase == "over":
        return Pending("over", None, None, (), "The game is over")
    if state.reveals:
        stake = state.reveals[0]
        return Pending("reveal", None, stake, stash, f"Reveal the next card on stake {stake + 1}")
    if state.militia_due is not None:
        p = state.militia_due
        return Pending("militia", p, None, stash, f"{_who(state, p)}: place the top militia card")
    assert state.turn is not None
    p = state.turn
    return Pending("turn", p, None, stash, f"{_who(state, p)} to play ({state.hand[p]} in hand)")


def _who(state: State, player: int) -> str:
    """ "Blades (Ann)"; only "Blades" when the player is named after the guild."""
    guild = state.catalog.guilds[state.guilds[player]].name
    return guild if state.names[player] == guild else f"{guild} ({state.names[player]})"


def view(state: State, player: int | None) -> dict[str, Any]:
    """A JSON-able picture of the game for one player (or the public table when None)."""
    catalog = state.catalog
    waiting = pending(state)
    stakes = []
    for i, stake in enumerate(state.stakes):
        sides = []
        for p, side in enumerate(stake.agents):
            shown = sorted(c for c, down in side if not down)
            hidden = sorted(c for c, down in side if down)
            guild = catalog.guilds[state.guilds[p]].name
            entry: dict[str, Any] = {
                "player": p,
                "shown": shown,
                "hidden": hidden if p == player else len(hidden),
                "summary": f"{guild}: {len(shown)} shown + {len(hidden)} hidden",
            }
            sides.append(entry)
        market = stake.market
        stakes.append(
            {
                "stake": i,
                "market": market,
                "market_name": catalog.card_name(market) if market else None,
                "pile": stake.pile,
                "free_trade": i == state.free_stake,
                "controlled_by": list(controllers(state.players, i)),
                "agents": sides,
            }
        )
    players = []
    for p in range(state.players):
        own = p == player
        entry = {
            "name": state.names[p],
            "guild": state.guilds[p],
            "hand": state.hand[p],
            "possession": list(state.possession[p]) if own else len(state.possession[p]),
            "under_base": list(state.under_base[p]),
            "tasks": list(state.tasks[p]) if own else len(state.tasks[p]),
        }
        if own:
            entry["ready"] = list(state.ready[p])
            entry["vp"] = card_vp(state, p)
        players.append(entry)
    return {
        "game": "arcana",
        "variant": state.variant,
        "round": state.round,
        "start_player": state.start_player,
        "finished": state.phase == "over",
        "pending": {
            "kind": waiting.kind,
            "player": waiting.player,
            "stake": waiting.stake,
            "stash": [list(item) for item in waiting.stash],
            "prompt": waiting.prompt,
        },
        "stakes": stakes,
        "players": players,
        "militia_deck": len(state.militia_deck),
    }
