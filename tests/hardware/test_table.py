"""A whole table built from a profile on emulated buses, with the real drivers underneath."""

from __future__ import annotations

import textwrap
import threading

import pytest

from hardware.buses.emulated import EmulatedBuses
from hardware.nfc.tags import Ntag
from hardware.profile import load_profile, parse_profile
from hardware.table import TableDevices, build_table


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def full_table(clock):
    with build_table(load_profile("full-table"), emulated=True, clock=clock) as table:
        yield table


def test_the_full_table_has_every_part_by_role(full_table):
    roles = [f"stake-{n}" for n in range(5)]
    assert list(full_table.readers) == roles
    assert list(full_table.pads) == roles
    assert list(full_table.displays) == [*roles, "status"]
    assert list(full_table.buttons) == ["undo", "select", "ok"]
    assert full_table.buzzer is not None
    assert all(r.health.state == "ok" for r in full_table.readers.values())


def test_a_card_on_a_pad_is_placed_once_and_removed_after_the_absence_time(full_table, clock):
    pad = full_table.pads["stake-3"]
    pad.place(Ntag("04a1b2c3d4e5f6", card_id="arcana:dragon"))
    (placed,) = full_table.scanner.cycle()
    assert (placed.kind, placed.reader, placed.card_id) == ("placed", "stake-3", "arcana:dragon")
    assert full_table.scanner.cycle() == []
    pad.remove("04a1b2c3d4e5f6")
    assert full_table.scanner.cycle() == []
    clock.now += full_table.profile.absence_s + 0.01
    (removed,) = full_table.scanner.cycle()
    assert (removed.kind, removed.reader) == ("removed", "stake-3")


def test_only_one_rf_field_is_on_after_a_cycle(full_table):
    full_table.scanner.cycle()
    assert not any(pad.rf_field for pad in full_table.pads.values())


def test_displays_by_role_take_images_and_show_them_on_the_emulated_glass(full_table):
    from PIL import Image, ImageDraw

    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 10), "Gold 7", fill=1)
    assert full_table.displays["status"].show(image)
    assert full_table.displays["status"].frame().tobytes() == image.tobytes()
    assert full_table.displays["stake-0"].frame().getbbox() is None  # the others untouched
    assert full_table.displays["status"].counters["wire_bytes"] > 0


def test_buttons_by_role_call_their_callbacks(full_table):
    pressed, held = [], threading.Event()
    full_table.buttons["undo"].when_pressed = lambda b: pressed.append(b.role)
    full_table.buttons["ok"].when_held = lambda b: held.set()
    full_table.press("undo")
    assert pressed == ["undo"]
    full_table.buttons["ok"].device.hold_time = 0.01
    full_table.hold_down("ok")
    assert held.wait(5)
    full_table.let_go("ok")


def test_pressing_a_button_the_table_lacks_says_which_it_has(full_table):
    with pytest.raises(ValueError, match="no 'pass' button; it has: undo, select, ok"):
        full_table.press("pass")


def test_a_real_table_cannot_be_pressed_from_code():
    table = TableDevices(load_profile("minimal"), emulated=False)
    with pytest.raises(ValueError, match="only an emulated table"):
        table.press("ok")


def test_the_minimal_table_reads_through_its_i2c_reader():
    with build_table(load_profile("minimal"), "emulated") as table:
        assert table.readers["main"].firmware_version() == table.pads["main"].firmware
        table.pads["main"].place(Ntag("04010203040506"))
        assert [e.kind for e in table.scanner.cycle()] == ["placed"]


def test_every_bus_kind_of_a_profile_is_built():
    profile = parse_profile(
        textwrap.dedent("""
        [mux]
        bus = 1

        [[readers]]
        role = "seat-0"
        interface = "i2c"
        mux_channel = 0

        [[readers]]
        role = "seat-1"
        interface = "i2c"
        mux_channel = 1

        [[readers]]
        role = "seat-2"
        interface = "uart"

        [[readers]]
        role = "seat-3"
        interface = "spi"
        bus = 1
        cs = 5

        [[displays]]
        role = "status"
        chip = "sh1106"
        interface = "spi"
        dc = 24
        reset = 25
        cs = 6

        [encoder]
        a = 4
        b = 23
        """)
    )
    with build_table(profile, "emulated") as table:
        for role, reader in table.readers.items():
            assert reader.firmware_version() == table.pads[role].firmware, role
        table.pads["seat-1"].place(Ntag("04aabbccddeeff"))
        events = table.scanner.cycle()
        assert [(e.kind, e.reader) for e in events] == [("placed", "seat-1")]
        assert table.displays["status"].clear()
        turns = []
        table.encoder.when_turned = turns.append
        table.turn(-2)
        assert turns == [-1, -1]


def test_an_unplugged_pad_is_a_fault_and_the_other_pads_keep_reading(full_table):
    full_table.pads["stake-1"].fail("unplugged")
    full_table.pads["stake-4"].place(Ntag("04a1b2c3d4e5aa"))
    kinds = [(e.kind, e.reader) for _ in range(3) for e in full_table.scanner.cycle()]
    assert ("reader_fault", "stake-1") in kinds
    assert ("placed", "stake-4") in kinds


def test_closing_twice_is_fine_and_releases_the_pins(clock):
    table = build_table(load_profile("minimal"), "emulated", clock=clock)
    table.close()
    table.close()
    assert table.closed
    assert all(b.device.closed for b in table.buttons.values())
    assert all(d.closed for d in table.displays.values())


def test_readers_behind_a_kernel_driven_multiplexer_sit_on_their_channel_buses():
    profile = parse_profile(
        textwrap.dedent("""
        [mux]
        kernel_buses = [10, 11, 12, 13, 14, 15, 16, 17]

        [[readers]]
        role = "stake-0"
        interface = "i2c"
        mux_channel = 0

        [[readers]]
        role = "stake-1"
        interface = "i2c"
        mux_channel = 1
        irq = 4

        [[displays]]
        role = "stake-1"
        mux_channel = 1
        """)
    )
    with build_table(profile, "emulated") as table:
        assert len(table.nfc_buses) == 2  # one emulated /dev/i2c-N per channel, no selects
        table.pads["stake-1"].place(Ntag("04aabbccddee01"))
        assert [(e.kind, e.reader) for e in table.scanner.cycle()] == [("placed", "stake-1")]
        assert list(table.wiring.i2c_buses) == [11]


class BusesThatWatchTheSPI(EmulatedBuses):
    """Emulated buses that note how much SPI traffic there was as each reader is wired."""

    def __init__(self) -> None:
        super().__init__()
        self.traffic_when_wired: list[int] = []

    def reader_wires(self, spec, mux):
        self.traffic_when_wired.append(sum(p.transactions for p in self.spi_ports.values()))
        return super().reader_wires(spec, mux)


def test_every_chip_select_is_driven_high_before_the_first_reader_speaks():
    buses = BusesThatWatchTheSPI()
    with build_table(load_profile("full-table"), buses) as table:
        assert buses.traffic_when_wired == [0] * 5  # no reader spoke before all were wired
        for spec in table.profile.readers:
            assert buses.lines[spec.cs].history[0] is True  # claimed high from the pull-down
        assert all(r.health.state == "ok" for r in table.readers.values())
        assert buses.spi_ports[0].transactions > 0


def test_an_i2c_reader_with_a_request_line_is_woken_through_it():
    profile = parse_profile(
        '[[readers]]\nrole = "main"\ninterface = "i2c"\nreq = 4\nreset = 17\n'
    )
    with build_table(profile, "emulated") as table:
        assert table.readers["main"].health.state == "ok"
        # adafruit_pn532's wake-up on I2C: P32 (H_REQ) pulsed low, then high
        assert table.buses.lines[4].history == [False, True]
        assert table.buses.lines[17].history[:2] == [False, True]  # and a reset pulse
