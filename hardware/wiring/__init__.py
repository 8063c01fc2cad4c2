"""The wiring of a table profile: which header pin each device terminal goes to, as a
list, a text table and an SVG picture.

    profile = load_profile("full-table")
    for device in wiring(profile): ...          # Device(name, part, detail, wires, notes)
    print(connection_table(profile))            # one line per wire
    Path("full-table.svg").write_text(wiring_svg(profile))

Along its seams: `wires` (each device and its wires), `table` (the text and Markdown
tables), `svg` (the picture). The Pi's 40-pin header itself (physical pin numbers, BCM
GPIO numbers, 3V3/5V/GND pins, SPI0/SPI1, I2C1, the UART) is stated once in
`hardware.header`; its names are re-exported here.
"""

from hardware.header import GPIO_FUNCTIONS, HEADER, physical_pin, pin_label
from hardware.wiring.svg import wiring_svg
from hardware.wiring.table import (
    connection_rows,
    connection_table,
    pin_rows,
    pin_table_markdown,
)
from hardware.wiring.wires import KINDS, Device, Wire, wiring

__all__ = [
    "GPIO_FUNCTIONS",
    "HEADER",
    "KINDS",
    "Device",
    "Wire",
    "connection_rows",
    "connection_table",
    "physical_pin",
    "pin_label",
    "pin_rows",
    "pin_table_markdown",
    "wiring",
    "wiring_svg",
]
