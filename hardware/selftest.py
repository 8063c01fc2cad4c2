"""The table's self-test: every reader, display and button of a profile, one report.

`run_selftest(table)` asks each reader for its firmware and polls it once, draws a test
pattern on each display (on an emulated table it reads the pattern back from the decoded
controller), then asks for each button to be pressed within a timeout and sounds each
buzzer pattern. On an emulated table, `finger` presses the mock pins after each prompt, so
the emulated run goes through the same code as the real one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from hardware.controls import PATTERNS, Button
from hardware.display import Display
from hardware.nfc.reader import Reader, ReaderFault
from hardware.table import TableDevices


@dataclass(frozen=True)
class Check:
    """One part's result: `part` (reader, display, button, buzzer, or the profile itself when
    it lacks a part a table needs), its name, pass or fail."""

    part: str
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'}  {self.name}: {self.detail}"


@dataclass
class SelftestReport:
    profile: str
    emulated: bool
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def faults(self) -> list[Check]:
        return [check for check in self.checks if not check.ok]

    def text(self) -> str:
        """The report an installer reads: one line per part, then the verdict."""
        kind = "emulated" if self.emulated else "real"
        lines = [f"self-test of profile {self.profile} ({kind} hardware)"]
        lines += [check.line() for check in self.checks]
        count = len(self.faults)
        lines.append("all parts work" if self.ok else f"{count} fault{'s' * (count != 1)} found")
        return "\n".join(lines)


def calibration_pattern(size: tuple[int, int], label: str) -> Image.Image:
    """A frame, both diagonals, a checkerboard corner and the display's role."""
    width, height = size
    image = Image.new("1", size)
    pen = ImageDraw.Draw(image)
    pen.rectangle((0, 0, width - 1, height - 1), outline=1)
    pen.line((0, 0, width - 1, height - 1), fill=1)
    pen.line((0, height - 1, width - 1, 0), fill=1)
    for x in range(width - 17, width - 1):
        for y in range(1, 17):
            if (x // 4 + y // 4) % 2:
                image.putpixel((x, y), 1)
    pen.rectangle((3, 3, 6 + 6 * len(label), 14), fill=0)
    pen.text((5, 3), label, fill=1)
    return image


def check_reader(reader: Reader, name: str) -> Check:
    """Answering? Firmware version, and one poll of the pad."""
    try:
        if reader.health.state != "ok":
            reader.reinit()
        ic, version, revision, _ = reader.firmware_version()
        tags = len(reader.poll().targets)
        reader.field_off()
    except ReaderFault as fault:
        if fault.kind == "irq":  # the chip answers on its bus; its IRQ wire is elsewhere
            return Check("reader", name, False, f"check its IRQ wire ({fault})")
        return Check("reader", name, False, f"does not answer ({fault})")
    on_pad = f"{tags} tag{'s' * (tags != 1)} on the pad"
    return Check("reader", name, True, f"PN5{ic:x} firmware {version}.{revision}, {on_pad}")


def check_display(display: Display) -> Check:
    """Draw the test pattern; an emulated display must show exactly it."""
    pattern = calibration_pattern(display.size, display.role)
    if not display.show(pattern):
        return Check("display", display.name, False, f"failing ({display.health.last_error})")
    if display.chip is None:
        return Check("display", display.name, True, "test pattern sent: check it by eye")
    if display.frame().tobytes() != pattern.tobytes():
        return Check("display", display.name, False, "the screen does not show the test pattern")
    return Check("display", display.name, True, "test pattern shown and read back")


def check_button(
    button: Button,
    timeout_s: float,
    prompt: Callable[[str], None],
    finger: Callable[[str], None] | None,
) -> Check:
    """Ask for a press and wait for it, at most `timeout_s` seconds."""
    pressed = threading.Event()
    before = button.when_pressed
    button.when_pressed = lambda _button: pressed.set()
    try:
        where = f"GPIO{button.pin_number}"
        prompt(f"press the {button.role.upper()} button ({where}) within {timeout_s:g} s")
        if finger is not None:
            finger(button.role)
        if not pressed.wait(timeout_s):
            return Check("button", button.name, False, f"not pressed within {timeout_s:g} s")
    finally:
        button.when_pressed = before
    return Check("button", button.name, True, "pressed")


def run_selftest(
    table: TableDevices,
    *,
    button_timeout_s: float = 10.0,
    prompt: Callable[[str], None] = print,
    finger: Callable[[str], None] | None = None,
) -> SelftestReport:
    """Check every part of `table`; the report lists each with PASS or FAIL."""
    # a profile without pads or screens is no working table, however well its parts work
    checks = [Check("profile", "profile", False, lack) for lack in table.profile.missing()]
    checks += [check_reader(reader, spec.name) for spec, reader in _readers(table)]
    checks += [check_display(display) for display in table.displays.values()]
    screen = table.displays.get("status") or next(iter(table.displays.values()), None)

    def ask(text: str) -> None:
        prompt(text)
        if screen is not None and screen.health.ok:
            screen.show(_words(screen.size, text))

    for button in table.buttons.values():
        checks.append(check_button(button, button_timeout_s, ask, finger))
    if table.buzzer is not None:
        for pattern in PATTERNS:
            table.buzzer.play(pattern, wait=True)
        checks.append(
            Check(
                "buzzer",
                table.buzzer.name,
                True,
                f"played {', '.join(PATTERNS)}: listen for three different sounds",
            )
        )
    return SelftestReport(table.profile.name, table.emulated, checks)


def _readers(table: TableDevices):
    return [(spec, table.readers[spec.role]) for spec in table.profile.readers]


def _words(size: tuple[int, int], text: str) -> Image.Image:
    image = Image.new("1", size)
    pen = ImageDraw.Draw(image)
    words, line, y = text.split(), "", 2
    for word in words:  # wrap at about 20 characters, the width of luma's default font
        if len(line) + len(word) >= 20:
            pen.text((2, y), line, fill=1)
            line, y = "", y + 11
        line = f"{line} {word}".strip()
    pen.text((2, y), line, fill=1)
    return image
