"""`Display`: images in, failures marked and retried, never raised to the caller."""

from __future__ import annotations

import pytest
from PIL import Image

from hardware.display import DisplaySpec, EmulatedWiring, open_display
from hardware.display.screen import Display, DisplayHealth


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def wiring():
    return EmulatedWiring()


@pytest.fixture
def clock():
    return Clock()


def test_show_puts_the_image_on_the_emulated_glass(wiring, score_image):
    display = open_display(DisplaySpec("stake-0"), wiring)
    assert display.show(score_image(7))
    assert display.frame().tobytes() == score_image(7).tobytes()
    assert display.clear()
    assert display.frame().getbbox() is None


def test_a_wrong_size_is_refused_and_sends_nothing(wiring):
    display = open_display(DisplaySpec("status", height=32), wiring)
    before = display.counters
    with pytest.raises(ValueError, match=r"takes 128x32 images, not 128x64"):
        display.show(Image.new("1", (128, 64)))
    assert display.counters == before


def test_greyscale_images_are_thresholded_to_one_bit(wiring):
    display = open_display(DisplaySpec("stake-1"), wiring)
    image = Image.new("L", (128, 64))
    image.putpixel((3, 4), 255)
    assert display.show(image)
    assert display.frame().getbbox() == (3, 4, 4, 5)


def test_an_unplugged_display_is_marked_failing_and_retried_with_back_off(
    wiring, clock, score_image
):
    display = open_display(DisplaySpec("stake-2", address=0x3D), wiring, clock=clock)
    bus = wiring.i2c_buses[1]
    bus.unplug(0x3D)
    assert display.show(score_image(1)) is False
    assert not display.health.ok
    assert display.health.failures == 1
    assert "0x3D" in display.health.last_error
    sent = bus.meter.transactions
    assert display.show(score_image(2)) is False  # still backing off: the bus is left alone
    assert bus.meter.transactions == sent
    bus.plug(0x3D)
    clock.now += 0.5
    assert display.show(score_image(3))
    assert display.health.ok
    assert display.health.recoveries == 1
    assert display.frame().tobytes() == score_image(3).tobytes()


def test_the_back_off_doubles_while_the_display_stays_away(wiring, clock, score_image):
    display = open_display(DisplaySpec("stake-3"), wiring, clock=clock)
    wiring.i2c_buses[1].unplug(0x3C)
    display.show(score_image(1))  # fails: next try in 0.5 s
    clock.now += 0.5
    display.show(score_image(1))  # the reopen fails: next try in 1 s
    clock.now += 0.5
    display.show(score_image(1))
    assert display.health.failures == 2
    clock.now += 0.5
    display.show(score_image(1))
    assert display.health.failures == 3


def test_a_display_absent_at_start_up_is_failing_until_it_answers(wiring, clock, score_image):
    wiring.i2c_bus(1).unplug(0x3D)
    display = open_display(DisplaySpec("status", address=0x3D), wiring, clock=clock)
    assert not display.health.ok
    assert display.show(score_image(1)) is False
    wiring.i2c_bus(1).plug(0x3D)
    clock.now += 1
    assert display.show(score_image(1))
    assert display.chip.is_on  # the init sequence went out on reconnection
    assert display.frame().tobytes() == score_image(1).tobytes()


def test_close_is_idempotent_and_a_closed_display_refuses_images(wiring, score_image):
    with open_display(DisplaySpec("stake-4"), wiring) as display:
        display.show(score_image(4))
    assert not display.frame().getbbox()  # luma's cleanup blanks the screen ...
    assert not display.chip.is_on  # ... and switches it off
    display.close()
    with pytest.raises(ValueError, match="closed"):
        display.show(score_image(4))


def test_a_display_carries_its_role_and_name_and_says_how_it_is(wiring, score_image):
    display = open_display(DisplaySpec("stake-2", address=0x3D), wiring)
    assert display.role == "stake-2"
    assert display.name == "display stake-2 (ssd1306 128x64, i2c-1 0x3D)"
    assert repr(display) == "<Display display stake-2 (ssd1306 128x64, i2c-1 0x3D) ok>"
    wiring.i2c_buses[1].unplug(0x3D)
    display.show(score_image(1))
    assert repr(display) == "<Display display stake-2 (ssd1306 128x64, i2c-1 0x3D) failing>"


def test_a_failure_is_recorded_with_the_error_s_kind_and_sentence(wiring, score_image):
    display = open_display(DisplaySpec("stake-2", address=0x3D), wiring)
    wiring.i2c_buses[1].unplug(0x3D)
    assert display.show(score_image(1)) is False
    assert display.health == DisplayHealth(
        ok=False,
        failures=1,
        recoveries=0,
        last_error="DeviceNotFoundError: I2C device not found on address: 0x3D",
    )


def test_a_clock_that_starts_at_zero_opens_the_display_at_once(wiring, clock, score_image):
    clock.now = 0.0  # an emulated clock from zero: nothing has failed yet, nothing to wait for
    display = open_display(DisplaySpec("stake-0"), wiring, clock=clock)
    assert display.chip.is_on
    assert display.show(score_image(5))
    assert display.frame().tobytes() == score_image(5).tobytes()


def test_each_recovery_counts_and_starts_the_back_off_afresh(wiring, clock, score_image):
    display = open_display(DisplaySpec("stake-3"), wiring, clock=clock)
    bus = wiring.i2c_buses[1]
    for recovery in (1, 2):
        bus.unplug(0x3C)
        assert display.show(score_image(recovery)) is False
        clock.now += 0.5  # the first retry comes after 0.5 s, not after the doubled delays
        bus.plug(0x3C)
        assert display.show(score_image(recovery + 10))
        assert display.health.recoveries == recovery
    assert display.health.failures == 2


def test_close_can_leave_the_last_image_showing(wiring, score_image):
    display = open_display(DisplaySpec("stake-4"), wiring)
    display.show(score_image(4))
    display.close(keep_image=True)
    assert display.chip.is_on
    assert display.frame().tobytes() == score_image(4).tobytes()


def test_a_real_display_says_its_pixels_cannot_be_read_back():
    display = Display(lambda: object(), role="status", name="status OLED", size=(128, 32))
    with pytest.raises(ValueError, match=r"^status OLED is a real display: its pixels cannot"):
        display.frame()
    assert display.counters == {}
