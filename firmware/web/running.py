"""An aiohttp application served from a background thread through `firmware.web.site.Site`
(the simulator's tests and command, the appliance's web app beside the table loop).

    with Running(app, host="127.0.0.1", port=0) as served:
        served.url                               # http://127.0.0.1:PORT/
    Running(app, sock=listening)                 # on a socket already listening (systemd's)

A site that cannot start (the port taken, no network allowed) raises its OSError here.
"""

from __future__ import annotations

import asyncio
import socket
import threading

from aiohttp import web

from firmware.web import site


class Running:
    """A simulator served from a background thread (tests, notebooks); `url` ends in /.
    `idle_s`, `max_connections`: the limits of its `firmware.web.site.Site`; `sock`: a
    listening socket to serve on instead of binding host:port."""

    def __init__(
        self,
        app: web.Application,
        host: str = "127.0.0.1",
        port: int = 0,
        idle_s: float = site.IDLE_S,
        max_connections: int = site.MAX_CONNECTIONS,
        sock: socket.socket | None = None,
    ) -> None:
        self._loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(app, handle_signals=False)
        self._ready = threading.Event()
        self._failed: OSError | None = None
        self._limits = {"idle_s": idle_s, "max_connections": max_connections}
        self._thread = threading.Thread(target=self._serve, args=(host, port, sock), daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout=30):
            raise RuntimeError("the web app did not start within 30 s")
        if self._failed is not None:
            self._thread.join(timeout=30)
            raise self._failed
        self.url = f"http://{self.host}:{self.port}/"

    def _serve(self, host: str, port: int, sock: socket.socket | None) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._runner.setup())
        served = site.Site(self._runner, host, port, sock=sock, **self._limits)
        try:
            self._loop.run_until_complete(served.start())
        except OSError as err:  # the port taken, or no network allowed (the unit's)
            self._failed = err
            self._ready.set()
            self._loop.run_until_complete(self._runner.cleanup())
            self._loop.close()
            return
        self.host, self.port = (host, served.port) if sock is None else sock.getsockname()[:2]
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(self._runner.cleanup())
        self._loop.close()

    def stop(self) -> None:
        """Stop serving and close the table (its journal stays on disk); idempotent."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=30)

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
