"""Res Arcana's buttons beyond OK and Select, the gains coming round, a bought monument tapped
again, and what the table answers once the game is over."""

from __future__ import annotations

import pytest

from firmware.controllers.resarcana import GAINS, Bot, play_demo_game
from firmware.games import GameShelf
from firmware.screens import ChoiceScreen, Essences, RefusalScreen, SeatScreen, render
from firmware.tabletop import EmulatedTable
from hardware.profile import PROFILES, parse_profile
from tests.firmware.resarcana.conftest import SEAT_0_STARTS, choose_res_arcana

ONE_EACH = Essences(1, 1, 1, 1, 1)
GAIN_LABELS = ("1 gold", "2 fire", "2 life", "2 calm", "2 death")


def shows(top, role: str, model) -> bool:
    image, shown = render(model), top.screens()[role]
    return shown.size == image.size and shown.tobytes() == image.tobytes()


def lines(top) -> list[dict]:
    return top.journal.lines(top.companion.game_id)


def seat_duel(top) -> None:
    choose_res_arcana(top)
    top.tap("stake-0", "forest_healer")
    top.tap("stake-1", "shadow_priest")
    top.press("ok")


@pytest.fixture
def with_pass_button(tmp_path):
    """The full table with a fourth button, Pass, and a duel just begun (the Healer to act)."""
    text = (PROFILES / "full-table.toml").read_text()
    text = text.replace("[buzzer]", '[[buttons]]\nrole = "pass"\npin = 21\n\n[buzzer]')
    profile = parse_profile(text, source="pass-button.toml", name="pass-button")
    with EmulatedTable(tmp_path, GameShelf(seed=SEAT_0_STARTS), profile) as top:
        seat_duel(top)
        yield top


def test_a_pass_button_passes_even_in_the_middle_of_a_discard(with_pass_button):
    top = with_pass_button
    top.press("pass")
    assert lines(top) == [{"player": 0, "action": "pass"}]
    top.press("select")  # the Priest starts a discard, then thinks better of it: Pass
    top.press("pass")
    assert lines(top)[-1] == {"player": 1, "action": "pass"}
    assert len(lines(top)) == 2  # the round ended: both passed, nothing discarded


def test_select_brings_the_gains_round_to_the_first_again(duel):
    duel.press("select")
    duel.tap("stake-0", "death_bell")
    for _ in GAINS:  # once round all five
        duel.press("select")
    assert shows(duel, "stake-0", ChoiceScreen("Death Bell", GAIN_LABELS, 0))
    duel.press("select")
    assert shows(duel, "stake-0", ChoiceScreen("Death Bell", GAIN_LABELS, 1))
    duel.press("ok")
    assert lines(duel) == [
        {"player": 0, "action": "discard", "card": "death_bell", "gain": {"fire": 2}}
    ]


def discard(top, pad: str, card: str, gain: str) -> None:
    top.press("select")
    top.tap(pad, card)
    for _ in range(GAINS.index(gain)):
        top.press("select")
    top.press("ok")


def test_a_bought_monument_tapped_again_is_asked_for_its_power_not_bought_again(duel):
    duel.press("ok")  # Forest Healer passes; Shadow Priest passes too: round 2
    duel.press("ok")
    discard(duel, "stake-0", "bag_of_gold", "gold")
    duel.press("ok")  # the Priest passes: the Healer plays on alone
    for card in ("golden_scale", "trade_ring"):
        discard(duel, "stake-0", card, "gold")
    duel.tap("stake-0", "monument_5")
    assert lines(duel)[-1] == {"player": 0, "action": "buy", "card": "monument_5"}
    before = lines(duel)
    duel.tap("stake-0", "monument_5")
    assert shows(duel, "stake-0", RefusalScreen("Monument 5 has no power to use."))
    assert lines(duel) == before


def test_once_the_game_is_over_a_press_is_refused_and_the_ranking_stays(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        result = play_demo_game(top, Bot(3, 2))
        ranking = top.screens()["status"]
        seats = {pad: top.screens()[pad] for pad in ("stake-0", "stake-1")}
        done = lines(top)
        for button in ("ok", "select"):
            top.press(button)
            assert shows(top, "status", RefusalScreen("The game is over"))
            top.wait(4)
            assert top.screens()["status"].tobytes() == ranking.tobytes()
        assert lines(top) == done
        for seat, player in enumerate(result["players"]):
            final = SeatScreen(player["name"], Essences(**player["essences"]), player["vp"])
            assert shows(top, f"stake-{seat}", final)
            assert top.screens()[f"stake-{seat}"].tobytes() == seats[f"stake-{seat}"].tobytes()


def test_a_discard_refused_in_a_german_game_says_why_in_german(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(seed=SEAT_0_STARTS, language="de")) as top:
        seat_duel(top)
        top.press("select")  # the Healer, to act, starts a discard
        top.tap("stake-1", "death_bell")  # the Priest taps one: not theirs to discard now
        refused = render(RefusalScreen("Du bist nicht am Zug"), language="de")
        assert top.screens()["stake-1"].tobytes() == refused.tobytes()
        assert lines(top) == []


def test_while_a_gain_is_chosen_the_other_seats_show_their_own_screens(duel):
    duel.press("select")
    duel.tap("stake-0", "death_bell")
    assert shows(duel, "stake-0", ChoiceScreen("Death Bell", GAIN_LABELS, 0))
    assert shows(duel, "stake-1", SeatScreen("Shadow Priest", ONE_EACH, 0))


def test_a_dealt_game_shows_its_face_up_monuments_on_the_status_screen():
    from firmware.controllers.resarcana.screens import Prompt, table_screens
    from firmware.screens import Essence, ResStatusScreen

    dealt = Bot(3, 2).state  # the bot's full deal: the monuments are known cards
    places = (Essence.FIRE, Essence.LIFE, Essence.CALM, Essence.DEATH, Essence.GOLD)
    status = table_screens(dealt, Prompt(), None)[0]
    assert status == ResStatusScreen(1, status.turn, places, monuments_up=2, monuments_hidden=4)
