"""Which kinds of device node a profile opens on the Pi, and which group gives access to each.

    >>> from hardware.profile import load_profile
    >>> sorted(device_classes(load_profile("minimal")).items())
    [('gpiochip', 'gpio'), ('i2c', 'i2c')]

The names are the kernel's device classes (`/proc/devices`), as the unit's `DeviceAllow=char-X`
takes them; the groups are Raspberry Pi OS's udev rules'. The service unit must allow every
class any profile can need (tests/systemd checks it against the shipped profiles).
"""

from __future__ import annotations

from hardware.profile.specs import Profile

# A serial port's class by the name of its node; /dev/serial0 is a link to ttyAMA0 (the PL011
# on a Pi 4 with Bluetooth moved, and a Pi 5) or ttyS0 (the mini UART).
SERIAL_CLASSES = {
    "/dev/serial0": ("ttyAMA", "ttyS"),
    "/dev/serial1": ("ttyAMA", "ttyS"),
    "/dev/ttyAMA": ("ttyAMA",),
    "/dev/ttyS": ("ttyS",),
    "/dev/ttyUSB": ("ttyUSB",),
    "/dev/ttyACM": ("ttyACM",),
}


def serial_classes(port: str) -> tuple[str, ...]:
    """The device classes `port` can be (unknown names: none, said by the caller)."""
    for prefix, classes in SERIAL_CLASSES.items():
        if port.startswith(prefix):
            return classes
    return ()


def device_classes(profile: Profile) -> dict[str, str]:
    """Device class -> group, for every kind of node the profile's table opens on the Pi."""
    found: dict[str, str] = {}
    readers, displays = profile.readers, profile.displays
    if any(r.interface == "spi" for r in readers) or any(d.interface == "spi" for d in displays):
        found["spi"] = "spi"
    if any(r.interface == "i2c" for r in readers) or any(d.interface == "i2c" for d in displays):
        found["i2c"] = "i2c"
    lines = [
        *(pin for r in readers for pin in (r.cs, r.irq, r.reset, r.req)),
        *(pin for d in displays if d.interface == "spi" for pin in (d.dc, d.reset, d.cs)),
        *(b.pin for b in profile.buttons),
        profile.buzzer,
        profile.encoder,
    ]
    if any(line is not None for line in lines):
        found["gpiochip"] = "gpio"
    for reader in readers:
        if reader.interface == "uart":
            for name in serial_classes(reader.port):
                found[name] = "dialout"
    return found
