"""An aiohttp application served from a background thread through `firmware.web.site.Site`
(the simulator's tests and command, the appliance's web app beside the table loop).

    with Running(app, host="127.0.0.1", port=0) as served:
        served.url                               # http://127.0.0.1:PORT/
"""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web

from firmware.web import site


class Running:
    """A simulator served from a background thread (tests, notebooks); `url` ends in /.
    `idle_s`, `max_connections`: the limits of its `firmware.web.site.Site`."""

    def __init__(
        self,
        app: web.Application,
        host: str = "127.0.0.1",
        port: int = 0,
        idle_s: float = site.IDLE_S,
        max_connections: int = site.MAX_CONNECTIONS,
    ) -> None:
        self._loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(app, handle_signals=False)
        self._ready = threading.Event()
        self._limits = {"idle_s": idle_s, "max_connections": max_connections}
        self._thread = threading.Thread(target=self._serve, args=(host, port), daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout=30):
            raise RuntimeError("the web app did not start within 30 s")
        self.url = f"http://{host}:{self.port}/"

    def _serve(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._runner.setup())
        served = site.Site(self._runner, host, port, **self._limits)
        self._loop.run_until_complete(served.start())
        self.port = served.port
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
