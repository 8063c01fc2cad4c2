"""Res Arcana seats from the table profile: a full table whose profile seats its pads out of
order (stake-3 is seat 1, stake-1 seat 2, stake-4 seat 3, stake-0 seat 4; stake-2 is no
seat) seats, names and plays by the profile, not by pad order."""

from __future__ import annotations

import pytest

from engine.resarcana import RULES
from firmware.controllers.resarcana import Bot, play_demo_game
from firmware.games import GameShelf
from firmware.screens import (
    Essences,
    PromptIcon,
    PromptScreen,
    RefusalScreen,
    SeatScreen,
    render,
)
from firmware.steps import Step
from firmware.tabletop import EmulatedTable
from hardware.profile import load_profile
from tests.firmware.resarcana.conftest import SEAT_0_STARTS, choose_res_arcana
from tests.support.seats import RESEATED, reseated_profile

SEATS = RESEATED


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


@pytest.fixture
def reseated(tmp_path):
    """The reseated table with Res Arcana chosen, nobody seated yet."""
    profile = reseated_profile()
    games = GameShelf.for_profile(profile, seed=SEAT_0_STARTS)
    with EmulatedTable(tmp_path, games, profile) as top:
        choose_res_arcana(top)
        yield top


def test_the_profile_gives_the_seats_and_the_shipped_full_table_keeps_pad_order():
    assert reseated_profile().seats == SEATS
    assert GameShelf.for_profile(reseated_profile()).seats == SEATS
    shipped = GameShelf.for_profile(load_profile("full-table"))
    assert shipped.seats == ("stake-0", "stake-1", "stake-2", "stake-3") == GameShelf().seats
    # a minimal table's one pad stands in turn for each pad: the seats are the first four
    assert GameShelf.for_profile(load_profile("minimal")).seats == shipped.seats


def test_games_refuse_seats_that_are_not_their_pads():
    with pytest.raises(ValueError, match="must be different pads"):
        GameShelf(pads=("stake-0", "stake-1"), seats=("stake-0", "stake-3"))
    with pytest.raises(ValueError, match="must be different pads"):
        GameShelf(pads=("stake-0", "stake-1"), seats=("stake-0", "stake-0"))


def test_the_seat_pads_show_their_profile_seat_numbers(reseated):
    screens = reseated.screens()
    for seat, role in enumerate(SEATS, start=1):
        asks = render(PromptScreen("Tap your mage", title=f"Seat {seat}"))
        assert same(screens[role], asks), role
    assert not screens["stake-2"].getbbox()  # no seat: dark
    reseated.tap("stake-3", "fire_mage")
    assert same(
        reseated.screens()["stake-3"], render(PromptScreen("Fire Mage", "Seat 1", PromptIcon.NONE))
    )


def test_seats_fill_in_the_profiles_order_and_a_pad_without_a_seat_is_refused(reseated):
    def refused(pad: str, message: str) -> bool:
        return same(reseated.screens()[pad], render(RefusalScreen(message)))

    reseated.tap("stake-0", "fire_mage")  # stake-0 is seat 4 here, not seat 1
    assert refused("stake-0", "Seat 1 is still empty: sit there first")
    reseated.tap("stake-2", "fire_mage")
    assert refused("stake-2", "This pad is no seat: sit at Seat 1 to Seat 4")
    reseated.tap("stake-3", "fire_mage")
    reseated.tap("stake-1", "shadow_priest")
    reseated.tap("stake-4", "forest_healer")
    reseated.press("ok")
    _, setup = reseated.journal.setup(reseated.companion.game_id)
    assert setup["mages"] == ["fire_mage", "shadow_priest", "forest_healer"]
    assert setup["players"] == ["Fire Mage", "Shadow Priest", "Forest Healer"]
    # seat 1 (stake-3) starts: only its tap plays; stake-0 is seat 4, nobody sits there
    one_each = Essences(1, 1, 1, 1, 1)
    screens = reseated.screens()
    assert same(screens["stake-3"], render(SeatScreen("Fire Mage", one_each, 0, your_turn=True)))
    assert same(screens["stake-1"], render(SeatScreen("Shadow Priest", one_each, 0)))
    assert same(screens["stake-4"], render(SeatScreen("Forest Healer", one_each, 0)))
    reseated.tap("stake-0", "fire_mage")
    assert refused("stake-0", "Nobody sits at this pad")


def test_a_whole_game_plays_on_the_profiles_seats(tmp_path):
    profile = reseated_profile()
    games = GameShelf.for_profile(profile, seed=SEAT_0_STARTS)
    bot = Bot(3, 4, pads=games.seats)
    steps: list[Step] = []
    with EmulatedTable(tmp_path, games, profile) as top:
        result = play_demo_game(top, bot, after_step=steps.append)
        assert result["finished"] and result == RULES.result(bot.state)
        screens = top.screens()
        for role, player in zip(SEATS, result["players"], strict=True):
            final = SeatScreen(player["name"], Essences(**player["essences"]), player["vp"])
            assert same(screens[role], render(final)), role
    taps = {s.target for s in steps if s.kind == "tap"}
    assert taps == set(SEATS)  # every seat played on its own pad, stake-2 never


def test_a_game_with_more_players_than_this_tables_seats_is_set_aside_with_why(tmp_path):
    from firmware.controllers.resarcana.seating import seating_record
    from firmware.journal import Journal

    with Journal.open(tmp_path) as journal:
        journal.start("res-arcana", seating_record(["fire_mage", "shadow_priest", "forest_healer"]))
    games = GameShelf(seats=("stake-0", "stake-1"))  # a profile naming two seats only
    with EmulatedTable(tmp_path, games) as top:
        why = "game 1 cannot be read: ValueError: this table has 2 seats; 3 players need one each"
        assert same(top.screens()["status"], render(RefusalScreen(f"{why}; set aside.")))
        assert top.companion.game_id is None  # the game choice instead
