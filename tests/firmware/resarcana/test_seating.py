"""Setup at the table: each player taps their mage on their own pad; OK (or a 4th mage)
begins a physical game with no hands, decks or monument stack in the record."""

from __future__ import annotations

from firmware.screens import (
    Essence,
    Essences,
    PromptIcon,
    PromptScreen,
    RefusalScreen,
    ResStatusScreen,
    SeatScreen,
    render,
)


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def test_the_pads_ask_for_mages_and_show_who_sits(top):
    top.tap("stake-0", "master_of_calm")
    screens = top.screens()
    assert same(screens["stake-1"], render(PromptScreen("Tap your mage", title="Seat 2")))
    seated = render(PromptScreen("Master of Calm", "Seat 1", PromptIcon.NONE))
    assert same(screens["stake-0"], seated)
    status = render(PromptScreen("Each player: tap your mage on your pad", title="Res Arcana"))
    assert same(screens["status"], status)


def test_ok_begins_with_two_seated_and_the_record_keeps_hands_secret(top):
    top.tap("stake-0", "fire_mage")
    top.tap("stake-1", "shadow_priest")
    ready = render(PromptScreen("2 seated. OK: start", title="Res Arcana"))
    assert same(top.screens()["status"], ready)
    top.press("ok")
    game, setup = top.journal.setup(top.companion.game_id)
    assert (game, setup) == (
        "res-arcana",
        {
            "players": ["Fire Mage", "Shadow Priest"],
            "start_player": 0,
            "mages": ["fire_mage", "shadow_priest"],
            "language": "en",
        },
    )
    places = (Essence.FIRE, Essence.LIFE, Essence.CALM, Essence.DEATH, Essence.GOLD)
    status = render(ResStatusScreen(1, "Fire Mage", places, monuments_up=2, monuments_hidden=4))
    assert same(top.screens()["status"], status)
    one_each = Essences(1, 1, 1, 1, 1)
    assert same(
        top.screens()["stake-0"], render(SeatScreen("Fire Mage", one_each, 0, your_turn=True))
    )
    assert same(top.screens()["stake-1"], render(SeatScreen("Shadow Priest", one_each, 0)))


def test_a_fourth_mage_begins_at_once_in_pad_order(top):
    mages = ["master_of_calm", "fire_mage", "forest_healer", "shadow_priest"]
    for pad, mage in zip(("stake-0", "stake-1", "stake-2", "stake-3"), mages, strict=True):
        top.tap(pad, mage)
    _, setup = top.journal.setup(top.companion.game_id)
    assert setup["mages"] == ["master_of_calm", "fire_mage", "forest_healer", "shadow_priest"]
    assert setup["players"] == ["Master of Calm", "Fire Mage", "Forest Healer", "Shadow Priest"]


def test_a_mage_tapped_again_on_its_pad_changes_that_seat(top):
    top.tap("stake-0", "fire_mage")
    top.tap("stake-0", "forest_healer")
    top.tap("stake-1", "fire_mage")
    top.press("ok")
    assert top.journal.setup(top.companion.game_id)[1]["mages"] == ["forest_healer", "fire_mage"]


def refused(top, pad: str, message: str) -> bool:
    return same(top.screens()[pad], render(RefusalScreen(message)))


def test_seating_mistakes_are_refused_and_begin_nothing(top):
    top.tap("stake-0", "seer_orb")
    assert refused(top, "stake-0", "Tap your mage to take this seat")
    top.tap("stake-0", "fire_mage")
    top.tap("stake-2", "fire_mage")
    assert refused(top, "stake-2", "Fire Mage already sits at seat 1")
    top.tap("stake-4", "shadow_priest")
    assert refused(top, "stake-4", "This pad is no seat: sit at Seat 1 to Seat 4")
    top.press("ok")
    assert refused(top, "status", "Seat at least 2 players: each taps a mage on their pad")
    top.tap("stake-2", "shadow_priest")  # seats fill in pad order: no gap
    assert refused(top, "stake-2", "Seat 2 is still empty: sit there first")
    assert top.journal.unfinished() is None
    top.tap("stake-1", "master_of_calm")
    top.tap("stake-2", "shadow_priest")
    top.press("ok")
    assert top.journal.setup(top.companion.game_id)[1]["mages"] == [
        "fire_mage",
        "master_of_calm",
        "shadow_priest",
    ]


def test_an_arcana_card_during_seating_is_not_a_mage(top):
    top.tap("stake-0", "blades_agent_3")
    assert refused(top, "stake-0", "Tap your mage to take this seat")


def test_the_start_player_is_drawn_from_the_seed_and_recorded(tmp_path):
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable
    from tests.firmware.resarcana.conftest import choose_res_arcana

    starts = []
    for run in range(2):
        with EmulatedTable(tmp_path / str(run), GameShelf(seed=0)) as top:  # seed 0: seat 2 of 2
            choose_res_arcana(top)
            top.tap("stake-0", "fire_mage")
            top.tap("stake-1", "shadow_priest")
            top.press("ok")
            setup = top.journal.setup(top.companion.game_id)[1]
            starts.append(setup["start_player"])
            places = (Essence.FIRE, Essence.LIFE, Essence.CALM, Essence.DEATH, Essence.GOLD)
            status = ResStatusScreen(1, "Shadow Priest", places, 2, 4)
            assert same(top.screens()["status"], render(status))
    assert starts == [1, 1]  # the same seed, the same draw; recorded in the setup
    draws = {GameShelf(seed=seed).rng.randrange(4) for seed in range(40)}
    assert draws == {0, 1, 2, 3}  # every seat may start
