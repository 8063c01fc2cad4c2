"""The guard's checks of the HTTP itself (Host, Origin, Content-Type, the body) and the site's
own answers (too many connections, not HTTP) come in the table's language, as every other
refusal: the sentence of `[web_refusal]` filled with the request's values, the status and the
JSON's shape as in English, and the handler never runs (firmware/web/guard.py, site.py)."""

from __future__ import annotations

import json
import socket
import sys

import pytest
from aiohttp import web
from web_table import WebTable

from firmware.language import load
from firmware.web import guard
from firmware.web.running import Running

SELECT = b'{"word": "hi"}'
JSON = "Content-Type: application/json\r\n"


class Door:
    """A bare application on the guard whose refusals and site answers are in `code`; `ran`
    counts the requests its handler was given."""

    def __init__(self, code: str | None, **limits: float) -> None:
        body_s = limits.pop("body_s", guard.BODY_S)
        max_body = int(limits.pop("max_body", guard.MAX_BODY))

        async def language(request: web.Request) -> str | None:
            return code

        app = guard.application(
            None, body_s=body_s, max_body=max_body, language=language, spoken=lambda: code
        )
        self.ran = 0

        async def echo(request: web.Request) -> web.Response:
            self.ran += 1
            return web.json_response(guard.json_object(request, ("word",)))

        app.router.add_post("/echo", echo)
        self.served = Running(app, **limits)
        self.port = self.served.port
        self.host = f"127.0.0.1:{self.port}"

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=30)

    def send(self, raw: bytes) -> tuple[int, dict]:
        with self.connect() as sock:
            sock.sendall(raw)
            return read(sock)

    def post(self, body: bytes = SELECT, head: str = JSON, host: str | None = None):
        raw = (
            f"POST /echo HTTP/1.1\r\nHost: {host or self.host}\r\n{head}"
            f"Content-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode() + body
        return self.send(raw)


def read(sock: socket.socket) -> tuple[int, dict]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body)


@pytest.fixture
def door(request):
    made: list[Door] = []

    def make(code: str | None, **limits: float) -> Door:
        made.append(Door(code, **limits))
        return made[-1]

    yield make
    for each in made:
        each.served.stop()


def said(code: str, key: str, **params) -> str:
    return load(code).text(f"web_refusal.{key}", **params)


@pytest.mark.parametrize("code", ["de", "fa"])
def test_each_check_of_the_http_is_refused_in_the_tables_language(door, code):
    table = door(code, max_body=100)
    port, host = table.port, table.host

    def refused(status: int, key: str, answer: tuple[int, dict], **params) -> None:
        assert answer == (status, {"error": said(code, key, **params)})

    unnamed = f"POST /echo HTTP/1.0\r\n{JSON}Content-Length: 14\r\n\r\n".encode() + SELECT
    refused(400, "host_header_count", table.send(unnamed))  # HTTP/1.1: aiohttp's own 400
    refused(
        403,
        "unknown_host",
        table.post(host="evil.example"),
        address="127.0.0.1",
        port=port,
        host="'evil.example'",
    )
    origin = "http://evil.example"
    refused(
        403,
        "foreign_origin",
        table.post(head=f"Origin: {origin}\r\n{JSON}"),
        origin=repr(origin),
        own=f"http://{host}",
    )
    refused(403, "other_site", table.post(head=f"Sec-Fetch-Site: cross-site\r\n{JSON}"))
    refused(415, "body_compressed", table.post(head=f"Content-Encoding: gzip\r\n{JSON}"))
    refused(415, "needs_json_type", table.post(head="Content-Type: text/plain\r\n"))
    refused(413, "body_too_large", table.post(b'{"word": "' + b"x" * 200 + b'"}'), most=100)
    refused(
        400, "body_not_utf8", table.post(b'{"word": "\xff"}'), reason="invalid start byte", byte=10
    )
    try:
        json.loads('{"word": "hi"')
    except json.JSONDecodeError as err:  # the parser's own words are filled in as they are
        refused(400, "body_not_json", table.post(b'{"word": "hi"'), error=str(err))
    refused(400, "body_not_number", table.post(b'{"word": NaN}'), name="NaN")
    long = b'{"word": ' + b"1" * 80 + b"}"
    big = door(code)  # 5000 digits do not fit in 100 bytes
    refused(
        400,
        "body_long_number",
        big.post(b'{"word": ' + b"1" * 5000 + b"}"),
        digits=sys.get_int_max_str_digits(),
    )
    assert table.post(long)[0] == 200  # 80 digits are a number
    refused(400, "body_too_deep", table.post(b"[" * 17 + b"]" * 17), most=guard.MAX_DEPTH)
    assert table.ran == 1 and big.ran == 0  # only the 80 digits reached the handler


@pytest.mark.parametrize("code", ["de", "fa"])
def test_a_body_too_slow_is_refused_in_the_tables_language(door, code):
    table = door(code, body_s=0.3)
    with table.connect() as sock:
        sock.sendall(
            f"POST /echo HTTP/1.1\r\nHost: {table.host}\r\n{JSON}Content-Length: 14\r\n\r\n"
            '{"wo'.encode()
        )
        answer = read(sock)
    assert answer == (408, {"error": said(code, "body_too_slow", seconds="0.3")})
    assert table.ran == 0


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_sites_own_answers_are_in_the_tables_language(door, code):
    table = door(code, max_connections=1)
    with table.connect() as held:
        held.sendall(f"POST /echo HTTP/1.1\r\nHost: {table.host}\r\n".encode())
        with table.connect() as extra:
            assert read(extra) == (503, {"error": said(code, "too_many_connections")})
    status, answer = table.send(b"NOT-HTTP\r\n\r\n")
    start = said(code, "not_http", reason="@").partition("@")[0]
    assert status == 400 and set(answer) == {"error"}
    assert answer["error"].startswith(start) and start, answer  # aiohttp's reason as it is
    assert table.ran == 0


def test_without_a_language_the_sites_answers_stay_english(door):
    table = door(None, max_connections=1)
    with table.connect() as held:
        held.sendall(f"POST /echo HTTP/1.1\r\nHost: {table.host}\r\n".encode())
        with table.connect() as extra:
            busy = read(extra)
    assert busy == (503, {"error": "The table has too many connections open; try again"})


@pytest.mark.parametrize("code", ["de", "fa"])
def test_the_owners_web_app_refuses_a_foreign_name_in_the_tables_language(tmp_path, code):
    """Host is checked before anything of the request is trusted, but the language is the
    table's (the game shown), not the request's: it is known before any check."""
    with WebTable(tmp_path / "state", language=code) as table:
        port = int(table.url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(
                b"GET /api/state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
            )
            answer = read(sock)
        english = load("en").text(
            "web_refusal.unknown_host", address="127.0.0.1", port=port, host="'evil.example'"
        )
        status, error = answer[0], answer[1]["error"]
        assert status == 403 and error == said(
            code, "unknown_host", address="127.0.0.1", port=port, host="'evil.example'"
        )
        assert error != english
