"""Emulated pads for the NFC tests: chips on emulated buses, readers built over them.

Buses, chips and readers share one `ModelledClock`: the chips are busy for their modelled time
and the driver's waits pass on that clock, so nothing sleeps for real. (The scanner's `clock`
fixture is another one, moved by hand.)
"""

from __future__ import annotations

import pytest

from hardware.nfc.buses import EmulatedI2C, EmulatedPin, EmulatedSPI, EmulatedTCA9548A
from hardware.nfc.emulator import EmulatedPN532, ModelledClock
from hardware.nfc.reader import Reader


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def i2c_pad():
    """One chip directly on an I2C bus and a reader over it."""
    i2c = EmulatedI2C(clock=ModelledClock())
    chip = i2c.attach(EmulatedPN532(name="stake-0"))
    reader = Reader.over_i2c(i2c, name="stake-0", timeout_s=0.02, clock=i2c.clock)
    yield chip, reader
    reader.close()


def mux_table(count: int, timeout_s: float = 0.02):
    """`count` chips on TCA9548A channels 0.. of one I2C bus, all at 0x24, with readers."""
    i2c = EmulatedI2C(clock=ModelledClock())
    mux = EmulatedTCA9548A(i2c)
    chips = [mux.attach(n, EmulatedPN532(name=f"stake-{n}")) for n in range(count)]
    readers = [
        Reader.over_i2c(i2c, name=f"stake-{n}", channel=n, timeout_s=timeout_s, clock=i2c.clock)
        for n in range(count)
    ]
    return i2c, chips, readers


def spi_table(count: int, timeout_s: float = 0.02):
    """`count` chips on one SPI bus, one chip-select each, with readers."""
    spi = EmulatedSPI(clock=ModelledClock())
    chips, readers = [], []
    for n in range(count):
        cs = EmulatedPin(f"cs{n}")
        chips.append(spi.attach(EmulatedPN532(name=f"seat-{n}"), cs))
        readers.append(
            Reader.over_spi(spi, cs, name=f"seat-{n}", timeout_s=timeout_s, clock=spi.clock)
        )
    return spi, chips, readers


@pytest.fixture
def make_mux_table():
    return mux_table


@pytest.fixture
def make_spi_table():
    return spi_table
