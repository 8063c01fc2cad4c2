"""Setup [4]: the first position from a record's `setup` object, and random setups."""

from __future__ import annotations

import random
from typing import Any

from engine.arcana.catalog import PILE_SIZE, Catalog, CatalogError, load_catalog
from engine.arcana.state import MAX_PLAYERS, MIN_PLAYERS, Stake, State, stake_count
from engine.records import RecordError, shown

VARIANTS = ("basic", "advanced")
HAND = 4
TASKS_DEALT = 4
TASKS_KEPT = 2


def catalog_of(value: Any) -> Catalog:
    if not isinstance(value, str | dict):
        raise RecordError('setup needs "catalog": "sample" or a catalog object')
    try:
        return load_catalog(value)
    except CatalogError as err:
        raise RecordError(f"bad catalog: {err}") from None


def initial_state(setup: dict[str, Any]) -> State:
    """The position after setup [4]; RecordError names what is wrong with the setup."""
    if not isinstance(setup, dict):
        raise RecordError("the setup must be an object")
    catalog = catalog_of(setup.get("catalog"))
    variant = setup.get("variant", "basic")
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RecordError(f'unknown variant {shown(variant)} (use "basic" or "advanced")')
    names, guilds = _players(setup.get("players"), catalog)
    count = len(names)
    start = setup.get("start_player")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < count:
        raise RecordError(f'"start_player" must be a seat number 0..{count - 1}')
    markets = _stakes(setup.get("stakes"), catalog, stake_count(count))
    tasks = _tasks(setup.get("tasks"), catalog, variant, count)
    possession = tuple(
        tuple(sorted(c.id for c in catalog.guild_cards(g) if c.kind != "base")) for g in guilds
    )
    free = len(markets) - 1
    stakes = tuple(
        # the free-trade pile also holds the game-end card (rule [6])
        Stake(market, PILE_SIZE - 1 + (i == free), tuple(() for _ in range(count)))
        for i, market in enumerate(markets)
    )
    empty = tuple(() for _ in range(count))
    return State(
        catalog=catalog,
        variant=variant,
        names=names,
        guilds=guilds,
        round=1,
        start_player=start,
        turn=start,
        phase="play",
        possession=possession,
        ready=possession,
        hand=tuple(min(HAND, len(cards)) for cards in possession),
        acted=False,
        under_base=empty,
        tasks=tasks,
        stashable=empty,
        stakes=stakes,
        militia_deck=catalog.militia if variant == "advanced" else (),
        reveals=(),
        militia_due=None,
        ending=False,
        game_end_revealed=False,
        seen=frozenset(markets),
    )


def _players(value: Any, catalog: Catalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not isinstance(value, list) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise RecordError(
            f'"players" must list {MIN_PLAYERS} to {MAX_PLAYERS} players'
            ' as {"name": ..., "guild": ...}'
        )
    names, guilds = [], []
    for seat, entry in enumerate(value):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise RecordError(f'player {seat} needs a "name" and a "guild"')
        guild = entry.get("guild")
        if not isinstance(guild, str) or guild not in catalog.guilds:
            known = ", ".join(sorted(catalog.guilds))
            raise RecordError(f"player {seat}: unknown guild {shown(guild)} (known: {known})")
        if guild in guilds:
            raise RecordError(f'player {seat}: guild "{guild}" is already taken')
        names.append(entry["name"])
        guilds.append(guild)
    return tuple(names), tuple(guilds)


def _stakes(value: Any, catalog: Catalog, count: int) -> list[str]:
    if not isinstance(value, list) or len(value) != count:
        raise RecordError(f'"stakes" must name the {count} market cards revealed at setup')
    for i, card in enumerate(value):
        if not isinstance(card, str) or card not in catalog.cards:
            raise RecordError(f"stake {i}: unknown card {shown(card)}")
        if not catalog.cards[card].is_market:
            raise RecordError(f'stake {i}: "{card}" is not a market card')
    if len(set(value)) != len(value):
        raise RecordError('"stakes" names a market card twice')
    return list(value)


def _tasks(value: Any, catalog: Catalog, variant: str, count: int) -> tuple[tuple[str, ...], ...]:
    if variant == "basic":
        if value not in (None, []):
            raise RecordError('"tasks" belong to the advanced variant')
        return tuple(() for _ in range(count))
    if value is None:  # tasks kept secret from the companion: they are not scored
        return tuple(() for _ in range(count))
    if not isinstance(value, list) or len(value) != count:
        raise RecordError(f'the advanced variant needs "tasks": {TASKS_KEPT} task cards per player')
    if len(catalog.tasks) < TASKS_DEALT * count:
        raise RecordError(f"the catalog has {len(catalog.tasks)} tasks, too few to deal {count}")
    seen: set[str] = set()
    kept = []
    for seat, cards in enumerate(value):
        if not isinstance(cards, list) or len(cards) != TASKS_KEPT:
            raise RecordError(f"player {seat} keeps exactly {TASKS_KEPT} task cards")
        for card in cards:
            if not isinstance(card, str) or catalog.cards.get(card) is None:
                raise RecordError(f"player {seat}: unknown task {shown(card)}")
            if catalog.cards[card].kind != "task":
                raise RecordError(f'player {seat}: "{card}" is not a task card')
            if card in seen:
                raise RecordError(f'task "{card}" is dealt twice')
            seen.add(card)
        kept.append(tuple(sorted(cards)))
    return tuple(kept)


def deal_piles(rng: random.Random, catalog: Catalog, players: int) -> list[list[str]]:
    """Shuffle the market cards into the stakes' piles, top card first; the game-end card goes
    among the last 5 cards of the free-trade pile (the last pile)."""
    market = list(catalog.market)
    rng.shuffle(market)
    count = stake_count(players)
    piles = [market[i * PILE_SIZE : (i + 1) * PILE_SIZE] for i in range(count)]
    piles[-1].insert(len(piles[-1]) - rng.randrange(5), catalog.game_end)
    return piles


def random_setup(
    rng: random.Random,
    players: int,
    variant: str = "basic",
    piles: list[list[str]] | None = None,
    catalog: str | Catalog = "sample",
) -> dict[str, Any]:
    """A record setup (the sample catalog unless given): guilds, start player, stakes and
    tasks drawn from `rng` (stakes from `piles` when given, as dealt by `deal_piles`)."""
    catalog = load_catalog(catalog)
    guilds = rng.sample(sorted(catalog.guilds), players)
    if piles is None:
        piles = deal_piles(rng, catalog, players)
    setup: dict[str, Any] = {
        "catalog": catalog.source,
        "variant": variant,
        "players": [
            {"name": name, "guild": guild}
            for name, guild in zip(("Ann", "Ben", "Cas", "Dee"), guilds, strict=False)
        ],
        "start_player": rng.randrange(players),
        "stakes": [pile[0] for pile in piles],
    }
    if variant == "advanced":
        dealt = rng.sample(catalog.tasks, TASKS_DEALT * players)
        hands = [dealt[p * TASKS_DEALT : (p + 1) * TASKS_DEALT] for p in range(players)]
        setup["tasks"] = [sorted(rng.sample(hand, TASKS_KEPT)) for hand in hands]
    return setup
