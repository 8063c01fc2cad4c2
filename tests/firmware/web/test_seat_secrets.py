"""A seat's phone sees its own secrets and never another seat's: two tables whose games differ
only in which agent seat 2 laid face down (tests/support/twins.py) give seat 1's phone and
the owner's phone the same pages, byte for byte but for the device's own identity; seat 2's
phone sees its own face-down agent."""

from __future__ import annotations

import json

from twins import agent_twins
from web_table import WebTable

from engine.arcana import encode_action
from firmware.journal import Journal
from firmware.web.pairing import Role


def journalled(state_dir, setup, actions) -> None:
    with Journal.open(state_dir) as journal:
        game = journal.start("arcana", setup)
        for action in actions:
            journal.append(game, encode_action(action))


def page(phone, path: str = "api/state") -> bytes:
    status, answer = phone.get(path)
    assert status == 200, answer
    answer.pop("me")  # the device's own id, name and pairing time
    return json.dumps(answer, sort_keys=True).encode()


def test_seat_1_cannot_tell_which_agent_seat_2_laid_face_down(tmp_path) -> None:
    twins = agent_twins(seed=0, players=2, variant="basic", warmup=6)
    assert twins is not None and twins.owner == 1  # seat 2 (player index 1) holds the secret
    tables = []
    try:
        for side in (0, 1):
            state_dir = tmp_path / "ab"[side]
            journalled(state_dir, twins.setups[side], [*twins.prefix, twins.first[side]])
            tables.append(WebTable(state_dir))
        pages = []
        for table in tables:
            owner = table.pair_owner()
            seat_1 = table.pair(table.offer(Role.of_seat(1)))
            seat_2 = table.pair(table.offer(Role.of_seat(2)))
            hand_2 = seat_2.get("api/state")[1]["hand"]
            pages.append((page(owner), page(seat_1), hand_2))
        (owner_a, seat_a, hand_a), (owner_b, seat_b, hand_b) = pages
        assert json.loads(seat_a)["hand"]["seat"] == 0  # seat 1's own hand is there
        assert seat_a == seat_b
        assert owner_a == owner_b
        secret_a, secret_b = twins.pair  # (both ids are in the card box of every page)
        # seat 2 sees its own face-down agent: the twins do differ where they should
        assert [a["card"] for a in hand_a["secret"]["face_down"]] == [secret_a]
        assert [a["card"] for a in hand_b["secret"]["face_down"]] == [secret_b]
    finally:
        for table in tables:
            table.close()
