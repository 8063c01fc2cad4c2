"""What to do when a bus is missing on the Pi: one sentence each, naming the command.

`raspi-config nonint do_X 0` switches X on (0 means yes), as `sudo raspi-config` would.
"""

from __future__ import annotations

REBOOT = "then reboot"


def spi_off(port: int, node: str) -> str:
    """The sentence for an SPI port whose device node is missing."""
    if port == 0:
        fix = f"switch SPI on with `sudo raspi-config nonint do_spi 0`, {REBOOT}"
    else:
        fix = f"add `dtoverlay=spi1-1cs` to /boot/firmware/config.txt, {REBOOT}"
    return f"{node} does not exist: SPI{port} is off; {fix}"


def i2c_off(number: int, node: str) -> str:
    """The sentence for an I2C bus whose device node is missing."""
    if number == 1:
        fix = f"switch I2C on with `sudo raspi-config nonint do_i2c 0`, {REBOOT}"
    else:
        fix = (
            "a multiplexer channel needs `dtoverlay=i2c-mux,pca9548,addr=0x70` and a software "
            f"bus its `dtoverlay=i2c-gpio` in /boot/firmware/config.txt, {REBOOT}"
        )
    return f"{node} does not exist: {fix}"


def uart_off(port: str) -> str:
    """The sentence for a serial port that is missing."""
    return (
        f"{port} does not exist: switch the UART on and the serial console off with "
        "`sudo raspi-config nonint do_serial_hw 0` and `sudo raspi-config nonint "
        f"do_serial_cons 1`, {REBOOT}"
    )
