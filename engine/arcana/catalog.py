"""Card catalogs (house rules [1], [2], [9]): the printed values of one copy of the game.

The real cards' values are not public, so an owner enters their copy once as a TOML file with
the structure of the catalog object in `../shared/spec/records.md`. Loading checks everything
and reports every problem at once, each naming the card and the field:

    catalog = load_catalog("sample")            # the shipped, made-up sample deck
    catalog = load_catalog("my_copy.toml")      # an owner's file
    catalog.cards["m_agent_07"].arcana["political"]
    catalog.card_name("m_agent_07", "de")        # its name in German, else its `name`

A card or a guild may carry its name in the table's languages: `names = { de = "...",
fa = "..." }` beside `name` (docs/records.md, "Names in the players' languages"; the checks
are in engine/arcana/names.py).
"""

from __future__ import annotations

import copy
import difflib
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.arcana.names import check_twins, name_fault, parse_names
from engine.arcana.problems import Problem, problem
from engine.protocol import EngineError
from engine.records import MAX_DIGITS, shown

ARCANA = ("military", "political", "spiritual", "financial")
KINDS = ("base", "agent", "location", "relic", "game_end", "militia", "task")
PLAYABLE = ("agent", "location", "relic")
EFFECTS = ("none", "swap_stakes", "move_agent")
GUILD_NAMES = {
    "blades": "Blades",
    "ferrymen": "Ferrymen",
    "thieves": "Thieves",
    "usurers": "Usurers",
}
# House rule [2]: the default arcanum in which each guild wins ties.
DEFAULT_TIE_ARCANUM = {
    "blades": "military",
    "ferrymen": "political",
    "thieves": "spiritual",
    "usurers": "financial",
}
GUILD_CARDS = {"base": 1, "agent": 9, "location": 1, "relic": 1}
PILE_SIZE = 12
MOST_PILES = 5  # 2 and 4 players play with 5 stakes (house rule [3])
TASK_VP = 6
MAX_DEPTH = 8  # cards -> card -> arcana -> value is 4 levels
# The keys each table of a catalog may have; any other is a typo to point out.
CATALOG_KEYS = ("name", "guilds", "cards")
GUILD_KEYS = ("name", "names", "tie_arcanum")
LARGEST = 10**MAX_DIGITS - 1  # a catalog rides inline in records, which hold no longer number
CARD_KEYS = (
    "id",
    "kind",
    "vp",
    "name",
    "names",
    "guild",
    "main",
    "fief",
    "arcana",
    "effect",
    "count",
)
CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"
Say = Callable[[str, Problem], None]  # (field, problem): one problem of a card's field


class Problems(list[str]):
    """Every problem in order (each a Problem: its sentence, code and values), and those about
    one card's field by card number (from 1) and field ("id", "kind", "arcana.military"; ""
    for the card as a whole)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[int, dict[str, list[str]]] = {}

    def at(self, number: int, key: str, sentence: Problem) -> None:
        self.append(sentence)
        self.fields.setdefault(number, {}).setdefault(key, []).append(sentence)


class CatalogError(EngineError, ValueError):
    """A catalog that cannot be played; `problems` lists every sentence, one per fault (each
    a Problem: its code and values say it in the table's languages)."""

    def __init__(self, problems: list[str], source: str = "catalog") -> None:
        self.problems = problems
        self.source = source
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the catalog; fields that do not apply to its kind are None."""

    id: str
    kind: str
    vp: int
    name: str
    guild: str | None = None
    main: str | None = None
    fief: str | None = None
    arcana: dict[str, int] | None = None
    effect: str | None = None
    count: int | None = None
    names: dict[str, str] | None = None  # by language code, from the catalog's `names`

    def name_in(self, language: str | None) -> str:
        """The card's name in a language ("de"), else its `name`."""
        return (self.names or {}).get(language, self.name) if language else self.name

    @property
    def is_market(self) -> bool:
        return self.main is not None

    @property
    def threshold(self) -> int:
        """The strength needed to win this market card: its value in the main arcanum."""
        assert self.main is not None and self.arcana is not None
        return self.arcana[self.main]

    def value(self, arcanum: str) -> int:
        return self.arcana[arcanum] if self.arcana else 0


@dataclass(frozen=True, slots=True)
class Guild:
    id: str
    name: str
    tie_arcanum: str
    names: dict[str, str] | None = None  # by language code, from the catalog's `names`

    def name_in(self, language: str | None) -> str:
        """The guild's name in a language ("de"), else its `name`."""
        return (self.names or {}).get(language, self.name) if language else self.name


@dataclass(frozen=True, eq=False)
class Catalog:
    """A validated catalog: cards by id and the lists the rules and the screens need."""

    name: str
    guilds: dict[str, Guild]
    cards: dict[str, Card]
    source: Any  # what was loaded: a shipped name or the catalog object itself
    market: tuple[str, ...] = field(default=())
    militia: tuple[str, ...] = field(default=())
    tasks: tuple[str, ...] = field(default=())
    game_end: str = "game_end"

    def guild_cards(self, guild: str) -> list[Card]:
        return [card for card in self.cards.values() if card.guild == guild]

    def base_of(self, guild: str) -> str:
        return next(c.id for c in self.guild_cards(guild) if c.kind == "base")

    def kind(self, card_id: str) -> str:
        return self.cards[card_id].kind

    def card_name(self, card_id: str, language: str | None = None) -> str:
        """A card's name in `language` where the catalog gives one, else its `name`."""
        card = self.cards.get(card_id)
        return card.name_in(language) if card else card_id

    def fiefs(self) -> list[str]:
        return sorted({self.cards[c].fief or "" for c in self.market})

    def to_object(self) -> dict[str, Any]:
        """The catalog object of the spec (round-trips through `load_catalog`)."""
        cards = []
        for card in self.cards.values():
            entry: dict[str, Any] = {"id": card.id, "kind": card.kind, "vp": card.vp}
            for key in ("name", "guild", "main", "fief", "effect", "count"):
                if getattr(card, key) is not None:
                    entry[key] = getattr(card, key)
            if card.arcana is not None:
                entry["arcana"] = dict(card.arcana)
            if card.names:
                entry["names"] = dict(card.names)
            cards.append(entry)
        guilds: dict[str, Any] = {}
        for g in self.guilds.values():
            guilds[g.id] = {"name": g.name, "tie_arcanum": g.tie_arcanum}
            if g.names:
                guilds[g.id]["names"] = dict(g.names)
        return {"name": self.name, "guilds": guilds, "cards": cards}


def load_catalog(source: str | Path | dict[str, Any] | Catalog) -> Catalog:
    """A validated Catalog from a shipped name ("sample"), a TOML path or a catalog object.

    Raises CatalogError listing every problem (each names the card and the field).
    """
    if isinstance(source, Catalog):
        return source
    if isinstance(source, dict):
        catalog = parse_catalog(source, None)  # checked (depth too) before it is copied
        return Catalog(**{**_fields(catalog), "source": copy.deepcopy(source)})
    text = str(source)
    if "/" not in text and "\\" not in text and not text.endswith(".toml"):
        if not (CATALOG_DIR / f"{text}.toml").is_file():
            shipped = ", ".join(sorted(p.stem for p in CATALOG_DIR.glob("*.toml")))
            raise CatalogError([problem("no_shipped_catalog", name=text, shipped=shipped)], text)
        return _shipped(text)
    return _from_file(Path(text), text)


@lru_cache(maxsize=8)
def _shipped(name: str) -> Catalog:
    catalog = _from_file(CATALOG_DIR / f"{name}.toml", name)
    return Catalog(**{**_fields(catalog), "source": name})


def _fields(catalog: Catalog) -> dict[str, Any]:
    return {k: getattr(catalog, k) for k in catalog.__dataclass_fields__}


def _from_file(path: Path, label: str) -> Catalog:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise CatalogError([problem("unreadable", reason=err.strerror)], label) from None
    except UnicodeDecodeError:
        raise CatalogError([problem("not_utf8")], label) from None
    except tomllib.TOMLDecodeError as err:
        raise CatalogError([problem("not_toml", reason=str(err))], label) from None
    except RecursionError:
        raise CatalogError([problem("toml_too_deep")], label) from None
    except ValueError:  # tomllib's only other refusal: an integer of over 4,300 digits
        raise CatalogError([problem("toml_number_too_long")], label) from None
    catalog = parse_catalog(data, None, label)
    return Catalog(**{**_fields(catalog), "source": catalog.to_object()})


def parse_catalog(data: Any, source: Any, label: str = "catalog") -> Catalog:
    """Validate a catalog object (already parsed TOML or JSON) and build the Catalog."""
    problems = Problems()
    name, guilds, cards = _examine(data, label, problems)
    if problems:
        raise CatalogError(problems, label)
    return Catalog(
        name=name,
        guilds=guilds,
        cards=cards,
        source=source,
        market=tuple(sorted(c.id for c in cards.values() if c.is_market)),
        militia=tuple(sorted(c.id for c in cards.values() if c.kind == "militia")),
        tasks=tuple(sorted(c.id for c in cards.values() if c.kind == "task")),
        game_end=next(c.id for c in cards.values() if c.kind == "game_end"),
    )


def card_problems(data: dict[str, Any], number: int) -> dict[str, list[str]]:
    """What `catalog check` says about card `number` (from 1) of a catalog object, by field:

        >>> card_problems({"guilds": {"blades": {}}, "cards": [{"id": "x", "kind": "base"}]}, 1)
        {'vp': ['card "x": missing value for vp'], 'guild': ['card "x": missing value for guild']}

    The same sentences as the whole check, for one card only (the owner's form checks a card
    as it is typed, in a catalog that is not complete yet). Raises CatalogError only for a
    catalog nested too deeply to be checked at all.
    """
    problems = Problems()
    _examine(data, "catalog", problems)
    return problems.fields.get(number, {})


def _examine(
    data: Any, label: str, problems: Problems
) -> tuple[str, dict[str, Guild], dict[str, Card]]:
    """Every check of a catalog object, each fault's sentence into `problems`."""
    if not isinstance(data, dict):
        raise CatalogError([problem("not_a_catalog")], label)
    deep = _too_deep(data)
    if deep is not None:
        raise CatalogError([problem("too_deep", place=deep, most=MAX_DEPTH)], label)
    _unknown_keys(data, CATALOG_KEYS, "unknown_key", {}, _anywhere(problems))
    name = data.get("name")
    if name is None or name == "":
        problems.append(problem("catalog_name_missing"))
        name = label
    elif not isinstance(name, str):
        problems.append(problem("catalog_name_not_text", value=shown(name)))
        name = label
    guilds = _parse_guilds(data.get("guilds"), problems)
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        problems.append(problem("cards_missing"))
        raw_cards = []
    cards: dict[str, Card] = {}
    first_seen: dict[str, int] = {}
    for number, raw in enumerate(raw_cards, start=1):
        card = _parse_card(raw, number, guilds, problems)
        if card is None:
            continue
        if card.id in cards:
            said = problem("duplicate_id", card=card.id, first=first_seen[card.id], second=number)
            problems.at(number, "id", said)
            continue
        cards[card.id] = card
        first_seen[card.id] = number
    _check_totals(cards, guilds, first_seen, problems)
    return name, guilds, cards


def _parse_guilds(raw: Any, problems: list[str]) -> dict[str, Guild]:
    if not isinstance(raw, dict) or not raw:
        problems.append(problem("guilds_missing"))
        return {}
    guilds = {}
    for gid, entry in raw.items():
        if not isinstance(entry, dict):
            problems.append(problem("guild_not_table", guild=gid, value=shown(entry)))
            entry = {}
        _unknown_keys(entry, GUILD_KEYS, "guild_unknown_key", {"guild": gid}, _anywhere(problems))
        tie = entry.get("tie_arcanum", DEFAULT_TIE_ARCANUM.get(gid))
        if tie is None:
            problems.append(problem("guild_tie_missing", guild=gid))
        elif not isinstance(tie, str) or tie not in ARCANA:
            problems.append(problem("guild_tie_unknown", guild=gid, value=tie))
            tie = "military"
        label = entry.get("name", GUILD_NAMES.get(gid, gid.replace("_", " ").title()))
        fault = name_fault(label)
        if fault:
            value = {"value": shown(label)} if fault == "not_text" else {}
            problems.append(problem(f"guild_name_{fault}", guild=gid, **value))
            label = gid
        names = parse_names(entry.get("names"), "guild", gid, problems)
        guild = Guild(gid, label, tie, names)
        check_twins(gid, guild, guilds, problems)
        guilds[gid] = guild
    return guilds


def _parse_card(raw: Any, number: int, guilds: dict[str, Guild], problems: Problems) -> Card | None:
    def say(key: str, sentence: str) -> None:
        problems.at(number, key, sentence)

    if not isinstance(raw, dict):
        say("", problem("card_not_table", number=number))
        return None
    cid = raw.get("id")
    if cid is None or cid == "":
        say("id", problem("card_id_missing", number=number))
        return None
    if not isinstance(cid, str):
        say("id", problem("card_id_not_text", number=number, value=shown(cid)))
        return None
    if not cid.isprintable() or cid != cid.strip():
        say("id", problem("card_id_unprintable", number=number, value=shown(cid)))
        return None
    _unknown_keys(raw, CARD_KEYS, "card_unknown_key", {"card": cid}, say)
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        if kind is None:
            say("kind", problem("card_missing", card=cid, field="kind"))
        else:
            say("kind", problem("card_kind_unknown", card=cid, value=kind, known=", ".join(KINDS)))
        return None
    vp = _count(raw, "vp", cid, say)
    guild = raw.get("guild")
    main = raw.get("main")
    for key, value in (("guild", guild), ("main", main)):
        if value is not None and not isinstance(value, str):
            say(key, problem("card_not_text", card=cid, field=key, value=shown(value)))
    if isinstance(guild, str) and guild not in guilds:
        say("guild", problem("card_guild_unknown", card=cid, value=guild))
    if isinstance(main, str) and main not in ARCANA:
        say("main", problem("card_main_unknown", card=cid, value=main))
    arcana = None
    if kind in PLAYABLE or kind == "militia":
        arcana = _parse_arcana(raw.get("arcana"), cid, say)
    if kind in PLAYABLE:
        if guild is None and main is None:
            say("guild", problem("card_guild_or_main", card=cid))
        if guild is not None and main is not None:
            say("main", problem("card_guild_and_main", card=cid))
    elif kind == "base" and guild is None:
        say("guild", problem("card_missing", card=cid, field="guild"))
    elif kind not in ("base",) and (guild is not None or main is not None):
        say("guild", problem("card_no_guild", card=cid, kind=kind))
    fief = raw.get("fief")
    if (main is not None or kind == "task") and (not isinstance(fief, str) or not fief):
        say("fief", problem("card_missing", card=cid, field="fief"))
    raw_arcana = raw.get("arcana")
    printed = raw_arcana.get(main) if isinstance(raw_arcana, dict) and main in ARCANA else None
    if isinstance(printed, int) and not isinstance(printed, bool) and printed == 0:
        say(f"arcana.{main}", problem("card_main_zero", card=cid, arcanum=main))
    effect = raw.get("effect")
    if kind == "location":
        if effect is None:
            say("effect", problem("card_effect_missing", card=cid, known=", ".join(EFFECTS)))
        elif not isinstance(effect, str) or effect not in EFFECTS:
            known = ", ".join(EFFECTS)
            say("effect", problem("card_effect_unknown", card=cid, value=effect, known=known))
    count = _count(raw, "count", cid, say, minimum=1) if kind == "task" else None
    name = raw.get("name")
    fault = None if name is None else name_fault(name)
    if fault:
        value = {"value": shown(name)} if fault == "not_text" else {}
        say("name", problem(f"card_name_{fault}", card=cid, **value))
    said: list[Problem] = []  # the names' own checks (engine/arcana/names.py)
    names = parse_names(raw.get("names"), "card", cid, said)
    for sentence in said:
        say("names", sentence)
    return Card(
        id=cid,
        kind=kind,
        vp=vp,
        name=name if isinstance(name, str) and not fault else _default_name(cid),
        guild=guild if isinstance(guild, str) else None,
        main=main if isinstance(main, str) else None,
        fief=fief if isinstance(fief, str) and (main is not None or kind == "task") else None,
        arcana=arcana,
        effect=effect if kind == "location" else None,
        count=count,
        names=names,
    )


def _count(raw: dict, key: str, cid: str, say: Say, minimum: int = 0) -> int:
    value = raw.get(key)
    if value is None:
        say(key, problem("card_missing", card=cid, field=key))
        return minimum
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        said = problem("card_not_whole", card=cid, field=key, minimum=minimum, value=shown(value))
        say(key, said)
        return minimum
    if value > LARGEST:
        said = problem("card_too_large", card=cid, field=key, value=shown(value), largest=LARGEST)
        say(key, said)
        return minimum
    return value


def _parse_arcana(raw: Any, cid: str, say: Say) -> dict[str, int]:
    if not isinstance(raw, dict):
        say("arcana", problem("card_arcana_missing", card=cid, known=", ".join(ARCANA)))
        return dict.fromkeys(ARCANA, 0)
    for key in raw:
        if key not in ARCANA:
            close, hint = _suggestion(key, ARCANA)
            said = problem(f"card_arcanum_unknown{close}", card=cid, value=key, **hint)
            say(f"arcana.{key}", said)
    values = {}
    for arcanum in ARCANA:
        value = raw.get(arcanum)
        if value is None:
            say(f"arcana.{arcanum}", problem("card_missing", card=cid, field=f"arcana.{arcanum}"))
            value = 0
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LARGEST:
            said = problem(
                "card_arcanum_range", card=cid, arcanum=arcanum, largest=LARGEST, value=shown(value)
            )
            say(f"arcana.{arcanum}", said)
            value = 0
        values[arcanum] = value
    return values


def _check_totals(
    cards: dict[str, Card], guilds: dict[str, Guild], numbers: dict[str, int], problems: Problems
) -> None:
    for gid in guilds:
        have = Counter(c.kind for c in cards.values() if c.guild == gid)
        if any(have[kind] != n for kind, n in GUILD_CARDS.items()) or sum(have.values()) != 12:
            counts = {kind: have[kind] for kind in GUILD_CARDS}
            problems.append(problem("guild_cards", guild=gid, **counts))
    if len(guilds) < 2:
        problems.append(problem("too_few_guilds", count=len(guilds)))
    market = [c for c in cards.values() if c.is_market]
    if len(market) < MOST_PILES * PILE_SIZE:
        need = MOST_PILES * PILE_SIZE
        said = problem(
            "too_few_market", count=len(market), need=need, piles=MOST_PILES, size=PILE_SIZE
        )
        problems.append(said)
    ends = [c.id for c in cards.values() if c.kind == "game_end"]
    if len(ends) != 1:
        problems.append(problem("game_end_count", count=len(ends)))
    fiefs = {c.fief for c in market}
    for task in (c for c in cards.values() if c.kind == "task"):
        if task.fief is not None and fiefs and task.fief not in fiefs:
            said = problem("card_fief_unknown", card=task.id, value=task.fief)
            problems.at(numbers[task.id], "fief", said)


def _unknown_keys(
    raw: dict, known: tuple[str, ...], code: str, where: dict[str, str], say: Say
) -> None:
    """Each key not `known`: problem `code` (or `code`_close with a likely meant key)."""
    for key in raw:
        if key not in known:
            close, hint = _suggestion(key, known)
            say(str(key), problem(code + close, **where, key=key, **hint))


def _anywhere(problems: list[str]) -> Say:
    """A `say` for problems about no one card: only the problem is kept."""
    return lambda _key, said: problems.append(said)


def _suggestion(key: str, known: tuple[str, ...]) -> tuple[str, dict[str, str]]:
    """("_close", {"close": "tie_arcanum"}) for a typo (the problem's code ends "_close"),
    else ("", {"known": the keys that may be there})."""
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    if close:
        return "_close", {"close": close[0]}
    return "", {"known": ", ".join(known)}


def _too_deep(data: Any) -> str | None:
    """The first place nested deeper than MAX_DEPTH levels, as `cards[3].arcana`, or None."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, place, depth = stack.pop()
        if depth > MAX_DEPTH:
            return place
        if isinstance(value, dict):
            stack.extend(
                (v, f"{place}.{k}" if place else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            stack.extend((v, f"{place}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


def _default_name(card_id: str) -> str:
    return card_id.replace("_", " ").capitalize()
