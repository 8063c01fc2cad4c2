"""A state of the game: an immutable flat tuple, cheap to copy; `Position` reads it by name.

Cards on the table are bits of an int (artifacts 0-23, places 24-28, monuments 29-34), so
"in hand", "in front of Ann" or "used this round" are one mask test. Essences are packed
stocks (`engine.resarcana.essences`), and all seats' stocks are one int, seat q's stock
`SEAT_SHIFT * q` bits up: production at a round end is then one addition for the whole
table. The layout:

    state[ROUND], state[CURRENT], state[STOCKS], ...  global fields (G of them)
    state[G + seat * W + TOKENS], ...                 one block of W fields per seat

The rules work on indices for speed (a plain tuple is built more than twice as fast as a
tuple subclass); everything else reads a state through `Position(state)`.
What never changes during a game (names, mages, the monument order) lives in one shared
`Deal` object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.resarcana.cards import ARTIFACTS, MAGES, MONUMENTS, PLACES, Card
from engine.resarcana.essences import (
    GUARD,
    KINDS,
    NEAR_CAP,
    WIDTH,
    Essences,
    clamp,
    essences,
    pack,
)
from engine.resarcana.events import Produced
from engine.resarcana.purse import ABOVE_7, SEVEN, capped

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # [1]: the only definition; the rest of the tree imports it
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


class Memo(dict):
    """key -> make(key), computed on first use and kept: things that repeat game after game.

    The engine's one memo: a hit is a plain dict look-up, `make` runs on a miss only."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value


# Every card that can lie on the table, in bit order.
ORDER: tuple[Card, ...] = ARTIFACTS + PLACES + MONUMENTS
INDEX: dict[str, int] = {card.id: i for i, card in enumerate(ORDER)}
MAGE_INDEX: dict[str, int] = {card.id: i for i, card in enumerate(MAGES)}
ARTIFACT_BITS = (1 << len(ARTIFACTS)) - 1
PLACE_BITS = ((1 << len(PLACES)) - 1) << len(ARTIFACTS)
MONUMENT_BITS = ((1 << len(MONUMENTS)) - 1) << (len(ARTIFACTS) + len(PLACES))
POWER_BITS = sum(1 << i for i, card in enumerate(ORDER) if card.power is not None)
PRODUCTION: tuple[int, ...] = tuple(card.produces.packed() for card in ORDER)
MAGE_PRODUCTION: tuple[int, ...] = tuple(card.produces.packed() for card in MAGES)
CARD_VP: tuple[int, ...] = tuple(card.vp for card in ORDER)
FACE_UP = 2  # monuments face up at a time [2]
VP_TO_END = 10  # [5]

# The layout, one field per line. Offsets derive from the order of these tuples (the
# unpacking below fails if a name is added on one side only; tests/engine/resarcana/
# test_layout.py checks each name's index against its place here).
GLOBALS = (
    "ROUND",  # the round, from 1 [3]
    "CURRENT",  # the seat to act [4]
    "START",  # the start player of this round [4]
    "FIRST",  # the first to pass this round, -1: nobody yet; starts the next round [10]
    "PASSED",  # mask of the seats that have passed this round [4]
    "FINISHED",  # True once the game is over [5]
    "USED",  # mask of the cards turned this round [7]
    "OUT",  # mask of the cards in a tableau or discarded
    "BUYABLE",  # mask of the places left and the face-up monuments (with an unknown stack:
    #             every monument not yet bought) [8]
    "BEST",  # the highest VP at the table (the 10-VP check is one comparison) [5]
    "DEAL",  # the fixed `Deal` of the game: seats, mages, what is known of the cards
    "STOCKS",  # every seat's essences, seat q's SEAT_SHIFT * q bits up [1]
    "CAPPED",  # STOCKS with every count above 7 made 7: what `purse.REACH` is keyed by,
    #            kept up to date with the stocks, so listing a seat's actions is one shift
    "PRODUCES",  # what every seat's mage and tableau produce at a round's start, packed as
    #              STOCKS; kept up to date as cards join a tableau [3]
    "PRODUCED",  # the `Produced` event of each seat for that production (kept with it)
)
SEAT = (  # a seat's block of W fields, at G + seat * W
    "TOKENS",  # VP tokens from powers [7]
    "SCORE",  # VP: places + monuments + tokens [11]
    "HAND",  # mask of the cards in hand; 0 when unknown (physical play) [2]
    "HAND_SIZE",  # the number of cards in hand
    "DECK",  # tuple of card indices, top first; () when unknown [2]
    "DECK_SIZE",  # the number of cards in the deck
    "TABLEAU",  # mask of the artifacts, places and monuments in front of the seat
)
(
    ROUND,
    CURRENT,
    START,
    FIRST,
    PASSED,
    FINISHED,
    USED,
    OUT,
    BUYABLE,
    BEST,
    DEAL,
    STOCKS,
    CAPPED,
    PRODUCES,
    PRODUCED,
) = range(len(GLOBALS))
G = len(GLOBALS)
TOKENS, SCORE, HAND, HAND_SIZE, DECK, DECK_SIZE, TABLEAU = range(len(SEAT))
W = len(SEAT)
# Not a field of the block: `Position(state).seat(q, ESS)` reads seat q's packed stock out of
# state[STOCKS], for callers that knew it as one.
ESS = -1
State = tuple  # the flat layout above

# Seat q's stock is bits SEAT_SHIFT * q and up of state[STOCKS]. Costs and gains of seat q's
# actions are shifted the same way once (`engine.resarcana.actions`), so paying stays one
# subtraction and one test of every guard bit (a borrow in seat q's fields sets one of them;
# a refused payment is never stored, so what it did to the seats above does not matter).
SEAT_SHIFT = WIDTH * len(KINDS)
SEAT_FIELD = (1 << SEAT_SHIFT) - 1
SHIFTS = tuple(SEAT_SHIFT * q for q in range(MAX_PLAYERS))
ALL_GUARDS = sum(GUARD << shift for shift in SHIFTS)
ALL_NEAR_CAP = sum(NEAR_CAP << shift for shift in SHIFTS)
ALL_SEVENS = sum(SEVEN << shift for shift in SHIFTS)
ALL_ABOVE_7 = sum(ABOVE_7 << shift for shift in SHIFTS)


def is_terminal(state: State) -> bool:
    """True once the round in which someone reached 10 VP has ended [5]."""
    return state[FINISHED]


def capped_all(stocks: int) -> int:
    """All seats' stocks with every count above 7 made 7 (`purse.capped`, seat by seat)."""
    return capped(stocks, ALL_SEVENS, ALL_ABOVE_7, ALL_GUARDS)


def stock_of(stocks: int, seat: int) -> int:
    """Seat `seat`'s packed stock out of all seats' stocks (also for productions)."""
    return stocks >> SHIFTS[seat] & SEAT_FIELD


def clamp_all(stocks: int, players: int) -> int:
    """Every seat's stock with every count limited to CAP (see `essences.clamp`)."""
    return sum(clamp(stock_of(stocks, q)) << SHIFTS[q] for q in range(players))


def cards_in(mask: int) -> tuple[int, ...]:
    """The card indices whose bits are set, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return tuple(found)


def ids(mask: int) -> list[str]:
    """Card ids of a mask, sorted as the record spec wants."""
    return sorted(ORDER[i].id for i in cards_in(mask))


def _next_seats(players: int) -> tuple[tuple[int, ...], ...]:
    """[passed mask][seat] -> the next seat clockwise that has not passed, or -1."""
    rows = []
    for passed in range(1 << players):
        following = [
            [(seat + k) % players for k in range(1, players + 1)] for seat in range(players)
        ]
        rows.append(
            tuple(next((q for q in after if not passed >> q & 1), -1) for after in following)
        )
    return tuple(rows)


NEXT_SEATS = {players: _next_seats(players) for players in PLAYER_COUNTS}


def production(mage: int, tableau: int) -> int:
    """What a mage and a tableau mask produce at the start of a round [3], packed."""
    return MAGE_PRODUCTION[mage] + sum(PRODUCTION[i] for i in cards_in(tableau))


# [seat][packed production] -> the seat's Produced event; a seat meets few distinct amounts.
# Shared by every game.
PRODUCED_EVENTS = [
    Memo(lambda produced, seat=seat: Produced(seat, essences(produced)))
    for seat in range(MAX_PLAYERS)
]


def produced_events(produces: int, players: int) -> tuple[Any, ...]:
    """Each seat's `Produced` event for all seats' production (packed as in STOCKS)."""
    return tuple(PRODUCED_EVENTS[q][stock_of(produces, q)] for q in range(players))


def _up_prefix(order: tuple[int, ...]) -> tuple[int, ...]:
    """[b]: mask of the monuments turned up once b have been bought."""
    return tuple(sum(1 << i for i in order[: FACE_UP + b]) for b in range(len(order) + 1))


UP_PREFIX = Memo(_up_prefix)  # monument order -> _up_prefix(order)


@dataclass(frozen=True, slots=True)
class Deal:
    """What stays fixed for a whole game: seats, mages and what the engine knows of the deal.

    `monuments` is the face-up pair then the hidden stack in order (card indices), or None
    when the stack is unknown (physical play). `hands_known` is False in physical play.
    """

    names: tuple[str, ...]
    mages: tuple[int, ...]
    hands_known: bool
    monuments: tuple[int, ...] | None
    # Derived, for the rules' hot path:
    # up_prefix[b]: mask of the monuments turned up once b have been bought;
    # next_seat[passed mask][seat]: the next seat clockwise that has not passed (-1: none);
    # everyone: the passed mask that ends a round; seat_bases: index of each seat's block.
    up_prefix: tuple[int, ...] = field(init=False, compare=False, repr=False)
    next_seat: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    everyone: int = field(init=False, compare=False, repr=False)
    seat_bases: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        players = len(self.names)
        derived = (
            ("up_prefix", UP_PREFIX[self.monuments or ()]),
            ("next_seat", NEXT_SEATS[players]),
            ("everyone", (1 << players) - 1),
            ("seat_bases", tuple(range(G, G + players * W, W))),
        )
        for name, value in derived:
            object.__setattr__(self, name, value)

    @property
    def players(self) -> int:
        return len(self.names)


class Position:
    """Reads a state by name: `Position(state).essences(0)`. For views, records and tests."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __getitem__(self, field: int):
        return self.state[field]

    @property
    def deal(self) -> Deal:
        return self[DEAL]

    @property
    def players(self) -> int:
        return len(self[DEAL].names)

    @property
    def round(self) -> int:
        return self[ROUND]

    @property
    def current(self) -> int:
        """The seat whose turn it is (meaningless once finished)."""
        return self[CURRENT]

    @property
    def start_player(self) -> int:
        return self[START]

    @property
    def first_passer(self) -> int | None:
        return None if self[FIRST] < 0 else self[FIRST]

    @property
    def finished(self) -> bool:
        return self[FINISHED]

    def has_passed(self, seat: int) -> bool:
        return bool(self[PASSED] >> seat & 1)

    def seat(self, seat: int, what: int):
        """A field of a seat's block (TOKENS, HAND, ...), or ESS: the seat's packed stock."""
        if what == ESS:
            return stock_of(self[STOCKS], seat)
        return self[G + seat * W + what]

    def essences(self, seat: int) -> Essences:
        return essences(stock_of(self[STOCKS], seat))

    def tokens(self, seat: int) -> int:
        return self.seat(seat, TOKENS)

    def hand(self, seat: int) -> list[str]:
        """Card ids known to be in the hand (empty when hands are unknown)."""
        return ids(self.seat(seat, HAND))

    def hand_size(self, seat: int) -> int:
        return self.seat(seat, HAND_SIZE)

    def deck(self, seat: int) -> list[str]:
        """Card ids of the deck, top first (empty when unknown)."""
        return [ORDER[i].id for i in self.seat(seat, DECK)]

    def deck_size(self, seat: int) -> int:
        return self.seat(seat, DECK_SIZE)

    def tableau(self, seat: int) -> list[str]:
        """Artifacts, places and monuments in front of the seat (not the mage), sorted."""
        return ids(self.seat(seat, TABLEAU))

    def used(self) -> list[str]:
        """Cards whose power was used this round (turned)."""
        return ids(self[USED])

    def discarded(self) -> list[str]:
        """Artifacts discarded so far."""
        in_play = 0
        for seat in range(self.players):
            in_play |= self.seat(seat, TABLEAU)
        return ids(self[OUT] & ~in_play & ARTIFACT_BITS)

    def vp(self, seat: int) -> int:
        """Places of power + monuments + VP tokens (kept up to date by the rules)."""
        return self.seat(seat, SCORE)

    def places_available(self) -> list[str]:
        return ids(PLACE_BITS & ~self[OUT])

    def monuments_bought(self) -> int:
        return (self[OUT] & MONUMENT_BITS).bit_count()

    def monuments_face_up(self) -> list[str] | int:
        """Face-up monument ids, or only their number when the stack is unknown."""
        bought = self.monuments_bought()
        if self[DEAL].monuments is None:
            return min(FACE_UP, len(MONUMENTS) - bought)
        return ids(self[DEAL].up_prefix[bought] & ~self[OUT])


def vp_of(tableau: int, tokens: int) -> int:
    """VP of a tableau mask plus VP tokens."""
    return tokens + sum(CARD_VP[i] for i in cards_in(tableau & (PLACE_BITS | MONUMENT_BITS)))


def buyable(deal: Deal, out: int) -> int:
    """Places not yet bought and monuments face up [8], given the cards out of the box."""
    monuments = (
        MONUMENT_BITS
        if deal.monuments is None
        else deal.up_prefix[(out & MONUMENT_BITS).bit_count()]
    )
    return (PLACE_BITS | monuments) & ~out


ONE_EACH = pack([1] * 5)


def _first_stocks(mages: tuple[int, ...]) -> tuple[int, int, int, tuple[Any, ...]]:
    """The STOCKS, CAPPED, PRODUCES, PRODUCED fields of a first state: one of each essence
    [2], and an empty tableau (the mage alone produces)."""
    stocks = sum(ONE_EACH << SHIFTS[q] for q in range(len(mages)))
    produces = sum(MAGE_PRODUCTION[mage] << SHIFTS[q] for q, mage in enumerate(mages))
    return (stocks, capped_all(stocks), produces, produced_events(produces, len(mages)))


FIRST_STOCKS = Memo(_first_stocks)  # mages -> _first_stocks(mages); 60 seatings at most


def initial(
    deal: Deal, start: int, hands: list[list[int]] | None, decks: list[list[int]] | None
) -> State:
    """The first state [2]: round 1, one of each essence, no production yet [3]."""
    fields: list = [1, start, start, -1, 0, False, 0, 0, buyable(deal, 0), 0, deal]
    fields += FIRST_STOCKS[deal.mages]
    for seat in range(deal.players):
        hand = sum(1 << i for i in hands[seat]) if hands is not None else 0
        deck = tuple(decks[seat]) if decks is not None else ()
        fields += [0, 0, hand, 3, deck, 3, 0]
    return tuple(fields)
