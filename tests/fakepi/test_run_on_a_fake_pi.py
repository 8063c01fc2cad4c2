"""`arcana-table run --profile P` (real mode, as the systemd unit starts it) on a fake Pi 4
and Pi 5: a tag on a fake reader and a press of a fake button reach the game, and every fake
OLED then shows exactly what the emulated table (`EmulatedTable`) shows after the same steps."""

from __future__ import annotations

import pytest

from firmware.games import GameShelf
from firmware.screens import SavedScreen, render
from firmware.tabletop import EmulatedTable, uid_for
from hardware.nfc.tags import Ntag
from hardware.profile import load_profile

pytestmark = pytest.mark.fakepi

CARD = "seer_orb"


def emulated_frames(tmp_path, profile, pad: str) -> list[dict[str, bytes]]:
    """The screens of the emulated table: at start, with the card on `pad`, after the
    notice has expired, after a press of Select."""
    spec = load_profile(profile)
    seen = []
    with EmulatedTable(tmp_path / "emulated", GameShelf.for_profile(spec), profile=spec) as top:
        seen.append(top.screens())
        top.table.pads[pad].place(Ntag(uid_for(CARD), card_id=CARD))
        top.settle()
        seen.append(top.screens())
        top.wait(10)
        seen.append(top.screens())
        top.press("select")
        seen.append(top.screens())
    return [{role: image.tobytes() for role, image in frames.items()} for frames in seen]


@pytest.mark.parametrize(
    "board, profile, pad",
    [
        ("pi4", "full-table", "stake-1"),
        ("pi5", "full-table", "stake-3"),
        ("pi5", "minimal", "main"),
    ],
)
def test_a_tag_and_a_button_reach_the_game_and_the_oleds(
    fake_pi, profile_file, tmp_path, wait_for, board, profile, pad
):
    path = str(profile_file(profile))
    start, with_card, expired, selected = emulated_frames(tmp_path, path, pad)
    assert with_card != start and selected != expired  # the steps show on some screen

    pi = fake_pi(board, profile)
    spec = load_profile(path)
    button = next(b.pin for b in spec.buttons if b.role == "select")

    table = pi.start("run", "--profile", path)
    try:
        wait_for(pi.showing(start), "the table's first screens", table)
        before = pi.mark()
        pi.place(pad, uid_for(CARD), CARD)
        # The card's notice lasts seconds: look for it in what the OLEDs showed since.
        wait_for(pi.showed(with_card, before), f"the screens for {CARD} on {pad}", table)
        pi.remove(pad, uid_for(CARD))
        wait_for(pi.showing(expired), "the screens once the notice expired", table)
        pi.press(button)
        wait_for(pi.showing(selected), "the screens after a press of Select", table)
    finally:
        done = pi.stop(table)
    assert done.returncode == 0, done.stderr + pi.testbed_log()
    saved = render(SavedScreen()).tobytes()
    assert pi.screens() == dict.fromkeys((d.role for d in spec.displays), saved)


def emulated_trouble_frames(tmp_path, profile, pad: str) -> list[dict[str, bytes]]:
    """The emulated table's screens: at start, with `pad`'s reader unplugged, plugged back."""
    spec = load_profile(profile)
    seen = []
    with EmulatedTable(tmp_path / "emulated", GameShelf.for_profile(spec), profile=spec) as top:
        seen.append(top.screens())
        top.table.pads[pad].fail("unplugged")
        for _ in range(3):  # a few scan cycles, as the real loop's ticks
            top.wait(1)
        seen.append(top.screens())
        top.table.pads[pad].recover()
        for _ in range(3):
            top.wait(1)
        seen.append(top.screens())
    return [{role: image.tobytes() for role, image in frames.items()} for frames in seen]


@pytest.mark.parametrize(
    "board, profile, pad",
    [("pi4", "full-table", "stake-0"), ("pi5", "mux-readers-spi-oleds", "seat-1")],
)
def test_an_unplugged_reader_shows_its_trouble_and_comes_back(
    fake_pi, profile_file, tmp_path, wait_for, board, profile, pad
):
    path = str(profile_file(profile))
    start, unplugged, back = emulated_trouble_frames(tmp_path, path, pad)
    assert unplugged != start and back == start
    pi = fake_pi(board, profile)

    table = pi.start("run", "--profile", path)
    try:
        wait_for(pi.showing(start), "the table's first screens", table)
        pi.fail(pad, "unplugged")
        wait_for(pi.showing(unplugged), f"the trouble of reader {pad} on the screens", table)
        pi.recover(pad)
        wait_for(pi.showing(back), f"reader {pad} back at work", table)
    finally:
        done = pi.stop(table)
    assert done.returncode == 0, done.stderr + pi.testbed_log()


def test_an_unplugged_display_does_not_stop_the_table_and_catches_up(
    fake_pi, profile_file, tmp_path, wait_for
):
    path = str(profile_file("minimal"))
    spec = load_profile(path)
    with EmulatedTable(tmp_path / "emulated", GameShelf.for_profile(spec), profile=spec) as top:
        start = {role: image.tobytes() for role, image in top.screens().items()}
        top.press("select")
        selected = {role: image.tobytes() for role, image in top.screens().items()}
    assert selected != start
    pi = fake_pi("pi4", "minimal")
    table = pi.start("run", "--profile", path)
    try:
        wait_for(pi.showing(start), "the table's first screen", table)
        pi.unplug_display("main")
        pi.press(next(b.pin for b in spec.buttons if b.role == "select"))
        wait_for(lambda: pi.report()["oled_refused"]["main"] > 0, "a refused transfer", table)
        assert pi.screens() == start  # the OLED missed the change
        pi.plug_display("main")
        wait_for(pi.showing(selected), "the missed screen once the OLED is back", table)
    finally:
        done = pi.stop(table)
    assert done.returncode == 0, done.stderr + pi.testbed_log()
