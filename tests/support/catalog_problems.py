"""One broken catalog for each problem `catalog check` can say, with its sentence word for
word: the engine's tests check the English, the language tests say each in every language.

    for code, said, expected in every_problem(tmp_path): ...
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.arcana.catalog import CatalogError, load_catalog, parse_catalog
from firmware.web.catalog_checks import check_entries
from firmware.web.catalog_progress import progress

Change = Callable[[dict[str, Any]], object]


def sample() -> dict[str, Any]:
    return copy.deepcopy(load_catalog("sample").to_object())


def card(data: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in data["cards"] if isinstance(c, dict) and c.get("id") == cid)


def guild(data: dict[str, Any], gid: str) -> dict[str, Any]:
    return data["guilds"][gid]


def drop(data: dict[str, Any], cid: str) -> None:
    data["cards"].remove(card(data, cid))


def market_of(data: dict[str, Any], keep: int) -> list[dict[str, Any]]:
    """The catalog's cards with only its first `keep` market cards."""
    market = [c for c in data["cards"] if "main" in c]
    return [c for c in data["cards"] if "main" not in c] + market[:keep]


def problems_of(data: Any) -> list[str]:
    try:
        parse_catalog(data, None)
    except CatalogError as err:
        return err.problems
    return []


A = "m_agent_07"  # a market agent, card 55 of the sample
NAMES = "the languages of the table: en, de, fa"
PLAIN = "give the name, or leave the key out"
KEYS = "id, kind, vp, name, names, guild, main, fief, arcana, effect, count"
ARCANA = "military, political, spiritual, financial"

# (code, change to the sample catalog, the sentence said)
CHANGES: list[tuple[str, Change, str]] = [
    ("not_a_catalog", lambda d: None,  # checked as [] instead of the catalog: see below
     "a catalog is a table with name, guilds and cards"),
    ("too_deep", lambda d: card(d, A).update(vp=[[[[[[[[[1]]]]]]]]]),
     "cards[54].vp[0][0][0][0][0][0]: nested deeper than 8 levels"),
    ("unknown_key_close", lambda d: d.update(nmae="x"), "nmae: unknown key (did you mean name?)"),
    ("unknown_key", lambda d: d.update(zzz=1),
     "zzz: unknown key (known: name, guilds, cards)"),
    ("catalog_name_missing", lambda d: d.pop("name"), "missing value for the catalog's name"),
    ("catalog_name_not_text", lambda d: d.update(name=["x"]),
     "name: the catalog's name must be text, not ['x']"),
    ("cards_missing", lambda d: d.update(cards=[]),
     "missing value for cards (an array of card tables)"),
    ("guilds_missing", lambda d: d.update(guilds={}),
     "missing value for guilds (a table per guild)"),
    ("duplicate_id", lambda d: d["cards"].append(dict(card(d, A))),
     f'duplicate id "{A}" (cards 55 and 163)'),
    ("guild_not_table", lambda d: d["guilds"].update(thieves=5),
     "[guilds.thieves]: a guild is a table with name and tie_arcanum, not 5"),
    ("guild_unknown_key_close", lambda d: guild(d, "thieves").update(tie_arcanumm="spiritual"),
     "[guilds.thieves] tie_arcanumm: unknown key (did you mean tie_arcanum?)"),
    ("guild_unknown_key", lambda d: guild(d, "thieves").update(zzz=1),
     "[guilds.thieves] zzz: unknown key (known: name, names, tie_arcanum)"),
    ("guild_tie_missing", lambda d: guild(d, "thieves").update(tie_arcanum=None),
     'guild "thieves": missing value for tie_arcanum'),
    ("guild_tie_unknown", lambda d: guild(d, "thieves").update(tie_arcanum="luck"),
     'guild "thieves": unknown arcanum "luck" in tie_arcanum'),
    ("guild_name_not_text", lambda d: guild(d, "thieves").update(name=["x"]),
     "[guilds.thieves] name: a guild's name must be text, not ['x']"),
    ("guild_name_empty", lambda d: guild(d, "thieves").update(name=" "),
     f"[guilds.thieves] name: a guild's name is empty ({PLAIN})"),
    ("guild_twin", lambda d: guild(d, "thieves").update(name="blades"),
     '[guilds.thieves] name: "blades" is the name of guild "blades" too'),
    ("guild_twin_in", lambda d: guild(d, "blades").update(names={"de": "Thieves"}),
     '[guilds.thieves] name: "Thieves" is the name of guild "blades" too (in de)'),
    ("guild_twin_own", lambda d: [guild(d, g).update(names={"fa": "Klingen"})
                                  for g in ("blades", "thieves")],
     '[guilds.thieves] names.fa: "Klingen" is the name of guild "blades" too (in fa)'),
    ("guild_names_not_table", lambda d: guild(d, "thieves").update(names="Diebe"),
     "[guilds.thieves] names: a table of names by language (en, de, fa), not 'Diebe'"),
    ("guild_names_unknown_close", lambda d: guild(d, "thieves").update(names={"DE": "Diebe"}),
     '[guilds.thieves] names: unknown language "DE" (did you mean de?)'),
    ("guild_names_unknown", lambda d: guild(d, "thieves").update(names={"xx": "Diebe"}),
     f'[guilds.thieves] names: unknown language "xx" ({NAMES})'),
    ("guild_names_not_text", lambda d: guild(d, "thieves").update(names={"de": 3}),
     "[guilds.thieves] names.de: the de name must be text, not 3"),
    ("guild_names_empty", lambda d: guild(d, "thieves").update(names={"de": ""}),
     f"[guilds.thieves] names.de: the de name is empty ({PLAIN})"),
    ("guild_cards", lambda d: drop(d, "thieves_agent_9"),
     'guild "thieves": needs exactly 1 base + 9 agent + 1 location + 1 relic, '
     "has 1 base, 8 agent, 1 location, 1 relic"),
    ("card_not_table", lambda d: d["cards"].append(5),
     "card 163: a card is a table with id, kind and vp"),
    ("card_id_missing", lambda d: card(d, A).pop("id"), "card 55: missing value for id"),
    ("card_id_not_text", lambda d: card(d, A).update(id=7), "card 55: id must be text, not 7"),
    ("card_id_unprintable", lambda d: card(d, A).update(id="m\u0007x"),
     "card 55: id 'm\\x07x' has a control character or edge space"),
    ("card_unknown_key_close", lambda d: card(d, A).update(fiefs="temple"),
     f'card "{A}": fiefs: unknown key (did you mean fief?)'),
    ("card_unknown_key", lambda d: card(d, A).update(colour=1),
     f'card "{A}": colour: unknown key (known: {KEYS})'),
    ("card_missing", lambda d: card(d, A).pop("vp"), f'card "{A}": missing value for vp'),
    ("card_kind_unknown", lambda d: card(d, A).update(kind="dragon"),
     f'card "{A}": unknown kind "dragon" in kind '
     "(one of base, agent, location, relic, game_end, militia, task)"),
    ("card_not_text", lambda d: card(d, A).update(main={"a": 1}),
     f"card \"{A}\": main must be text, not {{'a': 1}}"),
    ("card_guild_unknown", lambda d: card(d, "blades_agent_2").update(guild="pirates"),
     'card "blades_agent_2": unknown guild "pirates" in guild'),
    ("card_main_unknown", lambda d: card(d, A).update(main="magic"),
     f'card "{A}": unknown arcanum "magic" in main'),
    ("card_guild_or_main", lambda d: card(d, "blades_agent_2").pop("guild"),
     'card "blades_agent_2": missing value for guild (guild card) or main (market card)'),
    ("card_guild_and_main", lambda d: card(d, A).update(guild="blades"),
     f'card "{A}": a card has either guild or main, not both'),
    ("card_no_guild", lambda d: card(d, "militia_1").update(guild="blades"),
     'card "militia_1": a militia card has no guild and no main'),
    ("card_main_zero", lambda d: card(d, A)["arcana"].update(financial=0),
     f'card "{A}": the main arcanum financial must be at least 1 in arcana.financial'),
    ("card_effect_missing", lambda d: card(d, "m_loc_03").pop("effect"),
     'card "m_loc_03": missing value for effect (one of none, swap_stakes, move_agent)'),
    ("card_effect_unknown", lambda d: card(d, "m_loc_03").update(effect="teleport"),
     'card "m_loc_03": unknown location effect "teleport" in effect '
     "(one of none, swap_stakes, move_agent)"),
    ("card_name_not_text", lambda d: card(d, A).update(name=3),
     f'card "{A}": name must be text, not 3'),
    ("card_name_empty", lambda d: card(d, A).update(name=""),
     f'card "{A}": name is empty ({PLAIN})'),
    ("card_names_not_table", lambda d: card(d, A).update(names=["x"]),
     f"card \"{A}\": names: a table of names by language (en, de, fa), not ['x']"),
    ("card_names_unknown_close", lambda d: card(d, A).update(names={"Fa": "x"}),
     f'card "{A}": names: unknown language "Fa" (did you mean fa?)'),
    ("card_names_unknown", lambda d: card(d, A).update(names={"ger": "x"}),
     f'card "{A}": names: unknown language "ger" ({NAMES})'),
    ("card_names_not_text", lambda d: card(d, A).update(names={"fa": None}),
     f'card "{A}": names.fa: the fa name must be text, not None'),
    ("card_names_empty", lambda d: card(d, A).update(names={"de": " \t"}),
     f'card "{A}": names.de: the de name is empty ({PLAIN})'),
    ("card_not_whole", lambda d: card(d, A).update(vp=-1),
     f'card "{A}": vp must be a whole number >= 0, not -1'),
    ("card_too_large", lambda d: card(d, A).update(vp=10**15),
     f'card "{A}": vp is 1000000000000000, more than a record holds (999999999999999)'),
    ("card_arcana_missing", lambda d: card(d, A).pop("arcana"),
     f'card "{A}": missing value for arcana ({ARCANA})'),
    ("card_arcanum_unknown_close", lambda d: card(d, A)["arcana"].update(militray=1),
     f'card "{A}": unknown arcanum "militray" in arcana (did you mean military?)'),
    ("card_arcanum_unknown", lambda d: card(d, A)["arcana"].update(luck=1),
     f'card "{A}": unknown arcanum "luck" in arcana (known: {ARCANA})'),
    ("card_arcanum_range", lambda d: card(d, A)["arcana"].update(military=10**15),
     f'card "{A}": arcana.military must be a whole number from 0 to 999999999999999, '
     "not 1000000000000000"),
    ("card_fief_unknown", lambda d: card(d, "task_03").update(fief="moon"),
     'card "task_03": unknown fief "moon" in fief (no market card)'),
    ("too_few_guilds", lambda d: d.update(guilds={"blades": guild(d, "blades")}),
     "guilds: a game needs at least 2 guilds, the catalog has 1"),
    ("too_few_market", lambda d: d.update(cards=market_of(d, 59)),
     "too few market cards for the piles: 59, need 60 (5 piles of 12)"),
    ("game_end_count", lambda d: drop(d, "game_end"),
     "cards: need exactly 1 game_end card, found 0"),
]  # fmt: skip

BROKEN = b'name = "x"\n[[cards]\n'


def toml_error(content: bytes) -> str:
    """tomllib's own words for what is wrong (they change with Python's version)."""
    try:
        tomllib.loads(content.decode())
    except tomllib.TOMLDecodeError as err:
        return str(err)
    raise AssertionError("valid TOML")


# (code, file contents or None for no file, the sentence said)
FILES: list[tuple[str, bytes | None, str]] = [
    ("unreadable", None, "cannot read the file (No such file or directory)"),
    ("not_utf8", b'name = "\xff"\n', "the file is not UTF-8 text"),
    ("not_toml", BROKEN, f"not valid TOML ({toml_error(BROKEN)})"),
    ("toml_too_deep", b"a = " + b"[" * 5000 + b"]" * 5000, "not valid TOML (nested too deeply)"),
    ("toml_number_too_long", b"a = " + b"9" * 5000, "not valid TOML (a number far too long)"),
]  # fmt: skip


def _caught(load: Callable[[], object]) -> list[str]:
    try:
        load()
    except CatalogError as err:
        return err.problems
    return []


def every_problem(tmp_path: Path) -> Iterator[tuple[str, list[str], str]]:
    """(code, every problem said, the sentence expected among them) for each case."""
    for code, change, expected in CHANGES:
        data = sample()
        change(data)
        yield code, problems_of([] if code == "not_a_catalog" else data), expected
    for code, content, expected in FILES:
        path = tmp_path / f"{code}.toml"
        if content is not None:
            path.write_bytes(content)
        yield code, _caught(lambda path=path: load_catalog(path)), expected
    yield (
        "no_shipped_catalog",
        _caught(lambda: load_catalog("nosuch")),
        'no shipped catalog named "nosuch" (shipped: sample)',
    )
    many = sample()
    many["guilds"] = {f"g{n}": {"tie_arcanum": "military"} for n in range(17)}
    yield (
        "too_many_guilds",
        check_entries(many)[0],
        "guilds: 17 guilds, more than 16 (the box has 4)",
    )
    yield "no_catalog", progress({}, {})["check"]["lacking"], "no catalog yet"


# Where `card_problems` files a card's problem: (card number from 1, field; "" the card whole).
FILED: dict[str, tuple[int, str]] = {
    "duplicate_id": (163, "id"),
    "card_not_table": (163, ""),
    "card_id_missing": (55, "id"),
    "card_id_not_text": (55, "id"),
    "card_id_unprintable": (55, "id"),
    "card_unknown_key_close": (55, "fiefs"),
    "card_unknown_key": (55, "colour"),
    "card_missing": (55, "vp"),
    "card_kind_unknown": (55, "kind"),
    "card_not_text": (55, "main"),
    "card_guild_unknown": (3, "guild"),
    "card_main_unknown": (55, "main"),
    "card_guild_or_main": (3, "guild"),
    "card_guild_and_main": (55, "main"),
    "card_no_guild": (135, "guild"),
    "card_main_zero": (55, "arcana.financial"),
    "card_effect_missing": (102, "effect"),
    "card_effect_unknown": (102, "effect"),
    "card_name_not_text": (55, "name"),
    "card_name_empty": (55, "name"),
    "card_names_not_table": (55, "names"),
    "card_names_unknown_close": (55, "names"),
    "card_names_unknown": (55, "names"),
    "card_names_not_text": (55, "names"),
    "card_names_empty": (55, "names"),
    "card_not_whole": (55, "vp"),
    "card_too_large": (55, "vp"),
    "card_arcana_missing": (55, "arcana"),
    "card_arcanum_unknown_close": (55, "arcana.militray"),
    "card_arcanum_unknown": (55, "arcana.luck"),
    "card_arcanum_range": (55, "arcana.military"),
    "card_fief_unknown": (143, "fief"),
}

# More cases of codes said in more than one place: (code, change, sentence, where filed).
MORE: list[tuple[str, Change, str, tuple[int, str]]] = [
    ("card_id_missing", lambda d: card(d, A).update(id=""), "card 55: missing value for id",
     (55, "id")),
    ("card_missing", lambda d: card(d, A).pop("kind"), f'card "{A}": missing value for kind',
     (55, "kind")),
    ("card_missing", lambda d: card(d, "blades_base").pop("guild"),
     'card "blades_base": missing value for guild', (1, "guild")),
    ("card_missing", lambda d: card(d, A).pop("fief"), f'card "{A}": missing value for fief',
     (55, "fief")),
    ("card_missing", lambda d: card(d, A).update(fief=""), f'card "{A}": missing value for fief',
     (55, "fief")),
    ("card_missing", lambda d: card(d, A).update(fief=5), f'card "{A}": missing value for fief',
     (55, "fief")),
    ("card_missing", lambda d: card(d, "task_03").pop("fief"),
     'card "task_03": missing value for fief', (143, "fief")),
    ("card_missing", lambda d: card(d, "task_03").pop("count"),
     'card "task_03": missing value for count', (143, "count")),
    ("card_missing", lambda d: card(d, A)["arcana"].pop("spiritual"),
     f'card "{A}": missing value for arcana.spiritual', (55, "arcana.spiritual")),
    ("card_not_whole", lambda d: card(d, "task_03").update(count=0),
     'card "task_03": count must be a whole number >= 1, not 0', (143, "count")),
    ("card_not_whole", lambda d: card(d, A).update(vp=True),
     f'card "{A}": vp must be a whole number >= 0, not True', (55, "vp")),
    ("card_not_whole", lambda d: card(d, A).update(vp=2.0),
     f'card "{A}": vp must be a whole number >= 0, not 2.0', (55, "vp")),
    ("card_arcanum_range", lambda d: card(d, A)["arcana"].update(political=-1),
     f'card "{A}": arcana.political must be a whole number from 0 to 999999999999999, not -1',
     (55, "arcana.political")),
    ("card_arcanum_range", lambda d: card(d, A)["arcana"].update(political=True),
     f'card "{A}": arcana.political must be a whole number from 0 to 999999999999999, '
     "not True", (55, "arcana.political")),
    ("card_arcanum_range", lambda d: card(d, A)["arcana"].update(political="3"),
     f'card "{A}": arcana.political must be a whole number from 0 to 999999999999999, '
     "not '3'", (55, "arcana.political")),
    ("card_not_text", lambda d: card(d, "blades_agent_2").update(guild=["blades"]),
     "card \"blades_agent_2\": guild must be text, not ['blades']", (3, "guild")),
    ("card_arcana_missing", lambda d: card(d, "militia_1").pop("arcana"),
     f'card "militia_1": missing value for arcana ({ARCANA})', (135, "arcana")),
    ("card_no_guild", lambda d: card(d, "task_03").update(main="military"),
     'card "task_03": a task card has no guild and no main', (143, "guild")),
    ("card_no_guild", lambda d: card(d, "game_end").update(guild="blades"),
     'card "game_end": a game_end card has no guild and no main', (134, "guild")),
]  # fmt: skip
