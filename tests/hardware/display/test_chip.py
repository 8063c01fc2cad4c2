"""The emulated controller decodes the SSD1306 and SH1106 byte streams as the chips do."""

from __future__ import annotations

import pytest

from hardware.display import OledChip


def lit(chip: OledChip) -> set[tuple[int, int]]:
    frame = chip.frame()
    return {
        (x, y) for x in range(frame.width) for y in range(frame.height) if frame.getpixel((x, y))
    }


def test_ssd1306_horizontal_window_wraps_inside_the_window():
    chip = OledChip("ssd1306", 128, 64)
    chip.command([0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3])
    chip.data([0x01, 0x02, 0x80, 0x01])
    # (10, page 2 bit 0), (11, page 2 bit 1), then the window wraps to page 3
    assert lit(chip) == {(10, 16), (11, 17), (10, 31), (11, 24)}


def test_ssd1306_vertical_mode_moves_down_the_pages_first():
    chip = OledChip("ssd1306", 128, 64)
    chip.command([0x20, 0x01, 0x21, 0, 127, 0x22, 0, 1])
    chip.data([0x01, 0x01, 0x01])
    assert lit(chip) == {(0, 0), (0, 8), (1, 0)}


def test_ssd1306_page_mode_uses_page_and_column_nibbles():
    chip = OledChip("ssd1306", 128, 64)  # page addressing is the mode after reset
    chip.command([0xB5, 0x03, 0x12])  # page 5, column 0x23
    chip.data([0xFF])
    assert lit(chip) == {(35, y) for y in range(40, 48)}


def test_a_command_argument_may_arrive_in_the_next_transfer():
    chip = OledChip("ssd1306", 128, 64)
    chip.command([0x20, 0x00, 0x21])
    chip.command([5, 5, 0x22, 0])
    chip.command([0])
    chip.data([0x01, 0x01])
    assert lit(chip) == {(5, 0)}  # the second byte wrapped back onto the same 1x1 window


def test_sh1106_hides_its_two_extra_columns():
    chip = OledChip("sh1106", 128, 64)
    chip.command([0xB0, 0x00, 0x10])  # RAM column 0: not on the glass
    chip.data([0xFF, 0xFF, 0x01])  # columns 0, 1 hidden; column 2 is x=0
    assert lit(chip) == {(0, 0)}


def test_128x32_panels_show_four_pages():
    chip = OledChip("ssd1306", 128, 32)
    chip.command([0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7])
    chip.data([0xFF] * 1024)
    assert chip.frame().size == (128, 32)
    assert len(lit(chip)) == 128 * 32


def test_state_commands_and_unknown_bytes_are_kept():
    chip = OledChip("ssd1306", 128, 64)
    chip.command([0xAF, 0xA7, 0x81, 0x10, 0x3F])
    assert (chip.is_on, chip.inverted, chip.contrast) == (True, True, 0x10)
    assert chip.unknown == [0x3F]


@pytest.mark.parametrize(("kind", "size"), [("ssd1305", (128, 64)), ("ssd1306", (96, 16))])
def test_unsupported_chips_and_sizes_are_refused(kind, size):
    with pytest.raises(ValueError, match=r"unknown display chip|unsupported display size"):
        OledChip(kind, *size)
