"""The owner's catalog pages behind the web app (`firmware/web/app.py` routes them, owner
only): progress, and the catalog's and the tag bindings' import and export (Res Arcana
enrollment: `firmware/web/enrollment_page.py`).

    shelf = OwnerCatalog(live, state_dir / "catalog.toml")
    await shelf.progress(request)            # GET  /api/catalog/progress
    await shelf.export_catalog(request)      # GET  /api/catalog/export?format=toml|csv
    await shelf.import_catalog(request)      # POST /api/catalog/import {"format", "data"}

The catalog file is `catalog.toml` in the state directory, the one the catalog form's builder
writes (`firmware/web/catalog_save.py`); it is read afresh for every answer. The bindings are
the journal's, read and written on the table loop's thread (`LiveTable.ask`), and a new
binding reaches the running table's registry at once. What `catalog check` says (progress,
a refused import or CSV export) is said in the table's language (`catalog_checks.said_in`).
"""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path
from typing import Any

from aiohttp import web

from engine.resarcana import CARDS as RES_ARCANA_CARDS
from engine.resarcana import name as res_arcana_name
from firmware.enrollment import EnrollError, Enrollment
from firmware.enrollment_csv import CSV_FIELDS
from firmware.language import DEFAULT
from firmware.web import guard
from firmware.web.catalog_checks import check_entries, said_in
from firmware.web.catalog_progress import progress
from firmware.web.catalog_transfer import (
    TransferRefused,
    decode_upload,
    import_catalog,
    is_file_name,
    read_catalog,
    same_file,
    to_csv,
)
from firmware.web.enrollment_page import RES_ARCANA, teach_table
from firmware.web.live import LiveTable
from firmware.web.sentences import said

GAMES = ("arcana", RES_ARCANA)


class OwnerCatalog:
    def __init__(self, live: LiveTable, path: Path) -> None:
        self.live = live
        self.path = path
        source = live.games.catalog_source
        # The table plays this very file (`arcana-table run --catalog` it): it must load.
        self.strict = (
            isinstance(source, str) and is_file_name(source) and same_file(Path(source), path)
        )

    # -- the catalog ------------------------------------------------------------------------
    def _data(self) -> dict[str, Any]:
        try:
            return read_catalog(self.path)
        except TransferRefused as err:
            message = said("catalog_unreadable", problem=err.problems)
            raise guard.Refused(err.status, message) from None

    async def progress(self, request: web.Request) -> web.Response:
        data = await asyncio.to_thread(self._data)  # checking a catalog takes a while
        bindings = await self.live.ask(self._arcana_bindings)
        counted = await asyncio.to_thread(progress, data, bindings)
        language = await self._language()
        check = counted["check"]
        for key in ("problems", "lacking"):
            check[key] = said_in(language, check[key])
        return web.json_response(
            {
                "file": str(self.path),
                "exists": self.path.exists(),
                "plays": self.strict,
                "language": self.live.language or DEFAULT,  # the game's: the page follows it
                **counted,
            }
        )

    async def export_catalog(self, request: web.Request) -> web.Response:
        fmt = request.query.get("format", "toml")
        if not self.path.exists():
            raise guard.Refused(404, said("no_catalog_file", path=str(self.path)))
        stem = self.path.stem
        if fmt == "toml":  # the file as it is, byte for byte
            return _download(self.path.read_bytes(), f"{stem}.toml", "application/toml")
        if fmt != "csv":
            raise guard.Refused(400, said("unknown_format", format=fmt))
        data = await asyncio.to_thread(self._data)
        problems, _lacking = await asyncio.to_thread(check_entries, data)
        if problems:  # a key CSV has no column for would be lost
            raise guard.Refused(409, said("csv_needs_fixes", problems=problems[:5]))
        return _download(to_csv(data).encode(), f"{stem}.csv", "text/csv")

    async def import_catalog(self, request: web.Request) -> web.Response:
        body = guard.json_object(request, ("format", "data"))
        try:
            raw = decode_upload(body)
            done = await asyncio.to_thread(
                import_catalog, self.path, str(body["format"]), raw, self.strict
            )
        except TransferRefused as err:
            return await _not_imported(request, err.problems, err.status)
        done["lacking"] = said_in(await self._language(), done["lacking"])
        if self.strict:
            done["note"] = await guard.say(request, said("next_start"))
        return web.json_response({"imported": done})

    async def _language(self) -> str | None:
        """The language the pages speak: the game shown's, else the table's first."""
        return await self.live.ask(self.live.companion.current_language)

    # -- the bindings -----------------------------------------------------------------------
    def _arcana_bindings(self) -> dict[str, str]:
        """On the loop's thread: every binding that is not Res Arcana's."""
        journal = self.live.journal
        theirs = journal.bindings(RES_ARCANA)
        return {uid: card for uid, card in journal.bindings().items() if uid not in theirs}

    def _enrollment(self, game: str) -> Enrollment:
        """On the loop's thread: the cards tags may be bound to in `game`."""
        if game == RES_ARCANA:
            cards = {card: res_arcana_name(card) for card in RES_ARCANA_CARDS}
            return Enrollment(self.live.journal, RES_ARCANA, cards)
        data = read_catalog(self.path) if self.path.exists() else None
        if data and isinstance(data.get("cards"), list):
            entries = [c for c in data["cards"] if isinstance(c, dict)]
            cards = {str(c["id"]): str(c.get("name") or c["id"]) for c in entries if "id" in c}
            name = data.get("name") if isinstance(data.get("name"), str) else "catalog"
            return Enrollment(self.live.journal, name, cards)
        catalog = self.live.games.catalog
        cards = {card: catalog.card_name(card) for card in catalog.cards}
        return Enrollment(self.live.journal, catalog.name, cards)

    async def export_bindings(self, request: web.Request) -> web.Response:
        game = _game(request.query.get("game", "arcana"))

        def rows() -> list[tuple[str, str]]:
            if game == RES_ARCANA:
                return sorted(self.live.journal.bindings(RES_ARCANA).items())
            return sorted(self._arcana_bindings().items())

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_FIELDS)
        writer.writerows(await self.live.ask(rows))
        return _download(out.getvalue().encode(), f"tags-{game}.csv", "text/csv")

    async def import_bindings(self, request: web.Request) -> web.Response:
        body = guard.json_object(request, ("game", "data"))
        game = _game(body["game"])
        try:
            raw = decode_upload(body)
        except TransferRefused as err:
            raise guard.Refused(err.status, err.problems[0]) from None  # one problem: base64
        rebind = body.get("rebind") is True

        def load() -> list[str]:
            warnings = self._enrollment(game).import_csv(raw, rebind=rebind)
            teach_table(self.live)
            return warnings

        try:
            warnings = await self.live.ask(load)
        except (EnrollError, TransferRefused) as err:
            return await _not_imported(request, err.problems, 422)  # each a line of its own
        return web.json_response({"warnings": await guard.say_all(request, warnings)})


def _game(game: Any) -> str:
    if game not in GAMES:
        raise guard.Refused(400, said("unknown_game", game=repr(game)))
    return str(game)


async def _not_imported(request: web.Request, problems: list[str], status: int) -> web.Response:
    """An import refused, its problems in the page's language; nothing was written."""
    shown = await guard.say_all(request, problems)
    error = await guard.say(request, said("nothing_imported", problems=problems))
    return web.json_response({"error": error, "problems": shown}, status=status)


def _download(body: bytes, filename: str, content_type: str) -> web.Response:
    return web.Response(
        body=body,
        content_type=content_type,
        charset="utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )
