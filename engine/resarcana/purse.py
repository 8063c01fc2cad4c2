"""What a stock of essences can pay for: the masks of cards whose cost it covers.

The rules look these masks up for the seat to act when they list its legal actions, so
listing never compares costs: it intersects masks. Only counts up to 7 matter (no cost asks
for more than 6 of a kind, rule [12]), so a stock is first capped at 7 per kind; capped
stocks repeat game after game and their masks are computed once. `capped` is the one
definition of that step (for one seat or, with the all-seats masks, for every seat).
"""

from __future__ import annotations

from engine.resarcana.cards import ARTIFACTS, MONUMENTS, PLACES
from engine.resarcana.essences import GUARD, KINDS, WIDTH, pack, unpack

# Bit order of the cards on the table (the same as `engine.resarcana.state.ORDER`).
_ORDER = ARTIFACTS + PLACES + MONUMENTS
COST = tuple(card.cost.packed() for card in _ORDER)
POWER_COST = tuple(card.power.cost.packed() if card.power else 0 for card in _ORDER)
LARGEST = 7
assert max(n for cost in COST + POWER_COST for n in unpack(cost)) <= LARGEST

SEVEN = pack([LARGEST] * len(KINDS))
ABOVE_7 = pack([(1 << (WIDTH - 1)) - 8] * len(KINDS))  # bits 3.. of each field


def capped(stock: int, sevens: int = SEVEN, above_7: int = ABOVE_7, guards: int = GUARD) -> int:
    """The stock with every count above 7 made 7; with the all-seats masks of
    `engine.resarcana.state` (ALL_SEVENS, ALL_ABOVE_7, ALL_GUARDS), every seat's at once."""
    # Bits 3 and up of a field are set iff its count is 8 or more; adding ABOVE_7 carries
    # that into the field's guard bit, which then becomes a 7 in the field.
    many = ((stock & above_7) + above_7) & guards
    return (stock & sevens) | (many >> (WIDTH - 1)) * LARGEST


def _within(costs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """[kind][n] -> mask of the cards whose cost asks at most n of that kind."""
    counts = [unpack(cost) for cost in costs]
    return tuple(
        tuple(sum(1 << i for i, c in enumerate(counts) if c[kind] <= n) for n in range(8))
        for kind in range(len(KINDS))
    )


_ALL = (1 << len(_ORDER)) - 1
_POWERED = sum(1 << i for i, card in enumerate(_ORDER) if card.power is not None)
_PAY = _within(COST)
_POWER = _within(POWER_COST)


def _reach_table() -> dict[int, tuple[int, int]]:
    """capped stock -> (cards whose cost it pays, cards whose power's cost it pays), for all
    8**5 capped stocks, built once at import (about 20 ms here): a playout then never stops
    to fill a memo, and the hot path is one look-up. Kind by kind, nested loops narrow the
    masks so each entry costs two `&`; equal pairs are shared to keep the table small."""
    deal: dict[int, tuple[int, int]] = {}
    shared: dict[tuple[int, int], tuple[int, int]] = {}
    counts = range(LARGEST + 1)

    def narrow(kind: int, key: int, pay: int, power: int) -> None:
        if kind < 0:
            pair = (pay & _ALL, power & _POWERED)
            deal[key] = shared.setdefault(pair, pair)
            return
        pays, powers, shift = _PAY[kind], _POWER[kind], WIDTH * kind
        for n in counts:
            narrow(kind - 1, key | n << shift, pay & pays[n], power & powers[n])

    narrow(len(KINDS) - 1, 0, -1, -1)
    return deal


REACH = _reach_table()


def reach(stock: int) -> tuple[int, int]:
    """Masks of the cards a stock can pay for: (their cost, their power's cost).

    >>> from engine.resarcana.essences import Essences
    >>> pay, _ = reach(Essences(calm=2).packed())
    >>> bool(pay >> 18 & 1)   # Seer's Orb, 2 calm
    True
    """
    # Off the hot path: `rules.legal_actions` looks REACH up in the state's CAPPED field.
    return REACH[capped(stock)]
