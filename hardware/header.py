"""The Raspberry Pi's 40-pin header, stated once: what each physical pin is, and which GPIOs
the buses a table uses take over. Everything else that names a header pin (the profile
checker's bus pins, the wiring lists and diagram) is derived from here.

    HEADER[29] == "GPIO5"; physical_pin(5) == 29
    pin_label(3) == "pin 3 GPIO2 SDA1"
    I2C_PINS[1] == {2: "I2C1 SDA", 3: "I2C1 SCL"}    # what a bus in use takes, by GPIO
"""

from __future__ import annotations

# Physical pin -> what it is: "3V3", "5V", "GND" or "GPIOn" (BCM numbering).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip

# The alternate functions a table uses, by signal -> BCM GPIO number.
ID_EEPROM_GPIOS = {"ID_SD": 0, "ID_SC": 1}  # the HAT EEPROM's lines: never a table's
I2C1_GPIOS = {"SDA": 2, "SCL": 3}
UART_GPIOS = {"TXD": 14, "RXD": 15}
SPI_GPIOS: dict[int, dict[str, int]] = {
    0: {"SCLK": 11, "MOSI": 10, "MISO": 9, "CE0": 8, "CE1": 7},
    1: {"SCLK": 21, "MOSI": 20, "MISO": 19, "CE0": 18, "CE1": 17, "CE2": 16},
}
UART_HEADER_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")

# -- derived ------------------------------------------------------------------------------

# The GPIOs on the header a profile may give a device (all but the ID EEPROM's).
GPIO_PINS = range(
    max(ID_EEPROM_GPIOS.values()) + 1,
    max(int(name[4:]) for name in HEADER.values() if name.startswith("GPIO")) + 1,
)  # 2..27
# BCM GPIO -> its alternate function as the pinout names it ("SDA1", "SPI0 MOSI").
GPIO_FUNCTIONS: dict[int, str] = {
    **{gpio: name for name, gpio in ID_EEPROM_GPIOS.items()},
    **{gpio: f"{name}1" for name, gpio in I2C1_GPIOS.items()},
    **{gpio: name for name, gpio in UART_GPIOS.items()},
    **{
        gpio: f"SPI{port} {name}"
        for port, signals in SPI_GPIOS.items()
        for name, gpio in signals.items()
    },
}
# The clock and data lines of each SPI port: {"SCLK": 11, "MOSI": 10, "MISO": 9}.
SPI_BUS_GPIOS = {
    port: {name: signals[name] for name in ("SCLK", "MOSI", "MISO")}
    for port, signals in SPI_GPIOS.items()
}
# Pins a bus takes over when it is in use: GPIO -> what it is then.
I2C_PINS = {1: {gpio: f"I2C1 {name}" for name, gpio in I2C1_GPIOS.items()}}
SPI_PINS = {
    port: {gpio: f"SPI{port} {name}" for name, gpio in lines.items()}
    for port, lines in SPI_BUS_GPIOS.items()
}
SPI_CE_PINS = {port: (signals["CE0"], signals["CE1"]) for port, signals in SPI_GPIOS.items()}
UART_PINS = {gpio: f"UART {name}" for name, gpio in UART_GPIOS.items()}


def physical_pin(gpio: int) -> int:
    """The header pin of a BCM GPIO number: `physical_pin(5) == 29`."""
    for pin, name in HEADER.items():
        if name == f"GPIO{gpio}":
            return pin
    raise ValueError(f"GPIO{gpio} is not on the 40-pin header")


def pin_label(pin: int, *, function: bool = True) -> str:
    """`"pin 29 GPIO5"`, `"pin 3 GPIO2 SDA1"`, `"pin 1 3V3"`; `function=False` leaves out
    the alternate function (GPIO17 as a button is not SPI1's CE1)."""
    name = HEADER[pin]
    alternate = GPIO_FUNCTIONS.get(int(name[4:])) if name.startswith("GPIO") else None
    return f"pin {pin} {name}" + (f" {alternate}" if alternate and function else "")


def nearest(name: str, anchor: int) -> int:
    """The header pin called `name` (3V3, 5V, GND) nearest to pin `anchor`, lower on a tie."""
    pins = [pin for pin, what in HEADER.items() if what == name]
    return min(pins, key=lambda pin: (abs(pin - anchor), pin))
