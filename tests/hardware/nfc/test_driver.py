"""The table's PN532 driver classes (hardware/nfc/driver.py) on the emulated buses: what they
send while they are built, their defaults, and what a reader that does not answer costs on
the modelled clock. The waits themselves: test_timing.py and test_irq_wiring.py; UART frames
read by their length through pyserial: test_uart_on_a_tty.py."""

from __future__ import annotations

import pytest
from digitalio import Direction

from hardware.nfc.buses import EmulatedI2C, EmulatedPin, EmulatedSPI, EmulatedUART
from hardware.nfc.driver import TablePN532_I2C, TablePN532_SPI, TablePN532_UART
from hardware.nfc.emulator import EmulatedPN532, ModelledClock

SAM_CONFIGURATION = 0x14


def i2c_driver(chip: EmulatedPN532, clock: ModelledClock):
    i2c = EmulatedI2C(clock=clock)
    i2c.attach(chip)  # at 0x24, the PN532's I2C address: the driver's default too
    return TablePN532_I2C(i2c, clock=clock)


def spi_driver(chip: EmulatedPN532, clock: ModelledClock):
    spi, cs = EmulatedSPI(clock=clock), EmulatedPin("cs")
    spi.attach(chip, cs)
    return TablePN532_SPI(spi, cs, clock=clock)


def uart_driver(chip: EmulatedPN532, clock: ModelledClock):
    return TablePN532_UART(EmulatedUART(chip, clock=clock), clock=clock)


DRIVERS = {"i2c": i2c_driver, "spi": spi_driver, "uart": uart_driver}


@pytest.mark.parametrize("bus", DRIVERS)
def test_building_a_driver_configures_normal_mode_with_a_1_s_virtual_card_timeout_and_irq(bus):
    """SAMConfiguration: mode 0x01 (normal), timeout 0x14 (20 x 50 ms, only used in virtual
    card mode), 0x01: the chip drives its IRQ line."""
    chip = EmulatedPN532()
    pn532 = DRIVERS[bus](chip, ModelledClock())
    assert (SAM_CONFIGURATION, b"\x01\x14\x01") in chip.commands
    assert chip.sam_mode == 0x01
    assert pn532.firmware_version == (0x32, 0x01, 0x06, 0x07)


@pytest.mark.parametrize("bus", DRIVERS)
def test_a_chip_that_never_answers_costs_its_short_default_timeout_per_command(bus):
    """Built without `timeout_s`, the two commands of the construction (SAMConfiguration,
    GetFirmwareVersion) wait 0.1 s each, not the stock driver's 1 s and 0.5 s."""
    chip, clock = EmulatedPN532(), ModelledClock()
    chip.fail("no_answer")
    with pytest.raises(RuntimeError, match="Failed to detect the PN532"):
        DRIVERS[bus](chip, clock)
    assert 0.2 <= clock.monotonic() < 0.3  # modelled seconds: two 0.1 s waits and the wire


def test_the_spi_driver_clocks_the_bus_at_1_mhz_by_default():
    spi, cs = EmulatedSPI(baudrate=8_000_000, clock=ModelledClock()), EmulatedPin("cs")
    spi.attach(EmulatedPN532(), cs)
    pn532 = TablePN532_SPI(spi, cs, clock=spi.clock)
    pn532.firmware_version  # noqa: B018 - a transfer, so the device configures the bus
    assert spi.baudrate == 1_000_000  # the stock driver's SPIDevice would run it at 100 kHz


def test_a_reset_line_given_to_a_uart_driver_is_pulsed_low_at_start():
    chip, clock = EmulatedPN532(), ModelledClock()
    reset = EmulatedPin("reset")
    pn532 = TablePN532_UART(EmulatedUART(chip, clock=clock), clock=clock, reset=reset)
    assert reset.direction == Direction.OUTPUT
    assert reset.history[:2] == [False, True]  # low, then released: the chip restarts
    assert reset.value is True
    assert pn532.firmware_version == (0x32, 0x01, 0x06, 0x07)
