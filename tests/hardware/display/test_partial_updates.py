"""luma's drivers with partial updates, run against a recording serial interface.

The bytes are compared with stored baselines; the decoded frame must always equal the image.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from hardware.display import OledChip, PartialSH1106, PartialSSD1306, RecordingSerial
from hardware.display.pages import changed_spans, image_to_pages

DRIVERS = {"ssd1306": (PartialSSD1306, ssd1306), "sh1106": (PartialSH1106, sh1106)}
MODELS = [(chip, h) for chip in DRIVERS for h in (64, 32)]


def started(chip: str, height: int, **kwargs):
    """A partial-update device on a recording interface, after luma's init sequence."""
    serial = RecordingSerial(OledChip(chip, 128, height))
    device = DRIVERS[chip][0](serial, width=128, height=height, **kwargs)
    return device, serial


@pytest.mark.parametrize(("chip", "height"), MODELS)
def test_the_init_sequence_matches_the_baseline_and_stock_luma(chip, height, baseline):
    _, ours = started(chip, height)
    stock = RecordingSerial()
    DRIVERS[chip][1](stock, width=128, height=height)
    baseline(f"{chip}-128x{height}-init", ours.calls)
    # The first frame after init goes out whole, with luma's own bytes.
    assert ours.calls == stock.calls


# The target is set on the 1,024-byte frame of a 128x64 panel; on a 128x32 panel the
# same 20-pixel digit covers three of its four pages, so it is held to 10% there.
SHARE = {64: 0.05, 32: 0.10}


@pytest.mark.parametrize(("chip", "height"), MODELS)
def test_one_digit_sends_the_baseline_bytes_and_a_small_share(chip, height, baseline, score_image):
    device, serial = started(chip, height)
    device.invalidate()
    before = serial.meter.snapshot()
    device.display(score_image(12, (128, height)))
    full = serial.meter.since(before)
    before = serial.meter.snapshot()
    device.display(score_image(12, (128, height)))
    assert serial.meter.since(before)["wire_bytes"] == 0  # nothing changed, nothing sent
    serial.calls.clear()
    device.display(score_image(13, (128, height)))
    one_digit = serial.meter.since(before)
    baseline(f"{chip}-128x{height}-one-digit", serial.calls)
    assert full["payload_bytes"] >= 128 * height // 8
    assert one_digit["wire_bytes"] <= SHARE[height] * full["wire_bytes"]
    assert serial.chip.frame().tobytes() == score_image(13, (128, height)).tobytes()


def test_ssd1306_sends_one_window_per_page_when_changes_are_far_apart():
    device, serial = started("ssd1306", 64)
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    image.putpixel((127, 63), 1)
    serial.calls.clear()
    device.display(image)
    assert serial.calls == [
        ["command", [0x21, 0, 0, 0x22, 0, 0]], ["data", [0x01]],
        ["command", [0x21, 127, 127, 0x22, 7, 7]], ["data", [0x80]],
    ]  # fmt: skip


def _two_page_change(first_page: range, second_page: range) -> Image.Image:
    image = Image.new("1", (128, 64))
    for x in first_page:
        image.putpixel((x, 0), 1)  # page 0
    for x in second_page:
        image.putpixel((x, 8), 1)  # page 1
    return image


def test_ssd1306_sends_one_rectangle_when_it_costs_no_more_than_a_window_per_page():
    # Each window costs 6 command bytes, its data and two transfers' overhead (2 bytes each).
    # One 2x20 rectangle: 6 + 40 + 4 = 50 bytes; windows of 15 columns each: 2 x (6 + 15 + 4).
    device, serial = started("ssd1306", 64)
    serial.calls.clear()
    device.display(_two_page_change(range(0, 15), range(5, 20)))
    assert [call[0] for call in serial.calls] == ["command", "data"]  # the tie goes to one
    assert serial.calls[0] == ["command", [0x21, 0, 19, 0x22, 0, 1]]
    assert len(serial.calls[1][1]) == 40


def test_ssd1306_sends_a_window_per_page_when_that_is_cheaper_by_two_bytes():
    # The same rectangle (50 bytes) against windows of 14 columns each: 2 x (6 + 14 + 4) = 48.
    device, serial = started("ssd1306", 64)
    serial.calls.clear()
    device.display(_two_page_change(range(0, 14), range(6, 20)))
    assert serial.calls == [
        ["command", [0x21, 0, 13, 0x22, 0, 0]], ["data", [0x01] * 14],
        ["command", [0x21, 6, 19, 0x22, 1, 1]], ["data", [0x01] * 14],
    ]  # fmt: skip


def test_sh1106_addresses_each_changed_page_with_its_column_offset():
    device, serial = started("sh1106", 64)
    image = Image.new("1", (128, 64))
    image.putpixel((20, 9), 1)
    serial.calls.clear()
    device.display(image)
    # column 20 + offset 2 = 0x16: low nibble 0x06, high nibble 0x11
    assert serial.calls == [["command", [0xB1, 0x06, 0x11]], ["data", [0x02]]]


def test_a_failed_transfer_makes_the_next_frame_whole(score_image):
    device, serial = started("ssd1306", 64)
    device.display(score_image(1))

    def broken(data):
        raise OSError(121, "Remote I/O error")

    working, serial.data = serial.data, broken
    with pytest.raises(OSError):
        device.display(score_image(2))
    serial.data = working
    serial.calls.clear()
    device.display(score_image(2))
    assert serial.calls[0] == ["command", [0x21, 0, 127, 0x22, 0, 7]]
    assert len(serial.calls[1][1]) == 1024


def test_invalidate_resends_everything(score_image):
    device, serial = started("sh1106", 32)
    device.display(score_image(5, (128, 32)))
    device.invalidate()
    serial.calls.clear()
    device.display(score_image(5, (128, 32)))
    assert sum(len(data) for kind, data in serial.calls if kind == "data") == 4 * 128


pixels = st.tuples(st.integers(0, 127), st.integers(0, 63), st.booleans())


@settings(max_examples=60, deadline=None)
@given(
    model=st.sampled_from(MODELS),
    rotate=st.sampled_from([0, 2]),
    steps=st.lists(st.lists(pixels, max_size=12), min_size=1, max_size=6),
)
def test_the_decoded_frame_follows_every_partial_update(model, rotate, steps):
    chip, height = model
    device, serial = started(chip, height, rotate=rotate)
    image = Image.new("1", (128, height))
    for changes in steps:
        for x, y, on in changes:
            image.putpixel((x, y % height), on)
        device.display(image)
        expected = image.rotate(180) if rotate == 2 else image
        assert serial.chip.frame().tobytes() == expected.tobytes()
    assert serial.chip.unknown == ([] if chip == "ssd1306" else [0x20, 0x8D])


def test_pages_of_a_greyscale_image_are_those_of_its_one_bit_threshold():
    grey = Image.new("L", (128, 32))
    grey.putpixel((3, 9), 200)
    grey.putpixel((90, 30), 100)
    pages = image_to_pages(grey)
    assert pages == image_to_pages(grey.convert("1"))
    assert [len(page) for page in pages] == [128] * 4  # one byte per column and page


def test_frames_with_different_page_counts_cannot_be_compared():
    with pytest.raises(ValueError):
        changed_spans([bytes(128)] * 8, [bytes(128)] * 4)
