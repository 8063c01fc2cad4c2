"""`catalog check` for a catalog still being entered: its sentences in two lists, the
problems of what is there and what is still lacking for a game.

    problems, lacking = check_entries(data)   # data: a catalog object (parsed TOML)

`lacking` are the checker's own sentences for the original catalog that only a complete box
answers (a guild without its 12 cards, too few market cards, no game-end card). To tell them
from the rest without a second checker, the catalog is padded with stand-in cards for what
it lacks and checked again: whatever the padded catalog still has is a problem of the
entries (a wrong value, an unknown key, a duplicate id, a guild with a card too many).

Each sentence is the checker's Problem (engine/arcana/problems.py: a code and its values);
`said_in(language, problems)` says them in the page's language (firmware/language's
`[catalog_check]`), English as `catalog check` prints them.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable
from typing import Any

from engine.arcana.catalog import (
    ARCANA,
    GUILD_CARDS,
    MOST_PILES,
    PILE_SIZE,
    CatalogError,
    parse_catalog,
)
from engine.arcana.problems import Problem, problem
from firmware.language import catalog_problem, using

STAND_IN = "stand-in·"  # stand-in ids begin so; an owner's card id would not
MAX_GUILDS = 16  # the box has 4; the checker's guild checks grow with guilds x cards
# The problems these pages find before the checker does, by code (English; firmware/language's
# `[catalog_check]` has them with the checker's).
SENTENCES = {
    "too_many_guilds": "guilds: {count} guilds, more than {most} (the box has 4)",
    "no_catalog": "no catalog yet",  # the catalog page's before any card is entered
}


def no_catalog() -> Problem:
    """What a catalog page lacks before there is a catalog at all."""
    return Problem("no_catalog", SENTENCES["no_catalog"], {})


def check_entries(data: Any, label: str = "catalog") -> tuple[list[str], list[str]]:
    """(problems of the entries, what is lacking), in the checker's sentences."""
    guilds = data.get("guilds") if isinstance(data, dict) else None
    if isinstance(guilds, dict) and len(guilds) > MAX_GUILDS:  # checked in no time, then
        params = {"count": len(guilds), "most": MAX_GUILDS}
        sentence = SENTENCES["too_many_guilds"].format(**params)
        return [Problem("too_many_guilds", sentence, params)], []
    everything = _problems(data, label)
    if not everything or not isinstance(data, dict):
        return everything, []
    padded = _problems(padded_catalog(data), label)
    entries = [p for p in everything if p in padded]
    lacking = [p for p in everything if p not in padded]
    return entries, lacking


def _problems(data: Any, label: str) -> list[str]:
    try:
        parse_catalog(data, None, label)
    except CatalogError as err:
        return list(err.problems)
    except (RecursionError, TypeError, AttributeError):  # no catalog shape at all
        return [problem("not_a_catalog")]
    return []


def said_in(language: str | None, problems: Iterable[str]) -> list[str]:
    """The problems in `language` (None: the table's first, English): a checker's problem by
    its code, any other sentence as it is."""
    with using(language):
        return [catalog_problem(said) for said in problems]


def fields_said_in(language: str | None, fields: dict[str, list[str]]) -> dict[str, list[str]]:
    """A card's problems by field (`card_problems`) in `language`."""
    return {key: said_in(language, sentences) for key, sentences in fields.items()}


def padded_catalog(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of the catalog with stand-in cards (and guilds) for what it lacks."""
    padded = copy.deepcopy(data)
    cards = padded.setdefault("cards", [])  # a new file has its guilds and no card yet
    if not isinstance(cards, list):
        return padded  # "missing value for cards": an entry problem, left as it is
    guilds = padded.get("guilds")
    if not isinstance(guilds, dict):
        return padded
    for number in range(len(guilds), 2):  # a game needs two guilds
        guilds[f"{STAND_IN}guild-{number}"] = {"tie_arcanum": "military"}
    entries = [card for card in cards if isinstance(card, dict)]
    for gid in guilds:
        have = Counter(c.get("kind") for c in entries if c.get("guild") == gid)
        if any(have[kind] > n for kind, n in GUILD_CARDS.items()):
            continue  # a card too many: no stand-in helps; the guild's sentence stays
        for kind, n in GUILD_CARDS.items():
            missing = range(have[kind], n)
            cards.extend(_stand_in(kind, f"{gid}-{kind}-{i}", guild=gid) for i in missing)
    market = [c for c in entries if c.get("main") is not None]
    fiefs = [c.get("fief") for c in market if isinstance(c.get("fief"), str)]
    fiefs = fiefs or [c.get("fief") for c in entries if c.get("kind") == "task"] or ["any"]
    for i in range(len(market), MOST_PILES * PILE_SIZE):
        fief = fiefs[i % len(fiefs)]
        cards.append(_stand_in("relic", f"market-{i}", main="military", fief=fief))
    if not any(c.get("kind") == "game_end" for c in entries):
        cards.append({"id": f"{STAND_IN}game_end", "kind": "game_end", "vp": 0})
    return padded


def _stand_in(kind: str, name: str, **fields: Any) -> dict[str, Any]:
    card: dict[str, Any] = {"id": STAND_IN + name, "kind": kind, "vp": 0, **fields}
    if kind != "base":
        card["arcana"] = dict.fromkeys(ARCANA, 1)
    if kind == "location":
        card["effect"] = "none"
    return card
