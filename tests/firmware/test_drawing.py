"""Notices and devices are values from where they are made to where they are drawn."""

from firmware.drawing import UNKNOWN_CARD, Notice, notice_screen, trouble_screen
from firmware.events import Device
from firmware.language import using
from firmware.screens import DeviceTroubleScreen, RefusalScreen, UndoScreen, UnknownCardScreen


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
