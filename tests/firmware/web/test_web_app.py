"""The appliance's web app over HTTP: nothing without pairing but the pairing page, the
simulator's Host/Origin checks, one-time codes, rate-limited guesses, roles, revocation."""

from __future__ import annotations

import urllib.request

import pytest
from web_table import Phone, WebTable

from firmware.web.pairing import MAX_FAILURES, Role


@pytest.fixture
def table(tmp_path):
    with WebTable(tmp_path) as served:
        yield served


@pytest.mark.parametrize(
    "path", ["", "api/state", "api/me", "api/events", "api/devices", "page/phone.js"]
)
def test_nothing_but_the_pairing_page_is_served_unpaired(table, path) -> None:
    status, answer = Phone(table.url).get(path)
    assert status == 401
    assert "not paired" in answer["error"]


def test_the_pairing_page_and_its_files_are_served_unpaired(table) -> None:
    phone = Phone(table.url)
    assert phone.get("pair/ANYTHING")[0] == 200
    assert phone.get("page/pair.js")[0] == 200
    assert phone.get("page/web.css")[0] == 200
    assert phone.post("api/offers", {"seat": 1})[0] == 401
    assert phone.post("api/revoke", {"id": "x"})[0] == 401


def test_cross_origin_and_foreign_hosts_are_refused(table) -> None:
    code = table.offer(Role.owner())
    phone = Phone(table.url)
    evil = {"Origin": "http://evil.example"}
    status, answer = phone.post("api/pair", {"code": code}, headers=evil)
    assert status == 403 and "evil.example" in answer["error"]
    status, _ = phone.post("api/pair", {"code": code}, headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    rebound = {"Host": f"evil.example:{table.served.port}"}
    assert phone.post("api/pair", {"code": code}, headers=rebound)[0] == 403
    assert table.pairing.pending() is not None  # none of them used the code
    owner = table.pair(code)
    assert owner.post("api/offers", {"seat": 1}, headers=evil)[0] == 403
    assert owner.get("api/state", headers=rebound)[0] == 403
    assert owner.post("api/offers", {"seat": 1})[0] == 200


def test_a_code_pairs_one_device_and_tokens_are_stored_hashed(table) -> None:
    code = table.offer(Role.owner())
    owner = table.pair(code)
    assert Phone(table.url).post("api/pair", {"code": code})[0] == 403
    token = owner.cookie.split("=", 1)[1]
    stored = (table.state_dir / "web-devices.json").read_text()
    assert token not in stored and code not in stored
    assert (table.state_dir / "web-devices.json").stat().st_mode & 0o077 == 0


def test_wrong_codes_are_rate_limited_even_before_a_right_one(table) -> None:
    code = table.offer(Role.owner())
    guesser = Phone(table.url)
    for _ in range(MAX_FAILURES):
        status, answer = guesser.post("api/pair", {"code": "AAAAAAAAAA"})
        assert status == 403 and "wrong or used up" in answer["error"]
    status, answer = guesser.post("api/pair", {"code": code})
    assert status == 429 and "Too many wrong pairing codes" in answer["error"]
    assert table.pairing.pending() is not None  # still open for when the window passes


def test_roles_the_owner_pairs_seats_a_seat_may_not(table) -> None:
    owner = table.pair_owner()
    seat = table.pair(table.offer(Role.of_seat(1)))
    for path, body in (("api/offers", {"seat": 2}), ("api/offers/withdraw", {})):
        status, answer = seat.post(path, body)
        assert status == 403 and "owner" in answer["error"]
    assert seat.get("api/devices")[0] == 403
    status, answer = owner.post("api/offers", {"seat": 7})
    assert status == 400 and "no seat 7" in answer["error"]
    status, answer = owner.post("api/offers", {"spectator": True})
    assert status == 403 and "spectators" in answer["error"]
    status, devices = owner.get("api/devices")
    assert [d["role"]["label"] for d in devices["devices"]] == ["Owner", "Seat 1"]
    assert owner.post("api/offers/withdraw")[0] == 200
    assert table.pairing.pending() is None


def test_spectators_when_the_profile_admits_them(tmp_path) -> None:
    with WebTable(tmp_path, spectators=True) as table:
        owner = table.pair_owner()
        assert owner.post("api/offers", {"spectator": True})[0] == 200
        code = table.pairing.pending().code
        spectator = table.pair(code)
        status, state = spectator.get("api/state")
        assert status == 200 and "hand" not in state and state["me"]["role"]["kind"] == "spectator"


def test_revocation_by_the_owner_and_by_the_device_itself(table) -> None:
    owner = table.pair_owner()
    seat = table.pair(table.offer(Role.of_seat(1)), "lost phone")
    other = table.pair(table.offer(Role.of_seat(2)))
    seat_id = seat.get("api/me")[1]["device"]["id"]
    other_id = other.get("api/me")[1]["device"]["id"]
    status, answer = other.post("api/revoke", {"id": seat_id})
    assert status == 403  # a seat unpairs itself only
    assert owner.post("api/revoke", {"id": seat_id})[0] == 200
    assert seat.get("api/state")[0] == 401
    status, answer = other.post("api/revoke", {"id": other_id})
    assert status == 200 and "arcana_table=" in other.set_cookie  # the cookie is cleared
    assert other.cookie is None
    status, devices = owner.get("api/devices")
    assert [d["role"]["label"] for d in devices["devices"]] == ["Owner"]
    status, answer = owner.post("api/revoke", {"id": "nobody"})
    assert status == 404 and "nobody" in answer["error"]


def test_the_state_and_the_event_stream_follow_the_table(table) -> None:
    owner = table.pair_owner()
    status, state = owner.get("api/state")
    assert status == 200 and state["phase"] == "setup" and state["me"]["role"]["kind"] == "owner"
    assert "hand" not in state
    request = urllib.request.Request(table.url + "api/events")
    request.add_header("Cookie", owner.cookie)
    with urllib.request.urlopen(request, timeout=30) as events:
        first = events.readline()
        assert first == b"event: version\n" and events.readline()
        events.readline()
        table.table.press("select")  # a button on the emulated table: the choice moves on
        assert events.readline() == b"event: version\n"
        version = int(events.readline().decode().removeprefix("data: "))
    assert version > state["version"]
    assert owner.get("api/state")[1]["version"] >= version
    # what the companion drew is hashed, never the QR code shown over it
    assert all(hasattr(d, "companion_frame") for d in table.loop.displays.values())
