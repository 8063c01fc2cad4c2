"""Applying actions (house rules [5], [8], [9], [10]); what follows by itself is in `rounds`,
the list of legal actions in `options`.

`apply` works on a `Draft` copy; any refusal raises `Refused` before the copy is frozen, so a
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
from engine.arcana.state import Action, Draft, State, controllers
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


def _a(noun: str) -> str:
    """The noun with its article: "an agent", "a relic"."""
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def apply(state: State, action: Action) -> Applied[State] | Rejection:
    """The next state and its events, or a Rejection (the state is left as it was)."""
    try:
        draft, events = _apply(state, action)
    except Refused as refusal:
        return Rejection(refusal.code, refusal.message)
    return Applied(draft.freeze(), tuple(events))


def _apply(state: State, action: Action) -> tuple[Draft, list]:
    if state.phase == "over":
        raise Refused(GAME_OVER, "The game is over")
    draft = Draft(state)
    events: list = []
    if action.kind == "reveal":
        reveal(draft, action, events)
    elif action.kind == "stash":
        stash(draft, action, events)
    elif action.kind in PLAYER_ACTIONS:
        _player_action(draft, action, events)
    else:
        raise Refused(UNKNOWN_ACTION, f'unknown action "{action.kind}"')
    settle(draft, events)
    return draft, events


def _player_action(draft: Draft, action: Action, events: list) -> None:
    player = check_player(draft, action.player)
    if draft.reveals:
        raise Refused(
            "awaiting_reveal", f"Reveal the next card on stake {draft.reveals[0] + 1} first"
        )
    if draft.militia_due is not None:
        if action.kind != "militia" or player != draft.militia_due:
            name = guild_name(draft, draft.militia_due)
            raise Refused("awaiting_militia", f"{name} places a militia first")
        _militia(draft, player, action, events)
        _pass_turn(draft, player)
        return
    if action.kind == "militia":
        if draft.variant != "advanced":
            raise Refused("advanced_only", "Militia belongs to the advanced game")
        raise Refused("no_militia", "A militia comes only right after a relic is discarded")
    if player != draft.turn:
        assert draft.turn is not None
        raise Refused(NOT_YOUR_TURN, f"{guild_name(draft, draft.turn)} to play")
    if action.kind == "agent":
        _agent(draft, player, action, events)
    elif action.kind == "location":
        _location(draft, player, action, events)
    elif action.kind == "bribe":
        _bribe(draft, player, action, events)
    else:
        _discard(draft, player, action, events)
    if draft.militia_due is None:
        _pass_turn(draft, player)


def _from_hand(draft: Draft, player: int, card_id: str, kind: str | None) -> Card:
    """Check that the player may play this card now (rule [5]) and take it from hand."""
    card = card_of(draft, card_id)
    if kind is not None and card.kind != kind:
        raise Refused(WRONG_KIND, f"{card.name} is {_a(card.kind)}, not {_a(kind)}")
    if card_id not in draft.possession[player]:
        for i, side in enumerate(draft.agents):
            if card_id in side[player]:
                raise Refused("already_on_stake", f"That agent is already on stake {i + 1}")
        raise Refused("not_in_possession", f"{card.name} is not in your possession")
    if card_id not in draft.ready[player]:
        raise Refused(
            "not_ready",
            f"{card.name} was played or came back this round; it can be played next round",
        )
    draft.ready[player].discard(card_id)
    draft.hand[player] -= 1
    draft.acted = True
    draft.close_stash()
    return card


def _agent(draft: Draft, player: int, action: Action, events: list) -> None:
    stake = check_stake(draft, action.stake)
    _from_hand(draft, player, action.card, "agent")
    _place(draft, player, action.card, stake)
    face_down = draft.agents[stake][player][action.card]
    events.append(AgentPlaced(player, action.card, stake, face_down))


def _place(draft: Draft, player: int, card: str, stake: int) -> None:
    """Put an agent at a stake, face down where its player controls the stake (rule [5])."""
    draft.possession[player].discard(card)
    draft.agents[stake][player][card] = player in controllers(draft.players, stake)


def _location(draft: Draft, player: int, action: Action, events: list) -> None:
    card = _from_hand(draft, player, action.card, "location")
    params = dict(action.params)
    effect = card.effect or "none"
    expected = {"none": set(), "swap_stakes": {"a", "b"}, "move_agent": {"card", "to"}}[effect]
    if set(params) != expected:
        wanted = ", ".join(sorted(expected)) or "no parameters"
        raise Refused(BAD_PARAMS, f"{card.name} ({effect}) takes {wanted}")
    events.append(LocationPlayed(player, card.id, effect, params))
    if effect == "swap_stakes":
        a, b = (_int_param(params, key) for key in ("a", "b"))
        check_stake(draft, a)
        check_stake(draft, b)
        if a == b:
            raise Refused(BAD_PARAMS, "Swapping needs two different stakes")
        draft.markets[a], draft.markets[b] = draft.markets[b], draft.markets[a]
        events.append(StakesSwapped(a, b, draft.markets[a] or "", draft.markets[b] or ""))
    elif effect == "move_agent":
        moved = params["card"]
        to = check_stake(draft, _int_param(params, "to"))
        origin = _own_agent_stake(draft, player, moved)
        if origin == to:
            raise Refused(BAD_PARAMS, f"That agent is already on stake {to + 1}")
        del draft.agents[origin][player][moved]
        _place(draft, player, str(moved), to)
        face_down = draft.agents[to][player][moved]
        events.append(AgentMoved(player, str(moved), origin, to, face_down))


def _int_param(params: dict, key: str) -> int:
    value = params[key]
    if not isinstance(value, int):
        raise Refused(BAD_PARAMS, f'parameter "{key}" must be a stake number')
    return value


def _own_agent_stake(draft: Draft, player: int, card: object) -> int:
    for i, side in enumerate(draft.agents):
        if card in side[player] and draft.catalog.cards[str(card)].kind != "militia":
            return i
    raise Refused(BAD_PARAMS, f"{card} is not one of your agents on a stake")


def _bribe(draft: Draft, player: int, action: Action, events: list) -> None:
    stake = check_stake(draft, action.stake)
    card_of(draft, action.card)
    market = draft.catalog.cards[draft.markets[stake] or ""]
    if market.kind != "agent":
        raise Refused(
            "not_bribable", f"Only agents can be bribed; stake {stake + 1} shows a {market.kind}"
        )
    own = [c for c in draft.agents[stake][player] if draft.catalog.cards[c].kind != "militia"]
    if not own:
        raise Refused("no_agent_here", "Bribe needs one of your agents here")
    _from_hand(draft, player, action.card, "relic")
    draft.possession[player].discard(action.card)
    events.append(struggle.bribe(draft, player, action.card, stake))


def _discard(draft: Draft, player: int, action: Action, events: list) -> None:
    card = _from_hand(draft, player, action.card, None)
    militia = (
        draft.variant == "advanced"
        and card.kind == "relic"
        and bool(draft.militia_deck)
        and any(m is not None for m in draft.markets)
    )
    if militia:
        draft.militia_due = player
    events.append(CardDiscarded(player, card.id, militia))


def _militia(draft: Draft, player: int, action: Action, events: list) -> None:
    stake = check_stake(draft, action.stake)
    if action.card not in draft.militia_deck:
        raise Refused("not_in_militia_deck", f"{action.card} is not in the militia deck")
    draft.militia_deck.discard(action.card)
    draft.agents[stake][player][action.card] = False
    draft.militia_due = None
    draft.acted = True
    events.append(MilitiaPlaced(player, action.card, stake))


def _pass_turn(draft: Draft, player: int) -> None:
    draft.turn = next_with_cards(draft, player + 1)
