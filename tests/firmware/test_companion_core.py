"""The companion on an emulated full table: choosing a game, unknown cards, crowded pads,
device trouble. Taps travel through the emulated PN532, the real adafruit driver and the
scanner; screens are read back from the frames luma sent to the emulated displays."""

from __future__ import annotations

import pytest

from firmware.events import Device
from firmware.games import GameShelf
from firmware.screens import (
    ChoiceScreen,
    DeviceTroubleScreen,
    RefusalScreen,
    UnknownCardScreen,
    render,
)
from firmware.tabletop import EmulatedTable, uid_for
from hardware.display.screen import LONGEST_RETRY_S
from hardware.nfc.tags import Ntag

GAME_CHOICES = ("Arcana", "Res Arcana", "Enroll cards", "Language: English")


@pytest.fixture
def top(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as table:
        yield table


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def test_the_status_screen_asks_for_the_game(top):
    assert same(
        top.screens()["status"],
        render(ChoiceScreen("Which game?", GAME_CHOICES)),
    )


def test_select_moves_the_choice_and_ok_picks_the_variant(top):
    for _ in range(4):  # round the three games and the language line, back to Arcana
        top.press("select")
    top.press("ok")
    expected = render(ChoiceScreen("Arcana: variant?", ("Basic game", "Advanced game"), 0))
    assert same(top.screens()["status"], expected)


def test_an_unknown_card_says_enroll_it_and_changes_nothing(top):
    before = top.screens()["status"]
    top.tap("stake-1", Ntag("04deadbeef0001"))
    assert same(top.screens()["stake-1"], render(UnknownCardScreen()))
    assert same(top.screens()["status"], before)
    top.wait(5)
    assert not same(top.screens()["stake-1"], render(UnknownCardScreen()))


def test_a_bound_tag_without_written_id_is_known(tmp_path):
    games = GameShelf(bindings={uid_for("seer_orb"): "seer_orb"})
    with EmulatedTable(tmp_path, games) as top:
        top.tap("stake-0", Ntag(uid_for("seer_orb")))
        refusal = render(RefusalScreen("Choose the game first: Select, then OK"))
        assert same(top.screens()["status"], refusal)


def test_two_cards_on_one_pad_are_refused(top):
    chip = top.table.pads["stake-3"]
    chip.place(top.tag_for("seer_orb"))
    chip.place(top.tag_for("brazier"))
    top.settle()
    assert same(top.screens()["stake-3"], render(RefusalScreen("One card at a time, please")))


def test_a_reader_unplugged_mid_game_is_reported_and_the_rest_goes_on(top):
    top.table.pads["stake-2"].fail("unplugged")
    for _ in range(4):
        top.wait(0.2)
    assert Device("reader", "stake-2") in top.companion.troubles
    trouble = render(DeviceTroubleScreen("Reader stake-2 not answering"))
    assert same(top.screens()["stake-2"], trouble)
    top.tap("stake-0", "seer_orb")  # another reader still works
    refusal = render(RefusalScreen("Choose the game first: Select, then OK"))
    assert same(top.screens()["status"], refusal)
    top.table.pads["stake-2"].recover()
    for _ in range(40):
        top.wait(0.5)
        if Device("reader", "stake-2") not in top.companion.troubles:
            break
    assert Device("reader", "stake-2") not in top.companion.troubles
    assert not same(top.screens()["stake-2"], trouble)


def test_a_display_that_disappears_is_reported_on_the_status_screen(top):
    top.table.unplug_display("stake-4")
    top.tap("stake-4", Ntag("04deadbeef0002"))  # stake-4 must draw "Unknown card"
    assert Device("display", "stake-4") in top.companion.troubles
    expected = render(RefusalScreen("Display stake-4 not answering"))
    assert same(top.screens()["status"], expected)


def test_a_display_that_answers_again_loses_its_trouble_and_shows_its_screen(top):
    top.table.unplug_display("stake-4")
    top.tap("stake-4", Ntag("04deadbeef0002"))
    trouble = render(RefusalScreen("Display stake-4 not answering"))
    assert same(top.screens()["status"], trouble)
    top.table.plug_display("stake-4")
    top.wait(LONGEST_RETRY_S)  # re-opened at the first redraw after its back-off
    assert Device("display", "stake-4") not in top.companion.troubles
    assert not same(top.screens()["status"], trouble)
    assert same(top.screens()["stake-4"], top.companion.frames()["stake-4"])


def test_undo_and_redo_say_what_they_took_back(tmp_path):
    from firmware.controllers.resarcana import Bot
    from firmware.screens import UndoScreen

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(2, 2)
        for step in bot.setup_steps():
            top.perform(step)
        steps = bot.next_steps(top.companion.controller.state)
        for step in steps:
            top.perform(step)
        game = top.companion.game_id
        (line,) = top.journal.lines(game)
        after = top.companion.controller.state
        top.press("undo")
        said = top.companion.games.describe(line)
        assert same(top.screens()["status"], render(UndoScreen(said, "Undone")))
        assert top.journal.lines(game) == []
        top.press("undo", held=True)
        assert same(top.screens()["status"], render(UndoScreen(said, "Redone")))
        assert top.journal.lines(game) == [line]
        assert top.companion.controller.state == after
        assert top.journal.unfinished() == game  # a redone first move does not end the game
        top.press("undo")
        top.press("undo")  # only the setup is left
        assert same(top.screens()["status"], render(RefusalScreen("Nothing to undo")))


@pytest.mark.parametrize(
    "edited",
    ['{"player": 0, "action": ["no such"]}', '{"player": OTHER, "action": "pass"}'],
    ids=["does not decode", "refused here"],
)
def test_a_redo_of_a_line_that_no_longer_replays_is_refused_and_leaves_it_undone(tmp_path, edited):
    """The undone line edited by hand: redo refuses it on the status screen, the journal and
    the position stay as they were, and the game resumes after a restart."""
    from firmware.controllers.resarcana import Bot

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(2, 2)
        for step in bot.setup_steps():
            top.perform(step)
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
        game = top.companion.game_id
        (played,) = top.journal.lines(game)
        other = str(1 - played["player"])  # a pass by the player whose turn it is not
        top.press("undo")
        before = top.companion.controller.state
        top.journal._db.execute(
            "UPDATE lines SET line = ? WHERE game = ? AND undone = 1",
            (edited.replace("OTHER", other), game),
        )
        top.press("undo", held=True)
        assert same(top.screens()["status"], render(RefusalScreen("Cannot redo that move")))
        assert top.journal.lines(game) == []
        assert top.companion.controller.state == before
        assert top.companion.game_id == game
    with EmulatedTable(tmp_path, GameShelf()) as again:
        assert again.companion.game_id == game
        assert again.companion.set_asides == []
        assert again.companion.controller.state == before


def test_describe_names_the_card_and_the_stake():
    games = GameShelf()
    line = {"player": 0, "action": "agent", "card": "blades_agent_3", "stake": 2}
    assert games.describe(line) == "placed Blades agent 3 on stake 3"
    assert (
        games.describe({"player": 1, "action": "play", "card": "seer_orb"}) == "played Seer's Orb"
    )


def test_undo_first_cancels_a_half_entered_choice(tmp_path):
    from firmware.controllers.arcana import Bot

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(4, 2)
        for step in bot.setup_steps():
            top.perform(step)
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
        game = top.companion.game_id
        lines = top.journal.lines(game)
        top.press("select")  # discard mode: the next tap would discard
        assert top.companion.controller.prompting()
        top.press("undo")
        assert not top.companion.controller.prompting()
        assert top.journal.lines(game) == lines  # the last action stays
        top.press("undo")
        assert top.journal.lines(game) == lines[:-1]


def test_holding_ok_after_the_ranking_sets_up_the_next_game(tmp_path):
    from firmware.controllers.resarcana import Bot

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(2, 2)
        for step in bot.setup_steps():
            top.perform(step)
        while not top.companion.controller.is_over():
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        top.press("ok", held=True)
        assert top.companion.game_id is None
        choice = render(ChoiceScreen("Which game?", GAME_CHOICES))
        assert same(top.screens()["status"], choice)
        assert top.journal.games()[0].result["finished"]


def test_a_journalled_game_that_no_longer_replays_is_set_aside(tmp_path):
    from firmware.journal import Journal

    with Journal.open(tmp_path) as journal:
        game = journal.start(
            "res-arcana",
            {"players": ["A", "B"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]},
        )
        journal.append(game, {"player": 1, "action": "pass"})  # not player 1's turn
    with EmulatedTable(tmp_path, GameShelf()) as top:
        assert top.companion.game_id is None
        assert top.journal.games() == []  # kept out of history and out of play ...
        [aside] = top.journal.set_aside()  # ... and listed with its reason
        assert aside.what == f"game {game}" and aside.reason.startswith(f"game {game} no longer")
        assert top.companion.set_asides == [f"{aside.reason}; set aside."]
        choice = render(ChoiceScreen("Which game?", GAME_CHOICES))
        assert not same(top.screens()["status"], choice)  # the notice says why first
        top.wait(5)
        assert same(top.screens()["status"], choice)


def test_the_buzzer_says_ok_refused_and_unknown(tmp_path):
    from firmware.controllers.resarcana import Bot

    with EmulatedTable(tmp_path, GameShelf()) as top:
        played = top.table.buzzer.played  # patterns sent to the emulated buzzer pin
        top.tap("stake-0", Ntag("04deadbeef0003"))
        top.tap("stake-0", "seer_orb")  # no game chosen yet
        assert played == ["unknown", "refused"]
        bot = Bot(2, 2)
        for step in bot.setup_steps():
            top.perform(step)
        assert played[-1] == "ok"  # the game began
        before = len(played)
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
        assert played[before:][-1] == "ok"


def test_undo_from_the_final_move_reopens_the_game_and_a_restart_resumes_it(tmp_path):
    from firmware.controllers.resarcana import Bot

    with EmulatedTable(tmp_path, GameShelf()) as top:
        bot = Bot(2, 2)
        for step in bot.setup_steps():
            top.perform(step)
        while not top.companion.controller.is_over():
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        game = top.companion.game_id
        assert top.journal.unfinished() is None and top.journal.games()[0].result["finished"]
        top.press("undo")  # the final move taken back: the game goes on
        assert not top.companion.finished and not top.companion.controller.is_over()
        assert top.journal.unfinished() == game
        assert top.journal.games()[0].result is None
        state, lines = top.companion.controller.state, top.journal.lines(game)
    with EmulatedTable(tmp_path, GameShelf()) as top:  # a restart (power cut) resumes it
        assert top.companion.game_id == game
        assert top.companion.controller.state == state
        assert top.journal.lines(game) == lines
