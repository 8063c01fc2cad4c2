"""The words of the web pages, in the table's language: the simulator's page and the phone's
pages take them from the same catalogs as the OLEDs (`firmware/language/*.toml`).

    app.router.add_get("/api/words", words_handler(first_language))
    GET /api/words?language=fa   ->  {"language": "fa", "direction": "rtl", "name": "فارسی",
                                      "words": {"sim.players": "بازیکنان", ...}}

Without `language` the answer is in the language `default(request)` names (the game shown,
or the table's first one). The page asks again whenever the state names another language
(`page/words.js` in firmware/web: `word(key, params)` fills a sentence as
`firmware.language.text` does, and sets `<html lang dir>`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from firmware.language import DEFAULT, LanguageError, codes, load
from firmware.web import guard
from firmware.web.sentences import said

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def words(code: str | None) -> dict[str, Any]:
    """Every sentence of a language's catalog, by key, with its code, name and direction."""
    language = load(code or DEFAULT)
    return {
        "language": language.code,
        "direction": language.direction,
        "name": language.name,
        "words": language.texts,
    }


def words_handler(default: Callable[[web.Request], Awaitable[str | None]]) -> Handler:
    """`GET /api/words[?language=CODE]`: an unknown code is a 400 naming the languages."""

    async def handler(request: web.Request) -> web.Response:
        code = request.query.get("language") or await default(request)
        try:
            answer = words(code)
        except LanguageError as err:
            if code in codes():  # a catalog there is but cannot be read: as it says
                raise guard.Refused(400, str(err)) from None
            known = ", ".join(codes())
            raise guard.Refused(
                400, said("unknown_language", code=repr(code), codes=known)
            ) from None
        return web.json_response(answer, headers={"Cache-Control": "no-cache"})

    return handler
