"""The owner's catalog file, written from the phone: cards put in or changed, the owner's
comments, blank lines and order kept (tomlkit), the file replaced atomically.

    saved = save_catalog_entries(path, [{"id": "blades_agent_4", "kind": "agent", ...}])
    saved.numbers          # {"blades_agent_4": 5}: where each card is in the file (from 1)
    save_catalog_entries(path, [entry], replaces={"blades_agent_4": "blades_agent_04"})

Rules:
- a card whose id (or the id it `replaces`) is in the file is changed in place: keys whose
  value did not change keep their comments; keys the entry leaves out are dropped; a new
  card goes at the end of the file;
- every card saved must pass `catalog check`'s rules for one card (`card_problems`): the
  catalog need not be complete, but nothing half-typed is written;
- refused (CatalogSaveError: a sentence per problem) or failed midway (a full disk), the
  file on disk is the old one, byte for byte: the new text goes to a temporary file in the
  same directory, is synced, then renamed over the old one;
- no file yet: the cards go into a new one with the four guilds of the catalog template.
"""

from __future__ import annotations

import contextlib
import os
import threading
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions
from tomlkit.items import AoT, Table

from engine.arcana.catalog import (
    ARCANA,
    DEFAULT_TIE_ARCANUM,
    GUILD_NAMES,
    CatalogError,
    card_problems,
)
from firmware.errors import FirmwareError
from firmware.web.sentences import said

FILE_NAME = "catalog.toml"  # in the table's state directory: the only place the unit writes
NEW_FILE = (
    "# This copy of Arcana, entered card by card from the owner's phone (docs/web.md).\n"
    "# `arcana-table catalog check FILE` lists what is still missing; the layout is\n"
    "# docs/catalog-template.toml's.\n"
    'name = "my-copy"\n'
    + "".join(
        f'\n[guilds.{gid}]\nname = "{GUILD_NAMES[gid]}"\ntie_arcanum = "{tie}"\n'
        for gid, tie in DEFAULT_TIE_ARCANUM.items()
    )
)
# A new card's keys in this order (the template's); arcana, an inline table, last.
KEY_ORDER = ("id", "kind", "guild", "main", "name", "vp", "fief", "effect", "count", "arcana")
_LOCK = threading.Lock()  # one read-change-write at a time (the web app's threads)


class CatalogSaveError(FirmwareError, ValueError):
    """Nothing was written: `problems` are sentences, one a fault, each naming the card."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Saved:
    numbers: dict[str, int]  # card id -> its place in the file's cards (from 1)
    catalog: dict[str, Any]  # the whole file as a catalog object, after the save


def read_catalog(path: Path) -> dict[str, Any]:
    """The owner's file as a catalog object (the new file's, if there is none yet)."""
    return _document(path).unwrap()


def save_catalog_entries(
    path: Path,
    entries: Sequence[Mapping[str, Any]],
    replaces: Mapping[str, str] | None = None,
    guilds: Mapping[str, Mapping[str, Any]] | None = None,
) -> Saved:
    """Put `entries` (card tables of the catalog object) into the file at `path`.

    `replaces`: new id -> the id the card had in the file (a card renamed on the form).
    `guilds`: guild id -> {"name", "tie_arcanum"} to add or change. Raises
    CatalogSaveError, the file untouched, when a card would not pass the check or the
    file cannot be read, parsed or written.
    """
    replaces = dict(replaces or {})
    with _LOCK:
        document = _document(path)
        cards = _cards(document)
        for gid, guild in (guilds or {}).items():
            _put_guild(document, str(gid), guild)
        touched = [_put_card(cards, dict(entry), replaces) for entry in entries]
        catalog = document.unwrap()
        numbers = {str(catalog["cards"][i]["id"]): i + 1 for i in touched}
        _check(catalog, numbers)
        _write_atomically(path, tomlkit.dumps(document))
    return Saved(numbers, catalog)


def _document(path: Path) -> tomlkit.TOMLDocument:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = NEW_FILE
    except OSError as err:
        raise CatalogSaveError(
            [said("save_unreadable", file=path.name, error=err.strerror)]
        ) from None
    except UnicodeDecodeError:
        raise CatalogSaveError([said("save_not_utf8", file=path.name)]) from None
    try:
        tomllib.loads(text)  # tomlkit reads some files tomllib (the checker's) refuses
        return tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError) as err:
        raise CatalogSaveError([said("save_not_toml", file=path.name, error=str(err))]) from None
    except (RecursionError, ValueError):
        raise CatalogSaveError([said("save_not_toml_plain", file=path.name)]) from None


def _cards(document: tomlkit.TOMLDocument) -> AoT:
    if "cards" not in document:
        document.append("cards", tomlkit.aot())
    cards = document["cards"]
    if not isinstance(cards, AoT):
        raise CatalogSaveError([said("save_cards_not_array")])
    return cards


def _put_guild(document: tomlkit.TOMLDocument, gid: str, guild: Mapping[str, Any]) -> None:
    if "guilds" not in document:
        document["guilds"] = tomlkit.table(is_super_table=True)
    table = document["guilds"].setdefault(gid, tomlkit.table())
    for key, value in guild.items():
        _set(table, str(key), value)


def _put_card(cards: AoT, entry: dict[str, Any], replaces: dict[str, str]) -> int:
    """Change the card in place or append it; its index in `cards`."""
    cid = entry.get("id")
    old = replaces.get(str(cid), cid)
    for index, table in enumerate(cards):
        if table.get("id") == old:
            for key in [k for k in table if k not in entry]:
                del table[key]
            for key in KEY_ORDER + tuple(k for k in entry if k not in KEY_ORDER):
                if key in entry:
                    _set(table, key, entry[key])
            return index
    table = tomlkit.table()
    table.trivia.indent = "\n"  # a blank line before its [[cards]], as the template has
    for key in KEY_ORDER + tuple(k for k in entry if k not in KEY_ORDER):
        if key in entry:
            table[key] = _item(key, entry[key])
    cards.append(table)
    return len(cards) - 1


def _set(table: Table, key: str, value: Any) -> None:
    """Set only what changed: an untouched key keeps its comment."""
    if key in table and _plain(table[key]) == value:
        return
    table[key] = _item(key, value)


def _plain(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item


def _item(key: str, value: Any) -> Any:
    if isinstance(value, Mapping):  # arcana, names: inline, as the template writes them
        inline = tomlkit.inline_table()
        order = ARCANA if key == "arcana" else ()
        for sub in order + tuple(k for k in value if k not in order):
            if sub in value:
                inline[str(sub)] = value[sub]
        return inline
    try:
        return tomlkit.item(value)
    except (TypeError, ValueError, tomlkit.exceptions.TOMLKitError):
        raise CatalogSaveError([said("save_value", key=key, value=repr(value))]) from None


def _check(catalog: dict[str, Any], numbers: dict[str, int]) -> None:
    problems: list[str] = []
    try:
        for number in numbers.values():
            for sentences in card_problems(catalog, number).values():
                problems.extend(sentences)
    except CatalogError as err:  # nested too deeply to check
        problems.extend(err.problems)
    if problems:
        raise CatalogSaveError(problems)


def write_catalog_text(path: Path, text: str) -> None:
    """The whole catalog file replaced by `text` (an import), atomically and in turn with
    the form's saves; CatalogSaveError, the file untouched, when it cannot be written."""
    with _LOCK:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, text)


def _write_atomically(path: Path, text: str) -> None:
    """A temporary file beside `path`, synced, renamed over it: a power cut leaves the old
    file or the new one, never half of one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)  # the owner's mode stays
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        reason = err.strerror or str(err)
        raise CatalogSaveError([said("save_failed", file=path.name, error=reason)]) from None
    with contextlib.suppress(OSError):  # the new file is in place; its rename may not be synced
        _sync_directory(path.parent)


def _sync_directory(directory: Path) -> None:
    """The rename itself survives a power cut once the directory is synced."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
