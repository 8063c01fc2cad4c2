"""A simulator served on a free localhost port from a background thread, its client (the
shared one of tests/support/http_client.py, with the simulator's bearer token), and raw HTTP
over a socket for what urllib will not send (odd headers, half-open connections)."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from http_client import Client

from firmware.sim.server import Running, make_app
from firmware.sim.table import Simulator


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
