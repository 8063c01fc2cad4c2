"""The first screens of a table, on the emulated full table: Select walks the choices and comes
round again, OK picks one, Undo steps back out of a game's setup and then out of the variant;
the language line walks every language; the game begun keeps the language chosen."""

from __future__ import annotations

import pytest

from firmware.games import GameShelf
from firmware.language import codes
from firmware.screens import ChoiceScreen, PromptScreen, RefusalScreen, render
from firmware.tabletop import EmulatedTable

GAME_CHOICES = ("Arcana", "Res Arcana", "Enroll cards", "Language: English")
VARIANTS = ("Basic game", "Advanced game")
SEAT_1 = PromptScreen("Tap your guild base", title="Seat 1")


@pytest.fixture
def top(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as table:
        yield table


def shows(top, model, language: str = "en") -> bool:
    image = render(model, language=language)
    status = top.screens()["status"]
    return status.size == image.size and status.tobytes() == image.tobytes()


def test_undo_steps_back_out_of_the_seating_then_out_of_the_variant(top):
    top.press("ok")  # Arcana
    top.press("select")
    top.press("ok")  # the advanced game: its seating asks for the first base
    assert shows(top, SEAT_1)
    top.press("undo")  # out of the seating: the variant again, from its first line
    assert shows(top, ChoiceScreen("Arcana: variant?", VARIANTS, 0))
    top.press("select")
    top.press("undo")  # out of the variant: the game choice, from its first line
    assert shows(top, ChoiceScreen("Which game?", GAME_CHOICES, 0))
    top.press("ok")
    top.press("ok")  # and the basic game from there, as if nothing had happened
    assert shows(top, SEAT_1)
    top.tap("stake-0", "ferrymen_base")
    top.tap("stake-1", "blades_base")
    top.press("ok")
    for index, card in enumerate(
        ("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03", "m_agent_06")
    ):
        top.tap(f"stake-{index}", card)
    _, setup = top.journal.setup(top.companion.game_id)
    assert setup["variant"] == "basic"


def test_select_comes_round_again_on_the_variant_and_holding_it_there_pairs_nothing(top):
    top.press("ok")  # Arcana
    top.press("select")
    top.press("select")  # past the advanced game: back to the basic one
    assert shows(top, ChoiceScreen("Arcana: variant?", VARIANTS, 0))
    top.press("select", held=True)  # only the game choice pairs a phone: here it moves on
    assert shows(top, ChoiceScreen("Arcana: variant?", VARIANTS, 1))


def test_a_card_before_the_game_is_chosen_is_refused_on_the_status_screen(top):
    top.press("ok")  # Arcana: the variant is still to choose
    top.tap("stake-2", "ferrymen_base")
    assert shows(top, RefusalScreen("Choose the game first: Select, then OK"))
    assert top.journal.unfinished() is None


def test_the_language_line_walks_every_language_and_comes_back_to_english(top):
    assert codes() == ("en", "de", "fa")
    for _ in range(3):
        top.press("select")  # to "Language: English"
    top.press("ok")
    german = ("Arcana", "Res Arcana", "Karten anlernen", "Sprache: Deutsch")
    assert shows(top, ChoiceScreen("Welches Spiel?", german, 3), "de")
    top.press("ok")
    assert top.companion.current_language() == "fa"
    top.press("ok")  # round again to English, the line still highlighted
    assert shows(top, ChoiceScreen("Which game?", GAME_CHOICES, 3))


def test_enroll_cards_asks_which_cards_and_undo_leaves_it(top):
    top.press("select")
    top.press("select")
    top.press("ok")  # "Enroll cards"
    which = ChoiceScreen("Enroll which cards?", ("Arcana cards", "Res Arcana cards"), 0)
    assert shows(top, which)
    top.press("select")
    top.press("ok")  # Res Arcana's cards: the first one is asked for
    assert shows(top, PromptScreen("Tap: Fire Mage", title="Enroll (39 left)"))
    top.press("undo")
    assert shows(top, which)


def test_res_arcana_begins_without_a_variant_and_keeps_the_language_chosen(top):
    for _ in range(3):
        top.press("select")
    top.press("ok")  # German
    top.press("select")  # round to Arcana
    top.press("select")  # Res Arcana
    top.press("ok")  # straight to its seating: no variant to choose
    top.tap("stake-0", "fire_mage")
    top.tap("stake-1", "shadow_priest")
    top.press("ok")
    game, setup = top.journal.setup(top.companion.game_id)
    assert (game, setup["language"], setup["mages"]) == (
        "res-arcana",
        "de",
        [
            "fire_mage",
            "shadow_priest",
        ],
    )
