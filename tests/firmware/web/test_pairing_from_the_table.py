"""Pairing the owner's phone from the table itself: Select held on the game choice opens an
owner's code whose QR code the status OLED shows (read back with zbar from the emulated
SSD1306's RAM), as `arcana-table pair` does; held again, it closes it. A short press still
moves the choice, and a held Select anywhere else means what it meant before."""

from __future__ import annotations

from concurrent.futures import Future

from service import wait_until
from web_table import Phone, WebTable

from firmware.controllers.base import Ask, PairPhone
from firmware.events import Ask as Question
from firmware.games import GameShelf
from firmware.tabletop import EmulatedTable
from firmware.web.pairing import FILE, Pairing, Role
from firmware.web.table_pairing import owner_code


def hold(table: WebTable, button: str) -> None:
    """Push an emulated button past its hold time (gpiozero's timer, real time), let go."""
    pushed = table.table.buttons[button]
    before = pushed.holds
    table.table.hold_down(button)
    try:
        assert wait_until(lambda: pushed.holds > before, 30.0)
    finally:
        table.table.let_go(button)


def settled(table: WebTable) -> list[bytes]:
    """The status OLED once the loop has drawn everything asked of it so far."""
    done: Future[None] = Future()
    table.loop.events.put(Question(lambda: None, done))
    done.result(timeout=20)
    return table.status_pages()


def test_holding_select_on_the_game_choice_shows_a_scannable_owner_code(tmp_path, zbarimg):
    with WebTable(tmp_path) as table:
        choice = settled(table)
        hold(table, "select")
        url = table.scan(zbarimg)
        offer = table.pairing.pending()
        assert offer is not None and offer.role == Role.owner()
        assert url == f"{table.url}pair/{offer.code}".upper()
        phone = Phone(table.url)
        assert phone.get(url)[0] == 200  # the pairing page, as the camera opens it
        status, answer = phone.post("api/pair", {"code": url.rsplit("/", 1)[1], "name": "Ana"})
        assert status == 200 and answer["device"]["role"]["kind"] == "owner"
        # the code is used: the game choice comes back, its selection where it was
        assert wait_until(lambda: table.status_pages() == choice)
        assert table.loop.companion.controller.selected == 0


def test_holding_select_again_closes_the_code_and_a_short_press_still_moves_the_choice(
    tmp_path, zbarimg
):
    with WebTable(tmp_path) as table:
        choice = settled(table)
        hold(table, "select")
        assert table.scan(zbarimg)
        hold(table, "select")
        assert wait_until(lambda: table.status_pages() == choice)
        assert table.pairing.pending() is None
        table.table.press("select")
        assert wait_until(lambda: table.loop.companion.controller.selected == 1)
        assert table.pairing.pending() is None  # a press is no hold


def test_a_held_select_past_the_game_choice_opens_no_code(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        top.companion.pair_phone = owner_code(Pairing(tmp_path))
        top.press("ok")  # Arcana: the variant comes next
        top.press("select", held=True)
        assert top.companion.controller.selected == 1  # held, Select moved on as before
        assert Pairing(tmp_path).pending() is None
        top.press("select", held=False)
        top.press("ok")  # the variant: the seating follows
        top.press("select", held=True)
        assert Pairing(tmp_path).pending() is None


def test_the_chooser_answers_a_held_select_on_the_game_choice_only():
    chooser = GameShelf().setup_controller()
    assert chooser.press("select", True) == PairPhone()
    assert chooser.selected == 0
    assert chooser.press("select", False) == Ask() and chooser.selected == 1
    chooser.press("ok", False)  # Res Arcana: its seating takes the buttons from now on
    assert chooser.inner is not None and chooser.press("select", True) != PairPhone()


def test_without_the_web_app_a_held_select_says_so_and_changes_nothing(tmp_path):
    with EmulatedTable(tmp_path, GameShelf()) as top:
        assert top.companion.pair_phone is None  # no [web]: nothing sets it
        top.press("select", held=True)
        notice = top.companion.notices["status"]
        assert notice.kind == "refusal" and "No web app" in notice.detail
        assert top.companion.controller.selected == 0
        assert not (tmp_path / FILE).exists()


def test_a_damaged_pairing_file_is_a_sentence_on_the_status_screen(tmp_path):
    (tmp_path / FILE).write_text("{ not json")
    with EmulatedTable(tmp_path, GameShelf()) as top:
        top.companion.pair_phone = owner_code(Pairing(tmp_path))
        top.press("select", held=True)
        notice = top.companion.notices["status"]
        assert notice.kind == "refusal" and "is damaged" in notice.detail
        assert top.companion.controller.selected == 0
        assert (tmp_path / FILE).read_text() == "{ not json"
