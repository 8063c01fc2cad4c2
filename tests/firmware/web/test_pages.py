"""Page files: only the listed ones are served, with their type and never cached."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware.web.pages import Pages, no_icon


def _answers(*paths: str) -> list[tuple[int, str, str, str]]:
    """(status, content type, Cache-Control, body) of each GET, from a fresh app."""
    pages = Pages("firmware.sim", {"index.html": "text/html", "table.css": "text/css"})
    app = web.Application()
    app.router.add_get("/", pages.handler("index.html"))
    app.router.add_get("/page/{name}", pages.file)
    app.router.add_get("/favicon.ico", no_icon)

    async def fetch() -> list[tuple[int, str, str, str]]:
        async with TestClient(TestServer(app)) as client:
            out = []
            for path in paths:
                answer = await client.get(path)
                body = await answer.text()
                cache = answer.headers.get("Cache-Control", "")
                out.append((answer.status, answer.content_type, cache, body))
            return out

    # A thread of its own: the browser tests leave an event loop running on this one.
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, fetch()).result()


def test_a_listed_file_is_served_with_its_type_and_not_cached():
    css, page = _answers("/page/table.css", "/")
    assert css[:3] == (200, "text/css", "no-cache") and css[3]
    assert page[:2] == (200, "text/html") and "<html" in page[3].lower()


def test_a_file_not_listed_is_not_found_even_when_it_exists():
    script, outside, icon = _answers("/page/table.js", "/page/..%2Fserver.py", "/favicon.ico")
    assert script[0] == 404  # in the folder, not listed
    assert outside[0] == 404
    assert icon[0] == 204


def test_a_page_handler_names_only_a_listed_file():
    with pytest.raises(ValueError, match="not one of the page files"):
        Pages("firmware.sim", {"index.html": "text/html"}).handler("secret.html")
