"""Hypothesis over whole HTTP requests to every endpoint of a served simulator, as bytes on a
socket: methods, Host, Origin, Content-Type, Content-Encoding, Authorization, fetch metadata,
query strings and bodies (bytes, JSON of any shape, deep nesting, long numbers). Whatever
arrives, the answer is never 5xx; a 4xx other than the table's 409 carries a sentence and
changes nothing (the state answer, every screen's hash, the journal's files); and a request
that breaks a rule of firmware/web/guard.py is refused, whatever else it holds.

A few seconds each by default; ARCANA_FUZZ_SCALE=50 for a longer run (50 times the examples).
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

Sim = Any  # tests/sim/conftest.py's Sim

EXAMPLES = 100 * int(os.environ.get("ARCANA_FUZZ_SCALE", "1"))
TOKEN = "s3cret"
# One simulator per test serves all its examples: state carries over, as on a table.
FUZZ = settings(max_examples=EXAMPLES, deadline=None)

ENDPOINTS = [
    ("GET", "/"),
    ("GET", "/page/table.js"),
    ("GET", "/favicon.ico"),
    ("GET", "/api/state"),
    ("GET", "/api/screens/status.png"),
    ("GET", "/api/events"),
    ("POST", "/api/tap"),
    ("POST", "/api/button"),
    ("POST", "/api/new-game"),
    ("GET", "/api/nothing"),
]
OWN = "{own}"  # replaced by 127.0.0.1:<port> when sent
SAME = "{same}"  # replaced by http:// and the Host sent
FOREIGN_HOSTS = ["evil.example:{port}", "evil.example", "127.0.0.1", "localhost:1", ""]
OWN_HOSTS = [OWN, "localhost:{port}", "[::1]:{port}"]
WORDS = ["stake-0", "stake-2", "stake-4", "status", "undo", "select", "ok", "task_01"]
WORDS += [f"ferrymen_agent_{n}" for n in (1, 2, 3)] + ["ferrymen_location", "blades_agent_3"]
WORDS += ["seer_orb", "joker", "1", "-1", "held", "pad", "card", "name"]
JSON_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
]
# Each header: values a page of this table would send, and hostile ones (plus any bytes).
FRIENDLY: dict[str, list[str | None]] = {
    "Host": OWN_HOSTS,
    "Origin": [None, SAME],
    "Content-Type": JSON_TYPES,
    "Content-Encoding": [None, None, "identity"],
    "Authorization": [f"Bearer {TOKEN}"],
    "Sec-Fetch-Site": [None, "same-origin", "none"],
}
HOSTILE: dict[str, list[str | None]] = {
    "Host": FOREIGN_HOSTS,
    "Origin": ["http://evil.example", "null", f"https://{OWN}", "http://localhost:1"],
    "Content-Type": [None, "text/plain", "application/json; charset=nope", "multipart/x"],
    "Content-Encoding": ["gzip", "br", "deflate", "zstd"],
    "Authorization": [None, "Bearer wrong", "Basic czNjcmV0", "Bearer " + TOKEN.upper()],
    "Sec-Fetch-Site": ["cross-site", "same-site"],
}
METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"]


def header_bytes() -> st.SearchStrategy[bytes]:
    """Any value a header line can carry (bytes, not UTF-8 either), without line breaks."""
    return st.binary(max_size=40).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b""))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(WORDS),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
actions = st.one_of(  # what the page sends: these often change the table when allowed
    st.sampled_from([b'{"name": "select"}', b'{"name": "ok"}', b'{"name": "undo"}', b"{}"]),
    st.builds(
        lambda pad, agent: json.dumps({"pad": f"stake-{pad}", "card": agent}).encode(),
        st.integers(0, 4),
        st.sampled_from([f"ferrymen_agent_{n}" for n in range(1, 10)]),
    ),
)
bodies = st.one_of(
    actions,
    st.binary(max_size=200),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.fixed_dictionaries(
        {"pad": st.sampled_from(WORDS) | json_values, "card": st.sampled_from(WORDS)},
    ).map(lambda value: json.dumps(value).encode()),
    st.fixed_dictionaries(
        {"name": st.sampled_from(WORDS) | json_values},
        optional={"held": json_values},
    ).map(lambda value: json.dumps(value).encode()),
    st.sampled_from([17, 1000, 25_000]).map(lambda n: b"[" * n + b"]" * n),
    st.sampled_from([4301, 6000]).map(lambda n: b'{"name": ' + b"7" * n + b"}"),
    st.sampled_from([b'{"name": NaN}', b'{"name": Infinity}', b"\xef\xbb\xbf{}", b"null"]),
)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, str | bytes | None]:
    """A request as a page of the table would send it, with up to two parts made hostile;
    the body is always drawn freely. "{own}", "{port}", "{same}" are filled in when sent."""
    method, path = draw(st.sampled_from(ENDPOINTS + [e for e in ENDPOINTS if e[0] == "POST"] * 2))
    hostile = draw(st.sets(st.sampled_from(["method", *FRIENDLY]), max_size=2))
    request: dict[str, str | bytes | None] = {
        "method": draw(st.sampled_from(METHODS)) if "method" in hostile else method,
        "path": path + draw(st.sampled_from(["", "?seat=1", "?seat=", "?scale=2", "?token=x"])),
        "query": draw(st.none() | st.text(max_size=20).map(quote)),
        "body": draw(bodies),
    }
    for name, friendly in FRIENDLY.items():
        if name in hostile:
            request[name] = draw(st.sampled_from(HOSTILE[name]) | header_bytes())
        else:
            request[name] = draw(st.sampled_from(friendly))
    return request


def resolved(sim: Sim, request: dict[str, str | bytes | None]) -> dict[str, bytes | None]:
    """The parts as the bytes sent, with the simulator's own address filled in."""
    out: dict[str, bytes | None] = {}
    for key, value in request.items():
        if isinstance(value, str):
            value = value.replace(OWN, sim.host).replace("{port}", str(sim.port)).encode()
        out[key] = value
    if out["Origin"] == SAME.encode():
        out["Origin"] = b"http://" + out["Host"]
    if out["query"] is not None:
        out["path"] += (b"&" if b"?" in out["path"] else b"?") + out["query"]
    return out


HEADERS = ("Host", "Origin", "Content-Type", "Content-Encoding", "Authorization", "Sec-Fetch-Site")


def send(sim: Sim, parts: dict[str, bytes | None]) -> tuple[int, bytes]:
    """The request on a fresh connection; its status and, for a refusal, the answer's body."""
    head = [parts["method"] + b" " + parts["path"] + b" HTTP/1.1"]
    head += [name.encode() + b": " + parts[name] for name in HEADERS if parts[name] is not None]
    body = parts["body"]
    head += [f"Content-Length: {len(body)}".encode(), b"Connection: close", b"", body]
    with sim.connect() as sock:
        sock.sendall(b"\r\n".join(head))
        data = b""
        while b"\r\n\r\n" not in data and (chunk := sock.recv(65536)):
            data += chunk
        status = int(data.split(b" ", 2)[1])
        if status < 400:
            return status, b""  # an event stream never ends: its head is enough
        while chunk := sock.recv(65536):
            data += chunk
    return status, data.partition(b"\r\n\r\n")[2]


def breaks_a_rule(sim: Sim, parts: dict[str, bytes | None], token: str | None) -> bool:
    """True when the guard must refuse this request, whatever its body says."""
    own_names = [name.replace(OWN, sim.host).replace("{port}", str(sim.port)) for name in OWN_HOSTS]
    if token is None and parts["Host"] not in [name.encode() for name in own_names]:
        return True
    if parts["Origin"] is not None and parts["Origin"] != b"http://" + parts["Host"]:
        return True
    if parts["Sec-Fetch-Site"] in (b"cross-site", b"same-site"):
        return True
    protected = token is not None and parts["path"].startswith(b"/api/")
    if protected and parts["Authorization"] != f"Bearer {token}".encode():
        return True
    if parts["method"] in (b"GET", b"HEAD"):
        return False
    plain_json = parts["Content-Type"] in [kind.encode() for kind in JSON_TYPES]
    return not plain_json or parts["Content-Encoding"] not in (None, b"identity")


def everything(sim: Sim) -> tuple[str, dict[str, bytes]]:
    """The state answer (screens by hash, notices, record) and the journal's files."""
    status, state = sim.client.get("/api/state")
    assert status == 200
    files = {p.name: p.read_bytes() for p in sorted(sim.state_dir.iterdir()) if p.is_file()}
    return json.dumps(state, sort_keys=True), files


def fuzz(sim: Sim, token: str | None, request: dict[str, str | bytes | None]) -> None:
    parts = resolved(sim, request)
    before = everything(sim)
    status, body = send(sim, parts)
    assert status < 500, (status, body[:300])
    event(f"answered {status}")  # --hypothesis-show-statistics: how deep the examples reach
    if breaks_a_rule(sim, parts, token):
        assert 400 <= status < 500 and status != 409, status
    if status >= 400 and parts["method"] != b"HEAD":
        error = json.loads(body)["error"]
        assert isinstance(error, str) and error
    if 400 <= status < 500 and status != 409:
        assert everything(sim) == before


@pytest.fixture(scope="module")
def open_table(module_sim) -> Sim:
    sim = module_sim()
    sim.table.set_up("arcana", 2, 1, "advanced")  # a game under way: taps reach the rules
    return sim


@pytest.fixture(scope="module")
def guarded_table(module_sim) -> Sim:
    sim = module_sim(token=TOKEN)
    sim.table.set_up("arcana", 2, 1, "advanced")
    return sim


@FUZZ
@given(request=requests())
def test_no_request_to_an_open_table_gets_a_500_or_changes_anything_when_refused(
    open_table, request
):
    fuzz(open_table, None, request)


@FUZZ
@given(request=requests())
def test_no_request_to_a_guarded_table_gets_a_500_or_changes_anything_when_refused(
    guarded_table, request
):
    fuzz(guarded_table, TOKEN, request)
