"""The simulator's web server is not an open door: real HTTP, as bytes on sockets to 127.0.0.1.

A page elsewhere cannot make a move (Content-Type, Origin), a foreign name cannot read a seat
(DNS rebinding: Host), malformed requests answer 4xx with a sentence, and half-open
connections neither pile up nor live for ever (firmware/web, docs/simulator.md)."""

from __future__ import annotations

import gzip
import json
import time
import urllib.error
import urllib.request

import pytest
from aiohttp import web

from firmware.sim.server import Running
from firmware.web import guard

SELECT = b'{"name": "select"}'
JSON = [("Content-Type", "application/json")]


def unchanged(sim):
    """The state answer and the journal's record, to compare before and after."""
    status, state = sim.client.get("/api/state")
    assert status == 200
    return json.dumps(state, sort_keys=True)


# -- a page elsewhere cannot act -----------------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        [("Content-Type", "text/plain")],  # what a page elsewhere may send without asking
        [("Content-Type", "text/plain;charset=UTF-8")],
        [("Content-Type", "application/x-www-form-urlencoded")],
        [("Content-Type", "multipart/form-data; boundary=x")],
        [],
        [("Content-Type", "application/json; charset=latin-1")],
        [("Content-Type", "application/json; charset=no-such-charset")],
        [*JSON, ("Content-Encoding", "gzip")],
        [*JSON, ("Content-Encoding", "deflate")],
        [*JSON, ("Content-Encoding", "br")],
    ],
)
def test_a_change_needs_plain_utf8_json(sim, headers):
    before = unchanged(sim)
    answer = sim.raw("POST", "/api/button", headers, SELECT)
    assert answer.status == 415
    assert answer.json()["error"].startswith(("A request that changes", "The request body must"))
    assert unchanged(sim) == before


def test_a_compressed_body_is_refused_even_when_it_is_valid_gzip(sim):
    before = unchanged(sim)
    answer = sim.raw(
        "POST", "/api/button", [*JSON, ("Content-Encoding", "gzip")], gzip.compress(SELECT)
    )
    assert answer.status == 415 and unchanged(sim) == before


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "https://127.0.0.1:{port}", "http://localhost:{port}"],
)
def test_a_foreign_origin_may_not_act(sim, origin):
    before = unchanged(sim)
    origin = origin.format(port=sim.port)
    answer = sim.raw("POST", "/api/button", [*JSON, ("Origin", origin)], SELECT)
    assert answer.status == 403
    assert answer.json()["error"] == (
        f"A page from {origin!r} may not use this table (only http://{sim.host} may)"
    )
    assert unchanged(sim) == before


def test_the_servers_own_origin_acts(sim):
    ok = b'{"name": "ok"}'
    answer = sim.raw("POST", "/api/button", [*JSON, ("Origin", f"http://{sim.host}")], ok)
    assert answer.status == 200 and answer.json()["ok"] is True
    assert sim.client.get("/api/state")[1]["game"] == "arcana"


def test_the_new_game_call_needs_json_too(sim):
    assert sim.raw("POST", "/api/new-game", [("Content-Type", "text/plain")]).status == 415
    answer = sim.raw("POST", "/api/new-game", JSON, b"[1]")
    assert (answer.status, answer.json()["error"]) == (
        400,
        "The request body must be a JSON object",
    )
    assert sim.raw("POST", "/api/new-game", JSON).status == 409  # well-formed: the table says no


@pytest.mark.parametrize(
    ("site", "mode", "path", "status"),
    [
        ("cross-site", "no-cors", "/api/screens/status.png", 403),  # <img> on another site
        ("same-site", "cors", "/api/state", 403),  # another port of this machine
        ("cross-site", "navigate", "/", 200),  # a link to the simulator
        ("same-origin", "cors", "/api/state", 200),
        ("none", "navigate", "/api/state", 200),  # typed into the address bar
    ],
)
def test_fetch_metadata_keeps_other_sites_out_but_links_work(sim, site, mode, path, status):
    headers = [("Sec-Fetch-Site", site), ("Sec-Fetch-Mode", mode)]
    assert sim.raw("GET", path, headers).status == status


def test_every_answer_forbids_framing_and_sniffing(sim):
    for path in ("/", "/api/state", "/api/nothing"):
        answer = sim.raw("GET", path)
        assert answer.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


# -- DNS rebinding: the Host header -------------------------------------------------------------
def seated(sim):
    sim.table.set_up("arcana", 2, 1, "advanced")  # kept tasks: seat 1 has secrets
    status, mine = sim.client.get("/api/state?seat=1")
    assert status == 200 and mine["hand"]["secret"]
    return mine


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",  # a name that a rebinding DNS server points at 127.0.0.1
        "evil.example",
        "127.0.0.1",  # no port: not how a browser names this server
        "127.0.0.1:1",
        "localhost:{port}.evil.example",
        "localhost.:{port}",
        "0.0.0.0:{port}",
        "[::1:{port}",
        "127.0.0.1:{port}:{port}",
        "",
    ],
)
def test_a_foreign_host_reads_nothing_without_a_token(sim, host):
    seated(sim)
    answer = sim.raw("GET", "/api/state?seat=1", host=host.format(port=sim.port))
    assert answer.status == 403
    error = answer.json()["error"]
    assert error.startswith(f"This table answers only to http://{sim.host}/")
    assert set(answer.json()) == {"error"}


@pytest.mark.parametrize(
    "host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost:{port}", "[::1]:{port}"]
)
def test_this_machines_own_names_are_answered(sim, host):
    mine = seated(sim)
    answer = sim.raw("GET", "/api/state?seat=1", host=host.format(port=sim.port))
    assert answer.status == 200 and answer.json()["hand"] == mine["hand"]


def test_no_host_or_two_hosts_is_a_bad_request(sim):
    assert sim.raw("GET", "/api/state", host=b"").status == 400
    two = sim.raw("GET", "/api/state", [("Host", "evil.example")])
    assert two.status == 400


def test_with_a_token_any_name_is_answered_but_only_with_the_token(make_sim):
    guarded = make_sim(token="s3cret")
    seated(guarded)
    foreign = "table.lan:8080"  # --host 0.0.0.0: the machine's names cannot be listed
    bare = guarded.raw("GET", "/api/state?seat=1", host=foreign)
    assert (bare.status, set(bare.json())) == (401, {"error"})
    with_token = guarded.raw(
        "GET", "/api/state?seat=1", [("Authorization", "Bearer s3cret")], host=foreign
    )
    assert with_token.status == 200 and with_token.json()["hand"]["secret"]
    # The Origin must still be the name the request used.
    moved = guarded.raw(
        "POST",
        "/api/button",
        [("Authorization", "Bearer s3cret"), *JSON, ("Origin", "http://evil.example")],
        SELECT,
        host=foreign,
    )
    assert moved.status == 403


# -- malformed requests: 4xx with a sentence, never 500 -------------------------------------------
@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        (b"[" * 30_000 + b"]" * 30_000, 400, "The request body nests deeper than 16 levels"),
        (b"[" * 17 + b"]" * 17, 400, "The request body nests deeper than 16 levels"),
        (b'{"name": ' + b"1" * 5000 + b"}", 400, "The request body has a number of more than"),
        (b'{"name": NaN}', 400, "The request body is not valid JSON (NaN is not a JSON number)"),
        (b'{"name": -Infinity}', 400, "The request body is not valid JSON (-Infinity is not"),
        (b'{"name": "\xff"}', 400, "The request body is not UTF-8"),
        (b"\xef\xbb\xbf" + SELECT, 400, "The request body is not valid JSON"),
        ('{"name": "select"}'.encode("utf-16"), 400, "The request body is not UTF-8"),
        (b'{"name": "select"', 400, "The request body is not valid JSON"),
        (b"null", 400, "The request body must be a JSON object with name"),
        (b"x" * 70_000, 413, "The request body is larger than 65536 bytes"),
    ],
)
def test_a_malformed_body_is_refused_with_a_sentence(sim, body, status, reason):
    before = unchanged(sim)
    answer = sim.raw("POST", "/api/button", JSON, body)
    assert answer.status == status
    assert answer.json()["error"].startswith(reason)
    assert unchanged(sim) == before


def test_a_body_that_never_finishes_is_refused_with_408(make_sim):
    sim = make_sim(body_s=0.5)
    before = unchanged(sim)
    with sim.connect() as sock:
        sock.sendall(
            f"POST /api/button HTTP/1.1\r\nHost: {sim.host}\r\nContent-Type: application/json\r\n"
            "Content-Length: 18\r\n\r\n".encode()
            + SELECT[:5]
        )
        answer = sim.read(sock)  # the server answers, then closes
    assert answer.status == 408
    assert answer.json()["error"] == "The request body did not arrive within 0.5 s"
    assert unchanged(sim) == before


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"POST /api/button HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET /api/state HTTP/1.1\r\nHost: {host}\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n",
        b"GET /api/state HTTP/1.1\r\nHost: {host}\r\n" + b"X-Many: 1\r\n" * 70 + b"\r\n",
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: {host}\r\n\r\n",
        b"GET /api/state HTTP/1.1\r\nHost: {host}\r\nBad Header: 1\r\n\r\n",
        b"NOT-HTTP\r\n\r\n",
    ],
)
def test_a_malformed_request_is_a_bad_request(sim, request_bytes):
    before = unchanged(sim)
    with sim.connect() as sock:
        sock.sendall(request_bytes.replace(b"{host}", sim.host.encode()))
        answer = sim.read(sock)
    assert answer.status == 400
    assert unchanged(sim) == before


@pytest.mark.parametrize(
    "authorization",
    [b"Bearer \xff\xfe", b"Bearer s3cr\xc3\xa9t", b"Bearer " + b"s" * 8000, b"\xff", b"Basic ??"],
)
@pytest.mark.parametrize("query", ["", "?token=%ff", "?token=s3cr%C3%A9t"])
def test_a_strange_authorization_is_a_wrong_token(make_sim, authorization, query):
    guarded = make_sim(token="s3cret")
    before = unchanged(guarded)
    headers = [("Authorization", authorization), *JSON]
    answer = guarded.raw("POST", "/api/button" + query, headers, SELECT)
    assert answer.status == 401
    assert answer.json()["error"].startswith(("Wrong token", "This table needs its token"))
    assert unchanged(guarded) == before


@pytest.mark.parametrize(
    "path",
    [
        "/api/state?seat=%ff",
        "/api/state?seat=" + "9" * 5000,
        "/api/state?seat=1&seat=2&seat=%00",
        "/api/screens/%ff%fe.png",
        "/api/screens/status.png?scale=" + "9" * 5000,
        "/api/screens/status.png?scale=%D9%A9",  # an Arabic-Indic nine: int() reads it
        "/page/..%2f..%2fpyproject.toml",
    ],
)
def test_strange_addresses_answer_4xx(sim, path):
    answer = sim.raw("GET", path)
    assert 400 <= answer.status < 500
    assert answer.json()["error"]


# -- connections: idle ones time out, and there is a cap ----------------------------------------
def closed_by_server(sock) -> bool:
    """Waits (up to the socket's 30 s) until the server closes this connection."""
    try:
        while sock.recv(1024):
            pass
    except ConnectionResetError:
        pass
    return True


def test_a_half_open_connection_is_closed_after_the_idle_time(make_sim):
    sim = make_sim(idle_s=0.5)
    with sim.connect() as silent, sim.connect() as partial:
        partial.sendall(f"GET /api/state HTTP/1.1\r\nHost: {sim.host}\r\n".encode())
        assert closed_by_server(silent) and closed_by_server(partial)


def test_a_slow_trickle_of_headers_does_not_keep_a_connection(make_sim):
    sim = make_sim(idle_s=1)
    with sim.connect() as sock:
        sock.sendall(f"GET /api/state HTTP/1.1\r\nHost: {sim.host}\r\n".encode())
        with pytest.raises(OSError):  # long before the 60 lines are sent, the server hangs up
            for _ in range(60):
                time.sleep(0.2)
                sock.sendall(b"X-Slow: 1\r\n")
            sock.recv(1)  # reached only if the server never closed: times out after 30 s


def test_at_the_cap_a_new_connection_is_answered_503_until_the_idle_ones_are_gone(make_sim):
    sim = make_sim(idle_s=1, max_connections=4)
    held = [sim.connect() for _ in range(4)]
    try:
        for sock in held[:2]:
            sock.sendall(f"GET /api/state HTTP/1.1\r\nHost: {sim.host}\r\n".encode())
        with sim.connect() as extra:
            busy = sim.read(extra)  # answered at once, not left waiting
        assert busy.status == 503
        assert busy.json()["error"] == "The table has too many connections open; try again"
        assert all(closed_by_server(sock) for sock in held)
        assert sim.raw("GET", "/api/state").status == 200
    finally:
        for sock in held:
            sock.close()


def test_a_flood_of_silent_connections_is_capped_and_then_gone(make_sim):
    """The issue's 300 half-open connections, at a third of the size: 100 of them."""
    sim = make_sim(idle_s=1)  # the default cap of 64
    flood = [sim.connect() for _ in range(100)]
    try:
        refused = [sim.read(sock).status for sock in flood[64:]]
        assert refused == [503] * 36
        assert all(closed_by_server(sock) for sock in flood[:64])
        assert sim.raw("GET", "/api/state").status == 200
    finally:
        for sock in flood:
            sock.close()


def test_the_event_stream_outlives_the_idle_time(make_sim):
    sim = make_sim(idle_s=0.5)
    with urllib.request.urlopen(sim.url + "api/events", timeout=30) as stream:
        assert stream.readline() == b"event: version\n"
        stream.readline(), stream.readline()
        time.sleep(1.5)  # three idle times: a request in progress is not idle
        assert sim.client.post("/api/button", {"name": "select"})[0] == 200
        assert stream.readline() == b"event: version\n"


# -- the same door for any application ----------------------------------------------------------
def test_any_application_built_on_the_guard_gets_the_same_door():
    """firmware/web is not the simulator's alone: a bare application gets every rule."""
    app = guard.application(token=None, protected="/")

    async def echo(request: web.Request) -> web.Response:
        return web.json_response(guard.json_object(request, ("word",)))

    app.router.add_post("/echo", echo)
    with Running(app) as served:
        host = f"127.0.0.1:{served.port}"

        def post(body: bytes, **headers: str) -> tuple[int, dict]:
            request = urllib.request.Request(served.url + "echo", data=body, method="POST")
            for name, value in {"Content-Type": "application/json", **headers}.items():
                request.add_header(name.replace("_", "-"), value)
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.load(answer)
            except urllib.error.HTTPError as err:
                with err:
                    return err.code, json.load(err)

        assert post(b'{"word": "hi"}') == (200, {"word": "hi"})
        assert post(b'{"word": "hi"}', Host="evil.example")[0] == 403
        assert post(b'{"word": "hi"}', Origin="http://evil.example")[0] == 403
        assert post(b'{"word": "hi"}', Content_Type="text/plain")[0] == 415
        assert post(b"[" * 20 + b"]" * 20)[0] == 400
        assert post(b"{}") == (400, {"error": "The request body lacks word"})
        assert post(b'{"word": "hi"}', Origin=f"http://{host}")[0] == 200
