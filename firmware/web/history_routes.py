"""The history's routes on the owner's web app (`firmware.web.history` does the reading).

    add_routes(app, state_dir, owner)    # owner(request) raises unless the owner's phone asks

    GET /api/history                  (owner) the games, what was set aside, a problem sentence
                                      (the journal's, in the page's language)
    GET /api/history/{game}/record    (owner) the game record, as `arcana-table export` writes it
    GET /api/history/{game}/rounds    (owner) a finished game round by round

The journal is read in a worker thread: SQLite and a replay never hold up the web app's
event loop, and the table loop's thread is not asked at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from firmware.web import guard, history
from firmware.web.sentences import in_language, said

STATE_DIR: web.AppKey[Path] = web.AppKey("history_state_dir", Path)
Owner = Callable[[web.Request], Any]


def add_routes(app: web.Application, state_dir: Path, owner: Owner) -> None:
    app[STATE_DIR] = Path(state_dir)

    async def games(request: web.Request) -> web.Response:
        owner(request)
        answer = await _read(history.listing, request.app[STATE_DIR])
        code = await guard.language_of(request)  # the journal's problems in the page's
        if answer["problem"]:
            answer["problem"] = in_language(answer["problem"], code)
        for game in answer["games"]:
            if game.get("problem"):
                game["problem"] = in_language(game["problem"], code)
        return web.json_response(answer)

    async def record(request: web.Request) -> web.Response:
        owner(request)
        number = _game(request)
        body = await _read(history.record, request.app[STATE_DIR], number)
        return web.Response(
            body=body,
            content_type="application/x-ndjson",
            charset="utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="arcana-table-game-{number}.jsonl"',
                "Cache-Control": "no-store",
            },
        )

    async def rounds(request: web.Request) -> web.Response:
        owner(request)
        number = _game(request)
        return web.json_response(await _read(history.rounds, request.app[STATE_DIR], number))

    app.router.add_get("/api/history", games)
    app.router.add_get("/api/history/{game}/record", record)
    app.router.add_get("/api/history/{game}/rounds", rounds)


def _game(request: web.Request) -> int:
    text = request.match_info["game"]
    if not text.isascii() or not text.isdigit() or len(text) > 15:
        raise guard.Refused(400, said("game_number", text=repr(text[:20])))
    return int(text)


async def _read(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return await asyncio.to_thread(fn, *args)
    except history.HistoryRefused as err:
        raise guard.Refused(err.status, err.message) from None
