"""The live event stream the pages listen to (server-sent events): "version" whenever what
the page shows may have changed; the page then asks for the state again.

    app[STREAM] = Stream()
    stream.publish(version)                  # from the event loop's thread
    return await serve(request, app[STREAM], lambda: table.version)   # GET /api/events

Publishing -1 ends every open stream (at shutdown).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

KEEPALIVE_S = 15.0


class Stream:
    """Subscribers of the live stream; each gets the latest version number."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue[int]] = set()

    def publish(self, version: int) -> None:
        for queue in self.queues:
            if queue.full():
                queue.get_nowait()  # a slow page only needs the newest version
            queue.put_nowait(version)


async def serve(
    request: web.Request, stream: Stream, version_now: Callable[[], int]
) -> web.StreamResponse:
    """Answer one GET with the stream: the version now, then each published one."""
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
    )
    await response.prepare(request)
    queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
    stream.queues.add(queue)
    try:
        version = version_now()
        while True:
            await response.write(f"event: version\ndata: {version}\n\n".encode())
            try:
                version = await asyncio.wait_for(queue.get(), timeout=KEEPALIVE_S)
            except TimeoutError:
                await response.write(b": still here\n\n")  # keeps proxies from closing it
                version = version_now()
            if version < 0:
                break
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        stream.queues.discard(queue)
    return response
