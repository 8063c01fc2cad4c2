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


def test_an_unknown_chip_is_refused_with_the_chips_there_are():
    with pytest.raises(ValueError) as refused:
        OledChip("ssd1309")
    assert str(refused.value) == "unknown display chip 'ssd1309'; expected one of ssd1306, sh1106"


def column_of_lit(chip: OledChip) -> list[tuple[int, int]]:
    """(RAM column, page) of every non-zero RAM byte, in order."""
    return [
        (column, page)
        for page in range(8)
        for column in range(chip.ram_columns)
        if chip.ram[page][column]
    ]


def test_a_chip_made_without_arguments_is_a_128x64_ssd1306_as_it_powers_up():
    chip = OledChip()
    assert (chip.chip, chip.ram_columns, chip.column_offset) == ("ssd1306", 128, 0)
    assert chip.frame().size == (128, 64)
    assert (chip.is_on, chip.inverted, chip.contrast) == (False, False, 0x7F)
    assert (chip.unknown, chip.commands_seen, chip.data_seen) == ([], 0, 0)
    chip.data([0x01, 0x02])  # page addressing from page 0, column 0 after reset
    assert column_of_lit(chip) == [(0, 0), (1, 0)]


def test_the_chip_counts_the_command_and_data_bytes_it_was_sent():
    chip = OledChip()
    chip.command([0xAF, 0x81])
    chip.command([0x10])
    chip.data(b"\x00" * 5)
    chip.data(b"\x00" * 3)
    assert (chip.commands_seen, chip.data_seen) == (3, 8)


def test_switching_off_and_back_to_normal_video():
    chip = OledChip()
    chip.command([0xAF, 0xA7])
    chip.command([0xAE, 0xA6])
    assert (chip.is_on, chip.inverted) == (False, False)


def test_data_in_several_transfers_continues_where_the_last_one_stopped():
    for mode in (0x00, 0x02):  # horizontal, page
        chip = OledChip()
        chip.command([0x20, mode])
        for _ in range(3):
            chip.data([0x01])
        assert column_of_lit(chip) == [(0, 0), (1, 0), (2, 0)]


def test_page_addressing_wraps_to_the_start_of_the_same_page():
    chip = OledChip()
    chip.command([0xB3, 0x00, 0x10])
    chip.data([0x01] * 128 + [0x03])
    assert chip.ram[3][0] == 0x03 and chip.ram[3][127] == 0x01
    assert not any(chip.ram[4])


def test_ssd1306_page_addressing_wraps_at_the_end_of_the_column_window():
    chip = OledChip()
    chip.command([0x21, 0, 9, 0x20, 0x02, 0xB4, 0x00, 0x10])  # window 0..9, then page mode
    chip.data([0x01] * 10 + [0x02])
    assert (chip.ram[4][9], chip.ram[4][0], chip.ram[4][10]) == (0x01, 0x02, 0x00)


def test_horizontal_addressing_without_a_window_covers_all_of_ram_and_wraps():
    chip = OledChip()
    chip.command([0x20, 0x00])  # mode only: the window is the whole RAM after reset
    chip.data([0x01] * 128 + [0x02])
    assert (chip.ram[0][127], chip.ram[1][0], chip.ram[1][1]) == (0x01, 0x02, 0x00)
    chip.data([0x04] * (1024 - 129) + [0x08])
    assert (chip.ram[7][127], chip.ram[0][0]) == (0x04, 0x08)  # past the last page: page 0


def test_vertical_addressing_walks_three_pages_then_the_next_column_and_wraps_the_window():
    chip = OledChip()
    chip.command([0x20, 0x01, 0x21, 10, 11, 0x22, 0, 2])
    chip.data([1, 2, 3, 4, 5, 6, 7])
    assert [chip.ram[page][10] for page in range(3)] == [7, 2, 3]
    assert [chip.ram[page][11] for page in range(3)] == [4, 5, 6]
    assert not any(chip.ram[page][12] for page in range(8))


def test_sh1106_ram_is_132_columns_wide_and_page_addressing_wraps_after_the_last():
    chip = OledChip("sh1106", 128, 64)
    assert (chip.chip, chip.ram_columns, chip.column_offset) == ("sh1106", 132, 2)
    chip.command([0xB1, 0x00, 0x10])
    chip.data([0x01] * 132 + [0x02])
    assert (chip.ram[1][131], chip.ram[1][0], chip.ram[1][1]) == (0x01, 0x02, 0x01)
    assert not any(chip.ram[2])
    chip.data([0x04] * 131 + [0x08, 0x10])  # a second transfer continues from column 1
    assert (chip.ram[1][131], chip.ram[1][0], chip.ram[1][1]) == (0x04, 0x08, 0x10)
    chip.command([0xB2, 0x00, 0x10])
    chip.data([0x01] * 131)  # up to column 130: the pointer moves on to 131, not round to 0
    chip.data([0x02])
    assert (chip.ram[2][130], chip.ram[2][131], chip.ram[2][0]) == (0x01, 0x02, 0x01)


def test_sh1106_ignores_the_ssd1306_addressing_modes():
    chip = OledChip("sh1106", 128, 64)
    chip.command([0x20, 0x01])  # not an SH1106 command (0x01 is a column nibble): no mode
    chip.command([0xB0, 0x02, 0x10])
    chip.data([0x01, 0x02])
    assert chip.unknown == [0x20]
    assert (chip.ram[0][2], chip.ram[0][3], chip.ram[1][2]) == (0x01, 0x02, 0x00)


def test_a_column_offset_given_is_used_instead_of_the_chips_own():
    chip = OledChip("sh1106", 128, 64, column_offset=0)
    chip.command([0xB0, 0x00, 0x10])
    chip.data([0xFF])
    assert lit(chip) == {(0, y) for y in range(8)}


def test_the_column_nibbles_each_keep_the_other_half():
    chip = OledChip()
    chip.command([0x12, 0x03])  # column 0x23
    chip.command([0x04])  # low nibble 4: 0x24
    chip.data([0x01])
    chip.command([0x17, 0x0F])  # 0x7F, the last column
    chip.data([0x02])
    assert chip.ram[0][0x24] == 0x01 and chip.ram[0][0x7F] == 0x02
    sh1106 = OledChip("sh1106", 128, 64)
    sh1106.command([0x1F])  # a high nibble past the RAM wraps round its 132 columns
    sh1106.data([0x01])
    assert sh1106.ram[0][0xF0 % 132] == 0x01
    assert chip.unknown == sh1106.unknown == []


def test_page_addresses_b0_to_b7():
    chip = OledChip()
    chip.command([0xB7, 0x05])
    chip.data([0x01])
    assert chip.ram[7][5] == 0x01
    assert chip.unknown == []


KNOWN = [0x40, 0x7F, 0xA0, 0xA1, 0xA4, 0xA5, 0xE3, 0x2E, 0x2F, 0xC0, 0xC8]


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_commands_that_change_nothing_modelled_are_known_and_their_neighbours_unknown(kind):
    chip = OledChip(kind, 128, 64)
    extra = [0x30, 0x31, 0x32, 0x33, 0xE0, 0xEE]  # SH1106: pump voltage, read-modify-write
    chip.command(KNOWN + (extra if kind == "sh1106" else []))
    assert chip.unknown == []
    assert chip.ram_columns == (132 if kind == "sh1106" else 128)
    outside = [0x3F, 0x80, 0xB8, 0xC1, 0xE1, 0xED, 0x34]
    chip.command(outside + ([] if kind == "sh1106" else extra))
    assert chip.unknown == outside + ([] if kind == "sh1106" else extra)


@pytest.mark.parametrize(
    ("kind", "command", "arguments"),
    [("ssd1306", byte, count) for byte, count in
     {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0x81: 1,
      0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}.items()]
    + [("sh1106", byte, 1) for byte in (0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB)],
)  # fmt: skip
def test_each_command_takes_its_own_number_of_argument_bytes(kind, command, arguments):
    chip = OledChip(kind, 128, 64)
    chip.command([command] + [0xA7] * arguments + [0xAF])
    assert chip.is_on  # the byte after the arguments is a command again
    assert chip.inverted is False  # no argument byte was taken as a command
    assert chip.unknown == []
