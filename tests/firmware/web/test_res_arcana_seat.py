"""A Res Arcana seat's phone: its own stock of essences and its VP, as the engine counts them
(the table keeps no Res Arcana secret: every seat's stock is also in the public view)."""

from __future__ import annotations

from res_arcana_game import STOCKS, res_arcana_game
from web_table import WebTable

from firmware.web.pairing import Role


def test_each_res_arcana_seat_sees_its_essences_and_vp(tmp_path) -> None:
    res_arcana_game(tmp_path)
    with WebTable(tmp_path) as table:
        table.pair_owner()
        for seat in (1, 2):
            phone = table.pair(table.offer(Role.of_seat(seat)))
            status, state = phone.get("api/state")
            assert status == 200, state
            assert state["game"] == "res-arcana"
            hand = state["hand"]
            assert hand["seat"] == seat - 1
            assert hand["essences"] == STOCKS[seat - 1]
            assert hand["vp"] == state["players"][seat - 1]["vp"] == 0
            # the same counts as the engine's public view of that seat
            assert state["view"]["players"][seat - 1]["essences"] == hand["essences"]
