"""The sentences of `catalog check`: each problem of a catalog has a stable code and the
values it is made of, so the table can say it in another language.

    said = problem("card_missing", card="m_agent_07", field="vp")
    said                  # 'card "m_agent_07": missing value for vp' (it is that str)
    said.code, said.params  # ('card_missing', {'card': 'm_agent_07', 'field': 'vp'})

A Problem is its English sentence (records, programs and `arcana-table catalog check` read
it as text) and carries `code` and `params`; firmware/language's `[catalog_check]` table says
the code in each of the table's languages, English word for word as here
(tests/firmware/test_catalog_check_words.py), as engine refusals carry their codes. The
values are ids, keys, numbers and the owner's own text, never English words to translate.
"""

from __future__ import annotations

from typing import Any

# By code: the English sentence, with {placeholders} for the values.
SENTENCES = {
    # -- reading the file
    "no_shipped_catalog": 'no shipped catalog named "{name}" (shipped: {shipped})',
    "unreadable": "cannot read the file ({reason})",
    "not_utf8": "the file is not UTF-8 text",
    "not_toml": "not valid TOML ({reason})",
    "toml_too_deep": "not valid TOML (nested too deeply)",
    "toml_number_too_long": "not valid TOML (a number far too long)",
    # -- the catalog as a whole
    "not_a_catalog": "a catalog is a table with name, guilds and cards",
    "too_deep": "{place}: nested deeper than {most} levels",
    "unknown_key_close": "{key}: unknown key (did you mean {close}?)",
    "unknown_key": "{key}: unknown key (known: {known})",
    "catalog_name_missing": "missing value for the catalog's name",
    "catalog_name_not_text": "name: the catalog's name must be text, not {value}",
    "cards_missing": "missing value for cards (an array of card tables)",
    "guilds_missing": "missing value for guilds (a table per guild)",
    "duplicate_id": 'duplicate id "{card}" (cards {first} and {second})',
    # -- a guild
    "guild_not_table": (
        "[guilds.{guild}]: a guild is a table with name and tie_arcanum, not {value}"
    ),
    "guild_unknown_key_close": "[guilds.{guild}] {key}: unknown key (did you mean {close}?)",
    "guild_unknown_key": "[guilds.{guild}] {key}: unknown key (known: {known})",
    "guild_tie_missing": 'guild "{guild}": missing value for tie_arcanum',
    "guild_tie_unknown": 'guild "{guild}": unknown arcanum "{value}" in tie_arcanum',
    "guild_name_not_text": "[guilds.{guild}] name: a guild's name must be text, not {value}",
    "guild_name_empty": (
        "[guilds.{guild}] name: a guild's name is empty (give the name, or leave the key out)"
    ),
    "guild_twin": '[guilds.{guild}] name: "{name}" is the name of guild "{twin}" too',
    "guild_twin_in": (
        '[guilds.{guild}] name: "{name}" is the name of guild "{twin}" too (in {language})'
    ),
    "guild_twin_own": (
        '[guilds.{guild}] names.{language}: "{name}" is the name of guild "{twin}" too '
        "(in {language})"
    ),
    "guild_names_not_table": (
        "[guilds.{guild}] names: a table of names by language ({known}), not {value}"
    ),
    "guild_names_unknown_close": (
        '[guilds.{guild}] names: unknown language "{language}" (did you mean {close}?)'
    ),
    "guild_names_unknown": (
        '[guilds.{guild}] names: unknown language "{language}" '
        "(the languages of the table: {known})"
    ),
    "guild_names_not_text": (
        "[guilds.{guild}] names.{language}: the {language} name must be text, not {value}"
    ),
    "guild_names_empty": (
        "[guilds.{guild}] names.{language}: the {language} name is empty "
        "(give the name, or leave the key out)"
    ),
    "guild_cards": (
        'guild "{guild}": needs exactly 1 base + 9 agent + 1 location + 1 relic, '
        "has {base} base, {agent} agent, {location} location, {relic} relic"
    ),
    # -- a card, named by its number (from 1) while it has no usable id
    "card_not_table": "card {number}: a card is a table with id, kind and vp",
    "card_id_missing": "card {number}: missing value for id",
    "card_id_not_text": "card {number}: id must be text, not {value}",
    "card_id_unprintable": "card {number}: id {value} has a control character or edge space",
    # -- a card, named by its id
    "card_unknown_key_close": 'card "{card}": {key}: unknown key (did you mean {close}?)',
    "card_unknown_key": 'card "{card}": {key}: unknown key (known: {known})',
    "card_missing": 'card "{card}": missing value for {field}',
    "card_kind_unknown": 'card "{card}": unknown kind "{value}" in kind (one of {known})',
    "card_not_text": 'card "{card}": {field} must be text, not {value}',
    "card_guild_unknown": 'card "{card}": unknown guild "{value}" in guild',
    "card_main_unknown": 'card "{card}": unknown arcanum "{value}" in main',
    "card_guild_or_main": (
        'card "{card}": missing value for guild (guild card) or main (market card)'
    ),
    "card_guild_and_main": 'card "{card}": a card has either guild or main, not both',
    "card_no_guild": 'card "{card}": a {kind} card has no guild and no main',
    "card_main_zero": (
        'card "{card}": the main arcanum {arcanum} must be at least 1 in arcana.{arcanum}'
    ),
    "card_effect_missing": 'card "{card}": missing value for effect (one of {known})',
    "card_effect_unknown": (
        'card "{card}": unknown location effect "{value}" in effect (one of {known})'
    ),
    "card_name_not_text": 'card "{card}": name must be text, not {value}',
    "card_name_empty": 'card "{card}": name is empty (give the name, or leave the key out)',
    "card_names_not_table": (
        'card "{card}": names: a table of names by language ({known}), not {value}'
    ),
    "card_names_unknown_close": (
        'card "{card}": names: unknown language "{language}" (did you mean {close}?)'
    ),
    "card_names_unknown": (
        'card "{card}": names: unknown language "{language}" (the languages of the table: {known})'
    ),
    "card_names_not_text": (
        'card "{card}": names.{language}: the {language} name must be text, not {value}'
    ),
    "card_names_empty": (
        'card "{card}": names.{language}: the {language} name is empty '
        "(give the name, or leave the key out)"
    ),
    "card_not_whole": 'card "{card}": {field} must be a whole number >= {minimum}, not {value}',
    "card_too_large": 'card "{card}": {field} is {value}, more than a record holds ({largest})',
    "card_arcana_missing": 'card "{card}": missing value for arcana ({known})',
    "card_arcanum_unknown_close": (
        'card "{card}": unknown arcanum "{value}" in arcana (did you mean {close}?)'
    ),
    "card_arcanum_unknown": 'card "{card}": unknown arcanum "{value}" in arcana (known: {known})',
    "card_arcanum_range": (
        'card "{card}": arcana.{arcanum} must be a whole number from 0 to {largest}, not {value}'
    ),
    "card_fief_unknown": 'card "{card}": unknown fief "{value}" in fief (no market card)',
    # -- the totals
    "too_few_guilds": "guilds: a game needs at least 2 guilds, the catalog has {count}",
    "too_few_market": (
        "too few market cards for the piles: {count}, need {need} ({piles} piles of {size})"
    ),
    "game_end_count": "cards: need exactly 1 game_end card, found {count}",
}


class Problem(str):
    """One problem of a catalog: the English sentence itself, with its `code` and `params`."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, sentence: str, params: dict[str, Any]) -> Problem:
        made = super().__new__(cls, sentence)
        made.code = code
        made.params = params
        return made

    def __getnewargs__(self) -> tuple[str, str, dict[str, Any]]:
        return (self.code, str(self), self.params)  # copied and pickled with its code


def problem(code: str, **params: Any) -> Problem:
    """The problem `code` with its values, in the engine's English sentence."""
    return Problem(code, SENTENCES[code].format(**params), params)
