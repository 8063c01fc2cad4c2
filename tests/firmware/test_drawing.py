"""Notices and devices are values from where they are made to where they are drawn."""

from firmware.drawing import UNKNOWN_CARD, Notice, notice_screen, trouble_screen
from firmware.events import Device
from firmware.language import using
from firmware.screens import (
    DeviceTroubleScreen,
    RefusalScreen,
    UndoScreen,
    UnknownCardScreen,
    render,
)


def test_each_kind_of_notice_has_its_screen_and_its_one_line():
    cases = [
        (Notice("refusal", "Thieves to play"), RefusalScreen("Thieves to play"), "Thieves to play"),
        (Notice("unknown_card"), UnknownCardScreen(), UNKNOWN_CARD),
        (
            Notice("undone", "placed a face-down agent on stake 2"),
            UndoScreen("placed a face-down agent on stake 2", "Undone"),
            "Undone: placed a face-down agent on stake 2",
        ),
        (Notice("redone", "passed"), UndoScreen("passed", "Redone"), "Redone: passed"),
    ]
    for notice, screen, line in cases:
        assert (notice_screen(notice), notice.message) == (screen, line)


def test_a_refusal_with_a_colon_stays_a_refusal():
    said = "Guilds: tap the militia on a stake first"
    assert notice_screen(Notice("refusal", said)) == RefusalScreen(said)


def test_a_device_names_itself_for_the_status_screen():
    assert Device("reader", "stake-2").label == "Reader stake-2"
    assert trouble_screen(Device("display", "status"), "not_answering") == DeviceTroubleScreen(
        "Display status not answering"
    )


def test_a_device_in_trouble_is_named_in_the_language_of_what_is_drawn():
    with using("de"):
        assert trouble_screen(Device("reader", "stake-2"), "irq_wire") == DeviceTroubleScreen(
            "Leser stake-2: IRQ-Draht prüfen"
        )
        assert Device("display", "status").trouble("not_answering") == (
            "Anzeige status antwortet nicht"
        )
    with using("fa"):
        assert Device("reader", "seat-1").trouble("not_answering") == (
            "خواننده seat-1 پاسخ نمی\u200cدهد"
        )
    assert Device("reader", "stake-2").trouble("irq_wire") == "Reader stake-2 check IRQ wire"


def same(a, b) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def short_display(role: str, base: str = "full-table"):
    """A profile whose display of `role` is a 128x32 OLED (the rest as in `base`)."""
    from hardware.profile import PROFILES, parse_profile

    text = (PROFILES / f"{base}.toml").read_text()
    line = f'role = "{role}"\nchip = "ssd1306"'
    assert line in text
    text = text.replace(line, f"{line}\nheight = 32")
    return parse_profile(text, source="short.toml", name="short")


def test_reader_trouble_on_a_128x32_pad_is_drawn_at_its_size(tmp_path):
    from firmware.events import Trouble
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    with EmulatedTable(tmp_path, GameShelf(), profile=short_display("stake-0")) as top:
        top.companion.handle(Trouble(Device("reader", "stake-0"), "not_answering"))
        trouble = DeviceTroubleScreen("Reader stake-0 not answering")
        assert same(top.screens()["stake-0"], render(trouble, (128, 32)))


def test_a_display_that_raises_is_reported_named_in_the_log_and_the_others_draw(tmp_path, caplog):
    """A display whose show() raises (here: closed under the table, as the real driver
    refuses) is a display not answering; the service log names it; the others go on."""
    from firmware.events import Crowded
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    with EmulatedTable(tmp_path, GameShelf()) as top:
        top.table.displays["stake-4"].close()
        with caplog.at_level("WARNING", logger="firmware.drawing"):
            top.companion.handle(Crowded("stake-1"))
        assert top.companion.troubles == {Device("display", "stake-4"): "not_answering"}
        assert same(top.screens()["status"], render(RefusalScreen("Display stake-4 not answering")))
        assert same(top.screens()["stake-1"], render(RefusalScreen("One card at a time, please")))
        failed = [r.getMessage() for r in caplog.records if r.name == "firmware.drawing"]
        assert failed and all(m.startswith("display stake-4 failed: ") for m in failed)


def test_the_one_display_of_a_minimal_table_that_raises_is_named_main(tmp_path, caplog):
    from firmware.events import Tick
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        top.table.displays["main"].close()
        with caplog.at_level("WARNING", logger="firmware.drawing"):
            top.companion.handle(Tick())
        assert Device("display", "main") in top.companion.troubles
        failed = [r.getMessage() for r in caplog.records if r.name == "firmware.drawing"]
        assert failed and all(m.startswith("display main failed: ") for m in failed)


def test_a_minimal_table_shows_a_notice_over_the_role_in_focus_then_that_role(tmp_path):
    from firmware.games import GameShelf
    from firmware.tabletop import EmulatedTable

    with EmulatedTable(tmp_path, GameShelf(), profile="minimal") as top:
        while top.companion.single_pad.focus != "stake-2":
            top.press("select", held=True)
        stake_2 = top.companion.frames()["stake-2"]
        assert not same(stake_2, top.companion.frames()["status"])
        top.tap("main", "seer_orb")  # no game chosen: refused, on the status role
        refused = render(RefusalScreen("Choose the game first: Select, then OK"))
        assert same(top.screens()["main"], refused)
        top.wait(5)
        assert same(top.screens()["main"], stake_2)
