"""Res Arcana on the emulated full table: a Tabletop at the chooser, or with two players
seated (Healer on stake-0, Priest on stake-1, Healer starting)."""

from __future__ import annotations

import pytest

from firmware.games import TableGames
from firmware.tabletop import Tabletop


def choose_res_arcana(top: Tabletop) -> None:
    top.press("select")
    top.press("ok")


@pytest.fixture
def top(tmp_path):
    """A table with Res Arcana chosen, nobody seated yet."""
    with Tabletop(tmp_path, TableGames()) as table:
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
