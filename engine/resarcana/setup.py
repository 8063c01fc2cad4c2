"""Setup [2]: the first state from a record's setup object (`../shared/spec/records.md`).

An explicit deal gives `hands`, `decks` (top card first) and `monuments` (two face up, then
the hidden stack); physical play leaves out `hands` and `decks` (together) and/or
`monuments`, and the engine then knows only counts. Every mistake is a RecordError with a
sentence that says what to fix.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.records import RecordError, shown
from engine.resarcana.cards import ARTIFACTS, CARDS, MAGES, MONUMENTS
from engine.resarcana.state import (
    INDEX,
    MAGE_INDEX,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Deal,
    State,
    initial,
)

HAND = DECK = 3


def from_record(setup: dict[str, Any]) -> State:
    """The first state of the game a record's setup describes (RecordError if it is wrong)."""
    check(setup)
    return build(setup)


def check(setup: dict[str, Any]) -> None:
    """Raise RecordError with a reason when a setup object does not fit the record spec."""
    n = len(_names(setup.get("players")))
    start = setup.get("start_player")
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < n:
        raise RecordError(f'setup needs "start_player": a seat index from 0 to {n - 1}')
    _ids(setup.get("mages"), "mages", n, "mage", "one mage per player")
    if ("hands" in setup) != ("decks" in setup):
        raise RecordError('give both "hands" and "decks", or neither (physical play)')
    if "hands" in setup:
        hands = _deal(setup["hands"], "hands", n, HAND)
        decks = _deal(setup["decks"], "decks", n, DECK)
        _distinct([c for dealt in hands + decks for c in dealt], "artifacts dealt")
    if "monuments" in setup:
        _ids(setup["monuments"], "monuments", len(MONUMENTS), "monument", "all six")


def build(setup: dict[str, Any]) -> State:
    """The first state of a setup that is known to fit (checked, or from `random_setup`)."""
    monuments = setup.get("monuments")
    deal = Deal(
        tuple(setup["players"]),
        tuple(MAGE_INDEX[m] for m in setup["mages"]),
        "hands" in setup,
        None if monuments is None else tuple(INDEX[m] for m in monuments),
    )
    if "hands" not in setup:
        return initial(deal, setup["start_player"], None, None)
    return initial(deal, setup["start_player"], _indices(setup["hands"]), _indices(setup["decks"]))


def _indices(dealt: list[list[str]]) -> list[list[int]]:
    return [[INDEX[card] for card in cards] for cards in dealt]


def _names(players: Any) -> list[str]:
    if not isinstance(players, list) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RecordError(f'setup needs "players": a list of {MIN_PLAYERS} to {MAX_PLAYERS} names')
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError("every player needs a name (a non-empty string)")
    _distinct(players, "player names")
    return players


def _ids(value: Any, key: str, count: int, kind: str, what: str) -> list[str]:
    if not isinstance(value, list) or len(value) != count:
        raise RecordError(f'setup needs "{key}": a list of {count} {kind} ids ({what})')
    for card in value:
        _check_card(card, kind)
    _distinct(value, key)
    return value


def _deal(value: Any, key: str, n: int, size: int) -> list[list[str]]:
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f'"{key}" needs one list per player ({n})')
    for seat, cards in enumerate(value):
        if not isinstance(cards, list) or len(cards) != size:
            raise RecordError(f'"{key}" of player {seat} must list {size} artifacts')
        for card in cards:
            _check_card(card, "artifact")
    return value


def _check_card(card: Any, kind: str) -> None:
    if not isinstance(card, str) or card not in CARDS:
        raise RecordError(f"unknown card {shown(card)}")
    if CARDS[card].kind != kind:
        raise RecordError(f'"{card}" is not {"an" if kind[0] in "aeiou" else "a"} {kind}')


def _distinct(items: Sequence[str], what: str) -> None:
    seen = set()
    for item in items:
        if item in seen:
            raise RecordError(f"{shown(item)} appears twice among the {what}")
        seen.add(item)


def random_setup(
    rng: random.Random, players: int, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """A record setup with an explicit random deal, as the physical shuffle would make it.

    >>> random_setup(random.Random(7), 2)["players"]
    ['Player 1', 'Player 2']
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Res Arcana is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
    names = list(names) if names is not None else DEFAULT_NAMES[:players]
    mages = _shuffled(rng, MAGE_IDS)[:players]
    dealt = _shuffled(rng, ARTIFACT_IDS)
    monuments = _shuffled(rng, MONUMENT_IDS)
    per = HAND + DECK
    return {
        "players": names,
        "start_player": int(rng.random() * players),
        "mages": mages,
        "hands": [dealt[i * per : i * per + HAND] for i in range(players)],
        "decks": [dealt[i * per + HAND : (i + 1) * per] for i in range(players)],
        "monuments": monuments,
    }


MAGE_IDS = [m.id for m in MAGES]
ARTIFACT_IDS = [a.id for a in ARTIFACTS]
MONUMENT_IDS = [m.id for m in MONUMENTS]
DEFAULT_NAMES = [f"Player {i}" for i in range(1, 5)]


def _shuffled(rng: random.Random, items: list[str]) -> list[str]:
    """The items in a uniformly random order: sorted by one random key each, a few C calls
    where `rng.shuffle` runs a Python loop (setups are a tenth of a benchmark playout)."""
    random_ = rng.random
    return sorted(items, key=lambda _: random_())


def physical_setup(setup: dict[str, Any], *, monuments_known: bool = False) -> dict[str, Any]:
    """The same setup as the companion sees it with real cards: no hands, decks (or stack)."""
    hidden = {"hands", "decks"} | (set() if monuments_known else {"monuments"})
    return {key: value for key, value in setup.items() if key not in hidden}
