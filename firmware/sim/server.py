"""The simulator's web server (aiohttp): the page, a JSON API and a live event stream.

    app = make_app(Simulator(state_dir), token=None)
    with Running(app, port=8080) as served:      # served through firmware.web.site.Site
        print(served.url)                        # (not web.run_app: it would skip the limits)

API (every /api call carries the token when one is set: `Authorization: Bearer T` or
`?token=T`, without it 401; every POST carries `Content-Type: application/json`):

    GET  /api/state[?seat=N]          the table; with a seat, that seat's hand and secrets
    GET  /api/words[?language=fa]     the page's words in a language (else the game's)
    POST /api/tap     {"pad": "stake-2", "card": "blades_agent_3"}
    POST /api/button  {"name": "undo"}            {"name": "undo", "held": true} redoes
    POST /api/new-game                            after a ranking, back to the choice
    GET  /api/screens/<display>.png[?scale=4]     the exact 1-bit frame, scaled crisply
    GET  /api/events                  server-sent events: "version" whenever something changed

Errors are JSON `{"error": sentence}`: 4xx for input that cannot even be tried (nothing
changes), 409 for a refusal of the game or the table (the sentence the OLED shows). Before
any of this, `firmware.web.guard` checks Host, Origin, token and body of every request, and
`firmware.web.site` caps and times out connections (docs/simulator.md, "Who may ask").

The EmulatedTable belongs to one worker thread: every call to it goes through `Worker.run`, so
requests are served one after another, and a ticker lets emulated time pass so that notices
expire as they do on the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web

from firmware.sim.table import BadInput, Outcome, Simulator
from firmware.web import guard, stream
from firmware.web.pages import Pages, no_icon
from firmware.web.running import Running
from firmware.web.sentences import said
from firmware.web.stream import Stream
from firmware.web.words import words_handler

__all__ = ["Running", "make_app"]

TICK_S = 0.5
MAX_SCALE = 8
PAGE_FILES = {
    "index.html": "text/html",
    "table.js": "text/javascript",
    "table.css": "text/css",
}
PAGES = Pages("firmware.sim", PAGE_FILES)
SHARED = Pages("firmware.web", {"words.js": "text/javascript"})  # the phone's pages' too
TABLE: web.AppKey[Worker] = web.AppKey("table")
STREAM: web.AppKey[Stream] = web.AppKey("stream")


class Worker:
    """The one thread that owns the Simulator; `await worker.run(fn, ...)` calls into it.
    `language` is the game's language as the last call left it: read on the worker thread
    after every call, so the site's own answers (no request, nothing to wait on) can say it."""

    def __init__(self, table: Simulator) -> None:
        self.table = table
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sim-table")
        self.language: str | None = self._thread.submit(self._spoken).result()

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._call, fn, args)

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        try:
            return fn(*args)
        finally:
            self.language = self._spoken()

    def _spoken(self) -> str | None:
        return self.table.companion.current_language()

    def close(self) -> None:
        self._thread.submit(self.table.close).result()
        self._thread.shutdown()


def make_app(
    table: Simulator, token: str | None = None, tick_s: float = TICK_S, body_s: float = guard.BODY_S
) -> web.Application:
    """The web application around a Simulator (token: required on every API call if set;
    body_s: how long a request body may take to arrive)."""
    worker = Worker(table)
    app = guard.application(
        token,
        protected="/api/",
        body_s=body_s,
        middlewares=[_bad_input],
        language=_language,
        spoken=lambda: worker.language,  # the site's own answers, before there is a request
    )
    app[TABLE] = worker
    app[STREAM] = Stream()
    app.router.add_get("/", PAGES.handler("index.html"))
    app.router.add_get("/page/words.js", SHARED.handler("words.js"))
    app.router.add_get("/page/{name}", PAGES.file)
    app.router.add_get("/favicon.ico", no_icon)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/words", words_handler(_language))
    app.router.add_post("/api/tap", _tap)
    app.router.add_post("/api/button", _button)
    app.router.add_post("/api/new-game", _new_game)
    app.router.add_get("/api/screens/{display}.png", _screen)
    app.router.add_get("/api/events", _events)
    app.cleanup_ctx.append(_ticker(tick_s))
    app.on_shutdown.append(_end_streams)
    app.on_cleanup.append(_close_table)
    return app


# -- middlewares ------------------------------------------------------------------------------
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _bad_input(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except BadInput as err:
        raise guard.Refused(err.status, err.message) from None


# -- the API ----------------------------------------------------------------------------------
async def _state(request: web.Request) -> web.Response:
    seat = request.query.get("seat")
    worker = request.app[TABLE]
    return web.json_response(await worker.run(worker.table.state, seat or None))


async def _language(request: web.Request) -> str | None:
    worker = request.app[TABLE]
    return await worker.run(worker.table.companion.current_language)


async def _act(request: web.Request, fn: Callable[..., Outcome], *args: Any) -> web.Response:
    worker = request.app[TABLE]
    before = worker.table.version
    outcome = await worker.run(fn, *args)
    version = worker.table.version
    if version != before:
        request.app[STREAM].publish(version)
    return web.json_response(
        {**outcome.to_json(), "version": version}, status=200 if outcome.ok else 409
    )


async def _tap(request: web.Request) -> web.Response:
    body = guard.json_object(request, ("pad", "card"))
    return await _act(request, request.app[TABLE].table.tap, body["pad"], body["card"])


async def _button(request: web.Request) -> web.Response:
    body = guard.json_object(request, ("name",))
    table = request.app[TABLE].table
    return await _act(request, table.press, body["name"], body.get("held", False))


async def _new_game(request: web.Request) -> web.Response:
    guard.json_object(request, ())  # no body, or an object: anything else is a mistake
    return await _act(request, request.app[TABLE].table.new_game)


async def _screen(request: web.Request) -> web.Response:
    try:
        scale = int(request.query.get("scale", "4"))
    except ValueError:
        scale = 0
    if not 1 <= scale <= MAX_SCALE:
        raise BadInput(said("scale", most=MAX_SCALE))
    worker = request.app[TABLE]
    frame = await worker.run(worker.table.screen, request.match_info["display"])
    image = frame.convert("1")
    if scale != 1:
        image = image.resize((image.width * scale, image.height * scale), resample=0)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return web.Response(
        body=out.getvalue(), content_type="image/png", headers={"Cache-Control": "no-store"}
    )


async def _events(request: web.Request) -> web.StreamResponse:
    table = request.app[TABLE].table
    return await stream.serve(request, request.app[STREAM], lambda: table.version)


# -- life cycle -------------------------------------------------------------------------------
def _ticker(tick_s: float) -> Callable[[web.Application], Any]:
    async def ticker(app: web.Application) -> Any:
        async def tick() -> None:
            worker = app[TABLE]
            while True:
                await asyncio.sleep(tick_s)
                if await worker.run(worker.table.tick, tick_s):
                    app[STREAM].publish(worker.table.version)

        task = asyncio.create_task(tick()) if tick_s > 0 else None
        yield
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return ticker


async def _end_streams(app: web.Application) -> None:
    app[STREAM].publish(-1)  # every open stream ends, so shutdown does not wait for them


async def _close_table(app: web.Application) -> None:
    await asyncio.get_running_loop().run_in_executor(None, app[TABLE].close)
