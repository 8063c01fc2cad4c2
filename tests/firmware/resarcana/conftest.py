"""Res Arcana on the emulated full table: an EmulatedTable at the chooser, or with two players
seated (Forest Healer on stake-0, Shadow Priest on stake-1, the Healer starting)."""

from __future__ import annotations

import pytest

from firmware.games import GameShelf
from firmware.tabletop import EmulatedTable

SEAT_0_STARTS = 2  # a seed whose first start-player draw is seat 0 for 2, 3 and 4 players


def choose_res_arcana(top: EmulatedTable) -> None:
    top.press("select")
    top.press("ok")


@pytest.fixture
def top(tmp_path):
    """A table with Res Arcana chosen, nobody seated yet."""
    with EmulatedTable(tmp_path, GameShelf(seed=SEAT_0_STARTS)) as table:
        choose_res_arcana(table)
        yield table


@pytest.fixture
def duel(top):
    """A two-player game just begun: Healer (seat 0, stake-0) to play, Priest on stake-1."""
    top.tap("stake-0", "forest_healer")
    top.tap("stake-1", "shadow_priest")
    top.press("ok")
    assert top.companion.game_id is not None
    return top
