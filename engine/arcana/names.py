"""Names in the players' languages: a catalog's card or guild keeps `name` and may add
`names`, its name in each of the table's languages, checked as the rest of the catalog is.

    names = parse_names({"de": "Gilde der Klingen"}, 'card "blades_base": ', problems)
    name_fault("", "name")        # "name is empty (give the name, or leave the key out)"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

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
                own = language is not None and language in (guild.names or {})
                where = f"names.{language}" if own else "name"
                also = f" (in {language})" if language else ""
                problems.append(
                    f'[guilds.{gid}] {where}: "{guild.name_in(language)}" is the name of '
                    f'guild "{twin.id}" too{also}'
                )


def name_fault(value: Any, what: str) -> str | None:
    """Why `value` cannot be a name shown on the screens, or None."""
    if not isinstance(value, str):
        return f"{what} must be text, not {shown(value)}"
    if not value.strip():
        return f"{what} is empty (give the name, or leave the key out)"
    return None


def parse_names(raw: Any, where: str, problems: list[str]) -> dict[str, str] | None:
    """A `names` table: the name in each of the table's languages (`{de = "...", fa = "..."}`)."""
    if raw is None:
        return None
    known = ", ".join(LANGUAGES)
    if not isinstance(raw, dict):
        problems.append(f"{where}names: a table of names by language ({known}), not {shown(raw)}")
        return None
    names = {}
    for language, value in raw.items():
        if language not in LANGUAGES:
            hint = f"did you mean {language.lower()}?" if language.lower() in LANGUAGES else ""
            problems.append(
                f'{where}names: unknown language "{language}" '
                f"({hint or 'the languages of the table: ' + known})"
            )
            continue
        fault = name_fault(value, f"the {language} name")
        if fault:
            problems.append(f"{where}names.{language}: {fault}")
            continue
        names[language] = value
    return names or None
