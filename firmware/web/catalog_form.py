"""The owner's catalog builder: tap a card on any pad, its form opens on the phone, checked
field by field as the owner types (the sentences of `arcana-table catalog check`), saved into
the owner's catalog file (`catalog_save`) and the tag bound (and its card id written on it
when asked).

    POST /api/catalog/building {"on": true}    the table's taps go to the phone (game choice only)
    GET  /api/catalog/tap                      the last tap and its form
    POST /api/catalog/check {"entry", "replaces"}          -> {"problems": {field: [sentences]}}
    POST /api/catalog/save  {"entry", "replaces", "uid", "pad", "write", "rebind"}
    POST /api/catalog/building {"on": false}   back to the game choice; the table plays the
                                               owner's catalog from then on if it checks

A bound tag (its written id, else its binding, naming a card of the file) opens that card; a
new tag opens a form made from the card saved before it (`next_entry`: the same kind, guild
or arcanum, fief, VP; the next number in its id and name; the values left to type).

The checker's problems are said in the table's language (the page's: the game shown, else
the table's first), English word for word as `arcana-table catalog check` prints them.
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from engine.arcana.catalog import CatalogError, card_problems
from firmware.enrollment import EnrollError, normalise_uid
from firmware.journal import JournalError
from firmware.web import guard
from firmware.web.catalog_checks import fields_said_in, said_in
from firmware.web.catalog_save import CatalogSaveError, read_catalog, save_catalog_entries
from firmware.web.catalog_taps import CardTap, CatalogTaps, write_card_id
from firmware.web.sentences import from_error, said

# What a new card takes from the card before it; its arcana are the owner's to type.
CARRIED = ("kind", "guild", "main", "fief", "effect", "vp", "count")
# The form's fields; any other key of a card (its `names` in other languages) is kept as is.
FORM_KEYS = ("id", "kind", "guild", "main", "name", "vp", "fief", "effect", "count", "arcana")
NUMBERED = re.compile(r"^(.*?)(\d+)$")
MOST_SHOWN = 12  # problems of a whole catalog listed when building ends


class CatalogForm:
    """The builder's routes over one table (`live`: LiveTable) and the owner's file."""

    def __init__(self, live: Any, path: Path, owner: Callable[[web.Request], Any]) -> None:
        self.live = live
        self.path = path
        self.owner = owner  # refuses a phone that is not the owner's
        self.taps = CatalogTaps()

    # -- the mode ---------------------------------------------------------------------------
    async def building(self, request: web.Request) -> web.Response:
        self.owner(request)
        body = guard.json_object(request, ("on",))
        if not isinstance(body["on"], bool):
            raise guard.Refused(400, said("building_on_off"))
        live = self.live
        if body["on"]:
            await live.ask(self.taps.start, live.companion)
            live.wake()
            return web.json_response({"building": True})
        answer = await live.ask(self._finish)
        live.wake()
        return web.json_response({"building": False, **answer})

    def _finish(self) -> dict[str, Any]:
        """On the loop's thread: the file checked whole; played from the next game if it passes."""
        games = self.live.games
        try:
            games.use_catalog(str(self.path))
            check: dict[str, Any] = {"ok": True, "cards": len(games.catalog.cards)}
        except CatalogError as err:
            shown = said_in(self.live.companion.current_language(), err.problems[:MOST_SHOWN])
            check = {"ok": False, "problems": shown, "more": len(err.problems) - len(shown)}
        self.taps.stop(self.live.companion)
        return {"check": check, "playing": games.catalog.name}

    # -- the form ---------------------------------------------------------------------------
    async def tap(self, request: web.Request) -> web.Response:
        self.owner(request)
        live = self.live
        building, last, bindings, previous = await live.ask(
            lambda: (
                self.taps.building(live.companion),
                self.taps.last,
                dict(live.games.bindings),
                self.taps.previous,
            )
        )
        catalog = self._catalog()
        form = None if last is None else form_for(last, catalog, bindings, previous)
        guilds = catalog.get("guilds")
        return web.json_response(
            {
                "building": building,
                "tap": None if last is None else last.to_json(),
                "form": form,
                "guilds": sorted(guilds) if isinstance(guilds, dict) else [],
                "cards": len(catalog.get("cards") or []),
                "file": str(self.path),
            }
        )

    async def check(self, request: web.Request) -> web.Response:
        self.owner(request)
        entry, replaces = _draft(guard.json_object(request, ("entry",)))
        entry = self._with_the_rest(entry, replaces)
        language = await self._language()
        return web.json_response(
            {"problems": fields_said_in(language, self._problems(entry, replaces))}
        )

    async def save(self, request: web.Request) -> web.Response:
        self.owner(request)
        body = guard.json_object(request, ("entry",))
        entry, replaces = _draft(body)
        entry = self._with_the_rest(entry, replaces)
        uid, pad, write, rebind = _binding(body)
        problems = self._problems(entry, replaces)  # said in the page's language by _refused
        if problems:
            first = next(iter(problems.values()))[0]
            return await _refused(request, 400, said("not_saved", problem=first), problems)
        card = str(entry["id"])
        live = self.live
        if uid is not None:
            current = await live.ask(lambda: live.journal.bindings().get(uid))
            if current not in (None, card, replaces) and not rebind:
                return await _refused(
                    request,
                    409,
                    said("tag_stands_for", uid=uid, current=current, card=card),
                    {},
                    rebind=current,
                )
        try:
            saved = await asyncio.get_running_loop().run_in_executor(
                None,
                lambda: save_catalog_entries(
                    self.path, [entry], replaces={card: replaces} if replaces else None
                ),
            )
        except CatalogSaveError as err:
            return await _refused(
                request, 400, said("not_saved", problem=err.problems[0]), {"": err.problems}
            )
        answer: dict[str, Any] = {"saved": card, "number": saved.numbers[card], "warnings": []}
        await live.ask(setattr, self.taps, "previous", card)
        if uid is not None:
            answer.update(await self._bind(uid, pad, card, saved.catalog, write))
            answer["warnings"] = await guard.say_all(request, answer["warnings"])
        return web.json_response(answer)

    async def _bind(
        self, uid: str, pad: str | None, card: str, catalog: dict[str, Any], write: bool
    ) -> dict[str, Any]:
        live = self.live
        ids = [c["id"] for c in catalog["cards"]]
        name = str(catalog.get("name") or "my-copy")
        try:
            bound = await live.ask(
                self.taps.bind, live.journal, live.games, live.companion, uid, card, name, ids, True
            )
        except (EnrollError, JournalError) as err:
            error = from_error(err)  # the journal's or the enrollment's, said again
            raise guard.Refused(
                503, said("saved_not_bound", card=card, uid=uid, error=error)
            ) from None
        warnings = list(bound.warnings)
        written = False
        if write:
            trouble = await live.ask(write_card_id, live.loop.scan_threads, pad or "", uid, card)
            written = trouble is None
            warnings += [] if trouble is None else [trouble]
        return {"bound": bound.uid, "written": written, "warnings": warnings}

    # -- plumbing ---------------------------------------------------------------------------
    async def _language(self) -> str | None:
        """The language the page speaks: the game shown's, else the table's first."""
        live = self.live
        return await live.ask(live.companion.current_language)

    def _catalog(self) -> dict[str, Any]:
        try:
            return read_catalog(self.path)
        except CatalogSaveError as err:
            raise guard.Refused(409, said("catalog_unusable", problem=err.problems)) from None

    def _with_the_rest(self, entry: dict[str, Any], replaces: str | None) -> dict[str, Any]:
        """The form's fields and, of the card it changes, the keys the form has no field for."""
        if replaces is None:
            return entry
        cards = self._catalog().get("cards") or []
        old = next((c for c in cards if isinstance(c, dict) and c.get("id") == replaces), {})
        return {**{k: v for k, v in old.items() if k not in FORM_KEYS}, **entry}

    def _problems(self, entry: dict[str, Any], replaces: str | None) -> dict[str, list[str]]:
        data, number = placed(self._catalog(), entry, replaces)
        try:
            return card_problems(data, number)
        except CatalogError as err:
            return {"": list(err.problems)}


def placed(
    catalog: dict[str, Any], entry: dict[str, Any], replaces: str | None
) -> tuple[dict[str, Any], int]:
    """The catalog with the draft in the place it would be saved, and its number (from 1): the
    card it replaces, else the end (a new card named as an old one is then a duplicate)."""
    data = copy.deepcopy(catalog)
    cards = data.setdefault("cards", [])
    if not isinstance(cards, list):
        cards = data["cards"] = []
    for index, card in enumerate(cards):
        if replaces is not None and isinstance(card, dict) and card.get("id") == replaces:
            cards[index] = entry
            return data, index + 1
    cards.append(entry)
    return data, len(cards)


def form_for(
    tap: CardTap, catalog: dict[str, Any], bindings: dict[str, str], previous: str | None
) -> dict[str, Any]:
    """The form a tap opens: its card's entry if the tag names a card of the file, else a
    new one made from the card before it (the last saved, else the file's last)."""
    cards = [c for c in catalog.get("cards", []) if isinstance(c, dict)]
    by_id = {str(c.get("id")): c for c in cards}
    bound = bindings.get(tap.uid)
    named = tap.written_id if tap.written_id in by_id else bound
    if named in by_id:
        return {"entry": by_id[named], "replaces": named, "bound": bound, "known": True}
    before = by_id.get(previous or "") or (cards[-1] if cards else None)
    entry = next_entry(before, set(by_id))
    if named is not None:  # a tag bound to a card the file has not got yet keeps its id
        entry["id"] = named
    return {"entry": entry, "replaces": None, "bound": bound, "known": False}


def next_entry(before: dict[str, Any] | None, taken: set[str]) -> dict[str, Any]:
    """A new card after `before`: its kind, guild or arcanum, fief, effect and VP, the next
    free number in its id (and its name's number), no values.

        >>> after = next_entry({"id": "blades_agent_3", "kind": "agent", "guild": "blades",
        ...                     "name": "Blades agent 3", "vp": 0}, {"blades_agent_3"})
        >>> after["id"], after["name"], after["guild"], "arcana" in after
        ('blades_agent_4', 'Blades agent 4', 'blades', False)
    """
    if before is None:
        return {}
    entry = {key: before[key] for key in CARRIED if key in before}
    step = 1
    while True:
        cid = _numbered(str(before.get("id", "")), step)
        if cid is None or cid not in taken:
            break
        step += 1
    if cid is not None:
        entry["id"] = cid
        name = _numbered(str(before.get("name", "")), step)
        if name is not None:
            entry["name"] = name
    return entry


def _numbered(text: str, step: int) -> str | None:
    """ "agent 07" -> "agent 08" (step 1): the same width; None without a number at the end."""
    match = NUMBERED.match(text)
    if match is None:
        return None
    head, digits = match.groups()
    return f"{head}{int(digits) + step:0{len(digits)}d}"


def _draft(body: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    entry, replaces = body["entry"], body.get("replaces")
    if not isinstance(entry, dict):
        raise guard.Refused(400, said("entry_object"))
    if replaces is not None and not isinstance(replaces, str):
        raise guard.Refused(400, said("replaces_text"))
    return entry, replaces


def _binding(body: dict[str, Any]) -> tuple[str | None, str | None, bool, bool]:
    uid, pad = body.get("uid"), body.get("pad")
    write, rebind = body.get("write", False), body.get("rebind", False)
    if not isinstance(write, bool) or not isinstance(rebind, bool):
        raise guard.Refused(400, said("write_rebind_bool"))
    if pad is not None and not isinstance(pad, str):
        raise guard.Refused(400, said("pad_text"))
    if uid is None:
        if write:
            raise guard.Refused(400, said("write_needs_tag"))
        return None, None, False, rebind
    if not isinstance(uid, str):
        raise guard.Refused(400, said("uid_text"))
    try:
        return normalise_uid(uid), pad, write, rebind
    except EnrollError as err:
        raise guard.Refused(400, from_error(err)) from None


async def _refused(
    request: web.Request, status: int, sentence: str, problems: dict[str, list[str]], **more: Any
) -> web.Response:
    """A refusal that also lists the form's problems by field, in the page's language;
    nothing changed."""
    shown = {field: await guard.say_all(request, each) for field, each in problems.items()}
    error = await guard.say(request, sentence)
    return web.json_response({"error": error, "problems": shown, **more}, status=status)
