"""Serving an aiohttp application with limits on what one connection may hold.

    runner = web.AppRunner(guard.application()); await runner.setup()
    site = Site(runner, "127.0.0.1", 8080); await site.start(); site.port
    Site(runner, sock=listening)          # serve on a socket already listening (systemd's)

1. A new connection has `idle_s` to send its first request head whole (our own timer: older
   aiohttp has none), and may idle as long between two requests (aiohttp's keep-alive timer,
   which also cuts a later head sent too slowly); then it is closed. A slow body is the
   guard's business (`body_s`, 408); after an answer given before the body was read, its
   rest is read for LINGER_S (so the answer is not lost to a reset), then it is closed.
2. A request line or header line over MAX_LINE bytes, more than MAX_HEADERS headers, or
   anything else that is not HTTP: 400 with a JSON sentence, as the guard answers (logged
   at debug level: a client's garbage is not the server's trouble).
3. At most `max_connections` at once; one more is answered 503 and closed at once, so idle
   sockets cannot pile up: each is gone after `idle_s` at the latest.
The sentences of 2 and 3 are said in the language the application's `guard.SPOKEN` names
(the table's, read without waiting: there is no request yet); none: English.
4. Bodies are never decompressed (the guard refuses Content-Encoding: no zip bombs).
Handlers still run one request at a time per connection, as aiohttp does.
"""

from __future__ import annotations

import asyncio
import json
import socket
from functools import cache

from aiohttp import web
from aiohttp.web_request import BaseRequest

from firmware.web import guard
from firmware.web.sentences import in_language, said

IDLE_S = 10.0
MAX_CONNECTIONS = 64
MAX_LINE = 8190
MAX_HEADERS = 64
LINGER_S = 2.0  # after an early answer, how long the rest of a body is read (and dropped)


@cache
def busy_answer(code: str | None = None) -> bytes:
    """The whole 503 answer to one connection too many, its sentence in language `code`."""
    error = in_language(said("too_many_connections"), code)
    body = json.dumps({"error": error}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


BUSY = busy_answer()  # in English


class Site(web.BaseSite):
    """A TCP site whose connections are capped and time out (the runner's handler settings
    are not used: these are). With `sock`, a socket already listening, host and port are
    its own."""

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str = "127.0.0.1",
        port: int = 0,
        idle_s: float = IDLE_S,
        max_connections: int = MAX_CONNECTIONS,
        sock: socket.socket | None = None,
    ) -> None:
        super().__init__(runner)
        if sock is not None:
            host, port = str(sock.getsockname()[0]), int(sock.getsockname()[1])
        self._host = host
        self._port = port
        self._sock = sock
        self.idle_s = idle_s
        self.max_connections = max_connections
        self.open = 0  # connections being served now

    def language(self) -> str | None:
        """The language of the site's own answers: the application's `guard.SPOKEN`, asked
        now (no request yet, nothing waited for); none, or one that fails: English."""
        app = getattr(self._runner, "app", None)
        spoken = app.get(guard.SPOKEN) if isinstance(app, web.Application) else None
        try:
            return spoken() if spoken is not None else None
        except Exception:
            return None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def port(self) -> int:
        """The port listened on (the one chosen when asked for 0), once started."""
        if self._server is None or not self._server.sockets:
            return self._port
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        manager = self._runner.server
        assert manager is not None  # BaseSite refuses a runner that is not set up

        def connection() -> _Connection:
            return _Connection(self, manager, loop)

        if self._sock is not None:
            self._server = await loop.create_server(connection, sock=self._sock)
        else:
            self._server = await loop.create_server(
                connection, self._host, self._port, backlog=self._backlog
            )


class _Connection(web.RequestHandler):
    """aiohttp's handler of one connection, counted against its site's cap."""

    def __init__(self, site: Site, manager: web.Server, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(
            manager,
            loop=loop,
            keepalive_timeout=site.idle_s,
            max_line_size=MAX_LINE,
            max_field_size=MAX_LINE,
            max_headers=MAX_HEADERS,
            auto_decompress=False,
            lingering_time=LINGER_S,
        )
        self._site = site
        self._counted = False
        self._clock = loop
        self._head_timer: asyncio.TimerHandle | None = None
        self._tail = b""  # the last bytes received, while the first head is not complete

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self._site.open >= self._site.max_connections:
            assert isinstance(transport, asyncio.Transport)
            transport.write(busy_answer(self._site.language()))
            transport.close()  # never handed to aiohttp: nothing of it to undo
            return
        self._site.open += 1
        self._counted = True
        super().connection_made(transport)
        self._head_timer = self._clock.call_later(self._site.idle_s, self.force_close)

    def data_received(self, data: bytes) -> None:
        if self._head_timer is not None:
            seen = self._tail + data
            if b"\r\n\r\n" in seen:  # the first head is whole: aiohttp's timers take over
                self._head_timer.cancel()
                self._head_timer = None
            self._tail = seen[-3:]
        super().data_received(data)

    def handle_error(
        self,
        request: BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """aiohttp's answer to a request it could not parse: JSON, like every other refusal."""
        if not 400 <= status < 500:
            return super().handle_error(request, status, exc, message)
        self.logger.debug("Bad request from %s: %s", request.remote, message)
        reason = (message or "").strip().partition("\n")[0].rstrip(":") or "malformed"
        error = in_language(said("not_http", reason=reason), self._site.language())
        response = web.json_response({"error": error}, status=status)
        response.force_close()
        return response

    def connection_lost(self, exc: BaseException | None) -> None:
        if self._counted:
            self._counted = False
            self._site.open -= 1
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)
