"""A simulator served on a free localhost port from a background thread, a tiny client, and
raw HTTP over a socket for what urllib will not send (odd headers, half-open connections)."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from firmware.sim.server import Running, make_app
from firmware.sim.table import Simulator


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


@dataclass(frozen=True)
class Answer:
    """An HTTP answer read off the socket: status, headers (names in lower case), body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def connect(port: int) -> socket.socket:
    """A socket to the simulator (only ever 127.0.0.1), reads time out after 30 s."""
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def read_answer(sock: socket.socket) -> Answer:
    """Everything until the server closes, parsed (requests carry Connection: close)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(status_line.split()[1]), headers, body)


class Sim:
    """A served Simulator: `table` (call it only between requests), `client`, `stop()`."""

    def __init__(
        self,
        state_dir: Any,
        token: str | None = None,
        tick_s: float = 0,
        profile: str = "full-table",
        body_s: float = 10,
        **limits: Any,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.table = Simulator(state_dir, profile)
        app = make_app(self.table, token=token, tick_s=tick_s, body_s=body_s)
        self.running = Running(app, **limits)
        self.client = Client(self.running.url, token)
        self.url = self.running.url
        self.port = self.running.port
        self.host = f"127.0.0.1:{self.port}"

    def raw(
        self,
        method: str,
        path: str,
        headers: list[tuple[str | bytes, str | bytes]] | None = None,
        body: bytes = b"",
        host: str | bytes | None = None,
    ) -> Answer:
        """One request as bytes on a fresh connection: Host (the simulator's own unless
        given; b"" leaves it out), the headers as given, Content-Length, Connection: close."""
        lines = [f"{method} {path} HTTP/1.1".encode()]
        host = self.host if host is None else host
        if host != b"":
            lines.append(b"Host: " + (host.encode() if isinstance(host, str) else host))
        for name, value in headers or []:
            name = name.encode() if isinstance(name, str) else name
            lines.append(name + b": " + (value.encode() if isinstance(value, str) else value))
        lines += [f"Content-Length: {len(body)}".encode(), b"Connection: close", b"", body]
        with self.connect() as sock:
            sock.sendall(b"\r\n".join(lines))
            return read_answer(sock)

    def connect(self) -> socket.socket:
        return connect(self.port)

    read = staticmethod(read_answer)

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

    def start(token: str | None = None, profile: str = "full-table", **limits: Any) -> Sim:
        served = Sim(tmp_path / "state", token=token, profile=profile, **limits)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()


@pytest.fixture(scope="module")
def module_sim(tmp_path_factory):
    """Start simulators kept for a whole test module (a fuzz test's examples share one)."""
    started: list[Sim] = []

    def start(token: str | None = None) -> Sim:
        served = Sim(tmp_path_factory.mktemp("state"), token=token)
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
