"""JSON over HTTP with the standard library, for the simulator's and the web app's tests.

    client = Client(sim.url, token="s3cret")    # the simulator: a bearer token (or none)
    phone = Client(table.url, cookies=True)      # the web app: a browser's cookie jar
    status, answer = client.get("api/state")     # (status, parsed JSON or bytes)

With `cookies=True` it does what a browser's `fetch` does on the appliance's page: it keeps
the `arcana_table` cookie the app sets (and drops it when the app clears it), and each write
carries the table's own `Origin` and a JSON body (`{}` when none is given).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

COOKIE = "arcana_table"  # the web app's session cookie (firmware/web/app.py)


class Client:
    """One HTTP client: `token` is sent as a bearer token; `cookies` makes it a browser."""

    def __init__(self, url: str, token: str | None = None, cookies: bool = False) -> None:
        self.url = url
        self.token = token
        self.browser = cookies
        self.cookie: str | None = None  # "arcana_table=..." once the app has set one
        self.set_cookie: str | None = None  # the last answer's Set-Cookie header

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """(status, parsed JSON body, or the bytes of any other body). `path` is relative to
        the client's URL unless it is a whole URL; `raw` is sent as it is, instead of JSON."""
        url = path if path.lower().startswith("http") else self.url + path.lstrip("/")
        if body is None and self.browser and method != "GET":
            body = {}
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        if self.token is not None:
            request.add_header("Authorization", f"Bearer {self.token}")
        if method != "GET":
            request.add_header("Content-Type", "application/json")  # as the page sends it
            if self.browser:
                request.add_header("Origin", self.url.rstrip("/"))
        if self.cookie is not None:
            request.add_header("Cookie", self.cookie)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload, head = response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            with err:
                status, payload, head = err.code, err.read(), err.headers
        if self.browser:
            self._keep_cookie(head.get("Set-Cookie"))
        if head.get_content_type() == "application/json":
            return status, json.loads(payload)
        return status, payload

    def _keep_cookie(self, set_cookie: str | None) -> None:
        self.set_cookie = set_cookie
        if set_cookie and set_cookie.startswith(f"{COOKIE}="):
            value = set_cookie.split(";")[0]
            self.cookie = None if value == f'{COOKIE}=""' else value

    def get(self, path: str, **kwargs: Any) -> tuple[int, Any]:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        return self.call("POST", path, body, **kwargs)
