"""Names in the players' languages: a catalog's card or guild keeps `name` and may add
`names`, its name in each of the table's languages, checked as the rest of the catalog is.

    names = parse_names({"de": "Gilde der Klingen"}, "guild", "blades", problems)
    name_fault("")                # "empty" (problem "card_name_empty": "... name is empty")
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from engine.arcana.problems import problem
from engine.records import shown

# The languages of the table's screens (firmware/language/ has a catalog for each; the engine
# cannot import it, so tests/firmware/test_card_names.py keeps the two the same). A card's or a
# guild's `names` may name it in these.
LANGUAGES = ("en", "de", "fa")


class Named(Protocol):
    """A guild as the twin check sees it."""

    id: str
    names: dict[str, str] | None

    def name_in(self, language: str | None) -> str: ...


def check_twins(gid: str, guild: Named, guilds: Mapping[str, Named], problems: list[str]) -> None:
    """Two guilds called alike in any language: players could not be told apart."""
    reported: set[str] = set()
    for language in (None, *LANGUAGES):
        said = guild.name_in(language).casefold()
        for twin in guilds.values():
            if twin.id not in reported and twin.name_in(language).casefold() == said:
                reported.add(twin.id)
                name = guild.name_in(language)
                if language is None:
                    problems.append(problem("guild_twin", guild=gid, name=name, twin=twin.id))
                    continue
                own = language in (guild.names or {})
                code = "guild_twin_own" if own else "guild_twin_in"
                said_twin = problem(code, guild=gid, name=name, twin=twin.id, language=language)
                problems.append(said_twin)


def name_fault(value: Any) -> str | None:
    """Why `value` cannot be a name shown on the screens ("not_text", "empty"), or None."""
    if not isinstance(value, str):
        return "not_text"
    if not value.strip():
        return "empty"
    return None


def parse_names(raw: Any, whose: str, owner: str, problems: list[str]) -> dict[str, str] | None:
    """A `names` table: the name in each of the table's languages (`{de = "...", fa = "..."}`)
    of a "card" or a "guild" (`whose`) with id `owner`; each fault a Problem in `problems`."""
    if raw is None:
        return None
    known = ", ".join(LANGUAGES)
    where = {whose: owner}
    if not isinstance(raw, dict):
        problems.append(problem(f"{whose}_names_not_table", **where, known=known, value=shown(raw)))
        return None
    names = {}
    for language, value in raw.items():
        if language not in LANGUAGES:
            code, hint = f"{whose}_names_unknown", {"known": known}
            if language.lower() in LANGUAGES:
                code, hint = f"{whose}_names_unknown_close", {"close": language.lower()}
            problems.append(problem(code, **where, language=language, **hint))
            continue
        fault = name_fault(value)
        if fault:
            shown_value = {"value": shown(value)} if fault == "not_text" else {}
            code = f"{whose}_names_{fault}"
            problems.append(problem(code, **where, language=language, **shown_value))
            continue
        names[language] = value
    return names or None
