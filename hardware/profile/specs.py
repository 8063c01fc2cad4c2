"""What a profile says, once checked: the spec of each device and the `Profile` holding them,
and the roles a device may have."""

from __future__ import annotations

from dataclasses import dataclass, field

from hardware.display.spec import DisplaySpec
from hardware.profile.web import WebSpec

PAD_ROLES = (*(f"stake-{n}" for n in range(5)), *(f"seat-{n}" for n in range(4)), "main")
DISPLAY_ROLES = (*PAD_ROLES, "status")
BUTTON_ROLES = ("undo", "select", "ok", "pass", "back", "menu")
SEATS = range(1, 5)  # Res Arcana's seats 1..4: `seat = N` on a pad's [[readers]] entry
MIN_SEATS = 2
# The languages the screens have catalogs for (firmware/language/*.toml; hardware/ does not
# import firmware/, tests/firmware/test_language.py keeps the two lists in step).
LANGUAGES = ("en", "de", "fa")  # the catalogs in firmware/language/
DIGITS = ("latin", "persian")  # how the screens write numbers (firmware.language.DIGITS)


@dataclass(frozen=True)
class MuxSpec:
    """A TCA9548A. With `kernel` the kernel's i2c-mux driver owns it and each channel is its
    own `/dev/i2c-N`: N is read from sysfs when the table starts, or given per channel in
    `kernel_buses` (which implies `kernel`); without, our code switches channels over `bus`."""

    bus: int = 1
    address: int = 0x70
    kernel_buses: tuple[int, ...] = ()
    kernel: bool = False


@dataclass(frozen=True)
class ReaderSpec:
    """One PN532. SPI: `bus` is the port, `cs` its GPIO chip-select. I2C: `bus` as wired
    (see `MuxSpec`), `address`, `mux_channel`, `req` the GPIO to its P32 (H_REQ) wake-up
    line. UART: `port`, `baudrate`."""

    role: str
    interface: str = "spi"
    bus: int = 0
    address: int = 0x24
    mux_channel: int | None = None
    cs: int | None = None
    irq: int | None = None
    reset: int | None = None
    req: int | None = None
    port: str = "/dev/serial0"
    baudrate: int = 115_200
    clock_hz: int = 1_000_000
    line: int | None = None
    seat: int | None = None

    @property
    def where(self) -> str:
        if self.interface == "spi":
            return f"spi{self.bus} cs GPIO{self.cs}"
        if self.interface == "uart":
            return f"uart {self.port}"
        channel = f" channel {self.mux_channel}" if self.mux_channel is not None else ""
        return f"i2c-{self.bus}{channel} 0x{self.address:02X}"

    @property
    def name(self) -> str:
        return f"reader {self.role} ({self.where})"


@dataclass(frozen=True)
class ButtonSpec:
    role: str
    pin: int
    pull_up: bool = True
    hold_s: float = 1.0
    line: int | None = None


@dataclass(frozen=True)
class BuzzerSpec:
    pin: int
    active_high: bool = True
    line: int | None = None


@dataclass(frozen=True)
class EncoderSpec:
    a: int
    b: int
    line: int | None = None


@dataclass(frozen=True)
class Profile:
    """A checked table profile. `displays` hold the kernel bus each display is on (or the
    multiplexer channel whose bus is looked up at start). `buses` is the bus factory the
    profile asks for ("real", "emulated"; None: real unless $ARCANA_TABLE_BUSES says).
    `seats` are the reader roles of Res Arcana's seats 1, 2, ... (empty when the profile
    gives none: the games then seat players in pad order)."""

    name: str
    source: str
    buses: str | None = None
    absence_s: float = 0.3
    one_field_at_a_time: bool = True
    description: str = ""
    language: str = "en"  # the screens' first language (firmware/language/ has its catalogs)
    digits: str = "latin"  # "persian": ۰-۹ on the screens of a right-to-left language (fa)
    readers: tuple[ReaderSpec, ...] = ()
    displays: tuple[DisplaySpec, ...] = ()
    buttons: tuple[ButtonSpec, ...] = ()
    buzzer: BuzzerSpec | None = None
    encoder: EncoderSpec | None = None
    mux: MuxSpec | None = None
    seats: tuple[str, ...] = ()
    web: WebSpec = field(default_factory=WebSpec)  # [web]: hardware/profile/web.py
    display_lines: dict[str, int] = field(default_factory=dict, compare=False)

    def missing(self) -> list[str]:
        """What a table cannot play without and this profile lacks, one sentence each."""
        lacks = []
        if not self.readers:
            lacks.append(f"{self.source} has no [[readers]]: a table needs at least one pad")
        if not self.displays:
            lacks.append(f"{self.source} has no [[displays]]: a table needs at least one screen")
        return lacks
