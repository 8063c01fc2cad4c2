"""The wiring diagram: every device wired to the exact header pins its profile gives, the
same bytes every time, the checked-in pictures current, bad profiles refused by line."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware import cli
from hardware.profile import load_profile, parse_profile
from hardware.wiring import (
    HEADER,
    connection_table,
    physical_pin,
    pin_rows,
    pin_table_markdown,
    wiring,
    wiring_svg,
)

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
# full-table's readers: role, chip-select GPIO, its physical header pin
FULL_TABLE_SELECTS = [
    ("stake-0", 5, 29),
    ("stake-1", 6, 31),
    ("stake-2", 13, 33),
    ("stake-3", 16, 36),
    ("stake-4", 26, 37),
]
FULL_TABLE_IRQS = [("stake-0", 4, 7), ("stake-1", 23, 16), ("stake-2", 24, 18)]
FULL_TABLE_IRQS += [("stake-3", 25, 22), ("stake-4", 18, 12)]
SPI_DISPLAY = """
[[readers]]
role = "main"
interface = "spi"
bus = 1  # not SPI0: its transfers would select the display on CE0 too
cs = 5

[[displays]]
role = "main"
interface = "spi"
bus = 0
device = 0
dc = 24
reset = 25

[[displays]]
role = "status"
interface = "spi"
cs = 6
dc = 24

[[buttons]]
role = "ok"
pin = 22
pull_up = false
"""


def svg_tree(profile) -> ET.Element:
    return ET.fromstring(wiring_svg(profile))


def texts(element: ET.Element) -> list[str]:
    return ["".join(node.itertext()) for node in element.iter(f"{SVG}text")]


def device_box(root: ET.Element, name: str) -> ET.Element:
    (box,) = [g for g in root.iter(f"{SVG}g") if g.get("data-device") == name]
    return box


def branches(root: ET.Element, **attribute) -> list[str]:
    """The `data-to` terminals of the lane with that attribute (data-pin or mux terminal)."""
    (key, value), = attribute.items()  # fmt: skip
    key = key.replace("_", "-")
    lanes = [g for g in root.iter(f"{SVG}g") if g.get(key) == str(value)]
    assert len(lanes) == 1, f"expected one lane with {key}={value}"
    return [line.get("data-to") for line in lanes[0].iter(f"{SVG}line") if line.get("data-to")]


@pytest.mark.parametrize("name", ["full-table", "minimal"])
def test_the_diagram_is_well_formed_svg_naming_every_device(name):
    profile = load_profile(name)
    root = svg_tree(profile)
    assert root.tag == f"{SVG}svg"
    expected = [f"reader {r.role}" for r in profile.readers]
    expected += [f"display {d.role}" for d in profile.displays]
    expected += [f"button {b.role}" for b in profile.buttons]
    expected += ["buzzer"] if profile.buzzer else []
    expected += ["multiplexer"] if profile.mux else []
    boxes = [g.get("data-device") for g in root.iter(f"{SVG}g") if g.get("data-device")]
    assert sorted(boxes) == sorted(expected)
    for device in expected:
        assert any(text.startswith(f"{device}: ") for text in texts(device_box(root, device)))


def test_full_table_readers_hang_on_their_chip_selects_and_share_spi0():
    root = svg_tree(load_profile("full-table"))
    for role, gpio, pin in FULL_TABLE_SELECTS:
        box = texts(device_box(root, f"reader {role}"))
        assert f"SS \u2192 pin {pin} GPIO{gpio}" in box
        assert branches(root, data_pin=pin) == [f"reader {role} SS"]
    for role, gpio, pin in FULL_TABLE_IRQS:  # each reader's IRQ line on a GPIO of its own
        assert f"IRQ \u2192 pin {pin} GPIO{gpio}" in texts(device_box(root, f"reader {role}"))
        assert branches(root, data_pin=pin) == [f"reader {role} IRQ"]
    roles = [role for role, _, _ in FULL_TABLE_SELECTS]
    for pin, terminal in ((23, "SCK"), (21, "MISO"), (19, "MOSI"), (4, "VCC")):
        assert branches(root, data_pin=pin) == [f"reader {role} {terminal}" for role in roles]
    assert "SCK \u2192 pin 23 GPIO11 SPI0 SCLK" in texts(device_box(root, "reader stake-0"))
    header = texts(root)
    assert "36 GPIO16" in header and "36 GPIO16 SPI1 CE2" not in header  # a GPIO chip-select
    assert "23 GPIO11 SPI0 SCLK" in header and "35 GPIO19 SPI1 MISO" in header


def test_full_table_displays_hang_on_multiplexer_channels():
    profile = load_profile("full-table")
    root = svg_tree(profile)
    assert branches(root, data_pin=3) == ["multiplexer SDA"]
    assert branches(root, data_pin=5) == ["multiplexer SCL"]
    for channel, display in enumerate(profile.displays):
        name = f"display {display.role}"
        assert branches(root, data_mux_terminal=f"SD{channel}") == [f"{name} SDA"]
        assert branches(root, data_mux_terminal=f"SC{channel}") == [f"{name} SCL"]
        assert f"SDA \u2192 multiplexer SD{channel}" in texts(device_box(root, name))
    assert f"display {profile.displays[0].role} VCC" in branches(root, data_pin=1)


def test_buttons_and_buzzer_with_their_pull_up_notes():
    root = svg_tree(load_profile("full-table"))
    for role, gpio in (("undo", 17), ("select", 27), ("ok", 22)):
        box = texts(device_box(root, f"button {role}"))
        assert f"contact 1 \u2192 pin {physical_pin(gpio)} GPIO{gpio}" in box
        assert "internal pull-up: pressed pulls it to GND" in box
        assert any(t.startswith("contact 2 \u2192 pin ") and t.endswith(" GND") for t in box)
    assert branches(root, data_pin=32) == ["buzzer +"]


def test_an_spi_display_shows_its_dc_reset_and_chip_select_lines():
    profile = parse_profile(SPI_DISPLAY, source="spi.toml")
    root = svg_tree(profile)
    main = texts(device_box(root, "display main"))
    assert "DC \u2192 pin 18 GPIO24" in main
    assert "RES \u2192 pin 22 GPIO25" in main
    assert "CS \u2192 pin 24 GPIO8 SPI0 CE0" in main  # no cs: the hardware CE0
    assert "D0 (SCK) \u2192 pin 23 GPIO11 SPI0 SCLK" in main
    assert branches(root, data_pin=18) == ["display main DC", "display status DC"]
    assert branches(root, data_pin=22) == ["display main RES"]
    status = texts(device_box(root, "display status"))
    assert "CS \u2192 pin 31 GPIO6" in status
    assert "RES: no reset line in the profile; tie RES to 3V3" in status
    ok = texts(device_box(root, "button ok"))
    assert "internal pull-down: pressed pulls it to 3V3" in ok
    assert "contact 2 \u2192 pin 17 3V3" in ok  # pin 17 is the 3V3 pin nearest pin 15


def test_other_readers_irq_reset_uart_and_a_software_multiplexer():
    profile = parse_profile(
        """
[mux]
bus = 1
address = 0x71

[[readers]]
role = "stake-0"
interface = "i2c"
mux_channel = 3
irq = 4
reset = 23

[[readers]]
role = "main"
interface = "uart"
port = "/dev/serial0"

[encoder]
a = 20
b = 21
""",
        source="mixed.toml",
    )
    devices = {device.name: device for device in wiring(profile)}
    stake = {w.terminal: w for w in devices["reader stake-0"].wires}
    assert stake["SDA"].mux_terminal == "SD3" and stake["SCL"].mux_terminal == "SC3"
    assert (stake["IRQ"].pin, stake["RSTPDN"].pin, stake["VCC"].pin) == (7, 16, 1)
    uart = {w.terminal: w.to for w in devices["reader main"].wires}
    assert uart["TXD"] == "pin 10 GPIO15 RXD" and uart["RXD"] == "pin 8 GPIO14 TXD"
    assert "address 0x71: A0 3V3, A1 GND, A2 GND" in devices["multiplexer"].notes
    encoder = {w.terminal: w.pin for w in devices["encoder"].wires}
    assert encoder == {"A": 38, "B": 40, "C": 39}
    root = svg_tree(profile)
    assert branches(root, data_mux_terminal="SD3") == ["reader stake-0 SDA"]
    assert "encoder" in [g.get("data-device") for g in root.iter(f"{SVG}g")]


def test_a_reader_on_a_kernel_multiplexer_bus_hangs_on_that_channel():
    profile = parse_profile(
        "[mux]\nkernel_buses = [10, 11, 12, 13, 14, 15, 16, 17]\n\n"
        '[[readers]]\nrole = "stake-0"\ninterface = "i2c"\nbus = 12\n'
    )
    reader, mux = wiring(profile)
    assert [w.to for w in reader.wires if w.terminal in ("SDA", "SCL")] == [
        "multiplexer SD2",
        "multiplexer SC2",
    ]
    assert [(w.terminal, w.to) for w in mux.wires[4:]] == [
        ("SD2", "reader stake-0 SDA"),
        ("SC2", "reader stake-0 SCL"),
    ]


def test_the_header_map_is_the_pis():
    assert sorted(HEADER) == list(range(1, 41))
    gpios = [name for name in HEADER.values() if name.startswith("GPIO")]
    assert sorted(gpios) == sorted(f"GPIO{n}" for n in range(28))
    assert [HEADER[p] for p in (1, 17)] == ["3V3", "3V3"]
    assert [HEADER[p] for p in (2, 4)] == ["5V", "5V"]
    assert [p for p, name in HEADER.items() if name == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]
    assert [physical_pin(g) for g in (2, 3, 14, 15, 10, 9, 11, 8, 7)] == [
        3, 5, 8, 10, 19, 21, 23, 24, 26,
    ]  # fmt: skip
    with pytest.raises(ValueError, match="GPIO28 is not on the 40-pin header"):
        physical_pin(28)


def test_the_same_profile_gives_the_same_bytes_in_any_process():
    here = wiring_svg(load_profile("full-table"))
    assert here == wiring_svg(load_profile("full-table"))
    code = (
        "import sys; from hardware.profile import load_profile; "
        "from hardware.wiring import wiring_svg; "
        "sys.stdout.write(wiring_svg(load_profile('full-table')))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout == here


@pytest.mark.parametrize("name", ["full-table", "minimal"])
def test_the_checked_in_diagrams_are_current(name):
    path = ROOT / "docs" / "wiring" / f"{name}.svg"
    fresh = wiring_svg(load_profile(name))
    assert path.exists(), f"missing {path}"
    if path.read_text(encoding="utf-8") != fresh:
        pytest.fail(
            f"docs/wiring/{name}.svg is out of date; regenerate it with: "
            f"arcana-table wiring --profile {name} --svg docs/wiring/{name}.svg"
        )


@pytest.mark.parametrize("name", ["full-table", "minimal"])
def test_the_build_guide_pin_tables_match_the_profiles(name):
    guide = (ROOT / "docs" / "build-guide.md").read_text(encoding="utf-8")
    start = guide.index(f"<!-- pins:{name} -->\n") + len(f"<!-- pins:{name} -->\n")
    table = guide[start : guide.index("<!-- end pins -->", start)]
    assert table == pin_table_markdown(load_profile(name)), (
        f"docs/build-guide.md's pin table for {name} is out of date; paste the output of: "
        f'python -c "from hardware.wiring import pin_table_markdown as t; '
        f"from hardware.profile import load_profile as p; print(t(p('{name}')), end='')\""
    )
    assert f"](wiring/{name}.svg)" in guide


def test_the_text_table_lists_each_wire_and_each_pin_in_use():
    profile = load_profile("full-table")
    table = connection_table(profile)
    lines = [line.split() for line in table.splitlines()]
    assert ["reader", "stake-3", "SS", "pin", "36", "GPIO16", "chip-select"] in lines
    assert ["button", "undo", "contact", "1", "pin", "11", "GPIO17", "button,", "encoder"] in lines
    rows = {pin: (name, users) for pin, name, users in pin_rows(profile)}
    assert rows[36] == ("GPIO16", "reader stake-3 SS")  # a GPIO chip-select, not SPI1 CE2
    assert rows[3] == ("GPIO2 SDA1", "multiplexer SDA")
    # ground from the GND pin nearest each device's first signal (a reader's IRQ, here)
    assert rows[14] == (
        "GND",
        "reader stake-1 GND, reader stake-4 GND, button select contact 2, button ok contact 2",
    )


def test_the_command_writes_the_svg_and_prints_the_text(tmp_path, capsys):
    out = tmp_path / "table.svg"
    assert cli.main(["wiring", "--profile", "minimal", "--svg", str(out), "--text"]) == 0
    assert out.read_text(encoding="utf-8") == wiring_svg(load_profile("minimal"))
    assert capsys.readouterr().out == connection_table(load_profile("minimal"))
    assert [p.name for p in tmp_path.iterdir()] == ["table.svg"]


def test_a_bad_profile_exits_2_naming_the_line_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[buttons]]\nrole = "ok"\npin = 22\n\n[[buttons]]\nrole = "undo"\npin = 22\n')
    out = tmp_path / "table.svg"
    assert cli.main(["wiring", "--profile", str(bad), "--svg", str(out)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml line 7: duplicate pin GPIO22: button undo pin and button ok pin" in err
    assert not out.exists()


def test_an_unwritable_output_exits_1_with_a_sentence(tmp_path, capsys):
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("keep me")
    out = not_a_folder / "table.svg"
    assert cli.main(["wiring", "--profile", "minimal", "--svg", str(out)]) == 1
    assert f"arcana-table wiring: cannot write {out}" in capsys.readouterr().err
    assert not_a_folder.read_text() == "keep me"


def test_the_command_is_listed_with_its_help(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["wiring", "--help"])
    assert stop.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert cli.COMMANDS["wiring"] == ("wiring", "draw the wiring diagram of a table profile as SVG")
    assert "draw the wiring diagram of a table profile as SVG" in out
    assert "--svg OUT" in out and "--text" in out
