"""Applying actions (house rules [5]-[10]) and listing the legal ones.

`apply` works on a `Table` copy; any refusal raises `Refused` before the copy is frozen, so a
rejected action leaves the caller's state untouched.
"""

from __future__ import annotations

from engine.arcana import struggle
from engine.arcana.catalog import Card
from engine.arcana.events import (
    AgentMoved,
    AgentPlaced,
    CardDiscarded,
    CardRevealed,
    GameEnded,
    GameEndRevealed,
    LocationPlayed,
    MilitiaPlaced,
    RoundStarted,
    StakesSwapped,
    Stashed,
)
from engine.arcana.scoring import fulfilled_tasks, totals, winners
from engine.arcana.setup import HAND
from engine.arcana.state import Action, State, Table, controllers
from engine.protocol import Applied, Rejection

PLAYER_ACTIONS = ("agent", "location", "bribe", "discard", "militia")
# The game-end card lies among the last 5 cards of the free-trade pile (rule [6]).
GAME_END_DEPTH = 5


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def apply(state: State, action: Action) -> Applied[State] | Rejection:
    """The next state and its events, or a Rejection (the state is left as it was)."""
    try:
        table, events = _apply(state, action)
    except Refused as refusal:
        return Rejection(refusal.code, refusal.message)
    return Applied(table.freeze(), tuple(events))


def _apply(state: State, action: Action) -> tuple[Table, list]:
    if state.phase == "over":
        raise Refused("game_over", "The game is over")
    table = Table(state)
    events: list = []
    if action.kind == "reveal":
        _reveal(table, action, events)
    elif action.kind == "stash":
        _stash(table, action, events)
    elif action.kind in PLAYER_ACTIONS:
        _player_action(table, action, events)
    else:
        raise Refused("unknown_action", f'unknown action "{action.kind}"')
    _settle(table, events)
    return table, events


def guild_name(table: Table | State, player: int) -> str:
    return table.catalog.guilds[table.guilds[player]].name


def _check_player(table: Table, player: int | None) -> int:
    if player is None or not 0 <= player < table.players:
        raise Refused(
            "unknown_player", f"There is no player {player} (seats 0..{table.players - 1})"
        )
    return player


def _check_stake(table: Table, stake: int | None, needs_market: bool = True) -> int:
    count = len(table.markets)
    if stake is None or not 0 <= stake < count:
        raise Refused("unknown_stake", f"There is no stake {stake} (stakes 0..{count - 1})")
    if needs_market and table.markets[stake] is None:
        raise Refused("empty_stake", f"Stake {stake} shows no market card")
    return stake


def _card(table: Table, card: str) -> Card:
    found = table.catalog.cards.get(card)
    if found is None:
        raise Refused("unknown_card", f'There is no card "{card}" in the catalog')
    return found


def _player_action(table: Table, action: Action, events: list) -> None:
    player = _check_player(table, action.player)
    if table.reveals:
        raise Refused("awaiting_reveal", f"Reveal the next card on stake {table.reveals[0]} first")
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
        raise Refused("not_your_turn", f"{guild_name(table, table.turn)} to play")
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
    card = _card(table, card_id)
    if kind is not None and card.kind != kind:
        raise Refused("wrong_kind", f"{card.name} is a {card.kind}, not a {kind}")
    if card_id not in table.possession[player]:
        for i, side in enumerate(table.agents):
            if card_id in side[player]:
                raise Refused("already_on_stake", f"That agent is already on stake {i}")
        raise Refused("not_in_possession", f"{card.name} is not in your possession")
    if card_id not in table.ready[player]:
        raise Refused(
            "not_ready",
            f"{card.name} was played or came back this round; it can be played next round",
        )
    table.ready[player].discard(card_id)
    table.hand[player] -= 1
    table.acted = True
    for cards in table.stashable:
        cards.clear()  # the stash decision ends with the next player action
    return card


def _agent(table: Table, player: int, action: Action, events: list) -> None:
    stake = _check_stake(table, action.stake)
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
        raise Refused("bad_params", f"{card.name} ({effect}) takes {wanted}")
    events.append(LocationPlayed(player, card.id, effect, params))
    if effect == "swap_stakes":
        a, b = (_int_param(params, key) for key in ("a", "b"))
        _check_stake(table, a)
        _check_stake(table, b)
        if a == b:
            raise Refused("bad_params", "Swapping needs two different stakes")
        table.markets[a], table.markets[b] = table.markets[b], table.markets[a]
        events.append(StakesSwapped(a, b, table.markets[a] or "", table.markets[b] or ""))
    elif effect == "move_agent":
        moved = params["card"]
        to = _check_stake(table, _int_param(params, "to"))
        origin = _own_agent_stake(table, player, moved)
        if origin == to:
            raise Refused("bad_params", f"That agent is already on stake {to}")
        del table.agents[origin][player][moved]
        _place(table, player, str(moved), to)
        face_down = table.agents[to][player][moved]
        events.append(AgentMoved(player, str(moved), origin, to, face_down))


def _int_param(params: dict, key: str) -> int:
    value = params[key]
    if not isinstance(value, int):
        raise Refused("bad_params", f'parameter "{key}" must be a stake number')
    return value


def _own_agent_stake(table: Table, player: int, card: object) -> int:
    for i, side in enumerate(table.agents):
        if card in side[player] and table.catalog.cards[str(card)].kind != "militia":
            return i
    raise Refused("bad_params", f"{card} is not one of your agents on a stake")


def _bribe(table: Table, player: int, action: Action, events: list) -> None:
    stake = _check_stake(table, action.stake)
    _card(table, action.card)
    market = table.catalog.cards[table.markets[stake] or ""]
    if market.kind != "agent":
        raise Refused(
            "not_bribable", f"Only agents can be bribed; stake {stake} shows a {market.kind}"
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
    stake = _check_stake(table, action.stake)
    if action.card not in table.militia_deck:
        raise Refused("not_in_militia_deck", f"{action.card} is not in the militia deck")
    table.militia_deck.discard(action.card)
    table.agents[stake][player][action.card] = False
    table.militia_due = None
    table.acted = True
    events.append(MilitiaPlaced(player, action.card, stake))


def _pass_turn(table: Table, player: int) -> None:
    table.turn = _next_with_cards(table, player + 1)


def _next_with_cards(table: Table, first: int) -> int | None:
    for step in range(table.players):
        seat = (first + step) % table.players
        if table.hand[seat] > 0:
            return seat
    return None


def _reveal(table: Table, action: Action, events: list) -> None:
    if not table.reveals:
        raise Refused("no_reveal", "No stake is waiting for a card")
    stake = table.reveals[0]
    if action.stake != stake:
        raise Refused("wrong_stake", f"Reveal the next card on stake {stake} first")
    card = _card(table, action.card)
    free = table.free_stake
    left = table.piles[stake]
    if card.kind == "game_end":
        if stake != free:
            raise Refused(
                "bad_reveal", f"The game-end card lies only in the free-trade pile ({free})"
            )
        if table.game_end_revealed:
            raise Refused("bad_reveal", "The game-end card has already been revealed")
        if left > GAME_END_DEPTH:
            raise Refused(
                "bad_reveal",
                f"The game-end card lies among the last {GAME_END_DEPTH} cards of the "
                f"free-trade pile; {left} cards are left",
            )
    else:
        if not card.is_market:
            raise Refused("bad_reveal", f"{card.name} is not a market card")
        if card.id in table.seen:
            raise Refused("bad_reveal", f"{card.name} has already been revealed")
        if stake == free and left == 1 and not table.game_end_revealed:
            raise Refused("bad_reveal", "The last card of the free-trade pile is the game-end card")
    table.reveals.pop(0)
    table.piles[stake] -= 1
    if card.kind == "game_end":
        table.game_end_revealed = True
        ends_now = table.phase == "evaluated"
        events.append(GameEndRevealed(stake, ends_now))
        if ends_now:
            _finish(table, events, "game_end_card")
        else:
            table.ending = True
        return
    table.markets[stake] = card.id
    table.seen.add(card.id)
    events.append(CardRevealed(stake, card.id, table.piles[stake]))


def _stash(table: Table, action: Action, events: list) -> None:
    if table.variant != "advanced":
        raise Refused("advanced_only", "Putting cards under the base belongs to the advanced game")
    player = _check_player(table, action.player)
    if action.card not in table.stashable[player]:
        raise Refused(
            "not_stashable",
            "Only a card you won since the last player action can go under your base",
        )
    table.stashable[player].discard(action.card)
    table.possession[player].discard(action.card)
    table.under_base[player].add(action.card)
    events.append(Stashed(player, action.card))
    if table.phase == "play" and not table.acted and action.card in table.ready[player]:
        # The round has not really begun: the card never was in the new round's hand.
        table.ready[player].discard(action.card)
        table.hand[player] = min(HAND, len(table.ready[player]))
        if not any(table.hand):
            table.round -= 1
            _finish(table, events, "no_cards")
        elif table.turn == player and table.hand[player] == 0:
            table.turn = _next_with_cards(table, table.start_player)


def _settle(table: Table, events: list) -> None:
    """Run what follows by itself: evaluation at the end of a round, the next round, the end."""
    while table.phase != "over" and not table.reveals and table.militia_due is None:
        if table.phase == "play":
            if any(table.hand):
                return
            table.turn = None
            for stake, market in enumerate(table.markets):
                if market is not None:
                    events.append(struggle.evaluate(table, stake))
            if table.ending:
                _finish(table, events, "game_end_card")
                return
            table.phase = "evaluated"
        else:
            _start_round(table, events)


def _start_round(table: Table, events: list) -> None:
    hands = [min(HAND, len(cards)) for cards in table.possession]
    if not any(hands):
        _finish(table, events, "no_cards")
        return
    table.round += 1
    table.start_player = (table.start_player + 1) % table.players
    table.ready = [set(cards) for cards in table.possession]
    table.hand = hands
    table.acted = False
    table.phase = "play"
    table.turn = _next_with_cards(table, table.start_player)
    events.append(RoundStarted(table.round, table.start_player, tuple(hands)))


def _finish(table: Table, events: list, reason: str) -> None:
    table.phase = "over"
    table.turn = None
    state = table.freeze()
    scores = totals(state)
    tasks = tuple(fulfilled_tasks(state, p) for p in range(state.players))
    card_vp = tuple(
        score - sum(state.catalog.cards[t].vp for t in done)
        for score, done in zip(scores, tasks, strict=True)
    )
    events.append(
        GameEnded(
            round=table.round,
            reason=reason,
            card_vp=card_vp,
            tasks_fulfilled=tasks,
            task_vp=tuple(s - c for s, c in zip(scores, card_vp, strict=True)),
            totals=scores,
            winners=winners(state),
        )
    )


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
