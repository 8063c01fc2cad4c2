"""The static files of a web page folder, served the same way by the simulator and the
owner's web app: only the files named, each with its type, never cached.

    pages = Pages("firmware.web", {"phone.html": "text/html", "web.css": "text/css"})
    app.router.add_get("/", pages.handler("phone.html"))
    app.router.add_get("/page/{name}", pages.file)       # 404 for a name not listed
    app.router.add_get("/favicon.ico", no_icon)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from importlib import resources

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Pages:
    """The files of `package`'s `page/` folder that may be served, by name, with their types."""

    def __init__(self, package: str, types: Mapping[str, str]) -> None:
        self.package = package
        self.types = dict(types)

    def response(self, name: str) -> web.Response:
        folder = resources.files(self.package).joinpath("page")
        return web.Response(
            text=folder.joinpath(name).read_text(encoding="utf-8"),
            content_type=self.types[name],
            headers={"Cache-Control": "no-cache"},
        )

    def handler(self, name: str) -> Handler:
        """A handler that answers with the one file `name` (a page at its own address)."""
        if name not in self.types:
            raise ValueError(f"{name} is not one of the page files {sorted(self.types)}")

        async def page(request: web.Request) -> web.Response:
            return self.response(name)

        return page

    async def file(self, request: web.Request) -> web.Response:
        """`/page/{name}`: a listed file, else 404."""
        name = request.match_info["name"]
        if name not in self.types:
            raise web.HTTPNotFound()
        return self.response(name)


async def no_icon(request: web.Request) -> web.Response:
    """No favicon: 204, so browsers stop asking and nothing is logged as missing."""
    return web.Response(status=204)
