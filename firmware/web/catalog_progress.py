"""How far the owner's catalog is: cards entered and missing per guild and kind against the
box, duplicates, and tags that are bound to no card of it or cards no tag stands for.

    progress(data, bindings)   # data: the catalog object; bindings: Arcana tag UID -> card id

The box (../shared/rules: the German rules and their README's public facts, house rules [1]
and [10]): 4 guilds x 12 cards (1 base, 9 agents, 1 location, 1 relic), 85 market cards, the
game-end card, 6 militia and 22 tasks: 162 cards. The box's start-player card has no tag and
is no catalog card. How the 85 market cards split into agents, locations and relics is not
public: they are counted by kind but expected only as a whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.arcana.catalog import GUILD_CARDS, GUILD_NAMES, PLAYABLE
from firmware.language import DEFAULT, codes, load
from firmware.web.catalog_checks import check_entries, no_catalog

MARKET_CARDS = 85
BOX = {"game_end": 1, "militia": 6, "task": 22}
BOX_CARDS = len(GUILD_NAMES) * sum(GUILD_CARDS.values()) + MARKET_CARDS + sum(BOX.values())


def progress(data: dict[str, Any], bindings: Mapping[str, str]) -> dict[str, Any]:
    """The progress page's JSON for a catalog object (possibly incomplete, possibly wrong)."""
    raw = data.get("cards")
    cards = [c for c in raw if isinstance(c, dict)] if isinstance(raw, list) else []
    ids = [c["id"] for c in cards if isinstance(c.get("id"), str) and c["id"]]
    guilds = data.get("guilds") if isinstance(data.get("guilds"), dict) else None
    problems, lacking = check_entries(data) if data else ([], [no_catalog()])
    entered = len(set(ids))
    return {
        "name": data.get("name") if isinstance(data.get("name"), str) else None,
        "entered": entered,
        "expected": BOX_CARDS,
        "missing": max(0, BOX_CARDS - entered),
        "guilds": [_guild(gid, guilds or {}, cards) for gid in (guilds or GUILD_NAMES)],
        "market": _market(cards),
        "others": {kind: _count(_kind_count(cards, kind), n) for kind, n in BOX.items()},
        "duplicates": _duplicates(cards),
        "tags": _tags(ids, bindings),
        "check": {"problems": problems, "lacking": lacking, "playable": not (problems or lacking)},
    }


def _count(entered: int, expected: int) -> dict[str, int]:
    return {
        "entered": entered,
        "expected": expected,
        "missing": max(0, expected - entered),
        "extra": max(0, entered - expected),
    }


def _kind_count(cards: list[dict[str, Any]], kind: str) -> int:
    return sum(1 for card in cards if card.get("kind") == kind)


def _guild(gid: str, guilds: dict[str, Any], cards: list[dict[str, Any]]) -> dict[str, Any]:
    entry = guilds.get(gid)
    name = entry.get("name") if isinstance(entry, dict) else None
    name = name if isinstance(name, str) else GUILD_NAMES.get(gid, gid)
    own = entry.get("names") if isinstance(entry, dict) else None
    have = Counter(card.get("kind") for card in cards if card.get("guild") == gid)
    return {
        "id": gid,
        "name": name,
        "names": _names(name, own if isinstance(own, dict) else {}),
        "kinds": {kind: _count(have[kind], n) for kind, n in GUILD_CARDS.items()},
        **_count(sum(have[kind] for kind in GUILD_CARDS), sum(GUILD_CARDS.values())),
    }


def _names(name: str, own: dict[str, Any]) -> dict[str, str]:
    """A guild's name in each other language: the catalog's own `names`, else the sample
    catalogs' (`[names]`: "Ferrymen" -> "Fährleute"); a language with neither is left out."""
    found = {}
    for code in codes():
        local = own.get(code) if isinstance(own.get(code), str) else None
        local = local or load(code).names.get(name)
        if code != DEFAULT and local:
            found[code] = local
    return found


def _market(cards: list[dict[str, Any]]) -> dict[str, Any]:
    market = [c for c in cards if c.get("main") is not None and c.get("guild") is None]
    kinds = Counter(card.get("kind") for card in market)
    return {
        **_count(len(market), MARKET_CARDS),
        "kinds": {kind: kinds[kind] for kind in PLAYABLE},
    }


def _duplicates(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ids entered more than once, with the card numbers (from 1) as the checker counts."""
    numbers: dict[str, list[int]] = {}
    for number, card in enumerate(cards, start=1):
        if isinstance(card.get("id"), str):
            numbers.setdefault(card["id"], []).append(number)
    return [{"id": cid, "cards": found} for cid, found in numbers.items() if len(found) > 1]


def _tags(ids: list[str], bindings: Mapping[str, str]) -> dict[str, Any]:
    known = set(ids)
    tags: dict[str, list[str]] = {}
    for uid, card in sorted(bindings.items()):
        tags.setdefault(card, []).append(uid)
    return {
        "bound": len(bindings),
        "not_in_catalog": [
            {"uid": uid, "card": card}
            for uid, card in sorted(bindings.items())
            if card not in known
        ],
        "without_tag": [cid for cid in dict.fromkeys(ids) if cid not in tags],
        "bound_twice": [
            {"card": card, "tags": uids} for card, uids in tags.items() if len(uids) > 1
        ],
    }
