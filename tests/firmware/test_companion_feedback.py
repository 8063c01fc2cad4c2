"""What the companion tells the table, and for how long: notices last NOTICE_SECONDS, device
trouble shows where it can be seen, a journal that cannot write refuses with its sentence at
every step (beginning a game, undo, enrolling a tag) and changes nothing.

The failing journal is the table's own journal file opened read-only (a real SQLite
connection whose every write fails, as on a card the kernel remounted read-only)."""

from __future__ import annotations

import sqlite3

import pytest

from firmware.companion import NOTICE_SECONDS
from firmware.controllers.resarcana import Bot
from firmware.drawing import Notice
from firmware.events import Crowded, Device, Tick, Trouble
from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.screens import ChoiceScreen, DeviceTroubleScreen, RefusalScreen, render
from firmware.tabletop import EmulatedTable
from hardware.nfc.tags import Ntag

GAME_CHOICES = ("Arcana", "Res Arcana", "Enroll cards", "Language: English")

CHOOSER = ChoiceScreen("Which game?", GAME_CHOICES)
CHOOSE_FIRST = RefusalScreen("Choose the game first: Select, then OK")


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def read_only(journal: Journal) -> Journal:
    db = sqlite3.connect(f"file:{journal.path}?mode=ro", uri=True, check_same_thread=False)
    return Journal(journal.path, db)


def cannot_save(journal: Journal) -> RefusalScreen:
    return RefusalScreen(f"{journal.path.parent} is read-only: the last action was not saved.")


@pytest.fixture
def top(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as table:
        yield table


def begun(top: EmulatedTable, bot: Bot) -> None:
    for step in bot.setup_steps():
        top.perform(step)


def test_a_notice_lasts_exactly_its_seconds(top):
    crowded = render(RefusalScreen("One card at a time, please"))
    top.companion.handle(Crowded("stake-1"))
    top.clock.advance(NOTICE_SECONDS - 0.5)
    top.companion.handle(Tick())
    assert same(top.screens()["stake-1"], crowded)  # still there just before the end
    top.clock.advance(0.5)
    top.companion.handle(Tick())
    assert not same(top.screens()["stake-1"], crowded)  # gone at exactly NOTICE_SECONDS


def test_reader_trouble_shows_on_its_pad_and_only_there(top):
    status = top.screens()["status"]
    top.companion.handle(Trouble(Device("reader", "stake-2"), "not_answering"))
    assert same(top.screens()["status"], status)  # the pad's own screen says it
    assert not same(top.screens()["stake-2"], status)


def test_trouble_with_a_device_that_has_no_screen_shows_on_the_status_screen(top):
    top.companion.handle(Trouble(Device("reader", "spare"), "not_answering"))
    assert same(top.screens()["status"], render(RefusalScreen("Reader spare not answering")))
    assert top.companion.notices["status"].kind == "refusal"  # a notice like any refusal


def test_device_trouble_is_said_in_the_language_of_the_table(tmp_path):
    german = EmulatedTable(tmp_path, GameShelf(language="de"))
    try:
        german.companion.handle(Trouble(Device("reader", "spare"), "irq_wire"))
        said = RefusalScreen("Leser spare: IRQ-Draht prüfen")
        assert same(german.screens()["status"], render(said, language="de"))
        german.companion.handle(Trouble(Device("reader", "stake-2"), "not_answering"))
        trouble = DeviceTroubleScreen("Leser stake-2 antwortet nicht")
        assert same(german.screens()["stake-2"], render(trouble, language="de"))
    finally:
        german.close()


def test_redo_with_nothing_undone_says_so(top):
    begun(top, Bot(2, 2))
    top.press("undo", held=True)
    assert same(top.screens()["status"], render(RefusalScreen("Nothing to redo")))


def test_mid_game_the_journal_keeps_the_game_unfinished(top):
    bot = Bot(2, 2)
    begun(top, bot)
    for step in bot.next_steps(top.companion.controller.state):
        top.perform(step)
    assert top.journal.unfinished() == top.companion.game_id
    assert not top.companion.finished


def test_after_the_ranking_the_setup_starts_afresh(top):
    bot = Bot(2, 2)
    begun(top, bot)
    while not top.companion.controller.is_over():
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
    top.press("ok", held=True)
    assert same(top.screens()["status"], render(CHOOSER))
    top.tap("stake-0", "seer_orb")  # the setup's registry knows every game's cards
    assert same(top.screens()["status"], render(CHOOSE_FIRST))
    top.wait(NOTICE_SECONDS)
    top.press("ok")  # OK picks Arcana now, it does not leave a ranking again
    expected = ChoiceScreen("Arcana: variant?", ("Basic game", "Advanced game"), 0)
    assert same(top.screens()["status"], render(expected))


def test_a_game_the_journal_cannot_start_is_not_begun(top):
    top.companion.journal = failing = read_only(top.journal)
    try:
        begun(top, Bot(2, 2))
        assert same(top.screens()["status"], render(cannot_save(failing)))
    finally:
        failing.close()
    assert top.companion.game_id is None and top.journal.games() == []
    assert top.table.buzzer.played[-1] == "refused"


def test_an_undo_or_redo_the_journal_cannot_save_changes_nothing(top):
    bot = Bot(2, 2)
    begun(top, bot)
    for step in bot.next_steps(top.companion.controller.state):
        top.perform(step)
    game, state = top.companion.game_id, top.companion.controller.state
    lines = top.journal.lines(game)
    top.companion.journal = failing = read_only(top.journal)
    try:
        top.press("undo")
        assert same(top.screens()["status"], render(cannot_save(failing)))
    finally:
        failing.close()
    assert top.journal.lines(game) == lines and top.companion.controller.state == state
    top.companion.journal = top.journal
    top.press("undo")  # saved: the line is undone
    undone = top.companion.controller.state
    top.wait(NOTICE_SECONDS)
    top.companion.journal = failing = read_only(top.journal)
    try:
        top.press("undo", held=True)  # redo
        assert same(top.screens()["status"], render(cannot_save(failing)))
    finally:
        failing.close()
    assert top.journal.lines(game) == lines[:-1] and top.companion.controller.state == undone


def test_a_tag_the_journal_cannot_bind_stays_unknown(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), written_ids=False) as top:
        for button in ("select", "select", "ok", "select", "ok"):  # enroll Res Arcana cards
            top.press(button)
        top.companion.journal = failing = read_only(top.journal)
        try:
            top.tap("stake-0", Ntag("04000000000001"))
            assert same(top.screens()["status"], render(cannot_save(failing)))
        finally:
            failing.close()
        assert top.companion.registry.card_for("04000000000001", None) is None
        assert top.journal.bindings() == {}
        assert top.table.buzzer.played[-1] == "refused"
        top.companion.journal = top.journal
        top.wait(NOTICE_SECONDS)
        top.tap("stake-0", Ntag("04000000000001"))  # writable again: bound, with an ok beep
        assert top.companion.registry.card_for("04000000000001", None) == "fire_mage"
        assert top.table.buzzer.played[-1] == "ok"


def test_a_refusal_for_a_pad_without_a_screen_shows_on_the_status_screen(top):
    top.companion.handle(Crowded("spare"))  # a reader with no display of its own
    assert same(top.screens()["status"], render(RefusalScreen("One card at a time, please")))


def test_holding_ok_at_the_next_games_chooser_chooses(top):
    bot = Bot(2, 2)
    begun(top, bot)
    while not top.companion.controller.is_over():
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
    top.press("ok", held=True)  # leaves the ranking
    top.press("ok", held=True)  # now an OK like any other: Arcana
    expected = ChoiceScreen("Arcana: variant?", ("Basic game", "Advanced game"), 0)
    assert same(top.screens()["status"], render(expected))


def test_in_a_game_a_card_of_the_other_game_is_unknown(top):
    from firmware.screens import UnknownCardScreen

    begun(top, Bot(2, 2))  # Res Arcana
    top.tap("stake-0", "blades_agent_3")  # an Arcana card
    assert same(top.screens()["stake-0"], render(UnknownCardScreen()))


def test_redoing_the_final_move_ends_the_game_again(top):
    bot = Bot(2, 2)
    begun(top, bot)
    while not top.companion.controller.is_over():
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
    top.press("undo")
    assert not top.companion.finished
    top.press("undo", held=True)  # redo: the ranking again
    assert top.companion.finished is True and top.companion.controller.is_over()
    top.wait(NOTICE_SECONDS)
    top.press("ok", held=True)  # and holding OK leaves it for the next game's setup
    assert same(top.screens()["status"], render(CHOOSER))


def test_holding_ok_at_the_first_chooser_chooses(top):
    top.press("ok", held=True)
    expected = ChoiceScreen("Arcana: variant?", ("Basic game", "Advanced game"), 0)
    assert same(top.screens()["status"], render(expected))


def test_a_device_back_that_was_never_in_trouble_changes_nothing(top):
    from firmware.events import Recovered

    status = top.screens()["status"]
    top.companion.handle(Recovered(Device("reader", "stake-3")))
    assert same(top.screens()["status"], status) and top.companion.troubles == {}


def test_a_journal_found_damaged_at_start_says_so_on_the_status_screen(tmp_path):
    from firmware.journal import FILENAME

    (tmp_path / FILENAME).write_bytes(b"this is not a database at all" * 200)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        notice = top.journal.notice
        assert notice.startswith(f"The journal {FILENAME} was damaged")
        assert same(top.screens()["status"], render(RefusalScreen(notice)))
        top.wait(NOTICE_SECONDS)
        assert same(top.screens()["status"], render(CHOOSER))


def test_a_game_that_no_longer_replays_is_named_on_the_status_screen(tmp_path):
    with Journal.open(tmp_path) as journal:
        game = journal.start(
            "res-arcana",
            {"players": ["A", "B"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]},
        )
        journal.append(game, {"player": 1, "action": "pass"})  # not player 1's turn
    with EmulatedTable(tmp_path, GameShelf()) as top:
        [aside] = top.journal.set_aside()
        said = RefusalScreen(f"{aside.reason}; set aside.")
        assert same(top.screens()["status"], render(said))


def test_a_128x32_status_display_gets_frames_and_notices_of_its_size(tmp_path):
    from hardware.profile import PROFILES, parse_profile

    text = (PROFILES / "full-table.toml").read_text()
    status = 'role = "status"\nchip = "ssd1306"'
    text = text.replace(status, f"{status}\nheight = 32")
    profile = parse_profile(text, source="short-status.toml", name="short-status")
    with EmulatedTable(tmp_path, GameShelf(), profile=profile) as top:
        assert same(top.screens()["status"], render(CHOOSER, (128, 32)))
        assert top.screens()["stake-0"].size == (128, 64)  # the others stay 128x64
        top.tap("stake-0", "seer_orb")  # no game chosen: refused on the status screen
        assert same(top.screens()["status"], render(CHOOSE_FIRST, (128, 32)))


RES_ARCANA = {"players": ["A", "B"], "start_player": 0, "mages": ["fire_mage", "shadow_priest"]}


def fresh_companion(top: EmulatedTable, journal: Journal):
    """A table started afresh on `journal`, drawing on `top`'s displays (a restart)."""
    from firmware.companion import Companion

    companion = Companion(top.displays, journal, GameShelf(), clock=top.clock)
    companion.start()
    return companion


def test_every_game_that_cannot_be_read_is_set_aside_at_start_and_stays_aside(tmp_path):
    with Journal.open(tmp_path) as journal:
        first = journal.start("res-arcana", RES_ARCANA)
        journal.append(first, {"player": 1, "action": "pass"})  # not player 1's turn
        second = journal.start("res-arcana", {"players": 3})  # no setup a game starts from
    with EmulatedTable(tmp_path, GameShelf()) as top:
        said = top.companion.set_asides
        assert len(said) == 2 and all(s.endswith("; set aside.") for s in said)
        assert said[0].startswith(f"game {second} cannot be read: RecordError: setup needs")
        assert said[1].startswith(f"game {first} no longer replays: ")
        assert top.journal.unfinished() is None and top.companion.game_id is None
        assert [a.what for a in top.journal.set_aside()] == [f"game {first}", f"game {second}"]
        assert top.companion.notices["status"] == Notice(
            "refusal", said[-1], top.clock() + NOTICE_SECONDS
        )  # the last one said on the status screen, as a refusal
    with EmulatedTable(tmp_path, GameShelf()) as top:  # kept aside: nothing to say again
        assert top.companion.set_asides == []
        assert same(top.screens()["status"], render(CHOOSER))


def test_a_game_this_table_does_not_play_is_set_aside_by_name(tmp_path):
    with Journal.open(tmp_path) as journal:
        game = journal.start("chess", {"players": ["A", "B"]})
    with EmulatedTable(tmp_path, GameShelf()) as top:
        said = f"game {game} cannot be read: this table does not play 'chess'; set aside."
        assert top.companion.set_asides == [said]
        assert same(top.screens()["status"], render(RefusalScreen(said)))


def test_a_game_the_journal_cannot_set_aside_still_lets_the_table_start(top):
    game = top.journal.start("res-arcana", RES_ARCANA)
    top.journal.append(game, {"player": 1, "action": "pass"})  # no longer replays
    failing = read_only(top.journal)
    try:
        companion = fresh_companion(top, failing)
        reason, refused = companion.set_asides
        assert reason.startswith(f"game {game} no longer replays: ")
        assert refused == cannot_save(failing).reason
        assert companion.game_id is None  # the chooser, saying why on the status screen
        assert same(top.screens()["status"], render(cannot_save(failing)))
    finally:
        failing.close()
    assert top.journal.unfinished() == game  # not set aside: the next start says it again


def played_to_the_end(tmp_path) -> tuple[dict, list[dict], dict]:
    """A whole bot game of Res Arcana: its setup, its lines and its journalled result."""
    with EmulatedTable(tmp_path / "played", GameShelf()) as top:
        bot = Bot(2, 2)
        begun(top, bot)
        while not top.companion.controller.is_over():
            for step in bot.next_steps(top.companion.controller.state):
                top.perform(step)
        game = top.companion.game_id
        [entry] = top.journal.games()
        return top.journal.setup(game)[1], top.journal.lines(game), entry.result


def test_an_end_whose_finish_was_not_kept_is_finished_at_the_restart(tmp_path):
    setup, lines, result = played_to_the_end(tmp_path)
    assert result is not None
    with Journal.open(tmp_path) as journal:  # every line kept, the result not
        game = journal.start("res-arcana", setup)
        for line in lines:
            journal.append(game, line)
        assert journal.unfinished() == game
    with EmulatedTable(tmp_path, GameShelf()) as top:
        assert top.companion.finished and top.companion.journal_trouble is None
        [entry] = top.journal.games()
        assert (entry.id, entry.result) == (game, result) and entry.finished is not None
        assert top.journal.unfinished() is None


def test_an_end_the_journal_cannot_finish_at_the_restart_is_its_trouble(tmp_path):
    setup, lines, _ = played_to_the_end(tmp_path)
    with Journal.open(tmp_path) as journal:
        game = journal.start("res-arcana", setup)
        for line in lines:
            journal.append(game, line)
    with EmulatedTable(tmp_path, GameShelf()) as top:
        top.journal.unfinish(game)  # as it was before this table started
        failing = read_only(top.journal)
        try:
            companion = fresh_companion(top, failing)
            assert companion.finished  # the ranking shows ...
            assert companion.journal_trouble == cannot_save(failing).reason  # ... unkept
        finally:
            failing.close()
        assert top.journal.unfinished() == game


def test_the_journals_trouble_is_the_last_refused_write_until_one_is_kept(top):
    assert top.companion.journal_trouble is None  # nothing refused yet
    bot = Bot(2, 2)
    begun(top, bot)
    assert top.companion.journal_trouble is None
    steps = bot.next_steps(top.companion.controller.state)
    top.companion.journal = failing = read_only(top.journal)
    try:
        for step in steps:
            top.perform(step)
        assert top.companion.journal_trouble == cannot_save(failing).reason
    finally:
        failing.close()
    top.companion.journal = top.journal
    top.wait(NOTICE_SECONDS)
    for step in bot.next_steps(top.companion.controller.state):
        top.perform(step)
    assert top.journal.lines(top.companion.game_id) and top.companion.journal_trouble is None


def test_redoing_the_final_move_finishes_the_game_in_the_journal_again(top):
    bot = Bot(2, 2)
    begun(top, bot)
    while not top.companion.controller.is_over():
        for step in bot.next_steps(top.companion.controller.state):
            top.perform(step)
    game = top.companion.game_id
    [ended] = top.journal.games()
    top.press("undo")
    assert top.journal.unfinished() == game  # the undo unfinished it in the same write
    top.press("undo", held=True)
    [entry] = top.journal.games()
    assert entry.result == ended.result and entry.finished is not None
    assert top.journal.unfinished() is None


def test_a_rule_refusal_is_said_in_the_language_of_the_game(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(language="de")) as top:
        top.press("ok")  # Arcana
        top.press("ok")  # the basic game
        top.tap("stake-0", "ferrymen_base")
        top.tap("stake-1", "blades_base")
        top.press("ok")
        for index, card in enumerate(("m_agent_01", "m_loc_02", "m_agent_02", "m_loc_03")):
            top.tap(f"stake-{index}", card)
        top.tap("stake-4", "m_agent_06")
        top.tap("stake-0", "ferrymen_agent_6")
        top.tap("stake-2", "blades_agent_5")
        top.tap("stake-1", "ferrymen_agent_6")  # the same agent again
        said = RefusalScreen("Dieser Agent liegt schon in einer Zone")  # the engine's code
        assert same(top.screens()["stake-1"], render(said, language="de"))


def test_an_unknown_card_on_a_reader_without_a_screen_shows_on_the_status_screen(top):
    from firmware.events import Tap
    from firmware.screens import UnknownCardScreen

    top.companion.handle(Tap("spare", "04deadbeef0009", None))
    assert same(top.screens()["status"], render(UnknownCardScreen()))


def test_a_tap_on_a_minimal_tables_one_pad_counts_for_the_role_in_focus(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        for step in Bot(2, 2).setup_steps():  # Res Arcana: a mage tapped on each seat's pad
            if step.kind == "tap":
                while top.companion.single_pad.focus != step.target:
                    top.press("select", held=True)
                top.tap("main", step.card)
            else:
                top.press(step.target)
        assert top.companion.game_id is not None
        _, setup = top.journal.setup(top.companion.game_id)
        assert setup["mages"] == [s.card for s in Bot(2, 2).setup_steps() if s.kind == "tap"]


def test_a_controllers_refusal_shows_where_it_says(top):
    top.press("select")
    top.press("ok")  # Res Arcana: the seats are taken by tapping a mage on a pad
    status = top.screens()["status"]
    top.tap("stake-0", "ancient_seed")  # an artifact, not a mage
    assert same(top.screens()["stake-0"], render(RefusalScreen("Tap your mage to take this seat")))
    assert same(top.screens()["status"], status)
