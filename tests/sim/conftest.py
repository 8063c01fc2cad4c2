"""A simulator served on a free localhost port from a background thread, and a tiny client."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from firmware.sim.server import Running, make_app
from firmware.sim.table import SimTable


class Client:
    """JSON over HTTP with the standard library; answers (status, parsed body)."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = url
        self.token = token

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method)
        if self.token is not None:
            request.add_header("Authorization", f"Bearer {self.token}")
        if method != "GET":
            request.add_header("Content-Type", "application/json")  # as the page sends it
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload, kind = response.status, response.read(), response.headers
        except urllib.error.HTTPError as err:
            with err:
                status, payload, kind = err.code, err.read(), err.headers
        if kind.get_content_type() == "application/json":
            return status, json.loads(payload)
        return status, payload

    def get(self, path: str, **kwargs: Any) -> tuple[int, Any]:
        return self.call("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        return self.call("POST", path, body=body, **kwargs)


class Sim:
    """A served SimTable: `table` (call it only between requests), `client`, `stop()`."""

    def __init__(
        self,
        state_dir: Any,
        token: str | None = None,
        tick_s: float = 0,
        profile: str = "full-table",
    ) -> None:
        self.table = SimTable(state_dir, profile)
        self.running = Running(make_app(self.table, token=token, tick_s=tick_s))
        self.client = Client(self.running.url, token)
        self.url = self.running.url

    def anonymous(self) -> Client:
        """A client that carries no token."""
        return Client(self.url)

    def stop(self) -> None:
        self.running.stop()


@pytest.fixture
def make_sim(tmp_path):
    """Start simulators (default journal: one per test); all are stopped after the test.

    No ticker: notices stay until the next step, so before/after comparisons are exact.
    """
    started: list[Sim] = []

    def start(token: str | None = None, profile: str = "full-table") -> Sim:
        served = Sim(tmp_path / "state", token=token, profile=profile)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()


@pytest.fixture
def sim(make_sim) -> Sim:
    return make_sim()


@pytest.fixture
def client(sim) -> Client:
    return sim.client
