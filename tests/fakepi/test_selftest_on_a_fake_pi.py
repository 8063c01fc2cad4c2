"""`arcana-table selftest --profile P` (real mode) on a fake Pi 4 and Pi 5: every reader,
display, button and the buzzer through Blinka, adafruit_pn532, luma and gpiozero."""

from __future__ import annotations

import re

import pytest

from hardware.profile import load_profile
from hardware.selftest import calibration_pattern

pytestmark = pytest.mark.fakepi

BOARDS = ("pi4", "pi5")
PROFILES = ("full-table", "minimal", "mux-readers-spi-oleds")


def finger_for(pi):
    """Presses each button the self-test asks for (it names the GPIO in the prompt)."""

    def on_stderr(line: str) -> None:
        asked = re.search(r"press the \w+ button \(GPIO(\d+)\)", line)
        if asked:
            pi.press(int(asked[1]))

    return on_stderr


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("board", BOARDS)
def test_selftest_passes_every_part(fake_pi, profile_file, board, profile):
    pi = fake_pi(board, profile)
    path = str(profile_file(profile))
    done = pi.run("selftest", "--profile", path, on_stderr=finger_for(pi))
    assert done.returncode == 0, done.stdout + done.stderr + pi.testbed_log()
    spec = load_profile(path)
    checks = [line for line in done.stdout.splitlines() if line.startswith(("PASS", "FAIL"))]
    expected = len(spec.readers) + len(spec.displays) + len(spec.buttons) + (spec.buzzer is not None)
    assert len(checks) == expected and all(line.startswith("PASS") for line in checks)
    assert "(real hardware)" in done.stdout
    # Each reader answered as a PN532 with the emulator's firmware (1.6) ...
    assert done.stdout.count("PN532 firmware 1.6, 0 tags on the pad") == len(spec.readers)
    # ... and each OLED's controller received exactly the test pattern at some point.
    history = pi.frame_history()
    for display in spec.displays:
        pattern = calibration_pattern((display.width, display.height), display.role).tobytes()
        assert any(frame.tobytes() == pattern for frame in history[display.role]), display.role
