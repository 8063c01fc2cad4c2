"""A PN532 IRQ wire on the wrong pin: the driver tells it from a chip that does not answer.

On a `ModelledClock` (no real sleeps): the pin the reader watches is a pulled-up line the chip
never drives (`EmulatedPin` held high), while the chip answers on its bus as usual.
"""

from __future__ import annotations

import pytest

from firmware.inputs import from_scanner
from hardware.nfc.buses import EmulatedI2C, EmulatedPin, EmulatedSPI
from hardware.nfc.emulator import EmulatedPN532, ModelledClock
from hardware.nfc.reader import Reader, ReaderFault
from hardware.nfc.scanner import Scanner

SENTENCE = "its IRQ line never went low: the IRQ wire is not on the pin the profile's `irq` names"


def stray_spi_reader():
    spi = EmulatedSPI(clock=ModelledClock())
    cs = EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    stray = EmulatedPin("GPIO24", value=True)  # pulled up, nothing drives it
    return chip, Reader.over_spi(spi, cs, name="stake-2", irq=stray, clock=spi.clock)


def test_a_chip_that_answers_while_its_irq_pin_stays_high_is_an_irq_fault_with_a_sentence():
    chip, reader = stray_spi_reader()
    assert reader.health.state == "failing"
    assert reader.health.last_error.startswith("irq: cannot start the PN532: ")
    assert SENTENCE in reader.health.last_error
    assert chip.commands  # it did answer: the commands reached it
    with pytest.raises(ReaderFault) as raised:
        reader.reinit()
    assert raised.value.kind == "irq" and SENTENCE in str(raised.value)
    assert reader.health.errors == {"irq": 2}


def test_over_i2c_too():
    i2c = EmulatedI2C(clock=ModelledClock())
    i2c.attach(EmulatedPN532())
    reader = Reader.over_i2c(i2c, name="stake-0", irq=EmulatedPin("GPIO4"), clock=i2c.clock)
    assert reader.health.last_error.startswith("irq: ") and SENTENCE in reader.health.last_error


def test_a_busy_chip_with_its_irq_wired_right_is_still_a_busy_chip_not_an_irq_fault():
    spi = EmulatedSPI(clock=ModelledClock())
    cs = EmulatedPin("cs")
    chip = spi.attach(EmulatedPN532(), cs)
    reader = Reader.over_spi(spi, cs, name="stake-0", irq=chip.irq, clock=spi.clock)
    assert reader.health.state == "ok"
    chip.fail("busy")
    with pytest.raises(ReaderFault) as raised:
        reader.poll()
    assert raised.value.kind == "busy"
    chip.fail("unplugged")
    with pytest.raises(ReaderFault) as raised:
        reader.poll()
    assert raised.value.kind == "no_answer"


def test_the_table_says_check_the_irq_wire_for_that_reader_and_not_answering_for_others():
    _, stray = stray_spi_reader()
    spi = EmulatedSPI(clock=ModelledClock())
    cs = EmulatedPin("cs")
    spi.attach(EmulatedPN532(), cs).fail("unplugged")
    absent = Reader.over_spi(spi, cs, name="stake-3", clock=spi.clock)
    events = Scanner([stray, absent], clock=lambda: 0.0).cycle()
    faults = {event.reader: event for event in events if event.kind == "reader_fault"}
    assert faults["stake-2"].fault == "irq"
    assert faults["stake-2"].detail.startswith("reader stake-2: cannot start the PN532: ")
    assert from_scanner(faults["stake-2"]).fault == "irq_wire"
    assert from_scanner(faults["stake-3"]).fault == "not_answering"
