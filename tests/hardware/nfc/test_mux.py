"""`MuxChannel`: one TCA9548A channel as a bus; its lock selects the channel first."""

from __future__ import annotations

import pytest

from hardware.nfc.buses import EmulatedI2C, EmulatedTCA9548A
from hardware.nfc.emulator import EmulatedPN532
from hardware.nfc.mux import MuxChannel


@pytest.mark.parametrize("channel", [-1, 8])
def test_a_channel_outside_0_to_7_is_refused(channel):
    with pytest.raises(ValueError, match=rf"^a TCA9548A has channels 0\.\.7, not {channel}$"):
        MuxChannel(EmulatedI2C(), channel)


def test_the_first_and_last_channels_select_their_own_bit():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    for channel in (0, 7):
        port = MuxChannel(i2c, channel)
        assert port.try_lock()
        assert mux.mask == 1 << channel
        port.unlock()


def test_a_multiplexer_at_another_address_is_selected_there():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c, address=0x71)
    port = MuxChannel(i2c, 4, mux_address=0x71)
    assert port.try_lock()
    assert mux.mask == 1 << 4


def test_a_busy_bus_is_not_locked_and_no_channel_is_selected():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    assert i2c.try_lock()  # another channel's driver holds the bus
    port = MuxChannel(i2c, 3)
    assert port.try_lock() is False
    assert mux.mask == 0
    i2c.unlock()
    assert port.try_lock()


def test_a_multiplexer_that_does_not_answer_raises_and_leaves_the_bus_unlocked():
    i2c = EmulatedI2C()  # no multiplexer on it
    port = MuxChannel(i2c, 2)
    with pytest.raises(OSError, match="no device answers at 0x70"):
        port.try_lock()
    assert i2c.try_lock()  # not left locked for ever
    i2c.unlock()


def test_scan_lists_this_channel_s_devices_but_not_the_multiplexer():
    i2c = EmulatedI2C()
    mux = EmulatedTCA9548A(i2c)
    mux.attach(5, EmulatedPN532())
    assert MuxChannel(i2c, 5).scan() == [0x24]
    assert MuxChannel(i2c, 6).scan() == []
    assert i2c.try_lock()  # the scan released the bus
    i2c.unlock()


class BusyAtFirst(EmulatedI2C):
    """A bus that another channel's driver holds for the first `busy` tries."""

    def __init__(self, busy: int) -> None:
        super().__init__()
        self.busy = busy

    def try_lock(self) -> bool:
        if self.busy:
            self.busy -= 1
            return False
        return super().try_lock()


def test_scan_waits_for_a_busy_bus_then_selects_its_channel():
    i2c = BusyAtFirst(busy=3)
    mux = EmulatedTCA9548A(i2c)
    mux.attach(5, EmulatedPN532())
    assert MuxChannel(i2c, 5).scan() == [0x24]
    assert i2c.busy == 0 and mux.mask == 1 << 5


class RecordingBus:
    """What a channel hands to the bus below it."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def writeto(self, address, buffer, **kwargs):
        self.calls.append(("writeto", address, bytes(buffer), kwargs))

    def readfrom_into(self, address, buffer, **kwargs):
        self.calls.append(("readfrom_into", address, len(buffer), kwargs))

    def writeto_then_readfrom(self, address, out, into, **kwargs):
        self.calls.append(("writeto_then_readfrom", address, bytes(out), len(into), kwargs))

    def unlock(self):
        self.calls.append(("unlock",))


def test_transfers_and_unlock_go_to_the_bus_unchanged():
    bus = RecordingBus()
    port = MuxChannel(bus, 1)
    port.writeto(0x24, b"\x01\x02\x03", start=1, end=3)
    port.readfrom_into(0x24, bytearray(4), end=2)
    port.writeto_then_readfrom(0x24, b"\x09", bytearray(2), in_start=1)
    port.unlock()
    port.deinit()  # owns nothing: nothing is sent
    assert bus.calls == [
        ("writeto", 0x24, b"\x01\x02\x03", {"start": 1, "end": 3}),
        ("readfrom_into", 0x24, 4, {"end": 2}),
        ("writeto_then_readfrom", 0x24, b"\x09", 2, {"in_start": 1}),
        ("unlock",),
    ]
