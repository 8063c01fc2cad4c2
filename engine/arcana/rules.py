"""Applying actions (house rules [5], [8], [9], [10]); what follows by itself is in `rounds`,
the list of legal actions in `options`.

`apply` works on a `Table` copy; any refusal raises `Refused` before the copy is frozen, so a
rejected action leaves the caller's state untouched.
"""

from __future__ import annotations

from engine.arcana import struggle
from engine.arcana.catalog import Card
from engine.arcana.checks import (
    Refused,
    card_of,
    check_player,
    check_stake,
    guild_name,
    next_with_cards,
)
from engine.arcana.events import (
    AgentMoved,
    AgentPlaced,
    CardDiscarded,
    LocationPlayed,
    MilitiaPlaced,
    StakesSwapped,
)
from engine.arcana.options import legal_actions
from engine.arcana.rounds import reveal, settle, stash
from engine.arcana.state import Action, State, Table, controllers
from engine.protocol import (
    BAD_PARAMS,
    GAME_OVER,
    NOT_YOUR_TURN,
    UNKNOWN_ACTION,
    WRONG_KIND,
    Applied,
    Rejection,
)

__all__ = ["Refused", "apply", "legal_actions"]

PLAYER_ACTIONS = ("agent", "location", "bribe", "discard", "militia")


def apply(state: State, action: Action) -> Applied[State] | Rejection:
    """The next state and its events, or a Rejection (the state is left as it was)."""
    try:
        table, events = _apply(state, action)
    except Refused as refusal:
        return Rejection(refusal.code, refusal.message)
    return Applied(table.freeze(), tuple(events))


def _apply(state: State, action: Action) -> tuple[Table, list]:
    if state.phase == "over":
        raise Refused(GAME_OVER, "The game is over")
    table = Table(state)
    events: list = []
    if action.kind == "reveal":
        reveal(table, action, events)
    elif action.kind == "stash":
        stash(table, action, events)
    elif action.kind in PLAYER_ACTIONS:
        _player_action(table, action, events)
    else:
        raise Refused(UNKNOWN_ACTION, f'unknown action "{action.kind}"')
    settle(table, events)
    return table, events


def _player_action(table: Table, action: Action, events: list) -> None:
    player = check_player(table, action.player)
    if table.reveals:
        raise Refused(
            "awaiting_reveal", f"Reveal the next card on stake {table.reveals[0] + 1} first"
        )
    if table.militia_due is not None:
        if action.kind != "militia" or player != table.militia_due:
            name = guild_name(table, table.militia_due)
            raise Refused("awaiting_militia", f"{name} places a militia first")
        _militia(table, player, action, events)
        _pass_turn(table, player)
        return
    if action.kind == "militia":
        if table.variant != "advanced":
            raise Refused("advanced_only", "Militia belongs to the advanced game")
        raise Refused("no_militia", "A militia comes only right after a relic is discarded")
    if player != table.turn:
        assert table.turn is not None
        raise Refused(NOT_YOUR_TURN, f"{guild_name(table, table.turn)} to play")
    if action.kind == "agent":
        _agent(table, player, action, events)
    elif action.kind == "location":
        _location(table, player, action, events)
    elif action.kind == "bribe":
        _bribe(table, player, action, events)
    else:
        _discard(table, player, action, events)
    if table.militia_due is None:
        _pass_turn(table, player)


def _from_hand(table: Table, player: int, card_id: str, kind: str | None) -> Card:
    """Check that the player may play this card now (rule [5]) and take it from hand."""
    card = card_of(table, card_id)
    if kind is not None and card.kind != kind:
        raise Refused(WRONG_KIND, f"{card.name} is a {card.kind}, not a {kind}")
    if card_id not in table.possession[player]:
        for i, side in enumerate(table.agents):
            if card_id in side[player]:
                raise Refused("already_on_stake", f"That agent is already on stake {i + 1}")
        raise Refused("not_in_possession", f"{card.name} is not in your possession")
    if card_id not in table.ready[player]:
        raise Refused(
            "not_ready",
            f"{card.name} was played or came back this round; it can be played next round",
        )
    table.ready[player].discard(card_id)
    table.hand[player] -= 1
    table.acted = True
    table.close_stash()
    return card


def _agent(table: Table, player: int, action: Action, events: list) -> None:
    stake = check_stake(table, action.stake)
    _from_hand(table, player, action.card, "agent")
    _place(table, player, action.card, stake)
    face_down = table.agents[stake][player][action.card]
    events.append(AgentPlaced(player, action.card, stake, face_down))


def _place(table: Table, player: int, card: str, stake: int) -> None:
    """Put an agent at a stake, face down where its player controls the stake (rule [5])."""
    table.possession[player].discard(card)
    table.agents[stake][player][card] = player in controllers(table.players, stake)


def _location(table: Table, player: int, action: Action, events: list) -> None:
    card = _from_hand(table, player, action.card, "location")
    params = dict(action.params)
    effect = card.effect or "none"
    expected = {"none": set(), "swap_stakes": {"a", "b"}, "move_agent": {"card", "to"}}[effect]
    if set(params) != expected:
        wanted = ", ".join(sorted(expected)) or "no parameters"
        raise Refused(BAD_PARAMS, f"{card.name} ({effect}) takes {wanted}")
    events.append(LocationPlayed(player, card.id, effect, params))
    if effect == "swap_stakes":
        a, b = (_int_param(params, key) for key in ("a", "b"))
        check_stake(table, a)
        check_stake(table, b)
        if a == b:
            raise Refused(BAD_PARAMS, "Swapping needs two different stakes")
        table.markets[a], table.markets[b] = table.markets[b], table.markets[a]
        events.append(StakesSwapped(a, b, table.markets[a] or "", table.markets[b] or ""))
    elif effect == "move_agent":
        moved = params["card"]
        to = check_stake(table, _int_param(params, "to"))
        origin = _own_agent_stake(table, player, moved)
        if origin == to:
            raise Refused(BAD_PARAMS, f"That agent is already on stake {to + 1}")
        del table.agents[origin][player][moved]
        _place(table, player, str(moved), to)
        face_down = table.agents[to][player][moved]
        events.append(AgentMoved(player, str(moved), origin, to, face_down))


def _int_param(params: dict, key: str) -> int:
    value = params[key]
    if not isinstance(value, int):
        raise Refused(BAD_PARAMS, f'parameter "{key}" must be a stake number')
    return value


def _own_agent_stake(table: Table, player: int, card: object) -> int:
    for i, side in enumerate(table.agents):
        if card in side[player] and table.catalog.cards[str(card)].kind != "militia":
            return i
    raise Refused(BAD_PARAMS, f"{card} is not one of your agents on a stake")


def _bribe(table: Table, player: int, action: Action, events: list) -> None:
    stake = check_stake(table, action.stake)
    card_of(table, action.card)
    market = table.catalog.cards[table.markets[stake] or ""]
    if market.kind != "agent":
        raise Refused(
            "not_bribable", f"Only agents can be bribed; stake {stake + 1} shows a {market.kind}"
        )
    own = [c for c in table.agents[stake][player] if table.catalog.cards[c].kind != "militia"]
    if not own:
        raise Refused("no_agent_here", "Bribe needs one of your agents here")
    _from_hand(table, player, action.card, "relic")
    table.possession[player].discard(action.card)
    events.append(struggle.bribe(table, player, action.card, stake))


def _discard(table: Table, player: int, action: Action, events: list) -> None:
    card = _from_hand(table, player, action.card, None)
    militia = (
        table.variant == "advanced"
        and card.kind == "relic"
        and bool(table.militia_deck)
        and any(m is not None for m in table.markets)
    )
    if militia:
        table.militia_due = player
    events.append(CardDiscarded(player, card.id, militia))


def _militia(table: Table, player: int, action: Action, events: list) -> None:
    stake = check_stake(table, action.stake)
    if action.card not in table.militia_deck:
        raise Refused("not_in_militia_deck", f"{action.card} is not in the militia deck")
    table.militia_deck.discard(action.card)
    table.agents[stake][player][action.card] = False
    table.militia_due = None
    table.acted = True
    events.append(MilitiaPlaced(player, action.card, stake))


def _pass_turn(table: Table, player: int) -> None:
    table.turn = next_with_cards(table, player + 1)
