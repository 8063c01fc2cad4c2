"""The rules: legal actions, applying an action [6]-[10], turns [4], the end of a round with
the next round's production [3] [5], and of the game with its ranking [11].

Pure functions over flat state tuples (`engine.resarcana.state`). The hot path
(`legal_actions`, `apply` of a canonical action) works on field indices, precomputed plans
and memo tables; the cold path (rejections) builds the sentences a player reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.protocol import (
    GAME_OVER,
    NOT_YOUR_TURN,
    UNKNOWN_ACTION,
    UNKNOWN_PLAYER,
    Applied,
    Rejection,
)
from engine.resarcana import events as ev
from engine.resarcana.actions import (
    ACTIVATE,
    ACTIVATE_OF,
    BUY_MONUMENT,
    BUY_OF,
    DISCARD,
    DISCARDS_OF,
    PASS,
    PASS_OF,
    PLANS,
    PLAY,
    PLAY_OF,
    Action,
    canonical,
    misfit,
)
from engine.resarcana.essences import WIDTH, shortfall
from engine.resarcana.purse import LARGEST, REACH
from engine.resarcana.state import (
    ALL_ABOVE_7,
    ALL_GUARDS,
    ALL_NEAR_CAP,
    ALL_SEVENS,
    ARTIFACT_BITS,
    BEST,
    BUYABLE,
    CAPPED,
    CURRENT,
    DEAL,
    DECK,
    DECK_SIZE,
    FINISHED,
    FIRST,
    HAND,
    HAND_SIZE,
    MAX_PLAYERS,
    MONUMENT_BITS,
    ORDER,
    OUT,
    PASSED,
    PRODUCED,
    PRODUCED_EVENTS,
    PRODUCES,
    ROUND,
    SCORE,
    SEAT_FIELD,
    SHIFTS,
    START,
    STOCKS,
    TABLEAU,
    TOKENS,
    USED,
    VP_TO_END,
    Memo,
    Position,
    State,
    buyable,
    cards_in,
    clamp_all,
    stock_of,
)

_MANY_SHIFT = WIDTH - 1  # from a field's guard bit down to its lowest bit (purse.capped)
# _CAP_INLINE: the cap-at-7 step (`purse.capped`, the one definition) is written out twice
# here, after a payment in `apply` and after production in `_end_round`: timeit on this
# machine (2026-12-01, 3 runs, best of 5 x 200,000) gave 760-1,030 ns for the call
# `capped_all(stocks)` against 310-460 ns for the expression, about 0.45 us saved on
# actions that take about 3 us each (`bench engine`: ~320,000 actions/s).


def _seat_memo(make: Callable[[int, int], tuple[Action, ...]]) -> list[Memo]:
    return [Memo(lambda mask, p=p: make(p, mask)) for p in range(MAX_PLAYERS)]


# Per seat, a mask -> the actions it allows, in card order; a game meets few masks.
PLAYS = _seat_memo(lambda p, mask: tuple(PLAY_OF[p][i] for i in cards_in(mask)))
POWERS = _seat_memo(lambda p, mask: tuple(ACTIVATE_OF[p][i] for i in cards_in(mask)))
BUYS = _seat_memo(lambda p, mask: tuple(BUY_OF[p][i] for i in cards_in(mask)))
DISCARDS_AND_PASS = _seat_memo(
    lambda p, hand: (*(a for i in cards_in(hand) for a in DISCARDS_OF[p][i]), PASS_OF[p])
)


def legal_actions(state: State) -> list[Action]:
    """Every legal action of the seat to play [4], in a stable order: plays [6], powers [7],
    buys [8]
    (places then monuments), discards [9], pass [10]. Empty once the game is finished."""
    if state[FINISHED]:
        return []
    p = state[CURRENT]
    deal = state[DEAL]
    b = deal.seat_bases[p]
    if deal.hands_known:
        hand = state[b + HAND]
    elif state[b + HAND_SIZE]:
        hand = ARTIFACT_BITS & ~state[OUT]  # physical play: any artifact not yet out
    else:
        hand = 0
    # What the seat's stock pays for: purse.reach, looked up here rather than kept per seat
    # in the state, so that a round end's production (every seat's stock at once) does not
    # look it up for every seat; the state keeps all seats' capped stocks instead.
    pay, power = REACH[state[CAPPED] >> SHIFTS[p] & SEAT_FIELD]
    # Most masks below are empty; testing first is cheaper than looking up an empty tuple.
    playable = hand & pay
    legal = list(PLAYS[p][playable]) if playable else []
    ready = state[b + TABLEAU] & power & ~state[USED]
    if ready:
        legal += POWERS[p][ready]
    for_sale = state[BUYABLE] & pay
    if for_sale:
        legal += BUYS[p][for_sale]
    legal += DISCARDS_AND_PASS[p][hand]
    return legal


# An Applied is built without the frozen dataclass's __init__ (0.45 µs here, against 0.29 µs
# this way; a whole pass takes about 1 µs): same class, same fields, set once each. `apply`
# does it inline, at the end of a pass and at the end of every other action.
_new = object.__new__
_set_state = Applied.state.__set__  # type: ignore[attr-defined]
_set_events = Applied.events.__set__  # type: ignore[attr-defined]


def apply(state: State, action: Action) -> Applied[State] | Rejection:
    """The state after `action` and its events, or a Rejection (and `state` untouched)."""
    index = action.index
    if index < 0:
        twin = canonical(action)
        if twin is None:
            return _misfit(state, action)
        index = twin.index
    kind, p, card, bit, cost, gain, vp, produces, events = PLANS[index]
    if state[FINISHED]:
        return Rejection(GAME_OVER, "The game is over.")
    if p != state[CURRENT]:
        return _not_your_turn(state, p)
    deal = state[DEAL]
    b = deal.seat_bases[p]
    s = list(state)
    if kind == PASS:
        # Inline rather than a function of its own: two actions in three are passes.
        # Rule [10]: draw the top card of the deck, if any; the first to pass starts the next
        # round.
        first = state[FIRST] < 0
        if first:
            s[FIRST] = p
        top = None
        if state[b + DECK_SIZE]:
            s[b + DECK_SIZE] = state[b + DECK_SIZE] - 1
            s[b + HAND_SIZE] = state[b + HAND_SIZE] + 1
            deck = state[b + DECK]
            if deck:
                top = deck[0]
                s[b + DECK] = deck[1:]
                s[b + HAND] = state[b + HAND] | 1 << top
            else:
                top = -1
        events = PASS_EVENTS[p][first][top]
        passed = state[PASSED] | bit  # a pass's plan carries the seat's bit
        if passed == deal.everyone:
            events = _end_round(s, deal, events)
        else:
            s[PASSED] = passed
            s[CURRENT] = deal.next_seat[passed][p]
        done = _new(Applied)
        _set_state(done, tuple(s))
        _set_events(done, events)
        return done
    stocks = state[STOCKS]  # every seat's; the plan's cost and gain are shifted to seat p
    if kind == ACTIVATE:  # rule [7]: a power of a card in front, once per round
        if not state[b + TABLEAU] & bit:
            return _not_in_front(state, p, card)
        if state[USED] & bit:
            return Rejection(
                "already_used", f"{ORDER[card].name} has already been used this round."
            )
        stocks -= cost
        if stocks & ALL_GUARDS:
            return _cannot_afford(state, p, card, cost, "The power of ")
        stocks += gain
        s[USED] = state[USED] | bit
        if vp:
            s[b + TOKENS] = state[b + TOKENS] + vp
            s[b + SCORE] = score = state[b + SCORE] + vp
            if score > state[BEST]:
                s[BEST] = score
    elif kind in (PLAY, DISCARD):  # rules [6] and [9]
        if deal.hands_known:
            if not state[b + HAND] & bit:
                return _not_in_hand(state, p, card)
            s[b + HAND] = state[b + HAND] ^ bit
        elif not state[b + HAND_SIZE] or state[OUT] & bit:
            return _not_in_hand(state, p, card)
        if kind == PLAY:
            stocks -= cost
            if stocks & ALL_GUARDS:
                return _cannot_afford(state, p, card, cost, "")
            s[b + TABLEAU] = state[b + TABLEAU] | bit
            if produces:
                _produce_more(s, p, produces)
        else:
            stocks += gain
        s[b + HAND_SIZE] = state[b + HAND_SIZE] - 1
        s[OUT] = state[OUT] | bit
    else:  # buy a place of power or a face-up monument (rule [8])
        if not state[BUYABLE] & bit:
            return _not_for_sale(state, card)
        stocks -= cost
        if stocks & ALL_GUARDS:
            return _cannot_afford(state, p, card, cost, "")
        s[b + TABLEAU] = state[b + TABLEAU] | bit
        if produces:
            _produce_more(s, p, produces)
        s[OUT] = out = state[OUT] | bit
        s[b + SCORE] = score = state[b + SCORE] + vp
        if score > state[BEST]:
            s[BEST] = score
        if kind == BUY_MONUMENT:
            s[BUYABLE] = buyable(deal, out)
            events = events + _revealed(deal, (out & MONUMENT_BITS).bit_count())
        else:
            s[BUYABLE] = state[BUYABLE] ^ bit
    s[STOCKS] = stocks
    # purse.capped over all seats (state.capped_all), inline: see _CAP_INLINE
    many = ((stocks & ALL_ABOVE_7) + ALL_ABOVE_7) & ALL_GUARDS
    s[CAPPED] = (stocks & ALL_SEVENS) | (many >> _MANY_SHIFT) * LARGEST
    s[CURRENT] = deal.next_seat[state[PASSED]][p]
    done = _new(Applied)
    _set_state(done, tuple(s))
    _set_events(done, events)
    return done


def _produce_more(s: list[Any], p: int, produces: int) -> None:
    """A card that produces joined seat p's tableau: the production and its event follow."""
    s[PRODUCES] = total = s[PRODUCES] + produces
    events = s[PRODUCED]
    s[PRODUCED] = (*events[:p], PRODUCED_EVENTS[p][stock_of(total, p)], *events[p + 1 :])


def _revealed(deal: Any, bought: int) -> tuple[Any, ...]:
    """The monument turned up after the `bought`-th purchase, if the stack had one left."""
    turned = bought + 1  # the face-up pair is order[0:2]; purchase b turns up order[b + 1]
    if turned >= len(MONUMENT_EVENTS):
        return ()
    if deal.monuments is None:
        return (ev.MonumentRevealed(None),)
    return (MONUMENT_EVENTS[ORDER[deal.monuments[turned]].id],)


MONUMENT_EVENTS = {
    card.id: ev.MonumentRevealed(card.id) for card in ORDER if card.kind == "monument"
}
# PASS_EVENTS[seat][first][top card index, -1 for an unknown card, or None for no draw]
PASS_EVENTS = [
    [
        {
            top: (ev.Passed(p, bool(first)),)
            + (() if top is None else (ev.Drew(p, None if top < 0 else ORDER[top].id),))
            for top in [None, -1, *range(len(ORDER))]
        }
        for first in (0, 1)
    ]
    for p in range(MAX_PLAYERS)
]


ROUND_ENDED = Memo(ev.RoundEnded)
# [start player][round ending] -> (RoundEnded, RoundStarted of the next round): the two
# events every round end but the last has, built once.
TURN_OF_ROUND = [
    Memo(lambda now, start=start: (ROUND_ENDED[now], ev.RoundStarted(now + 1, start)))
    for start in range(MAX_PLAYERS)
]


def _end_round(s: list[Any], deal: Any, events: tuple[Any, ...]) -> tuple[Any, ...]:
    """Everyone has passed [4]: the 10-VP check [5], then the next round with production [3]."""
    now = s[ROUND]
    if s[BEST] >= VP_TO_END:
        return _end_game(s, deal, events, now)
    start = s[FIRST]
    s[ROUND] = now + 1
    s[USED] = s[PASSED] = 0
    s[START] = s[CURRENT] = start
    s[FIRST] = -1
    # Every seat produces at once: one addition to all seats' stocks; the events are kept
    # up to date with the production (`_produce_more`).
    stocks = s[STOCKS] + s[PRODUCES]
    if stocks & ALL_NEAR_CAP:
        stocks = clamp_all(stocks, deal.players)
    s[STOCKS] = stocks
    # purse.capped over all seats (state.capped_all), inline: see _CAP_INLINE
    many = ((stocks & ALL_ABOVE_7) + ALL_ABOVE_7) & ALL_GUARDS
    s[CAPPED] = (stocks & ALL_SEVENS) | (many >> _MANY_SHIFT) * LARGEST
    return events + TURN_OF_ROUND[start][now] + s[PRODUCED]


def _end_game(s: list[Any], deal: Any, events: tuple[Any, ...], now: int) -> tuple[Any, ...]:
    """Someone has 10 VP at a round's end [5]: the game is over, ranked by VP [11]."""
    vps = [s[b + SCORE] for b in deal.seat_bases]
    s[FINISHED] = True
    s[PASSED] = deal.everyone
    ranks = ranking(tuple(vps))
    winners = tuple(q for q, rank in enumerate(ranks) if rank == 1)
    return (*events, ROUND_ENDED[now], ev.GameEnded(now, winners, tuple(vps), ranks))


def ranking(vps: tuple[int, ...]) -> tuple[int, ...]:
    """Rank per seat, 1 = most VP; equal VP share a rank (1, 1, 3) [11]."""
    return tuple(1 + sum(other > vp for other in vps) for vp in vps)


# Rejections: the sentences a player reads.


def _not_your_turn(state: State, p: int) -> Rejection:
    names = state[DEAL].names
    if not 0 <= p < len(names):
        return Rejection(UNKNOWN_PLAYER, f"There is no player {p} at this table.")
    if state[PASSED] >> p & 1:
        return Rejection("passed", f"{names[p]} has passed this round.")
    return Rejection(NOT_YOUR_TURN, f"It is {names[state[CURRENT]]}'s turn, not {names[p]}'s.")


def _not_in_hand(state: State, p: int, card: int) -> Rejection:
    look = Position(state)
    name, who = ORDER[card].name, look.deal.names[p]
    if look.deal.hands_known:
        return Rejection("not_in_hand", f"{name} is not in {who}'s hand.")
    if not look.seat(p, HAND_SIZE):
        return Rejection("empty_hand", f"{who} has no card in hand.")
    in_play = any(look.seat(q, TABLEAU) >> card & 1 for q in range(look.players))
    return Rejection("not_in_hand", f"{name} is already {'in play' if in_play else 'discarded'}.")


def _not_in_front(state: State, p: int, card: int) -> Rejection:
    who = state[DEAL].names[p]
    return Rejection("not_in_front", f"{ORDER[card].name} is not in front of {who}.")


def _not_for_sale(state: State, card: int) -> Rejection:
    name = ORDER[card].name
    if state[OUT] & 1 << card:
        return Rejection("already_bought", f"{name} has already been bought.")
    return Rejection("not_face_up", f"{name} is not face up.")


def _cannot_afford(state: State, p: int, card: int, cost: int, prefix: str) -> Rejection:
    """`cost`: as in the plan, shifted to seat p's place in the stocks."""
    missing = shortfall(stock_of(state[STOCKS], p), stock_of(cost, p))
    return Rejection("cannot_afford", f"{prefix}{ORDER[card].name} needs {missing}.")


def _misfit(state: State, action: Action) -> Rejection:
    players = state[DEAL].players
    if not isinstance(action.player, int) or not 0 <= action.player < players:
        return Rejection(UNKNOWN_PLAYER, f"There is no player {action.player} at this table.")
    code, sentence = misfit(action) or (UNKNOWN_ACTION, "That is not an action")
    return Rejection(code, sentence + ".")
