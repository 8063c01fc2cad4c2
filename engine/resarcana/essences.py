"""The five essences [1], and how a player's stock is packed into one integer.

A stock is one int with a 16-bit field per kind (fire lowest, gold highest). The top bit of
each field is a guard that stays clear, so paying is one subtraction and one mask:

    left = stock - cost
    if left & GUARD:        # some field borrowed: the player cannot afford it
        ...

Counts stay below 2**15 (see `CAP`), which keeps the guard bits clear.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

KINDS = ("fire", "life", "calm", "death", "gold")
WIDTH = 16
FIELD = (1 << WIDTH) - 1
GUARD = sum(1 << (WIDTH * i + WIDTH - 1) for i in range(len(KINDS)))
# Production clamps each count to CAP. A round's gains stay far below the headroom left up to
# the guard bit, so no field ever reaches it; no real game comes near this many essences.
CAP = (1 << (WIDTH - 2)) - 1
NEAR_CAP = sum(1 << (WIDTH * i + WIDTH - 2) for i in range(len(KINDS)))  # some count > CAP
SHIFT = {kind: WIDTH * i for i, kind in enumerate(KINDS)}


@dataclass(frozen=True, slots=True)
class Essences:
    """An amount of each essence (a cost, a production, a stock); JSON as all five counts."""

    fire: int = 0
    life: int = 0
    calm: int = 0
    death: int = 0
    gold: int = 0

    @classmethod
    def of(cls, amounts: Mapping[str, int]) -> Essences:
        """`Essences.of({"calm": 2})`: unknown kinds raise KeyError."""
        for kind in amounts:
            if kind not in SHIFT:
                raise KeyError(kind)
        return cls(**amounts)

    def counts(self) -> tuple[int, ...]:
        return (self.fire, self.life, self.calm, self.death, self.gold)

    def as_dict(self) -> dict[str, int]:
        """All five kinds, in the order fire, life, calm, death, gold."""
        return dict(zip(KINDS, self.counts(), strict=True))

    def nonzero(self) -> dict[str, int]:
        return {kind: n for kind, n in zip(KINDS, self.counts(), strict=True) if n}

    def packed(self) -> int:
        return pack(self.counts())

    def __bool__(self) -> bool:
        return any(self.counts())

    def __str__(self) -> str:
        """`1 fire, 2 gold`, or `nothing`."""
        parts = [f"{n} {kind}" for kind, n in self.nonzero().items()]
        return ", ".join(parts) if parts else "nothing"


def pack(counts: tuple[int, ...] | list[int]) -> int:
    """Five counts (fire, life, calm, death, gold) as one packed stock."""
    value = 0
    for i, n in enumerate(counts):
        value |= n << (WIDTH * i)
    return value


def unpack(stock: int) -> tuple[int, ...]:
    """A packed stock as five counts."""
    return tuple((stock >> (WIDTH * i)) & FIELD for i in range(len(KINDS)))


def essences(stock: int) -> Essences:
    return Essences(*unpack(stock))


def clamp(stock: int) -> int:
    """The stock with every count limited to CAP (only production can come near it)."""
    if not stock & (NEAR_CAP | GUARD):
        return stock
    counts = unpack(stock)
    return pack([min(n, CAP) for n in counts])


def shortfall(stock: int, cost: int) -> str:
    """What is missing, as a player reads it: `2 calm, you have 1`."""
    have, need = unpack(stock), unpack(cost)
    short = [(kind, n, h) for kind, n, h in zip(KINDS, need, have, strict=True) if h < n]
    needs = " and ".join(f"{n} {kind}" for kind, n, _ in short)
    if len(short) == 1:
        return f"{needs}, you have {short[0][2]}"
    return f"{needs}, you have " + " and ".join(f"{h} {kind}" for kind, _, h in short)
