"""Actions as in a game record, and the finite set of all of them, built once.

    Action(0, "play", "seer_orb")
    Action(0, "discard", "brazier", "calm")      # gains 2 calm; "gold" gains 1 gold
    Action(0, "pass")

Every action a seat could ever take exists once, precomputed, with its plan: the costs,
gains and events the rules need. `decode_action` and `legal_actions` hand out these
canonical objects, so applying one is a few table look-ups. An equal Action built by hand
works too (it is looked up first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.protocol import BAD_PARAMS, UNKNOWN_ACTION, UNKNOWN_CARD, WRONG_KIND
from engine.records import RecordError, shown
from engine.resarcana import events as ev
from engine.resarcana.cards import CARDS, KIND_WORDS
from engine.resarcana.essences import KINDS, Essences
from engine.resarcana.state import INDEX, MAX_PLAYERS, ORDER, SHIFTS

VERBS = ("play", "activate", "buy", "discard", "pass")
# Plan kinds (small ints, compared in the hot path).
PLAY, ACTIVATE, BUY_PLACE, BUY_MONUMENT, DISCARD, PASS = range(6)


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action. `gain` only for a discard: "gold" or one non-gold kind."""

    player: int
    kind: str
    card: str | None = None
    gain: str | None = None
    # Position in PLANS, set on the canonical objects only.
    index: int = field(default=-1, init=False, compare=False, repr=False)

    def __str__(self) -> str:
        words = [f"p{self.player}", self.kind]
        words += [w for w in (self.card, self.gain) if w is not None]
        return " ".join(words)


def discard_gain(kind: str) -> Essences:
    return Essences.of({kind: 1 if kind == "gold" else 2})


class Plan(NamedTuple):
    """What the rules need to apply an action: kind, seat, card bit, packed cost and gain.

    A tuple, so the rules unpack it in one step. `cost`, `gain` and `produces` (what the card
    adds to the seat's production, for a play or a buy) are packed and already shifted to
    the seat's place in the state's STOCKS, so the rules add them to all seats' stocks
    as they are. `vp`: tokens of a power, or the VP of a place or monument bought."""

    kind: int
    player: int
    card: int
    bit: int
    cost: int
    gain: int
    vp: int
    produces: int
    events: tuple[Any, ...]


def _plan(action: Action) -> Plan:
    p = action.player
    at = SHIFTS[p]
    if action.kind == "pass":
        return Plan(PASS, p, -1, 1 << p, 0, 0, 0, 0, ())  # bit: the seat's bit in PASSED
    card = CARDS[action.card]
    i = INDEX[card.id]
    cost, produces = card.cost.packed() << at, card.produces.packed() << at
    if action.kind == "play":
        events = (ev.Played(p, card.id), ev.Paid(p, card.id, card.cost))
        return Plan(PLAY, p, i, 1 << i, cost, 0, 0, produces, events)
    if action.kind == "activate":
        power = card.power
        events: tuple[Any, ...] = (ev.Activated(p, card.id),)
        if power.cost:
            events += (ev.Paid(p, card.id, power.cost),)
        if power.gain:
            events += (ev.Gained(p, card.id, power.gain),)
        if power.vp:
            events += (ev.Scored(p, card.id, power.vp),)
        cost, gain = power.cost.packed() << at, power.gain.packed() << at
        return Plan(ACTIVATE, p, i, 1 << i, cost, gain, power.vp, 0, events)
    if action.kind == "buy":
        kind = BUY_PLACE if card.kind == "place" else BUY_MONUMENT
        events = (ev.Bought(p, card.id), ev.Paid(p, card.id, card.cost))
        return Plan(kind, p, i, 1 << i, cost, 0, card.vp, produces, events)
    gain = discard_gain(action.gain)
    events = (ev.Discarded(p, card.id), ev.Gained(p, card.id, gain))
    return Plan(DISCARD, p, i, 1 << i, 0, gain.packed() << at, 0, 0, events)


def _universe() -> list[Action]:
    actions = []
    for p in range(MAX_PLAYERS):
        for card in ORDER:
            if card.kind == "artifact":
                actions.append(Action(p, "play", card.id))
        for card in ORDER:
            if card.power is not None:
                actions.append(Action(p, "activate", card.id))
        for card in ORDER:
            if card.kind in ("place", "monument"):
                actions.append(Action(p, "buy", card.id))
        for card in ORDER:
            if card.kind == "artifact":
                actions.extend(Action(p, "discard", card.id, kind) for kind in KINDS)
        actions.append(Action(p, "pass"))
    for i, action in enumerate(actions):
        object.__setattr__(action, "index", i)
    return actions


ACTIONS: list[Action] = _universe()
PLANS: tuple[Plan, ...] = tuple(_plan(action) for action in ACTIONS)
CANONICAL: dict[Action, Action] = {action: action for action in ACTIONS}
# Per seat: card index -> the action, for building legal-action lists.
PLAY_OF = [
    {PLANS[a.index].card: a for a in ACTIONS if a.player == p and a.kind == "play"}
    for p in range(MAX_PLAYERS)
]
ACTIVATE_OF = [
    {PLANS[a.index].card: a for a in ACTIONS if a.player == p and a.kind == "activate"}
    for p in range(MAX_PLAYERS)
]
BUY_OF = [
    {PLANS[a.index].card: a for a in ACTIONS if a.player == p and a.kind == "buy"}
    for p in range(MAX_PLAYERS)
]
DISCARDS_OF = [
    {
        i: tuple(a for a in ACTIONS if a.player == p and a.kind == "discard" and a.card == card.id)
        for i, card in enumerate(ORDER)
        if card.kind == "artifact"
    }
    for p in range(MAX_PLAYERS)
]
PASS_OF = [a for a in ACTIONS if a.kind == "pass"]


def canonical(action: Action) -> Action | None:
    """The precomputed twin of an action, or None when no seat could ever take it."""
    if action.index >= 0:
        return action
    try:
        return CANONICAL.get(action)
    except TypeError:  # an unhashable field: certainly not a real action
        return None


def decode(line: dict[str, Any]) -> Action:
    """A record's action line as an Action; RecordError when it does not fit the format."""
    player = line.get("player")
    if not isinstance(player, int) or isinstance(player, bool) or player < 0:
        raise RecordError('an action needs "player": the seat index (0, 1, ...)')
    verb = line.get("action")
    if not isinstance(verb, str) or verb not in VERBS:
        raise RecordError(
            f"unknown action {shown(verb)} "
            '(expected "play", "activate", "buy", "discard" or "pass")'
        )
    if verb == "pass":
        action = Action(player, "pass")
        return CANONICAL.get(action, action)
    card = line.get("card")
    if not isinstance(card, str):
        raise RecordError(f'a "{verb}" action needs "card": a card id')
    if card not in CARDS:
        raise RecordError(f'unknown card "{card}"')
    gain = None
    if verb == "discard":
        gain = _decode_gain(line.get("gain"))
    action = Action(player, verb, card, gain)
    return CANONICAL.get(action, action)


def _decode_gain(gain: Any) -> str:
    fits = isinstance(gain, dict) and len(gain) == 1
    if fits:
        ((kind, amount),) = gain.items()
        if kind in KINDS and amount == (1 if kind == "gold" else 2) and type(amount) is int:
            return kind
    raise RecordError(
        'a discard needs "gain": {"gold": 1} or 2 of one other essence, such as {"calm": 2}'
    )


def encode(action: Action) -> dict[str, Any]:
    """An Action as a record's action line."""
    line: dict[str, Any] = {"player": action.player, "action": action.kind}
    if action.card is not None:
        line["card"] = action.card
    if action.gain is not None:
        line["gain"] = discard_gain(action.gain).nonzero()
    return line


def misfit(action: Action) -> tuple[str, str] | None:
    """Why an action can never be taken, whatever the state, as (Rejection code, sentence);
    None if it could be."""
    card = CARDS.get(action.card) if isinstance(action.card, str) else None
    if action.kind not in VERBS:
        verbs = "play, activate, buy, discard or pass"
        return UNKNOWN_ACTION, f'"{action.kind}" is not an action ({verbs})'
    if action.kind == "pass":
        return None
    if card is None:
        return UNKNOWN_CARD, f"{action.card!r} is not a card of Res Arcana"
    what = KIND_WORDS[card.kind]
    if action.kind in ("play", "discard") and card.kind != "artifact":
        only = "only artifacts are played or discarded from hand"
        return WRONG_KIND, f"{card.name} is {what}; {only}"
    if action.kind == "activate" and card.power is None:
        return WRONG_KIND, f"{card.name} has no power to use"
    if action.kind == "buy" and card.kind not in ("place", "monument"):
        return WRONG_KIND, f"{card.name} is {what}; only places of power and monuments are bought"
    if action.kind == "discard" and action.gain not in KINDS:
        gains = "1 gold or 2 of one other essence (fire, life, calm or death)"
        return BAD_PARAMS, f"a discard gains {gains}"
    return None
