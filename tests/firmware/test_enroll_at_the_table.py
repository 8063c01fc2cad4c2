"""Enrollment on the device: choose "Enroll cards", tap tags, the status screen names the next
card; bindings land in the journal and the registry at once."""

from __future__ import annotations

from firmware.games import GameShelf
from firmware.journal import Journal
from firmware.screens import ChoiceScreen, PromptScreen, render
from firmware.tabletop import EmulatedTable
from hardware.nfc.tags import Ntag

TAG_1, TAG_2 = "04000000000001", "04000000000002"


def same(a, b) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def enroll_mode(top: EmulatedTable, which: int) -> None:
    top.press("select")
    top.press("select")  # "Enroll cards"
    top.press("ok")
    for _ in range(which):
        top.press("select")
    top.press("ok")


def test_taps_bind_cards_in_order_and_persist(tmp_path):
    with EmulatedTable(tmp_path, GameShelf(), written_ids=False) as top:
        enroll_mode(top, which=1)  # Res Arcana cards
        first = render(PromptScreen("Tap: Fire Mage", title="Enroll (39 left)"))
        assert same(top.screens()["status"], first)
        top.tap("stake-0", Ntag(TAG_1))
        top.press("select")  # skip the Forest Healer
        top.tap("stake-3", Ntag(TAG_2))
        assert top.companion.registry.card_for(TAG_2, None) == "shadow_priest"
    with Journal.open(tmp_path) as journal:
        assert journal.bindings("res-arcana") == {TAG_1: "fire_mage", TAG_2: "shadow_priest"}


def test_a_bound_tag_asks_before_rebinding(tmp_path):
    games = GameShelf(bindings={TAG_1: "seer_orb"})
    with EmulatedTable(tmp_path, games, written_ids=False) as top:
        enroll_mode(top, which=1)
        top.tap("stake-0", Ntag(TAG_1))
        asking = ChoiceScreen(
            "Tag is Seer's Orb", ("Re-bind: Fire Mage", "Keep it"), 0, "OK: re-bind  Select: keep"
        )
        assert same(top.screens()["status"], render(asking))
        top.press("select")  # keep
        assert games.bindings[TAG_1] == "seer_orb"
        top.tap("stake-0", Ntag(TAG_1))
        top.press("ok")  # re-bind
        assert top.companion.registry.card_for(TAG_1, None) == "fire_mage"
    with Journal.open(tmp_path) as journal:
        assert journal.bindings() == {TAG_1: "fire_mage"}


def test_the_count_goes_down_and_the_last_card_says_every_card_has_a_tag(tmp_path):
    from engine.resarcana import CARDS

    last_two = list(CARDS)[-2:]
    names = [CARDS[card].name for card in last_two]
    games = GameShelf(bindings={f"05{i:012x}": c for i, c in enumerate(list(CARDS)[:-2])})
    with EmulatedTable(tmp_path, games, written_ids=False) as top:
        enroll_mode(top, which=1)
        assert same(
            top.screens()["status"],
            render(PromptScreen(f"Tap: {names[0]}", title="Enroll (2 left)")),
        )
        top.press("ok")  # no question asked: OK binds nothing
        top.press("select")  # skip: the last card first, the skipped one after it
        assert same(
            top.screens()["status"],
            render(PromptScreen(f"Tap: {names[1]}", title="Enroll (2 left)")),
        )
        top.tap("stake-1", Ntag(TAG_1))
        assert same(
            top.screens()["status"],
            render(PromptScreen(f"Tap: {names[0]}", title="Enroll (1 left)")),
        )
        top.press("select")  # skipping the only card left keeps it
        top.tap("stake-2", Ntag(TAG_2))
        done = render(PromptScreen("Every card has a tag", title="Enrolled"))
        assert same(top.screens()["status"], done)
        top.tap("stake-2", Ntag("04000000000003"))  # nothing left to bind it to
        top.press("select")
        assert same(top.screens()["status"], done)
    with Journal.open(tmp_path) as journal:
        assert journal.bindings("res-arcana") == {TAG_1: last_two[1], TAG_2: last_two[0]}


def test_with_one_card_left_a_tag_bound_to_another_still_asks_first(tmp_path):
    from engine.resarcana import CARDS

    *others, last = list(CARDS)
    games = GameShelf(bindings={f"05{i:012x}": card for i, card in enumerate(others)})
    with EmulatedTable(tmp_path, games, written_ids=False) as top:
        enroll_mode(top, which=1)
        top.tap("stake-0", Ntag("05" + "0" * 12))  # the tag of the first card, Fire Mage
        name = CARDS[last].name
        asking = ChoiceScreen(
            "Tag is Fire Mage", (f"Re-bind: {name}", "Keep it"), 0, "OK: re-bind  Select: keep"
        )
        assert same(top.screens()["status"], render(asking))
        top.press("ok")
        done = render(PromptScreen("Every card has a tag", title="Enrolled"))
        assert same(top.screens()["status"], done)
    with Journal.open(tmp_path) as journal:
        assert journal.bindings("res-arcana") == {"05" + "0" * 12: last}


def test_tags_just_enrolled_seat_their_mages_and_are_known_in_the_game(tmp_path):
    from firmware.screens import PromptIcon

    with EmulatedTable(tmp_path, GameShelf(), written_ids=False) as top:
        enroll_mode(top, which=1)
        top.tap("stake-0", Ntag(TAG_1))  # Fire Mage
        top.tap("stake-0", Ntag(TAG_2))  # Forest Healer
        top.press("undo")  # out of the cards to enroll
        top.press("undo")  # out of enrolling: the game choice
        top.press("select")
        top.press("ok")  # Res Arcana, whose cards the table now knows these tags by
        top.tap("stake-0", Ntag(TAG_1))
        seated = render(PromptScreen("Fire Mage", "Seat 1", PromptIcon.NONE))
        assert same(top.screens()["stake-0"], seated)
        top.tap("stake-1", Ntag(TAG_2))
        top.press("ok")
        _, setup = top.journal.setup(top.companion.game_id)
        assert setup["mages"] == ["fire_mage", "forest_healer"]
        # the game's own registry, made afresh from the table's bindings, knows them too
        assert top.companion.registry.card_for(TAG_1, None) == "fire_mage"
        assert top.companion.registry.card_for(TAG_2, None) == "forest_healer"
